// SPDX-License-Identifier: MIT
#pragma once

// Command-line syntax shared by the tools (rknnop-run, rknnop-parity, rknnop-pack): NAME=VALUE options,
// NumPy shapes, and the op's names they take (the session's own check). Mistakes throw usage_error,
// so a tool can tell them from a failure of the op.

#include <rknnop/host/error.hpp>
#include <rknnop/host/op_yml.hpp>

#include <cstddef>      // std::size_t
#include <string>       // std::string
#include <string_view>  // std::string_view
#include <vector>       // std::vector

namespace rknnop::host {

/// A mistake on the command line (what() starts with "rknnop: ", detail() names the option).
class usage_error : public error {
public:
  using error::error;
};

/// One `NAME=VALUE` option.
struct assignment {
  std::string name;
  std::string value;
  friend bool operator==(const assignment&, const assignment&) = default;
};

/// Splits each of `texts` (the values of `option`, e.g. "--input") at its first '=', in command-line
/// order. Throws usage_error "<option> '<text>': expected NAME=<value_hint>" for a text without a
/// name, and "<option> '<NAME>' given twice" when a NAME repeats.
[[nodiscard]] std::vector<assignment> parse_assignments(std::string_view option, const std::vector<std::string>& texts,
                                                        std::string_view value_hint);

/// Whether a NumPy shape may hold a zero dimension (an empty array).
enum class zero_dims : bool { rejected, allowed };

/// Parses a NumPy shape "1,32,32,3" given to `option` for the input or output `name`. Throws
/// usage_error "<option> '<name>': expected a NumPy shape like <example>, got '<text>'".
[[nodiscard]] std::vector<std::size_t> parse_numpy_shape(std::string_view option, std::string_view name,
                                                         std::string_view text, std::string_view example,
                                                         zero_dims zeros = zero_dims::rejected);

/// Which of op.yml's lists a name is looked up in.
enum class op_entry_kind { input, output, param };

/// op.yml's entry called `name` among the op's inputs, outputs or params: the name check of the session
/// and of the tools (names given on the command line). Throws error "op 'X' has no input 'foo'
/// (inputs: a, b)", with "; 'foo' is a param" when it names an entry of another kind.
[[nodiscard]] const op_yml_entry& find_op_entry(const op_yml& op, op_entry_kind kind, std::string_view name);

/// find_op_entry for a NAME given on the command line (`option` NAME=VALUE): throws usage_error
/// "<option> '<name>': op 'X' has no input '<name>' (inputs: a, b)".
[[nodiscard]] const op_yml_entry& find_option_entry(const op_yml& op, op_entry_kind kind, std::string_view option,
                                                    std::string_view name);

/// The last handler of a tool's main, which is a function-try-block:
///   int main(int argc, char** argv) try { ... } catch (...) { return tool_failure("rknnop-run"); }
/// Prints "<tool>: <what>" for whatever escaped the tool's own handlers (including one thrown by a
/// handler) and returns exit status 1. Never throws: nothing leaves main as an exception.
[[nodiscard]] int tool_failure(const char* tool) noexcept;

}  // namespace rknnop::host

// SPDX-License-Identifier: MIT
#pragma once

// The tools' command-line layer (rknnop-run, rknnop-pack, rknnop-parity, rknnop-vxcheck), not installed:
// parsing with one error handler, the options the tools share (one table: names, value types and help
// texts, add_shared_option), NAME=VALUE options, NumPy shapes, the op's names they take, and the exit
// status every tool gives: 0 done, 1 failed, 2 a mistake on the command line.

#include <rknnop/host/error.hpp>
#include <rknnop/host/loader.hpp>  // load_options
#include <rknnop/host/op_yml.hpp>  // op_entry_kind, find_op_entry

#include <cstddef>      // std::size_t
#include <cstdint>      // std::uint32_t
#include <optional>     // std::optional
#include <string>       // std::string
#include <string_view>  // std::string_view
#include <vector>       // std::vector

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace rknnop::tools {

inline constexpr int exit_failure = 1;  ///< the op, a file or the check failed
inline constexpr int exit_usage = 2;    ///< a mistake on the command line

/// A mistake on the command line (what() starts with "rknnop: ", detail() names the option).
class usage_error : public host::error {
public:
  using error::error;
};

/// Parses the command line into `app`'s options: nullopt when the tool should go on, else the exit
/// status to return (0 after --help; exit_usage after one line "<tool>: <CLI11's message>" on stderr).
[[nodiscard]] std::optional<int> parse_or_exit(CLI::App& app, int argc, char** argv);

/// `text` (anything that came from a file, a library or a node runner: a node's name, a model's graph
/// name, a kernel's log line, an error's detail) as it may reach a terminal, on one line: every control
/// byte (newline, tab, ESC, CR, NUL, DEL...), C1 controls, bidirectional overrides and bytes that are not
/// well-formed UTF-8 written as \xHH, so a file cannot start a line of its own ("rknnop-run: ... OK"),
/// move the cursor, rewrite a line or set the terminal's state. Every tool prints such text through it
/// (tests/host/test_terminal_text.cpp greps for prints that bypass it).
[[nodiscard]] std::string terminal_text(std::string_view text);

/// A text of several lines the tool printed from a file's content (session::describe): each line
/// through terminal_text, the line ends kept.
[[nodiscard]] std::string terminal_lines(std::string_view text);

/// The one handler after a tool's work, in its catch (...): prints one line "<tool>: <detail>" for
/// what escaped (a usage_error or rknnop::host::error: its detail(); std::bad_alloc: "out of memory
/// while <stage>"; another exception: its what()) after flushing stdout, and returns exit_usage for a usage_error,
/// exit_failure otherwise. Never throws: nothing leaves main as an exception.
///   int main(int argc, char** argv) try { ... } catch (...) { return tools::tool_failure("rknnop-run"); }
[[nodiscard]] int tool_failure(const char* tool, std::string_view stage = {}) noexcept;

/// `--memory-limit SIZE` on `app`: sets rknnop::host's memory budget (docs/memory-budget.md) when
/// parsed; a SIZE that is not one throws usage_error naming the option.
void add_memory_limit_option(CLI::App& app);

/// The values of the options the tools that load an op share (rknnop-run in both modes, rknnop-parity),
/// as given on the command line.
struct shared_options {
  std::string op;                    ///< the positional: a .rknnop, a kernel library, or (rknnop-run) a .rknn model
  std::string op_yml;                ///< --op-yml
  std::string vx_file;               ///< --vx
  std::string tensor_type;           ///< --tensor-type, as given
  std::vector<std::string> inputs;   ///< -i,--input NAME=FILE.npy
  std::vector<std::string> params;   ///< -p,--param NAME=VALUE
  std::vector<std::string> outputs;  ///< -o,--output NAME=FILE.npy
  bool allow_lossy = false;          ///< --allow-lossy
  bool describe = false;             ///< --describe
  std::uint32_t repeat = 0;          ///< --repeat N (0: run once, print no timing)
};

/// The shared options, each with its one name, value and help text (cli.cpp's table).
enum class shared_option { op, op_yml, input, param, output, vx, tensor_type, allow_lossy, describe, repeat };

/// Adds `which` to `app`, bound to its member of `values`, with the table's names and help; `help`, when
/// given, says what the option means to this tool instead (rknnop-parity's --input is its first case).
CLI::Option* add_shared_option(CLI::App& app, shared_option which, shared_options& values, std::string_view help = {});

/// The load_options the shared options give: --op-yml (when given) and `kernel_index`.
[[nodiscard]] host::load_options load_options_of(const shared_options& values,
                                                 std::optional<std::uint32_t> kernel_index);

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

/// find_op_entry for a NAME given on the command line (`option` NAME=VALUE): throws usage_error
/// "<option> '<name>': op 'X' has no input '<name>' (inputs: a, b)".
[[nodiscard]] const host::op_yml_entry& find_option_entry(const host::op_yml& op, host::op_entry_kind kind,
                                                          std::string_view option, std::string_view name);

}  // namespace rknnop::tools

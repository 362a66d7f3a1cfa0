// SPDX-License-Identifier: MIT
#pragma once

// Param values as the board runtime hands them to a kernel (docs/runtime.md §3): VX_TYPE_ARRAY params are
// int32 arrays; scalars are stored with their yml type (BOOL as a 4-byte 0/1, FLOAT16 as binary16).
// Parsed from command-line text ("64,64", "true", "0.5") or built from typed C++ values, always
// range-checked, with errors naming the param, the expected type and the offending text.

#include <rknnop/host/op_yml.hpp>  // op_yml_entry

#include <array>        // std::array
#include <cstddef>      // std::size_t
#include <cstdint>      // std::int32_t, std::int64_t, std::uint64_t, std::uint8_t
#include <optional>     // std::optional
#include <span>         // std::span
#include <string>       // std::string
#include <string_view>  // std::string_view
#include <vector>       // std::vector

namespace rknnop::host {

struct param_value {
  std::int32_t type = 0;                 ///< VX_TYPE_ARRAY or a scalar vx_type_e value
  std::vector<std::int32_t> items;       ///< array items (type == VX_TYPE_ARRAY)
  std::array<std::uint8_t, 8> scalar{};  ///< scalar bytes, native order, first scalar_size() used

  [[nodiscard]] bool is_array() const noexcept;
  [[nodiscard]] std::size_t scalar_size() const noexcept;
  [[nodiscard]] const void* scalar_data() const noexcept { return scalar.data(); }
  /// The value as the user would write it ("64,64", "true", "0.5").
  [[nodiscard]] std::string to_string() const;

  friend bool operator==(const param_value&, const param_value&) = default;
};

/// Parses command-line text for param `name` of VX type `type`:
/// BOOL: true/false/1/0; integer types: decimal (or 0x hex) within the type's range; CHAR: one
/// character or an integer in [-128, 127]; FLOAT16/32/64: a finite number within the type's range;
/// ARRAY: comma-separated int32 items like 64,64 (at least one; exactly `array_length` if given).
[[nodiscard]] param_value parse_param_value(std::string_view name, std::int32_t type, std::string_view text,
                                            std::optional<std::size_t> array_length = std::nullopt);

/// Parses `text` for op.yml's param `entry` as every tool's --param does: an enum param by name only
/// (a number is refused, listing the names and their values), an array with the item count or limit
/// of rknnop's field comment (docs/op-yml.md §6), anything else as parse_param_value. Used for
/// defaults too (default_param_value).
[[nodiscard]] param_value parse_param_value(const op_yml_entry& entry, std::string_view text);

/// The one rule every reader of a param applies (rknnop-run, rknnop-pack wrap, rknnop-parity, the
/// session, a model's node params): `value` has the entry's type, an enum param holds one of its
/// enumerators' values, an array holds exactly (or at most) op.yml's item count. Throws error
/// "param 'x': ..." naming the allowed values. Command-line text gives an enum by name only
/// (parse_param_value(entry, text)); typed values and a model's JSON give its number.
void check_param_value(const op_yml_entry& entry, const param_value& value);

/// The param's default (the op struct's default member initializer, op.yml's rknnop-field comment)
/// read as --param would read it, or nullopt when the op gives none. Throws when the default itself
/// is not a value of the param (an op.yml written by hand).
[[nodiscard]] std::optional<param_value> default_param_value(const op_yml_entry& entry);

/// The value as every tool shows it: "NHWC (0)" for an enum param (the name, then the number the
/// kernel sees), "64,64", "true", "0.5" otherwise (param_value::to_string()).
[[nodiscard]] std::string param_value_text(const op_yml_entry& entry, const param_value& value);

/// Typed builders with the same checks and messages.
[[nodiscard]] param_value make_param_value(std::string_view name, std::int32_t type, bool value);
[[nodiscard]] param_value make_param_value(std::string_view name, std::int32_t type, std::int64_t value);
[[nodiscard]] param_value make_param_value(std::string_view name, std::int32_t type, std::uint64_t value);
[[nodiscard]] param_value make_param_value(std::string_view name, std::int32_t type, double value);
[[nodiscard]] param_value make_param_value(std::string_view name, std::int32_t type,
                                           std::span<const std::int32_t> items,
                                           std::optional<std::size_t> array_length = std::nullopt);

}  // namespace rknnop::host

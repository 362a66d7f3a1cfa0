// SPDX-License-Identifier: MIT
#pragma once

// VX type names as written in op.yml ("VX_TYPE_INT32") and their numeric vx_type_e values: the host
// library's view of the one table, include/rknnop/detail/vx_types.hpp.

#include <rknnop/detail/vx_types.hpp>

#include <cstddef>      // std::size_t
#include <cstdint>      // std::int32_t
#include <optional>     // std::optional
#include <string_view>  // std::string_view

namespace rknnop::host {

namespace vx_type = ::rknnop::detail::vx_type_value;

/// "VX_TYPE_INT32" -> 0x6 for every name op.yml may use (scalars incl. ENUM/SIZE, ARRAY, SCALAR, TENSOR).
[[nodiscard]] constexpr std::optional<std::int32_t> vx_type_from_name(std::string_view name) noexcept {
  const std::size_t i = detail::vx_type_index(name.data(), name.size());  // by index: constexpr under UBSan
  if (i == detail::vx_type_count || !detail::vx_type_table[i].is(detail::vx_use_op_yml)) return std::nullopt;
  return detail::vx_type_table[i].value;
}
/// 0x6 -> "VX_TYPE_INT32" for the types op.yml may name; "" for others.
[[nodiscard]] constexpr std::string_view vx_type_name(std::int32_t type) noexcept {
  const std::size_t i = detail::vx_type_index(type);
  return i < detail::vx_type_count && detail::vx_type_table[i].is(detail::vx_use_op_yml)
             ? std::string_view(detail::vx_type_table[i].name)
             : std::string_view();
}
/// The scalar types the board runtime can create for a param (docs/runtime.md §3): CHAR..FLOAT64, FLOAT16, BOOL.
[[nodiscard]] constexpr bool is_param_scalar_type(std::int32_t type) noexcept {
  const std::size_t i = detail::vx_type_index(type);
  return i < detail::vx_type_count && detail::vx_type_table[i].is(detail::vx_use_scalar) &&
         detail::vx_type_table[i].is(detail::vx_use_op_yml);
}
/// Bytes a scalar or array item of this type occupies (BOOL is a 4-byte enum); 0 for objects.
[[nodiscard]] constexpr std::size_t vx_scalar_size(std::int32_t type) noexcept {
  return detail::vx_type_size(type, detail::vx_use_array);
}

}  // namespace rknnop::host

// SPDX-License-Identifier: MIT
#pragma once

// VX type names as written in op.yml ("VX_TYPE_INT32") and their numeric vx_type_e values.

#include <cstddef>     // std::size_t
#include <cstdint>     // std::int32_t
#include <optional>    // std::optional
#include <string_view> // std::string_view

namespace rknnop::host {

namespace vx_type {
inline constexpr std::int32_t char_ = 0x001;
inline constexpr std::int32_t int8 = 0x002;
inline constexpr std::int32_t uint8 = 0x003;
inline constexpr std::int32_t int16 = 0x004;
inline constexpr std::int32_t uint16 = 0x005;
inline constexpr std::int32_t int32 = 0x006;
inline constexpr std::int32_t uint32 = 0x007;
inline constexpr std::int32_t int64 = 0x008;
inline constexpr std::int32_t uint64 = 0x009;
inline constexpr std::int32_t float32 = 0x00A;
inline constexpr std::int32_t float64 = 0x00B;
inline constexpr std::int32_t enum_ = 0x00C;
inline constexpr std::int32_t size = 0x00D;
inline constexpr std::int32_t float16 = 0x00F;
inline constexpr std::int32_t bool_ = 0x010;
inline constexpr std::int32_t scalar = 0x80D;
inline constexpr std::int32_t array = 0x80E;
inline constexpr std::int32_t tensor = 0x815;
} // namespace vx_type

/// "VX_TYPE_INT32" -> 0x6 for every name rknnop knows (scalars incl. ENUM/SIZE, ARRAY, SCALAR, TENSOR).
[[nodiscard]] std::optional<std::int32_t> vx_type_from_name(std::string_view name) noexcept;
/// 0x6 -> "VX_TYPE_INT32"; "" for unknown values.
[[nodiscard]] std::string_view vx_type_name(std::int32_t type) noexcept;
/// The scalar types the board runtime can create for a param (docs/runtime.md §3): CHAR..FLOAT64, FLOAT16, BOOL.
[[nodiscard]] bool is_param_scalar_type(std::int32_t type) noexcept;
/// Bytes a scalar of this type occupies (BOOL is a 4-byte enum); 0 for non-scalars.
[[nodiscard]] std::size_t vx_scalar_size(std::int32_t type) noexcept;

} // namespace rknnop::host

// SPDX-License-Identifier: MIT
#pragma once

// Layer 2 of detail/ (docs/architecture.md §1): the tensor element types, rknnop::dtype's seven, in
// one table: VX type and NumPy descr (the C++ type is vx_types.hpp's vx_cpp_type of the VX type; size
// and name are vx_type_table's). Every mapping between them reads it: element_dtype
// (C++ type -> VX type, types.hpp), visit_dtype (VX type -> C++ type: the one dispatch over the
// seven, for the host's .npy reader and the parity harness), the .npy descr (<rknnop/vx_type.hpp>).
// Standard library and <rknnop/float16.hpp> only (no OpenVX header).

#include <rknnop/detail/vx_types.hpp>
#include <rknnop/float16.hpp>  // the C++ type of VX_TYPE_FLOAT16

#include <cstddef>      // std::size_t
#include <cstdint>      // the fixed-width C++ types of the table
#include <string_view>  // NumPy descr
#include <type_traits>  // std::type_identity
#include <utility>      // std::index_sequence

RKNNOP_DETAIL_BEGIN_HIDDEN  // see config.hpp: nothing of the SDK is exported

namespace rknnop {
// The element types a tensor may hold (<rknnop/types.hpp>; the host's .npy dtype is the same enum).
// Their values are the VX types' (rknnop::vx_type, the one table in vx_types.hpp): dtype is the
// kernel-facing subset, a separate enum so that a switch over a tensor's dtype has seven cases, not
// twenty (vx_type also names CHAR, BOOL, ENUM, objects...). Its rows are dtype_table's.
enum class dtype : std::int32_t {  // std::int32_t is vx_enum
  float16 = vx_type::float16,
  float32 = vx_type::float32,
  int8 = vx_type::int8,
  uint8 = vx_type::uint8,
  int16 = vx_type::int16,
  uint16 = vx_type::uint16,
  int32 = vx_type::int32,
};
}  // namespace rknnop

namespace rknnop::detail {

struct dtype_info {
  std::int32_t vx;    // the VX type (its size and name are in vx_type_table)
  char npy_descr[4];  // NumPy's descr as rknnop writes it: "<f2", "|u1" (byte order '|' for one byte)
};

inline constexpr dtype_info dtype_table[] = {
    {vx_type::float16, "<f2"}, {vx_type::float32, "<f4"}, {vx_type::int8, "|i1"},  {vx_type::uint8, "|u1"},
    {vx_type::int16, "<i2"},   {vx_type::uint16, "<u2"},  {vx_type::int32, "<i4"},
};
inline constexpr std::size_t dtype_count = sizeof dtype_table / sizeof dtype_table[0];

/// The C++ type of row `Row` (vx_types.hpp's vx_cpp_type: rknnop::float16, float, std::int8_t, ...).
template <std::size_t Row>
using dtype_type = vx_cpp_type_t<dtype_table[Row].vx>;

/// The VX type of the C++ type T; vx_type::invalid (0) when T is no tensor element type.
template <class T>
[[nodiscard]] constexpr std::int32_t dtype_vx_of() noexcept {
  return []<std::size_t... Row>(std::index_sequence<Row...>) {
    std::int32_t vx = vx_type::invalid;
    ((std::is_same_v<T, dtype_type<Row>> ? (vx = dtype_table[Row].vx) : 0), ...);
    return vx;
  }(std::make_index_sequence<dtype_count>{});
}

/// Calls f(std::type_identity<T>{}) with the C++ type of the VX type `type` and returns true; false
/// (f not called) when `type` is none of the seven.
template <class F>
constexpr bool visit_dtype(std::int32_t type, F&& f) {
  return [&]<std::size_t... Row>(std::index_sequence<Row...>) {
    return ((dtype_table[Row].vx == type ? (f(std::type_identity<dtype_type<Row>>{}), true) : false) || ...);
  }(std::make_index_sequence<dtype_count>{});
}

/// The row of `type`; dtype_count when it is none of the seven.
[[nodiscard]] constexpr std::size_t dtype_row(std::int32_t type) noexcept {
  std::size_t r = 0;
  while (r < dtype_count && dtype_table[r].vx != type) ++r;
  return r;
}

/// The row of a NumPy descr: "<f4" or "=f4" (native order: little-endian on every target rknnop
/// runs on), and "|" as well for one-byte types; dtype_count for anything else.
[[nodiscard]] constexpr std::size_t dtype_row_of_npy(std::string_view descr) noexcept {
  if (descr.size() != 3) return dtype_count;
  std::size_t r = 0;
  while (r < dtype_count && descr.substr(1) != std::string_view(dtype_table[r].npy_descr + 1, 2)) ++r;
  if (r == dtype_count) return r;
  const bool one_byte = dtype_table[r].npy_descr[0] == '|';
  return descr[0] == '<' || descr[0] == '=' || (descr[0] == '|' && one_byte) ? r : dtype_count;
}

}  // namespace rknnop::detail

RKNNOP_DETAIL_END_HIDDEN

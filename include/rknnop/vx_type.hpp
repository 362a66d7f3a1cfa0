// SPDX-License-Identifier: MIT
#pragma once

// The VX type (vx_type_e, docs/abi.md §7): its one C++ name, rknnop::vx_type, and the queries the host
// components and tools need, all read from the one table (detail/vx_types.hpp). Standard library only:
// no OpenVX header is needed.
//
// rknnop::vx_type::int32 is VX_TYPE_INT32 (tests/core/test_vx_types.cpp pins every value to openvx.h).
// VX_TYPE_* stays the spelling of code that talks to the OpenVX C API; rknnop::dtype (<rknnop/types.hpp>)
// is the narrower type a kernel sees for a tensor's elements: its seven enumerators are these values.
//
// The queries take a std::int32_t, so that a value read from a file (op.yml, a .rknn model) is asked
// about before it is trusted: a vx_type converts to it implicitly.
//
// rknnop::vx_max_tensor_rank (6, defined beside vx_type) is the most dims a tensor has on the board.

#include <rknnop/detail/dtypes.hpp>
#include <rknnop/detail/vx_types.hpp>

#include <cstddef>      // std::size_t
#include <cstdint>      // std::int32_t
#include <limits>       // vx_type_integer_range
#include <optional>     // vx_type_from_name
#include <string_view>  // names
#include <type_traits>  // std::type_identity

namespace rknnop {

/// "VX_TYPE_INT32" -> vx_type::int32 for every name op.yml may use (docs/op-yml.md §2: the scalars
/// including ENUM and SIZE, ARRAY, SCALAR, TENSOR); nullopt for anything else. Exact, case-sensitive.
[[nodiscard]] constexpr std::optional<vx_type> vx_type_from_name(std::string_view name) noexcept {
  const std::size_t i = detail::vx_type_index(name.data(), name.size());  // by index: constexpr under UBSan
  if (i == detail::vx_type_count || !detail::vx_type_table[i].is(detail::vx_use_op_yml)) return std::nullopt;
  return static_cast<vx_type>(detail::vx_type_table[i].value);
}

/// vx_type::int32 -> "VX_TYPE_INT32" for the types op.yml may name; "" for any other value.
[[nodiscard]] constexpr std::string_view vx_type_name(std::int32_t type) noexcept {
  const std::size_t i = detail::vx_type_index(type);
  return i < detail::vx_type_count && detail::vx_type_table[i].is(detail::vx_use_op_yml)
             ? std::string_view(detail::vx_type_table[i].name)
             : std::string_view();
}

/// The scalar types the board runtime can create for a param (docs/runtime.md §3): CHAR..FLOAT64,
/// FLOAT16, BOOL.
[[nodiscard]] constexpr bool is_param_scalar_type(std::int32_t type) noexcept {
  const std::size_t i = detail::vx_type_index(type);
  return i < detail::vx_type_count && detail::vx_type_table[i].is(detail::vx_use_scalar) &&
         detail::vx_type_table[i].is(detail::vx_use_op_yml);
}

/// Bytes a scalar or array item of this type occupies (BOOL is a 4-byte enum); 0 for objects.
[[nodiscard]] constexpr std::size_t vx_scalar_size(std::int32_t type) noexcept {
  return detail::vx_type_size(type, detail::vx_use_array);
}

/// Bytes of a scalar the runtime can create of this type; 0 where it cannot (as on the board).
[[nodiscard]] constexpr std::size_t vx_creatable_scalar_size(std::int32_t type) noexcept {
  return detail::vx_type_size(type, detail::vx_use_scalar);
}

/// Bytes of one tensor element of this type; 0 for types a tensor cannot hold.
[[nodiscard]] constexpr std::size_t vx_tensor_element_size(std::int32_t type) noexcept {
  return detail::tensor_element_size(type);
}

/// The OpenCL C types a shader may declare for a scalar of this type, preferred first ("int", then
/// "bool" for BOOL); "" where there is none (objects, ENUM, SIZE, BOOL8, values outside the table).
[[nodiscard]] constexpr std::string_view vx_type_opencl(std::int32_t type, bool alternative = false) noexcept {
  const std::size_t i = detail::vx_type_index(type);
  if (i == detail::vx_type_count) return {};
  // The arrays themselves, "" where there is none (a pointer compared with nullptr is no constant
  // expression under -fsanitize=undefined).
  const detail::vx_type_info& row = detail::vx_type_table[i];
  return alternative ? std::string_view(row.opencl_alt_text) : std::string_view(row.opencl_text);
}

/// The name of any value of the table ("VX_TYPE_BOOL8", "VX_TYPE_INVALID" included), for diagnostics;
/// "" for values outside the table.
[[nodiscard]] constexpr std::string_view vx_type_table_name(std::int32_t type) noexcept {
  const std::size_t i = detail::vx_type_index(type);
  return i < detail::vx_type_count ? std::string_view(detail::vx_type_table[i].name) : std::string_view();
}

/// Calls f(std::type_identity<T>{}) with the C++ type of a tensor element of VX type `type`
/// (rknnop::dtype's seven: rknnop::float16, float, std::int8_t, std::uint8_t, std::int16_t,
/// std::uint16_t, std::int32_t) and returns true; returns false, f not called, for any other value.
/// The one dispatch from a run-time type to code for its elements (the .npy reader, the parity harness).
template <class F>
constexpr bool visit_tensor_element_type(std::int32_t type, F&& f) {
  return detail::visit_dtype(type, static_cast<F&&>(f));
}

/// Calls f(std::type_identity<T>{}) with the C++ type whose bytes hold a scalar param of VX type `type`
/// (sizeof(T) == vx_scalar_size(type)) and returns true: std::int8_t for CHAR (signed on every target),
/// std::int8_t..std::uint64_t, rknnop::float16, float, double, and std::int32_t for BOOL (a 4-byte
/// vx_bool); returns false, f not called, for any other value (ENUM, SIZE, BOOL8, objects). The one
/// dispatch from a scalar's run-time type to code for its bytes (param values, the parity harness).
template <class F>
constexpr bool visit_scalar_type(std::int32_t type, F&& f) {
  return detail::visit_scalar_storage(type, static_cast<F&&>(f));
}

/// The values an integer scalar type holds.
struct vx_integer_range {
  std::int64_t min;
  std::uint64_t max;
};

/// The range of an integer scalar type (CHAR as a signed byte, INT8..UINT64); nullopt for BOOL,
/// the floating-point types and any other value.
[[nodiscard]] constexpr std::optional<vx_integer_range> vx_type_integer_range(std::int32_t type) noexcept {
  std::optional<vx_integer_range> range;
  if (type == vx_type::bool_) return range;  // its bytes are an int32, its values 0 and 1
  visit_scalar_type(type, [&]<class T>(std::type_identity<T>) {
    if constexpr (std::is_integral_v<T>)
      range = vx_integer_range{std::numeric_limits<T>::min(), std::numeric_limits<T>::max()};
  });
  return range;
}

/// FLOAT16, FLOAT32 and FLOAT64.
[[nodiscard]] constexpr bool vx_type_is_floating(std::int32_t type) noexcept {
  bool floating = false;
  visit_scalar_type(type, [&]<class T>(std::type_identity<T>) {
    floating = std::is_floating_point_v<T> || std::is_same_v<T, float16>;
  });
  return floating;
}

/// NumPy's descr of a tensor element type as .npy files are written ("<f2", "|u1", ...); "" for
/// values that are none of the seven.
[[nodiscard]] constexpr std::string_view vx_type_npy_descr(std::int32_t type) noexcept {
  const std::size_t r = detail::dtype_row(type);
  return r < detail::dtype_count ? std::string_view(detail::dtype_table[r].npy_descr) : std::string_view();
}

/// The tensor element type of a NumPy descr: "<f4" or "=f4" (native: little-endian on every target),
/// and "|i1" / "|u1" for one-byte types; vx_type::invalid for anything else.
[[nodiscard]] constexpr vx_type vx_type_from_npy_descr(std::string_view descr) noexcept {
  const std::size_t r = detail::dtype_row_of_npy(descr);
  return r < detail::dtype_count ? static_cast<vx_type>(detail::dtype_table[r].vx) : vx_type::invalid;
}

}  // namespace rknnop

// SPDX-License-Identifier: MIT
#pragma once

// Layer 1 of detail/ (docs/architecture.md §1): the VX type table.
// The one table of VX types (docs/abi.md §7): value, name, element size, C++ type, op.yml, dtype and
// OpenCL spellings. Used by the SDK, the host runtime, the host library, vxc and the emitter; every
// other list of VX types derives from it: a type's C++ type through vx_cpp_type / visit_scalar_storage
// (public: visit_scalar_type), its range and float-ness from that (vx_type_integer_range,
// vx_type_is_floating), the tensor element types through dtype_table (dtypes.hpp). No switch outside
// these two headers lists VX types (tests/core/check_vx_type_lists.cmake fails on one). Standard
// library only (no OpenVX header, no fmt), so that host code without OpenVX declarations can use it;
// tests/core/test_vx_types.cpp pins it to openvx.h.

#include <rknnop/config.hpp>

#include <cstddef>      // std::size_t
#include <cstdint>      // std::int32_t, the fixed-width C++ types of the table
#include <type_traits>  // std::is_constant_evaluated, std::integral_constant
#include <utility>      // std::index_sequence

namespace rknnop {
class float16;  // <rknnop/float16.hpp>: the C++ type of VX_TYPE_FLOAT16 (a user type: not hidden)
}

RKNNOP_DETAIL_BEGIN_HIDDEN  // see config.hpp: nothing of the SDK is exported

// The VX type: the vx_type_e values (docs/abi.md §7) under one C++ name, for code with or without an
// OpenVX header. Public (<rknnop/vx_type.hpp> documents it); defined here because the table below is
// keyed by it. Like OpenVX's own vx_type_e it is an unscoped enum, so a value converts to the vx_enum
// or std::int32_t that files, the OpenVX API and the host's tables carry; its enumerators live in a
// namespace of their own and are spelled vx_type::int8 (they would clash with rknnop::float16 in
// rknnop). Values outside the enumerators (from a hostile file) are representable: the underlying
// type is fixed.
namespace rknnop {
namespace vx_type_enumerators {
enum vx_type : std::int32_t {
  invalid = 0x000,
  char_ = 0x001,
  int8 = 0x002,
  uint8 = 0x003,
  int16 = 0x004,
  uint16 = 0x005,
  int32 = 0x006,
  uint32 = 0x007,
  int64 = 0x008,
  uint64 = 0x009,
  float32 = 0x00A,
  float64 = 0x00B,
  enum_ = 0x00C,
  size = 0x00D,
  float16 = 0x00F,
  bool_ = 0x010,
  bool8 = 0x011,  // VSI only
  scalar = 0x80D,
  array = 0x80E,
  tensor = 0x815,
};
}  // namespace vx_type_enumerators
using vx_type_enumerators::vx_type;

// The most dims a tensor has (docs/runtime.md §4): VSI accepts at most 24 bytes of uint32 dims. Public
// (<rknnop/vx_type.hpp>) so that the SDK, the host runtime and the host library read one constant.
inline constexpr std::size_t vx_max_tensor_rank = 6;
}  // namespace rknnop

namespace rknnop::detail {

// What a type may be used for. A type can be several of these.
enum vx_type_use : unsigned {
  vx_use_none = 0,
  vx_use_tensor = 1U << 0,  // a tensor's element type (the host runtime creates tensors of it)
  vx_use_scalar = 1U << 1,  // the board runtime can create a scalar of it (docs/runtime.md §3)
  vx_use_array = 1U << 2,   // an array's item type
  vx_use_op_yml = 1U << 3,  // op.yml may name it (docs/op-yml.md §2); its op.yml spelling is `name`
};

// Pointer-free (names are arrays, not pointers), so the table sits in .rodata of a kernel library with
// no dynamic relocations: a table of pointers costs every board library ~2 KiB of .data.rel.ro + .rela.dyn.
struct vx_type_info {
  std::int32_t value;
  char name[16];            // "VX_TYPE_FLOAT16": diagnostics, op.yml, the Python class
  std::size_t size;         // bytes of one element or scalar as the runtime copies it; 0 for objects
  unsigned use;             // vx_type_use bits
  char dtype_text[8];       // "float16": NumPy-style spelling of a tensor element type; "" otherwise
  char opencl_text[7];      // OpenCL C type a shader declares for a scalar, preferred first; "": none
  char opencl_alt_text[5];  // a second accepted OpenCL type; "": none

  [[nodiscard]] constexpr bool is(vx_type_use u) const noexcept { return (use & u) != 0; }
  [[nodiscard]] constexpr const char* short_name() const noexcept { return name + 8; }  // "FLOAT16"
  // The spellings, nullptr where the type has none.
  [[nodiscard]] constexpr const char* dtype() const noexcept { return dtype_text[0] ? dtype_text : nullptr; }
  [[nodiscard]] constexpr const char* opencl() const noexcept { return opencl_text[0] ? opencl_text : nullptr; }
  [[nodiscard]] constexpr const char* opencl_alt() const noexcept {
    return opencl_alt_text[0] ? opencl_alt_text : nullptr;
  }
};

// The fact "a vx_bool is 4 bytes" (an enum holding 0 or 1) lives here and only here.
inline constexpr std::size_t vx_bool_size = 4;

namespace vx_type_detail {
inline constexpr unsigned tsa = vx_use_tensor | vx_use_scalar | vx_use_array | vx_use_op_yml;
inline constexpr unsigned sa = vx_use_scalar | vx_use_array | vx_use_op_yml;
}  // namespace vx_type_detail

// FLOAT16 scalars are 16-bit values, so only `half` receives them; BOOL arrives as 32 bits: `int`, or
// `bool` (4 bytes on the NPU). ENUM and SIZE: array items and op.yml names, but no creatable scalar.
inline constexpr vx_type_info vx_type_table[] = {
    {vx_type::invalid, "VX_TYPE_INVALID", 0, vx_use_none, "", "", ""},
    {vx_type::char_, "VX_TYPE_CHAR", 1, vx_type_detail::sa, "", "char", ""},
    {vx_type::int8, "VX_TYPE_INT8", 1, vx_type_detail::tsa, "int8", "char", ""},
    {vx_type::uint8, "VX_TYPE_UINT8", 1, vx_type_detail::tsa, "uint8", "uchar", ""},
    {vx_type::int16, "VX_TYPE_INT16", 2, vx_type_detail::tsa, "int16", "short", ""},
    {vx_type::uint16, "VX_TYPE_UINT16", 2, vx_type_detail::tsa, "uint16", "ushort", ""},
    {vx_type::int32, "VX_TYPE_INT32", 4, vx_type_detail::tsa, "int32", "int", ""},
    {vx_type::uint32, "VX_TYPE_UINT32", 4, vx_type_detail::tsa, "uint32", "uint", ""},
    {vx_type::int64, "VX_TYPE_INT64", 8, vx_type_detail::sa, "", "long", ""},
    {vx_type::uint64, "VX_TYPE_UINT64", 8, vx_type_detail::sa, "", "ulong", ""},
    {vx_type::float32, "VX_TYPE_FLOAT32", 4, vx_type_detail::tsa, "float32", "float", ""},
    {vx_type::float64, "VX_TYPE_FLOAT64", 8, vx_type_detail::sa, "", "double", ""},
    {vx_type::enum_, "VX_TYPE_ENUM", 4, vx_use_array | vx_use_op_yml, "", "", ""},
    {vx_type::size, "VX_TYPE_SIZE", sizeof(std::size_t), vx_use_array | vx_use_op_yml, "", "", ""},
    {vx_type::float16, "VX_TYPE_FLOAT16", 2, vx_type_detail::tsa, "float16", "half", ""},
    {vx_type::bool_, "VX_TYPE_BOOL", vx_bool_size, vx_type_detail::sa, "", "int", "bool"},
    {vx_type::bool8, "VX_TYPE_BOOL8", 1, vx_use_scalar | vx_use_array, "", "", ""},
    {vx_type::scalar, "VX_TYPE_SCALAR", 0, vx_use_op_yml, "", "", ""},
    {vx_type::array, "VX_TYPE_ARRAY", 0, vx_use_op_yml, "", "", ""},
    {vx_type::tensor, "VX_TYPE_TENSOR", 0, vx_use_op_yml, "", "", ""},
};

// Lookups go by index: GCC 12 with -fsanitize=undefined cannot constant-evaluate the null checks it
// adds to pointers into the table, and the fingerprint (model.hpp) and static tests need these constexpr.
inline constexpr std::size_t vx_type_count = sizeof vx_type_table / sizeof vx_type_table[0];

// What kernels read at run time, each row's value, name, size and use, derived from vx_type_table: a
// board library carries these 24-byte rows rather than the table's 56-byte ones (its size budget
// is 32 KiB).
struct vx_type_brief {
  std::int32_t value;
  char name[sizeof vx_type_info::name];
  unsigned char size;
  unsigned char use;
};
namespace vx_type_detail {
struct brief_rows {
  vx_type_brief row[vx_type_count];
};
[[nodiscard]] constexpr brief_rows make_brief_rows() noexcept {
  brief_rows b{};
  for (std::size_t r = 0; r < vx_type_count; ++r) {
    for (std::size_t i = 0; i < sizeof b.row[r].name; ++i) b.row[r].name[i] = vx_type_table[r].name[i];
    b.row[r].value = vx_type_table[r].value;
    b.row[r].size = static_cast<unsigned char>(vx_type_table[r].size);
    b.row[r].use = static_cast<unsigned char>(vx_type_table[r].use);
  }
  return b;
}
inline constexpr brief_rows brief = make_brief_rows();
[[nodiscard]] constexpr bool brief_is_exact() noexcept {
  for (const vx_type_info& t : vx_type_table)
    if (t.size > 0xFF || t.use > 0xFF) return false;
  return true;
}
static_assert(brief_is_exact(), "vx_type_brief holds sizes and use bits in one byte each");

[[nodiscard]] constexpr std::size_t search_row(std::int32_t value) noexcept {
  std::size_t i = 0;
  while (i < vx_type_count && vx_type_table[i].value != value) ++i;
  return i;
}
// Element and scalar types are small values: one byte per value gives their row in one load. The
// element sizes are read on every tensor copy and kernel call, where a search through the table cost
// ~10% of a tiny node's glue (bench_node_cost sdk_resize_tiny, callgrind).
inline constexpr std::int32_t dense_limit = vx_type::bool8 + 1;
struct dense_rows {
  unsigned char row[dense_limit];
};
[[nodiscard]] constexpr dense_rows make_dense_rows() noexcept {
  dense_rows d{};
  for (std::int32_t v = 0; v < dense_limit; ++v) d.row[v] = static_cast<unsigned char>(search_row(v));
  return d;
}
inline constexpr dense_rows dense = make_dense_rows();
static_assert(vx_type_count < 255, "dense_rows stores a row index in one byte");
// Objects and unknown values are looked up for diagnostics and validation only: one out-of-line
// copy of the search (inlined at every call site, it cost a board library a 4 KiB page).
[[gnu::cold, gnu::noinline]] inline std::size_t search_row_at_run_time(std::int32_t value) noexcept {
  std::size_t i = 0;
  while (i < vx_type_count && brief.row[i].value != value) ++i;  // search_row over the brief rows
  return i;
}
}  // namespace vx_type_detail

// The row index of a value; vx_type_count for values outside the table.
[[nodiscard]] constexpr std::size_t vx_type_index(std::int32_t value) noexcept {
  if (value >= 0 && value < vx_type_detail::dense_limit) return vx_type_detail::dense.row[value];
  return std::is_constant_evaluated() ? vx_type_detail::search_row(value)
                                      : vx_type_detail::search_row_at_run_time(value);
}

// The row index of the name `name` ("VX_TYPE_INT32"); vx_type_count if none. Exact, case-sensitive.
[[nodiscard]] constexpr std::size_t vx_type_index(const char* name, std::size_t length) noexcept {
  for (std::size_t r = 0; r < vx_type_count; ++r) {
    std::size_t i = 0;
    while (i < length && vx_type_table[r].name[i] != '\0' && vx_type_table[r].name[i] == name[i]) ++i;
    if (i == length && vx_type_table[r].name[i] == '\0') return r;
  }
  return vx_type_count;
}

// The row of a value or name; nullptr if none (run-time callers).
[[nodiscard]] constexpr const vx_type_info* find_vx_type(std::int32_t value) noexcept {
  const std::size_t i = vx_type_index(value);
  return i < vx_type_count ? &vx_type_table[i] : nullptr;
}
[[nodiscard]] constexpr const vx_type_info* find_vx_type(const char* name, std::size_t length) noexcept {
  const std::size_t i = vx_type_index(name, length);
  return i < vx_type_count ? &vx_type_table[i] : nullptr;
}

[[nodiscard]] constexpr const char* vx_type_name_of(std::int32_t value) noexcept {
  const std::size_t i = vx_type_index(value);
  return i < vx_type_count ? vx_type_detail::brief.row[i].name : "VX_TYPE_<unknown>";
}
// At run time names serve diagnostics only: one out-of-line copy instead of the lookup loop inlined
// at every error site (a board library's size budget is 32 KiB).
[[gnu::cold, gnu::noinline]] inline const char* vx_type_name_at_run_time(std::int32_t value) noexcept {
  return vx_type_name_of(value);
}

// "VX_TYPE_INT32"; "VX_TYPE_<unknown>" for values outside the table.
[[nodiscard]] constexpr const char* vx_type_name(std::int32_t value) noexcept {
  return std::is_constant_evaluated() ? vx_type_name_of(value) : vx_type_name_at_run_time(value);
}

// Bytes of one value of the type if it has the use, else 0.
[[nodiscard]] constexpr std::size_t vx_type_size(std::int32_t value, vx_type_use use) noexcept {
  const std::size_t i = vx_type_index(value);
  return i < vx_type_count && (vx_type_detail::brief.row[i].use & use) ? vx_type_detail::brief.row[i].size : 0;
}

// Bytes of one tensor element; 0 for types a tensor cannot hold.
[[nodiscard]] constexpr std::size_t tensor_element_size(std::int32_t value) noexcept {
  return vx_type_size(value, vx_use_tensor);
}

// The C++ type of a VX type, where one exists: vx_cpp_type_t<vx_type::int16> is std::int16_t.
// BOOL's C++ type is bool, whose value travels as a 4-byte vx_bool (vx_bool_size).
template <std::int32_t Value>
struct vx_cpp_type {};  // no C++ type (INVALID, ENUM, SIZE, objects)
// clang-format off
template <> struct vx_cpp_type<vx_type::char_> { using type = char; };
template <> struct vx_cpp_type<vx_type::int8> { using type = std::int8_t; };
template <> struct vx_cpp_type<vx_type::uint8> { using type = std::uint8_t; };
template <> struct vx_cpp_type<vx_type::int16> { using type = std::int16_t; };
template <> struct vx_cpp_type<vx_type::uint16> { using type = std::uint16_t; };
template <> struct vx_cpp_type<vx_type::int32> { using type = std::int32_t; };
template <> struct vx_cpp_type<vx_type::uint32> { using type = std::uint32_t; };
template <> struct vx_cpp_type<vx_type::int64> { using type = std::int64_t; };
template <> struct vx_cpp_type<vx_type::uint64> { using type = std::uint64_t; };
template <> struct vx_cpp_type<vx_type::float32> { using type = float; };
template <> struct vx_cpp_type<vx_type::float64> { using type = double; };
template <> struct vx_cpp_type<vx_type::float16> { using type = ::rknnop::float16; };
template <> struct vx_cpp_type<vx_type::bool_> { using type = bool; };
// clang-format on
template <std::int32_t Value>
using vx_cpp_type_t = typename vx_cpp_type<Value>::type;

// The C++ type whose bytes hold a scalar of a VX type, as the host stores, converts and prints param
// values: vx_cpp_type, except BOOL, a 4-byte vx_bool (std::int32_t), and CHAR, a signed byte on every
// target (std::int8_t: char is unsigned on ARM). Its size is the table's (visit_scalar_storage checks).
template <std::int32_t Value>
struct vx_scalar_storage : vx_cpp_type<Value> {};
template <>
struct vx_scalar_storage<vx_type::char_> {
  using type = std::int8_t;
};
template <>
struct vx_scalar_storage<vx_type::bool_> {
  using type = std::int32_t;
};

/// Calls f(std::integral_constant<std::size_t, Row>{}) with the row of `type` and returns true; false
/// (f not called) for values outside the table. f is instantiated for every row.
template <class F>
constexpr bool visit_vx_type_row(std::int32_t type, F&& f) {
  return [&]<std::size_t... Row>(std::index_sequence<Row...>) {
    return ((vx_type_table[Row].value == type ? (f(std::integral_constant<std::size_t, Row>{}), true) : false) || ...);
  }(std::make_index_sequence<vx_type_count>{});
}

/// Calls f(std::type_identity<T>{}) with T = vx_scalar_storage of `type` and returns true; false (f not
/// called) for types without a C++ type (INVALID, ENUM, SIZE, BOOL8, objects, values outside the table).
template <class F>
constexpr bool visit_scalar_storage(std::int32_t type, F&& f) {
  bool visited = false;
  visit_vx_type_row(type, [&]<std::size_t Row>(std::integral_constant<std::size_t, Row>) {
    constexpr std::int32_t value = vx_type_table[Row].value;
    if constexpr (requires { typename vx_scalar_storage<value>::type; }) {
      using storage = typename vx_scalar_storage<value>::type;
      static_assert(sizeof(storage) == vx_type_table[Row].size, "rknnop: a scalar's C++ type has the table's size");
      f(std::type_identity<storage>{});
      visited = true;
    }
  });
  return visited;
}

}  // namespace rknnop::detail

RKNNOP_DETAIL_END_HIDDEN

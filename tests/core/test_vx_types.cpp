// SPDX-License-Identifier: MIT
// The one VX type table (include/rknnop/detail/vx_types.hpp) against the ABI facts: every check here
// is a static_assert, so a wrong row fails the build of core_tests; one test checks the run-time search.
#include <rknnop/detail/dtypes.hpp>
#include <rknnop/detail/vx_types.hpp>
#include <rknnop/vx_type.hpp>
#include <rknnop/vxc/vxc.hpp>
#include <rknnop/openvx.h>   // the VX_TYPE_* values every row is pinned to
#include <rknnop/types.hpp>  // rknnop::dtype, scalar_vx_type, element_dtype (OpenVX-free)

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>  // std::size
#include <string_view>
#include <type_traits>
#include <utility>  // std::pair

namespace {

using namespace rknnop::detail;
using rknnop::vx_type;

constexpr bool same(std::string_view a, std::string_view b) noexcept { return a == b; }

// docs/abi.md §7, copied by hand: name, value and element size (0: an object, no element size).
struct abi_fact {
  std::string_view name;
  std::int32_t value;
  std::size_t size;
};
constexpr abi_fact abi_facts[] = {
    {"VX_TYPE_INVALID", 0x0, 0},  {"VX_TYPE_CHAR", 0x1, 1},   {"VX_TYPE_INT8", 0x2, 1},     {"VX_TYPE_UINT8", 0x3, 1},
    {"VX_TYPE_INT16", 0x4, 2},    {"VX_TYPE_UINT16", 0x5, 2}, {"VX_TYPE_INT32", 0x6, 4},    {"VX_TYPE_UINT32", 0x7, 4},
    {"VX_TYPE_INT64", 0x8, 8},    {"VX_TYPE_UINT64", 0x9, 8}, {"VX_TYPE_FLOAT32", 0xA, 4},  {"VX_TYPE_FLOAT64", 0xB, 8},
    {"VX_TYPE_FLOAT16", 0xF, 2},  {"VX_TYPE_BOOL", 0x10, 4},  {"VX_TYPE_SCALAR", 0x80D, 0}, {"VX_TYPE_ARRAY", 0x80E, 0},
    {"VX_TYPE_TENSOR", 0x815, 0},
};

constexpr bool table_matches_abi() noexcept {
  for (const abi_fact& fact : abi_facts) {
    const std::size_t i = vx_type_index(fact.value);
    if (i == vx_type_count || !same(vx_type_table[i].name, fact.name) || vx_type_table[i].size != fact.size)
      return false;
    if (vx_type_index(fact.name.data(), fact.name.size()) != i) return false;
  }
  return true;
}
static_assert(table_matches_abi(), "rknnop: vx_type_table disagrees with docs/abi.md §7 (name, value or size)");
static_assert(vx_bool_size == 4 && sizeof(vx_bool) == vx_bool_size, "rknnop: a vx_bool is 4 bytes");
static_assert(vx_type_table[vx_type_index(vx_type::size)].size == sizeof(vx_size));
static_assert(vx_type_table[vx_type_index(vx_type::enum_)].size == sizeof(vx_enum));
static_assert(vx_type_table[vx_type_index(vx_type::bool8)].size == 1);

// The values against rknnop/openvx.h (the C declarations); the macro spells each name once.
#define RKNNOP_TEST_VX_TYPE(T)                                                                      \
  static_assert(vx_type_index(T) < vx_type_count && same(vx_type_table[vx_type_index(T)].name, #T), \
                "rknnop: " #T " row")
RKNNOP_TEST_VX_TYPE(VX_TYPE_INVALID);
RKNNOP_TEST_VX_TYPE(VX_TYPE_CHAR);
RKNNOP_TEST_VX_TYPE(VX_TYPE_INT8);
RKNNOP_TEST_VX_TYPE(VX_TYPE_UINT8);
RKNNOP_TEST_VX_TYPE(VX_TYPE_INT16);
RKNNOP_TEST_VX_TYPE(VX_TYPE_UINT16);
RKNNOP_TEST_VX_TYPE(VX_TYPE_INT32);
RKNNOP_TEST_VX_TYPE(VX_TYPE_UINT32);
RKNNOP_TEST_VX_TYPE(VX_TYPE_INT64);
RKNNOP_TEST_VX_TYPE(VX_TYPE_UINT64);
RKNNOP_TEST_VX_TYPE(VX_TYPE_FLOAT32);
RKNNOP_TEST_VX_TYPE(VX_TYPE_FLOAT64);
RKNNOP_TEST_VX_TYPE(VX_TYPE_ENUM);
RKNNOP_TEST_VX_TYPE(VX_TYPE_SIZE);
RKNNOP_TEST_VX_TYPE(VX_TYPE_FLOAT16);
RKNNOP_TEST_VX_TYPE(VX_TYPE_BOOL);
RKNNOP_TEST_VX_TYPE(VX_TYPE_BOOL8);
RKNNOP_TEST_VX_TYPE(VX_TYPE_SCALAR);
RKNNOP_TEST_VX_TYPE(VX_TYPE_ARRAY);
RKNNOP_TEST_VX_TYPE(VX_TYPE_TENSOR);
#undef RKNNOP_TEST_VX_TYPE

constexpr bool rows_well_formed() noexcept {
  for (std::size_t i = 0; i < std::size(vx_type_table); ++i) {
    const vx_type_info& row = vx_type_table[i];
    if (std::string_view(row.name).substr(0, 8) != "VX_TYPE_") return false;
    for (std::size_t j = 0; j < i; ++j)
      if (vx_type_table[j].value == row.value || same(vx_type_table[j].name, row.name)) return false;
    // Objects have no size; everything a tensor, scalar or array holds has one.
    const bool holds_values = row.is(vx_use_tensor) || row.is(vx_use_scalar) || row.is(vx_use_array);
    if (holds_values != (row.size != 0)) return false;
    // (The texts, not the nullptr-returning accessors: those compare pointers, which GCC cannot
    // constant-evaluate under -fsanitize=undefined.)
    if (row.opencl_alt_text[0] != '\0' && row.opencl_text[0] == '\0') return false;
    if (row.opencl_text[0] != '\0' && !row.is(vx_use_scalar)) return false;  // only scalars reach a shader
    if ((row.dtype_text[0] != '\0') != row.is(vx_use_tensor)) return false;
  }
  return true;
}
static_assert(rows_well_formed(), "rknnop: vx_type_table: duplicate, unnamed or inconsistent row");

// The C++ type of each row: same size (BOOL excepted: bool travels as a 4-byte vx_bool) and the
// SDK's type mapping sends it back to the same row.
template <std::int32_t V>
constexpr bool cpp_type_matches() noexcept {
  using T = vx_cpp_type_t<V>;
  if constexpr (V != vx_type::bool_) {
    if (sizeof(T) != vx_type_table[vx_type_index(V)].size) return false;
  }
  return rknnop::detail::scalar_vx_type<T>() == V;
}
static_assert(cpp_type_matches<vx_type::char_>() && cpp_type_matches<vx_type::int8>() &&
                  cpp_type_matches<vx_type::uint8>() && cpp_type_matches<vx_type::int16>() &&
                  cpp_type_matches<vx_type::uint16>() && cpp_type_matches<vx_type::int32>() &&
                  cpp_type_matches<vx_type::uint32>() && cpp_type_matches<vx_type::int64>() &&
                  cpp_type_matches<vx_type::uint64>() && cpp_type_matches<vx_type::float32>() &&
                  cpp_type_matches<vx_type::float64>() && cpp_type_matches<vx_type::float16>() &&
                  cpp_type_matches<vx_type::bool_>(),
              "rknnop: vx_cpp_type disagrees with the table's size or with scalar_vx_type");
template <std::int32_t V>
concept has_cpp_type = requires { typename vx_cpp_type<V>::type; };
static_assert(!has_cpp_type<vx_type::tensor> && !has_cpp_type<vx_type::enum_> && has_cpp_type<vx_type::float16>,
              "rknnop: objects, ENUM and SIZE have no C++ type");

// Every SDK tensor dtype is a tensor type of the table, with its element type's size.
template <class T>
constexpr bool tensor_element_matches() noexcept {
  return tensor_element_size(rknnop::detail::element_dtype<T>::value) == sizeof(T);
}
static_assert(tensor_element_matches<rknnop::float16>() && tensor_element_matches<float>() &&
              tensor_element_matches<std::int8_t>() && tensor_element_matches<std::uint8_t>() &&
              tensor_element_matches<std::int16_t>() && tensor_element_matches<std::uint16_t>() &&
              tensor_element_matches<std::int32_t>());

// The dtype table (dtypes.hpp): rknnop::dtype's seven, each a tensor type of the VX table whose
// NumPy descr names its size, mapped back by element_dtype; uint32 (a VX tensor type) is not one.
constexpr bool dtype_rows_match() noexcept {
  return []<std::size_t... Row>(std::index_sequence<Row...>) {
    return ((element_dtype<dtype_type<Row>>::value == dtype_table[Row].vx &&
             tensor_element_size(dtype_table[Row].vx) == sizeof(dtype_type<Row>) &&
             dtype_table[Row].npy_descr[2] == static_cast<char>('0' + sizeof(dtype_type<Row>)) &&
             rknnop::vx_type_from_npy_descr(dtype_table[Row].npy_descr) == dtype_table[Row].vx) &&
            ...);
  }(std::make_index_sequence<dtype_count>{});
}
static_assert(dtype_count == 7 && dtype_rows_match(), "rknnop: dtype_table disagrees with the VX table");
constexpr bool visits(std::int32_t type) {
  return rknnop::visit_tensor_element_type(type, [](auto) {});
}
static_assert(visits(vx_type::float16) && visits(vx_type::int32) && visits(vx_type::uint8) &&
              !visits(vx_type::uint32) && !visits(vx_type::float64) && !visits(0x7fff));
// visit_scalar_type: the scalar types with a C++ type (13 of the 14 creatable: not BOOL8), each T of
// the table's size; CHAR a signed byte, BOOL a 4-byte int32.
template <class Want>
constexpr bool scalar_visits_as(std::int32_t type) {
  bool same = false;
  const bool visited =
      rknnop::visit_scalar_type(type, [&]<class T>(std::type_identity<T>) { same = std::is_same_v<T, Want>; });
  return visited && same;
}
static_assert(scalar_visits_as<std::int8_t>(vx_type::char_) && scalar_visits_as<std::int32_t>(vx_type::bool_) &&
              scalar_visits_as<rknnop::float16>(vx_type::float16) && scalar_visits_as<double>(vx_type::float64) &&
              scalar_visits_as<std::uint64_t>(vx_type::uint64));
constexpr std::size_t scalar_visit_count() {
  std::size_t n = 0;
  for (const vx_type_info& row : vx_type_table) n += rknnop::visit_scalar_type(row.value, [](auto) {}) ? 1 : 0;
  return n;
}
static_assert(scalar_visit_count() == 13 && !rknnop::visit_scalar_type(vx_type::bool8, [](auto) {}) &&
              !rknnop::visit_scalar_type(vx_type::enum_, [](auto) {}) &&
              !rknnop::visit_scalar_type(0x7fff, [](auto) {}));
// The ranges the host checks param values against (docs/runtime.md §3): CHAR as INT8.
static_assert(rknnop::vx_type_integer_range(vx_type::char_)->min == -128 &&
              rknnop::vx_type_integer_range(vx_type::char_)->max == 127 &&
              rknnop::vx_type_integer_range(vx_type::uint16)->max == 65535 &&
              rknnop::vx_type_integer_range(vx_type::int64)->min == INT64_MIN &&
              rknnop::vx_type_integer_range(vx_type::uint64)->max == UINT64_MAX);
static_assert(!rknnop::vx_type_integer_range(vx_type::bool_) && !rknnop::vx_type_integer_range(vx_type::float32) &&
              !rknnop::vx_type_integer_range(vx_type::size) && !rknnop::vx_type_integer_range(vx_type::array));
static_assert(rknnop::vx_type_is_floating(vx_type::float16) && rknnop::vx_type_is_floating(vx_type::float32) &&
              rknnop::vx_type_is_floating(vx_type::float64) && !rknnop::vx_type_is_floating(vx_type::bool_) &&
              !rknnop::vx_type_is_floating(vx_type::int32) && !rknnop::vx_type_is_floating(vx_type::tensor));
static_assert(rknnop::vx_max_tensor_rank == 6);

static_assert(rknnop::vx_type_from_npy_descr("<f2") == vx_type::float16 &&
              rknnop::vx_type_from_npy_descr("=i4") == vx_type::int32 &&
              rknnop::vx_type_from_npy_descr("|u1") == vx_type::uint8 &&
              rknnop::vx_type_from_npy_descr("<i1") == vx_type::int8);
static_assert(rknnop::vx_type_from_npy_descr("|f4") == vx_type::invalid &&
              rknnop::vx_type_from_npy_descr(">f4") == vx_type::invalid &&
              rknnop::vx_type_from_npy_descr("<u4") == vx_type::invalid &&
              rknnop::vx_type_from_npy_descr("<f8") == vx_type::invalid &&
              rknnop::vx_type_from_npy_descr("<f") == vx_type::invalid);
static_assert(rknnop::vx_type_npy_descr(vx_type::uint16) == "<u2" &&
              rknnop::vx_type_npy_descr(vx_type::uint32).empty());

// The views of the host library and vxc are the table's.
static_assert(rknnop::vx_type_from_name("VX_TYPE_BOOL") == 0x10);
static_assert(!rknnop::vx_type_from_name("VX_TYPE_BOOL8"), "op.yml does not know BOOL8");
static_assert(!rknnop::vx_type_from_name("VX_TYPE_INVALID"));
static_assert(rknnop::vx_type_name(0x80E) == "VX_TYPE_ARRAY" && rknnop::vx_type_name(0x7777).empty());
static_assert(rknnop::is_param_scalar_type(VX_TYPE_BOOL) && !rknnop::is_param_scalar_type(VX_TYPE_ENUM) &&
              !rknnop::is_param_scalar_type(VX_TYPE_BOOL8) && !rknnop::is_param_scalar_type(VX_TYPE_ARRAY));
static_assert(rknnop::vx_scalar_size(VX_TYPE_BOOL) == 4 && rknnop::vx_scalar_size(VX_TYPE_SIZE) == sizeof(vx_size));
// The one public name of the VX type: every enumerator is openvx.h's value, and a table row.
constexpr bool vx_type_is_openvx() noexcept {
  constexpr std::pair<vx_type, vx_enum> pairs[] = {
      {vx_type::invalid, VX_TYPE_INVALID}, {vx_type::char_, VX_TYPE_CHAR},      {vx_type::int8, VX_TYPE_INT8},
      {vx_type::uint8, VX_TYPE_UINT8},     {vx_type::int16, VX_TYPE_INT16},     {vx_type::uint16, VX_TYPE_UINT16},
      {vx_type::int32, VX_TYPE_INT32},     {vx_type::uint32, VX_TYPE_UINT32},   {vx_type::int64, VX_TYPE_INT64},
      {vx_type::uint64, VX_TYPE_UINT64},   {vx_type::float32, VX_TYPE_FLOAT32}, {vx_type::float64, VX_TYPE_FLOAT64},
      {vx_type::enum_, VX_TYPE_ENUM},      {vx_type::size, VX_TYPE_SIZE},       {vx_type::float16, VX_TYPE_FLOAT16},
      {vx_type::bool_, VX_TYPE_BOOL},      {vx_type::bool8, VX_TYPE_BOOL8},     {vx_type::scalar, VX_TYPE_SCALAR},
      {vx_type::array, VX_TYPE_ARRAY},     {vx_type::tensor, VX_TYPE_TENSOR}};
  for (const auto& [t, v] : pairs)
    if (static_cast<vx_enum>(t) != v || vx_type_index(t) == vx_type_count) return false;
  return std::size(pairs) == vx_type_count;  // one enumerator per row
}
static_assert(vx_type_is_openvx());
// dtype is the tensor-element subset of vx_type: each of its values is a row tensors may hold.
static_assert(rknnop::vx_tensor_element_size(static_cast<vx_enum>(rknnop::dtype::float16)) == 2 &&
              rknnop::vx_tensor_element_size(static_cast<vx_enum>(rknnop::dtype::float32)) == 4 &&
              rknnop::vx_tensor_element_size(static_cast<vx_enum>(rknnop::dtype::int8)) == 1 &&
              rknnop::vx_tensor_element_size(static_cast<vx_enum>(rknnop::dtype::uint8)) == 1 &&
              rknnop::vx_tensor_element_size(static_cast<vx_enum>(rknnop::dtype::int16)) == 2 &&
              rknnop::vx_tensor_element_size(static_cast<vx_enum>(rknnop::dtype::uint16)) == 2 &&
              rknnop::vx_tensor_element_size(static_cast<vx_enum>(rknnop::dtype::int32)) == 4);
static_assert(same(rknnop::dtype_vx_name(rknnop::dtype::float16), "VX_TYPE_FLOAT16"));
static_assert(rknnop::vx_type_opencl(VX_TYPE_BOOL) == "int" && rknnop::vx_type_opencl(VX_TYPE_BOOL, true) == "bool" &&
              rknnop::vx_type_opencl(VX_TYPE_ENUM).empty() && rknnop::vx_type_opencl(0x7777).empty());
static_assert(rknnop::vx_type_table_name(VX_TYPE_BOOL8) == "VX_TYPE_BOOL8" &&
              rknnop::vx_type_table_name(0x7777).empty());

// The one-byte index of small values gives the same row as a search of the table, for every value
// around it (negative, gaps such as 0x00E, the first values past it).
constexpr bool dense_index_matches_search() noexcept {
  for (std::int32_t v = -2; v < 0x30; ++v)
    if (vx_type_index(v) != rknnop::detail::vx_type_detail::search_row(v)) return false;
  return vx_type_index(0x00E) == vx_type_count && vx_type_index(vx_type::bool8) != vx_type_count;
}
static_assert(dense_index_matches_search());

// The brief rows kernels read at run time say what the table says.
constexpr bool brief_rows_match_the_table() noexcept {
  const auto& brief = rknnop::detail::vx_type_detail::brief;
  for (std::size_t r = 0; r < vx_type_count; ++r) {
    const auto& row = rknnop::detail::vx_type_table[r];
    if (brief.row[r].value != row.value || brief.row[r].size != row.size || brief.row[r].use != row.use) return false;
    for (std::size_t i = 0; i < sizeof row.name; ++i)
      if (brief.row[r].name[i] != row.name[i]) return false;
  }
  return true;
}
static_assert(brief_rows_match_the_table());

// At run time, values outside the one-byte index go through the brief rows' search: it finds the
// same rows as the table's search (objects, values between them, negatives).
TEST(VxTypes, RunTimeSearchFindsTheTablesRows) {
  for (std::int32_t v : std::initializer_list<std::int32_t>{-5, -1, 0x012, 0x080, 0x80C, vx_type::scalar,
                                                            vx_type::array, 0x80F, vx_type::tensor, 0x7FFF'FFFF}) {
    EXPECT_EQ(rknnop::detail::vx_type_detail::search_row_at_run_time(v), rknnop::detail::vx_type_detail::search_row(v))
        << std::hex << v;
    EXPECT_STREQ(rknnop::detail::vx_type_name(v), rknnop::detail::vx_type_name_of(v)) << std::hex << v;
  }
  EXPECT_STREQ(rknnop::detail::vx_type_name(vx_type::tensor), "VX_TYPE_TENSOR");
  EXPECT_EQ(rknnop::detail::tensor_element_size(vx_type::float16), 2u);
  EXPECT_EQ(rknnop::detail::tensor_element_size(vx_type::int64), 0u);  // a scalar type, not a tensor's
}

}  // namespace

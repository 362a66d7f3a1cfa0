// SPDX-License-Identifier: MIT
// Compile-time tests of default detection (detail/schema.hpp): a default member initializer in
// `params` is the param's default, a member without one is required. Built into core_tests (GCC or
// whatever CMAKE_CXX_COMPILER is) and checked with clang++-16 -fsyntax-only too (core.param_defaults.clang).

#include <rknnop/detail/schema.hpp>
#include <rknnop/op.hpp>

#include <array>
#include <cstdint>

namespace defaults_test {
enum class mode { reflect = 0, symmetric = 5 };
}  // namespace defaults_test

template <>
struct rknnop::customize::enum_names<defaults_test::mode> {
  static constexpr rknnop::enum_name<defaults_test::mode> table[] = {{defaults_test::mode::reflect, "REFLECT"},
                                                                     {defaults_test::mode::symmetric, "SYMMETRIC"}};
};

namespace defaults_test {
using rknnop::detail::has_default_member_initializer;

struct params {
  float alpha = 0.2f;                            // 0
  float beta;                                    // 1
  bool flag{};                                   // 2: {} is a default too (false)
  bool flag_required;                            // 3
  std::int64_t big = -(std::int64_t{1} << 40);   // 4
  std::uint64_t huge;                            // 5
  rknnop::float16 half = rknnop::float16(0.5f);  // 6
  rknnop::float16 half_required;                 // 7
  double real = 1e300;                           // 8: no narrowing in the probe
  std::array<std::int32_t, 3> exact = {1};       // 9: {1, 0, 0}
  std::array<std::int32_t, 3> exact_required;    // 10
  rknnop::int_array<4> bounded = {7, 8};         // 11
  rknnop::int_array<4> bounded_empty{};          // 12
  rknnop::int_array<4> bounded_required;         // 13
  mode m = mode::symmetric;                      // 14
  mode m_required;                               // 15
  char letter = 'x';                             // 16
};

static_assert(has_default_member_initializer<params, 0> && !has_default_member_initializer<params, 1>);
static_assert(has_default_member_initializer<params, 2> && !has_default_member_initializer<params, 3>);
static_assert(has_default_member_initializer<params, 4> && !has_default_member_initializer<params, 5>);
static_assert(has_default_member_initializer<params, 6> && !has_default_member_initializer<params, 7>);
static_assert(has_default_member_initializer<params, 8>);
static_assert(has_default_member_initializer<params, 9> && !has_default_member_initializer<params, 10>);
static_assert(has_default_member_initializer<params, 11> && has_default_member_initializer<params, 12>);
static_assert(!has_default_member_initializer<params, 13>);
static_assert(has_default_member_initializer<params, 14> && !has_default_member_initializer<params, 15>);
static_assert(has_default_member_initializer<params, 16>);

constexpr auto extras = rknnop::detail::param_extras<params>::value;
static_assert(extras[0].has_default && extras[0].float_default == static_cast<double>(0.2f));
static_assert(!extras[1].has_default && !extras[3].has_default && !extras[5].has_default);
static_assert(extras[2].has_default && extras[2].int_default == 0);
static_assert(extras[4].int_default == -(std::int64_t{1} << 40));
static_assert(extras[6].float_default == 0.5 && extras[8].float_default == 1e300);
static_assert(extras[9].items_default_count == 3 && extras[9].items_default[0] == 1 && extras[9].items_default[2] == 0);
static_assert(extras[11].items_default_count == 2 && extras[11].items_default[1] == 8);
static_assert(extras[12].has_default && extras[12].items_default_count == 0);
static_assert(extras[14].int_default == 5 && extras[14].enumerator_count == 2);
static_assert(extras[14].enumerators[1].name == "SYMMETRIC" && extras[14].enumerators[1].value == 5);
static_assert(!extras[15].has_default && extras[15].enumerator_count == 2);
static_assert(extras[16].int_default == 'x');

// Enums are INT32 scalars; one without a name table is not a param type.
enum class unnamed { a };
static_assert(rknnop::detail::scalar_vx_type<mode>() == VX_TYPE_INT32);
static_assert(rknnop::detail::enum_param_type<mode> && !rknnop::detail::enum_param_type<unnamed>);
static_assert(!rknnop::detail::param_field<unnamed>);

// tensor<double> declares (so the op's gate can name op and field) but is no tensor element.
static_assert(!rknnop::detail::tensor_element<double>);
static_assert(std::is_same_v<rknnop::detail::unsupported_element<rknnop::tensor<float, double>>::type, double>);
static_assert(std::is_void_v<rknnop::detail::unsupported_element<rknnop::tensor<float, rknnop::float16>>::type>);
}  // namespace defaults_test

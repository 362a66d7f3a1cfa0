// SPDX-License-Identifier: MIT
#include <rknnop/host/param_value.hpp>
#include <rknnop/vx_type.hpp>

#include "test_util.hpp"

#include <cstring>

namespace {

using namespace rknnop::host;
using rknnop::vx_type;

template <class T>
T scalar_as(const param_value& v) {
  T out{};
  EXPECT_EQ(v.scalar_size(), sizeof(T));
  std::memcpy(&out, v.scalar_data(), sizeof(T));
  return out;
}

TEST(ParamValue, Arrays) {
  const param_value v = parse_param_value("size", vx_type::array, "64,64");
  EXPECT_TRUE(v.is_array());
  EXPECT_EQ(v.items, (std::vector<std::int32_t>{64, 64}));
  EXPECT_EQ(v.to_string(), "64,64");
  EXPECT_EQ(parse_param_value("size", vx_type::array, "-2147483648, 2147483647").items,
            (std::vector<std::int32_t>{INT32_MIN, INT32_MAX}));
  EXPECT_EQ(parse_param_value("size", vx_type::array, "7", 1).items, std::vector<std::int32_t>{7});
}

TEST(ParamValue, ArrayErrors) {
  RKNNOP_EXPECT_ERROR(parse_param_value("size", vx_type::array, "abc"),
                      "rknnop: param 'size': expected VX_TYPE_ARRAY of int32 like 64,64, got 'abc' (item 1 "
                      "'abc' is not an integer)");
  RKNNOP_EXPECT_ERROR(parse_param_value("size", vx_type::array, "64,,64"), "(item 2 '' is not an integer)");
  RKNNOP_EXPECT_ERROR(parse_param_value("size", vx_type::array, "1,2147483648"),
                      "(item 2 '2147483648' is out of int32 range)");
  RKNNOP_EXPECT_ERROR(parse_param_value("size", vx_type::array, ""), "got '' (no items)");
  RKNNOP_EXPECT_ERROR(parse_param_value("size", vx_type::array, "64", 2),
                      "param 'size': expected VX_TYPE_ARRAY of 2 int32 items like 64,64, got '64' (1 item)");
  RKNNOP_EXPECT_ERROR(parse_param_value("size", vx_type::array, "1.5"), "(item 1 '1.5' is not an integer)");
}

TEST(ParamValue, Bool) {
  EXPECT_EQ(scalar_as<std::int32_t>(parse_param_value("b", vx_type::bool_, "true")), 1);
  EXPECT_EQ(scalar_as<std::int32_t>(parse_param_value("b", vx_type::bool_, "0")), 0);
  EXPECT_EQ(parse_param_value("b", vx_type::bool_, "1").to_string(), "true");
  RKNNOP_EXPECT_ERROR(parse_param_value("align_corners", vx_type::bool_, "yes"),
                      "rknnop: param 'align_corners': expected VX_TYPE_BOOL (true/false/1/0), got 'yes'");
  RKNNOP_EXPECT_ERROR(parse_param_value("align_corners", vx_type::bool_, "64,64"), "got '64,64'");
}

TEST(ParamValue, IntegerRanges) {
  EXPECT_EQ(scalar_as<std::int8_t>(parse_param_value("p", vx_type::int8, "-128")), -128);
  EXPECT_EQ(scalar_as<std::uint8_t>(parse_param_value("p", vx_type::uint8, "255")), 255);
  EXPECT_EQ(scalar_as<std::int16_t>(parse_param_value("p", vx_type::int16, "-32768")), -32768);
  EXPECT_EQ(scalar_as<std::uint16_t>(parse_param_value("p", vx_type::uint16, "0xFFFF")), 65535);
  EXPECT_EQ(scalar_as<std::int32_t>(parse_param_value("p", vx_type::int32, "-2147483648")), INT32_MIN);
  EXPECT_EQ(scalar_as<std::uint32_t>(parse_param_value("p", vx_type::uint32, "4294967295")), UINT32_MAX);
  EXPECT_EQ(scalar_as<std::int64_t>(parse_param_value("p", vx_type::int64, "-9223372036854775808")), INT64_MIN);
  EXPECT_EQ(scalar_as<std::uint64_t>(parse_param_value("p", vx_type::uint64, "18446744073709551615")), UINT64_MAX);
  EXPECT_EQ(scalar_as<char>(parse_param_value("p", vx_type::char_, "a")), 'a');
  EXPECT_EQ(scalar_as<char>(parse_param_value("p", vx_type::char_, "65")), 'A');
  EXPECT_EQ(parse_param_value("p", vx_type::int16, "-5").to_string(), "-5");

  RKNNOP_EXPECT_ERROR(parse_param_value("n", vx_type::uint8, "256"),
                      "param 'n': expected VX_TYPE_UINT8 (an integer in [0, 255]), got '256' (out of range)");
  RKNNOP_EXPECT_ERROR(parse_param_value("n", vx_type::uint8, "-1"), "got '-1' (out of range)");
  RKNNOP_EXPECT_ERROR(parse_param_value("n", vx_type::int8, "128"), "VX_TYPE_INT8 (an integer in [-128, 127])",
                      "(out of range)");
  RKNNOP_EXPECT_ERROR(parse_param_value("n", vx_type::int64, "9223372036854775808"), "(out of range)");
  RKNNOP_EXPECT_ERROR(parse_param_value("n", vx_type::uint64, "18446744073709551616"), "(out of range)");
  RKNNOP_EXPECT_ERROR(parse_param_value("n", vx_type::int32, "1.5"),
                      "param 'n': expected VX_TYPE_INT32 (an integer in [-2147483648, 2147483647]), got '1.5'");
  RKNNOP_EXPECT_ERROR(parse_param_value("n", vx_type::int32, "12abc"), "got '12abc'");
  RKNNOP_EXPECT_ERROR(parse_param_value("n", vx_type::int32, ""), "got ''");
  RKNNOP_EXPECT_ERROR(parse_param_value("n", vx_type::int32, "1,2"), "got '1,2'");
  RKNNOP_EXPECT_ERROR(parse_param_value("c", vx_type::char_, "ab"), "VX_TYPE_CHAR", "got 'ab'");
}

TEST(ParamValue, Floats) {
  EXPECT_EQ(scalar_as<float>(parse_param_value("s", vx_type::float32, "0.5")), 0.5f);
  EXPECT_EQ(scalar_as<double>(parse_param_value("s", vx_type::float64, "-1e300")), -1e300);
  EXPECT_EQ(scalar_as<std::uint16_t>(parse_param_value("s", vx_type::float16, "1")), 0x3C00);
  EXPECT_EQ(scalar_as<std::uint16_t>(parse_param_value("s", vx_type::float16, "-65504")), 0xFBFF);
  EXPECT_EQ(parse_param_value("s", vx_type::float16, "0.5").to_string(), "0.5");
  RKNNOP_EXPECT_ERROR(parse_param_value("s", vx_type::float16, "70000"),
                      "param 's': expected VX_TYPE_FLOAT16 (a number with |x| <= 65504), got '70000' (out of "
                      "range)");
  RKNNOP_EXPECT_ERROR(parse_param_value("s", vx_type::float32, "1e39"), "VX_TYPE_FLOAT32", "(out of range)");
  RKNNOP_EXPECT_ERROR(parse_param_value("s", vx_type::float64, "1e999"), "(out of range)");
  RKNNOP_EXPECT_ERROR(parse_param_value("s", vx_type::float32, "nan"), "got 'nan' (not finite)");
  RKNNOP_EXPECT_ERROR(parse_param_value("s", vx_type::float32, "half"),
                      "param 's': expected VX_TYPE_FLOAT32 (a finite number), got 'half'");
}

TEST(ParamValue, TypedBuilders) {
  EXPECT_EQ(make_param_value("b", vx_type::bool_, true), parse_param_value("b", vx_type::bool_, "true"));
  EXPECT_EQ(make_param_value("n", vx_type::int16, std::int64_t{-3}), parse_param_value("n", vx_type::int16, "-3"));
  EXPECT_EQ(make_param_value("s", vx_type::float32, 0.25), parse_param_value("s", vx_type::float32, "0.25"));
  const std::vector<std::int32_t> items{1, 2};
  EXPECT_EQ(make_param_value("a", vx_type::array, items), parse_param_value("a", vx_type::array, "1,2"));
  RKNNOP_EXPECT_ERROR(make_param_value("n", vx_type::uint8, std::int64_t{300}), "got 300 (out of range)");
  RKNNOP_EXPECT_ERROR(make_param_value("n", vx_type::int32, 0.5), "got a floating-point number (0.5)");
  RKNNOP_EXPECT_ERROR(make_param_value("n", vx_type::int32, true), "VX_TYPE_INT32", "got a bool (true)");
  RKNNOP_EXPECT_ERROR(make_param_value("n", vx_type::int32, items), "got an array [1,2]");
  RKNNOP_EXPECT_ERROR(make_param_value("a", vx_type::array, std::int64_t{1}),
                      "expected VX_TYPE_ARRAY of int32 like 64,64, got an integer (1)");
  RKNNOP_EXPECT_ERROR(make_param_value("a", vx_type::array, items, 3), "got [1,2] (2 items)");
  RKNNOP_EXPECT_ERROR(parse_param_value("t", vx_type::tensor, "1"), "param 't': type VX_TYPE_TENSOR cannot be a param");
}

}  // namespace

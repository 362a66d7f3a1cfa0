// SPDX-License-Identifier: MIT
// examples/truncate_div through the host runtime: TensorFlow's TruncateDiv on hand tables (float32,
// float16 with its half-rounded quotient, the integer dtypes with their wrap-around), broadcasting
// against an index-by-index reference, every error with its exact message, and truncate_div.vx.
#include "truncate_div/truncate_div.cpp"

#include "example_test_util.hpp"

#include <cmath>
#include <limits>
#include <random>

namespace {

using rknnop::float16;
using rknnop::test::harness;
using rknnop::test::ref;

// Runs z = TruncateDiv(x, y) with x, y of dtype `type` (element storage T); the status and z.
template <class T>
vx_status run_div(vx_enum type, const std::vector<std::uint32_t>& xd, const std::vector<T>& x,
                  const std::vector<std::uint32_t>& yd, const std::vector<T>& y, std::vector<T>& z,
                  std::vector<std::uint32_t>* zd = nullptr, std::string* log = nullptr) {
  harness h(vx_kernel_TruncateDiv_list.entries[0]);
  vx_tensor out = h.virtual_tensor(type);
  const vx_status s = h.run({ref(h.tensor(xd, type, x)), ref(h.tensor(yd, type, y)), ref(out)});
  if (s == VX_SUCCESS) z = harness::read<T>(out);
  if (zd) *zd = harness::dims(out);
  if (log) *log = h.last_log();
  return s;
}

TEST(ExampleTruncateDiv, Float32HandTable) {
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> x = {7, -7, 7, -7, 7.5f, -0.5f, 1, -1, 0, 5, 1e30f, 2.9f};
  const std::vector<float> y = {2, 2, -2, -2, 2.5f, 3, 0, 0, 0, 3, 1e-10f, 0.1f};
  // 3.5 -> 3, -3.5 -> -3, -3.5 -> -3, 3.5 -> 3, 3 -> 3, -1/6 -> -0, 1/0 = inf, -1/0 = -inf, 0/0 = nan,
  // 5/3 -> 1, 1e40 overflows float -> inf, 2.9f/0.1f = 29.0 in float (28.999999... in decimal) -> 29.
  const std::vector<float> expected = {3, -3, -3, 3, 3, -0.f, inf, -inf, std::nanf(""), 1, inf, 29};
  std::vector<float> z;
  ASSERT_EQ(run_div<float>(VX_TYPE_FLOAT32, {12}, x, {12}, y, z), VX_SUCCESS);
  ASSERT_EQ(z.size(), expected.size());
  for (std::size_t i = 0; i < z.size(); ++i) {
    if (std::isnan(expected[i])) {
      EXPECT_TRUE(std::isnan(z[i])) << i;
      continue;
    }
    EXPECT_EQ(z[i], expected[i]) << i;
    EXPECT_EQ(std::signbit(z[i]), std::signbit(expected[i])) << i;  // -1/6 truncates to -0, as in TensorFlow
  }
}

TEST(ExampleTruncateDiv, Float16RoundsTheQuotientToHalfBeforeTruncating) {
  // 2045 / 0.99951171875 (= 1 - 2^-11, exact in float16) = 2045.99902...: float16 spacing at 2048 is 1,
  // so TensorFlow's half quotient is 2046 and trunc gives 2046 (truncating the float quotient would
  // give 2045). 7 / 2 = 3.5 -> 3; -7 / 2 -> -3; 1 / 3 -> 0.
  const std::vector<float> x = {2045, 7, -7, 1}, y = {0.99951171875f, 2, 2, 3}, expected = {2046, 3, -3, 0};
  std::vector<float16> z;
  ASSERT_EQ(run_div<float16>(VX_TYPE_FLOAT16, {4}, rknnop::test::to_half(x), {4}, rknnop::test::to_half(y), z),
            VX_SUCCESS);
  EXPECT_EQ(rknnop::test::to_float(z), expected);
}

TEST(ExampleTruncateDiv, Int32IsCTruncatingDivision) {
  const std::vector<std::int32_t> x = {7, -7, 7, -7, 0, 16777215, -16777215, 6, -6};
  const std::vector<std::int32_t> y = {2, 2, -2, -2, 5, 2, 3, -4, 4};
  const std::vector<std::int32_t> expected = {3, -3, -3, 3, 0, 8388607, -5592405, -1, -1};
  std::vector<std::int32_t> z;
  ASSERT_EQ(run_div<std::int32_t>(VX_TYPE_INT32, {9}, x, {9}, y, z), VX_SUCCESS);
  EXPECT_EQ(z, expected);
}

TEST(ExampleTruncateDiv, NarrowIntegersWrapLikeTensorFlow) {
  std::vector<std::int8_t> z8;
  ASSERT_EQ(run_div<std::int8_t>(VX_TYPE_INT8, {3}, {-128, 127, -7}, {1}, {-1}, z8), VX_SUCCESS);
  EXPECT_EQ(z8, (std::vector<std::int8_t>{-128, -127, 7}));  // -128 / -1 = 128 wraps to -128
  std::vector<std::int16_t> z16;
  ASSERT_EQ(run_div<std::int16_t>(VX_TYPE_INT16, {2}, {-32768, 32767}, {1}, {-1}, z16), VX_SUCCESS);
  EXPECT_EQ(z16, (std::vector<std::int16_t>{-32768, -32767}));
  std::vector<std::uint8_t> zu8;
  ASSERT_EQ(run_div<std::uint8_t>(VX_TYPE_UINT8, {3}, {255, 7, 0}, {3}, {2, 8, 9}, zu8), VX_SUCCESS);
  EXPECT_EQ(zu8, (std::vector<std::uint8_t>{127, 0, 0}));
  std::vector<std::uint16_t> zu16;
  ASSERT_EQ(run_div<std::uint16_t>(VX_TYPE_UINT16, {2}, {65535, 1000}, {1}, {7}, zu16), VX_SUCCESS);
  EXPECT_EQ(zu16, (std::vector<std::uint16_t>{9362, 142}));
}

TEST(ExampleTruncateDiv, BroadcastHandTable) {
  // TensorFlow shapes x [2, 1] and y [3] broadcast to [2, 3]; OpenVX dims are the reverse.
  std::vector<float> z;
  std::vector<std::uint32_t> zd;
  ASSERT_EQ(run_div<float>(VX_TYPE_FLOAT32, {1, 2}, {10, -20}, {3}, {3, 4, -6}, z, &zd), VX_SUCCESS);
  EXPECT_EQ(zd, (std::vector<std::uint32_t>{3, 2}));
  EXPECT_EQ(z, (std::vector<float>{3, 2, -1, -6, -5, 3}));
}

// Reference broadcasting in TensorFlow order, index by index (outermost dim first).
std::vector<std::int32_t> reference(const std::vector<std::uint32_t>& xs, const std::vector<std::int32_t>& x,
                                    const std::vector<std::uint32_t>& ys, const std::vector<std::int32_t>& y,
                                    std::vector<std::uint32_t>& zs) {
  const std::size_t rank = std::max(xs.size(), ys.size());
  auto padded = [&](const std::vector<std::uint32_t>& s) {
    std::vector<std::uint32_t> p(rank - s.size(), 1);
    p.insert(p.end(), s.begin(), s.end());
    return p;
  };
  const auto xp = padded(xs), yp = padded(ys);
  zs.assign(rank, 0);
  std::size_t total = 1;
  for (std::size_t d = 0; d < rank; ++d) total *= (zs[d] = std::max(xp[d], yp[d]));
  std::vector<std::int32_t> z(total);
  for (std::size_t flat = 0; flat < total; ++flat) {
    std::size_t rest = flat, xi = 0, yi = 0, xm = 1, ym = 1;
    for (std::size_t d = rank; d-- > 0;) {
      const std::size_t idx = rest % zs[d];
      rest /= zs[d];
      xi += (xp[d] == 1 ? 0 : idx) * xm, xm *= xp[d];
      yi += (yp[d] == 1 ? 0 : idx) * ym, ym *= yp[d];
    }
    z[flat] = x[xi] / y[yi];
  }
  return z;
}

TEST(ExampleTruncateDiv, BroadcastingMatchesAnIndexByIndexReference) {
  std::mt19937 rng(1234);
  // TensorFlow-order shape pairs, up to rank 6.
  const std::vector<std::pair<std::vector<std::uint32_t>, std::vector<std::uint32_t>>> cases = {
      {{4, 3}, {4, 3}},
      {{4, 3}, {3}},
      {{4, 1}, {1, 3}},
      {{2, 1, 3}, {5, 1}},
      {{1}, {2, 3, 4}},
      {{2, 3, 1, 2}, {3, 5, 1}},
      {{2, 1, 2, 1, 3, 2}, {2, 1, 1, 2}},
      {{1, 1, 1, 1, 1, 7}, {7}}};
  for (const auto& [xs, ys] : cases) {
    auto count = [](const std::vector<std::uint32_t>& s) {
      std::size_t n = 1;
      for (auto d : s) n *= d;
      return n;
    };
    std::vector<std::int32_t> x(count(xs)), y(count(ys));
    for (auto& v : x) v = std::int32_t(rng() % 20001) - 10000;
    for (auto& v : y) v = (std::int32_t(rng() % 2) * 2 - 1) * std::int32_t(1 + rng() % 50);
    std::vector<std::uint32_t> zs;
    const auto expected = reference(xs, x, ys, y, zs);
    std::vector<std::int32_t> z;
    std::vector<std::uint32_t> zd;
    ASSERT_EQ(run_div<std::int32_t>(VX_TYPE_INT32, {xs.rbegin(), xs.rend()}, x, {ys.rbegin(), ys.rend()}, y, z, &zd),
              VX_SUCCESS);
    EXPECT_EQ(zd, std::vector<std::uint32_t>(zs.rbegin(), zs.rend()));
    EXPECT_EQ(z, expected) << "x rank " << xs.size() << ", y rank " << ys.size();
  }
}

TEST(ExampleTruncateDiv, IntegerDivisionByZeroNamesTheIndex) {
  std::vector<std::int32_t> z;
  std::string log;
  EXPECT_EQ(run_div<std::int32_t>(VX_TYPE_INT32, {2, 2}, {1, 2, 3, 4}, {2}, {1, 0}, z, nullptr, &log), VX_FAILURE);
  EXPECT_EQ(log, "rknnop: TruncateDiv: the CPU kernel failed: Integer division by zero: y[1] is 0");
  std::vector<std::uint8_t> zu;
  EXPECT_EQ(run_div<std::uint8_t>(VX_TYPE_UINT8, {3}, {1, 2, 3}, {3}, {4, 5, 0}, zu, nullptr, &log), VX_FAILURE);
  EXPECT_EQ(log, "rknnop: TruncateDiv: the CPU kernel failed: Integer division by zero: y[2] is 0");
}

TEST(ExampleTruncateDiv, Int32BeyondTwoToTheTwentyFourIsRefusedNotRounded) {
  std::vector<std::int32_t> z;
  std::string log;
  EXPECT_EQ(run_div<std::int32_t>(VX_TYPE_INT32, {3}, {1, 16777217, 3}, {1}, {1}, z, nullptr, &log), VX_FAILURE);
  EXPECT_EQ(log,
            "rknnop: TruncateDiv: the CPU kernel failed: int32 operands must lie within +-(2^24 - 1) (the "
            "kernel divides in float), x[1] or y[0] does not");
}

TEST(ExampleTruncateDiv, IncompatibleShapesAndMixedDtypes) {
  std::vector<float> z;
  std::string log;
  EXPECT_NE(run_div<float>(VX_TYPE_FLOAT32, {3, 2}, std::vector<float>(6, 1.f), {2}, {1, 1}, z, nullptr, &log),
            VX_SUCCESS);
  EXPECT_EQ(log, "rknnop: TruncateDiv: shape inference (infer) failed: Incompatible shapes: [2,3] vs. [2]");

  harness h(vx_kernel_TruncateDiv_list.entries[0]);
  EXPECT_NE(h.run({ref(h.tensor<float>({2}, VX_TYPE_FLOAT32, {1, 2})),
                   ref(h.tensor<std::int32_t>({2}, VX_TYPE_INT32, {1, 2})), ref(h.virtual_tensor(VX_TYPE_FLOAT32))}),
            VX_SUCCESS);
  EXPECT_EQ(h.last_log(),
            "rknnop: TruncateDiv: shape inference (infer) failed: x and y must have the same dtype, got "
            "VX_TYPE_FLOAT32 and VX_TYPE_INT32");
}

TEST(ExampleTruncateDiv, ShaderMatchesTheCpuKernelOnFloat16WithBroadcasting) {
  RKNNOP_SKIP_WITHOUT_OPENCL();
#if RKNNOP_EXAMPLES_HAVE_VXC
  // TensorFlow shapes x [3, 4, 5] and y [3, 1, 5]: z [3, 4, 5], OpenVX dims [5, 4, 3].
  const std::vector<std::uint32_t> xd = {5, 4, 3}, yd = {5, 1, 3};
  std::vector<float> xf(60), yf(15);
  for (std::size_t i = 0; i < xf.size(); ++i) xf[i] = -40.f + 1.37f * float(i);
  for (std::size_t i = 0; i < yf.size(); ++i) yf[i] = (i % 2 ? -1.f : 1.f) * (0.75f + 0.5f * float(i));
  const auto x = rknnop::test::to_half(xf), y = rknnop::test::to_half(yf);
  std::vector<float16> cpu;
  ASSERT_EQ(run_div<float16>(VX_TYPE_FLOAT16, xd, x, yd, y, cpu), VX_SUCCESS);

  harness h(vx_kernel_TruncateDiv_list.entries[1]);
  ASSERT_EQ(h.verify_only({ref(h.tensor(xd, VX_TYPE_FLOAT16, x)), ref(h.tensor(yd, VX_TYPE_FLOAT16, y)),
                           ref(h.virtual_tensor(VX_TYPE_FLOAT16))}),
            VX_SUCCESS)
      << h.last_log();
  vx_kernel_execution_parameters_t p{};
  ASSERT_TRUE(rknnop::test::execution_parameters_of(h.node(), p));
  EXPECT_EQ(p.workDim, 3u);
  EXPECT_EQ(p.globalWorkSize[0] * p.globalWorkSize[1] * p.globalWorkSize[2], 60u);
  std::vector<std::uint16_t> xb = rknnop::test::half_bits(x), yb = rknnop::test::half_bits(y), zb(60, 0xFFFF);
  using rknnop::vx_type;
  const auto r = rknnop::test::run_shader(
      "truncate_div/truncate_div.vx", "truncatediv", p,
      {rknnop::test::shader_tensor(xd, vx_type::float16, xb), rknnop::test::shader_tensor(yd, vx_type::float16, yb),
       rknnop::test::shader_tensor(xd, vx_type::float16, zb)});
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(zb, rknnop::test::half_bits(cpu));
#endif
}

}  // namespace

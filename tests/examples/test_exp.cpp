// SPDX-License-Identifier: MIT
// examples/exp through the host runtime: every float16 input against exp in double, float32, ranks
// 1..6, special values, the dtype error, and exp.vx on POCL with the work size Exp::vx sets.
#include "exp/exp.cpp"

#include "example_test_util.hpp"

#include <cmath>
#include <limits>

namespace {

using rknnop::float16;
using rknnop::test::harness;
using rknnop::test::ref;

std::vector<float16> run_exp_f16(const std::vector<std::uint32_t>& dims, const std::vector<float16>& x,
                                 std::string* log = nullptr) {
  harness h(vx_kernel_Exp_list.entries[0]);
  vx_tensor y = h.virtual_tensor(VX_TYPE_FLOAT16);
  const vx_status s = h.run({ref(h.tensor(dims, VX_TYPE_FLOAT16, x)), ref(y)});
  if (log) *log = h.last_log();
  EXPECT_EQ(s, VX_SUCCESS) << h.last_log();
  EXPECT_EQ(harness::dims(y), dims);
  return harness::read<float16>(y);
}

// float16 of the exactly rounded e^x (double is far more precise than float16 needs).
std::uint16_t expected_bits(float16 x) { return float16(float(std::exp(double(float(x))))).bits(); }

TEST(ExampleExp, EveryFiniteFloat16AgainstExpInDouble) {
  // e^x overflows float16 past 11.09 and is subnormal or 0 below -9.7: the op's float16 semantics,
  // tested here, which the PC library's output precision rule (docs/running.md §1) would refuse.
  setenv("RKNNOP_ALLOW_LOSSY", "1", 1);
  std::vector<float16> x;
  for (std::uint32_t bits = 0; bits < 0x10000; ++bits) {
    const auto h = float16::from_bits(std::uint16_t(bits));
    if (std::isfinite(float(h))) x.push_back(h);
  }
  const std::vector<float16> y = run_exp_f16({std::uint32_t(x.size())}, x);
  ASSERT_EQ(y.size(), x.size());
  std::size_t exact = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const int diff = int(y[i].bits()) - int(expected_bits(x[i]));
    EXPECT_LE(std::abs(diff), 1) << "x = " << float(x[i]);  // expf (< 1 ulp in float) may round the other way
    exact += diff == 0;
  }
  EXPECT_GE(exact, x.size() - 8) << "float32 exp then one rounding should almost always be exact";
}

TEST(ExampleExp, HandTable) {
  // e^x overflows float16 past 11.09 and is subnormal or 0 below -9.7: the op's float16 semantics,
  // tested here, which the PC library's output precision rule (docs/running.md §1) would refuse.
  setenv("RKNNOP_ALLOW_LOSSY", "1", 1);
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> x = {0.f, 1.f, -1.f, 2.f, 0.5f, -inf, inf, 11.f, 12.f, -20.f};
  // e^0 = 1, e = 2.71828 -> 2.71875 in float16, 1/e = 0.367879 -> 0.367920, e^2 = 7.38906 -> 7.390625,
  // e^0.5 = 1.648721 -> 1.648438, e^11 = 59874.14 -> 59872, e^12 overflows float16, e^-20 -> 0.
  const std::vector<float> expected = {1.f, 2.71875f, 0.36792f, 7.390625f, 1.6484375f, 0.f, inf, 59872.f, inf, 0.f};
  const std::vector<float> y = rknnop::test::to_float(run_exp_f16({2, 5}, rknnop::test::to_half(x)));
  ASSERT_EQ(y.size(), expected.size());
  for (std::size_t i = 0; i < y.size(); ++i)  // the decimals above name exactly these float16 values
    EXPECT_EQ(float16(y[i]).bits(), float16(expected[i]).bits()) << "x = " << x[i] << ", got " << y[i];
  const std::vector<float> nan = rknnop::test::to_float(run_exp_f16({1}, rknnop::test::to_half({std::nanf("")})));
  EXPECT_TRUE(std::isnan(nan.at(0)));
}

TEST(ExampleExp, Float32WithinOneUlpOfDouble) {
  harness h(vx_kernel_Exp_list.entries[0]);
  std::vector<float> x;
  for (int i = -800; i <= 800; ++i) x.push_back(float(i) * 0.1f);
  vx_tensor y = h.virtual_tensor(VX_TYPE_FLOAT32);
  ASSERT_EQ(h.run({ref(h.tensor({std::uint32_t(x.size())}, VX_TYPE_FLOAT32, x)), ref(y)}), VX_SUCCESS) << h.last_log();
  const std::vector<float> got = harness::read<float>(y);
  for (std::size_t i = 0; i < x.size(); ++i) {
    const auto want = float(std::exp(double(x[i])));
    EXPECT_LE(std::fabs(got[i] - want),
              std::nextafter(want, 0.f) == want ? 0.f : std::fabs(want - std::nextafter(want, 0.f)))
        << "x = " << x[i];
  }
}

TEST(ExampleExp, AnyRankOneToSixKeepsItsDims) {
  const std::vector<std::vector<std::uint32_t>> shapes = {{5},          {3, 2},          {1, 4, 2},
                                                          {3, 2, 2, 1}, {2, 1, 3, 1, 2}, {2, 1, 3, 1, 2, 2}};
  for (const auto& dims : shapes) {
    std::size_t n = 1;
    for (auto d : dims) n *= d;
    std::vector<float> x(n);
    for (std::size_t i = 0; i < n; ++i) x[i] = -2.f + 0.25f * float(i % 17);
    const auto xh = rknnop::test::to_half(x);
    const std::vector<float16> y = run_exp_f16(dims, xh);
    ASSERT_EQ(y.size(), n) << "rank " << dims.size();
    for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(y[i].bits(), expected_bits(xh[i])) << "rank " << dims.size();
  }
}

TEST(ExampleExp, IntegerInputIsRejectedWithItsDtype) {
  harness h(vx_kernel_Exp_list.entries[0]);
  EXPECT_EQ(
      h.run({ref(h.tensor<std::int8_t>({4}, VX_TYPE_INT8, {1, 2, 3, 4})), ref(h.virtual_tensor(VX_TYPE_FLOAT16))}),
      VX_ERROR_INVALID_TYPE);
  EXPECT_EQ(h.last_log(),
            "rknnop: Exp: input 'x': expected dtype VX_TYPE_FLOAT32 or VX_TYPE_FLOAT16, got VX_TYPE_INT8");
}

TEST(ExampleExp, VxWorkSizeStepsByEightAndRefusesFourRealDims) {
  {
    harness h(vx_kernel_Exp_list.entries[1]);
    ASSERT_EQ(
        h.verify_only({ref(h.tensor<float16>({20, 3, 2}, VX_TYPE_FLOAT16)), ref(h.virtual_tensor(VX_TYPE_FLOAT16))}),
        VX_SUCCESS)
        << h.last_log();
    vx_kernel_execution_parameters_t p{};
    ASSERT_TRUE(rknnop::test::execution_parameters_of(h.node(), p));
    EXPECT_EQ(p.workDim, 3u);
    EXPECT_EQ(p.globalWorkScale[0], 8u);
    EXPECT_EQ(p.globalWorkSize[0], 3u);  // ceil(20 / 8)
    EXPECT_EQ(p.globalWorkSize[1], 3u);
    EXPECT_EQ(p.globalWorkSize[2], 2u);
  }
  harness h(vx_kernel_Exp_list.entries[1]);
  EXPECT_NE(
      h.verify_only({ref(h.tensor<float16>({4, 3, 2, 2}, VX_TYPE_FLOAT16)), ref(h.virtual_tensor(VX_TYPE_FLOAT16))}),
      VX_SUCCESS);
  EXPECT_EQ(h.last_log(),
            "rknnop: Exp: the VX work-size function (vx) failed: the VX kernel handles up to 3 dims, got dims[3] = 2 "
            "(use the CPU kernel)");
}

TEST(ExampleExp, ShaderMatchesTheCpuKernel) {
  RKNNOP_SKIP_WITHOUT_OPENCL();
#if RKNNOP_EXAMPLES_HAVE_VXC
  const std::vector<std::uint32_t> dims = {21, 3, 2};  // 21: the last 8-lane access of each row is clipped
  std::vector<float> xf(21 * 3 * 2);
  for (std::size_t i = 0; i < xf.size(); ++i) xf[i] = -6.f + 0.13f * float(i);
  const auto x = rknnop::test::to_half(xf);
  harness h(vx_kernel_Exp_list.entries[1]);
  ASSERT_EQ(h.verify_only({ref(h.tensor(dims, VX_TYPE_FLOAT16, x)), ref(h.virtual_tensor(VX_TYPE_FLOAT16))}),
            VX_SUCCESS);
  vx_kernel_execution_parameters_t p{};
  ASSERT_TRUE(rknnop::test::execution_parameters_of(h.node(), p));
  std::vector<std::uint16_t> in = rknnop::test::half_bits(x), out(in.size(), 0xFFFF);
  const auto r = rknnop::test::run_shader("exp/exp.vx", "exp", p,
                                          {rknnop::test::shader_tensor(dims, rknnop::vx_type::float16, in),
                                           rknnop::test::shader_tensor(dims, rknnop::vx_type::float16, out)});
  ASSERT_TRUE(r.ok()) << r.message;
  const std::vector<float16> cpu = run_exp_f16(dims, x);
  for (std::size_t i = 0; i < out.size(); ++i)  // OpenCL's exp may be off by a few float ulps: 1 half ulp
    EXPECT_LE(std::abs(int(out[i]) - int(cpu[i].bits())), 1) << "element " << i << " x = " << xf[i];
#endif
}

}  // namespace

// SPDX-License-Identifier: MIT
// examples/leaky_relu (README's and docs/first-op.md's op) through the host runtime: hand-worked
// values (y = x for x >= 0, alpha * x otherwise, as tf.nn.leaky_relu), float32 and float16, any rank,
// and the error for a negative alpha.
#include "leaky_relu/leaky_relu.cpp"

#include "example_test_util.hpp"

#include <cmath>
#include <limits>

namespace {

using rknnop::float16;
using rknnop::test::harness;
using rknnop::test::ref;

using result = rknnop::test::float_run;

result run_leaky_relu(const std::vector<std::uint32_t>& dims, const std::vector<float>& x, float alpha,
                      vx_enum dtype = VX_TYPE_FLOAT32) {
  return rknnop::test::run_float_op(vx_kernel_LeakyRelu_list.entries[0], dims, x, dtype, [&](harness& h) {
    return std::vector<vx_reference>{ref(h.scalar(VX_TYPE_FLOAT32, &alpha))};
  });
}

TEST(ExampleLeakyRelu, HandWorkedFloat32) {
  const float inf = std::numeric_limits<float>::infinity();
  const result r = run_leaky_relu({6}, {-2.f, -0.5f, 0.f, 1.5f, -inf, inf}, 0.25f);
  ASSERT_EQ(r.status, VX_SUCCESS) << r.log;
  EXPECT_EQ(r.dims, (std::vector<std::uint32_t>{6}));
  EXPECT_EQ(r.values, (std::vector<float>{-0.5f, -0.125f, 0.f, 1.5f, -inf, inf}));  // x * 0.25 is exact
}

TEST(ExampleLeakyRelu, Float16KeepsDtypeAndRank) {
  // -0.4 and -0.1 are not float16 values: the kernel's float result rounds once on the way out.
  const result r = run_leaky_relu({2, 1, 2}, {-2.f, -0.5f, 0.f, 1.5f}, 0.2f, VX_TYPE_FLOAT16);
  ASSERT_EQ(r.status, VX_SUCCESS) << r.log;
  EXPECT_EQ(r.dims, (std::vector<std::uint32_t>{2, 1, 2}));
  EXPECT_EQ(r.values, (std::vector<float>{-0.39990234375f, -0.0999755859375f, 0.f, 1.5f}));
}

TEST(ExampleLeakyRelu, NegativeAlphaIsRefused) {
  const result r = run_leaky_relu({2}, {1.f, -1.f}, -0.5f);
  EXPECT_NE(r.status, VX_SUCCESS);
  EXPECT_NE(r.log.find("rknnop: LeakyRelu: the CPU kernel failed: alpha must be >= 0, got -0.5"), std::string::npos)
      << r.log;
}

// The op's name is its struct's: no `name` member, yet the table and the symbol say LeakyRelu.
static_assert(rknnop::op_name<LeakyRelu> == "LeakyRelu");

}  // namespace

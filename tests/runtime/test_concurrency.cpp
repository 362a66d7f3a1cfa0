// SPDX-License-Identifier: MIT
// Two graphs whose nodes use the same kernel, built and processed from two threads at once.
#include "runtime_test_util.hpp"

#include "scale_bias_kernel.h"

#include <thread>
#include <vector>

using namespace rknnop_test;

namespace {

// Builds a one-node ScaleBias graph, processes it `rounds` times with changing input and checks
// every output; returns the number of wrong results (or -1 on an API failure).
int run_graph(vx_context ctx, vx_kernel kernel, float scale, int rounds) {
  constexpr vx_uint32 width = 64, height = 16;
  vx_size dims[2] = {width, height};
  vx_tensor in = vxCreateTensor(ctx, 2, dims, VX_TYPE_FLOAT32, 0);
  vx_tensor out = vxCreateTensor(ctx, 2, dims, VX_TYPE_FLOAT32, 0);
  vx_graph graph = vxCreateGraph(ctx);
  vx_node node = vxCreateGenericNode(graph, kernel);
  vx_array bias = vxCreateArray(ctx, VX_TYPE_INT32, 1);
  const vx_int32 bias_value = 3;
  vx_scalar scale_scalar = vxCreateScalar(ctx, VX_TYPE_FLOAT32, &scale);
  vx_bool no = vx_false_e;
  vx_scalar negate = vxCreateScalar(ctx, VX_TYPE_BOOL, &no);
  int wrong = 0;
  if (vxAddArrayItems(bias, 1, &bias_value, sizeof bias_value) != VX_SUCCESS ||
      vxSetParameterByIndex(node, 0, ref(in)) != VX_SUCCESS || vxSetParameterByIndex(node, 1, ref(out)) != VX_SUCCESS ||
      vxSetParameterByIndex(node, 2, ref(bias)) != VX_SUCCESS ||
      vxSetParameterByIndex(node, 3, ref(scale_scalar)) != VX_SUCCESS ||
      vxSetParameterByIndex(node, 4, ref(negate)) != VX_SUCCESS)
    wrong = -1;

  std::vector<float> input(width * height), output(width * height);
  vx_size start[2] = {0, 0}, end[2] = {width, height}, stride[2] = {4, 4 * width};
  for (int round = 0; round < rounds && wrong == 0; ++round) {
    for (std::size_t i = 0; i < input.size(); ++i) input[i] = static_cast<float>(i % 97 + round);
    if (vxCopyTensorPatch(in, 2, start, end, stride, input.data(), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST) != VX_SUCCESS ||
        vxProcessGraph(graph) != VX_SUCCESS ||
        vxCopyTensorPatch(out, 2, start, end, stride, output.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST) != VX_SUCCESS) {
      wrong = -1;
      break;
    }
    for (std::size_t i = 0; i < input.size(); ++i)
      if (output[i] != input[i] * scale + 3.0f) ++wrong;
    vxAddLogEntry(ref(node), VX_SUCCESS, "round %d done", round);
  }
  vxReleaseScalar(&negate);
  vxReleaseScalar(&scale_scalar);
  vxReleaseArray(&bias);
  vxReleaseNode(&node);
  vxReleaseGraph(&graph);
  vxReleaseTensor(&in);
  vxReleaseTensor(&out);
  return wrong;
}

TEST(runtime_concurrency, two_graphs_same_kernel_two_threads) {
  vx_context ctx = vxCreateContext();
  vx_kernel kernel = register_kernel_description(ctx, vx_kernel_ScaleBias_list[0]);
  ASSERT_NE(kernel, nullptr);
  const int init_before = scale_bias_init_calls();
  const int deinit_before = scale_bias_deinit_calls();
  constexpr int rounds = 200;
  int wrong_a = 0, wrong_b = 0;
  std::thread a([&] { wrong_a = run_graph(ctx, kernel, 2.0f, rounds); });
  std::thread b([&] { wrong_b = run_graph(ctx, kernel, -0.5f, rounds); });
  a.join();
  b.join();
  EXPECT_EQ(wrong_a, 0);
  EXPECT_EQ(wrong_b, 0);
  EXPECT_EQ(scale_bias_init_calls(), init_before + 2);
  EXPECT_EQ(scale_bias_deinit_calls(), deinit_before + 2);
  vx_uint32 entries = 0;
  ASSERT_EQ(rknnopHostGetLogEntryCount(ctx, &entries), VX_SUCCESS);
  EXPECT_EQ(entries, 2U * rounds);
  vxReleaseKernel(&kernel);
  ASSERT_EQ(vxReleaseContext(&ctx), VX_SUCCESS);
}

TEST(runtime_concurrency, contexts_created_and_released_in_parallel) {
  // The registry of live objects is process-wide: hammer it from two threads.
  auto churn = [] {
    int failures = 0;
    for (int i = 0; i < 200; ++i) {
      vx_context ctx = vxCreateContext();
      vx_int32 v = i;
      vx_scalar s = vxCreateScalar(ctx, VX_TYPE_INT32, &v);
      vx_int32 back = -1;
      if (vxCopyScalar(s, &back, VX_READ_ONLY, VX_MEMORY_TYPE_HOST) != VX_SUCCESS || back != i) ++failures;
      if (vxReleaseContext(&ctx) != VX_SUCCESS) ++failures;
    }
    return failures;
  };
  int fa = 0, fb = 0;
  std::thread a([&] { fa = churn(); });
  std::thread b([&] { fb = churn(); });
  a.join();
  b.join();
  EXPECT_EQ(fa, 0);
  EXPECT_EQ(fb, 0);
}

}  // namespace

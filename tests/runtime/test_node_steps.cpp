// SPDX-License-Identifier: MIT
// The runtime's per-node record of each callback step (rknnopHostGetNodeStep / -Log): what the
// engine (src/host/run/engine.cpp) reads instead of wrapping the kernel's callbacks.
#include "runtime_test_util.hpp"

#include <string>

using namespace rknnop_test;

namespace {

using runtime_node_steps = context_test;

vx_status VX_CALLBACK validate_logs(vx_node node, const vx_reference[], vx_uint32, vx_meta_format[]) {
  vxAddLogEntry(ref(node), VX_SUCCESS, "validating");
  return VX_SUCCESS;
}
vx_status VX_CALLBACK initialize_ok(vx_node, const vx_reference*, vx_uint32) { return VX_SUCCESS; }
vx_status VX_CALLBACK kernel_fails(vx_node node, const vx_reference*, vx_uint32) {
  vxAddLogEntry(ref(node), VX_ERROR_INVALID_VALUE, "first line\nsecond line");
  vxAddLogEntry(ref(node), VX_ERROR_INVALID_VALUE, "bad value");
  return VX_ERROR_INVALID_VALUE;
}
vx_status VX_CALLBACK deinitialize_fails(vx_node, const vx_reference*, vx_uint32) { return VX_FAILURE; }

std::string step_log(vx_node n, vx_enum step) {
  vx_size required = 0;
  EXPECT_EQ(rknnopHostGetNodeStepLog(n, step, nullptr, 0, &required), VX_SUCCESS);
  std::string text(required, '\0');
  EXPECT_EQ(rknnopHostGetNodeStepLog(n, step, text.data(), text.size(), nullptr), VX_SUCCESS);
  text.resize(required == 0 ? 0 : required - 1);
  return text;
}

TEST_F(runtime_node_steps, records_each_callback_status_and_log) {
  vx_kernel k = vxAddUserKernel(ctx, "steps", 1, kernel_fails, 0, validate_logs, initialize_ok, deinitialize_fails);
  ASSERT_NE(k, nullptr);
  ASSERT_EQ(vxFinalizeKernel(k), VX_SUCCESS);
  vx_graph g = vxCreateGraph(ctx);
  vx_node n = vxCreateGenericNode(g, k);
  ASSERT_NE(n, nullptr);

  vx_bool called = vx_true_e;
  vx_status status = VX_FAILURE;
  ASSERT_EQ(rknnopHostGetNodeStep(n, RKNNOP_HOST_STEP_VALIDATE, &called, &status), VX_SUCCESS);
  EXPECT_EQ(called, vx_false_e);  // not verified yet
  EXPECT_EQ(status, VX_SUCCESS);

  ASSERT_EQ(vxVerifyGraph(g), VX_SUCCESS);
  ASSERT_EQ(rknnopHostGetNodeStep(n, RKNNOP_HOST_STEP_VALIDATE, &called, &status), VX_SUCCESS);
  EXPECT_EQ(called, vx_true_e);
  EXPECT_EQ(step_log(n, RKNNOP_HOST_STEP_VALIDATE), "validating");
  ASSERT_EQ(rknnopHostGetNodeStep(n, RKNNOP_HOST_STEP_INITIALIZE, &called, &status), VX_SUCCESS);
  EXPECT_EQ(called, vx_true_e);
  EXPECT_EQ(step_log(n, RKNNOP_HOST_STEP_INITIALIZE), "");

  EXPECT_EQ(vxProcessGraph(g), VX_ERROR_INVALID_VALUE);
  ASSERT_EQ(rknnopHostGetNodeStep(n, RKNNOP_HOST_STEP_KERNEL, &called, &status), VX_SUCCESS);
  EXPECT_EQ(called, vx_true_e);
  EXPECT_EQ(status, VX_ERROR_INVALID_VALUE);
  // The kernel's own entries, one per line (its line break joined); not the runtime's restatement.
  EXPECT_EQ(step_log(n, RKNNOP_HOST_STEP_KERNEL), "first line second line\nbad value");

  // Releasing the graph deinitializes; the node, still held, keeps the record.
  EXPECT_EQ(vxReleaseGraph(&g), VX_SUCCESS);
  ASSERT_EQ(rknnopHostGetNodeStep(n, RKNNOP_HOST_STEP_DEINITIALIZE, &called, &status), VX_SUCCESS);
  EXPECT_EQ(called, vx_true_e);
  EXPECT_EQ(status, VX_FAILURE);

  EXPECT_EQ(rknnopHostGetNodeStep(n, 4, &called, &status), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(rknnopHostGetNodeStep(nullptr, RKNNOP_HOST_STEP_KERNEL, &called, &status), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxReleaseNode(&n), VX_SUCCESS);
  EXPECT_EQ(vxReleaseKernel(&k), VX_SUCCESS);
}

}  // namespace

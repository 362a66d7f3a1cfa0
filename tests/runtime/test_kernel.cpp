// SPDX-License-Identifier: MIT
// User kernel registration: names, parameter tables, finalization, lookup and removal.
#include "runtime_test_util.hpp"

#include "scale_bias_kernel.h"

#include <string>

using namespace rknnop_test;

namespace {

using runtime_kernel = context_test;

vx_status noop(vx_node, const vx_reference*, vx_uint32) { return VX_SUCCESS; }

TEST_F(runtime_kernel, registers_a_toolkit_descriptor) {
  vx_kernel k = register_kernel_description(ctx, vx_kernel_ScaleBias_list[0]);
  ASSERT_NE(k, nullptr);
  vx_kernel found = vxGetKernelByName(ctx, "scalebias_cpu");
  EXPECT_EQ(found, k);
  vx_uint32 count = 0;
  ASSERT_EQ(vxQueryReference(ref(k), VX_REFERENCE_COUNT, &count, sizeof count), VX_SUCCESS);
  EXPECT_EQ(count, 2U);
  EXPECT_EQ(vxReleaseKernel(&found), VX_SUCCESS);
  EXPECT_EQ(vxGetKernelByName(ctx, "no_such_kernel"), nullptr);
  EXPECT_EQ(vxGetKernelByName(ctx, nullptr), nullptr);
  EXPECT_EQ(vxReleaseKernel(&k), VX_SUCCESS);
  // The context's table still lists it.
  vx_kernel again = vxGetKernelByName(ctx, "scalebias_cpu");
  EXPECT_NE(again, nullptr);
  EXPECT_EQ(vxRemoveKernel(again), VX_SUCCESS);
  EXPECT_EQ(vxGetKernelByName(ctx, "scalebias_cpu"), nullptr);
  EXPECT_EQ(vxGetStatus(ref(again)), VX_ERROR_INVALID_REFERENCE);
}

TEST_F(runtime_kernel, names) {
  EXPECT_EQ(vxAddUserKernel(ctx, "", 1, noop, 0, nullptr, nullptr, nullptr), nullptr);
  EXPECT_EQ(vxAddUserKernel(ctx, nullptr, 1, noop, 0, nullptr, nullptr, nullptr), nullptr);
  const std::string too_long(256, 'k');
  EXPECT_EQ(vxAddUserKernel(ctx, too_long.c_str(), 1, noop, 0, nullptr, nullptr, nullptr), nullptr);
  const std::string longest(255, 'k');
  vx_kernel k = vxAddUserKernel(ctx, longest.c_str(), 1, noop, 0, nullptr, nullptr, nullptr);
  EXPECT_NE(k, nullptr);
  EXPECT_EQ(vxAddUserKernel(ctx, longest.c_str(), 2, noop, 0, nullptr, nullptr, nullptr), nullptr);
  vx_status status = 0;
  EXPECT_NE(last_log(ref(ctx), &status).find("exists"), std::string::npos);
  EXPECT_EQ(vxRemoveKernel(k), VX_SUCCESS);
  // The name is free again.
  k = vxAddUserKernel(ctx, longest.c_str(), 3, noop, 0, nullptr, nullptr, nullptr);
  EXPECT_NE(k, nullptr);
  EXPECT_EQ(vxReleaseKernel(&k), VX_SUCCESS);
}

TEST_F(runtime_kernel, parameter_table_errors) {
  vx_kernel k = vxAddUserKernel(ctx, "params", 1, noop, 2, nullptr, nullptr, nullptr);
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(vxAddParameterToKernel(k, 2, VX_INPUT, VX_TYPE_TENSOR, VX_PARAMETER_STATE_REQUIRED),
            VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxAddParameterToKernel(k, 0, 7, VX_TYPE_TENSOR, VX_PARAMETER_STATE_REQUIRED), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxAddParameterToKernel(k, 0, VX_INPUT, VX_TYPE_TENSOR, 0x1234), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxAddParameterToKernel(k, 0, VX_INPUT, 0x7777, VX_PARAMETER_STATE_REQUIRED), VX_ERROR_INVALID_TYPE);
  EXPECT_EQ(vxAddParameterToKernel(k, 0, VX_INPUT, VX_TYPE_TENSOR, VX_PARAMETER_STATE_REQUIRED), VX_SUCCESS);
  // Not every parameter added yet.
  EXPECT_EQ(vxFinalizeKernel(k), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_NE(last_log(ref(k)).find("parameter 1"), std::string::npos);
  EXPECT_EQ(vxGetKernelByName(ctx, "params"), nullptr);  // not finalized

  vx_graph g = vxCreateGraph(ctx);
  EXPECT_EQ(vxCreateGenericNode(g, k), nullptr);  // not finalized
  EXPECT_EQ(vxAddParameterToKernel(k, 1, VX_OUTPUT, VX_TYPE_TENSOR, VX_PARAMETER_STATE_REQUIRED), VX_SUCCESS);
  EXPECT_EQ(vxFinalizeKernel(k), VX_SUCCESS);
  EXPECT_EQ(vxAddParameterToKernel(k, 1, VX_OUTPUT, VX_TYPE_ARRAY, VX_PARAMETER_STATE_REQUIRED),
            VX_ERROR_NOT_SUPPORTED);
  vx_node n = vxCreateGenericNode(g, k);
  EXPECT_NE(n, nullptr);
  EXPECT_EQ(vxCreateGenericNode(g, nullptr), nullptr);
  EXPECT_EQ(vxCreateGenericNode(nullptr, k), nullptr);

  // Removing the kernel leaves nodes that use it working.
  EXPECT_EQ(vxRemoveKernel(k), VX_SUCCESS);
  vx_status status = 0;
  EXPECT_EQ(vxQueryNode(n, VX_NODE_STATUS, &status, sizeof status), VX_SUCCESS);
  EXPECT_EQ(vxRemoveKernel(nullptr), VX_ERROR_INVALID_REFERENCE);
  vxReleaseNode(&n);
  vxReleaseGraph(&g);
}

TEST_F(runtime_kernel, null_function_registers_a_shader_kernel) {
  vx_kernel k = vxAddUserKernel(ctx, "shader", 0x7FF00200, nullptr, 1, nullptr, nullptr, nullptr);
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(vxAddParameterToKernel(k, 0, VX_INPUT, VX_TYPE_SCALAR, VX_PARAMETER_STATE_OPTIONAL), VX_SUCCESS);
  EXPECT_EQ(vxFinalizeKernel(k), VX_SUCCESS);
  vxReleaseKernel(&k);
}

}  // namespace

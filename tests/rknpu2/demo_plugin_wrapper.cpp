// SPDX-License-Identifier: MIT
// The plugin face of Rockchip's own cstDualResidual kernel: run-rknpu2-demo.sh extracts the function
// compute_custom_dual_residual_float32 from the demo application of RKNPU2's SDK (never kept in this
// repository) into RKNNOP_DEMO_KERNEL, and this file registers it the way the demo's main() does:
// op_type "cstDualResidual", version 1, CPU, compute only.
#include <cstdint>
#include <cstring>

#include "rknn_api.h"
#include "rknn_custom_op.h"

#include RKNNOP_DEMO_KERNEL

extern "C" __attribute__((visibility("default"))) rknn_custom_op* get_rknn_custom_op() {
  static rknn_custom_op op = [] {
    rknn_custom_op value;
    std::memset(&value, 0, sizeof value);
    std::strncpy(value.op_type, "cstDualResidual", RKNN_MAX_NAME_LEN - 1);
    value.version = 1;
    value.target = RKNN_TARGET_TYPE_CPU;
    value.compute = compute_custom_dual_residual_float32;
    return value;
  }();
  return &op;
}

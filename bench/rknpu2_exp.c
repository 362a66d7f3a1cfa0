/* SPDX-License-Identifier: MIT */
/*
 * Exp as an RKNPU2 CPU custom op written by hand in the style of Rockchip's C custom-op demos (their
 * element-wise sigmoid), the baseline of bench_rknpu2's Exp rows: no attributes, so init and destroy
 * do nothing; compute takes FLOAT32 tensors straight from the runtime's buffers (virt_addr + offset,
 * the element count from attr) and writes expf of each element into the output's buffer, in order, on
 * the calling thread. The same float32 function as examples/exp, so the two plugins' outputs are
 * bit-identical. No SDK code. Built against Rockchip's rknn_custom_op.h (RKNNOP_RKNPU2_RUNTIME/include).
 */
#include <rknn_custom_op.h>

#include <math.h>
#include <stdint.h>

int init_custom_exp(rknn_custom_op_context* op_ctx, rknn_custom_op_tensor* inputs, uint32_t n_inputs,
                    rknn_custom_op_tensor* outputs, uint32_t n_outputs) {
  (void)op_ctx;
  (void)inputs;
  (void)outputs;
  return n_inputs == 1 && n_outputs == 1 ? 0 : -1;
}

int destroy_custom_exp(rknn_custom_op_context* op_ctx) {
  (void)op_ctx;
  return 0;
}

int compute_custom_exp_float32(rknn_custom_op_context* op_ctx, rknn_custom_op_tensor* inputs, uint32_t n_inputs,
                               rknn_custom_op_tensor* outputs, uint32_t n_outputs) {
  const float* in;
  float* out;
  uint32_t i, n;
  (void)op_ctx;
  if (n_inputs != 1 || n_outputs != 1) return -1;
  if (inputs[0].attr.type != RKNN_TENSOR_FLOAT32 || outputs[0].attr.type != RKNN_TENSOR_FLOAT32) return -1;
  n = inputs[0].attr.n_elems;
  if (outputs[0].attr.n_elems != n) return -1;
  in = (const float*)((const char*)inputs[0].mem.virt_addr + inputs[0].mem.offset);
  out = (float*)((char*)outputs[0].mem.virt_addr + outputs[0].mem.offset);
  for (i = 0; i < n; ++i) out[i] = expf(in[i]);
  return 0;
}

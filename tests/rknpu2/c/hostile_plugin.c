/* SPDX-License-Identifier: MIT */
/* Hostile: an RKNPU2 plugin (the exports of <rknnop/rknpu2_plugin.h>, written in C) whose compute
 * misbehaves as its INT attribute `mode` says, for rknnop-run's RKNPU2 mode (tests/rknpu2/run_plugin.py):
 * the node runner must hold it as it holds tests/host/kernels/hostile's VX op (docs/isolation.md).
 *   0 copies x to y (a correct op)                     1 writes through a null pointer
 *   5 writes one byte past its output                  27 creates a file in the current folder
 * The output is the input's shape and type. Each returns -1 with a line when its attack fails. */
#define _GNU_SOURCE
#include <rknnop/rknpu2_plugin.h>

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))

/* librknnrt's reader (the node runner provides it). */
extern void rknn_custom_op_get_op_attr(rknnop_rknpu2_op_context* ctx, const char* name, rknnop_rknpu2_op_attr* attr)
    __attribute__((weak));

static int64_t mode_of(rknnop_rknpu2_op_context* ctx) {
  rknnop_rknpu2_op_attr attr;
  memset(&attr, 0, sizeof attr);
  if (rknn_custom_op_get_op_attr) rknn_custom_op_get_op_attr(ctx, "mode", &attr);
  if (attr.dtype != RKNNOP_RKNPU2_INT64 || attr.n_elems != 1 || !attr.data) return 0;
  int64_t mode;
  memcpy(&mode, attr.data, sizeof mode);
  return mode;
}

static int compute(rknnop_rknpu2_op_context* ctx, rknnop_rknpu2_op_tensor* inputs, uint32_t n_inputs,
                   rknnop_rknpu2_op_tensor* outputs, uint32_t n_outputs) {
  if (n_inputs != 1 || n_outputs != 1) return -1;
  char* out = (char*)outputs[0].mem.virt_addr + outputs[0].mem.offset;
  const char* in = (const char*)inputs[0].mem.virt_addr + inputs[0].mem.offset;
  switch (mode_of(ctx)) {
    case 0: memcpy(out, in, outputs[0].attr.size); return 0;
    case 1: *(volatile char*)(uintptr_t)0 = 1; return -1;
    case 5: out[outputs[0].attr.size] = 1; return -1;
    case 27: {
      const int fd = open("hostile-was-here", O_WRONLY | O_CREAT | O_EXCL, 0644);
      if (fd >= 0) {
        close(fd);
        return 0; /* unconfined: the test finds the file */
      }
      fprintf(stderr, "rknnop: Hostile: open(\"hostile-was-here\") refused: %m\n");
      return -1;
    }
    default: fprintf(stderr, "rknnop: Hostile: unknown mode\n"); return -1;
  }
}

static rknnop_rknpu2_custom_op op = {
    1, RKNNOP_RKNPU2_TARGET_CPU, "Hostile", "", NULL, 0, "", NULL, NULL, compute, NULL, NULL};

EXPORT rknnop_rknpu2_custom_op* get_rknn_custom_op(void) { return &op; }

EXPORT const rknnop_rknpu2_custom_op* rknnop_rknpu2_ops(uint32_t* count) {
  if (count) *count = 1;
  return &op;
}

EXPORT int rknnop_rknpu2_infer(const rknnop_rknpu2_op_attr* attrs, uint32_t n_attrs,
                               const rknnop_rknpu2_tensor_attr* inputs, uint32_t n_inputs,
                               rknnop_rknpu2_tensor_attr* outputs, uint32_t n_outputs, char* error,
                               uint32_t error_size) {
  (void)attrs, (void)n_attrs;
  if (n_inputs != 1 || n_outputs != 1) {
    if (error && error_size) snprintf(error, error_size, "rknnop: Hostile: one input and one output");
    return -1;
  }
  outputs[0] = inputs[0];
  return 0;
}

EXPORT const char* rknnop_rknpu2_describe(void) {
  return "op Hostile (RKNPU2 op type 'Hostile')\n"
         "input x: FLOAT32\n"
         "output y: FLOAT32\n"
         "attribute mode: int64, default 0\n";
}

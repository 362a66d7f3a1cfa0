/* SPDX-License-Identifier: MIT */
/* Board-side probe of the user-space galcore: through the real libOpenVX (linked as on a board) it
 * creates a context and a graph with one user kernel (a CPU kernel: y = 2x + 1 over a float32 tensor
 * of 8 values, with a validator that sets the output's meta format), verifies and processes the
 * graph, and checks the output. Each step prints one line; the first failure names the call and its
 * status and exits 1. Run under qemu-user with librknnop_galcore.so preloaded (see
 * docs/board-emulation.md). With an argument "twice", the graph is processed twice and verified
 * again in between (the driver's lifecycle). */
#include <rknnop/openvx.h>

#include <stdio.h>
#include <string.h>

#define COUNT 8

static int kernel_calls, validator_calls, initializer_calls, deinitializer_calls;

static vx_status VX_CALLBACK twice_plus_one(vx_node node, const vx_reference* parameters, vx_uint32 num) {
  (void)node;
  ++kernel_calls;
  if (num != 2) return VX_FAILURE;
  float values[COUNT];
  vx_size start[1] = {0}, end[1] = {COUNT}, stride[1] = {sizeof(float)};
  vx_status status =
      vxCopyTensorPatch((vx_tensor)parameters[0], 1, start, end, stride, values, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
  if (status != VX_SUCCESS) {
    printf("kernel: vxCopyTensorPatch(read) = %d\n", status);
    return status;
  }
  for (int i = 0; i < COUNT; ++i) values[i] = 2.0f * values[i] + 1.0f;
  status =
      vxCopyTensorPatch((vx_tensor)parameters[1], 1, start, end, stride, values, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
  if (status != VX_SUCCESS) printf("kernel: vxCopyTensorPatch(write) = %d\n", status);
  return status;
}

static vx_status VX_CALLBACK validate(vx_node node, const vx_reference parameters[], vx_uint32 num,
                                      vx_meta_format metas[]) {
  (void)node;
  (void)parameters;
  ++validator_calls;
  if (num != 2) return VX_FAILURE;
  vx_uint32 rank = 1;
  vx_size dims[1] = {COUNT};
  vx_enum type = VX_TYPE_FLOAT32;
  vx_status status = vxSetMetaFormatAttribute(metas[1], VX_TENSOR_NUMBER_OF_DIMS, &rank, sizeof rank);
  if (status == VX_SUCCESS) status = vxSetMetaFormatAttribute(metas[1], VX_TENSOR_DIMS, dims, sizeof dims);
  if (status == VX_SUCCESS) status = vxSetMetaFormatAttribute(metas[1], VX_TENSOR_DATA_TYPE, &type, sizeof type);
  if (status != VX_SUCCESS) printf("validator: vxSetMetaFormatAttribute = %d\n", status);
  return status;
}

static vx_status VX_CALLBACK initialize(vx_node node, const vx_reference* parameters, vx_uint32 num) {
  (void)node, (void)parameters, (void)num;
  ++initializer_calls;
  return VX_SUCCESS;
}

static vx_status VX_CALLBACK deinitialize(vx_node node, const vx_reference* parameters, vx_uint32 num) {
  (void)node, (void)parameters, (void)num;
  ++deinitializer_calls;
  return VX_SUCCESS;
}

#define STEP(call)                           \
  do {                                       \
    vx_status step_status = (call);          \
    printf("%s = %d\n", #call, step_status); \
    if (step_status != VX_SUCCESS) return 1; \
  } while (0)

#define OBJECT(variable, call)                                                                                      \
  do {                                                                                                              \
    variable = (call);                                                                                              \
    vx_status object_status = variable ? vxGetStatus((vx_reference)variable) : VX_FAILURE;                          \
    printf("%s: %s (status %d)\n", #call, variable&& object_status == VX_SUCCESS ? "ok" : "FAILED", object_status); \
    if (object_status != VX_SUCCESS) return 1;                                                                      \
  } while (0)

int main(int argc, char** argv) {
  int twice = argc > 1 && strcmp(argv[1], "twice") == 0;
  vx_context context;
  OBJECT(context, vxCreateContext());
  vx_graph graph;
  OBJECT(graph, vxCreateGraph(context));
  vx_kernel kernel;
  OBJECT(kernel, vxAddUserKernel(context, "com.rknnop.galcore_probe", VX_KERNEL_BASE(VX_ID_DEFAULT, 3) + 7,
                                 twice_plus_one, 2, validate, initialize, deinitialize));
  STEP(vxAddParameterToKernel(kernel, 0, VX_INPUT, VX_TYPE_TENSOR, VX_PARAMETER_STATE_REQUIRED));
  STEP(vxAddParameterToKernel(kernel, 1, VX_OUTPUT, VX_TYPE_TENSOR, VX_PARAMETER_STATE_REQUIRED));
  STEP(vxFinalizeKernel(kernel));
  /* The board's libOpenVX reads one vx_size per dimension (8 bytes on aarch64; found by the board
   * runner: vxCreateTensor at 0x9b338 of the aarch64 libOpenVX.so.1.2 of rknpu e0cb42b), whatever the
   * vx_uint32 of rknnop/openvx.h's prototype says: pass vx_size. */
  vx_size dims[1] = {COUNT};
  vx_tensor input, output;
  OBJECT(input, vxCreateTensor(context, 1, (const vx_uint32*)(const void*)dims, VX_TYPE_FLOAT32, 0));
  OBJECT(output, vxCreateTensor(context, 1, (const vx_uint32*)(const void*)dims, VX_TYPE_FLOAT32, 0));
  vx_node node;
  OBJECT(node, vxCreateGenericNode(graph, kernel));
  STEP(vxSetParameterByIndex(node, 0, (vx_reference)input));
  STEP(vxSetParameterByIndex(node, 1, (vx_reference)output));
  float values[COUNT];
  for (int i = 0; i < COUNT; ++i) values[i] = (float)i - 3.5f;
  vx_size start[1] = {0}, end[1] = {COUNT}, stride[1] = {sizeof(float)};
  STEP(vxCopyTensorPatch(input, 1, start, end, stride, values, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST));
  STEP(vxVerifyGraph(graph));
  for (int round = 0; round < (twice ? 2 : 1); ++round) {
    STEP(vxProcessGraph(graph));
    float result[COUNT];
    STEP(vxCopyTensorPatch(output, 1, start, end, stride, result, VX_READ_ONLY, VX_MEMORY_TYPE_HOST));
    for (int i = 0; i < COUNT; ++i) {
      if (result[i] != 2.0f * values[i] + 1.0f) {
        printf("output[%d] = %g, expected %g\n", i, (double)result[i], 2.0 * values[i] + 1.0);
        return 1;
      }
    }
    printf("round %d: output checked (%d values)\n", round, COUNT);
    if (twice && round == 0) STEP(vxVerifyGraph(graph));
  }
  STEP(vxReleaseNode(&node));
  STEP(vxReleaseGraph(&graph));
  STEP(vxReleaseTensor(&input));
  STEP(vxReleaseTensor(&output));
  STEP(vxReleaseKernel(&kernel));
  STEP(vxReleaseContext(&context));
  printf("calls: validator %d, initializer %d, kernel %d, deinitializer %d\n", validator_calls, initializer_calls,
         kernel_calls, deinitializer_calls);
  printf("galcore graph probe: ok\n");
  return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * Hostile: a toolkit-style C op whose `mode` param picks how its code misbehaves, for the tests of
 * node execution in a child process (tests/host/test_isolation.cpp, docs/isolation.md):
 *   0 copies the input to the output (a correct op)     1 kernel writes through a null pointer
 *   2 kernel calls abort()                               3 kernel never returns
 *   4 kernel allocates without bound                     5 kernel writes one byte past its output
 *   6 kernel reads one byte before its input             11 validator writes through a null pointer
 * The tensors are reached through rknnopHostGetTensorBuffer, as a kernel that trusts its sizes would.
 * List index 1 is a VX kernel (hostile.vx beside this file), so that rknnop-parity takes the op; its
 * CPU kernel (index 0) misbehaves first.
 */
#include <stdlib.h>
#include <string.h>
#include "VX/vx.h"
#include "VX/vx_helper.h"
#include <rknnop/host/openvx_host.h>

#define _PARAM_NUM (3)

static vx_param_description_t kernel_params[] = {
    {VX_INPUT, VX_TYPE_TENSOR, VX_PARAMETER_STATE_REQUIRED},
    {VX_OUTPUT, VX_TYPE_TENSOR, VX_PARAMETER_STATE_REQUIRED},
    {VX_INPUT, VX_TYPE_SCALAR, VX_PARAMETER_STATE_REQUIRED},
};

static vx_int32 mode_of(vx_reference scalar) {
  vx_int32 mode = 0;
  if (vxCopyScalar((vx_scalar)scalar, &mode, VX_READ_ONLY, VX_MEMORY_TYPE_HOST) != VX_SUCCESS) return -1;
  return mode;
}

static vx_status VX_CALLBACK hostile_kernel(vx_node node, const vx_reference* parameters, uint32_t num) {
  rknnop_host_tensor_buffer in, out;
  volatile unsigned char sink = 0;
  (void)node;
  if (num != _PARAM_NUM) return VX_ERROR_INVALID_PARAMETERS;
  if (rknnopHostGetTensorBuffer((vx_tensor)parameters[0], VX_READ_ONLY, &in) != VX_SUCCESS ||
      rknnopHostGetTensorBuffer((vx_tensor)parameters[1], VX_WRITE_ONLY, &out) != VX_SUCCESS)
    return VX_FAILURE;
  switch (mode_of(parameters[2])) {
    case 1: *(volatile int*)(size_t)0 = 1; break;
    case 2: abort();
    case 3:
      for (;;) sink = (unsigned char)(sink + 1);
    case 4:
      for (;;) {
        unsigned char* block = (unsigned char*)malloc((size_t)64 << 20);
        if (block == NULL) break;
        memset(block, 0x5a, (size_t)64 << 20);
      }
      break;
    case 5: ((volatile unsigned char*)out.data)[out.size_in_bytes] = 1; break;
    case 6: sink = ((volatile unsigned char*)in.data)[-1]; break;
    default: break;
  }
  memcpy(out.data, in.data, in.size_in_bytes < out.size_in_bytes ? in.size_in_bytes : out.size_in_bytes);
  return sink == 255 ? VX_FAILURE : VX_SUCCESS;
}

/* The output has the input's dims and type. */
static vx_status VX_CALLBACK hostile_validator(vx_node node, const vx_reference parameters[], uint32_t num,
                                               vx_meta_format metas[]) {
  vx_uint32 dim_num = 0, dims[6], i;
  vx_size sizes[6];
  vx_enum dtype = 0;
  vx_status status;
  (void)node;
  if (num != _PARAM_NUM) return VX_ERROR_INVALID_PARAMETERS;
  if (mode_of(parameters[2]) == 11) *(volatile int*)(size_t)0 = 1;
  status = vxQueryTensor((vx_tensor)parameters[0], VX_TENSOR_NUMBER_OF_DIMS, &dim_num, sizeof(vx_uint32));
  if (status != VX_SUCCESS || dim_num == 0 || dim_num > 6) return VX_ERROR_INVALID_DIMENSION;
  status = vxQueryTensor((vx_tensor)parameters[0], VX_TENSOR_DIMS, dims, sizeof(vx_uint32) * dim_num);
  if (status == VX_SUCCESS) status = vxQueryTensor((vx_tensor)parameters[0], VX_TENSOR_DATA_TYPE, &dtype, sizeof dtype);
  if (status == VX_SUCCESS)
    status = vxSetMetaFormatAttribute(metas[1], VX_TENSOR_NUMBER_OF_DIMS, &dim_num, sizeof(vx_uint32));
  for (i = 0; i < dim_num; ++i) sizes[i] = dims[i];
  if (status == VX_SUCCESS)
    status = vxSetMetaFormatAttribute(metas[1], VX_TENSOR_DIMS, sizes, sizeof(vx_size) * dim_num);
  if (status == VX_SUCCESS) status = vxSetMetaFormatAttribute(metas[1], VX_TENSOR_DATA_TYPE, &dtype, sizeof dtype);
  return status;
}

static vx_kernel_description_t hostile_cpu = {
    0, "hostile_cpu", hostile_kernel, kernel_params, _PARAM_NUM, hostile_validator, NULL, NULL, NULL, NULL};

static vx_kernel_description_t hostile_vx = {1,    "hostile_vx", NULL, kernel_params, _PARAM_NUM, hostile_validator,
                                             NULL, NULL,         NULL, NULL};

__attribute__((visibility("default")))
vx_kernel_description_t* vx_kernel_Hostile_list[] = {&hostile_cpu, &hostile_vx, NULL};

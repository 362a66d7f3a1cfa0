/* SPDX-License-Identifier: MIT */
/*
 * Exp written by hand the way RKNN-Toolkit v1's generated rknn_kernel_<op>.c files are, as the
 * baseline of bench_node_cost: query the dims, copy the patch into a malloc'd float16 buffer,
 * convert element by element, compute, convert back, copy the patch out. Float16 tensors only (what
 * the board delivers). Written for this benchmark; not toolkit code.
 */
#include <rknnop/openvx.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "toolkit_half.h"

static vx_param_description_t exp_params[] = {
    {VX_INPUT, VX_TYPE_TENSOR, VX_PARAMETER_STATE_REQUIRED},
    {VX_OUTPUT, VX_TYPE_TENSOR, VX_PARAMETER_STATE_REQUIRED},
};

static vx_status VX_CALLBACK toolkit_exp_kernel(vx_node node, const vx_reference* parameters, uint32_t paramNum) {
  vx_status status;
  uint32_t dim_num = 0, dims[6] = {0}, i;
  vx_enum dtype = 0;
  vx_size view_start[6] = {0}, view_end[6] = {0}, stride_size[6] = {0}, count = 1, k;
  uint16_t* buffer;
  (void)node;
  if (paramNum != 2) return VX_ERROR_INVALID_PARAMETERS;
  status = vxQueryTensor((vx_tensor)parameters[0], VX_TENSOR_NUMBER_OF_DIMS, &dim_num, sizeof(uint32_t));
  if (status == VX_SUCCESS)
    status = vxQueryTensor((vx_tensor)parameters[0], VX_TENSOR_DIMS, dims, sizeof(uint32_t) * dim_num);
  if (status == VX_SUCCESS)
    status = vxQueryTensor((vx_tensor)parameters[0], VX_TENSOR_DATA_TYPE, &dtype, sizeof(vx_enum));
  if (status != VX_SUCCESS) return status;
  if (dtype != VX_TYPE_FLOAT16) return VX_ERROR_INVALID_TYPE;
  for (i = 0; i < dim_num; ++i) {
    view_end[i] = dims[i];
    stride_size[i] = i == 0 ? sizeof(uint16_t) : stride_size[i - 1] * dims[i - 1];
    count *= dims[i];
  }
  buffer = (uint16_t*)malloc(count * sizeof(uint16_t));
  if (buffer == NULL) return VX_ERROR_NO_MEMORY;
  status = vxCopyTensorPatch((vx_tensor)parameters[0], dim_num, view_start, view_end, stride_size, buffer, VX_READ_ONLY,
                             VX_MEMORY_TYPE_HOST);
  if (status == VX_SUCCESS) {
    for (k = 0; k < count; ++k) buffer[k] = float_to_half(expf(half_to_float(buffer[k])));
    status = vxCopyTensorPatch((vx_tensor)parameters[1], dim_num, view_start, view_end, stride_size, buffer,
                               VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
  }
  free(buffer);
  return status;
}

static vx_status VX_CALLBACK toolkit_exp_validator(vx_node node, const vx_reference parameters[], uint32_t num,
                                                   vx_meta_format metas[]) {
  uint32_t dim_num = 0, dims[6] = {0}, i;
  vx_size sizes[6] = {0};
  vx_enum dtype = 0;
  vx_status status;
  (void)node;
  if (num != 2) return VX_ERROR_INVALID_PARAMETERS;
  status = vxQueryTensor((vx_tensor)parameters[0], VX_TENSOR_NUMBER_OF_DIMS, &dim_num, sizeof(uint32_t));
  if (status == VX_SUCCESS)
    status = vxQueryTensor((vx_tensor)parameters[0], VX_TENSOR_DIMS, dims, sizeof(uint32_t) * dim_num);
  if (status == VX_SUCCESS)
    status = vxQueryTensor((vx_tensor)parameters[0], VX_TENSOR_DATA_TYPE, &dtype, sizeof(vx_enum));
  if (status == VX_SUCCESS && metas[1]) {
    status = vxSetMetaFormatAttribute(metas[1], VX_TENSOR_NUMBER_OF_DIMS, &dim_num, sizeof dim_num);
    for (i = 0; i < dim_num && i < 6; ++i) sizes[i] = dims[i]; /* the board driver reads vx_size dims here */
    if (status == VX_SUCCESS)
      status = vxSetMetaFormatAttribute(metas[1], VX_TENSOR_DIMS, sizes, sizeof(vx_size) * dim_num);
    if (status == VX_SUCCESS) status = vxSetMetaFormatAttribute(metas[1], VX_TENSOR_DATA_TYPE, &dtype, sizeof dtype);
  }
  return status;
}

static vx_kernel_description_t toolkit_exp_cpu = {
    0x7FF00200, "toolkitexp_cpu", toolkit_exp_kernel, exp_params, 2, toolkit_exp_validator, NULL, NULL, NULL, NULL};

vx_kernel_description_t* vx_kernel_ToolkitExp_list[] = {&toolkit_exp_cpu, NULL};

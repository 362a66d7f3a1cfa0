/* SPDX-License-Identifier: MIT */
/*
 * ResizeArea glue written by hand the way RKNN-Toolkit v1's generated rknn_kernel_<op>.c files are,
 * as a baseline of bench_node_cost: query the dims and params, copy the input patch into a malloc'd
 * float16 buffer, widen element by element into a malloc'd float buffer, run the kernel, narrow back,
 * copy the patch out. The kernel itself is the example's (rknnop_bench_resize_area_f32, from
 * bench_node_cost.cpp), so the two nodes differ only in their glue. Float16 tensors only.
 */
#include <rknnop/openvx.h>

#include "toolkit_half.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ResizeArea::cpu on float NHWC buffers; dims innermost first ({C, W, H, N}). */
void rknnop_bench_resize_area_f32(const float* in, const uint32_t in_dims[4], float* out, const uint32_t out_dims[4],
                                  int align_corners);

static vx_param_description_t resize_params[] = {
    {VX_INPUT, VX_TYPE_TENSOR, VX_PARAMETER_STATE_REQUIRED},
    {VX_OUTPUT, VX_TYPE_TENSOR, VX_PARAMETER_STATE_REQUIRED},
    {VX_INPUT, VX_TYPE_ARRAY, VX_PARAMETER_STATE_REQUIRED},
    {VX_INPUT, VX_TYPE_SCALAR, VX_PARAMETER_STATE_REQUIRED},
};

static vx_status query_dims(vx_tensor t, uint32_t dims[4]) {
  uint32_t dim_num = 0;
  vx_enum dtype = 0;
  vx_status status = vxQueryTensor(t, VX_TENSOR_NUMBER_OF_DIMS, &dim_num, sizeof(uint32_t));
  if (status == VX_SUCCESS && dim_num != 4) return VX_ERROR_INVALID_DIMENSION;
  if (status == VX_SUCCESS) status = vxQueryTensor(t, VX_TENSOR_DIMS, dims, sizeof(uint32_t) * 4);
  if (status == VX_SUCCESS) status = vxQueryTensor(t, VX_TENSOR_DATA_TYPE, &dtype, sizeof(vx_enum));
  if (status == VX_SUCCESS && dtype != VX_TYPE_FLOAT16) return VX_ERROR_INVALID_TYPE;
  return status;
}

static vx_status VX_CALLBACK toolkit_resize_kernel(vx_node node, const vx_reference* parameters, uint32_t paramNum) {
  uint32_t in_dims[4] = {0}, out_dims[4] = {0}, i;
  int32_t size[2] = {0};
  vx_bool align = vx_false_e;
  vx_size start[4] = {0}, in_end[4], out_end[4], in_stride[4], out_stride[4], in_count = 1, out_count = 1, k;
  uint16_t *in_half = NULL, *out_half = NULL;
  float *in_float = NULL, *out_float = NULL;
  vx_status status;
  (void)node;
  if (paramNum != 4) return VX_ERROR_INVALID_PARAMETERS;
  status = query_dims((vx_tensor)parameters[0], in_dims);
  if (status == VX_SUCCESS) status = query_dims((vx_tensor)parameters[1], out_dims);
  if (status == VX_SUCCESS)
    status = vxCopyArrayRange((vx_array)parameters[2], 0, 2, sizeof(int32_t), size, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
  if (status == VX_SUCCESS) status = vxCopyScalar((vx_scalar)parameters[3], &align, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
  if (status != VX_SUCCESS) return status;
  for (i = 0; i < 4; ++i) {
    in_end[i] = in_dims[i];
    out_end[i] = out_dims[i];
    in_stride[i] = i == 0 ? sizeof(uint16_t) : in_stride[i - 1] * in_dims[i - 1];
    out_stride[i] = i == 0 ? sizeof(uint16_t) : out_stride[i - 1] * out_dims[i - 1];
    in_count *= in_dims[i];
    out_count *= out_dims[i];
  }
  in_half = (uint16_t*)malloc(in_count * sizeof(uint16_t));
  in_float = (float*)malloc(in_count * sizeof(float));
  out_float = (float*)malloc(out_count * sizeof(float));
  out_half = (uint16_t*)malloc(out_count * sizeof(uint16_t));
  if (!in_half || !in_float || !out_float || !out_half) status = VX_ERROR_NO_MEMORY;
  if (status == VX_SUCCESS)
    status = vxCopyTensorPatch((vx_tensor)parameters[0], 4, start, in_end, in_stride, in_half, VX_READ_ONLY,
                               VX_MEMORY_TYPE_HOST);
  if (status == VX_SUCCESS) {
    for (k = 0; k < in_count; ++k) in_float[k] = half_to_float(in_half[k]);
    rknnop_bench_resize_area_f32(in_float, in_dims, out_float, out_dims, align == vx_true_e);
    for (k = 0; k < out_count; ++k) out_half[k] = float_to_half(out_float[k]);
    status = vxCopyTensorPatch((vx_tensor)parameters[1], 4, start, out_end, out_stride, out_half, VX_WRITE_ONLY,
                               VX_MEMORY_TYPE_HOST);
  }
  free(in_half);
  free(in_float);
  free(out_float);
  free(out_half);
  return status;
}

static vx_status VX_CALLBACK toolkit_resize_validator(vx_node node, const vx_reference parameters[], uint32_t num,
                                                      vx_meta_format metas[]) {
  uint32_t dims[4] = {0}, dim_num = 4;
  vx_size sizes[4];
  int32_t size[2] = {0};
  vx_enum dtype = VX_TYPE_FLOAT16;
  vx_status status;
  (void)node;
  if (num != 4) return VX_ERROR_INVALID_PARAMETERS;
  status = query_dims((vx_tensor)parameters[0], dims);
  if (status == VX_SUCCESS)
    status = vxCopyArrayRange((vx_array)parameters[2], 0, 2, sizeof(int32_t), size, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
  if (status == VX_SUCCESS && (size[0] <= 0 || size[1] <= 0)) status = VX_ERROR_INVALID_PARAMETERS;
  if (status == VX_SUCCESS && metas[1]) {
    dims[1] = (uint32_t)size[1];
    dims[2] = (uint32_t)size[0];
    status = vxSetMetaFormatAttribute(metas[1], VX_TENSOR_NUMBER_OF_DIMS, &dim_num, sizeof dim_num);
    sizes[0] = dims[0]; /* the board driver reads vx_size dims here */
    sizes[1] = dims[1];
    sizes[2] = dims[2];
    sizes[3] = dims[3];
    if (status == VX_SUCCESS) status = vxSetMetaFormatAttribute(metas[1], VX_TENSOR_DIMS, sizes, sizeof sizes);
    if (status == VX_SUCCESS) status = vxSetMetaFormatAttribute(metas[1], VX_TENSOR_DATA_TYPE, &dtype, sizeof dtype);
  }
  return status;
}

static vx_kernel_description_t toolkit_resize_cpu = {0x7FF00201,
                                                     "toolkitresizearea_cpu",
                                                     toolkit_resize_kernel,
                                                     resize_params,
                                                     4,
                                                     toolkit_resize_validator,
                                                     NULL,
                                                     NULL,
                                                     NULL,
                                                     NULL};

vx_kernel_description_t* vx_kernel_ToolkitResizeArea_list[] = {&toolkit_resize_cpu, NULL};

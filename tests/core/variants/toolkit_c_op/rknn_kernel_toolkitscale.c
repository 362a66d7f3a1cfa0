/* SPDX-License-Identifier: MIT */
/*
 * An RKNN-Toolkit v1 custom op written the way `custom_op --action create` lays out
 * rknn_kernel_<lower>.c (docs/abi.md §2, §3, §4 and §5): vendor includes, a parameter table, CPU kernel, validator,
 * initializer and deinitializer callbacks, a CPU and a VX descriptor, and the exported
 * vx_kernel_<Name>_list. Written for rknnop's tests (not toolkit code); it must build unchanged
 * against rknnop's VX/ compatibility headers (rknnop::compat_vx) and run through rknnop-run.
 *
 * ToolkitScale: output = input * scale (float16 tensors, VX_TYPE_FLOAT32 scalar).
 * Like generated toolkit code it calls memset without including <string.h>: the vendors'
 * vx_types.h includes it, and so does rknnop's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include "VX/vx.h"
#include "VX/vx_khr_cnn.h"
#include "VX/vx_helper.h"
#include "VX/vx_ext_program.h"

#define _VX_KERNEL_VAR_CPU (vx_kernel_TOOLKITSCALE_CPU)
#define _VX_KERNEL_VAR_VX (vx_kernel_TOOLKITSCALE_VX)
#define _VX_KERNEL_ID (0) /* the runtime writes the enumeration it registers the kernel with */
#define _VX_KERNEL_NAME_CPU "toolkitscale_cpu"
#define _VX_KERNEL_NAME_VX "toolkitscale"
#define _INPUT_NUM (1)
#define _OUTPUT_NUM (1)
#define _PARAM_NUM (_INPUT_NUM + _OUTPUT_NUM + 1)
#define _MAX_DIMS (6)

static vx_param_description_t kernel_params[] = {
    {VX_INPUT, VX_TYPE_TENSOR, VX_PARAMETER_STATE_REQUIRED},
    {VX_OUTPUT, VX_TYPE_TENSOR, VX_PARAMETER_STATE_REQUIRED},
    {VX_INPUT, VX_TYPE_SCALAR, VX_PARAMETER_STATE_REQUIRED},
};

static float half_to_float(vx_uint16 h) {
  const int exponent = (h >> 10) & 0x1F;
  const float mantissa = (float)(h & 0x3FF);
  const float value = exponent == 0    ? ldexpf(mantissa, -24)
                      : exponent == 31 ? (mantissa != 0.f ? NAN : INFINITY)
                                       : ldexpf(mantissa + 1024.f, exponent - 25);
  return (h & 0x8000) ? -value : value;
}

/* Round to nearest even through float32's bits; enough for this test's values. */
static vx_uint16 float_to_half(float f) {
  vx_uint32 bits, sign, rest, rounded;
  memcpy(&bits, &f, sizeof bits);
  sign = (bits >> 16) & 0x8000u;
  rest = bits & 0x7FFFFFFFu;
  if (rest >= 0x7F800000u) return (vx_uint16)(sign | 0x7C00u | (rest > 0x7F800000u ? 0x200u : 0u));
  if (rest >= 0x477FF000u) return (vx_uint16)(sign | 0x7C00u);
  if (rest < 0x38800000u) return (vx_uint16)(sign | (vx_uint16)lrintf(ldexpf(fabsf(f), 24)));
  rounded = rest + 0xFFFu + ((rest >> 13) & 1u);
  return (vx_uint16)(sign | ((rounded - 0x38000000u) >> 13));
}

/* dims and dense strides of a float16 tensor; element count in *count. */
static vx_status query_tensor(vx_tensor tensor, vx_uint32* dim_num, vx_uint32 dims[_MAX_DIMS],
                              vx_size stride[_MAX_DIMS], vx_size* count) {
  vx_status status;
  vx_enum dtype = 0;
  vx_uint32 i;
  memset(dims, 0, sizeof(vx_uint32) * _MAX_DIMS);
  status = vxQueryTensor(tensor, VX_TENSOR_NUMBER_OF_DIMS, dim_num, sizeof(vx_uint32));
  if (status != VX_SUCCESS || *dim_num == 0 || *dim_num > _MAX_DIMS) return status != VX_SUCCESS ? status : VX_FAILURE;
  status = vxQueryTensor(tensor, VX_TENSOR_DIMS, dims, sizeof(vx_uint32) * *dim_num);
  if (status == VX_SUCCESS) status = vxQueryTensor(tensor, VX_TENSOR_DATA_TYPE, &dtype, sizeof(vx_enum));
  if (status != VX_SUCCESS) return status;
  if (dtype != VX_TYPE_FLOAT16) return VX_ERROR_INVALID_TYPE;
  *count = 1;
  for (i = 0; i < *dim_num; ++i) {
    stride[i] = i == 0 ? sizeof(vx_uint16) : stride[i - 1] * dims[i - 1];
    *count *= dims[i];
  }
  return VX_SUCCESS;
}

static vx_status VX_CALLBACK vxToolkitScaleKernel(vx_node node, const vx_reference* parameters, uint32_t paramNum) {
  vx_status status;
  vx_uint32 dim_num = 0, dims[_MAX_DIMS];
  vx_size view_start[_MAX_DIMS], view_end[_MAX_DIMS], stride[_MAX_DIMS], count = 0, k;
  vx_float32 scale = 0.f;
  vx_uint16* buffer;
  vx_uint32 i;
  (void)node;
  if (paramNum != _PARAM_NUM) return VX_ERROR_INVALID_PARAMETERS;
  status = query_tensor((vx_tensor)parameters[0], &dim_num, dims, stride, &count);
  if (status != VX_SUCCESS) return status;
  status = vxCopyScalar((vx_scalar)parameters[2], &scale, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
  if (status != VX_SUCCESS) return status;
  memset(view_start, 0, sizeof view_start);
  for (i = 0; i < dim_num; ++i) view_end[i] = dims[i];
  buffer = (vx_uint16*)malloc(count * sizeof(vx_uint16));
  if (buffer == NULL) return VX_ERROR_NO_MEMORY;
  status = vxCopyTensorPatch((vx_tensor)parameters[0], dim_num, view_start, view_end, stride, buffer, VX_READ_ONLY,
                             VX_MEMORY_TYPE_HOST);
  if (status == VX_SUCCESS) {
    for (k = 0; k < count; ++k) buffer[k] = float_to_half(half_to_float(buffer[k]) * scale);
    status = vxCopyTensorPatch((vx_tensor)parameters[1], dim_num, view_start, view_end, stride, buffer, VX_WRITE_ONLY,
                               VX_MEMORY_TYPE_HOST);
  }
  free(buffer);
  return status;
}

/* The output has the input's dims and type. */
static vx_status VX_CALLBACK vxToolkitScaleValidator(vx_node node, const vx_reference parameters[], uint32_t num,
                                                     vx_meta_format metas[]) {
  vx_status status;
  vx_uint32 dim_num = 0, dims[_MAX_DIMS], i;
  vx_size stride[_MAX_DIMS], count = 0, sizes[_MAX_DIMS];
  vx_enum dtype = VX_TYPE_FLOAT16, scalar_type = 0;
  (void)node;
  if (num != _PARAM_NUM) return VX_ERROR_INVALID_PARAMETERS;
  status = query_tensor((vx_tensor)parameters[0], &dim_num, dims, stride, &count);
  if (status != VX_SUCCESS) return status;
  status = vxQueryScalar((vx_scalar)parameters[2], VX_SCALAR_TYPE, &scalar_type, sizeof(vx_enum));
  if (status != VX_SUCCESS) return status;
  if (scalar_type != VX_TYPE_FLOAT32) return VX_ERROR_INVALID_TYPE;
  status = vxSetMetaFormatAttribute(metas[1], VX_TENSOR_NUMBER_OF_DIMS, &dim_num, sizeof(vx_uint32));
  if (status == VX_SUCCESS)
    for (i = 0; i < dim_num; ++i) sizes[i] = dims[i]; /* the driver reads vx_size dims here */
  if (status == VX_SUCCESS)
    status = vxSetMetaFormatAttribute(metas[1], VX_TENSOR_DIMS, sizes, sizeof(vx_size) * dim_num);
  if (status == VX_SUCCESS) status = vxSetMetaFormatAttribute(metas[1], VX_TENSOR_DATA_TYPE, &dtype, sizeof(vx_enum));
  return status;
}

static vx_status VX_CALLBACK vxToolkitScaleInitializer(vx_node node, const vx_reference* parameters, uint32_t num) {
  (void)node;
  (void)parameters;
  return num == _PARAM_NUM ? VX_SUCCESS : VX_ERROR_INVALID_PARAMETERS;
}

/* The VX kernel: one work-item per 8 float16 values of dims[0], rows and planes as y and z. */
static vx_status VX_CALLBACK vxToolkitScaleVxInitializer(vx_node node, const vx_reference* parameters, uint32_t num) {
  vx_kernel_execution_parameters_t shaderParam = {3, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
  vx_uint32 dim_num = 0, dims[_MAX_DIMS];
  vx_size stride[_MAX_DIMS], count = 0;
  vx_status status;
  if (num != _PARAM_NUM) return VX_ERROR_INVALID_PARAMETERS;
  status = query_tensor((vx_tensor)parameters[0], &dim_num, dims, stride, &count);
  if (status != VX_SUCCESS) return status;
  shaderParam.globalWorkScale[0] = 8;
  shaderParam.globalWorkScale[1] = 1;
  shaderParam.globalWorkScale[2] = 1;
  shaderParam.globalWorkSize[0] = (dims[0] + 7) / 8;
  shaderParam.globalWorkSize[1] = dim_num > 1 ? dims[1] : 1;
  shaderParam.globalWorkSize[2] = dim_num > 2 ? dims[2] : 1;
  return vxSetNodeAttribute(node, VX_NODE_ATTRIBUTE_KERNEL_EXECUTION_PARAMETERS, &shaderParam, sizeof(shaderParam));
}

static vx_status VX_CALLBACK vxToolkitScaleDeinitializer(vx_node node, const vx_reference* parameters, uint32_t num) {
  (void)node;
  (void)parameters;
  (void)num;
  return VX_SUCCESS;
}

#ifdef __cplusplus
extern "C" {
#endif
static vx_kernel_description_t _VX_KERNEL_VAR_CPU = {_VX_KERNEL_ID,
                                                     _VX_KERNEL_NAME_CPU,
                                                     vxToolkitScaleKernel,
                                                     kernel_params,
                                                     (sizeof(kernel_params) / sizeof(kernel_params[0])),
                                                     vxToolkitScaleValidator,
                                                     NULL,
                                                     NULL,
                                                     vxToolkitScaleInitializer,
                                                     vxToolkitScaleDeinitializer};

static vx_kernel_description_t _VX_KERNEL_VAR_VX = {_VX_KERNEL_ID,
                                                    _VX_KERNEL_NAME_VX,
                                                    NULL,
                                                    kernel_params,
                                                    (sizeof(kernel_params) / sizeof(kernel_params[0])),
                                                    vxToolkitScaleValidator,
                                                    NULL,
                                                    NULL,
                                                    vxToolkitScaleVxInitializer,
                                                    vxToolkitScaleDeinitializer};

__attribute__((visibility("default")))
vx_kernel_description_t* vx_kernel_ToolkitScale_list[] = {&_VX_KERNEL_VAR_CPU, &_VX_KERNEL_VAR_VX, NULL};
#ifdef __cplusplus
}
#endif

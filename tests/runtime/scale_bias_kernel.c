/* SPDX-License-Identifier: MIT */
/*
 * A CPU kernel written the way RKNN-Toolkit v1's generated rknn_kernel_<op>.c files are: query the
 * tensors, copy patches out, compute, copy back. Op "ScaleBias":
 *   out = (in * scale + bias[0]) * (negate ? -1 : 1)
 * Parameters: in (FLOAT32 tensor), out (tensor), bias (INT32 array), scale (FLOAT32 scalar),
 * negate (BOOL scalar). The validator gives the output the input's shape and type, so the output
 * may be a virtual tensor.
 */
#include "scale_bias_kernel.h"

#include <stdlib.h>
#include <string.h>

static int init_calls;
static int deinit_calls;

int scale_bias_init_calls(void) { return __atomic_load_n(&init_calls, __ATOMIC_SEQ_CST); }
int scale_bias_deinit_calls(void) { return __atomic_load_n(&deinit_calls, __ATOMIC_SEQ_CST); }

static vx_param_description_t kernel_params[] = {
    {VX_INPUT, VX_TYPE_TENSOR, VX_PARAMETER_STATE_REQUIRED}, {VX_OUTPUT, VX_TYPE_TENSOR, VX_PARAMETER_STATE_REQUIRED},
    {VX_INPUT, VX_TYPE_ARRAY, VX_PARAMETER_STATE_REQUIRED},  {VX_INPUT, VX_TYPE_SCALAR, VX_PARAMETER_STATE_REQUIRED},
    {VX_INPUT, VX_TYPE_SCALAR, VX_PARAMETER_STATE_REQUIRED},
};

static vx_status query_shape(vx_tensor tensor, uint32_t* dim_num, uint32_t dims[6], vx_enum* dtype) {
  vx_status status = vxQueryTensor(tensor, VX_TENSOR_NUMBER_OF_DIMS, dim_num, sizeof(uint32_t));
  if (status != VX_SUCCESS) return status;
  status = vxQueryTensor(tensor, VX_TENSOR_DIMS, dims, sizeof(uint32_t) * *dim_num);
  if (status != VX_SUCCESS) return status;
  return vxQueryTensor(tensor, VX_TENSOR_DATA_TYPE, dtype, sizeof(vx_enum));
}

static vx_status VX_CALLBACK cpu_kernel_function(vx_node node, const vx_reference* parameters, uint32_t paramNum) {
  vx_status status;
  uint32_t dim_num = 0, dims[6] = {0}, i;
  vx_enum dtype = 0, item_type = 0, scalar_type = 0;
  vx_size view_start[6] = {0}, view_end[6] = {0}, stride_size[6] = {0};
  vx_size count = 1, item_num = 0;
  int32_t bias = 0;
  float scale = 0.0f;
  vx_bool negate = vx_false_e;
  float* buffer;

  if (paramNum != 5) return VX_ERROR_INVALID_PARAMETERS;
  status = query_shape((vx_tensor)parameters[0], &dim_num, dims, &dtype);
  if (status != VX_SUCCESS) return status;
  if (dtype != VX_TYPE_FLOAT32) return VX_ERROR_INVALID_TYPE;
  for (i = 0; i < dim_num; ++i) {
    view_end[i] = dims[i];
    stride_size[i] = i == 0 ? sizeof(float) : stride_size[i - 1] * dims[i - 1];
    count *= dims[i];
  }

  status = vxQueryArray((vx_array)parameters[2], VX_ARRAY_ITEMTYPE, &item_type, sizeof(vx_enum));
  if (status != VX_SUCCESS) return status;
  status = vxQueryArray((vx_array)parameters[2], VX_ARRAY_NUMITEMS, &item_num, sizeof(vx_size));
  if (status != VX_SUCCESS) return status;
  if (item_type != VX_TYPE_INT32 || item_num < 1) return VX_ERROR_INVALID_PARAMETERS;
  status = vxCopyArrayRange((vx_array)parameters[2], 0, 1, sizeof(int32_t), &bias, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
  if (status != VX_SUCCESS) return status;

  status = vxQueryScalar((vx_scalar)parameters[3], VX_SCALAR_TYPE, &scalar_type, sizeof(vx_enum));
  if (status != VX_SUCCESS || scalar_type != VX_TYPE_FLOAT32) return VX_ERROR_INVALID_TYPE;
  status = vxCopyScalar((vx_scalar)parameters[3], &scale, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
  if (status != VX_SUCCESS) return status;
  status = vxCopyScalar((vx_scalar)parameters[4], &negate, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
  if (status != VX_SUCCESS) return status;

  buffer = (float*)malloc(count * sizeof(float));
  if (buffer == NULL) return VX_ERROR_NO_MEMORY;
  /* The toolkit's own examples pass 0 as the memory type. */
  status =
      vxCopyTensorPatch((vx_tensor)parameters[0], dim_num, view_start, view_end, stride_size, buffer, VX_READ_ONLY, 0);
  if (status == VX_SUCCESS) {
    for (i = 0; i < count; ++i) {
      float value = buffer[i] * scale + (float)bias;
      buffer[i] = negate ? -value : value;
    }
    status = vxCopyTensorPatch((vx_tensor)parameters[1], dim_num, view_start, view_end, stride_size, buffer,
                               VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
  }
  free(buffer);
  if (status != VX_SUCCESS)
    vxAddLogEntry((vx_reference)node, status, "ScaleBias: copying a tensor failed (%d)", status);
  return status;
}

static vx_status VX_CALLBACK validator(vx_node node, const vx_reference parameters[], uint32_t num,
                                       vx_meta_format metas[]) {
  uint32_t dim_num = 0, dims[6] = {0}, i;
  vx_size sizes[6] = {0};
  vx_enum dtype = 0;
  vx_status status;
  if (num != 5) return VX_ERROR_INVALID_PARAMETERS;
  status = query_shape((vx_tensor)parameters[0], &dim_num, dims, &dtype);
  if (status != VX_SUCCESS) {
    vxAddLogEntry((vx_reference)node, status, "ScaleBias: cannot query the input");
    return status;
  }
  for (i = 0; i < dim_num && i < 6; ++i) sizes[i] = dims[i]; /* the driver reads vx_size dims here */
  status = vxSetMetaFormatAttribute(metas[1], VX_TENSOR_NUMBER_OF_DIMS, &dim_num, sizeof dim_num);
  if (status == VX_SUCCESS)
    status = vxSetMetaFormatAttribute(metas[1], VX_TENSOR_DIMS, sizes, sizeof(vx_size) * dim_num);
  if (status == VX_SUCCESS) status = vxSetMetaFormatAttribute(metas[1], VX_TENSOR_DATA_TYPE, &dtype, sizeof dtype);
  return status;
}

static vx_status VX_CALLBACK initializer(vx_node node, const vx_reference* parameters, uint32_t num) {
  (void)node;
  (void)parameters;
  (void)num;
  __atomic_fetch_add(&init_calls, 1, __ATOMIC_SEQ_CST);
  return VX_SUCCESS;
}

static vx_status VX_CALLBACK deinitializer(vx_node node, const vx_reference* parameters, uint32_t num) {
  (void)node;
  (void)parameters;
  (void)num;
  __atomic_fetch_add(&deinit_calls, 1, __ATOMIC_SEQ_CST);
  return VX_SUCCESS;
}

/* Writable (.data), as the board runtime writes into the descriptor it selects. */
static vx_kernel_description_t scale_bias_cpu = {0x7FF00100,
                                                 "scalebias_cpu",
                                                 cpu_kernel_function,
                                                 kernel_params,
                                                 sizeof(kernel_params) / sizeof(kernel_params[0]),
                                                 validator,
                                                 NULL,
                                                 NULL,
                                                 initializer,
                                                 deinitializer};

vx_kernel_description_t* vx_kernel_ScaleBias_list[] = {&scale_bias_cpu, NULL};

vx_kernel register_kernel_description(vx_context context, const vx_kernel_description_t* desc) {
  vx_uint32 i;
  vx_kernel kernel = vxAddUserKernel(context, desc->name, desc->enumeration, desc->function, desc->numParams,
                                     desc->validate, desc->initialize, desc->deinitialize);
  if (vxGetStatus((vx_reference)kernel) != VX_SUCCESS) return NULL;
  for (i = 0; i < desc->numParams; ++i) {
    const vx_param_description_t* p = &desc->parameters[i];
    if (vxAddParameterToKernel(kernel, i, p->direction, p->data_type, p->state) != VX_SUCCESS) {
      vxRemoveKernel(kernel);
      return NULL;
    }
  }
  if (vxFinalizeKernel(kernel) != VX_SUCCESS) {
    vxRemoveKernel(kernel);
    return NULL;
  }
  return kernel;
}

/* SPDX-License-Identifier: MIT */
/*
 * A kernel library written the way RKNN-Toolkit v1's generated rknn_kernel_<op>.c files are, for the
 * host loader tests. Op "TestScale" (op.yml in testscale.yml):
 *   output = (input * scale + bias[0]) * (negate ? -1 : 1), float16 tensors
 * Parameters: input, output, bias (INT32 array), scale (FLOAT32 scalar), negate (BOOL scalar).
 *
 * Variants chosen by macros, each built as its own library, to exercise the loader's diagnostics:
 *   TEST_KERNEL_NO_LIST        exports vx_kernel_Other_list instead of vx_kernel_TestScale_list
 *   TEST_KERNEL_NULL_FIRST     the list's first entry is NULL
 *   TEST_KERNEL_BAD_NUMPARAMS  the CPU descriptor says 4 parameters instead of 5
 *   TEST_KERNEL_CONST          the descriptors are const (in .rodata): the runtime cannot write them
 */
#include <rknnop/openvx.h>

#include <stdlib.h>
#include <string.h>

#define TEST_EXPORT __attribute__((visibility("default")))

static vx_param_description_t kernel_params[] = {
    {VX_INPUT, VX_TYPE_TENSOR, VX_PARAMETER_STATE_REQUIRED}, {VX_OUTPUT, VX_TYPE_TENSOR, VX_PARAMETER_STATE_REQUIRED},
    {VX_INPUT, VX_TYPE_ARRAY, VX_PARAMETER_STATE_REQUIRED},  {VX_INPUT, VX_TYPE_SCALAR, VX_PARAMETER_STATE_REQUIRED},
    {VX_INPUT, VX_TYPE_SCALAR, VX_PARAMETER_STATE_REQUIRED},
};

static float half_to_float(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1Fu, m = h & 0x3FFu, bits;
  float f;
  if (e == 0x1F) {
    bits = sign | 0x7F800000u | (m << 13);
  } else if (e != 0) {
    bits = sign | ((e + 112u) << 23) | (m << 13);
  } else if (m == 0) {
    bits = sign;
  } else {
    e = 113;
    while ((m & 0x400u) == 0) {
      m <<= 1;
      --e;
    }
    bits = sign | (e << 23) | ((m & 0x3FFu) << 13);
  }
  memcpy(&f, &bits, sizeof f);
  return f;
}

/* Round to nearest even for normal results; the tests use exactly representable values. */
static uint16_t float_to_half(float f) {
  uint32_t bits, m, rest, half;
  int e;
  uint16_t sign;
  memcpy(&bits, &f, sizeof bits);
  sign = (uint16_t)((bits >> 16) & 0x8000u);
  e = (int)((bits >> 23) & 0xFFu) - 127 + 15;
  m = bits & 0x7FFFFFu;
  if (e >= 31) return (uint16_t)(sign | 0x7C00u);
  if (e <= 0) return sign;
  half = ((uint32_t)e << 10) | (m >> 13);
  rest = m & 0x1FFFu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) ++half;
  return (uint16_t)(sign | half);
}

static vx_status query_shape(vx_tensor tensor, uint32_t* dim_num, uint32_t dims[6], vx_enum* dtype) {
  vx_status status = vxQueryTensor(tensor, VX_TENSOR_NUMBER_OF_DIMS, dim_num, sizeof(uint32_t));
  if (status != VX_SUCCESS) return status;
  if (*dim_num < 1 || *dim_num > 6) return VX_ERROR_INVALID_DIMENSION;
  status = vxQueryTensor(tensor, VX_TENSOR_DIMS, dims, sizeof(uint32_t) * *dim_num);
  if (status != VX_SUCCESS) return status;
  return vxQueryTensor(tensor, VX_TENSOR_DATA_TYPE, dtype, sizeof(vx_enum));
}

static vx_status VX_CALLBACK cpu_kernel_function(vx_node node, const vx_reference* parameters, uint32_t paramNum) {
  vx_status status;
  uint32_t dim_num = 0, dims[6] = {0}, i;
  vx_enum dtype = 0;
  vx_size view_start[6] = {0}, view_end[6] = {0}, stride_size[6] = {0};
  vx_size count = 1, item_num = 0;
  int32_t bias = 0;
  float scale = 0.0f;
  vx_bool negate = vx_false_e;
  uint16_t *in, *out;

  if (paramNum != 5) return VX_ERROR_INVALID_PARAMETERS;
  status = query_shape((vx_tensor)parameters[0], &dim_num, dims, &dtype);
  if (status != VX_SUCCESS) return status;
  for (i = 0; i < dim_num; ++i) {
    view_end[i] = dims[i];
    stride_size[i] = i == 0 ? sizeof(uint16_t) : stride_size[i - 1] * dims[i - 1];
    count *= dims[i];
  }
  status = vxQueryArray((vx_array)parameters[2], VX_ARRAY_NUMITEMS, &item_num, sizeof(vx_size));
  if (status != VX_SUCCESS) return status;
  if (item_num != 1) {
    vxAddLogEntry((vx_reference)node, VX_ERROR_INVALID_PARAMETERS, "TestScale: bias must hold exactly 1 item, got %d",
                  (int)item_num);
    return VX_ERROR_INVALID_PARAMETERS;
  }
  status = vxCopyArrayRange((vx_array)parameters[2], 0, 1, sizeof(int32_t), &bias, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
  if (status != VX_SUCCESS) return status;
  status = vxCopyScalar((vx_scalar)parameters[3], &scale, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
  if (status != VX_SUCCESS) return status;
  status = vxCopyScalar((vx_scalar)parameters[4], &negate, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
  if (status != VX_SUCCESS) return status;
  if (scale == 0.0f) {
    vxAddLogEntry((vx_reference)node, VX_ERROR_INVALID_VALUE, "TestScale: scale must not be 0");
    return VX_ERROR_INVALID_VALUE;
  }

  in = (uint16_t*)malloc(count * sizeof(uint16_t));
  out = (uint16_t*)malloc(count * sizeof(uint16_t));
  if (in == NULL || out == NULL) {
    free(in);
    free(out);
    return VX_ERROR_NO_MEMORY;
  }
  status = vxCopyTensorPatch((vx_tensor)parameters[0], dim_num, view_start, view_end, stride_size, in, VX_READ_ONLY, 0);
  if (status == VX_SUCCESS) {
    memcpy(out, in, count * sizeof(uint16_t));
    for (i = 0; i < count; ++i) {
      float v = half_to_float(out[i]) * scale + (float)bias;
      out[i] = float_to_half(negate ? -v : v);
    }
    status =
        vxCopyTensorPatch((vx_tensor)parameters[1], dim_num, view_start, view_end, stride_size, out, VX_WRITE_ONLY, 0);
  }
  free(in);
  free(out);
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
  if (status != VX_SUCCESS) return status;
  if (dtype != VX_TYPE_FLOAT16) {
    vxAddLogEntry((vx_reference)node, VX_ERROR_INVALID_TYPE, "TestScale: input must be a float16 tensor, got type %d",
                  dtype);
    return VX_ERROR_INVALID_TYPE;
  }
  status = vxSetMetaFormatAttribute(metas[1], VX_TENSOR_NUMBER_OF_DIMS, &dim_num, sizeof dim_num);
  if (status != VX_SUCCESS) return status;
  for (i = 0; i < dim_num && i < 6; ++i) sizes[i] = dims[i]; /* the driver reads vx_size dims here */
  status = vxSetMetaFormatAttribute(metas[1], VX_TENSOR_DIMS, sizes, sizeof(vx_size) * dim_num);
  if (status != VX_SUCCESS) return status;
  return vxSetMetaFormatAttribute(metas[1], VX_TENSOR_DATA_TYPE, &dtype, sizeof dtype);
}

static vx_status VX_CALLBACK initializer(vx_node node, const vx_reference* parameters, uint32_t num) {
  (void)node;
  (void)parameters;
  return num == 5 ? VX_SUCCESS : VX_ERROR_INVALID_PARAMETERS;
}

static vx_status VX_CALLBACK deinitializer(vx_node node, const vx_reference* parameters, uint32_t num) {
  (void)node;
  (void)parameters;
  (void)num;
  return VX_SUCCESS;
}

#ifdef TEST_KERNEL_BAD_NUMPARAMS
#define TEST_KERNEL_NUM_PARAMS 4
#else
#define TEST_KERNEL_NUM_PARAMS (sizeof(kernel_params) / sizeof(kernel_params[0]))
#endif

/* Not const: the runtime writes `enumeration` into the descriptor it selects. */
#ifdef TEST_KERNEL_CONST
#define TEST_DESCRIPTOR_QUALIFIER const
#define TEST_DESCRIPTOR_REF(d) ((vx_kernel_description_t*)&(d))
#else
#define TEST_DESCRIPTOR_QUALIFIER
#define TEST_DESCRIPTOR_REF(d) (&(d))
#endif

static TEST_DESCRIPTOR_QUALIFIER vx_kernel_description_t cpu_descriptor = {
    0,    "testscale_cpu", cpu_kernel_function, kernel_params, TEST_KERNEL_NUM_PARAMS, validator, NULL,
    NULL, initializer,     deinitializer};

static TEST_DESCRIPTOR_QUALIFIER vx_kernel_description_t vx_descriptor = {
    0, "testscale", NULL, kernel_params, TEST_KERNEL_NUM_PARAMS, validator, NULL, NULL, initializer, deinitializer};

#if defined(TEST_KERNEL_NO_LIST)
TEST_EXPORT vx_kernel_description_t* vx_kernel_Other_list[] = {TEST_DESCRIPTOR_REF(cpu_descriptor),
                                                               TEST_DESCRIPTOR_REF(vx_descriptor), NULL};
#elif defined(TEST_KERNEL_NULL_FIRST)
TEST_EXPORT vx_kernel_description_t* vx_kernel_TestScale_list[] = {NULL, TEST_DESCRIPTOR_REF(cpu_descriptor),
                                                                   TEST_DESCRIPTOR_REF(vx_descriptor), NULL};
#else
TEST_EXPORT vx_kernel_description_t* vx_kernel_TestScale_list[] = {TEST_DESCRIPTOR_REF(cpu_descriptor),
                                                                   TEST_DESCRIPTOR_REF(vx_descriptor), NULL};
#endif

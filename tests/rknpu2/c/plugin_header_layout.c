/* SPDX-License-Identifier: MIT */
/* Compile-time check (C11): <rknnop/rknpu2_plugin.h> lays out exactly as Rockchip's rknn_api.h and
 * rknn_custom_op.h (RKNNOP_RKNPU2_RUNTIME/include), field by field, and the two headers can share a
 * translation unit. Compiled (not run) for x86-64, aarch64 and armhf like abi_layout.cpp. */
#include <rknnop/rknpu2_plugin.h>

#include "rknn_api.h"
#include "rknn_custom_op.h"

#include <stddef.h>

#define SAME_FIELD(ours, theirs, field)                                                          \
  _Static_assert(offsetof(ours, field) == offsetof(theirs, field), #ours "." #field ": offset"); \
  _Static_assert(sizeof(((ours*)0)->field) == sizeof(((theirs*)0)->field), #ours "." #field ": size")
#define SAME_STRUCT(ours, theirs)                                                       \
  _Static_assert(sizeof(ours) == sizeof(theirs), #ours ": size differs from " #theirs); \
  _Static_assert(_Alignof(ours) == _Alignof(theirs), #ours ": alignment differs from " #theirs)

_Static_assert(RKNNOP_RKNPU2_MAX_DIMS == RKNN_MAX_DIMS && RKNNOP_RKNPU2_MAX_NAME_LEN == RKNN_MAX_NAME_LEN, "limits");
#define SAME_VALUE(ours, theirs) _Static_assert((int)(ours) == (int)(theirs), #ours " != " #theirs)
SAME_VALUE(RKNNOP_RKNPU2_FLOAT32, RKNN_TENSOR_FLOAT32);
SAME_VALUE(RKNNOP_RKNPU2_FLOAT16, RKNN_TENSOR_FLOAT16);
SAME_VALUE(RKNNOP_RKNPU2_INT8, RKNN_TENSOR_INT8);
SAME_VALUE(RKNNOP_RKNPU2_UINT8, RKNN_TENSOR_UINT8);
SAME_VALUE(RKNNOP_RKNPU2_INT16, RKNN_TENSOR_INT16);
SAME_VALUE(RKNNOP_RKNPU2_UINT16, RKNN_TENSOR_UINT16);
SAME_VALUE(RKNNOP_RKNPU2_INT32, RKNN_TENSOR_INT32);
SAME_VALUE(RKNNOP_RKNPU2_UINT32, RKNN_TENSOR_UINT32);
SAME_VALUE(RKNNOP_RKNPU2_INT64, RKNN_TENSOR_INT64);
SAME_VALUE(RKNNOP_RKNPU2_BOOL, RKNN_TENSOR_BOOL);
SAME_VALUE(RKNNOP_RKNPU2_INT4, RKNN_TENSOR_INT4);
SAME_VALUE(RKNNOP_RKNPU2_NCHW, RKNN_TENSOR_NCHW);
SAME_VALUE(RKNNOP_RKNPU2_NHWC, RKNN_TENSOR_NHWC);
SAME_VALUE(RKNNOP_RKNPU2_NC1HWC2, RKNN_TENSOR_NC1HWC2);
SAME_VALUE(RKNNOP_RKNPU2_UNDEFINED, RKNN_TENSOR_UNDEFINED);
SAME_VALUE(RKNNOP_RKNPU2_TARGET_CPU, RKNN_TARGET_TYPE_CPU);
SAME_VALUE(RKNNOP_RKNPU2_TARGET_GPU, RKNN_TARGET_TYPE_GPU);
_Static_assert(sizeof(int32_t) == sizeof(rknn_tensor_type) && sizeof(int32_t) == sizeof(rknn_tensor_format) &&
                   sizeof(int32_t) == sizeof(rknn_target_type),
               "enum sizes");

SAME_STRUCT(rknnop_rknpu2_tensor_attr, rknn_tensor_attr);
SAME_FIELD(rknnop_rknpu2_tensor_attr, rknn_tensor_attr, index);
SAME_FIELD(rknnop_rknpu2_tensor_attr, rknn_tensor_attr, n_dims);
SAME_FIELD(rknnop_rknpu2_tensor_attr, rknn_tensor_attr, dims);
SAME_FIELD(rknnop_rknpu2_tensor_attr, rknn_tensor_attr, name);
SAME_FIELD(rknnop_rknpu2_tensor_attr, rknn_tensor_attr, n_elems);
SAME_FIELD(rknnop_rknpu2_tensor_attr, rknn_tensor_attr, size);
SAME_FIELD(rknnop_rknpu2_tensor_attr, rknn_tensor_attr, fmt);
SAME_FIELD(rknnop_rknpu2_tensor_attr, rknn_tensor_attr, type);
SAME_FIELD(rknnop_rknpu2_tensor_attr, rknn_tensor_attr, qnt_type);
SAME_FIELD(rknnop_rknpu2_tensor_attr, rknn_tensor_attr, fl);
SAME_FIELD(rknnop_rknpu2_tensor_attr, rknn_tensor_attr, zp);
SAME_FIELD(rknnop_rknpu2_tensor_attr, rknn_tensor_attr, scale);
SAME_FIELD(rknnop_rknpu2_tensor_attr, rknn_tensor_attr, w_stride);
SAME_FIELD(rknnop_rknpu2_tensor_attr, rknn_tensor_attr, size_with_stride);
SAME_FIELD(rknnop_rknpu2_tensor_attr, rknn_tensor_attr, pass_through);
SAME_FIELD(rknnop_rknpu2_tensor_attr, rknn_tensor_attr, h_stride);

SAME_STRUCT(rknnop_rknpu2_tensor_mem, rknn_tensor_mem);
SAME_FIELD(rknnop_rknpu2_tensor_mem, rknn_tensor_mem, virt_addr);
SAME_FIELD(rknnop_rknpu2_tensor_mem, rknn_tensor_mem, phys_addr);
SAME_FIELD(rknnop_rknpu2_tensor_mem, rknn_tensor_mem, fd);
SAME_FIELD(rknnop_rknpu2_tensor_mem, rknn_tensor_mem, offset);
SAME_FIELD(rknnop_rknpu2_tensor_mem, rknn_tensor_mem, size);
SAME_FIELD(rknnop_rknpu2_tensor_mem, rknn_tensor_mem, flags);
SAME_FIELD(rknnop_rknpu2_tensor_mem, rknn_tensor_mem, priv_data);

SAME_STRUCT(rknnop_rknpu2_op_tensor, rknn_custom_op_tensor);
SAME_FIELD(rknnop_rknpu2_op_tensor, rknn_custom_op_tensor, attr);
SAME_FIELD(rknnop_rknpu2_op_tensor, rknn_custom_op_tensor, mem);

SAME_STRUCT(rknnop_rknpu2_op_attr, rknn_custom_op_attr);
SAME_FIELD(rknnop_rknpu2_op_attr, rknn_custom_op_attr, name);
SAME_FIELD(rknnop_rknpu2_op_attr, rknn_custom_op_attr, dtype);
SAME_FIELD(rknnop_rknpu2_op_attr, rknn_custom_op_attr, n_elems);
SAME_FIELD(rknnop_rknpu2_op_attr, rknn_custom_op_attr, data);

SAME_STRUCT(rknnop_rknpu2_op_context, rknn_custom_op_context);
SAME_FIELD(rknnop_rknpu2_op_context, rknn_custom_op_context, target);
SAME_FIELD(rknnop_rknpu2_op_context, rknn_custom_op_context, internal_ctx);
SAME_FIELD(rknnop_rknpu2_op_context, rknn_custom_op_context, gpu_ctx);
SAME_FIELD(rknnop_rknpu2_op_context, rknn_custom_op_context, priv_data);
_Static_assert(sizeof(((rknnop_rknpu2_op_context*)0)->gpu_ctx) == sizeof(rknn_gpu_op_context), "gpu_ctx");

SAME_STRUCT(rknnop_rknpu2_custom_op, rknn_custom_op);
SAME_FIELD(rknnop_rknpu2_custom_op, rknn_custom_op, version);
SAME_FIELD(rknnop_rknpu2_custom_op, rknn_custom_op, target);
SAME_FIELD(rknnop_rknpu2_custom_op, rknn_custom_op, op_type);
SAME_FIELD(rknnop_rknpu2_custom_op, rknn_custom_op, cl_kernel_name);
SAME_FIELD(rknnop_rknpu2_custom_op, rknn_custom_op, cl_kernel_source);
SAME_FIELD(rknnop_rknpu2_custom_op, rknn_custom_op, cl_source_size);
SAME_FIELD(rknnop_rknpu2_custom_op, rknn_custom_op, cl_build_options);
SAME_FIELD(rknnop_rknpu2_custom_op, rknn_custom_op, init);
SAME_FIELD(rknnop_rknpu2_custom_op, rknn_custom_op, prepare);
SAME_FIELD(rknnop_rknpu2_custom_op, rknn_custom_op, compute);
SAME_FIELD(rknnop_rknpu2_custom_op, rknn_custom_op, compute_native);
SAME_FIELD(rknnop_rknpu2_custom_op, rknn_custom_op, destroy);

// SPDX-License-Identifier: MIT
// Compile-time check: rknnop's declarations of the RKNPU2 custom-op ABI (detail/rknpu2/abi.hpp) lay
// out exactly as Rockchip's rknn_api.h and rknn_custom_op.h (RKNNOP_RKNPU2_RUNTIME/include), field
// by field. Compiled (not run) for x86-64, aarch64 and armhf: the internal context is 32 bits wide
// on 32-bit ARM and 64 elsewhere, which moves every field after it.
#include <rknnop/detail/rknpu2/abi.hpp>

#include "rknn_api.h"
#include "rknn_custom_op.h"

#include <cstddef>
#include <type_traits>

namespace r = rknnop::detail::rknpu2;

#define RKNNOP_SAME_FIELD(ours, theirs, field)                                                           \
  static_assert(offsetof(ours, field) == offsetof(theirs, field), #ours "::" #field ": offset differs"); \
  static_assert(sizeof(ours::field) == sizeof(theirs::field), #ours "::" #field ": size differs")

static_assert(r::max_dims == RKNN_MAX_DIMS && r::max_name_len == RKNN_MAX_NAME_LEN);
static_assert(int(r::type_float32) == int(RKNN_TENSOR_FLOAT32) && int(r::type_float16) == int(RKNN_TENSOR_FLOAT16) &&
              int(r::type_int8) == int(RKNN_TENSOR_INT8) && int(r::type_uint8) == int(RKNN_TENSOR_UINT8) &&
              int(r::type_int16) == int(RKNN_TENSOR_INT16) && int(r::type_uint16) == int(RKNN_TENSOR_UINT16) &&
              int(r::type_int32) == int(RKNN_TENSOR_INT32) && int(r::type_uint32) == int(RKNN_TENSOR_UINT32) &&
              int(r::type_int64) == int(RKNN_TENSOR_INT64) && int(r::type_bool) == int(RKNN_TENSOR_BOOL) &&
              int(r::type_int4) == int(RKNN_TENSOR_INT4));
static_assert(int(r::format_nchw) == int(RKNN_TENSOR_NCHW) && int(r::format_nhwc) == int(RKNN_TENSOR_NHWC) &&
              int(r::format_nc1hwc2) == int(RKNN_TENSOR_NC1HWC2) &&
              int(r::format_undefined) == int(RKNN_TENSOR_UNDEFINED));
static_assert(int(r::target_cpu) == int(RKNN_TARGET_TYPE_CPU) && int(r::target_gpu) == int(RKNN_TARGET_TYPE_GPU));
static_assert(sizeof(r::tensor_type) == sizeof(rknn_tensor_type) &&
              sizeof(r::tensor_format) == sizeof(rknn_tensor_format));

static_assert(sizeof(r::tensor_attr) == sizeof(rknn_tensor_attr) &&
              alignof(r::tensor_attr) == alignof(rknn_tensor_attr));
RKNNOP_SAME_FIELD(r::tensor_attr, rknn_tensor_attr, index);
RKNNOP_SAME_FIELD(r::tensor_attr, rknn_tensor_attr, n_dims);
RKNNOP_SAME_FIELD(r::tensor_attr, rknn_tensor_attr, dims);
RKNNOP_SAME_FIELD(r::tensor_attr, rknn_tensor_attr, name);
RKNNOP_SAME_FIELD(r::tensor_attr, rknn_tensor_attr, n_elems);
RKNNOP_SAME_FIELD(r::tensor_attr, rknn_tensor_attr, size);
RKNNOP_SAME_FIELD(r::tensor_attr, rknn_tensor_attr, fmt);
RKNNOP_SAME_FIELD(r::tensor_attr, rknn_tensor_attr, type);
RKNNOP_SAME_FIELD(r::tensor_attr, rknn_tensor_attr, qnt_type);
RKNNOP_SAME_FIELD(r::tensor_attr, rknn_tensor_attr, fl);
RKNNOP_SAME_FIELD(r::tensor_attr, rknn_tensor_attr, zp);
RKNNOP_SAME_FIELD(r::tensor_attr, rknn_tensor_attr, scale);
RKNNOP_SAME_FIELD(r::tensor_attr, rknn_tensor_attr, w_stride);
RKNNOP_SAME_FIELD(r::tensor_attr, rknn_tensor_attr, size_with_stride);
RKNNOP_SAME_FIELD(r::tensor_attr, rknn_tensor_attr, pass_through);
RKNNOP_SAME_FIELD(r::tensor_attr, rknn_tensor_attr, h_stride);

static_assert(sizeof(r::tensor_mem) == sizeof(rknn_tensor_mem) && alignof(r::tensor_mem) == alignof(rknn_tensor_mem));
RKNNOP_SAME_FIELD(r::tensor_mem, rknn_tensor_mem, virt_addr);
RKNNOP_SAME_FIELD(r::tensor_mem, rknn_tensor_mem, phys_addr);
RKNNOP_SAME_FIELD(r::tensor_mem, rknn_tensor_mem, fd);
RKNNOP_SAME_FIELD(r::tensor_mem, rknn_tensor_mem, offset);
RKNNOP_SAME_FIELD(r::tensor_mem, rknn_tensor_mem, size);
RKNNOP_SAME_FIELD(r::tensor_mem, rknn_tensor_mem, flags);
RKNNOP_SAME_FIELD(r::tensor_mem, rknn_tensor_mem, priv_data);

static_assert(sizeof(r::op_context) == sizeof(rknn_custom_op_context) &&
              alignof(r::op_context) == alignof(rknn_custom_op_context));
RKNNOP_SAME_FIELD(r::op_context, rknn_custom_op_context, target);
RKNNOP_SAME_FIELD(r::op_context, rknn_custom_op_context, internal_ctx);
RKNNOP_SAME_FIELD(r::op_context, rknn_custom_op_context, gpu_ctx);
RKNNOP_SAME_FIELD(r::op_context, rknn_custom_op_context, priv_data);
static_assert(std::is_same_v<r::internal_context, rknn_custom_op_interal_context>);

static_assert(sizeof(r::op_tensor) == sizeof(rknn_custom_op_tensor));
RKNNOP_SAME_FIELD(r::op_tensor, rknn_custom_op_tensor, attr);
RKNNOP_SAME_FIELD(r::op_tensor, rknn_custom_op_tensor, mem);

static_assert(sizeof(r::op_attr) == sizeof(rknn_custom_op_attr));
RKNNOP_SAME_FIELD(r::op_attr, rknn_custom_op_attr, name);
RKNNOP_SAME_FIELD(r::op_attr, rknn_custom_op_attr, dtype);
RKNNOP_SAME_FIELD(r::op_attr, rknn_custom_op_attr, n_elems);
RKNNOP_SAME_FIELD(r::op_attr, rknn_custom_op_attr, data);

static_assert(sizeof(r::custom_op) == sizeof(rknn_custom_op) && alignof(r::custom_op) == alignof(rknn_custom_op));
RKNNOP_SAME_FIELD(r::custom_op, rknn_custom_op, version);
RKNNOP_SAME_FIELD(r::custom_op, rknn_custom_op, target);
RKNNOP_SAME_FIELD(r::custom_op, rknn_custom_op, op_type);
RKNNOP_SAME_FIELD(r::custom_op, rknn_custom_op, cl_kernel_name);
RKNNOP_SAME_FIELD(r::custom_op, rknn_custom_op, cl_kernel_source);
RKNNOP_SAME_FIELD(r::custom_op, rknn_custom_op, cl_source_size);
RKNNOP_SAME_FIELD(r::custom_op, rknn_custom_op, cl_build_options);
RKNNOP_SAME_FIELD(r::custom_op, rknn_custom_op, init);
RKNNOP_SAME_FIELD(r::custom_op, rknn_custom_op, prepare);
RKNNOP_SAME_FIELD(r::custom_op, rknn_custom_op, compute);
RKNNOP_SAME_FIELD(r::custom_op, rknn_custom_op, compute_native);
RKNNOP_SAME_FIELD(r::custom_op, rknn_custom_op, destroy);

// The callbacks' types: an rknnop callback is assignable to Rockchip's field through a pointer cast
// only because the parameter types lay out the same (checked above); the counts and returns agree.
static_assert(std::is_same_v<decltype(rknn_custom_op::compute), int (*)(rknn_custom_op_context*, rknn_custom_op_tensor*,
                                                                        uint32_t, rknn_custom_op_tensor*, uint32_t)>);
static_assert(std::is_same_v<decltype(rknn_custom_op::destroy), int (*)(rknn_custom_op_context*)>);
static_assert(std::is_same_v<get_custom_op_func, rknn_custom_op* (*)()>);

int main() { return 0; }

// SPDX-License-Identifier: MIT
#pragma once

// Layer 1 of detail/ (docs/architecture.md §1), the RKNPU2 backend's floor: the C ABI of
// librknnrt's custom operators (RKNPU2 SDK 1.6.0 and later, unchanged up to 2.3.2), as rknnop's own
// declarations, so that a plugin builds without Rockchip's headers. Every layout here is pinned
// against Rockchip's rknn_api.h and rknn_custom_op.h by tests/rknpu2/abi_layout.cpp, compiled for
// x86-64, aarch64 and armhf (the internal context is 32 bits wide on 32-bit ARM, 64 elsewhere).
// The names are rknnop's: a translation unit may include Rockchip's headers beside this one.

#include <rknnop/config.hpp>

#include <cstddef>  // offsetof, for the layout checks
#include <cstdint>  // fixed-width fields

RKNNOP_DETAIL_BEGIN_HIDDEN  // see config.hpp: nothing of the SDK is exported

namespace rknnop::detail::rknpu2 {

inline constexpr std::size_t max_dims = 16;       // RKNN_MAX_DIMS
inline constexpr std::size_t max_name_len = 256;  // RKNN_MAX_NAME_LEN

// librknnrt's return codes (rknn_api.h) that a custom op's callbacks give back: RKNN_SUCC and
// RKNN_ERR_FAIL (what the runtime reads of a failed init or compute: not 0).
enum return_code : int { rknn_succ = 0, rknn_err_fail = -1 };

// rknn_tensor_type (a C enum: 4 bytes)
enum tensor_type : std::int32_t {
  type_float32 = 0,
  type_float16 = 1,
  type_int8 = 2,
  type_uint8 = 3,
  type_int16 = 4,
  type_uint16 = 5,
  type_int32 = 6,
  type_uint32 = 7,
  type_int64 = 8,
  type_bool = 9,
  type_int4 = 10,
  type_bfloat16 = 11,  // RKNPU2 SDK 2.1 and later
};

// rknn_tensor_format
enum tensor_format : std::int32_t {
  format_nchw = 0,
  format_nhwc = 1,
  format_nc1hwc2 = 2,
  format_undefined = 3,
};

enum target_type : std::int32_t { target_cpu = 1, target_gpu = 2 };  // rknn_target_type

// rknn_tensor_attr: dims outermost first.
struct tensor_attr {
  std::uint32_t index;
  std::uint32_t n_dims;
  std::uint32_t dims[max_dims];
  char name[max_name_len];
  std::uint32_t n_elems;
  std::uint32_t size;
  tensor_format fmt;
  tensor_type type;
  std::int32_t qnt_type;  // rknn_tensor_qnt_type: 0 none, 1 DFP, 2 affine asymmetric
  std::int8_t fl;
  std::int32_t zp;
  float scale;
  std::uint32_t w_stride;
  std::uint32_t size_with_stride;
  std::uint8_t pass_through;
  std::uint32_t h_stride;
};

// rknn_tensor_mem: the data is at (char*)virt_addr + offset.
struct tensor_mem {
  void* virt_addr;
  std::uint64_t phys_addr;
  std::int32_t fd;
  std::int32_t offset;
  std::uint32_t size;
  std::uint32_t flags;
  void* priv_data;
};

#if defined(__arm__)
using internal_context = std::uint32_t;
#else
using internal_context = std::uint64_t;
#endif

struct gpu_op_context {  // rknn_gpu_op_context
  void* cl_context;
  void* cl_command_queue;
  void* cl_kernel;
};

struct op_context {  // rknn_custom_op_context
  target_type target;
  internal_context internal_ctx;
  gpu_op_context gpu_ctx;
  void* priv_data;  // the plugin's own: rknnop keeps the node's decoded params here
};

struct op_tensor {  // rknn_custom_op_tensor
  tensor_attr attr;
  tensor_mem mem;
};

struct op_attr {  // rknn_custom_op_attr: one attribute of the model's node
  char name[max_name_len];
  tensor_type dtype;
  std::uint32_t n_elems;
  void* data;
};

using op_callback = int (*)(op_context*, op_tensor* inputs, std::uint32_t n_inputs, op_tensor* outputs,
                            std::uint32_t n_outputs);

struct custom_op {  // rknn_custom_op
  std::uint32_t version;
  target_type target;
  char op_type[max_name_len];
  char cl_kernel_name[max_name_len];
  char* cl_kernel_source;
  std::uint64_t cl_source_size;
  char cl_build_options[max_name_len];
  op_callback init;
  op_callback prepare;
  op_callback compute;
  op_callback compute_native;
  int (*destroy)(op_context*);
};

// librknnrt's attribute reader, bound weakly under rknnop's own name: resolved from the process
// (librknnrt, which loaded the plugin) at load time, null where no librknnrt is loaded (a plugin
// opened by Python's ctypes, which passes attributes through rknnop_rknpu2_compute instead).
// Default visibility: a hidden undefined reference could never bind to librknnrt's definition.
extern "C" [[gnu::weak, gnu::visibility("default")]] void rknnop_detail_rknn_get_op_attr(
    op_context*, const char*, op_attr*) __asm__("rknn_custom_op_get_op_attr");

}  // namespace rknnop::detail::rknpu2

RKNNOP_DETAIL_END_HIDDEN

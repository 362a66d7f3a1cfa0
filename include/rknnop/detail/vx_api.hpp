// SPDX-License-Identifier: MIT
#pragma once

// The one header that includes OpenVX declarations: rknnop's own (default) or the vendor's.

#include <rknnop/config.hpp>

#include <cstddef>  // offsetof
#include <cstdint>  // std::uint32_t

#ifdef RKNNOP_USE_VENDOR_OPENVX
#include <VX/vx.h>
// vx_kernel_description_t / vx_param_description_t: <VX/vx_helper.h> in Khronos' headers and in the
// toolkit's generated C (VSI ships it too); never in <VX/vx.h> itself.
#if __has_include(<VX/vx_helper.h>)
#include <VX/vx_helper.h>
#endif
#if __has_include(<VX/vx_ext_program.h>)
#include <VX/vx_ext_program.h>  // VSI: execution parameters, uniforms
#endif
#else
#include <rknnop/openvx.h>
#endif

RKNNOP_DETAIL_BEGIN_HIDDEN  // see config.hpp: nothing of the SDK is exported

#ifndef VX_NODE_ATTRIBUTE_KERNEL_EXECUTION_PARAMETERS
// Khronos headers have no program extension; the attribute is VSI's and only the VX kernel uses it.
#define VX_NODE_ATTRIBUTE_KERNEL_EXECUTION_PARAMETERS 0x780300
#define RKNNOP_DETAIL_NO_PROGRAM_EXTENSION 1
typedef struct _vx_kernel_execution_parameters {
  vx_uint32 workDim;
  vx_size globalWorkOffset[3];
  vx_size globalWorkScale[3];
  vx_size localWorkSize[3];
  vx_size globalWorkSize[3];
} vx_kernel_execution_parameters_t;
#endif

namespace rknnop::detail {

// How the driver reports tensor dims: uint32 on VSI (RKNN boards), vx_size on Khronos.
#if RKNNOP_VX_KHRONOS_DIMS
using vx_dim_t = vx_size;
#else
using vx_dim_t = vx_uint32;
#endif

inline constexpr std::uint32_t max_tensor_rank = 6;  // VSI accepts at most 24 bytes of uint32 dims

// The descriptor layout the board runtime reads (docs/abi.md §3, docs/abi.md §4).
static_assert(sizeof(vx_param_description_t) == 12, "rknnop: vx_param_description_t must be 12 bytes");
#if defined(__LP64__) || defined(_LP64)
static_assert(sizeof(vx_kernel_description_t) == 328, "rknnop: LP64 descriptor must be 328 bytes");
static_assert(offsetof(vx_kernel_description_t, name) == 4);
static_assert(offsetof(vx_kernel_description_t, function) == 264);
static_assert(offsetof(vx_kernel_description_t, parameters) == 272);
static_assert(offsetof(vx_kernel_description_t, numParams) == 280);
static_assert(offsetof(vx_kernel_description_t, validate) == 288);
static_assert(offsetof(vx_kernel_description_t, input_validate) == 296);
static_assert(offsetof(vx_kernel_description_t, output_validate) == 304);
static_assert(offsetof(vx_kernel_description_t, initialize) == 312);
static_assert(offsetof(vx_kernel_description_t, deinitialize) == 320);
static_assert(sizeof(vx_kernel_execution_parameters_t) == 104);
#elif defined(__arm__)
static_assert(sizeof(vx_kernel_description_t) == 292, "rknnop: armhf descriptor must be 292 bytes");
static_assert(offsetof(vx_kernel_description_t, function) == 260);
static_assert(offsetof(vx_kernel_description_t, parameters) == 264);
static_assert(offsetof(vx_kernel_description_t, numParams) == 268);
static_assert(offsetof(vx_kernel_description_t, validate) == 272);
static_assert(offsetof(vx_kernel_description_t, initialize) == 284);
static_assert(offsetof(vx_kernel_description_t, deinitialize) == 288);
static_assert(sizeof(vx_kernel_execution_parameters_t) == 52);
#endif
static_assert(sizeof(vx_bool) == 4, "rknnop: vx_bool is a 4-byte enum on the VSI driver");

// Human-readable VX type names for diagnostics, op.yml and Python emission.
constexpr const char* vx_type_name(vx_enum type) noexcept {
  switch (type) {
    case VX_TYPE_INVALID: return "VX_TYPE_INVALID";
    case VX_TYPE_CHAR: return "VX_TYPE_CHAR";
    case VX_TYPE_INT8: return "VX_TYPE_INT8";
    case VX_TYPE_UINT8: return "VX_TYPE_UINT8";
    case VX_TYPE_INT16: return "VX_TYPE_INT16";
    case VX_TYPE_UINT16: return "VX_TYPE_UINT16";
    case VX_TYPE_INT32: return "VX_TYPE_INT32";
    case VX_TYPE_UINT32: return "VX_TYPE_UINT32";
    case VX_TYPE_INT64: return "VX_TYPE_INT64";
    case VX_TYPE_UINT64: return "VX_TYPE_UINT64";
    case VX_TYPE_FLOAT16: return "VX_TYPE_FLOAT16";
    case VX_TYPE_FLOAT32: return "VX_TYPE_FLOAT32";
    case VX_TYPE_FLOAT64: return "VX_TYPE_FLOAT64";
    case VX_TYPE_ENUM: return "VX_TYPE_ENUM";
    case VX_TYPE_SIZE: return "VX_TYPE_SIZE";
    case VX_TYPE_BOOL: return "VX_TYPE_BOOL";
    case VX_TYPE_SCALAR: return "VX_TYPE_SCALAR";
    case VX_TYPE_ARRAY: return "VX_TYPE_ARRAY";
    case VX_TYPE_TENSOR: return "VX_TYPE_TENSOR";
    default: return "VX_TYPE_<unknown>";
  }
}

}  // namespace rknnop::detail

RKNNOP_DETAIL_END_HIDDEN

// SPDX-License-Identifier: MIT
#pragma once

// Layer 2 of detail/ (docs/architecture.md §1): the OpenVX API.
// The one header that includes OpenVX declarations: rknnop's own (default) or the vendor's.

#include <rknnop/config.hpp>
#include <rknnop/detail/vx_types.hpp>  // vx_type_name, vx_bool_size

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
// Who declares the program extension (vx_kernel_execution_parameters_t and the node attribute):
// rknnop's own headers define the attribute as a macro; VeriSilicon's <VX/vx_ext_program.h>
// (TIM-VX 31af329, SDK 6.4.6) declares it as an enum value, so a macro test alone misses it: its
// include guard _VX_EXT_PROGRAM_H_ is what says the struct is already there. Khronos' headers have
// neither; then the attribute (VSI's, used only by the VX kernel) and the struct are declared here.
#if !defined(VX_NODE_ATTRIBUTE_KERNEL_EXECUTION_PARAMETERS) && !defined(_VX_EXT_PROGRAM_H_)
#define VX_NODE_ATTRIBUTE_KERNEL_EXECUTION_PARAMETERS 0x780300
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
static_assert(sizeof(vx_bool) == vx_bool_size, "rknnop: vx_bool is a 4-byte enum on the VSI driver");

}  // namespace rknnop::detail

RKNNOP_DETAIL_END_HIDDEN

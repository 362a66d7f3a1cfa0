/* SPDX-License-Identifier: MIT */
/*
 * rknnop's own declarations of the OpenVX C API subset that custom-op kernel libraries and the
 * RKNN v1 runtime use, ABI-identical to VeriSilicon's headers on RK1808/RV1126 boards (layouts are
 * pinned by the static_asserts in rknnop/detail/vx_api.hpp).
 *
 * Plain C (C99 and later) so that C translation units and the host runtime can use it too.
 * Define RKNNOP_USE_VENDOR_OPENVX (and put the vendor's or Khronos' headers on the include path)
 * to use real headers instead; then this file is not included at all. Existing toolkit C code that
 * includes <VX/vx.h>, <VX/vx_helper.h>, ... builds against these declarations through the
 * compatibility headers in rknnop/compat (CMake: rknnop::compat_vx).
 */
#ifndef RKNNOP_OPENVX_H
#define RKNNOP_OPENVX_H

#include <rknnop/detail/openvx_core.h>   /* what <VX/vx.h> declares */
#include <rknnop/detail/openvx_helper.h> /* vx_kernel_description_t, vx_param_description_t */

#endif /* RKNNOP_OPENVX_H */

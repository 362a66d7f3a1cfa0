/* SPDX-License-Identifier: MIT */
/*
 * rknnop's stand-in for the vendor's <VX/vx_types.h>, for existing RKNN-Toolkit C ops: the types,
 * constants and functions of <rknnop/openvx.h> (the VSI driver's ABI) under the vendors' names.
 * Like VeriSilicon's vx_types.h it includes <string.h>: generated toolkit code calls memset/memcpy
 * without including it, which clang and C99 reject.
 */
#ifndef RKNNOP_COMPAT_VX_TYPES_H
#define RKNNOP_COMPAT_VX_TYPES_H

#include <string.h>

#include <rknnop/detail/openvx_core.h>

#endif /* RKNNOP_COMPAT_VX_TYPES_H */

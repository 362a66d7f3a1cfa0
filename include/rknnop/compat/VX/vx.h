/* SPDX-License-Identifier: MIT */
/*
 * rknnop's stand-in for the vendor's <VX/vx.h> (see vx_types.h). As in Khronos' and VeriSilicon's
 * headers, vx_kernel_description_t and vx_param_description_t are not here but in <VX/vx_helper.h>.
 * Only what rknnop's host runtime implements is declared: a call to anything else is a compile
 * error here rather than a missing symbol on the board.
 */
#ifndef RKNNOP_COMPAT_VX_H
#define RKNNOP_COMPAT_VX_H

#include <VX/vx_types.h>

/* Marks a translation unit built against rknnop's compatibility headers. */
#define RKNNOP_COMPAT_VX 1

#endif /* RKNNOP_COMPAT_VX_H */

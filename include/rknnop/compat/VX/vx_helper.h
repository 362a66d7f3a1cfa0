/* SPDX-License-Identifier: MIT */
/* rknnop's stand-in for the vendor's <VX/vx_helper.h>: the kernel-table types (see vx.h). */
#ifndef RKNNOP_COMPAT_VX_HELPER_H
#define RKNNOP_COMPAT_VX_HELPER_H

#include <VX/vx.h>
#include <rknnop/detail/openvx_helper.h>

#endif /* RKNNOP_COMPAT_VX_HELPER_H */

/* SPDX-License-Identifier: MIT */
/* rknnop's stand-in for the vendor's <VX/vxu.h>: everything rknnop declares is in <VX/vx.h>. */
#ifndef RKNNOP_COMPAT_VXU_H
#define RKNNOP_COMPAT_VXU_H

#include <VX/vx.h>

#endif /* RKNNOP_COMPAT_VXU_H */

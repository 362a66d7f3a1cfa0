/* SPDX-License-Identifier: MIT */
/* rknnop's stand-in for the vendor's <VX/vx_vendors.h>: everything rknnop declares is in <VX/vx.h>. */
#ifndef RKNNOP_COMPAT_VX_VENDORS_H
#define RKNNOP_COMPAT_VX_VENDORS_H

#include <VX/vx.h>

#endif /* RKNNOP_COMPAT_VX_VENDORS_H */

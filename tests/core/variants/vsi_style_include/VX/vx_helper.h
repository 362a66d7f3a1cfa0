/* SPDX-License-Identifier: MIT */
/* Stands in for VeriSilicon's <VX/vx_helper.h>: the kernel-table types (see vx.h). */
#ifndef RKNNOP_TEST_VSI_STYLE_VX_HELPER_H
#define RKNNOP_TEST_VSI_STYLE_VX_HELPER_H
#include <VX/vx.h>
#include <rknnop/detail/openvx_helper.h>
#endif

/* SPDX-License-Identifier: MIT */
/* Stands in for a vendor's <VX/vx.h> on the include path (this test has no vendor SDK): the same
 * declarations through a different header, which is what RKNNOP_USE_VENDOR_OPENVX selects. Like the
 * real headers (Khronos 1.3, VeriSilicon's) it leaves vx_kernel_description_t and
 * vx_param_description_t to <VX/vx_helper.h>, so an SDK that includes only <VX/vx.h> fails here too. */
#ifndef RKNNOP_TEST_VENDOR_VX_H
#define RKNNOP_TEST_VENDOR_VX_H
#include <rknnop/detail/openvx_core.h>
#define RKNNOP_TEST_VENDOR_HEADER_USED 1
#endif

/* SPDX-License-Identifier: MIT */
/* Stands in for a vendor's <VX/vx.h> on the include path (this test has no vendor SDK): it provides
 * the same declarations through a different header, which is what RKNNOP_USE_VENDOR_OPENVX selects. */
#ifndef RKNNOP_TEST_VENDOR_VX_H
#define RKNNOP_TEST_VENDOR_VX_H
#include <rknnop/openvx.h>
#define RKNNOP_TEST_VENDOR_HEADER_USED 1
#endif

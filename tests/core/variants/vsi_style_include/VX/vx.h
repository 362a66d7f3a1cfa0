/* SPDX-License-Identifier: MIT */
/* Stands in for VeriSilicon's <VX/vx.h> in the way that matters to rknnop's vx_api.hpp: the program
 * extension's node attribute is not a macro. VeriSilicon's headers (TIM-VX 31af329, SDK 6.4.6)
 * declare VX_NODE_ATTRIBUTE_KERNEL_EXECUTION_PARAMETERS as an enum value in <VX/vx_ext_program.h>
 * (see vx_ext_program.h here); rknnop's own declarations define it as a macro, which is dropped. The
 * struct vx_kernel_execution_parameters_t stays declared (by openvx_core.h, where VSI's
 * vx_ext_program.h declares it), so an SDK that declares it again fails to compile, as with VSI's. */
#ifndef RKNNOP_TEST_VSI_STYLE_VX_H
#define RKNNOP_TEST_VSI_STYLE_VX_H
#include <rknnop/detail/openvx_core.h>
#undef VX_NODE_ATTRIBUTE_KERNEL_EXECUTION_PARAMETERS
#define RKNNOP_TEST_VENDOR_HEADER_USED 1
#endif

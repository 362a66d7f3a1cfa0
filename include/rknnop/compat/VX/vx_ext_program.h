/* SPDX-License-Identifier: MIT */
/*
 * rknnop's stand-in for VeriSilicon's <VX/vx_ext_program.h>: vx_kernel_execution_parameters_t,
 * VX_NODE_ATTRIBUTE_KERNEL_EXECUTION_PARAMETERS and vxSetNodeUniform, which <rknnop/openvx.h>
 * declares with the rest. The program functions (vxCreateProgramWithBinary, ...) are the board
 * runtime's business, not a kernel library's, and are not declared.
 */
#ifndef RKNNOP_COMPAT_VX_EXT_PROGRAM_H
#define RKNNOP_COMPAT_VX_EXT_PROGRAM_H

#include <VX/vx.h>

#endif /* RKNNOP_COMPAT_VX_EXT_PROGRAM_H */

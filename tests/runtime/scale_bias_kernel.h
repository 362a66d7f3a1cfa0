/* SPDX-License-Identifier: MIT */
/* The toolkit-style C test kernel (scale_bias_kernel.c) and a descriptor-driven registration that
 * does what the board runtime does with a kernel library's list. */
#ifndef RKNNOP_TESTS_RUNTIME_SCALE_BIAS_KERNEL_H
#define RKNNOP_TESTS_RUNTIME_SCALE_BIAS_KERNEL_H

#include <rknnop/openvx.h>

#ifdef __cplusplus
extern "C" {
#endif

extern vx_kernel_description_t* vx_kernel_ScaleBias_list[];

/* vxAddUserKernel + vxAddParameterToKernel for each parameter + vxFinalizeKernel; NULL on error. */
vx_kernel register_kernel_description(vx_context context, const vx_kernel_description_t* desc);

int scale_bias_init_calls(void);
int scale_bias_deinit_calls(void);

#ifdef __cplusplus
}
#endif

#endif

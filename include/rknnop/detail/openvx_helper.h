/* SPDX-License-Identifier: MIT */
/*
 * Part of <rknnop/openvx.h>: the kernel-table types that Khronos' and VeriSilicon's headers declare
 * in <VX/vx_helper.h> (not in <VX/vx.h>). Layouts pinned by rknnop/detail/vx_api.hpp.
 */
#ifndef RKNNOP_DETAIL_OPENVX_HELPER_H
#define RKNNOP_DETAIL_OPENVX_HELPER_H

#include <rknnop/detail/openvx_core.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct _vx_param_description_t {
  vx_enum direction;
  vx_enum data_type;
  vx_enum state;
} vx_param_description_t;

typedef struct _vx_kernel_description_t {
  vx_enum enumeration;
  vx_char name[VX_MAX_KERNEL_NAME];
  vx_kernel_f function;
  vx_param_description_t* parameters;
  vx_uint32 numParams;
  vx_kernel_validate_f validate;
  void* input_validate;
  void* output_validate;
  vx_kernel_initialize_f initialize;
  vx_kernel_deinitialize_f deinitialize;
} vx_kernel_description_t;

#ifdef __cplusplus
}
#endif

#endif /* RKNNOP_DETAIL_OPENVX_HELPER_H */

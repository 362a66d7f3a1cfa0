// SPDX-License-Identifier: MIT
/* A C11 translation unit walking the exported list through the C function-pointer types, exactly
 * as the board runtime does (no C++ involved on this side). */
#include <rknnop/openvx.h>

#include <string.h>

extern vx_kernel_description_t* vx_kernel_ResizeArea_list[];

/* Returns the number of descriptors, or a negative number naming the first broken rule. */
int rknnop_test_c_walk(void) {
  int n = 0;
  for (vx_kernel_description_t** it = vx_kernel_ResizeArea_list; *it; ++it, ++n) {
    vx_kernel_description_t* d = *it;
    vx_kernel_validate_f validate = d->validate;
    vx_kernel_f function = d->function;
    vx_kernel_initialize_f init = d->initialize;
    if (d->numParams != 4) return -1;
    if (d->parameters[0].data_type != VX_TYPE_TENSOR || d->parameters[1].direction != VX_OUTPUT) return -2;
    if (d->parameters[2].data_type != VX_TYPE_ARRAY || d->parameters[3].data_type != VX_TYPE_SCALAR) return -3;
    if (!validate) return -4;
    if (n == 0 && (!function || strcmp(d->name, "resizearea_cpu") != 0)) return -5;
    if (n == 1 && (function || !init || strcmp(d->name, "resizearea") != 0)) return -6;
    d->enumeration = (vx_enum)0xFFF03080u; /* proves the storage is writable */
  }
  return n;
}

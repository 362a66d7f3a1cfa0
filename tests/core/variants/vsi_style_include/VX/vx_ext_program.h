/* SPDX-License-Identifier: MIT */
/* Stands in for VeriSilicon's <VX/vx_ext_program.h> (TIM-VX 31af329, SDK 6.4.6): the same include
 * guard, and the node attribute declared as an enum value, not a macro (see vx.h). */
#ifndef _VX_EXT_PROGRAM_H_
#define _VX_EXT_PROGRAM_H_
#include <VX/vx.h>
typedef enum vx_ext_node_attribute_e {
  VX_NODE_ATTRIBUTE_KERNEL_EXECUTION_PARAMETERS = 0x780300 /* VX_ATTRIBUTE_BASE(VX_ID_VIVANTE, VX_TYPE_NODE) */
} vx_ext_node_attribute_e;
#endif

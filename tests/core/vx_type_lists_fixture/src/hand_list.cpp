// SPDX-License-Identifier: MIT
// A fixture for check_vx_type_lists.cmake (never compiled): two hand-written lists of VX types.
#include <rknnop/vx_type.hpp>

int element_bytes(int type) {
  switch (type) {
    case rknnop::vx_type::int8: return 1;
    case rknnop::vx_type::int16: return 2;
    case VX_TYPE_FLOAT32: return 4;
    case VX_TYPE_TENSOR: return 0;  // an object type: not counted
    default: return 0;
  }
}

bool is_float(int type) { return type == VX_TYPE_FLOAT16 || type == VX_TYPE_FLOAT32 || type == VX_TYPE_FLOAT64; }

// Passes: a switch over object types, one comparison, and types named in comments and strings.
bool is_object(int type) {
  switch (type) {
    case VX_TYPE_SCALAR:
    case VX_TYPE_ARRAY:
    case VX_TYPE_TENSOR: return true;
    default: return type == VX_TYPE_INT32;  // == VX_TYPE_INT8 == VX_TYPE_INT16 == VX_TYPE_UINT8
  }
}

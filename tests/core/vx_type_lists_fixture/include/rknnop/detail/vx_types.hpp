// SPDX-License-Identifier: MIT
// A fixture for check_vx_type_lists.cmake (never compiled): the table's own header may list types.
int size_of(int type) {
  switch (type) {
    case VX_TYPE_INT8: return 1;
    case VX_TYPE_INT16: return 2;
    case VX_TYPE_INT32: return 4;
    default: return 0;
  }
}

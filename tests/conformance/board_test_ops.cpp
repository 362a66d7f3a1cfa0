// SPDX-License-Identifier: MIT
// The suite's test ops (test_ops.hpp) as op libraries: rknnop_add_op builds one per op from this unit,
// each exporting only its own vx_kernel_<Name>_list, for the board's column (run_openvx_board.cpp).
#include "test_ops.hpp"

// SPDX-License-Identifier: MIT
// The example ops and the suite's test ops, unchanged, compiled as the MindSpore Lite backend compiles
// them (RKNNOP_MINDSPORE_BACKEND=1 with <rknnop/mindspore.hpp> force-included by CMake): each
// RKNNOP_EXPORT_OP registers its op with MindSpore Lite's registry when the driver loads.
#include "dual_residual/dual_residual.cpp"
#include "exp/exp.cpp"
#include "leaky_relu/leaky_relu.cpp"
#include "mirror_pad/mirror_pad.cpp"
#include "quantized_max_pool/quantized_max_pool.cpp"
#include "resize_area/resize_area.cpp"
#include "truncate_div/truncate_div.cpp"

#include "test_ops.hpp"

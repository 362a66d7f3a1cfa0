// SPDX-License-Identifier: MIT
// The example ResizeArea op under its own name, so that rknnop_add_op can build it here with a
// hand-written, toolkit-style Python class (rknn_op_resizeareatoolkit.py) whose
// compute_output_shape returns [h, w, c], as the toolkit's own ResizeArea demo does: the model's
// output tensor then has rank 3 and the kernel must take it as batch 1.
#include <rknnop/op.hpp>

// The example's own RKNNOP_EXPORT_OP(ResizeArea) is left out: this library exports only
// vx_kernel_ResizeAreaToolkit_list (and an emitter build has one main()).
#pragma push_macro("RKNNOP_EXPORT_OP")
#undef RKNNOP_EXPORT_OP
#define RKNNOP_EXPORT_OP(Name) static_assert(true)
#include "resize_area/resize_area.cpp"
#pragma pop_macro("RKNNOP_EXPORT_OP")

struct ResizeAreaToolkit : ResizeArea {
  static constexpr std::string_view name = "ResizeAreaToolkit";
};
RKNNOP_EXPORT_OP(ResizeAreaToolkit);

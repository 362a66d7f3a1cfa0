// SPDX-License-Identifier: MIT
// 2 inputs, 3 outputs of the same shape: y_j = x_0 + ... + x_1 + offset + j.
#include "matrix_op.hpp"

struct MatrixIo23 {
  static constexpr std::string_view name = "MatrixIo23";
  struct inputs {
    rknnop_matrix::any_tensor x0;
    rknnop_matrix::any_tensor x1;
  };
  struct outputs {
    rknnop_matrix::any_tensor y0;
    rknnop_matrix::any_tensor y1;
    rknnop_matrix::any_tensor y2;
  };
  struct params {
    float offset = 0.0f;
  };
  static constexpr auto infer = [](const inputs& in, outputs& out, const params&) {
    rknnop_matrix::infer_like(in.x0, out.y0, out.y1, out.y2);
    return rknnop::ok;
  };
  static constexpr auto cpu = [](const inputs& in, outputs& out, const params& p) {
    const rknnop_matrix::any_tensor* const ins[] = {&in.x0, &in.x1};
    rknnop_matrix::any_tensor* const outs[] = {&out.y0, &out.y1, &out.y2};
    rknnop_matrix::sum_plus_index(ins, outs, p.offset);
    return rknnop::ok;
  };
};

RKNNOP_EXPORT_OP(MatrixIo23);

// SPDX-License-Identifier: MIT
// 3 inputs, 4 outputs of the same shape: y_j = x_0 + ... + x_2 + offset + j.
#include "matrix_op.hpp"

struct MatrixIo34 {
  static constexpr std::string_view name = "MatrixIo34";
  struct inputs {
    rknnop_matrix::any_tensor x0;
    rknnop_matrix::any_tensor x1;
    rknnop_matrix::any_tensor x2;
  };
  struct outputs {
    rknnop_matrix::any_tensor y0;
    rknnop_matrix::any_tensor y1;
    rknnop_matrix::any_tensor y2;
    rknnop_matrix::any_tensor y3;
  };
  struct params {
    float offset = 0.0f;
  };
  static constexpr auto infer = [](const inputs& in, outputs& out, const params&) {
    rknnop_matrix::infer_like(in.x0, out.y0, out.y1, out.y2, out.y3);
    return rknnop::ok;
  };
  static constexpr auto cpu = [](const inputs& in, outputs& out, const params& p) {
    const rknnop_matrix::any_tensor* const ins[] = {&in.x0, &in.x1, &in.x2};
    rknnop_matrix::any_tensor* const outs[] = {&out.y0, &out.y1, &out.y2, &out.y3};
    rknnop_matrix::sum_plus_index(ins, outs, p.offset);
    return rknnop::ok;
  };
};

RKNNOP_EXPORT_OP(MatrixIo34);

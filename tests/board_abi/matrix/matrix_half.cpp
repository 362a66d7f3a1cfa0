// SPDX-License-Identifier: MIT
// A float16 scalar param (y = x + h): a type the SDK and the op description know, and the cell
// that asks whether the board runtime creates it.
#include "matrix_op.hpp"

struct MatrixHalf {
  static constexpr std::string_view name = "MatrixHalf";
  struct inputs {
    rknnop_matrix::any_tensor x;
  };
  struct outputs {
    rknnop_matrix::any_tensor y;
  };
  struct params {
    rknnop::float16 h{};
  };
  static constexpr auto infer = [](const inputs& in, outputs& out, const params&) {
    rknnop_matrix::infer_like(in.x, out.y);
    return rknnop::ok;
  };
  static constexpr auto cpu = [](const inputs& in, outputs& out, const params& p) {
    for (std::size_t i = 0; i < in.x.size(); ++i) out.y[i] = in.x[i] + static_cast<float>(p.h);
    return rknnop::ok;
  };
};

RKNNOP_EXPORT_OP(MatrixHalf);

// SPDX-License-Identifier: MIT
// Registered into Rockchip's own dual_residual_custom.rknn in place of DualResidual: needs an
// attribute the model's node lacks (beta, no default), so registration must fail with one line.
#include <rknnop/op.hpp>

#include <cstdint>

struct NeedsBeta {
  static constexpr std::string_view rknpu2_type = "cstDualResidual";
  using operand = rknnop::tensor<float>;
  struct inputs {
    operand x, y;
  };
  struct outputs {
    operand out0, out1;
  };
  struct params {
    float alpha = 1.0f;
    float beta;  // no default, and the model's node has no beta
  };
  static constexpr auto infer = [](const inputs& in, outputs& out, const params&) {
    out.out0.set_dims(in.x.dims());
    out.out1.set_dims(in.x.dims());
  };
  static constexpr auto cpu = [](const inputs& in, outputs& out, const params&) {
    for (std::size_t i = 0; i < in.x.size(); ++i) out.out0[i] = out.out1[i] = in.x[i];
  };
};
RKNNOP_EXPORT_OP(NeedsBeta);

// SPDX-License-Identifier: MIT
// Registered into Rockchip's own dual_residual_custom.rknn (node type cstDualResidual, FLOAT32
// attribute alpha = 0.5) in place of DualResidual: reads alpha as an integer, so the real runtime's
// registration must fail with one line naming the param, what it got and what it expected.
#include <rknnop/op.hpp>

#include <cstdint>

struct AlphaAsInteger {
  static constexpr std::string_view rknpu2_type = "cstDualResidual";
  using operand = rknnop::tensor<float>;
  struct inputs {
    operand x, y;
  };
  struct outputs {
    operand out0, out1;
  };
  struct params {
    std::int32_t alpha = 1;  // the model's alpha is FLOAT32 0.5: refused, not truncated
  };
  static constexpr auto infer = [](const inputs& in, outputs& out, const params&) {
    out.out0.set_dims(in.x.dims());
    out.out1.set_dims(in.x.dims());
  };
  static constexpr auto cpu = [](const inputs& in, outputs& out, const params&) {
    for (std::size_t i = 0; i < in.x.size(); ++i) out.out0[i] = out.out1[i] = in.x[i];
  };
};
RKNNOP_EXPORT_OP(AlphaAsInteger);

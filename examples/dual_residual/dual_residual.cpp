// SPDX-License-Identifier: MIT
// DualResidual: the op of Rockchip's RKNPU2 PyTorch custom-op demo (ONNX op type cstDualResidual):
// out0 = x * alpha - y, out1 = y * alpha - x, elementwise. One struct, both NPU generations: a v1
// custom op (DualResidual.rknnop) and an RKNPU2 plugin (rknpu2/<arch>/librkcst_dualresidual.so).
#include <rknnop/op.hpp>
#include <rknnop/parallel.hpp>

struct DualResidual {
  static constexpr std::string_view rknpu2_type = "cstDualResidual";  // the demo model's node type

  using operand = rknnop::tensor<float, rknnop::float16>;
  struct inputs {
    operand x;
    operand y;
  };
  struct outputs {
    operand out0;
    operand out1;
  };
  struct params {
    float alpha;  // no default: the model's node always carries it (the PyTorch op's argument)
  };

  static constexpr auto infer = [](const inputs& in, outputs& out, const params&) {
    if (in.x.rank() != in.y.rank() || in.x.size() != in.y.size())
      return rknnop::error("x and y must have the same shape, got {} and {} elements", in.x.size(), in.y.size());
    for (std::uint32_t d = 0; d < in.x.rank(); ++d)
      if (in.x.dim(d) != in.y.dim(d)) return rknnop::error("x and y differ in dims[{}]", d);
    out.out0.set_dims(in.x.dims());
    out.out1.set_dims(in.x.dims());
    out.out0.set_dtype(in.x.dtype());
    out.out1.set_dtype(in.x.dtype());
    return rknnop::ok;
  };

  static constexpr auto cpu = [](const inputs& in, outputs& out, const params& p) {
    rknnop::parallel_for(in.x.size(), 16384, [&](std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i) {
        const float x = in.x[i], y = in.y[i];
        out.out0[i] = x * p.alpha - y;
        out.out1[i] = y * p.alpha - x;
      }
    });
    return rknnop::ok;
  };
};
RKNNOP_EXPORT_OP(DualResidual);

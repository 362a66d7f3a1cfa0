// SPDX-License-Identifier: MIT
// TensorFlow's Exp as an RKNN custom op: y = e^x element-wise on a tensor of any rank (1..6),
// float16 (what the board delivers) or float32, computed in float32 and rounded once on the way out.
#include <rknnop/each_element.hpp>
#include <rknnop/op.hpp>

#include <cmath>

struct Exp {
  using values = rknnop::tensor<float, rknnop::float16>;
  struct inputs {
    values x;
  };
  struct outputs {
    values y;
  };

  // Same dims as x; the output's dtype defaults to x's (float16 in, float16 out).
  static constexpr auto infer = [](const inputs& in, outputs& out, rknnop::no_params) { out.y.set_dims(in.x.dims()); };

  // One element's function: the SDK runs it over the tensor on the board's cores, in one pass with the
  // node's copies and float16 conversions on the PC, and on the runtime's memory in an RKNPU2 plugin
  // (<rknnop/each_element.hpp>).
  static constexpr auto cpu = rknnop::each_element([](float x) { return std::exp(x); });

  // VX kernel (exp.vx): one work-item per 8 consecutive elements of a row (x = dims[0], y = dims[1],
  // z = dims[2]). The shader sees at most three dims, so dims[3..5] must be 1 on that path.
  static constexpr auto vx = [](const inputs& in, const outputs&, const auto&, rknnop::work_size& ws) {
    for (std::uint32_t d = 3; d < in.x.rank(); ++d)
      if (in.x.dim(d) != 1)
        return rknnop::error("the VX kernel handles up to 3 dims, got dims[{}] = {} (use the CPU kernel)", d,
                             in.x.dim(d));
    ws = rknnop::work_size::grid(in.x.dim(0), in.x.dim(1), in.x.dim(2), 8);
    return rknnop::ok;
  };
};
RKNNOP_EXPORT_OP(Exp);

// SPDX-License-Identifier: MIT
// The DualResidual example's op (examples/dual_residual) with its kernel changed by one ulp in one
// element: out0's element 17 is nudged to the next float up. rknnop-run --replay with this plugin must
// name that element in a record the example's own plugin made (tests/rknpu2/record-replay.sh).
#include <rknnop/op.hpp>

#include <cmath>  // std::nextafter

struct DualResidualUlp {
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
    float alpha;
  };

  static constexpr auto infer = [](const inputs& in, outputs& out, const params&) {
    if (in.x.rank() != in.y.rank() || in.x.size() != in.y.size())
      return rknnop::error("x and y must have the same shape, got {} and {} elements", in.x.size(), in.y.size());
    out.out0.set_dims(in.x.dims());
    out.out1.set_dims(in.x.dims());
    out.out0.set_dtype(in.x.dtype());
    out.out1.set_dtype(in.x.dtype());
    return rknnop::ok;
  };

  static constexpr auto cpu = [](const inputs& in, outputs& out, const params& p) {
    for (std::size_t i = 0; i < in.x.size(); ++i) {
      const float x = in.x[i], y = in.y[i];
      const float out0 = x * p.alpha - y;
      out.out0[i] = i == 17 ? std::nextafter(out0, INFINITY) : out0;  // the one-ulp change
      out.out1[i] = y * p.alpha - x;
    }
    return rknnop::ok;
  };
};
RKNNOP_EXPORT_OP(DualResidualUlp);

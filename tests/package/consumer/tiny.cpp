// SPDX-License-Identifier: MIT
// The package tests' op: y = x * scale.
#include <rknnop/op.hpp>

struct Tiny {
  static constexpr std::string_view name = "Tiny";
  using values = rknnop::tensor<float, rknnop::float16>;
  struct inputs {
    values x;
  };
  struct outputs {
    values y;
  };
  struct params {
    float scale;
  };

  static constexpr auto infer = [](const inputs& in, outputs& out, const params&) { out.y.set_dims(in.x.dims()); };
  static constexpr auto cpu = [](const inputs& in, outputs& out, const params& p) {
    const float* x = in.x.data();
    float* y = out.y.data();
    for (std::size_t i = 0, n = in.x.size(); i < n; ++i) y[i] = x[i] * p.scale;
  };
};
RKNNOP_EXPORT_OP(Tiny);

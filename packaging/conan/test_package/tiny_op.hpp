// SPDX-License-Identifier: MIT
#pragma once
#include <rknnop/op.hpp>

// y = x * gain
struct Gain {
  static constexpr std::string_view name = "Gain";
  struct inputs {
    rknnop::tensor<float, rknnop::float16> x;
  };
  struct outputs {
    rknnop::tensor<float, rknnop::float16> y;
  };
  struct params {
    float gain;
  };
  static constexpr auto infer = [](const inputs& in, outputs& out, const params&) {
    out.y.set_dims(in.x.dims());
    return rknnop::ok;
  };
  static constexpr auto cpu = [](const inputs& in, outputs& out, const params& p) {
    for (std::size_t i = 0; i < in.x.size(); ++i) out.y[i] = in.x[i] * p.gain;
    return rknnop::ok;
  };
};

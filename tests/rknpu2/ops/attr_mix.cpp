// SPDX-License-Identifier: MIT
// An RKNPU2 op with one attribute of each ONNX type rknnop's params take, for rknnop-run's RKNPU2
// mode (tests/rknpu2/run_plugin.py): y = scale * x + shift + sum(weights), scale a FLOAT (default
// 0.5), shift an INT (required), weights INTS (at most 4, default [1, 2]).
#include <rknnop/op.hpp>

#include <cstdint>

struct AttrMix {
  struct inputs {
    rknnop::tensor<float, rknnop::float16> x;
  };
  struct outputs {
    rknnop::tensor<float, rknnop::float16> y;
  };
  struct params {
    float scale = 0.5f;
    std::int32_t shift;  // no default: the node must give it
    rknnop::int_array<4> weights = {1, 2};
  };
  static constexpr auto infer = [](const inputs& in, outputs& out, const params&) {
    out.y.set_dims(in.x.dims());
    out.y.set_dtype(in.x.dtype());
  };
  static constexpr auto cpu = [](const inputs& in, outputs& out, const params& p) {
    std::int64_t sum = 0;
    for (std::size_t k = 0; k < p.weights.size(); ++k) sum += p.weights[k];
    const float offset = static_cast<float>(p.shift) + static_cast<float>(sum);
    for (std::size_t i = 0; i < in.x.size(); ++i) out.y[i] = p.scale * in.x[i] + offset;
  };
};
RKNNOP_EXPORT_OP(AttrMix);

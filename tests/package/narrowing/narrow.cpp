// SPDX-License-Identifier: MIT
// An op with a default that does not convert exactly to its field's type (issue 31, item 4).
#include <rknnop/op.hpp>

#include <cstdint>

struct Narrow {
  struct inputs {
    rknnop::tensor<float> x;
  };
  struct outputs {
    rknnop::tensor<float> y;
  };
  struct params {
    std::int32_t block_size = 2.5;  // meant 2 or 3? op.yml and the kernel would say 2
  };
  static constexpr auto infer = [](const inputs& in, outputs& out, const params&) { out.y.set_dims(in.x.dims()); };
  static constexpr auto cpu = [](const inputs& in, outputs& out, const params& p) {
    for (std::size_t i = 0; i < in.x.size(); ++i) out.y[i] = in.x[i] * static_cast<float>(p.block_size);
  };
};
RKNNOP_EXPORT_OP(Narrow);

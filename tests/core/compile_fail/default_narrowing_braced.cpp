// SPDX-License-Identifier: MIT
// docs/first-op.md §4: a default written with braces cannot narrow (`std::int32_t block_size = 2.5;`
// would silently become 2, and op.yml, --describe and every tool would show 2).
#include <rknnop/op.hpp>

struct BracedDefault {
  static constexpr std::string_view name = "BracedDefault";
  struct inputs {
    rknnop::tensor<float> x;
  };
  struct outputs {
    rknnop::tensor<float> y;
  };
  struct params {
#ifdef RKNNOP_COMPILE_FAIL
    std::int32_t block_size{2.5};
#else
    std::int32_t block_size{2};
#endif
  };
  static constexpr auto infer = [](const inputs& in, outputs& out, const params&) {
    out.y.set_dims(in.x.dims(), in.x.rank());
    return rknnop::ok;
  };
  static constexpr auto cpu = [](const inputs& in, outputs& out, const params&) {
    for (std::size_t i = 0; i < in.x.size(); ++i) out.y[i] = in.x[i];
    return rknnop::ok;
  };
};
RKNNOP_EXPORT_OP(BracedDefault);

// SPDX-License-Identifier: MIT
// A std::vector param has no VX type; the twin uses rknnop::int_array.
#include <rknnop/op.hpp>
#ifdef RKNNOP_COMPILE_FAIL
#include <vector>
using pads_type = std::vector<int>;
#else
using pads_type = rknnop::int_array<4>;
#endif
struct BadParam {
  static constexpr std::string_view name = "BadParam";
  struct inputs {
    rknnop::tensor<float> x;
  };
  struct outputs {
    rknnop::tensor<float> y;
  };
  struct params {
    pads_type pads;
  };
  static constexpr auto infer = [](const inputs& in, outputs& out, const params&) {
    out.y.set_dims(in.x.dims());
    return rknnop::ok;
  };
  static constexpr auto cpu = [](const inputs&, outputs&, const params&) { return rknnop::ok; };
};
RKNNOP_EXPORT_OP(BadParam);

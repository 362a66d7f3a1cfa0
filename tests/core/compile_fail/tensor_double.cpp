// SPDX-License-Identifier: MIT
// A tensor of an element type no VX tensor has: the gate names the op, the field and the type.
#include <rknnop/op.hpp>
#ifdef RKNNOP_COMPILE_FAIL
using values_type = rknnop::tensor<float, double>;
#else
using values_type = rknnop::tensor<float, rknnop::float16>;
#endif
struct DoubleTensor {
  static constexpr std::string_view name = "DoubleTensor";
  struct inputs {
    values_type values;
  };
  struct outputs {
    rknnop::tensor<float> y;
  };
  static constexpr auto infer = [](const inputs&, outputs& out, const rknnop::no_params&) {
    out.y.set_dims({1});
    return rknnop::ok;
  };
  static constexpr auto cpu = [](const inputs&, outputs&, const auto&) { return rknnop::ok; };
};
RKNNOP_EXPORT_OP(DoubleTensor);

// SPDX-License-Identifier: MIT
// No shape inference.
#include <rknnop/op.hpp>
struct NoInfer {
  static constexpr std::string_view name = "NoInfer";
  struct inputs {
    rknnop::tensor<float> x;
  };
  struct outputs {
    rknnop::tensor<float> y;
  };
  struct params {};
#ifndef RKNNOP_COMPILE_FAIL
  static constexpr auto infer = [](const inputs&, outputs&, const params&) { return rknnop::ok; };
#endif
  static constexpr auto cpu = [](const inputs&, outputs&, const params&) { return rknnop::ok; };
};
RKNNOP_EXPORT_OP(NoInfer);

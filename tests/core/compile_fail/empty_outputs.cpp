// SPDX-License-Identifier: MIT
// An op with no output tensor.
#include <rknnop/op.hpp>
struct NoOutputs {
  static constexpr std::string_view name = "NoOutputs";
  struct inputs {
    rknnop::tensor<float> x;
  };
#ifdef RKNNOP_COMPILE_FAIL
  struct outputs {};
#else
  struct outputs {
    rknnop::tensor<float> y;
  };
#endif
  struct params {};
  static constexpr auto infer = [](const inputs&, outputs&, const params&) { return rknnop::ok; };
  static constexpr auto cpu = [](const inputs&, outputs&, const params&) { return rknnop::ok; };
};
RKNNOP_EXPORT_OP(NoOutputs);

// SPDX-License-Identifier: MIT
// An op with no input tensor.
#include <rknnop/op.hpp>
struct NoInputs {
  static constexpr std::string_view name = "NoInputs";
#ifdef RKNNOP_COMPILE_FAIL
  struct inputs {};
#else
  struct inputs {
    rknnop::tensor<float> x;
  };
#endif
  struct outputs {
    rknnop::tensor<float> y;
  };
  struct params {};
  static constexpr auto infer = [](const inputs&, outputs&, const params&) { return rknnop::ok; };
  static constexpr auto cpu = [](const inputs&, outputs&, const params&) { return rknnop::ok; };
};
RKNNOP_EXPORT_OP(NoInputs);

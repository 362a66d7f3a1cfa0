// SPDX-License-Identifier: MIT
// No CPU kernel.
#include <rknnop/op.hpp>
struct NoCpu {
  static constexpr std::string_view name = "NoCpu";
  struct inputs {
    rknnop::tensor<float> x;
  };
  struct outputs {
    rknnop::tensor<float> y;
  };
  struct params {};
  static constexpr auto infer = [](const inputs&, outputs&, const params&) { return rknnop::ok; };
#ifndef RKNNOP_COMPILE_FAIL
  static constexpr auto cpu = [](const inputs&, outputs&, const params&) { return rknnop::ok; };
#endif
};
RKNNOP_EXPORT_OP(NoCpu);

// SPDX-License-Identifier: MIT
// No `name`.
#include <rknnop/op.hpp>
struct Nameless {
#ifndef RKNNOP_COMPILE_FAIL
  static constexpr std::string_view name = "Nameless";
#endif
  struct inputs {
    rknnop::tensor<float> x;
  };
  struct outputs {
    rknnop::tensor<float> y;
  };
  struct params {};
  static constexpr auto infer = [](const inputs&, outputs&, const params&) { return rknnop::ok; };
  static constexpr auto cpu = [](const inputs&, outputs&, const params&) { return rknnop::ok; };
};
RKNNOP_EXPORT_OP(Nameless);

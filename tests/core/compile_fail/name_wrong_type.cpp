// SPDX-License-Identifier: MIT
// `name` is optional, but when given it is a string.
#include <rknnop/op.hpp>
struct Numbered {
#ifdef RKNNOP_COMPILE_FAIL
  static constexpr int name = 3;
#else
  static constexpr std::string_view name = "Numbered";
#endif
  struct inputs {
    rknnop::tensor<float> x;
  };
  struct outputs {
    rknnop::tensor<float> y;
  };
  static constexpr auto infer = [](const inputs&, outputs&, rknnop::no_params) { return rknnop::ok; };
  static constexpr auto cpu = [](const inputs&, outputs&, rknnop::no_params) { return rknnop::ok; };
};
RKNNOP_EXPORT_OP(Numbered);

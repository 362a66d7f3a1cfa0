// SPDX-License-Identifier: MIT
// The op's name is its struct's, and a template's instance ("Padded<2>") is no C identifier: such a
// struct declares `name` (the twin does).
#include <rknnop/op.hpp>
template <int N>
struct Padded {
#ifndef RKNNOP_COMPILE_FAIL
  static constexpr std::string_view name = "Padded2";
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
using Padded2 = Padded<2>;
RKNNOP_EXPORT_OP(Padded2);

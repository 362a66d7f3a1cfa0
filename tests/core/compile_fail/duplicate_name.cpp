// SPDX-License-Identifier: MIT
// An output named like an input: op.yml keys would collide.
#include <rknnop/op.hpp>
struct Dup {
  static constexpr std::string_view name = "Dup";
  struct inputs {
    rknnop::tensor<float> x;
  };
#ifdef RKNNOP_COMPILE_FAIL
  struct outputs {
    rknnop::tensor<float> x;
  };
#else
  struct outputs {
    rknnop::tensor<float> y;
  };
#endif
  struct params {
    float alpha;
  };
  static constexpr auto infer = [](const inputs&, outputs&, const params&) { return rknnop::ok; };
  static constexpr auto cpu = [](const inputs&, outputs&, const params&) { return rknnop::ok; };
};
RKNNOP_EXPORT_OP(Dup);

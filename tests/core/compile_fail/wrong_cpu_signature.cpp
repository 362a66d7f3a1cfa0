// SPDX-License-Identifier: MIT
// The CPU kernel takes its outputs by const reference (it could not write them).
#include <rknnop/op.hpp>
struct WrongCpu {
  static constexpr std::string_view name = "WrongCpu";
  struct inputs {
    rknnop::tensor<float> x;
  };
  struct outputs {
    rknnop::tensor<float> y;
  };
  struct params {};
  static constexpr auto infer = [](const inputs&, outputs&, const params&) { return rknnop::ok; };
#ifdef RKNNOP_COMPILE_FAIL
  static constexpr auto cpu = [](const inputs&, const outputs&, const params&, int) { return rknnop::ok; };
#else
  static rknnop::status cpu(const inputs&, outputs&, const params&) { return rknnop::ok; }
#endif
};
RKNNOP_EXPORT_OP(WrongCpu);

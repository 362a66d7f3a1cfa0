// SPDX-License-Identifier: MIT
// The work-size function forgets the work_size argument.
#include <rknnop/op.hpp>
struct WrongVx {
  static constexpr std::string_view name = "WrongVx";
  struct inputs {
    rknnop::tensor<float> x;
  };
  struct outputs {
    rknnop::tensor<float> y;
  };
  struct params {};
  static constexpr auto infer = [](const inputs&, outputs&, const params&) { return rknnop::ok; };
  static constexpr auto cpu = [](const inputs&, outputs&, const params&) { return rknnop::ok; };
#ifdef RKNNOP_COMPILE_FAIL
  static constexpr auto vx = [](const inputs&, const outputs&, const params&) { return rknnop::ok; };
#else
  static constexpr auto vx = [](const inputs&, const outputs&, const params&, rknnop::work_size& ws) {
    ws = rknnop::work_size::grid(1);
    return rknnop::ok;
  };
#endif
};
RKNNOP_EXPORT_OP(WrongVx);

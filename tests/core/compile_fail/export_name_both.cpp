// SPDX-License-Identifier: MIT
// The struct is exported under one name but declares another: the message spells both names.
#include <rknnop/op.hpp>
struct Renamed {
#ifdef RKNNOP_COMPILE_FAIL
  static constexpr std::string_view name = "SomethingElse";
#else
  static constexpr std::string_view name = "Renamed";
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
RKNNOP_EXPORT_OP(Renamed);

// SPDX-License-Identifier: MIT
// An enum param needs a name table (rknnop::customize::enum_names<E>); the twin has one.
#include <rknnop/op.hpp>
enum class pad_mode { reflect, symmetric };
#ifndef RKNNOP_COMPILE_FAIL
template <>
struct rknnop::customize::enum_names<pad_mode> {
  static constexpr rknnop::enum_name<pad_mode> table[] = {{pad_mode::reflect, "REFLECT"},
                                                          {pad_mode::symmetric, "SYMMETRIC"}};
};
#endif
struct Unnamed {
  static constexpr std::string_view name = "Unnamed";
  struct inputs {
    rknnop::tensor<float> x;
  };
  struct outputs {
    rknnop::tensor<float> y;
  };
  struct params {
    pad_mode mode;
  };
  static constexpr auto infer = [](const inputs&, outputs&, const params&) { return rknnop::ok; };
  static constexpr auto cpu = [](const inputs&, outputs&, const params&) { return rknnop::ok; };
};
RKNNOP_EXPORT_OP(Unnamed);

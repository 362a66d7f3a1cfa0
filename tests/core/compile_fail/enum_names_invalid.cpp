// SPDX-License-Identifier: MIT
// An enum name table with two names for one value; the twin's names are distinct.
#include <rknnop/op.hpp>
enum class pad_mode { reflect, symmetric };
#ifdef RKNNOP_COMPILE_FAIL
constexpr pad_mode second = pad_mode::reflect;  // the same value under two names
#else
constexpr pad_mode second = pad_mode::symmetric;
#endif
template <>
struct rknnop::customize::enum_names<pad_mode> {
  static constexpr rknnop::enum_name<pad_mode> table[] = {{pad_mode::reflect, "REFLECT"}, {second, "SYMMETRIC"}};
};
struct BadNames {
  static constexpr std::string_view name = "BadNames";
  struct inputs {
    rknnop::tensor<float> x;
  };
  struct outputs {
    rknnop::tensor<float> y;
  };
  struct params {
    pad_mode mode = pad_mode::reflect;
  };
  static constexpr auto infer = [](const inputs&, outputs&, const params&) { return rknnop::ok; };
  static constexpr auto cpu = [](const inputs&, outputs&, const params&) { return rknnop::ok; };
};
RKNNOP_EXPORT_OP(BadNames);

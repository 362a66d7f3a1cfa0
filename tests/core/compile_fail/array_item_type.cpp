// SPDX-License-Identifier: MIT
// Arrays reach kernels as int32 items only; a float array has no VX mapping.
#include <rknnop/op.hpp>
struct ArrayItems {
  static constexpr std::string_view name = "ArrayItems";
  struct inputs {
    rknnop::tensor<float> x;
  };
  struct outputs {
    rknnop::tensor<float> y;
  };
#ifdef RKNNOP_COMPILE_FAIL
  struct params {
    std::array<float, 2> dims;
  };
#else
  struct params {
    std::array<std::int32_t, 2> dims;
  };
#endif
  static constexpr auto infer = [](const inputs&, outputs&, const params&) { return rknnop::ok; };
  static constexpr auto cpu = [](const inputs&, outputs&, const params&) { return rknnop::ok; };
};
RKNNOP_EXPORT_OP(ArrayItems);

// SPDX-License-Identifier: MIT
// each_element's function takes two elements for an op with one input.
#include <rknnop/each_element.hpp>
#include <rknnop/op.hpp>

struct Twice {
  struct inputs {
    rknnop::tensor<float> x;
  };
  struct outputs {
    rknnop::tensor<float> y;
  };
  static constexpr auto infer = [](const inputs& in, outputs& out, rknnop::no_params) { out.y.set_dims(in.x.dims()); };
#ifdef RKNNOP_COMPILE_FAIL
  static constexpr auto cpu = rknnop::each_element([](float a, float b) { return a * b; });
#else
  static constexpr auto cpu = rknnop::each_element([](float a) { return a * 2.f; });
#endif
};
RKNNOP_EXPORT_OP(Twice);

// SPDX-License-Identifier: MIT
// An input that is not an rknnop::tensor.
#include <rknnop/op.hpp>
#ifdef RKNNOP_COMPILE_FAIL
using image_type = float;
#else
using image_type = rknnop::tensor<float>;
#endif
struct NotTensor {
  static constexpr std::string_view name = "NotTensor";
  struct inputs {
    image_type image;
  };
  struct outputs {
    rknnop::tensor<float> y;
  };
  static constexpr auto infer = [](const inputs&, outputs& out, const rknnop::no_params&) {
    out.y.set_dims({1});
    return rknnop::ok;
  };
  static constexpr auto cpu = [](const inputs&, outputs&, const auto&) { return rknnop::ok; };
};
RKNNOP_EXPORT_OP(NotTensor);

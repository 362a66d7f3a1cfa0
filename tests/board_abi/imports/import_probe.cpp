// SPDX-License-Identifier: MIT
// An op whose CPU kernel calls an OpenVX function that no board driver exports: rknnop_add_op's
// post-link check must fail its board libraries, naming the function and the board
// (board.import_check.add_op.*). Built only by those tests, never by ALL.
#include <rknnop/op.hpp>

extern "C" vx_status vxQueryTensorCompressedLayout(vx_tensor tensor);  // not in any board's libOpenVX

struct ImportProbe {
  static constexpr std::string_view name = "ImportProbe";
  using values = rknnop::tensor<float, rknnop::float16>;
  struct inputs {
    values x;
  };
  struct outputs {
    values y;
  };
  struct params {};

  static constexpr auto infer = [](const inputs& in, outputs& out, const params&) { out.y.set_dims(in.x.dims()); };
  static constexpr auto cpu = [](const inputs& in, outputs& out, const params&) {
    const float bias = vxQueryTensorCompressedLayout(nullptr) == VX_SUCCESS ? 1.f : 0.f;
    for (std::size_t i = 0, n = in.x.size(); i < n; ++i) out.y.data()[i] = in.x.data()[i] + bias;
  };
};
RKNNOP_EXPORT_OP(ImportProbe);

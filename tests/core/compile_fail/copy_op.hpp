// SPDX-License-Identifier: MIT
// The ports and kernels of a one-input copy op, for the compile_fail cases that are about the rest of
// an op struct (its name, its params): `struct Op : copy_op<op_params> { ... };`.
#pragma once
#include <rknnop/op.hpp>

template <class Params = rknnop::no_params>
struct copy_op {
  using params = Params;
  struct inputs {
    rknnop::tensor<float> x;
  };
  struct outputs {
    rknnop::tensor<float> y;
  };
  static constexpr auto infer = [](const inputs& in, outputs& out, const params&) {
    out.y.set_dims(in.x.dims(), in.x.rank());
    return rknnop::ok;
  };
  static constexpr auto cpu = [](const inputs& in, outputs& out, const params&) {
    for (std::size_t i = 0; i < in.x.size(); ++i) out.y[i] = in.x[i];
    return rknnop::ok;
  };
};

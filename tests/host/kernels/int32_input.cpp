// SPDX-License-Identifier: MIT
// Int32Output's consumer (tests/host/kernels/int32_output.cpp): an int32 input, float16 output
// (y = indices + 0.5), so that an int32 tensor between two custom ops can be run on the board stack.
#include <rknnop/op.hpp>

struct Int32Input {
  struct inputs {
    rknnop::tensor<std::int32_t, std::int32_t, rknnop::float16>
        indices;  // float16 too: rknnop-pack wrap makes float16 inputs
  };
  struct outputs {
    rknnop::tensor<float, rknnop::float16> y;
  };
  static constexpr auto infer = [](const inputs& in, outputs& out, const rknnop::no_params&) {
    out.y.set_dims(in.indices.dims());
    out.y.set_dtype(rknnop::dtype::float16);
    return rknnop::ok;
  };
  static constexpr auto cpu = [](const inputs& in, outputs& out, const rknnop::no_params&) {
    for (std::size_t i = 0; i < in.indices.size(); ++i) out.y[i] = static_cast<float>(in.indices[i]) + 0.5f;
    return rknnop::ok;
  };
};

RKNNOP_EXPORT_OP(Int32Input);

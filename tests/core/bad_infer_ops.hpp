// SPDX-License-Identifier: MIT
// Two tiny ops whose `infer` gives what no backend may take (issue 47: they were refused by RKNN v1
// only): a zero dim, and int8 for an output that holds float or float16. Every backend's test
// (tests/core/test_validator.cpp, tests/rknpu2/test_plugin.cpp, tests/mindspore/test_mindspore_lite.cpp)
// runs both and expects the same line after the backend's prefix: bad_infer_lines below.
#pragma once

#include <rknnop/op.hpp>

namespace rknnop::test {

struct ZeroDimInfer {
  static constexpr std::string_view name = "ZeroDimInfer";
  struct inputs {
    rknnop::tensor<float, rknnop::float16> x;
  };
  struct outputs {
    rknnop::tensor<float, rknnop::float16> y;
  };
  static constexpr auto infer = [](const inputs& in, outputs& out, const rknnop::no_params&) {
    out.y.set_dims({in.x.dims()[0], 0});
    return rknnop::ok;
  };
  static constexpr auto cpu = [](const inputs&, outputs&, const rknnop::no_params&) { return rknnop::ok; };
};

struct Int8Infer {
  static constexpr std::string_view name = "Int8Infer";
  struct inputs {
    rknnop::tensor<float, rknnop::float16> x;
  };
  struct outputs {
    rknnop::tensor<float, rknnop::float16> y;
  };
  static constexpr auto infer = [](const inputs& in, outputs& out, const rknnop::no_params&) {
    out.y.set_dims(in.x.dims());
    out.y.set_dtype(rknnop::dtype::int8);
    return rknnop::ok;
  };
  static constexpr auto cpu = [](const inputs& in, outputs& out, const rknnop::no_params&) {
    for (std::size_t i = 0; i < in.x.size(); ++i) out.y[i] = in.x[i];
    return rknnop::ok;
  };
};

// The line's body after "rknnop: <Op>: " on every backend.
inline constexpr const char* zero_dim_line = "output 'y': shape inference gave dims[1] = 0";
inline constexpr const char* int8_line =
    "output 'y': expected dtype VX_TYPE_FLOAT32 or VX_TYPE_FLOAT16, got VX_TYPE_INT8";

}  // namespace rknnop::test

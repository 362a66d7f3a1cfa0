// SPDX-License-Identifier: MIT
// Outputs whose kernel types are wider than their tensors' (float16, as the input's): `count` is
// int32 (offset + i: 2049 has no float16), `y` is float32 (x * scale: overflow, zero, subnormals).
// For the precision rule of output conversion (docs/running.md §1): tests/host/test_first_hour.cpp
// and the board comparison (board/CMakeLists.txt).
#include <rknnop/op.hpp>

struct NarrowingOutput {
  static constexpr std::string_view name = "NarrowingOutput";
  struct inputs {
    rknnop::tensor<float, rknnop::float16, float> x;
  };
  struct outputs {
    rknnop::tensor<std::int32_t, rknnop::float16, std::int32_t> count;
    rknnop::tensor<float, rknnop::float16, float> y;
  };
  struct params {
    std::int32_t offset = 0;
    float scale = 1.0f;
  };
  static constexpr auto infer = [](const inputs& in, outputs& out, const params&) {
    out.count.set_dims(in.x.dims());
    out.count.set_dtype(in.x.dtype());
    out.y.set_dims(in.x.dims());
    out.y.set_dtype(in.x.dtype());
    return rknnop::ok;
  };
  static constexpr auto cpu = [](const inputs& in, outputs& out, const params& p) {
    for (std::size_t i = 0; i < in.x.size(); ++i) {
      out.count[i] = p.offset + static_cast<std::int32_t>(i);
      out.y[i] = in.x[i] * p.scale;
    }
    return rknnop::ok;
  };
};

RKNNOP_EXPORT_OP(NarrowingOutput);

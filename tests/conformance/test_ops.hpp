// SPDX-License-Identifier: MIT
#pragma once
// The conformance suite's own ops: each one is a rule the examples do not reach (an `infer` that gives
// a zero dim or an int8 output for a float tensor, a kernel that writes nothing, a float32-only input,
// params with a narrow range). Compiled once per backend, like the examples.
#include <rknnop/op.hpp>

#include <cstdint>

// Writes x + 1 into y, whose `infer` gives a zero in dims[0].
struct ConfZeroDim {
  struct inputs {
    rknnop::tensor<float, rknnop::float16> x;
  };
  struct outputs {
    rknnop::tensor<float, rknnop::float16> y;
  };
  static constexpr auto infer = [](const inputs& in, outputs& out, rknnop::no_params) {
    std::uint32_t dims[6] = {};
    for (std::uint32_t d = 0; d < in.x.rank(); ++d) dims[d] = in.x.dim(d);
    dims[0] = 0;  // the innermost dim
    out.y.set_dims(dims, in.x.rank());
    return rknnop::ok;
  };
  static constexpr auto cpu = [](const inputs& in, outputs& out, rknnop::no_params) {
    for (std::size_t i = 0; i < out.y.size() && i < in.x.size(); ++i) out.y[i] = in.x[i] + 1.f;
    return rknnop::ok;
  };
};
RKNNOP_EXPORT_OP(ConfZeroDim);

// Its `infer` names int8 for an output that accepts float32 and float16 only.
struct ConfInt8Output {
  struct inputs {
    rknnop::tensor<float, rknnop::float16> x;
  };
  struct outputs {
    rknnop::tensor<float, rknnop::float16> y;
  };
  static constexpr auto infer = [](const inputs& in, outputs& out, rknnop::no_params) {
    out.y.set_dims(in.x.dims());
    out.y.set_dtype(rknnop::dtype::int8);
    return rknnop::ok;
  };
  static constexpr auto cpu = [](const inputs& in, outputs& out, rknnop::no_params) {
    for (std::size_t i = 0; i < in.x.size(); ++i) out.y[i] = in.x[i] * 2.f;
    return rknnop::ok;
  };
};
RKNNOP_EXPORT_OP(ConfInt8Output);

// A kernel that reports success and writes nothing.
struct ConfUnwritten {
  struct inputs {
    rknnop::tensor<float, rknnop::float16> x;
  };
  struct outputs {
    rknnop::tensor<float, rknnop::float16> y;
  };
  static constexpr auto infer = [](const inputs& in, outputs& out, rknnop::no_params) {
    out.y.set_dims(in.x.dims());
    return rknnop::ok;
  };
  static constexpr auto cpu = [](const inputs&, outputs&, rknnop::no_params) { return rknnop::ok; };
};
RKNNOP_EXPORT_OP(ConfUnwritten);

// A float32-only input, an int8 param and a bool param: y = x * small (+ 1 when flag).
struct ConfRanged {
  struct inputs {
    rknnop::tensor<float> x;
  };
  struct outputs {
    rknnop::tensor<float> y;
  };
  struct params {
    std::int8_t small = 1;
    bool flag = false;
  };
  static constexpr auto infer = [](const inputs& in, outputs& out, const params&) {
    out.y.set_dims(in.x.dims());
    return rknnop::ok;
  };
  static constexpr auto cpu = [](const inputs& in, outputs& out, const params& p) {
    for (std::size_t i = 0; i < in.x.size(); ++i) out.y[i] = in.x[i] * float(p.small) + (p.flag ? 1.f : 0.f);
    return rknnop::ok;
  };
};
RKNNOP_EXPORT_OP(ConfRanged);

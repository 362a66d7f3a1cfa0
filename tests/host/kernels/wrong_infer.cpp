// SPDX-License-Identifier: MIT
// An op with a deliberately wrong `infer`: the output is `shrink` elements shorter than what `cpu`
// writes, and `cpu` starts writing `before` elements before the output's start (or past a scratch
// buffer, `scratch_overrun`). For the guard bytes
// of RKNNOP_GUARD_BUFFERS (tests/host/test_first_hour.cpp); shrink = before = 0 is a correct copy.
#include <rknnop/op.hpp>

struct WrongInfer {
  static constexpr std::string_view name = "WrongInfer";
  struct inputs {
    rknnop::tensor<float, rknnop::float16> x;
  };
  struct outputs {
    rknnop::tensor<float, rknnop::float16> y;
  };
  struct params {
    std::int32_t shrink = 1;
    std::int32_t before = 0;
    bool scratch_overrun = false;  // write one element past an rknnop::buffer instead
  };
  static constexpr auto infer = [](const inputs& in, outputs& out, const params& p) {
    out.y.set_dims({static_cast<std::uint32_t>(in.x.size() - static_cast<std::size_t>(p.shrink))});
    out.y.set_dtype(in.x.dtype());
    return rknnop::ok;
  };
  static constexpr auto cpu = [](const inputs& in, outputs& out, const params& p) {
    if (p.scratch_overrun) {
      rknnop::buffer<float> scratch(in.x.size());
      if (!scratch) return rknnop::error("out of memory");
      for (std::size_t i = 0; i <= in.x.size(); ++i) scratch.data()[i] = 1.0f;  // one too many
    }
    float* y = out.y.data() - p.before;  // the bug under test: writes outside the output
    for (std::size_t i = 0; i < in.x.size(); ++i) y[i] = in.x[i] + 1.0f;
    return rknnop::ok;
  };
};

RKNNOP_EXPORT_OP(WrongInfer);

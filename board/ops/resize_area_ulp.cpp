// SPDX-License-Identifier: MIT
// The ResizeArea example's op (examples/resize_area) with its kernel changed by one ulp in one element:
// output element 17 is nudged one float16 ulp up (float16 is the type the board's output tensor holds).
// rknnop-run --replay with this op must name that element in a record the example's own instrumented
// board library made (board/record-replay.sh).
#include <rknnop/op.hpp>
#include <rknnop/separable.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>

struct ResizeAreaUlp {
  using image = rknnop::tensor<rknnop::layout::nhwc, float, rknnop::float16>;
  struct inputs {
    image images;
  };
  struct outputs {
    image output;
  };
  struct params {
    std::array<std::int32_t, 2> size;
    bool align_corners;
  };
  static constexpr std::string_view python_output_shape = "[[inputs_shape[0][0], *params['size'], inputs_shape[0][3]]]";

  // Input cells per output cell: (in-1)/(out-1) with align_corners and out > 1, else in/out.
  // in == 1 with align_corners would give TensorFlow's NaN; rknnop replicates the row instead.
  static float scale(std::int64_t in, std::int64_t out, bool align) {
    return align && out > 1 && in > 1 ? float(in - 1) / float(out - 1) : float(in) / float(out);
  }
  // Output cell o covers input [o*s, (o+1)*s); f(clamped input index, overlap with cell [i, i+1)).
  template <class F>
  static void cells(std::int64_t in, float s, std::int64_t o, F&& f) {
    const float a = float(o) * s, b = float(o + 1) * s;
    for (auto i = std::int64_t(std::floor(a)); i < std::int64_t(std::ceil(b)); ++i) {
      const float lo = float(i), hi = float(i + 1);  // as TensorFlow: s when the cell spans both ends
      f(std::size_t(std::clamp<std::int64_t>(i, 0, in - 1)), lo < a ? (hi > b ? s : hi - a) : (hi > b ? b - lo : 1.f));
    }
  }

  static constexpr auto infer = [](const inputs& in, outputs& out, const params& p) {
    if (p.size[0] <= 0 || p.size[1] <= 0) return rknnop::error("size must be > 0, got [{}, {}]", p.size[0], p.size[1]);
    out.output.set_shape(in.images.n(), std::uint32_t(p.size[0]), std::uint32_t(p.size[1]), in.images.c());
    return rknnop::ok;
  };

  // Like TensorFlow: per output pixel, sum over rows of (weighted row sum * row weight), then scale.
  static constexpr auto cpu = [](const inputs& in, outputs& out, const params& p) {
    const auto& src = in.images;
    auto& dst = out.output;
    const float sy = scale(src.h(), dst.h(), p.align_corners), sx = scale(src.w(), dst.w(), p.align_corners);
    // An output cell covers at most s + 2 input cells (one more for the rounding of o * s).
    rknnop::separable area({dst.h(), src.h(), std::size_t(sy) + 3}, {dst.w(), src.w(), std::size_t(sx) + 3}, src.c());
    for (auto y = 0u; y < dst.h(); ++y) cells(src.h(), sy, y, [&](auto i, float w) { area.rows.add(y, i, w); });
    for (auto x = 0u; x < dst.w(); ++x) cells(src.w(), sx, x, [&](auto i, float w) { area.columns.add(x, i, w); });
    const float norm = float(1.0 / double(sy * sx));  // TensorFlow: 1.0 is a double
    if (!area.run(src.data(), dst.data(), src.n(), norm)) return rknnop::error("out of memory");
    if (dst.size() > 17) {  // the one-ulp change: element 17 one float16 ulp up (the board's output type)
      const rknnop::float16 h(dst.data()[17]);
      dst.data()[17] = float(rknnop::float16::from_bits(static_cast<std::uint16_t>(h.bits() + 1)));
    }
    return rknnop::ok;
  };
};
RKNNOP_EXPORT_OP(ResizeAreaUlp);

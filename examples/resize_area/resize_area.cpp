// SPDX-License-Identifier: MIT
// TensorFlow's ResizeArea as an RKNN custom op: every output pixel is the exact average of the input
// area it covers (fractional edge cells weighted, indices clamped, float32 accumulation).
#include <rknnop/op.hpp>
#include <rknnop/parallel.hpp>
#include <rknnop/rows.hpp>

#include <cmath>

struct ResizeArea {
  static constexpr std::string_view name = "ResizeArea";
  using image = rknnop::tensor<rknnop::layout::nhwc, float, rknnop::float16>;
  struct inputs { image images; };
  struct outputs { image output; };
  struct params { std::array<std::int32_t, 2> size; bool align_corners; };
  // For the toolkit's Python op class: output shapes (NHWC lists) and TensorFlow's own computation.
  static constexpr std::string_view python_output_shape =
      "[[inputs_shape[0][0], *params['size'], inputs_shape[0][3]]]";
  static constexpr std::string_view python_compute = "[tf.image.resize_area(inputs_tensor[0], **params)]";

  // Input cells per output cell: (in-1)/(out-1) with align_corners and out > 1, else in/out.
  // in == 1 with align_corners would give TensorFlow's NaN; rknnop replicates the row instead.
  static float scale(std::int64_t in, std::int64_t out, bool align) {
    const float s = align && out > 1 ? float(in - 1) / float(out - 1) : 0.f;
    return s > 0.f ? s : float(in) / float(out);
  }
  // Output cell o covers input [o*s, (o+1)*s); f(clamped input index, overlap with cell [i, i+1)).
  template <class F> static void cells(std::int64_t in, float s, std::int64_t o, F&& f) {
    const float a = float(o) * s;
    const float b = float(o + 1) * s;
    for (auto i = std::int64_t(std::floor(a)); i < std::int64_t(std::ceil(b)); ++i)
      f(i < 0 ? 0 : (i < in ? i : in - 1),
        float(i) < a ? (float(i + 1) > b ? s : float(i + 1) - a) : (float(i + 1) > b ? b - float(i) : 1.f));
  }

  static constexpr auto infer = [](const inputs& in, outputs& out, const params& p) {
    if (p.size[0] <= 0 || p.size[1] <= 0)
      return rknnop::error("size must be > 0, got [{}, {}]", p.size[0], p.size[1]);
    out.output.set_shape(in.images.n(), std::uint32_t(p.size[0]), std::uint32_t(p.size[1]), in.images.c());
    return rknnop::ok;
  };

  // Like TensorFlow: per output pixel, sum over rows of (weighted row sum * row weight), then scale.
  // Separable: the cells of columns and rows are tabulated once per call; each input row's weighted
  // sums are computed once per range of output rows, and the ranges run on the board's cores.
  static constexpr auto cpu = [](const inputs& in, outputs& out, const params& p) {
    const auto& src = in.images;
    auto& dst = out.output;
    const float sy = scale(src.h(), dst.h(), p.align_corners);
    const float sx = scale(src.w(), dst.w(), p.align_corners);
    const std::size_t WC = std::size_t(dst.w()) * src.c();
    // Column and row cells; sx + 3 (sy + 3) taps > the cells an output covers.
    rknnop::tap_table columns(dst.w(), src.w(), std::size_t(sx) + 3, src.c());
    rknnop::tap_table rows(dst.h(), src.h(), std::size_t(sy) + 3, 1);
    for (auto [t, n, in_n, s] : {std::tuple{&columns, dst.w(), src.w(), sx}, std::tuple{&rows, dst.h(), src.h(), sy}})
      for (std::uint32_t o = 0; o < n; ++o) cells(in_n, s, o, [&, t = t](auto i, float w) { t->add(o, i, w); });
    const std::size_t floats_per_row = WC + std::size_t(sy + 1) * src.w() * src.c();  // a range: >= 64K floats
    const float norm = float(1.0 / double(sy * sx));  // TensorFlow: 1.0 is a double
    const auto range = [&](std::size_t begin, std::size_t end) {  // output rows of every image
      rknnop::tap_rows sums(columns);  // each input row's weighted column sums, computed once
      for (std::size_t row = begin; sums && row < end; ++row)
        sums.combine(dst.data() + row * WC, &src(row / dst.h(), 0, 0, 0), src.h(), rows, row % dst.h(), norm);
      return bool(sums);
    };
    const std::size_t out_rows = std::size_t(dst.n()) * dst.h();
    const bool ok = columns && rows && rknnop::parallel_for(out_rows, 65536 / floats_per_row + 1, range);
    return ok ? rknnop::ok : rknnop::error("out of memory");
  };

  // VX kernel (resize_area.vx): one work-item per output element (x = channel, y = column, z = row).
  static constexpr auto vx = [](const inputs&, const outputs& out, const params&, rknnop::work_size& ws) {
    ws = rknnop::work_size::grid(out.output.c(), out.output.w(), out.output.h());
    return out.output.n() == 1 ? rknnop::ok : rknnop::error("the VX kernel takes batch 1, got {}", out.output.n());
  };
};
RKNNOP_EXPORT_OP(ResizeArea);

// SPDX-License-Identifier: MIT
// TensorFlow's QuantizedMaxPool as an RKNN custom op: max pooling of quint8 NHWC images (VALID or
// SAME padding), three outputs (pooled image, min_output, max_output) and every param kind: float
// scalars, an int32 scalar and int32 arrays. See README.md for how TensorFlow's op maps to these.
#include <rknnop/op.hpp>

#include <algorithm>

struct QuantizedMaxPool {
  // quint8 in TensorFlow; the board delivers float16, which holds 0..255 exactly.
  using image = rknnop::tensor<rknnop::layout::nhwc, std::uint8_t, rknnop::float16, float>;
  using range = rknnop::tensor<float, rknnop::float16>;
  struct inputs {
    image input;
  };
  struct outputs {
    image output;
    range min_output;
    range max_output;
  };
  struct params {
    float min_input;                      // the float value of the quint8 code 0
    float max_input;                      // and of the code 255
    std::array<std::int32_t, 4> ksize;    // NHWC window: [1, height, width, 1]
    std::array<std::int32_t, 4> strides;  // NHWC: [1, rows, cols, 1]
    std::int32_t padding;                 // 0 = "VALID", 1 = "SAME" (op params cannot be strings)
  };

  // TensorFlow's windowed output size, and the padding before the first window (SAME only).
  static std::int64_t out_size(std::int64_t in, std::int64_t k, std::int64_t s, bool same) {
    return same ? (in + s - 1) / s : (in - k + s) / s;
  }
  static std::int64_t pad_before(std::int64_t in, std::int64_t out, std::int64_t k, std::int64_t s, bool same) {
    return same ? std::max<std::int64_t>((out - 1) * s + k - in, 0) / 2 : 0;
  }

  static constexpr auto infer = [](const inputs& in, outputs& out, const params& p) {
    if (p.ksize[0] != 1 || p.ksize[3] != 1 || p.strides[0] != 1 || p.strides[3] != 1)
      return rknnop::error(
          "pooling over the batch or depth dimension is not supported: ksize [{},{},{},{}], "
          "strides [{},{},{},{}]",
          p.ksize[0], p.ksize[1], p.ksize[2], p.ksize[3], p.strides[0], p.strides[1], p.strides[2], p.strides[3]);
    if (p.ksize[1] < 1 || p.ksize[2] < 1 || p.strides[1] < 1 || p.strides[2] < 1)
      return rknnop::error("ksize and strides must be >= 1, got ksize [1,{},{},1], strides [1,{},{},1]", p.ksize[1],
                           p.ksize[2], p.strides[1], p.strides[2]);
    if (p.padding != 0 && p.padding != 1)
      return rknnop::error("padding must be 0 (VALID) or 1 (SAME), got {}", p.padding);
    const auto h = out_size(in.input.h(), p.ksize[1], p.strides[1], p.padding);
    const auto w = out_size(in.input.w(), p.ksize[2], p.strides[2], p.padding);
    if (h < 1 || w < 1)
      return rknnop::error("VALID pooling of a {}x{} image with a {}x{} window gives no output", in.input.h(),
                           in.input.w(), p.ksize[1], p.ksize[2]);
    out.output.set_shape(in.input.n(), std::uint32_t(h), std::uint32_t(w), in.input.c());
    out.min_output.set_dims({1});  // TensorFlow's 0-D scalars; OpenVX tensors have rank >= 1
    out.max_output.set_dims({1});
    return rknnop::ok;
  };

  // Padding cells never win (TensorFlow pads with the lowest value): windows are clipped to the image.
  static constexpr auto cpu = [](const inputs& in, outputs& out, const params& p) {
    const auto& src = in.input;
    auto& dst = out.output;
    const std::int64_t H = src.h();
    const std::int64_t W = src.w();
    const std::int64_t C = src.c();
    const std::int64_t kh = p.ksize[1];
    const std::int64_t kw = p.ksize[2];
    const std::int64_t top = pad_before(H, dst.h(), kh, p.strides[1], p.padding);
    const std::int64_t left = pad_before(W, dst.w(), kw, p.strides[2], p.padding);
    for (std::uint32_t n = 0; n < dst.n(); ++n)
      for (std::int64_t oy = 0; oy < dst.h(); ++oy)
        for (std::int64_t ox = 0; ox < dst.w(); ++ox) {
          std::uint8_t* pixel = &dst(n, std::size_t(oy), std::size_t(ox), 0);
          std::fill_n(pixel, C, std::uint8_t{0});
          const std::int64_t y0 = oy * p.strides[1] - top;
          const std::int64_t x0 = ox * p.strides[2] - left;
          const std::int64_t x_begin = std::max<std::int64_t>(x0, 0) * C;
          const std::int64_t x_end = std::min(x0 + kw, W) * C;
          for (std::int64_t y = std::max<std::int64_t>(y0, 0); y < std::min(y0 + kh, H); ++y) {
            const std::uint8_t* row = &src(n, std::size_t(y), 0, 0);  // the window's cells: row[x_begin, x_end)
            for (std::int64_t i = x_begin; i < x_end; i += C)
              for (std::int64_t c = 0; c < C; ++c) pixel[c] = std::max(pixel[c], row[i + c]);
          }
        }
    out.min_output[0] = p.min_input;  // max pooling does not change the quantization range
    out.max_output[0] = p.max_input;
  };

  // VX kernel (quantized_max_pool.vx): one work-item per output element (x = channel, y = column,
  // z = row); batch 1 only, as the shader's image has three dims.
  static constexpr auto vx = [](const inputs& in, const outputs& out, const params&, rknnop::work_size& ws) {
    if (in.input.n() != 1)
      return rknnop::error("the VX kernel handles batch 1, got {} (use the CPU kernel)", in.input.n());
    ws = rknnop::work_size::grid(out.output.c(), out.output.w(), out.output.h());
    return rknnop::ok;
  };
};
RKNNOP_EXPORT_OP(QuantizedMaxPool);

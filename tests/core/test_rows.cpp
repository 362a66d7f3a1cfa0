// SPDX-License-Identifier: MIT
// <rknnop/rows.hpp> against plain scalar loops (bit for bit), and the separable ResizeArea kernel
// against the previous per-pixel kernel (TensorFlow's float order, written out below) on random
// shapes: every channel count through the 4-lane and the scalar paths, up- and downscales.
#include "resize_area/resize_area.cpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

namespace {

// The kernel before the separable rewrite, verbatim in its arithmetic: per output pixel and
// channel, sum over rows of (weighted row sum * row weight), then scale.
void per_pixel_reference(const ResizeArea::inputs& in, ResizeArea::outputs& out, const ResizeArea::params& p) {
  const auto& src = in.images;
  auto& dst = out.output;
  const float sy = ResizeArea::scale(src.h(), dst.h(), p.align_corners);
  const float sx = ResizeArea::scale(src.w(), dst.w(), p.align_corners);
  const std::size_t C = src.c(), W = dst.w();
  for (std::uint32_t n = 0; n < dst.n(); ++n)
    for (std::uint32_t oy = 0; oy < dst.h(); ++oy) {
      float* row_out = &dst(n, oy, 0, 0);
      for (std::size_t i = 0; i < W * C; ++i) row_out[i] = 0.f;
      ResizeArea::cells(src.h(), sy, oy, [&](std::int64_t y, float wy) {
        for (std::size_t ox = 0; ox < W; ++ox)
          for (std::size_t c = 0; c < C; ++c) {
            float row = 0.f;
            ResizeArea::cells(src.w(), sx, std::int64_t(ox),
                              [&](std::int64_t x, float wx) { row += src(n, std::size_t(y), std::size_t(x), c) * wx; });
            row_out[ox * C + c] += row * wy;
          }
      });
      for (std::size_t i = 0; i < W * C; ++i) row_out[i] *= float(1.0 / double(sy * sx));
    }
}

// ResizeArea::cpu against the per-pixel loop on the same NHWC images (n, h, w, c) -> (oh, ow): the
// first output element whose bits differ, -1 when every one agrees, -2 when the kernel failed.
std::ptrdiff_t first_difference(std::vector<float>& src, std::uint32_t n, std::uint32_t h, std::uint32_t w,
                                std::uint32_t c, std::uint32_t oh, std::uint32_t ow, bool align) {
  std::vector<float> a(std::size_t(n) * oh * ow * c, -1.f), b(a.size(), -2.f);
  const std::uint32_t in_dims[4] = {c, w, h, n}, out_dims[4] = {c, ow, oh, n};
  ResizeArea::inputs in;
  ResizeArea::outputs out_a, out_b;
  in.images.bind(src.data(), in_dims, 4, VX_TYPE_FLOAT32);
  out_a.output.bind(a.data(), out_dims, 4, VX_TYPE_FLOAT32);
  out_b.output.bind(b.data(), out_dims, 4, VX_TYPE_FLOAT32);
  const ResizeArea::params p{{std::int32_t(oh), std::int32_t(ow)}, align};
  per_pixel_reference(in, out_a, p);
  if (!ResizeArea::cpu(in, out_b, p).ok()) return -2;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::bit_cast<std::uint32_t>(a[i]) != std::bit_cast<std::uint32_t>(b[i])) return std::ptrdiff_t(i);
  return -1;
}

TEST(Rows, SeparableResizeAreaIsBitIdenticalToThePerPixelKernel) {
  std::mt19937 rng(77);
  std::uniform_real_distribution<float> value(-500.f, 500.f);
  for (int trial = 0; trial < 300; ++trial) {
    auto pick = [&](std::uint32_t m) { return 1u + static_cast<std::uint32_t>(rng() % m); };
    const std::uint32_t n = pick(2), h = pick(40), w = pick(40), c = pick(7), oh = pick(45), ow = pick(45);
    std::vector<float> src(std::size_t(n) * h * w * c);
    for (float& v : src) v = value(rng);
    const bool align = rng() % 2 == 0;
    ASSERT_EQ(first_difference(src, n, h, w, c, oh, ow, align), -1)
        << n << "x" << h << "x" << w << "x" << c << " -> " << oh << "x" << ow << " align " << align;
  }
}

// Inputs built for what ARMv7 NEON does differently from scalar code: subnormal inputs and results
// (flushed to zero there), signed zeros, NaN payloads (NEON returns the default NaN) and infinities
// (their NaNs, inf - inf). The kernel must match the scalar per-pixel loop bit for bit on every
// instruction set: ARMv7 keeps its 4 lanes only where a check proves them exact (rows.hpp).
TEST(Rows, SeparableResizeAreaIsExactOnSubnormalsSignedZerosNaNsAndInfinities) {
  std::mt19937 rng(31);
  const float min = std::numeric_limits<float>::min();
  std::uniform_real_distribution<float> tiny(-4.f * min, 4.f * min), normal(-2.f, 2.f);
  // One NaN per trial: which of two different NaNs an addition keeps is the compiler's operand order.
  const std::uint32_t nans[] = {0x7FC01234u, 0xFFC05678u, 0x7F800001u /* signalling */};
  for (int trial = 0; trial < 120; ++trial) {
    auto pick = [&](std::uint32_t m) { return 1u + static_cast<std::uint32_t>(rng() % m); };
    const std::uint32_t h = 8 + pick(24), w = 4 + pick(24), c = 2 + pick(3), oh = pick(20), ow = pick(20);
    std::vector<float> src(std::size_t(h) * w * c);
    const int kind = trial % 4;  // tiny values; tiny and a NaN; normal values and infinities; all of them once
    for (float& v : src) {
      const std::uint32_t r = rng() % 16;
      v = kind == 2 ? normal(rng) : tiny(rng);
      if (r == 0) v = -0.f;
      if (r == 1) v = 0.f;
      if (r == 2 && (kind == 1 || kind == 3)) v = std::bit_cast<float>(nans[trial / 4 % 3]);
      if (r == 3 && kind >= 2)
        v = rng() % 2 ? std::numeric_limits<float>::infinity() : -std::numeric_limits<float>::infinity();
      if (r == 4)
        v = std::bit_cast<float>(std::uint32_t(rng() % 0x800000u) | (rng() % 2 ? 0x80000000u : 0u));  // subnormal
    }
    if (kind == 3) std::fill(src.begin(), src.end() - 1, 1.f), src.back() = -min / 8;  // one flush in a normal image
    const bool align = rng() % 2 == 0;
    ASSERT_EQ(first_difference(src, 1, h, w, c, oh, ow, align), -1)
        << "kind " << kind << ", " << h << "x" << w << "x" << c << " -> " << oh << "x" << ow << " align " << align;
  }
}

// Small maps (at most 256 output floats, a tiny image's) go straight from the taps, without row
// buffers (separable::run): the same bits as the per-pixel loop, on every value class, batches of
// images, up- and downscales, both sides of the size where the row buffers take over.
TEST(Rows, SeparableSmallMapsAreBitIdenticalToThePerPixelKernel) {
  std::mt19937 rng(4242);
  const float min = std::numeric_limits<float>::min();
  std::uniform_real_distribution<float> value(-3.f, 3.f);
  int small = 0, large = 0;
  for (int trial = 0; trial < 400; ++trial) {
    auto pick = [&](std::uint32_t m) { return 1u + static_cast<std::uint32_t>(rng() % m); };
    const std::uint32_t n = pick(3), h = pick(12), w = pick(12), c = pick(4), oh = pick(12), ow = pick(12);
    (std::size_t(n) * oh * ow * c <= 256 ? small : large) += 1;
    std::vector<float> src(std::size_t(n) * h * w * c);
    for (float& v : src) {
      const auto r = rng() % 12;
      v = value(rng);
      if (r == 0) v = -0.f;
      if (r == 1) v = std::bit_cast<float>(std::uint32_t(rng() % 0x800000u) | (rng() % 2 ? 0x80000000u : 0u));
      if (r == 2) v = -min / 4;
      if (r == 3 && trial % 5 == 0) v = std::bit_cast<float>(0x7FC04321u);  // one NaN payload per trial
    }
    const bool align = rng() % 2 == 0;
    ASSERT_EQ(first_difference(src, n, h, w, c, oh, ow, align), -1)
        << n << "x" << h << "x" << w << "x" << c << " -> " << oh << "x" << ow << " align " << align;
  }
  EXPECT_GT(small, 100) << large;  // both sides of the 256-float bound were tried
  EXPECT_GT(large, 50) << small;
}

// An output row without row taps is +0 on both paths (no scale applied: -1 would make it -0), and the
// others are the sums written out.
TEST(Rows, SeparableRowWithoutTapsIsPositiveZeroForSmallAndLargeMaps) {
  for (const std::size_t width : {4u, 200u}) {  // 2x2x3 outputs (taps direct), 2x100x3 (row buffers)
    const std::size_t channels = 3, out_w = width / 2;
    rknnop::separable map({2, 2, 1}, {out_w, width, 1}, channels);
    map.rows.add(0, 1, 2.f);  // output row 1: no taps
    for (std::size_t x = 0; x < out_w; ++x) map.columns.add(x, 2 * x, 0.5f);
    std::vector<float> in(2 * width * channels), out(2 * out_w * channels, 7.f);
    for (std::size_t i = 0; i < in.size(); ++i) in[i] = float(i % 13) - 6.f;
    ASSERT_TRUE(map.run(in.data(), out.data(), 1, -1.f));
    for (std::size_t x = 0; x < out_w; ++x)
      for (std::size_t c = 0; c < channels; ++c) {
        const float expected = (0.f + (0.f + in[(width + 2 * x) * channels + c] * 0.5f) * 2.f) * -1.f;
        EXPECT_EQ(std::bit_cast<std::uint32_t>(out[x * channels + c]), std::bit_cast<std::uint32_t>(expected))
            << "width " << width << " x " << x << " c " << c;
        EXPECT_EQ(std::bit_cast<std::uint32_t>(out[(out_w + x) * channels + c]), 0u) << "width " << width;
      }
  }
}

#if defined(RKNNOP_DETAIL_FLOAT4) && !defined(RKNNOP_DETAIL_FLOAT4_IEEE)
// ARMv7: the check behind the lanes sees a flushed input, a flushed result and a NaN, and only them.
TEST(Rows, ArmV7LaneCheckSeesFlushesAndNaNs) {
  using rknnop::detail::checked_lanes;
  const float min = std::numeric_limits<float>::min();
  auto lanes_exact = [](float x0, float w) {
    float in[4] = {x0, 1.f, 2.f, 3.f}, out[4];
    const unsigned saved = checked_lanes::start();
    rknnop::detail::store4(out, rknnop::detail::load4(in) * w);
    return checked_lanes::exact(saved, out, 4);
  };
  EXPECT_TRUE(lanes_exact(0.5f, 0.25f));
  EXPECT_TRUE(lanes_exact(-0.f, 0.25f));
  EXPECT_FALSE(lanes_exact(min / 4, 1.f));                            // a subnormal input
  EXPECT_FALSE(lanes_exact(min, 0.25f));                              // a subnormal result
  EXPECT_FALSE(lanes_exact(std::bit_cast<float>(0x7FC01234u), 1.f));  // a NaN
}
#endif

TEST(Rows, TapTableMatchesScalarSumsForEveryChannelCount) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> value(-10.f, 10.f);
  for (std::size_t channels = 1; channels <= 6; ++channels) {
    const std::size_t inputs = 9, outputs = 7, max_taps = 4;
    rknnop::tap_table table(outputs, inputs, max_taps, channels);
    std::vector<std::vector<std::pair<std::size_t, float>>> taps(outputs);
    for (std::size_t o = 0; o < outputs; ++o)
      for (std::size_t k = 0; k < 1 + rng() % max_taps; ++k) {
        const std::size_t i = o + 2 >= inputs || rng() % 3 == 0 ? inputs - 1 : rng() % inputs;  // the last pixel often
        taps[o].push_back({i, value(rng)});
        table.add(o, i, taps[o].back().second);
      }
    ASSERT_TRUE(table);
    std::vector<float> in(inputs * channels), out(outputs * channels, -7.f);
    for (float& v : in) v = value(rng);
    table.apply(in.data(), out.data());
    for (std::size_t o = 0; o < outputs; ++o)
      for (std::size_t c = 0; c < channels; ++c) {
        float sum = 0.f;
        for (auto [i, w] : taps[o]) sum += in[i * channels + c] * w;
        EXPECT_EQ(std::memcmp(&sum, &out[o * channels + c], sizeof sum), 0) << channels << " " << o << " " << c;
      }
  }
}

// A random table over `inputs` pixels of `channels` channels, and its sums written out per element.
struct random_taps {
  rknnop::tap_table table;
  std::vector<std::vector<std::pair<std::size_t, float>>> taps;
  random_taps(std::mt19937& rng, std::size_t outputs, std::size_t inputs, std::size_t channels)
      : table(outputs, inputs, 5, channels), taps(outputs) {
    std::uniform_real_distribution<float> weight(-2.f, 2.f);
    for (std::size_t o = 0; o < outputs; ++o)
      for (std::size_t k = 0, n = 1 + rng() % 5; k < n; ++k) {
        const std::size_t i = rng() % 4 == 0 ? inputs - 1 : rng() % inputs;
        taps[o].push_back({i, weight(rng)});
        table.add(o, i, taps[o].back().second);
      }
  }
  float sum(const float* row, std::size_t o, std::size_t c, std::size_t channels) const {
    float s = 0.f;
    for (auto [i, w] : taps[o]) s += row[i * channels + c] * w;
    return s;
  }
};

TEST(Rows, TapTableAppliedToSeveralRowsMatchesScalarSumsPerRow) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> value(-10.f, 10.f);
  for (std::size_t channels = 1; channels <= 6; ++channels)
    for (std::size_t rows : {1u, 3u, 4u, 5u, 9u}) {  // the 4-row blocks, the single-row tail, and both
      const std::size_t inputs = 11, outputs = 8, in_stride = inputs * channels + 5,
                        out_stride = outputs * channels + 3;
      random_taps t(rng, outputs, inputs, channels);
      ASSERT_TRUE(t.table);
      std::vector<float> in(rows * in_stride), out(rows * out_stride, -7.f);
      for (float& v : in) v = value(rng);
      t.table.apply(in.data(), out.data(), rows, in_stride, out_stride);
      for (std::size_t r = 0; r < rows; ++r) {
        for (std::size_t o = 0; o < outputs; ++o)
          for (std::size_t c = 0; c < channels; ++c) {
            const float expected = t.sum(in.data() + r * in_stride, o, c, channels);
            EXPECT_EQ(std::memcmp(&expected, &out[r * out_stride + o * channels + c], sizeof expected), 0)
                << channels << " channels, " << rows << " rows: row " << r << " output " << o << " channel " << c;
          }
        for (std::size_t i = outputs * channels; i < out_stride; ++i)
          EXPECT_EQ(out[r * out_stride + i], -7.f) << "wrote between rows: row " << r << " float " << i;
      }
    }
}

TEST(Rows, TapRowsReturnsEveryRowsSumsInAnyOrderOfRequests) {
  std::mt19937 rng(13);
  std::uniform_real_distribution<float> value(-10.f, 10.f);
  for (std::size_t channels : {1u, 3u, 4u}) {
    const std::size_t inputs = 10, outputs = 6, height = 7, images = 2, row = inputs * channels;
    random_taps t(rng, outputs, inputs, channels);
    rknnop::tap_rows sums(t.table);
    ASSERT_TRUE(sums);
    std::vector<float> in(images * height * row);
    for (float& v : in) v = value(rng);
    // In order (each row a few times, as a downscale asks), backwards, and at random, across images.
    std::vector<std::pair<std::size_t, std::size_t>> requests;
    for (std::size_t n = 0; n < images; ++n)
      for (std::size_t y = 0; y < height; ++y)
        for (std::size_t k = 0; k < 1 + y % 3; ++k) requests.push_back({n, y});
    for (std::size_t y = height; y-- > 0;) requests.push_back({0, y});
    for (int k = 0; k < 60; ++k) requests.push_back({rng() % images, rng() % height});
    EXPECT_EQ(sums(in.data(), height, height), nullptr);  // past the last row
    for (auto [n, y] : requests) {
      const float* image = in.data() + n * height * row;
      const float* got = sums(image, height, y);
      ASSERT_NE(got, nullptr);
      for (std::size_t o = 0; o < outputs; ++o)
        for (std::size_t c = 0; c < channels; ++c) {
          const float expected = t.sum(image + y * row, o, c, channels);
          ASSERT_EQ(std::memcmp(&expected, &got[o * channels + c], sizeof expected), 0)
              << channels << " channels: image " << n << " row " << y << " output " << o << " channel " << c;
        }
    }
  }
}

TEST(Rows, TapTableRejectsOutOfRangeTaps) {
  rknnop::tap_table table(2, 3, 1, 3);
  table.add(0, 2, 1.f);
  EXPECT_TRUE(table);
  table.add(0, 1, 1.f);  // a second tap where at most one fits
  EXPECT_FALSE(table);
  rknnop::tap_table input_range(2, 3, 2, 3), output_range(2, 3, 2, 3);
  input_range.add(1, 3, 1.f);
  output_range.add(2, 0, 1.f);
  EXPECT_FALSE(input_range);
  EXPECT_FALSE(output_range);
  // A row of 2^32 floats or more: its offsets would not fit the taps' 32 bits; no table at all.
  rknnop::tap_table too_wide(1, std::size_t{1} << 31, 1, 2), widest(1, 0xFFFFFFFFu, 1, 1);
  EXPECT_FALSE(too_wide);
  EXPECT_TRUE(widest);
  // Sizes whose product overflows: refused, not wrapped around.
  rknnop::tap_table huge(~std::size_t{0} / 4, 1, 4, 1);
  EXPECT_FALSE(huge);
}

// A table of a tiny image lives in the object, a larger one on the heap: the same sums either way.
TEST(Rows, SmallAndLargeTapTablesGiveTheSameSums) {
  for (const std::size_t outputs : {2u, 300u}) {
    rknnop::tap_table table(outputs, outputs * 2, 2, 3);
    for (std::size_t o = 0; o < outputs; ++o) table.add(o, 2 * o + 1, 0.25f), table.add(o, 2 * o, 1.5f);
    ASSERT_TRUE(table);
    std::vector<float> in(outputs * 2 * 3), out(outputs * 3, -9.f);
    for (std::size_t i = 0; i < in.size(); ++i) in[i] = float(i) * 0.125f - 3.f;
    table.apply(in.data(), out.data());
    for (std::size_t o = 0; o < outputs; ++o)
      for (std::size_t c = 0; c < 3; ++c)
        EXPECT_EQ(out[o * 3 + c], (0.f + in[(2 * o + 1) * 3 + c] * 0.25f) + in[2 * o * 3 + c] * 1.5f)
            << outputs << " outputs, output " << o;
  }
}

TEST(Rows, RowOperationsMatchScalarLoops) {
  std::mt19937 rng(9);
  std::uniform_real_distribution<float> value(-3.f, 3.f);
  for (std::size_t n = 1; n < 19; ++n) {  // 1..18: the 4-lane part, the tail, and both
    std::vector<float> acc(n), x(n), out(n + 1, 42.f), expected(n);
    for (std::size_t i = 0; i < n; ++i) acc[i] = value(rng), x[i] = value(rng);
    const float w = value(rng);
    for (std::size_t i = 0; i < n; ++i) expected[i] = acc[i] + x[i] * w;
    rknnop::add_product(out.data(), acc.data(), x.data(), w, n);
    EXPECT_EQ(std::memcmp(out.data(), expected.data(), n * sizeof(float)), 0) << n;
    EXPECT_EQ(out[n], 42.f) << "wrote past n = " << n;
    for (std::size_t i = 0; i < n; ++i) expected[i] = 0.f + x[i] * w;
    rknnop::add_product(out.data(), nullptr, x.data(), w, n);
    EXPECT_EQ(std::memcmp(out.data(), expected.data(), n * sizeof(float)), 0) << n;
    for (std::size_t i = 0; i < n; ++i) expected[i] = out[i] * w;
    rknnop::multiply(out.data(), w, n);
    EXPECT_EQ(std::memcmp(out.data(), expected.data(), n * sizeof(float)), 0) << n;
    EXPECT_EQ(out[n], 42.f) << "wrote past n = " << n;
  }
  const float negative_zero = -0.f, one = 1.f;  // 0 + (-0 * 1) is +0, as in TensorFlow's sums
  float out = 5.f;
  rknnop::add_product(&out, nullptr, &negative_zero, one, 1);
  EXPECT_FALSE(std::signbit(out));
}

}  // namespace

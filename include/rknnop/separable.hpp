// SPDX-License-Identifier: MIT
#pragma once

// A separable linear map of NHWC float images, exact in float32 and fast: per channel,
//   out(n, y, x) = (sum over the row taps (i, wi) of y of wi * h(n, i, x)) * scale,
//   h(n, i, x)   =  sum over the column taps (j, wj) of x of wj * in(n, i, j),
// each sum starting from 0 and adding in the order its taps were added (TensorFlow's order for area
// resampling, so results are bit-identical to the per-pixel loop). The tuned parts are named here so
// a kernel reads as its algorithm: each input row's column sums h are computed once per range of
// output rows (rknnop::tap_rows, <rknnop/rows.hpp>), and the ranges run on the board's cores
// (rknnop::parallel_for, <rknnop/parallel.hpp>), with the same result for any thread count.
//
//   rknnop::separable map({out_h, in_h, max_row_taps}, {out_w, in_w, max_column_taps}, channels);
//   map.rows.add(y, i, wi); map.columns.add(x, j, wj); ...
//   if (!map.run(in.data(), out.data(), images, scale)) ...   // out of memory, or a tap out of range

#include <rknnop/config.hpp>    // RKNNOP_DETAIL_BEGIN_GLUE
#include <rknnop/parallel.hpp>  // rknnop::parallel_for
#include <rknnop/rows.hpp>      // rknnop::tap_table, rknnop::tap_rows

#include <cstddef>  // std::size_t
#include <cstdint>  // std::uint32_t

namespace rknnop {

class separable {
public:
  struct axis {
    std::size_t outputs, inputs, max_taps;  // max_taps: the most taps any output of this axis gets
  };

  separable(axis rows_axis, axis columns_axis, std::size_t channels) noexcept
      : rows(rows_axis.outputs, rows_axis.inputs, rows_axis.max_taps, 1),
        columns(columns_axis.outputs, columns_axis.inputs, columns_axis.max_taps, channels) {}

  tap_table rows;     // output row y <- input rows i, weights wi (one channel: whole rows)
  tap_table columns;  // output column x <- input columns j, weights wj, for every channel

  // `images` dense images in, out. False when a table could not be allocated or a tap was out of
  // range (tap_table's bool), or a range's row buffers could not be allocated.
  bool run(const float* in, float* out, std::size_t images, float scale) const noexcept {
    if (!rows || !columns) return false;
    const std::size_t out_h = rows.output_floats(), in_h = rows.input_floats();
    const std::size_t out_row = columns.output_floats(), in_row = columns.input_floats();
    // A small map (a tiny image's): each output straight from its taps, on the calling thread.
    const std::size_t outputs = images * out_h * out_row;
    if (outputs <= 256 && rows.max_taps_ <= 64 && columns.max_taps_ <= 64 &&
        outputs * rows.max_taps_ * columns.max_taps_ <= 16384)
      return direct(in, out, images, scale), true;
    // An output row reads about in_h / out_h + 1 input rows: a range gets >= 64K floats of work.
    const std::size_t floats_per_row = out_row + (in_h / (out_h ? out_h : 1) + 1) * in_row;
    // Output rows [begin, end) of every image, in 4 lanes or not (ARMv7, see below).
    auto range = [&](std::size_t begin, std::size_t end, [[maybe_unused]] bool lanes) {
      tap_rows sums(columns);  // each input row's column sums, computed once
#ifndef RKNNOP_DETAIL_FLOAT4_IEEE
      sums.lanes_ = lanes;
#endif
      bool fine = bool(sums);
      for (std::size_t row = begin; fine && row < end; ++row)
        fine = sums.combine(out + row * out_row, in + row / out_h * in_h * in_row, in_h, rows, row % out_h, scale);
      return fine;
    };
    return parallel_for(images * out_h, 65536 / (floats_per_row ? floats_per_row : 1) + 1,
                        [&](std::size_t begin, std::size_t end) {
#if defined(RKNNOP_DETAIL_FLOAT4) && !defined(RKNNOP_DETAIL_FLOAT4_IEEE)
                          // ARMv7 NEON: kept where nothing was flushed and no NaN came out (bit-identical
                          // to scalar code then), else the range again on the scalar path.
                          const unsigned saved = detail::checked_lanes::start();
                          if (range(begin, end, true) &&
                              detail::checked_lanes::exact(saved, out + begin * out_row, (end - begin) * out_row))
                            return true;
                          return range(begin, end, false);
#else
                          return range(begin, end, true);
#endif
                        });
  }

private:
  // Output (n, y, x, c) = (sum over the row taps (i, wi) of (sum over the column taps (j, wj) of
  // in(n, i, j, c) * wj) * wi) * scale, each sum from 0 in tap order: what tap_rows and combine
  // compute, one output at a time (scalar: exact on ARMv7 too). No row taps: +0, as combine.
  void direct(const float* in, float* out, std::size_t images, float scale) const noexcept;
  // The same for an RGB image (3 channels): each output pixel's channels summed side by side, each
  // channel's sums in the same order as direct's (so the same bits). RGB only: each such loop adds
  // about 1.6% to every op's compile (resize_area.cpp, g++ -O2, instructions).
  void direct_rgb(const float* in, float* out, std::size_t images, float scale) const noexcept;
};

inline void separable::direct_rgb(const float* in, float* out, std::size_t images, float scale) const noexcept {
  constexpr std::size_t channels = 3;
  const std::size_t out_h = rows.outputs_, out_w = columns.outputs_;
  const std::size_t in_row = columns.input_floats(), image = rows.inputs_ * in_row;
  for (std::size_t r = 0; r < images * out_h; ++r) {  // output row r % out_h of image r / out_h
    const tap_table::tap* const vertical = rows.taps_ + r % out_h * rows.max_taps_;
    const std::uint32_t k = rows.count_[r % out_h];
    const float* const first = in + r / out_h * image;
    for (std::size_t x = 0; x < out_w; ++x, out += channels) {
      const tap_table::tap* const horizontal = columns.taps_ + x * columns.max_taps_;
      const std::uint32_t m = columns.count_[x];
#ifdef RKNNOP_DETAIL_FLOAT4_IEEE
      // The 3 channels in 4 IEEE lanes (the 4th, 0, is never stored): one multiply and one add per
      // tap for all three, each lane the scalar loop's sums in its order (the same bits).
      detail::float4 sum{};
      for (const tap_table::tap *v = vertical, *v_end = vertical + k; v != v_end; ++v) {
        const float* const row = first + v->offset * in_row;
        detail::float4 h{};
        for (const tap_table::tap *t = horizontal, *t_end = horizontal + m; t != t_end; ++t)
          h += detail::load3(row + t->offset) * t->weight;
        sum += h * v->weight;
      }
      const detail::float4 scaled = sum * scale;
      out[0] = k ? scaled[0] : 0.f;
      out[1] = k ? scaled[1] : 0.f;
      out[2] = k ? scaled[2] : 0.f;
#else
      float sum[channels] = {};
      for (std::uint32_t i = 0; i < k; ++i) {
        const float* const row = first + vertical[i].offset * in_row;
        float h[channels] = {};
        for (std::uint32_t j = 0; j < m; ++j) {
          const float* const cell = row + horizontal[j].offset;
          const float w = horizontal[j].weight;
#pragma GCC unroll 3
          for (std::size_t c = 0; c < channels; ++c) h[c] += cell[c] * w;
        }
#pragma GCC unroll 3
        for (std::size_t c = 0; c < channels; ++c) sum[c] += h[c] * vertical[i].weight;
      }
#pragma GCC unroll 3
      for (std::size_t c = 0; c < channels; ++c) out[c] = k ? sum[c] * scale : 0.f;
#endif
    }
  }
}

// Compiled for size in board libraries (RKNNOP_COMPACT_GLUE): it runs on tiny images only, where the
// call's fixed costs dominate, and a board library has a size budget (docs/performance.md §3).
RKNNOP_DETAIL_BEGIN_GLUE
inline void separable::direct(const float* in, float* out, std::size_t images, float scale) const noexcept {
#if !RKNNOP_COMPACT_GLUE  // (an RKNN v1 board library keeps the one loop below: its size budget)
  // RGB: a tiny image's call is mostly this loop's setup per channel and tap.
  if (columns.channels_ == 3) return direct_rgb(in, out, images, scale);
#endif
  const std::size_t out_h = rows.outputs_, out_w = columns.outputs_, channels = columns.channels_;
  const std::size_t in_row = columns.input_floats(), image = rows.inputs_ * in_row;
  for (std::size_t r = 0; r < images * out_h; ++r) {  // output row r % out_h of image r / out_h
    const tap_table::tap* const vertical = rows.taps_ + r % out_h * rows.max_taps_;
    const std::uint32_t k = rows.count_[r % out_h];
    const float* const first = in + r / out_h * image;
    for (std::size_t x = 0; x < out_w; ++x) {
      const tap_table::tap* const horizontal = columns.taps_ + x * columns.max_taps_;
      const std::uint32_t m = columns.count_[x];
      for (std::size_t c = 0; c < channels; ++c) {
        float sum = 0.f;
        for (std::uint32_t i = 0; i < k; ++i) {
          const float* const row = first + vertical[i].offset * in_row + c;
          float h = 0.f;
          for (std::uint32_t j = 0; j < m; ++j) h += row[horizontal[j].offset] * horizontal[j].weight;
          sum += h * vertical[i].weight;
        }
        *out++ = k ? sum * scale : 0.f;
      }
    }
  }
}
RKNNOP_DETAIL_END_GLUE

}  // namespace rknnop

// SPDX-License-Identifier: MIT
#pragma once
// The per-pixel kernel that bench/README.md once proposed (column cells tabulated once per call,
// channel loop innermost), kept as an independent reference: the same float operations in the same
// order as TensorFlow, so tests/examples/test_resize_area_candidate.cpp checks that the example's
// separable kernel is bit-identical to it on random inputs. Include after the ResizeArea example.
#include <rknnop/types.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>

struct resize_area_candidate {
  static rknnop::status cpu(const ResizeArea::inputs& in, ResizeArea::outputs& out, const ResizeArea::params& p) {
    const auto& src = in.images;
    auto& dst = out.output;
    const float sy = ResizeArea::scale(src.h(), dst.h(), p.align_corners);
    const float sx = ResizeArea::scale(src.w(), dst.w(), p.align_corners);
    const auto norm = float(1.0 / double(sy * sx));
    const std::size_t C = src.c(), W = dst.w();
    struct cell {
      std::size_t offset;
      float weight;
    };  // offset of the input column in a row
    rknnop::buffer<std::size_t> count(W);
    std::size_t K = 0;
    for (std::size_t ox = 0; ox < W; ++ox) {
      ResizeArea::cells(src.w(), sx, std::int64_t(ox), [&](std::int64_t, float) { ++count[ox]; });
      K = std::max(K, count[ox]);
    }
    rknnop::buffer<cell> cols(W * K);
    rknnop::buffer<float> acc(C);
    if (!count || !cols || !acc) return rknnop::error("out of memory");
    for (std::size_t ox = 0, k = 0; ox < W; ++ox, k = 0)
      ResizeArea::cells(src.w(), sx, std::int64_t(ox), [&](std::int64_t x, float w) {
        cols[ox * K + k++] = {std::size_t(x) * C, w};
      });
    for (std::uint32_t n = 0; n < dst.n(); ++n)
      for (std::uint32_t oy = 0; oy < dst.h(); ++oy) {
        float* row_out = &dst(n, oy, 0, 0);
        std::fill_n(row_out, W * C, 0.f);
        ResizeArea::cells(src.h(), sy, oy, [&](std::int64_t y, float wy) {
          const float* row_in = &src(n, std::size_t(y), 0, 0);
          for (std::size_t ox = 0; ox < W; ++ox) {
            std::fill_n(acc.data(), C, 0.f);
            for (std::size_t k = 0; k < count[ox]; ++k)
              for (std::size_t c = 0; c < C; ++c)
                acc[c] += row_in[cols[ox * K + k].offset + c] * cols[ox * K + k].weight;
            for (std::size_t c = 0; c < C; ++c) row_out[ox * C + c] += acc[c] * wy;
          }
        });
        for (std::size_t i = 0; i < W * C; ++i) row_out[i] *= norm;
      }
    return rknnop::ok;
  }
};

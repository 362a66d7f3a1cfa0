// SPDX-License-Identifier: MIT
// The faster ResizeArea CPU kernel proposed in bench/resize_area_candidate.hpp must be bit-identical
// to the example's kernel (which is TensorFlow-exact) on random inputs, for down- and upscales,
// fractional scales, align_corners and any channel count.
#include "resize_area/resize_area.cpp"

#include "../../bench/resize_area_candidate.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

namespace {

struct shape {
  std::uint32_t n, h, w, c, out_h, out_w;
  bool align;
};

TEST(ResizeAreaCandidate, BitIdenticalToTheExampleKernel) {
  std::mt19937 rng(2024);
  std::uniform_real_distribution<float> value(-1000.f, 1000.f);
  const shape cases[] = {{1, 480, 640, 3, 240, 320, false}, {1, 480, 640, 3, 206, 274, false},
                         {2, 17, 23, 5, 7, 9, false},       {1, 9, 13, 1, 9, 13, false},
                         {1, 5, 7, 2, 11, 16, false},       {1, 31, 29, 4, 10, 13, true},
                         {1, 1, 6, 3, 3, 2, true},          {3, 8, 8, 2, 3, 5, false}};
  for (const shape& s : cases) {
    std::vector<float> src(std::size_t(s.n) * s.h * s.w * s.c), a(std::size_t(s.n) * s.out_h * s.out_w * s.c),
        b(a.size(), -1.f);
    for (float& v : src) v = value(rng);
    const std::uint32_t in_dims[4] = {s.c, s.w, s.h, s.n}, out_dims[4] = {s.c, s.out_w, s.out_h, s.n};
    ResizeArea::inputs in;
    ResizeArea::outputs out_a, out_b;
    in.images.bind(src.data(), in_dims, 4, VX_TYPE_FLOAT32);
    out_a.output.bind(a.data(), out_dims, 4, VX_TYPE_FLOAT32);
    out_b.output.bind(b.data(), out_dims, 4, VX_TYPE_FLOAT32);
    ResizeArea::params p{};
    p.size = {std::int32_t(s.out_h), std::int32_t(s.out_w)};
    p.align_corners = s.align;
    ResizeArea::cpu(in, out_a, p);
    ASSERT_TRUE(resize_area_candidate::cpu(in, out_b, p).ok());
    EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(float)), 0)
        << s.h << "x" << s.w << "x" << s.c << " -> " << s.out_h << "x" << s.out_w << " align " << s.align;
  }
}

}  // namespace

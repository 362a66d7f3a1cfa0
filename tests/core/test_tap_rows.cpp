// SPDX-License-Identifier: MIT
// rknnop::tap_rows::combine (<rknnop/rows.hpp>): an output row of a vertical tap table, against the
// same float operations written out, for consecutive rows, rows far apart (the second row's group
// replaces the first one's: one row per pass) and rows near the image's end (the last group shifted).
#include <rknnop/rows.hpp>

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <utility>
#include <vector>

namespace {

constexpr std::size_t width = 37, channels = 3, height = 41;

struct fixture {
  std::vector<float> image = std::vector<float>(height * width * channels);
  rknnop::tap_table columns{width / 2, width, 3, channels};
  fixture() {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> dist(-10.f, 10.f);
    for (float& v : image) v = dist(rng);
    for (std::size_t o = 0; o < width / 2; ++o) columns.add(o, 2 * o, 0.75f), columns.add(o, 2 * o + 1, 0.25f);
  }
  // Row y through the column taps, written out: (0 + a * 0.75) + b * 0.25 per element.
  std::vector<float> row(std::size_t y) const {
    std::vector<float> out(width / 2 * channels);
    for (std::size_t o = 0; o < width / 2; ++o)
      for (std::size_t c = 0; c < channels; ++c) {
        float sum = 0.f;
        sum += image[(y * width + 2 * o) * channels + c] * 0.75f;
        sum += image[(y * width + 2 * o + 1) * channels + c] * 0.25f;
        out[o * channels + c] = sum;
      }
    return out;
  }
  // ((0 + row(y0) * w0) + row(y1) * w1 + ...) * scale, written out.
  std::vector<float> expected(const std::vector<std::pair<std::size_t, float>>& taps, float scale) const {
    std::vector<float> out(width / 2 * channels, 0.f);
    for (auto [y, w] : taps) {
      const auto r = row(y);
      for (std::size_t i = 0; i < out.size(); ++i) out[i] += r[i] * w;
    }
    for (float& v : out) v *= scale;
    return out;
  }
};

TEST(TapRows, CombineMatchesTheWrittenOutSumWhereverTheRowsAre) {
  fixture f;
  ASSERT_TRUE(f.columns);
  const std::vector<std::vector<std::pair<std::size_t, float>>> outputs = {
      {{0, 0.5f}, {1, 1.f}, {2, 0.25f}},             // consecutive, in the first group
      {{7, 1.f}, {8, 0.3f}},                         // across two groups
      {{5, 0.7f}, {30, 0.2f}},                       // far apart: 30's group replaces 5's (asked after 20's)
      {{39, 1.f}, {40, 0.5f}, {40, 0.5f}},           // the image's last rows (last group shifted), repeated
      {{12, 0.1f}, {3, 0.9f}, {33, 1.f}, {0, 2.f}},  // any order
      {{17, 1.f}},
  };
  rknnop::tap_table vertical(outputs.size(), height, 4, 1);
  for (std::size_t o = 0; o < outputs.size(); ++o)
    for (auto [y, w] : outputs[o]) vertical.add(o, y, w);
  ASSERT_TRUE(vertical);
  std::vector<float> out(width / 2 * channels, -1.f);
  rknnop::tap_rows shared(f.columns);
  ASSERT_TRUE(shared);
  for (bool fresh : {false, true})  // one tap_rows for all outputs, or a new one per output
    for (std::size_t o = 0; o < outputs.size(); ++o) {
      rknnop::tap_rows own(f.columns);
      ASSERT_TRUE(own);
      rknnop::tap_rows& sums = fresh ? own : shared;
      if (fresh && o == 2) {  // rows 0-7 filled, then 20-27: the next group asked for replaces 0-7
        ASSERT_NE(sums(f.image.data(), height, 0), nullptr);
        ASSERT_NE(sums(f.image.data(), height, 20), nullptr);
      }
      ASSERT_TRUE(sums.combine(out.data(), f.image.data(), height, vertical, o, 0.125f)) << "output " << o;
      const auto want = f.expected(outputs[o], 0.125f);
      ASSERT_EQ(std::memcmp(out.data(), want.data(), want.size() * sizeof(float)), 0)
          << "output " << o << (fresh ? ", fresh" : ", shared");
    }
  rknnop::tap_rows sums(f.columns);
  EXPECT_FALSE(sums.combine(out.data(), f.image.data(), height, vertical, outputs.size(), 1.f));
}

}  // namespace

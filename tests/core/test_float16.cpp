// SPDX-License-Identifier: MIT
// float16 conversions: exact for every half, round-to-nearest-even towards half, bulk == scalar.
#include <rknnop/float16.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

using rknnop::float16;

namespace {

// Independent reference: decode by the IEEE formula in double.
double half_value(std::uint16_t h) {
  const int sign = (h >> 15) ? -1 : 1;
  const int e = (h >> 10) & 0x1F;
  const int m = h & 0x3FF;
  if (e == 0) return sign * std::ldexp(double(m), -24);
  if (e == 31) return m ? std::nan("") : sign * static_cast<double>(INFINITY);
  return sign * std::ldexp(double(1024 + m), e - 25);
}

TEST(Float16, EveryHalfDecodesExactly) {
  for (std::uint32_t h = 0; h <= 0xFFFF; ++h) {
    const float f = float16::to_float(static_cast<std::uint16_t>(h));
    const double expected = half_value(static_cast<std::uint16_t>(h));
    if (std::isnan(expected)) {
      EXPECT_TRUE(std::isnan(f)) << h;
    } else {
      EXPECT_EQ(static_cast<double>(f), expected) << std::hex << h;
    }
  }
}

TEST(Float16, EveryHalfRoundTrips) {
  for (std::uint32_t h = 0; h <= 0xFFFF; ++h) {
    const auto bits = static_cast<std::uint16_t>(h);
    if ((bits & 0x7C00) == 0x7C00 && (bits & 0x3FF)) continue;  // NaN payloads may be quietened
    EXPECT_EQ(float16::from_float(float16::to_float(bits)), bits) << std::hex << h;
  }
}

// Reference rounding: pick the nearer of the two neighbouring halves, ties to even mantissa.
std::uint16_t reference_round(float f) {
  if (std::isnan(f)) return 0x7E00;
  const double x = f;
  std::uint16_t best = 0;
  double best_err = INFINITY;
  for (std::uint32_t h = 0; h < 0x7C00; ++h) {  // finite magnitudes
    const double err = std::fabs(std::fabs(x) - half_value(static_cast<std::uint16_t>(h)));
    if (err < best_err || (err == best_err && (h & 1) == 0)) {
      best_err = err;
      best = static_cast<std::uint16_t>(h);
    }
  }
  // Past the largest half by at least half an ulp: infinity.
  if (std::fabs(x) >= 65520.0) best = 0x7C00;
  return static_cast<std::uint16_t>(best | (std::signbit(f) ? 0x8000 : 0));
}

TEST(Float16, RoundsToNearestEvenLikeTheReference) {
  std::mt19937 rng(42);
  std::vector<float> samples = {0.f,
                                -0.f,
                                1.f,
                                65504.f,
                                65519.f,
                                65520.f,
                                1e-8f,
                                2.98023224e-8f,
                                2.98023239e-8f,
                                5.96046448e-8f,
                                6.1035156e-5f,
                                6.09755516e-5f,
                                1.00048828125f,
                                1.0009765625f,
                                1.00146484375f,
                                -2.5f,
                                3.14159f,
                                1e6f,
                                -1e6f};
  std::uniform_real_distribution<float> exponent(-26.f, 17.f);
  for (int i = 0; i < 300; ++i) samples.push_back((i % 2 ? -1.f : 1.f) * std::exp2(exponent(rng)));
  for (float f : samples) EXPECT_EQ(float16(f).bits(), reference_round(f)) << f;
  EXPECT_EQ(float16(INFINITY).bits(), 0x7C00);
  EXPECT_TRUE(std::isnan(static_cast<float>(float16(NAN))));
}

TEST(Float16, ConstexprMatchesRuntime) {
  constexpr float16 third(1.f / 3.f);
  static_assert(third.bits() == 0x3555);
  static_assert(static_cast<float>(float16::from_bits(0x3C00)) == 1.0f);
  EXPECT_EQ(float16(1.f / 3.f).bits(), third.bits());
}

TEST(Float16, BulkConversionEqualsScalar) {
  std::vector<float16> halves(0x10000);
  for (std::uint32_t h = 0; h <= 0xFFFF; ++h) halves[h] = float16::from_bits(static_cast<std::uint16_t>(h));
  std::vector<float> floats(halves.size());
  rknnop::convert(halves.data(), floats.data(), halves.size());
  for (std::uint32_t h = 0; h <= 0xFFFF; ++h) {
    const float scalar = float16::to_float(static_cast<std::uint16_t>(h));
    if (std::isnan(scalar))
      EXPECT_TRUE(std::isnan(floats[h]));
    else
      EXPECT_EQ(std::bit_cast<std::uint32_t>(floats[h]), std::bit_cast<std::uint32_t>(scalar)) << h;
  }
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-70000.f, 70000.f);
  std::vector<float> in(1003);
  for (float& f : in) f = dist(rng) * (rng() % 2 ? 1e-4f : 1.f);
  std::vector<float16> out(in.size());
  rknnop::convert(in.data(), out.data(), in.size());
  for (std::size_t i = 0; i < in.size(); ++i) EXPECT_EQ(out[i].bits(), float16(in[i]).bits()) << in[i];
}

// The same bits; on x86 without F16C at compile time, NaN as NaN (the scalar path keeps a signalling
// NaN's quiet bit clear, F16C sets it).
bool same_bits(float a, float b) {
#if defined(__x86_64__) || defined(__i386__)
  if (std::isnan(a) && std::isnan(b)) return true;
#endif
  return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b);
}

// Bulk conversions against the scalar one bit for bit, NaN payloads included, on blocks that mix
// normal values with what ARMv7 NEON converts differently (subnormals, NaNs, float16-tiny floats):
// there the bulk path keeps NEON only for blocks without them. Out of place and in place.
TEST(Float16, BulkConversionIsBitIdenticalToScalarOnMixedBlocks) {
  std::mt19937 rng(21);
  std::vector<std::uint16_t> bits(0x10000);
  for (std::uint32_t h = 0; h <= 0xFFFF; ++h) bits[h] = static_cast<std::uint16_t>(h);
  std::shuffle(bits.begin(), bits.end(), rng);
  // Mostly normal blocks, some with one odd value: every path of the block check.
  for (std::size_t i = 0; i < bits.size(); ++i)
    if (i % 64 < 48) bits[i] = static_cast<std::uint16_t>(0x3C00 + rng() % 0x0800);
  const std::size_t n = bits.size();
  std::vector<float> floats(n), in_place(n);
  rknnop::convert(reinterpret_cast<const float16*>(bits.data()), floats.data(), n);
  std::memcpy(reinterpret_cast<char*>(in_place.data()) + n * 2, bits.data(), n * 2);
  rknnop::convert(reinterpret_cast<const float16*>(reinterpret_cast<char*>(in_place.data()) + n * 2), in_place.data(),
                  n);
  for (std::size_t i = 0; i < n; ++i) {
    const float scalar = float16::to_float(bits[i]);
    ASSERT_TRUE(same_bits(floats[i], scalar)) << std::hex << bits[i];
    ASSERT_TRUE(same_bits(in_place[i], scalar)) << std::hex << bits[i] << " in place";
  }
  // float -> float16: random bit patterns (NaN payloads, subnormals, tiny and huge values) among
  // float16-range ones.
  const std::size_t m = 4096;
  std::vector<float> source(m);
  std::uniform_real_distribution<float> normal(-1000.f, 1000.f);
  for (std::size_t i = 0; i < m; ++i)
    source[i] = i % 32 < 24 ? normal(rng) : std::bit_cast<float>(std::uint32_t(rng()));
  for (std::size_t i = 0; i < m; i += 97)
    source[i] = std::bit_cast<float>(0x7FC00000u | std::uint32_t(rng() % 0x400000));
  std::vector<float16> halves(m);
  std::vector<float> narrowed = source;
  rknnop::convert(source.data(), halves.data(), m);
  rknnop::convert(narrowed.data(), reinterpret_cast<float16*>(narrowed.data()), m);
  for (std::size_t i = 0; i < m; ++i) {
    const std::uint16_t scalar = float16::from_float(source[i]);
    std::uint16_t narrowed_bits;
    std::memcpy(&narrowed_bits, reinterpret_cast<const char*>(narrowed.data()) + i * 2, 2);
    ASSERT_EQ(halves[i].bits(), scalar) << std::hex << std::bit_cast<std::uint32_t>(source[i]);
    ASSERT_EQ(narrowed_bits, scalar) << std::hex << std::bit_cast<std::uint32_t>(source[i]) << " in place";
  }
}

// Each value the ARMv7 NEON path must leave to the scalar one (every float16 NaN and subnormal; floats
// that are NaNs or tiny for float16), and the normal values at the edges of those ranges, alone in a
// block of normal values, at every position of the block: one such value decides the block's path,
// so a check that misses the edge of a range converts it with NEON and differs from the scalar bits.
// (qemu-arm does not flush float16 subnormals, as the ARMv7 documentation says NEON does: there only
// the NaN edges show; the next test holds the checks' bounds themselves.)
TEST(Float16, EachEdgeValueAloneInABlockConvertsAsTheScalarPath) {
  constexpr std::size_t block = 32;  // two of the widest blocks any path converts at once
  std::vector<std::uint16_t> halves;
  for (std::uint32_t m = 0; m < 0x800; ++m)  // exponents 0 and 1 (subnormals, the first normals)
    for (std::uint32_t sign : {0u, 0x8000u}) {
      halves.push_back(static_cast<std::uint16_t>(sign | m));
      halves.push_back(static_cast<std::uint16_t>(sign | (0x7800 + m)));  // exponents 30, 31 (NaNs, infinity)
    }
  std::vector<std::uint16_t> in(halves.size() * block, 0x3C00);
  for (std::size_t k = 0; k < halves.size(); ++k) in[k * block + k % block] = halves[k];
  std::vector<float> out(in.size());
  rknnop::convert(reinterpret_cast<const float16*>(in.data()), out.data(), in.size());
  for (std::size_t i = 0; i < in.size(); ++i)
    ASSERT_TRUE(same_bits(out[i], float16::to_float(in[i]))) << std::hex << in[i] << " at " << std::dec << i % block;

  std::vector<std::uint32_t> floats;
  const std::uint32_t edges[] = {0x00000000, 0x00000001, 0x007FFFFF, 0x00800000, 0x33000000, 0x33000001, 0x337FFFFF,
                                 0x33800000, 0x387FFFFF, 0x38800000, 0x38800001, 0x477FE000, 0x477FEFFF, 0x477FF000,
                                 0x7F7FFFFF, 0x7F800000, 0x7F800001, 0x7FBFFFFF, 0x7FC00000, 0x7FFFFFFF};
  for (std::uint32_t e : edges)
    for (std::uint32_t d = 0; d < 64; ++d)
      for (std::uint32_t sign : {0u, 0x80000000u}) {
        floats.push_back(sign | (e + d));
        if (e >= d) floats.push_back(sign | (e - d));
      }
  std::vector<float> source(floats.size() * block, 1.5f);
  for (std::size_t k = 0; k < floats.size(); ++k) source[k * block + k % block] = std::bit_cast<float>(floats[k]);
  std::vector<float16> narrowed(source.size());
  rknnop::convert(source.data(), narrowed.data(), source.size());
  for (std::size_t i = 0; i < source.size(); ++i)
    ASSERT_EQ(narrowed[i].bits(), float16::from_float(source[i]))
        << std::hex << std::bit_cast<std::uint32_t>(source[i]) << " at " << std::dec << i % block;
}

// The ARMv7 NEON blocks' checks against the exponent rule: every float16 bit pattern in each lane, and
// float32 patterns within 2^16 of each bound (zero, float16's tiny bound 2^-14, the NaNs), and random ones.
TEST(Float16, NeonBlockChecksFollowTheExponentRule) {
#ifndef RKNNOP_DETAIL_NEON_HALF
  GTEST_SKIP() << "ARMv7 NEON only (the cross step's armhf build runs it under qemu-arm)";
#else
  for (std::uint32_t h = 0; h <= 0xFFFF; ++h) {
    const std::uint32_t e = (h >> 10) & 0x1F, m = h & 0x3FF;
    const bool odd = (e == 0 || e == 31) && m != 0;
    const unsigned lane = h % 16;
    std::uint16_t v[16];
    for (std::uint16_t& x : v) x = 0x3C00;
    v[lane] = static_cast<std::uint16_t>(h);
    uint16x8_t lo, hi;
    std::memcpy(&lo, v, 16);
    std::memcpy(&hi, v + 8, 16);
    ASSERT_EQ(rknnop::detail::any_odd_half(lo, hi), odd) << std::hex << h;
  }
  auto check = [](std::uint32_t bits) {
    const std::uint32_t a = bits & 0x7FFFFFFF;
    const bool odd = a > 0x7F800000u || (a != 0 && a < 0x38800000u);
    std::uint32_t v[8];
    for (std::uint32_t& x : v) x = 0x3FC00000;  // 1.5f
    v[bits % 8] = bits;
    uint32x4_t lo, hi;
    std::memcpy(&lo, v, 16);
    std::memcpy(&hi, v + 4, 16);
    const uint32x4_t flags = rknnop::detail::odd_floats(lo, hi);
    std::uint32_t lanes[4];
    std::memcpy(lanes, &flags, 16);
    return ((lanes[0] | lanes[1] | lanes[2] | lanes[3]) != 0) == odd;
  };
  for (std::uint32_t bound : {0x00000000u, 0x38800000u, 0x7F800000u})
    for (std::uint32_t d = 0; d < (1u << 16); ++d)
      for (std::uint32_t sign : {0u, 0x80000000u}) {
        ASSERT_TRUE(check(sign | ((bound + d) & 0x7FFFFFFF))) << std::hex << (bound + d);
        ASSERT_TRUE(check(sign | ((bound - d) & 0x7FFFFFFF))) << std::hex << (bound - d);
      }
  std::mt19937 rng(5);
  for (int i = 0; i < 200000; ++i) ASSERT_TRUE(check(static_cast<std::uint32_t>(rng())));
#endif
}

}  // namespace

namespace {

// The tensor boundary converts in place: narrowing over the same buffer, widening from its end.
TEST(Float16, InPlaceConversionEqualsOutOfPlace) {
  for (std::size_t n : {1u, 7u, 8u, 9u, 31u, 1000u}) {
    std::vector<float> source(n);
    for (std::size_t i = 0; i < n; ++i) source[i] = static_cast<float>(i) * 0.37f - 11.f;
    std::vector<rknnop::float16> expected(n);
    rknnop::convert(source.data(), expected.data(), n);
    std::vector<float> buffer = source;  // narrow in place
    rknnop::convert(buffer.data(), reinterpret_cast<rknnop::float16*>(buffer.data()), n);
    EXPECT_EQ(0, std::memcmp(buffer.data(), expected.data(), n * 2)) << n;

    std::vector<float> widened(n);  // widen from the tail of the same buffer
    std::memcpy(reinterpret_cast<char*>(widened.data()) + n * 2, expected.data(), n * 2);
    rknnop::convert(reinterpret_cast<const rknnop::float16*>(reinterpret_cast<char*>(widened.data()) + n * 2),
                    widened.data(), n);
    for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(widened[i], static_cast<float>(expected[i])) << n << " " << i;
  }
}

}  // namespace

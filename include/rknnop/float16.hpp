// SPDX-License-Identifier: MIT
#pragma once

#include <rknnop/config.hpp>

#include <bit>          // std::bit_cast
#include <cstddef>      // std::size_t
#include <cstdint>      // std::uint16_t, std::uint32_t
#include <cstring>      // std::memcpy (alias-safe bulk conversion)
#include <type_traits>  // std::is_constant_evaluated

#if (defined(__arm__) && defined(__ARM_NEON) && defined(__ARM_FP16_FORMAT_IEEE)) || \
    (defined(__aarch64__) && defined(__ARM_NEON))
#include <arm_neon.h>  // NEON's 4-lane half <-> float conversions (ARMv7's VFPv4; AArch64's FCVTL, FCVTN)
#endif
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>  // F16C detection (F16C itself through GCC/clang builtins: <immintrin.h> costs ~1 s per op)
#endif

// Native half-precision type used for conversions, when the compiler has one:
// _Float16 on x86 with F16C (GCC >= 12, clang >= 15), __fp16 on arm (IEEE format). Otherwise the portable
// bit-level conversion below is used; all three give identical, exactly rounded results.
#if defined(__aarch64__) || (defined(__arm__) && defined(__ARM_FP16_FORMAT_IEEE))
#define RKNNOP_DETAIL_NATIVE_HALF __fp16
#elif (defined(__x86_64__) || defined(__i386__)) && defined(__FLT16_MANT_DIG__) && defined(__F16C__)
// Only with F16C: otherwise _Float16 conversions are libgcc calls (__extendhfsf2@GCC_12.0.0) that
// the toolkit's older x86-64 userland cannot resolve.
#define RKNNOP_DETAIL_NATIVE_HALF _Float16
#endif

RKNNOP_DETAIL_BEGIN_HIDDEN  // see config.hpp: nothing of the SDK is exported

namespace rknnop {
namespace detail {

// IEEE binary16 -> binary32; exact for every input including subnormals, infinities and NaNs.
constexpr float half_bits_to_float_portable(std::uint16_t h) noexcept {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  std::uint32_t exponent = (h >> 10) & 0x1Fu;
  std::uint32_t mantissa = h & 0x3FFu;
  std::uint32_t bits = 0;
  if (exponent == 0x1F) {
    bits = sign | 0x7F800000u | (mantissa << 13);  // inf / NaN, payload kept
  } else if (exponent != 0) {
    bits = sign | ((exponent + 112u) << 23) | (mantissa << 13);
  } else if (mantissa == 0) {
    bits = sign;
  } else {  // subnormal half: normalise
    exponent = 113;
    while ((mantissa & 0x400u) == 0) {
      mantissa <<= 1;
      --exponent;
    }
    bits = sign | (exponent << 23) | ((mantissa & 0x3FFu) << 13);
  }
  return std::bit_cast<float>(bits);
}

// IEEE binary32 -> binary16 with round-to-nearest-even, overflow to infinity, NaN kept quiet.
constexpr std::uint16_t float_to_half_bits_portable(float f) noexcept {
  const std::uint32_t x = std::bit_cast<std::uint32_t>(f);
  const auto sign = static_cast<std::uint16_t>((x >> 16) & 0x8000u);
  const std::uint32_t abs = x & 0x7FFFFFFFu;
  if (abs >= 0x7F800000u) {  // inf or NaN
    const bool nan = abs > 0x7F800000u;
    return static_cast<std::uint16_t>(sign | 0x7C00u | (nan ? (0x200u | ((abs >> 13) & 0x3FFu)) : 0u));
  }
  if (abs >= 0x477FF000u) return static_cast<std::uint16_t>(sign | 0x7C00u);  // rounds past 65504
  if (abs < 0x38800000u) {               // result is subnormal or zero: shift the full mantissa into place
    if (abs < 0x33000000u) return sign;  // below half of the smallest subnormal
    const std::uint32_t shift = 126u - (abs >> 23);
    const std::uint32_t mant = (abs & 0x7FFFFFu) | 0x800000u;
    const std::uint32_t half_ulp = 1u << (shift - 1);
    std::uint32_t value = mant >> shift;
    const std::uint32_t rest = mant & ((1u << shift) - 1u);
    if (rest > half_ulp || (rest == half_ulp && (value & 1u))) ++value;
    return static_cast<std::uint16_t>(sign | value);
  }
  std::uint32_t value = ((abs >> 13) - (112u << 10));
  const std::uint32_t rest = abs & 0x1FFFu;
  if (rest > 0x1000u || (rest == 0x1000u && (value & 1u))) ++value;  // may carry into exponent: fine
  return static_cast<std::uint16_t>(sign | value);
}

}  // namespace detail

// IEEE 754 binary16, the element type RKNN boards deliver to custom ops. A trivially copyable
// 2-byte value type; arithmetic is done after converting to float.
class RKNNOP_DETAIL_USER_TYPE float16 {
public:
  RKNNOP_DETAIL_HIDDEN constexpr float16() noexcept = default;
  RKNNOP_DETAIL_HIDDEN constexpr explicit float16(float value) noexcept : bits_(from_float(value)) {}
  RKNNOP_DETAIL_HIDDEN constexpr explicit operator float() const noexcept { return to_float(bits_); }

  RKNNOP_DETAIL_HIDDEN static constexpr float16 from_bits(std::uint16_t bits) noexcept {
    float16 h;
    h.bits_ = bits;
    return h;
  }
  RKNNOP_DETAIL_HIDDEN constexpr std::uint16_t bits() const noexcept { return bits_; }

  friend constexpr bool operator==(float16 a, float16 b) noexcept {
    return static_cast<float>(a) == static_cast<float>(b);
  }

  RKNNOP_DETAIL_HIDDEN static constexpr float to_float(std::uint16_t bits) noexcept {
#ifdef RKNNOP_DETAIL_NATIVE_HALF
    if (!std::is_constant_evaluated()) return static_cast<float>(std::bit_cast<RKNNOP_DETAIL_NATIVE_HALF>(bits));
#endif
    return detail::half_bits_to_float_portable(bits);
  }
  RKNNOP_DETAIL_HIDDEN static constexpr std::uint16_t from_float(float value) noexcept {
#ifdef RKNNOP_DETAIL_NATIVE_HALF
    if (!std::is_constant_evaluated())
      return std::bit_cast<std::uint16_t>(static_cast<RKNNOP_DETAIL_NATIVE_HALF>(value));
#endif
    return detail::float_to_half_bits_portable(value);
  }

private:
  // No initializer, like float: `float16 scale;` in params is a required param, `float16 scale{};` one
  // with a default (docs/first-op.md §4); float16{} is zero.
  std::uint16_t bits_;
};

static_assert(sizeof(float16) == 2 && alignof(float16) == 2);

namespace detail {

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// 8 lanes per instruction with F16C; selected at run time so one x86-64 library serves every PC.
// The builtins behind _mm256_cvtph_ps / _mm256_cvtps_ph; loads and stores are memcpy (unaligned).
using half8 = short __attribute__((vector_size(16)));
using float8 = float __attribute__((vector_size(32)));

[[gnu::target("avx,f16c")]] inline void half_to_float_f16c(const float16* src, float* dst, std::size_t n) noexcept {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    half8 h;
    std::memcpy(&h, reinterpret_cast<const unsigned char*>(src) + i * 2, sizeof h);
    const float8 f = __builtin_ia32_vcvtph2ps256(h);
    std::memcpy(reinterpret_cast<unsigned char*>(dst) + i * 4, &f, sizeof f);
  }
  if (i < n) {  // the last 1..7: one padded vector (all of them read before any is written)
    half8 h = {};
    std::memcpy(&h, reinterpret_cast<const unsigned char*>(src) + i * 2, (n - i) * 2);
    const float8 f = __builtin_ia32_vcvtph2ps256(h);
    std::memcpy(reinterpret_cast<unsigned char*>(dst) + i * 4, &f, (n - i) * 4);
  }
}
[[gnu::target("avx,f16c")]] inline void float_to_half_f16c(const float* src, float16* dst, std::size_t n) noexcept {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    float8 f;
    std::memcpy(&f, reinterpret_cast<const unsigned char*>(src) + i * 4, sizeof f);
    const half8 h = __builtin_ia32_vcvtps2ph256(f, 0);  // 0 = _MM_FROUND_TO_NEAREST_INT
    std::memcpy(reinterpret_cast<unsigned char*>(dst) + i * 2, &h, sizeof h);
  }
  if (i < n) {  // the last 1..7: one padded vector (all of them read before any is written)
    float8 f = {};
    std::memcpy(&f, reinterpret_cast<const unsigned char*>(src) + i * 4, (n - i) * 4);
    const half8 h = __builtin_ia32_vcvtps2ph256(f, 0);
    std::memcpy(reinterpret_cast<unsigned char*>(dst) + i * 2, &h, (n - i) * 2);
  }
}
// CPUID leaf 1: F16C (ecx bit 29), AVX (bit 28), OSXSAVE (bit 27) and the OS saving YMM state.
// Cached in a constant-initialised atomic: a guarded static would pull libstdc++ into the library.
inline bool cpu_has_f16c() noexcept {
  static constinit int cached = -1;
  int known = __atomic_load_n(&cached, __ATOMIC_RELAXED);
  if (known < 0) {
    unsigned a = 0, b = 0, c = 0, d = 0;
    bool has = __get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 29)) && (c & (1u << 28)) && (c & (1u << 27));
    if (has) {
      unsigned lo = 0, hi = 0;
      __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
      has = (lo & 6u) == 6u;
    }
    known = has ? 1 : 0;
    __atomic_store_n(&cached, known, __ATOMIC_RELAXED);
  }
  return known == 1;
}
#endif

#if defined(__arm__) && defined(__ARM_NEON) && defined(__ARM_FP16_FORMAT_IEEE) && \
    (defined(__GNUC__) || defined(__clang__))
#define RKNNOP_DETAIL_NEON_HALF 1
// ARMv7 NEON converts 4 lanes at a time but is not IEEE: it flushes subnormals and returns the default
// NaN. So it converts a block of 16 values only when none of them is a NaN, a subnormal, or (float ->
// float16) a non-zero value below float16's smallest normal, 2^-14: then its result is the scalar VFP
// one (the exact value, or float16's rounding of it, to nearest even in both). Other blocks take the
// scalar path. Blocks are checked before they are converted: in place, nothing is re-read. (16, not
// 8: the check's fold and branch are paid once for two vectors.)

// Whether any bit of a block's lane masks is set: folded to 64 then 32 bits (VPMAX), one move to a
// core register, not a trip through memory.
inline bool any_set(uint32x4_t mask) noexcept {
  const uint32x2_t half = vorr_u32(vget_low_u32(mask), vget_high_u32(mask));
  return vget_lane_u32(vpmax_u32(half, half), 0) != 0;
}
// Whether any of the 16 float16 values in lo and hi is a NaN or a non-zero subnormal. With the sign
// shifted out (t = 2|h|): t - 2 below 0x7FE (t 0 wraps around to the top), or t above infinity's 0xF800;
// a lane of the two vectors' maximum above 0xF800 or of their minimum below 0x7FE says the same of one
// of the 16, in fewer instructions than a mask per vector.
inline bool any_odd_half(uint16x8_t lo, uint16x8_t hi) noexcept {
  const uint16x8_t two = vdupq_n_u16(2), last_subnormal = vdupq_n_u16(0x7FE), infinity = vdupq_n_u16(0xF800);
  const uint16x8_t a = vshlq_n_u16(lo, 1), b = vshlq_n_u16(hi, 1);
  const uint16x8_t top = vmaxq_u16(a, b), low = vminq_u16(vsubq_u16(a, two), vsubq_u16(b, two));
  return any_set(vreinterpretq_u32_u16(vorrq_u16(vcgtq_u16(top, infinity), vcltq_u16(low, last_subnormal))));
}
inline void half_to_float_neon(const float16* src, float* dst, std::size_t n) noexcept {
  const auto* in = reinterpret_cast<const unsigned char*>(src);
  auto* out = reinterpret_cast<unsigned char*>(dst);
  for (const unsigned char* const end = in + (n & ~std::size_t{15}) * 2; in != end; in += 32, out += 64) {
    uint16x8_t lo, hi;
    std::memcpy(&lo, in, sizeof lo);  // memcpy: alias-safe in place
    std::memcpy(&hi, in + 16, sizeof hi);
    if (!any_odd_half(lo, hi)) {
      const float32x4_t f0 = vcvt_f32_f16(vreinterpret_f16_u16(vget_low_u16(lo)));
      const float32x4_t f1 = vcvt_f32_f16(vreinterpret_f16_u16(vget_high_u16(lo)));
      const float32x4_t f2 = vcvt_f32_f16(vreinterpret_f16_u16(vget_low_u16(hi)));
      const float32x4_t f3 = vcvt_f32_f16(vreinterpret_f16_u16(vget_high_u16(hi)));
      std::memcpy(out, &f0, sizeof f0);
      std::memcpy(out + 16, &f1, sizeof f1);
      std::memcpy(out + 32, &f2, sizeof f2);
      std::memcpy(out + 48, &f3, sizeof f3);
      continue;
    }
    float block[16];  // all 16 read before any is written (in place)
    for (std::size_t k = 0; k < 16; ++k) {
      std::uint16_t b;
      std::memcpy(&b, in + k * 2, 2);
      block[k] = float16::to_float(b);
    }
    std::memcpy(out, block, sizeof block);
  }
  for (std::size_t i = n & ~std::size_t{15}; i < n; ++i, in += 2, out += 4) {
    std::uint16_t b;
    std::memcpy(&b, in, 2);
    const float v = float16::to_float(b);
    std::memcpy(out, &v, 4);
  }
}
// Whether any of the 8 floats in a and b is a NaN or a non-zero value below 2^-14 (tiny for float16): a
// lane set in the result says one of the 8 is. With the sign shifted out (t = 2|x|): NaN above
// 0xFF000000; t - 1 below 0x70FFFFFF (t 0 wraps around to the top) is tiny; the two vectors' maximum and
// minimum, as for halves above.
inline uint32x4_t odd_floats(uint32x4_t a, uint32x4_t b) noexcept {
  const uint32x4_t one = vdupq_n_u32(1), tiny_limit = vdupq_n_u32(0x70FFFFFF), infinity = vdupq_n_u32(0xFF000000);
  const uint32x4_t x = vshlq_n_u32(a, 1), y = vshlq_n_u32(b, 1);
  const uint32x4_t top = vmaxq_u32(x, y), low = vminq_u32(vsubq_u32(x, one), vsubq_u32(y, one));
  return vorrq_u32(vcgtq_u32(top, infinity), vcltq_u32(low, tiny_limit));
}
inline void float_to_half_neon(const float* src, float16* dst, std::size_t n) noexcept {
  const auto* in = reinterpret_cast<const unsigned char*>(src);
  auto* out = reinterpret_cast<unsigned char*>(dst);
  for (const unsigned char* const end = in + (n & ~std::size_t{15}) * 4; in != end; in += 64, out += 32) {
    uint32x4_t a, b, c, d;  // memcpy: alias-safe in place
    std::memcpy(&a, in, sizeof a);
    std::memcpy(&b, in + 16, sizeof b);
    std::memcpy(&c, in + 32, sizeof c);
    std::memcpy(&d, in + 48, sizeof d);
    if (!any_set(vorrq_u32(odd_floats(a, b), odd_floats(c, d)))) {
      const uint16x8_t lo = vcombine_u16(vreinterpret_u16_f16(vcvt_f16_f32(vreinterpretq_f32_u32(a))),
                                         vreinterpret_u16_f16(vcvt_f16_f32(vreinterpretq_f32_u32(b))));
      const uint16x8_t hi = vcombine_u16(vreinterpret_u16_f16(vcvt_f16_f32(vreinterpretq_f32_u32(c))),
                                         vreinterpret_u16_f16(vcvt_f16_f32(vreinterpretq_f32_u32(d))));
      std::memcpy(out, &lo, sizeof lo);
      std::memcpy(out + 16, &hi, sizeof hi);
      continue;
    }
    std::uint16_t block[16];  // all 16 read before any is written (in place)
    for (std::size_t k = 0; k < 16; ++k) {
      float v;
      std::memcpy(&v, in + k * 4, 4);
      block[k] = float16::from_float(v);
    }
    std::memcpy(out, block, sizeof block);
  }
  for (std::size_t i = n & ~std::size_t{15}; i < n; ++i, in += 4, out += 2) {
    float v;
    std::memcpy(&v, in, 4);
    const std::uint16_t h = float16::from_float(v);
    std::memcpy(out, &h, 2);
  }
}
#endif

#if defined(__aarch64__) && defined(__ARM_NEON) && (defined(__GNUC__) || defined(__clang__))
#define RKNNOP_DETAIL_A64_HALF 1
// AArch64's vector conversions (FCVTL, FCVTN) are IEEE as its scalar FCVT, which float16::to_float and
// from_float compile to: subnormals exact, NaN payloads kept (quieted), round to nearest even under the
// FPCR Linux gives a process. So every block of 8 converts with them, to the same bits; no block check.
// They convert the whole blocks and return how many elements that is; convert() does the last 1..7 with
// its scalar loop. Out of line and without a tail of their own: a board library's size is counted in
// 4 KiB pages (ResizeArea's aarch64 library is within its 32 KiB by a few hundred bytes).
inline std::size_t half_to_float_a64(const float16* src, float* dst, std::size_t n) noexcept {
  const std::size_t whole = n & ~std::size_t{7};
  const auto* in = reinterpret_cast<const unsigned char*>(src);
  auto* out = reinterpret_cast<unsigned char*>(dst);
  for (const unsigned char* const end = in + whole * 2; in != end; in += 16, out += 32) {
    float16x8_t h;
    std::memcpy(&h, in, sizeof h);  // memcpy: alias-safe in place; all 8 read before a write
    const float32x4_t lo = vcvt_f32_f16(vget_low_f16(h)), hi = vcvt_high_f32_f16(h);  // not an array: the stack
    std::memcpy(out, &lo, sizeof lo);
    std::memcpy(out + 16, &hi, sizeof hi);
  }
  return whole;
}
inline std::size_t float_to_half_a64(const float* src, float16* dst, std::size_t n) noexcept {
  const std::size_t whole = n & ~std::size_t{7};
  const auto* in = reinterpret_cast<const unsigned char*>(src);
  auto* out = reinterpret_cast<unsigned char*>(dst);
  for (const unsigned char* const end = in + whole * 4; in != end; in += 32, out += 16) {
    float32x4_t lo, hi;  // memcpy: alias-safe in place; all 8 read before a write
    std::memcpy(&lo, in, sizeof lo);
    std::memcpy(&hi, in + 16, sizeof hi);
    const float16x8_t h = vcvt_high_f16_f32(vcvt_f16_f32(lo), hi);
    std::memcpy(out, &h, sizeof h);
  }
  return whole;
}
#endif

}  // namespace detail

// Bulk conversions used at the tensor boundary; exact (round-to-nearest-even towards half).
// Both may run in place: float -> float16 with dst == src, float16 -> float with src at the end of
// dst's buffer (element i is written only over elements already read; accesses go through memcpy or
// unaligned vector loads/stores, so the overlap is no aliasing problem).
inline void convert(const float16* src, float* dst, std::size_t n) noexcept {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  if (detail::cpu_has_f16c()) return detail::half_to_float_f16c(src, dst, n);
#endif
#ifdef RKNNOP_DETAIL_NEON_HALF
  return detail::half_to_float_neon(src, dst, n);
#endif
  std::size_t i = 0;
#ifdef RKNNOP_DETAIL_A64_HALF
  i = detail::half_to_float_a64(src, dst, n);
#endif
  const auto* in = reinterpret_cast<const unsigned char*>(src);
  auto* out = reinterpret_cast<unsigned char*>(dst);
  for (; i < n; ++i) {
    std::uint16_t h;
    std::memcpy(&h, in + i * sizeof h, sizeof h);
    const float v = float16::to_float(h);
    std::memcpy(out + i * sizeof v, &v, sizeof v);
  }
}
inline void convert(const float* src, float16* dst, std::size_t n) noexcept {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  if (detail::cpu_has_f16c()) return detail::float_to_half_f16c(src, dst, n);
#endif
#ifdef RKNNOP_DETAIL_NEON_HALF
  return detail::float_to_half_neon(src, dst, n);
#endif
  std::size_t i = 0;
#ifdef RKNNOP_DETAIL_A64_HALF
  i = detail::float_to_half_a64(src, dst, n);
#endif
  const auto* in = reinterpret_cast<const unsigned char*>(src);
  auto* out = reinterpret_cast<unsigned char*>(dst);
  for (; i < n; ++i) {
    float v;
    std::memcpy(&v, in + i * sizeof(float), sizeof v);
    const std::uint16_t h = float16::from_float(v);
    std::memcpy(out + i * sizeof h, &h, sizeof h);
  }
}

}  // namespace rknnop

RKNNOP_DETAIL_END_HIDDEN

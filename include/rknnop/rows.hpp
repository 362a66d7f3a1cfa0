// SPDX-License-Identifier: MIT
#pragma once

// Building blocks for fast kernels over rows of contiguous floats, exact in IEEE float32 (every
// element rounds as the plain scalar loop does): whole-row multiply-accumulate and scaling that run
// 4 lanes wide at -O2, and tap tables for separable kernels (resampling, pooling, 1-D filters along
// one axis) that tabulate once per call which inputs each output sums with which weights.

#include <rknnop/types.hpp>  // rknnop::buffer

#include <cstddef>  // std::size_t
#include <cstdint>  // std::uint32_t, std::uintptr_t
#include <cstring>  // std::memcpy (unaligned vector loads and stores)

namespace rknnop {

namespace detail {
// 4 float lanes where they round like scalar code: SSE on x86, NEON on AArch64 (IEEE). Not ARMv7 NEON,
// which flushes subnormals to zero.
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__aarch64__))
#define RKNNOP_DETAIL_FLOAT4 1
using float4 = float __attribute__((vector_size(16)));
inline float4 load4(const float* p) noexcept {
  float4 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline void store4(float* p, float4 v) noexcept { std::memcpy(p, &v, sizeof v); }
#endif

}  // namespace detail

// out[i] = acc[i] + x[i] * w for i < n (multiply, then add); acc may be out, or null for zeros
// (0 + x * w: TensorFlow's first term of a sum).
inline void add_product(float* out, const float* acc, const float* x, float w, std::size_t n) noexcept {
  std::size_t i = 0;
  if (!acc) {
#ifdef RKNNOP_DETAIL_FLOAT4
    for (; i + 4 <= n; i += 4) detail::store4(out + i, detail::float4{} + detail::load4(x + i) * w);
#endif
    for (; i < n; ++i) out[i] = 0.f + x[i] * w;
    return;
  }
#ifdef RKNNOP_DETAIL_FLOAT4
  for (; i + 4 <= n; i += 4) detail::store4(out + i, detail::load4(acc + i) + detail::load4(x + i) * w);
#endif
  for (; i < n; ++i) out[i] = acc[i] + x[i] * w;
}

// y[i] *= w for i < n.
inline void multiply(float* y, float w, std::size_t n) noexcept {
  std::size_t i = 0;
#ifdef RKNNOP_DETAIL_FLOAT4
  for (; i + 4 <= n; i += 4) detail::store4(y + i, detail::load4(y + i) * w);
#endif
  for (; i < n; ++i) y[i] *= w;
}

// A sparse linear map along one axis of rows of interleaved channels. Output o of a row is, per
// channel, the float32 sum from 0, in the order its taps were added, of input[i] * weight over its
// taps (i, weight).
//   rknnop::tap_table columns(out_w, in_w, 4, channels);  // at most 4 taps per output
//   columns.add(o, i, w); ...                       // then test it like a pointer (allocation, overflow)
//   columns.apply(row_in, row_out);                 // per row
class tap_table {
public:
  tap_table(std::size_t outputs, std::size_t inputs, std::size_t max_taps, std::size_t channels) noexcept
      : taps_(outputs * max_taps),
        count_(outputs),
        outputs_(outputs),
        inputs_(inputs),
        max_taps_(max_taps),
        channels_(channels),
        wide_end_(outputs ? outputs - 1 : 0) {}

  // False when allocation failed or a tap was out of range (output or input index, more than max_taps).
  explicit operator bool() const noexcept { return taps_ && count_ && !overflow_; }

  void add(std::size_t output, std::size_t input, float weight) noexcept {
    if (output >= outputs_ || input >= inputs_ || count_[output] >= max_taps_ || inputs_ * channels_ > 0xFFFFFFFFu) {
      overflow_ = true;
      return;
    }
    taps_[output * max_taps_ + count_[output]++] = {static_cast<std::uint32_t>(input * channels_), weight};
    if (input * channels_ + 4 > inputs_ * channels_ && output < wide_end_) wide_end_ = output;
  }

  // out[o*channels + c] for every output o and channel c, from in[i*channels + c]; out must not
  // overlap in.
  void apply(const float* in, float* out) const noexcept {
    std::size_t o = 0;
#ifdef RKNNOP_DETAIL_FLOAT4
    // 3 or 4 channels in 4 lanes (a 4th lane's value is discarded): one load, multiply and add per
    // tap. Outputs before wide_end_ read and write 4 floats in bounds (the next pixel's first channel
    // is rewritten by the next output).
    const std::size_t row = inputs_ * channels_ * sizeof(float);  // bytes
    if (channels_ == 3 || channels_ == 4)
      for (; o < wide_end_; ++o) {
        detail::float4 sum = {};
        const tap* first = taps_.data() + o * max_taps_;
        // A hint for the same place one row down (rows usually come in order); never dereferenced,
        // so computed as an integer: past the last row it points nowhere valid.
        __builtin_prefetch(reinterpret_cast<const void*>(reinterpret_cast<std::uintptr_t>(in + first->offset) + row));
        for (const tap *t = first, *end = t + count_[o]; t != end; ++t)
          sum += detail::load4(in + t->offset) * t->weight;
        detail::store4(out + o * channels_, sum);
      }
#endif
    for (; o < outputs_; ++o)
      for (std::size_t c = 0; c < channels_; ++c) {
        float sum = 0.f;
        for (const tap *t = taps_.data() + o * max_taps_, *end = t + count_[o]; t != end; ++t)
          sum += in[t->offset + c] * t->weight;
        out[o * channels_ + c] = sum;
      }
  }

private:
  struct tap {
    std::uint32_t offset;  // input * channels
    float weight;
  };

  buffer<tap> taps_;
  buffer<std::uint32_t> count_;
  std::size_t outputs_, inputs_, max_taps_, channels_;
  std::size_t wide_end_;  // outputs before it have every tap's 4-float load inside the input row
  bool overflow_ = false;
};

}  // namespace rknnop

// SPDX-License-Identifier: MIT
#pragma once

// Building blocks for fast kernels over rows of contiguous floats, exact in IEEE float32 (every
// element rounds as the plain scalar loop does): whole-row multiply-accumulate and scaling that run
// 4 lanes wide at -O2, and tap tables for separable kernels (resampling, pooling, 1-D filters along
// one axis) that tabulate once per call which inputs each output sums with which weights.

#include <rknnop/types.hpp>  // rknnop::buffer

#include <cstddef>  // std::size_t
#include <cstdint>  // std::uint32_t, std::uintptr_t
#include <utility>  // std::index_sequence

namespace rknnop {

namespace detail {
// 4 float lanes where they round like scalar code: SSE on x86, NEON on AArch64 (IEEE). Not ARMv7 NEON,
// which flushes subnormals to zero.
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__aarch64__))
#define RKNNOP_DETAIL_FLOAT4 1
using float4 = float __attribute__((vector_size(16)));
// The same 16 bytes at any float's address: a packed struct (alignment 1) that may alias anything,
// read or written as one unaligned load or store instruction, where a memcpy makes AArch64 GCC 12
// move the vector through two general registers. (An aligned(4) vector typedef does not work:
// Clang keeps its 16-byte alignment, and UBSan reports the access.)
struct [[gnu::packed, gnu::may_alias]] float4_unaligned {
  float4 v;
};
inline float4 load4(const float* p) noexcept { return reinterpret_cast<const float4_unaligned*>(p)->v; }
inline void store4(float* p, float4 v) noexcept { reinterpret_cast<float4_unaligned*>(p)->v = v; }
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
//   columns.apply(row_in, row_out);                 // per row, or several rows at once (below)
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

  std::size_t input_floats() const noexcept { return inputs_ * channels_; }    // of one row
  std::size_t output_floats() const noexcept { return outputs_ * channels_; }  // of one row

  // out[o*channels + c] for every output o and channel c, from in[i*channels + c], for `rows` rows:
  // row r reads from in + r*in_stride and writes to out + r*out_stride (strides in floats). No
  // output row may overlap an input row.
  void apply(const float* in, float* out, std::size_t rows = 1, std::size_t in_stride = 0,
             std::size_t out_stride = 0) const noexcept {
    std::size_t r = 0;
#ifdef RKNNOP_DETAIL_FLOAT4
    if (channels_ == 3 || channels_ == 4) {
      // Four rows at a time: each tap's offset and weight are loaded once for all four rows.
      for (; r + 4 <= rows; r += 4) apply_wide<4>(in + r * in_stride, out + r * out_stride, in_stride, out_stride);
      for (; r < rows; ++r) apply_wide<1>(in + r * in_stride, out + r * out_stride, 0, 0);
      return;
    }
#endif
    for (; r < rows; ++r) apply_scalar(in + r * in_stride, out + r * out_stride, 0);
  }

private:
  struct tap {
    std::uint32_t offset;  // input * channels
    float weight;
  };

  // Outputs from `first` on, one channel at a time (one out-of-line copy: it runs on few outputs).
  [[gnu::noinline]] void apply_scalar(const float* in, float* out, std::size_t first) const noexcept {
    for (std::size_t o = first; o < outputs_; ++o)
      for (std::size_t c = 0; c < channels_; ++c) {
        float sum = 0.f;
        for (const tap *t = taps_.data() + o * max_taps_, *end = t + count_[o]; t != end; ++t)
          sum += in[t->offset + c] * t->weight;
        out[o * channels_ + c] = sum;
      }
  }

#ifdef RKNNOP_DETAIL_FLOAT4
  // 3 or 4 channels in 4 lanes, for Rows rows: one load, multiply and add per tap and row. Outputs
  // before wide_end_ read and write 4 floats in bounds (with 3 channels, the 4th is the next
  // pixel's first channel, which the next output rewrites); the others go through apply_scalar.
  template <std::size_t Rows>
  void apply_wide(const float* in, float* out, std::size_t in_stride, std::size_t out_stride) const noexcept {
    // Members in locals: the vector stores may alias anything, members included.
    const std::uint32_t* const count = count_.data();
    const std::size_t max_taps = max_taps_, channels = channels_, wide_end = wide_end_;
    const tap* first = taps_.data();
    for (std::size_t o = 0; o < wide_end; ++o, first += max_taps, out += channels)
      [&]<std::size_t... R>(std::index_sequence<R...>) {
        if constexpr (Rows == 4) {
          // Hints for the same place 4 rows down, where a caller walking down an image goes next:
          // two of the 4 rows per output, alternating, which reaches every cache line of each row
          // while outputs are under 32 bytes apart. Never dereferenced, so computed as integers:
          // past the last row they point nowhere valid.
          const std::uintptr_t below =
              reinterpret_cast<std::uintptr_t>(in + first->offset) + (4 + 2 * (o & 1)) * in_stride * sizeof(float);
          __builtin_prefetch(reinterpret_cast<const void*>(below));
          __builtin_prefetch(reinterpret_cast<const void*>(below + in_stride * sizeof(float)));
        }
        detail::float4 sum[Rows] = {};
        for (const tap *t = first, *end = t + count[o]; t != end; ++t) {
          const float* const at = in + t->offset;
          const float weight = t->weight;
          ((sum[R] += detail::load4(at + R * in_stride) * weight), ...);
        }
        (detail::store4(out + R * out_stride, sum[R]), ...);
      }(std::make_index_sequence<Rows>{});
    out -= wide_end * channels;
    for (std::size_t r = 0; r < Rows; ++r) apply_scalar(in + r * in_stride, out + r * out_stride, wide_end_);
  }
#endif

  buffer<tap> taps_;
  buffer<std::uint32_t> count_;
  std::size_t outputs_, inputs_, max_taps_, channels_;
  std::size_t wide_end_;  // outputs before it have every tap's 4-float load inside the input row
  bool overflow_ = false;
};

// The rows of images through a tap_table (the first pass of a separable kernel), computed on demand
// four at a time and kept while they are asked for again: a second pass that walks rows in order,
// each one or a few times, gets every row computed once, with the table's loads shared by 4 rows.
//   rknnop::tap_rows sums(columns);           // after the taps are added; test it like a pointer
//   const float* s = sums(image, height, y);  // row y < height of the image whose row 0 is at `image`
// Input rows are dense (columns.input_floats() apart). A returned row is valid until the next call;
// nullptr when y >= height. Rows are keyed by address: the images must not change while it is in use.
class tap_rows {
public:
  explicit tap_rows(const tap_table& table) noexcept
      : table_(table), in_(table.input_floats()), out_(table.output_floats()), rows_(8 * out_) {}

  explicit operator bool() const noexcept { return bool(rows_); }

  const float* operator()(const float* image, std::size_t height, std::size_t y) noexcept {
    if (y >= height) return nullptr;
    const float* const row = image + y * in_;
    for (std::size_t k = 0; k < 8; ++k)
      if (key_[k] == row) return rows_.data() + k * out_;
    half_ ^= 4;  // slots 0-3 or 4-7, whichever was filled less recently
    const std::size_t n = height - y < 4 ? height - y : 4;
    table_.apply(row, rows_.data() + half_ * out_, n, in_, out_);
    for (std::size_t k = 0; k < 4; ++k) key_[half_ + k] = k < n ? row + k * in_ : nullptr;
    return rows_.data() + half_ * out_;
  }

private:
  const tap_table& table_;
  std::size_t in_, out_;      // floats per input and output row
  buffer<float> rows_;        // 8 output rows
  const float* key_[8] = {};  // the input row each slot holds
  std::size_t half_ = 4;
};

}  // namespace rknnop

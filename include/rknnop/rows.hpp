// SPDX-License-Identifier: MIT
#pragma once

// Building blocks for fast kernels over rows of contiguous floats, exact in IEEE float32 (every
// element rounds as the plain scalar loop does): whole-row multiply-accumulate and scaling that run
// 4 lanes wide at -O2, and tap tables for separable kernels (resampling, pooling, 1-D filters along
// one axis) that tabulate once per call which inputs each output sums with which weights.

#include <rknnop/config.hpp>  // RKNNOP_COMPACT_GLUE
#include <rknnop/types.hpp>   // rknnop::buffer

#include <cstddef>  // std::size_t
#include <cstdint>  // std::uint32_t, std::uintptr_t
#include <cstdlib>  // std::malloc, std::free: a large tap table
#include <cstring>  // std::memset
#include <utility>  // std::index_sequence

#if (defined(__arm__) || defined(__aarch64__)) && defined(__ARM_NEON)
#include <arm_neon.h>  // ARMv7's 4 lanes: GCC's vector extensions would use scalar VFP there; AArch64's load3
#endif

namespace rknnop {

namespace detail {
// 4 float lanes. SSE on x86 and NEON on AArch64 round like scalar code (IEEE): RKNNOP_DETAIL_FLOAT4_IEEE.
// ARMv7 NEON flushes subnormal inputs and results to zero and turns every NaN into the default NaN:
// there the lanes run only where a check proves they rounded as scalar code would (checked_lanes).
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__aarch64__))
#define RKNNOP_DETAIL_FLOAT4 1
#define RKNNOP_DETAIL_FLOAT4_IEEE 1
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
// p[0..2] and a 0 in lane 3, reading only those 3 floats (an RGB pixel at a row's end).
inline float4 load3(const float* p) noexcept {
#if defined(__aarch64__) && defined(__ARM_NEON)
  // LDR D (lanes 2 and 3 zeroed) and LD1 into lane 2: where the lane-by-lane form takes five.
  return vld1q_lane_f32(p + 2, vcombine_f32(vld1_f32(p), vdup_n_f32(0.f)), 2);
#else
  return float4{p[0], p[1], p[2], 0.f};
#endif
}
#elif (defined(__GNUC__) || defined(__clang__)) && defined(__arm__) && defined(__ARM_NEON)
#define RKNNOP_DETAIL_FLOAT4 1
// GCC lowers vector-extension float arithmetic to scalar VFP on ARMv7 (NEON is not IEEE): intrinsics.
struct float4 {
  float32x4_t v;
};
inline float4 operator+(float4 a, float4 b) noexcept { return {vaddq_f32(a.v, b.v)}; }
// A splat, not VMUL by scalar (vmulq_n_f32): GCC 12 moves the scalar into a D-register lane again on
// every iteration of the loop around it (8 moves a tap in tap_rows, 3 a vector in combine); a splat's
// Q register stays out of the loop. Same products.
inline float4 operator*(float4 a, float b) noexcept { return {vmulq_f32(a.v, vdupq_n_f32(b))}; }
inline float4& operator+=(float4& a, float4 b) noexcept { return a = a + b; }
inline float4 load4(const float* p) noexcept { return {vld1q_f32(p)}; }
inline void store4(float* p, float4 v) noexcept { vst1q_f32(p, v.v); }

// FPSCR's cumulative flags that NEON sets when it flushes: IDC (bit 7, an input flushed to zero) and
// UFC (bit 3, a result flushed, or tiny). The lanes of a piece of work rounded as scalar code iff
// neither was set and no NaN reached its results (a NaN's payload is the only other difference, and
// a NaN that entered an operation leaves a NaN in every result it feeds). A check after the work:
//   const unsigned saved = checked_lanes::start();  ... 4 lanes ...
//   if (!checked_lanes::exact(saved, out, n)) ... redo it on the scalar path ...
struct checked_lanes {
  static constexpr unsigned flush_flags = (1u << 7) | (1u << 3);
  static unsigned fpscr() noexcept {
    unsigned v;
    __asm__ __volatile__("vmrs %0, fpscr" : "=r"(v) : : "memory");
    return v;
  }
  static void set_fpscr(unsigned v) noexcept { __asm__ __volatile__("vmsr fpscr, %0" : : "r"(v) : "memory"); }
  static unsigned start() noexcept {
    const unsigned saved = fpscr();
    set_fpscr(saved & ~flush_flags);
    return saved;
  }
  // Whether no flag was raised since start() and the n floats at out hold no NaN; restores the
  // caller's flags.
  static bool exact(unsigned saved, const float* out, std::size_t n) noexcept {
    const unsigned now = fpscr();
    set_fpscr(now | (saved & flush_flags));
    if (now & flush_flags) return false;
    uint32x4_t same = vdupq_n_u32(~0u);  // x == x except for NaN (subnormals compare as zeros: equal)
    std::size_t i = 0;
    for (; i + 4 <= n; i += 4) {
      const float32x4_t x = vld1q_f32(out + i);
      same = vandq_u32(same, vceqq_f32(x, x));
    }
    const uint32x2_t half = vand_u32(vget_low_u32(same), vget_high_u32(same));
    bool fine = (vget_lane_u32(half, 0) & vget_lane_u32(half, 1)) == ~0u;
    for (; i < n; ++i) fine = fine && out[i] == out[i];
    return fine;
  }
};
#endif

// out[i] = (acc[i] + r[0][i] * w[0] + ... + r[K-1][i] * w[K-1]) * scale for i < n, added in that
// order (scale 1 changes nothing: x * 1 is exact); acc may be out. 4 lanes when `lanes`.
template <std::size_t K>
void add_rows(float* out, const float* acc, const float* const* rows, const float* weights, float scale, std::size_t n,
              [[maybe_unused]] bool lanes) noexcept {
  const float* r[K];  // locals: the stores below may alias anything, the caller's arrays included
  float w[K];
  for (std::size_t j = 0; j < K; ++j) r[j] = rows[j], w[j] = weights[j];
  std::size_t i = 0;
  [&]<std::size_t... J>(std::index_sequence<J...>) {
#ifdef RKNNOP_DETAIL_FLOAT4
    for (; lanes && i + 4 <= n; i += 4) {
      float4 sum = load4(acc + i);
      ((sum += load4(r[J] + i) * w[J]), ...);
      store4(out + i, sum * scale);
    }
#endif
    for (; i < n; ++i) {
      float sum = acc[i];
      ((sum += r[J][i] * w[J]), ...);
      out[i] = sum * scale;
    }
  }(std::make_index_sequence<K>{});
}

}  // namespace detail

// out[i] = acc[i] + x[i] * w for i < n (multiply, then add); acc may be out, or null for zeros
// (0 + x * w: TensorFlow's first term of a sum).
inline void add_product(float* out, const float* acc, const float* x, float w, std::size_t n) noexcept {
  std::size_t i = 0;
  if (!acc) {
#ifdef RKNNOP_DETAIL_FLOAT4_IEEE
    for (; i + 4 <= n; i += 4) detail::store4(out + i, detail::float4{} + detail::load4(x + i) * w);
#endif
    for (; i < n; ++i) out[i] = 0.f + x[i] * w;
    return;
  }
#ifdef RKNNOP_DETAIL_FLOAT4_IEEE
  for (; i + 4 <= n; i += 4) detail::store4(out + i, detail::load4(acc + i) + detail::load4(x + i) * w);
#endif
  for (; i < n; ++i) out[i] = acc[i] + x[i] * w;
}

// y[i] *= w for i < n.
inline void multiply(float* y, float w, std::size_t n) noexcept {
  std::size_t i = 0;
#ifdef RKNNOP_DETAIL_FLOAT4_IEEE
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
// tap_table::add: one out-of-line copy in a library compiled for size (RKNNOP_COMPACT_GLUE, an RKNN v1
// board library: 0.6 KB per kernel inlined), inlined elsewhere (an RKNPU2 call on a tiny image adds
// 8 taps: their calls and checks were a tenth of the plugin's instructions).
#if RKNNOP_COMPACT_GLUE
#define RKNNOP_DETAIL_TABLE_ADD [[gnu::noinline]]
#else
#define RKNNOP_DETAIL_TABLE_ADD
#endif
class tap_table {
public:
  // The constructor and add run once per table and tap, not per pixel: the constructor has one
  // out-of-line copy (inlined, it and add cost a board library ~0.6 KB per kernel; docs/performance.md
  // §3; add: RKNNOP_DETAIL_TABLE_ADD above). A small table
  // (a tiny image's) lives inside the object; a larger one in one heap block.
  [[gnu::noinline]] tap_table(std::size_t outputs, std::size_t inputs, std::size_t max_taps,
                              std::size_t channels) noexcept
      : outputs_(outputs),
        inputs_(inputs),
        max_taps_(max_taps),
        channels_(channels),
        wide_end_(outputs ? outputs - 1 : 0) {
    constexpr std::size_t per_tap = sizeof(tap), per_output = sizeof(std::uint32_t);
    // No table (operator bool) when its size overflows or an input offset would not fit 32 bits.
    overflow_ = max_taps > (~std::size_t{0} - per_output) / per_tap ||
                outputs > ~std::size_t{0} / (max_taps * per_tap + per_output) ||
                (channels && inputs > 0xFFFFFFFFu / channels);
    if (overflow_) return;
    const std::size_t tap_bytes = outputs * max_taps * per_tap, bytes = tap_bytes + outputs * per_output;
    void* p = local_;
    if (bytes > sizeof local_) p = heap_ = std::malloc(bytes);
    if (!p) {
      overflow_ = true;
      return;
    }
    taps_ = static_cast<tap*>(p);
    count_ = reinterpret_cast<std::uint32_t*>(static_cast<unsigned char*>(p) + tap_bytes);
    std::memset(count_, 0, outputs * per_output);  // the taps are written before they are read
  }
  tap_table(const tap_table&) = delete;
  tap_table& operator=(const tap_table&) = delete;
  ~tap_table() { std::free(heap_); }

  // False when allocation failed, a row has 2^32 floats or more, or a tap was out of range (output or
  // input index, more than max_taps).
  explicit operator bool() const noexcept { return !overflow_; }

  RKNNOP_DETAIL_TABLE_ADD void add(std::size_t output, std::size_t input, float weight) noexcept {
    if (overflow_ || output >= outputs_ || input >= inputs_ || count_[output] >= max_taps_) {
      overflow_ = true;
      return;
    }
    const std::size_t offset = input * channels_;  // < 2^32 (the constructor)
    taps_[output * max_taps_ + count_[output]++] = {static_cast<std::uint32_t>(offset), weight};
    if (offset + 4 > inputs_ * channels_ && output < wide_end_) wide_end_ = output;
  }

  std::size_t input_floats() const noexcept { return inputs_ * channels_; }    // of one row
  std::size_t output_floats() const noexcept { return outputs_ * channels_; }  // of one row

  // out[o*channels + c] for every output o and channel c, from in[i*channels + c], for `rows` rows:
  // row r reads from in + r*in_stride and writes to out + r*out_stride (strides in floats). No
  // output row may overlap an input row.
  void apply(const float* in, float* out, std::size_t rows = 1, std::size_t in_stride = 0,
             std::size_t out_stride = 0) const noexcept {
    std::size_t r = 0;
#ifdef RKNNOP_DETAIL_FLOAT4_IEEE
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
  friend class tap_rows;
  friend class separable;  // small maps straight from the taps
  struct tap {
    std::uint32_t offset;  // input * channels
    float weight;
  };

#ifdef RKNNOP_DETAIL_FLOAT4
  static constexpr std::size_t group = 8;  // rows per apply_wide<group> call (tap_rows' unit)
  bool wide() const noexcept { return channels_ == 3 || channels_ == 4; }
#else
  static constexpr std::size_t group = 4;
  bool wide() const noexcept { return false; }
#endif

  // Outputs from `first` on, one channel at a time (one out-of-line copy: it runs on few outputs).
  [[gnu::noinline]] void apply_scalar(const float* in, float* out, std::size_t first) const noexcept {
    for (std::size_t o = first; o < outputs_; ++o)
      for (std::size_t c = 0; c < channels_; ++c) {
        float sum = 0.f;
        for (const tap *t = taps_ + o * max_taps_, *end = t + count_[o]; t != end; ++t)
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
    const std::uint32_t* const count = count_;
    const std::size_t max_taps = max_taps_, channels = channels_, wide_end = wide_end_;
    const tap* first = taps_;
    for (std::size_t o = 0; o < wide_end; ++o, first += max_taps, out += channels)
      [&]<std::size_t... R>(std::index_sequence<R...>) {
        if constexpr (Rows > 1) {
          // Hints for the same place Rows rows down, where a caller walking down an image goes
          // next: two of the Rows rows per output, in turn, which reaches every cache line of each
          // row while outputs are at most 16 bytes apart (3 or 4 channels). Never dereferenced, so
          // computed as integers: past the last row they point nowhere valid.
          const std::uintptr_t below = reinterpret_cast<std::uintptr_t>(in + first->offset) +
                                       (Rows + 2 * (o & (Rows / 2 - 1))) * in_stride * sizeof(float);
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

  std::size_t outputs_, inputs_, max_taps_, channels_;
  tap* taps_ = nullptr;             // outputs_ * max_taps_ taps, in local_ or heap_
  std::uint32_t* count_ = nullptr;  // taps added per output, after them
  void* heap_ = nullptr;
  std::size_t wide_end_;  // outputs before it have every tap's 4-float load inside the input row
  bool overflow_ = false;
  // Up to 5 outputs of 5 taps (220 bytes): a tiny image's tables need no allocation.
  alignas(tap) unsigned char local_[256];
};

// The rows of images through a tap_table (the first pass of a separable kernel), computed on demand
// eight at a time and kept while they are asked for again: a second pass that walks rows in order,
// each one or a few times, gets every row computed once (or twice, near an image's last rows), with
// the table's loads shared by 8 rows.
//   rknnop::tap_rows sums(columns);           // after the taps are added; test it like a pointer
//   const float* s = sums(image, height, y);  // row y < height of the image whose row 0 is at `image`
// Input rows are dense (columns.input_floats() apart). A returned row is valid until the next call,
// and so are the rows of the same group of 8 and of the group before it (a second pass reading up to
// 9 consecutive rows in order finds them all valid); nullptr when y >= height. Rows are keyed by
// address: the images must not change while it is in use.
class tap_rows {
public:
  explicit tap_rows(const tap_table& table) noexcept
      : table_(table), in_(table.input_floats()), out_(table.output_floats()), rows_((2 * group + 1) * out_) {}

  explicit operator bool() const noexcept { return bool(rows_); }

  const float* operator()(const float* image, std::size_t height, std::size_t y) noexcept {
    if (y >= height) return nullptr;
    const float* const row = image + y * in_;
    for (std::size_t k = 0; k < 2 * group; ++k)
      if (key_[k] == row) return rows_.data() + k * out_;
    half_ ^= group;  // slots 0-7 or 8-15, whichever was filled less recently
    float* const out = rows_.data() + half_ * out_;
    // A whole group: rows y.., or the image's last 8 (recomputing rows is exact, only slower).
    const std::size_t start = height < group || y + group <= height ? y : height - group;
    const std::size_t n = height - start < group ? height - start : group;
    const float* const first = image + start * in_;
#ifdef RKNNOP_DETAIL_FLOAT4
    if (n == group && lanes_ && table_.wide())
      table_.apply_wide<group>(first, out, in_, out_);
    else
#endif
      for (std::size_t r = 0; r < n; ++r) table_.apply_scalar(first + r * in_, out + r * out_, 0);
    for (std::size_t k = 0; k < group; ++k) key_[half_ + k] = k < n ? first + k * in_ : nullptr;
    return out + (y - start) * out_;
  }

  // Output row o of a second pass along the rows, `vertical` (a tap_table of one channel, whose
  // inputs are rows of the image): out = (((0 + row(y0) * w0) + row(y1) * w1) + ...) * scale, per
  // element, in the order the taps were added. False when a row could not be computed (y >= height).
  //   rknnop::tap_table rows(out_h, in_h, max_taps, 1);  // rows.add(oy, y, w) ...
  //   sums.combine(out_row, image, in_h, rows, oy, scale);
  bool combine(float* out, const float* image, std::size_t height, const tap_table& vertical, std::size_t o,
               float scale) noexcept {
    if (o >= vertical.outputs_) return false;
    if (!out_) return true;  // rows of no floats
    const tap_table::tap* t = vertical.taps_ + o * vertical.max_taps_;
    std::size_t k = vertical.count_[o];
    if (!k) std::memset(out, 0, out_ * sizeof(float));   // no taps: a sum of nothing
    const float* acc = rows_.data() + 2 * group * out_;  // a row of zeros: TensorFlow's sums start from 0
    while (k) {
      // Two rows per pass. Consecutive rows lie in at most two groups, both kept; rows far apart
      // may not (the second row's group can replace the first's): then one row per pass.
      std::size_t m = k >= 2 ? 2 : 1;
      const float* r[2];
      float w[2];
      for (std::size_t j = 0; j < m; ++j) {
        r[j] = (*this)(image, height, t[j].offset);
        w[j] = t[j].weight;
        if (!r[j]) return false;
      }
      bool together = true;  // the first rows still there after the later ones were computed
      for (std::size_t j = 0; j + 1 < m; ++j) together = together && holds(image + t[j].offset * in_, r[j]);
      if (!together) m = 1, r[0] = (*this)(image, height, t[0].offset);
      const float s = k == m ? scale : 1.f;
      if (m == 2) detail::add_rows<2>(out, acc, r, w, s, out_, lanes_);
      if (m == 1) detail::add_rows<1>(out, acc, r, w, s, out_, lanes_);
      t += m, k -= m, acc = out;
    }
    return true;
  }

private:
  friend class separable;  // turns checked lanes on (ARMv7)
  bool holds(const float* row, const float* slot) const noexcept {
    return key_[std::size_t(slot - rows_.data()) / out_] == row;
  }

  static constexpr std::size_t group = tap_table::group;
  const tap_table& table_;
  std::size_t in_, out_;              // floats per input and output row
  buffer<float> rows_;                // 2 groups of output rows, then a row of zeros
  const float* key_[2 * group] = {};  // the input row each slot holds
  std::size_t half_ = group;
#ifdef RKNNOP_DETAIL_FLOAT4_IEEE
  static constexpr bool lanes_ = true;  // 4 lanes for the rows of a wide() table and for combine
#else
  bool lanes_ = false;  // ARMv7: only under a check (rknnop::separable)
#endif
};

}  // namespace rknnop

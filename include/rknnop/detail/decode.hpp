// SPDX-License-Identifier: MIT
#pragma once

// Layer 9 of detail/ (docs/architecture.md §1): decoding, backend-neutral. Non-template work every
// backend's calls share: a runtime tensor's shape and dtype (tensor_info), the rank and dtype rules,
// element conversion at the boundary, output buffers, their markers and the output check. Per-op
// templates only pass constexpr descriptions here; a backend's own I/O is in its room (RKNN v1's
// OpenVX calls: detail/openvx/io.hpp).

#include <rknnop/detail/field_desc.hpp>
#include <rknnop/detail/log.hpp>
#include <rknnop/detail/scratch.hpp>
#include <rknnop/parallel.hpp>
#include <rknnop/status.hpp>
#include <rknnop/tensor.hpp>
#include <rknnop/types.hpp>

#include <cstddef>      // std::size_t
#include <cstdint>      // fixed-width types
#include <cstdlib>      // std::getenv (RKNNOP_ALLOW_LOSSY)
#include <cstring>      // std::memcpy
#include <limits>       // address-space bound
#include <string_view>  // names

RKNNOP_DETAIL_BEGIN_HIDDEN  // see config.hpp: nothing of the SDK is exported
RKNNOP_DETAIL_BEGIN_GLUE    // see config.hpp: compiled for size

namespace rknnop::detail {
// Shape and dtype of a runtime tensor. For a layout-tagged (NHWC/NCHW) field, `dims`/`rank` are
// what the kernel's view sees: a tensor of lower rank (the model left out batch 1, as the toolkit's
// own ResizeArea model does for its [h, w, c] output) gets its missing outer dims as 1s.
struct tensor_info {
  std::uint32_t dims[max_tensor_rank] = {};
  std::uint32_t rank = 0;
  std::uint32_t tensor_rank = 0;  // the runtime tensor's own rank: what copies pass to the driver
  std::int32_t dtype = vx_type::invalid;
  std::size_t elements = 0;
};

constexpr bool accepts(const field_desc& f, std::int32_t dtype) noexcept {
  for (std::uint32_t i = 0; i < f.accepted_count; ++i)
    if (f.accepted[i] == dtype) return true;
  return false;
}

RKNNOP_DETAIL_COLD inline outcome dtype_mismatch(const field_desc& f, std::int32_t got) noexcept {
  status s = error("{} '{}': expected dtype ", role_name(f.kind), f.name);
  for (std::uint32_t i = 0; i < f.accepted_count; ++i) {
    if (i) s.append(" or ");
    s.append(vx_type_name(f.accepted[i]));
  }
  s.append(error(", got {}", vx_type_name(got)).message());
  return outcome(status_code::invalid_type, s);
}

RKNNOP_DETAIL_COLD inline void append_dims(status& s, const std::uint32_t* dims, std::uint32_t rank) noexcept {
  s.append("[");
  for (std::uint32_t i = 0; i < rank; ++i) {
    if (i) s.append(",");
    detail::append_any(s, dims[i]);
  }
  s.append("]");
}

// The same dims as the user writes a NumPy shape, outermost first: (1, 4, 4, 3), (5,).
RKNNOP_DETAIL_COLD inline void append_numpy_shape(status& s, const std::uint32_t* dims, std::uint32_t rank) noexcept {
  s.append("(");
  for (std::uint32_t i = rank; i-- > 0;) {
    detail::append_any(s, dims[i]);
    if (i) s.append(", ");
  }
  s.append(rank == 1 ? ",)" : ")");
}

// A layout-tagged (NHWC/NCHW) field's rank rule, shared by every backend: a lower rank is the same
// tensor with its outer dims of 1 left out (batch 1), padded back here; a higher rank is an error.
inline outcome to_layout_rank(const field_desc& f, tensor_info& info) noexcept {
  if (f.required_rank && info.rank > f.required_rank) {
    status s = error("{} '{}': expected rank {} ({}; a lower rank is taken as batch 1), got rank {} with dims ",
                     role_name(f.kind), f.name, f.required_rank, f.layout, info.rank);
    append_dims(s, info.dims, info.rank);
    return outcome(status_code::invalid_dimension, s);
  }
  for (; info.rank < f.required_rank; ++info.rank) info.dims[info.rank] = 1;
  return {};
}

// Whether two shapes (innermost first) are the same tensor shape; for a layout-tagged field, outer
// dims of 1 that one of them leaves out do not count (a rank-3 [3,64,64] is NHWC [3,64,64,1]).
inline bool same_shape(const field_desc& f, const std::uint32_t* a, std::uint32_t rank_a, const std::uint32_t* b,
                       std::uint32_t rank_b) noexcept {
  const std::uint32_t rank = rank_a > rank_b ? rank_a : rank_b;
  if (!f.required_rank && rank_a != rank_b) return false;
  for (std::uint32_t d = 0; d < rank; ++d)
    if ((d < rank_a ? a[d] : 1u) != (d < rank_b ? b[d] : 1u)) return false;
  return true;
}

inline std::uint32_t accepted_index(const field_desc& f, std::int32_t dtype) noexcept {
  for (std::uint32_t i = 0; i < f.accepted_count; ++i)
    if (f.accepted[i] == dtype) return i;
  return 0;  // unreachable: dtypes are checked by query_tensor first
}

// Element conversion of a whole tensor at the boundary, split over the pool's threads
// (rknnop::parallel_for) in ranges of at least convert_grain elements (~10 us of F16C work: less is
// not worth waking a worker). One thread or a small tensor: one call, as before.
inline constexpr std::size_t convert_grain = std::size_t(1) << 15;
using convert_fn = void (*)(const void*, void*, std::size_t) noexcept;

// Elements [begin, end) from src (from_size bytes each) to dst (to_size bytes each); the ranges'
// writes must not overlap other ranges' reads (callers below make sure).
inline void convert_range(convert_fn fn, const char* src, std::size_t from_size, char* dst, std::size_t to_size,
                          std::size_t begin, std::size_t end) noexcept {
  parallel_for(end - begin, convert_grain, [=](std::size_t a, std::size_t b) noexcept {
    fn(src + (begin + a) * from_size, dst + (begin + a) * to_size, b - a);
  });
}

// Whether the runtime's tensor copies run on the pool's threads, each range copying (and converting)
// its own slab of the tensor: the PC library (config.hpp), whose runtime's vxCopyTensorPatch may run
// on several threads at once. A board's driver is called from the node's own thread only, one copy
// per tensor.
inline constexpr bool copies_on_the_pool = RKNNOP_DETAIL_PC_LIBRARY != 0;

// A tensor as slabs for copies on the pool: `count` slabs of the runtime tensor's outermost dim of
// more than one, `size` elements each.
struct slabs {
  std::uint32_t dim = 0;
  std::size_t size = 1;
  std::size_t count = 0;
  // Slabs per range: at least convert_grain elements (fewer is not worth waking a worker).
  [[nodiscard]] std::size_t grain() const noexcept { return size >= convert_grain ? 1 : convert_grain / size; }
};

inline slabs slabs_of(const tensor_info& info) noexcept {
  slabs s;
  s.count = info.elements;
  for (std::uint32_t d = info.tensor_rank; d-- > 0;)
    if (info.dims[d] > 1) {
      s.dim = d;
      s.count = info.dims[d];
      s.size = s.count ? info.elements / s.count : 1;
      break;
    }
  return s;
}

// Whether copies_on_the_pool splits this tensor's copies into slabs `s`: into two ranges at least (a
// smaller tensor is copied, and converted, by this thread in one call).
inline bool split_copies(const tensor_info& info, slabs& s) noexcept {
  if (!copies_on_the_pool || info.elements < convert_grain) return false;  // one range at most
  s = slabs_of(info);
  return s.count / s.grain() >= 2;
}

// Output buffers start zeroed (kept scratch blocks: memset, split over the pool's threads) with a marker
// at up to 64 evenly spaced elements, for float element types a NaN with a payload no arithmetic
// produces; if every marker survives the kernel, it wrote nothing. O(1), and unwritten elements are
// never garbage. With RKNNOP_GUARD_BUFFERS (the PC library) every element of a float output starts as
// a signalling NaN with a payload instead, and the first element still holding it fails the node:
// arithmetic never yields a signalling NaN (IEEE 754 quiets every one an operation touches), so only a
// bit copy of an input element holding this very pattern could be mistaken for an unwritten element
// (docs/first-op.md §6). Integer outputs have no such value and are not checked.
inline constexpr std::uint32_t unwritten_f32 = 0x7FC0DEADu;
inline constexpr std::uint16_t unwritten_f16 = 0x7E5Bu;
inline constexpr std::uint32_t untouched_f32 = 0x7FA0DEADu;  // quiet bit (22) clear: signalling
inline constexpr std::uint16_t untouched_f16 = 0x7D5Bu;      // quiet bit (9) clear: signalling
inline constexpr std::size_t marker_count = 64;
inline constexpr bool check_every_element = RKNNOP_GUARD_BUFFERS != 0;

// Distance between markers: every element when there are at most marker_count.
inline std::size_t marker_step(std::size_t elements) noexcept {
  return elements <= marker_count ? 1 : elements / marker_count;
}

inline bool has_markers(const field_desc& f) noexcept {
  return f.vx_type == vx_type::float32 || f.vx_type == vx_type::float16;
}

// 16 bytes of elements as lanes (GCC's and Clang's vector extensions): the fill and the scans of
// check_every_element move 16 bytes a step instead of one element.
using lanes32 = std::uint32_t __attribute__((vector_size(16)));
using lanes16 = std::uint16_t __attribute__((vector_size(16)));

// Whether any lane of a comparison's result is set.
template <class V>
bool any_lane(V v) noexcept {
  std::uint64_t half[2];
  std::memcpy(half, &v, sizeof half);
  return (half[0] | half[1]) != 0;
}

// Elements [a, b) of a float output (float32 when f32, else float16) set to `marker` (a float32's bits,
// or a float16's in the low half), 64 bytes a step (the float16 pattern is its two bytes repeated:
// the same bytes on either endianness).
inline void fill_marker(bool f32, std::uint32_t marker, char* data, std::size_t a, std::size_t b) noexcept {
  const std::size_t size = f32 ? 4 : 2;
  const lanes32 pattern = lanes32{} + (f32 ? marker : (marker & 0xFFFFu) * 0x10001u);
  char* at = data + a * size;
  char* const end = data + b * size;
  for (; end - at >= 64; at += 64) {
    std::memcpy(at, &pattern, 16);
    std::memcpy(at + 16, &pattern, 16);
    std::memcpy(at + 32, &pattern, 16);
    std::memcpy(at + 48, &pattern, 16);
  }
  for (; end - at >= 16; at += 16) std::memcpy(at, &pattern, 16);
  for (; at != end; at += size) std::memcpy(at, &pattern, size);
}

// check_every_element: elements [a, b) set to the signalling NaN.
inline void fill_untouched(bool f32, char* data, std::size_t a, std::size_t b) noexcept {
  fill_marker(f32, f32 ? untouched_f32 : untouched_f16, data, a, b);
}

// The bytes of an output buffer's element: the wider of the kernel's type and the tensor's (the buffer
// is converted in place); allocate_output's, and RKNPU2 init's scratch sum.
inline std::size_t output_element_bytes(const field_desc& f, const tensor_info& info) noexcept {
  const std::size_t size = dtype_size(f.vx_type), to = dtype_size(info.dtype);
  return size > to ? size : to;
}

inline outcome allocate_output(const field_desc& f, const tensor_info& info, buffer_list& buffers,
                               void*& kernel_data) noexcept {
  const std::size_t element = output_element_bytes(f, info);
  kernel_data = info.elements <= ~std::size_t{0} / element ? buffers.allocate(info.elements * element) : nullptr;
  if (!kernel_data) return fail(status_code::no_memory, f, "cannot allocate {} elements", info.elements);
  auto* data = static_cast<char*>(kernel_data);
  if constexpr (check_every_element) {
    if (has_markers(f)) {
      // Every element gets the signalling NaN, on the pool's threads, with no zeroing pass before it
      // (only the bytes past the elements, when the tensor's type is wider, are zeroed).
      const bool f32 = f.vx_type == vx_type::float32;
      const std::size_t bytes = f32 ? 4 : 2;
      std::memset(data + info.elements * bytes, 0, info.elements * (element - bytes));
      parallel_for(info.elements, convert_grain,
                   [=](std::size_t a, std::size_t b) noexcept { fill_untouched(f32, data, a, b); });
      return {};
    }
  }
  // Zeroed by the pool's threads (one memset each; a buffer of less than two ranges by this thread,
  // without parallel_for's dispatch), then the markers. Not when the markers are every element and
  // as wide (at most marker_count elements of the marker's type), which leave no zero standing; an
  // RKNN v1 board library (RKNNOP_COMPACT_GLUE, its size budget) zeroes them all the same.
  const std::size_t bytes = info.elements * element;
  const bool all_marked = !RKNNOP_COMPACT_GLUE && !check_every_element && has_markers(f) &&
                          info.elements <= marker_count && element == (f.vx_type == vx_type::float32 ? 4u : 2u);
  if (!all_marked && bytes < convert_grain * 16)
    std::memset(data, 0, bytes);
  else if (!all_marked)
    parallel_for(bytes, convert_grain * 8,
                 [data](std::size_t a, std::size_t b) noexcept { std::memset(data + a, 0, b - a); });
  // (check_every_element: only outputs without markers get here; no marker loops compiled)
  if (check_every_element || !has_markers(f)) return {};
  const bool f32 = f.vx_type == vx_type::float32;
  if (!RKNNOP_COMPACT_GLUE && info.elements <= marker_count) {  // a marker at every element: 16 bytes a store
    fill_marker(f32, f32 ? unwritten_f32 : unwritten_f16, data, 0, info.elements);
    return {};
  }
  const std::size_t step = marker_step(info.elements);
  const std::size_t markers = info.elements < marker_count ? info.elements : marker_count;
  if (f32)
    for (std::size_t k = 0; k < markers; ++k) std::memcpy(data + k * step * 4, &unwritten_f32, 4);
  else
    for (std::size_t k = 0; k < markers; ++k) std::memcpy(data + k * step * 2, &unwritten_f16, 2);
  return {};
}

inline bool untouched(const field_desc& f, const tensor_info& info, const void* kernel_data) noexcept {
  if (!has_markers(f) || info.elements == 0) return false;
  const std::size_t markers = info.elements < marker_count ? info.elements : marker_count;
  const std::size_t step = marker_step(info.elements);
  const auto* data = static_cast<const char*>(kernel_data);
  for (std::size_t k = 0; k < markers; ++k) {
    if (f.vx_type == vx_type::float32) {
      std::uint32_t v;
      std::memcpy(&v, data + k * step * 4, 4);
      if (v != unwritten_f32) return false;  // usually at the first marker: the kernel wrote it
    } else {
      std::uint16_t v;
      std::memcpy(&v, data + k * step * 2, 2);
      if (v != unwritten_f16) return false;
    }
  }
  return true;
}

// check_every_element: the elements of a float output the kernel left as allocate_output set them.
struct unwritten_elements {
  std::size_t count = 0;
  std::size_t first = 0;
};

// Lowers *target to v unless it is already lower (ranges on the pool's threads report their first finds).
inline void lower_to(std::size_t* target, std::size_t v) noexcept {
  std::size_t seen = __atomic_load_n(target, __ATOMIC_RELAXED);
  while (v < seen && !__atomic_compare_exchange_n(target, &seen, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
}

// Elements [a, b) of a float output still holding allocate_output's signalling NaN, added to *total
// (count, and its first lowered). One range of the pool's. Out of line, like first_lossy: called once
// per run of flagged blocks, its loop is not worth a copy at each of screen_output's call sites.
[[gnu::noinline]] inline void add_unwritten(unwritten_elements* total, bool f32, const char* data, std::size_t a,
                                            std::size_t b) noexcept {
  std::size_t count = 0, first = b;
  for (std::size_t k = a; k < b; ++k) {
    bool left;
    if (f32) {
      std::uint32_t v;
      std::memcpy(&v, data + k * 4, 4);
      left = v == untouched_f32;
    } else {
      std::uint16_t v;
      std::memcpy(&v, data + k * 2, 2);
      left = v == untouched_f16;
    }
    if (left && !count++) first = k;
  }
  if (!count) return;
  __atomic_add_fetch(&total->count, count, __ATOMIC_RELAXED);
  lower_to(&total->first, first);
}

// check_every_element's screen: which blocks of 16 elements of an output need the exact checks
// (add_unwritten, first_lossy), 16 bytes a step; every other block is proven clean.
enum class screen : unsigned char {
  marker32,       // the kernel's float32 elements: blocks holding allocate_output's signalling NaN
  marker16,       // the same for float16 elements
  half_nan,       // float32 elements converted to float16: blocks holding a NaN or inf (the marker
                  // converts to a NaN)
  half_nan_zero,  // the same, and blocks holding a zero or subnormal: with exponents 1..30 a float16
                  // is normal and finite, which lossy_output never refuses
};

inline constexpr std::size_t screen_block = 16;

// From block k (of screen_block elements; `end` is k plus whole blocks), the first block the screen
// flags (want_flagged) or clears (!want_flagged), or `end` when none: one test per block, and the run's
// bookkeeping only where a run starts or ends (the identity node's scan: 32 -> 15 instructions per
// block, bench_threads). Out of line and not a template: one copy for every screen_output (compile time).
[[gnu::noinline]] inline std::size_t screen_blocks(screen what, const char* data, std::size_t k, std::size_t end,
                                                   bool want_flagged) noexcept {
  constexpr std::size_t block = screen_block;
  // hits(at): the lanes of block `at` the screen flags. Each 16 bytes is loaded into a vector of its
  // own (an array of them went through the stack). Blocks four at a time were faster still, at 1.5%
  // more compile time for every op (resize_area.cpp): not taken.
  const auto find = [&](auto hits) noexcept {
    for (; k != end; k += block)
      if (any_lane(hits(k)) == want_flagged) break;
    return k;
  };
  if (what == screen::marker32) {
    const lanes32 marker = lanes32{} + untouched_f32;
    return find([data, marker](std::size_t at) noexcept {
      lanes32 x0, x1, x2, x3;
      std::memcpy(&x0, data + at * 4, 16);
      std::memcpy(&x1, data + at * 4 + 16, 16);
      std::memcpy(&x2, data + at * 4 + 32, 16);
      std::memcpy(&x3, data + at * 4 + 48, 16);
      return (x0 == marker) | (x1 == marker) | (x2 == marker) | (x3 == marker);
    });
  }
  if (what == screen::marker16) {
    const lanes16 marker = lanes16{} + untouched_f16;
    return find([data, marker](std::size_t at) noexcept {
      lanes16 x0, x1;
      std::memcpy(&x0, data + at * 2, 16);
      std::memcpy(&x1, data + at * 2 + 16, 16);
      return (x0 == marker) | (x1 == marker);
    });
  }
  // The halves: the exponent's bits all set (NaN, inf), or, under half_nan_zero, all clear.
  const lanes16 pattern = lanes16{} + std::uint16_t{0x7C00};
  const lanes16 also = what == screen::half_nan_zero ? lanes16{} : pattern;
  return find([data, pattern, also](std::size_t at) noexcept {
    lanes16 x0, x1;
    std::memcpy(&x0, data + at * 2, 16);
    std::memcpy(&x1, data + at * 2 + 16, 16);
    const lanes16 y0 = x0 & pattern, y1 = x1 & pattern;
    return (y0 == pattern) | (y1 == pattern) | (y0 == also) | (y1 == also);
  });
}

// Runs exact(begin, end) on each run of neighbouring blocks of elements [a, b) (of `data`: the kernel's
// elements for the markers, the converted ones for the halves) that the screen cannot clear, the tail
// of fewer than 16 elements with them: one call per run, not per block (an output of many zeros flags
// most blocks under half_nan_zero).
template <class Exact>
void screen_output(screen what, const char* data, std::size_t a, std::size_t b, Exact&& exact) noexcept {
  const std::size_t full = a + (b - a) / screen_block * screen_block;  // the blocks; fewer than 16 after them
  std::size_t k = a;
  while (k != full && (k = screen_blocks(what, data, k, full, true)) != full) {
    const std::size_t clean = screen_blocks(what, data, k + screen_block, full, false);
    if (clean == full) break;  // the run reaches the tail: checked with it
    exact(k, clean);
    k = clean + screen_block;
  }
  if (k < b) exact(k, b);  // the tail, with the run it ends
}

inline unwritten_elements find_unwritten(const field_desc& f, const tensor_info& info,
                                         const void* kernel_data) noexcept {
  unwritten_elements r;
  if (!has_markers(f)) return r;
  const auto* data = static_cast<const char*>(kernel_data);
  const bool f32 = f.vx_type == vx_type::float32;
  unwritten_elements* const total = &r;
  r.first = info.elements;
  // Split over the pool's threads: each range adds its count and lowers the first index.
  parallel_for(info.elements, convert_grain, [=](std::size_t a, std::size_t b) noexcept {
    screen_output(f32 ? screen::marker32 : screen::marker16, data, a, b,
                  [=](std::size_t s, std::size_t e) noexcept { add_unwritten(total, f32, data, s, e); });
  });
  if (!r.count) r.first = 0;
  return r;
}

// The one line for a float output the kernel left partly (or wholly) unwritten, with the first such
// element's NumPy index (outermost first).
// "1, 0, 3": the NumPy index (outermost first) of flat element `flat` of a tensor (dims innermost first).
struct numpy_index_text {
  char text[80] = {};
  std::size_t used = 0;
  numpy_index_text(const tensor_info& info, std::size_t flat) noexcept {
    std::uint32_t at[max_tensor_rank] = {};
    for (std::uint32_t d = 0; d < info.tensor_rank && d < max_tensor_rank; ++d) {
      const std::size_t dim = info.dims[d] ? info.dims[d] : 1;
      at[d] = static_cast<std::uint32_t>(flat % dim);
      flat /= dim;
    }
    for (std::uint32_t d = info.tensor_rank; d-- > 0 && used + 12 < sizeof text;) {
      char digits[11] = {};
      std::size_t n = 0;
      for (std::uint32_t v = at[d]; n == 0 || v != 0; v /= 10) digits[n++] = static_cast<char>('0' + v % 10);
      while (n > 0) text[used++] = digits[--n];
      if (d != 0) {
        text[used++] = ',';
        text[used++] = ' ';
      }
    }
  }
  [[nodiscard]] std::string_view view() const noexcept { return {text, used}; }
};

RKNNOP_DETAIL_COLD inline outcome unwritten_failure(const field_desc& f, const tensor_info& info,
                                                    const unwritten_elements& r) noexcept {
  return fail(status_code::failure, f,
              "the CPU kernel left {} of {} elements unwritten, the first at element {} (NumPy index [{}]); "
              "`cpu` must write every output element",
              r.count, info.elements, r.first, numpy_index_text(info, r.first).view());
}

// The one line for a kernel that wrote outside a tensor's buffer (buffer_list::overrun).
RKNNOP_DETAIL_COLD inline outcome overrun_failure(const field_desc& f, const tensor_info& info,
                                                  const buffer_list::overrun_report& r) noexcept {
  const auto first = static_cast<long long>(r.first), last = static_cast<long long>(r.last);
  if (r.first < 0)
    return fail(status_code::failure, f,
                "the CPU kernel wrote before the start of its buffer: bytes {}..{} of a {}-byte buffer of {} "
                "elements; check the indices the kernel computes",
                first, last, r.size, info.elements);
  const std::size_t element = info.elements != 0 && r.size >= info.elements ? r.size / info.elements : 1;
  // Which is wrong, `cpu`'s indices or `infer`'s dims, the guard cannot tell: name both, the kernel first.
  return fail(status_code::failure, f,
              "the CPU kernel wrote past the end of its buffer: bytes {}..{} (from element {}) of a {}-byte "
              "buffer of {} elements; {}",
              first, last, r.first / static_cast<std::ptrdiff_t>(element), r.size, info.elements,
              f.kind == field_kind::output ? "check `cpu`'s indices against size(), then `infer`'s dims"
                                           : "a kernel must not write its inputs");
}

// The one line for a kernel that wrote outside an rknnop::buffer it allocated (scratch_guard).
RKNNOP_DETAIL_COLD inline outcome scratch_overrun_failure() noexcept {
  return outcome(status_code::failure,
                 error("the CPU kernel wrote {} an rknnop::buffer: bytes {}..{} of a {}-byte buffer",
                       scratch_guard::first < 0 ? "before the start of" : "past the end of", scratch_guard::first,
                       scratch_guard::last, scratch_guard::size));
}

// The written-check of an output after the kernel (check_output, every backend's, uses it in boards'
// builds): every element written (check_every_element), else not nothing at all (the markers).
inline outcome check_written(const field_desc& f, const tensor_info& info, const void* kernel_data) noexcept {
  if constexpr (check_every_element) {
    if (const unwritten_elements r = find_unwritten(f, info, kernel_data); r.count != 0)
      return unwritten_failure(f, info, r);
  } else if (untouched(f, info, kernel_data)) {
    return fail(status_code::failure, f, "the kernel wrote nothing (rknnop's unwritten markers are all still there)");
  }
  return {};
}

// An element as a double (every dtype's values are exact in a double).
template <class T>
double as_double(T x) noexcept {
  if constexpr (std::is_integral_v<T>)
    return static_cast<double>(x);
  else
    return static_cast<double>(static_cast<float>(x));
}

// One element of a tensor of VX type `type` as a double.
// Out of line: one switch over the dtypes compiled, not one per loop that reads elements through it.
[[gnu::noinline]] inline double element_value(std::int32_t type, const void* element) noexcept {
  double v = 0;
  visit_dtype(type, [&]<class T>(std::type_identity<T>) {
    T x;
    std::memcpy(&x, element, sizeof x);
    v = as_double(x);
  });
  return v;
}

// The PC library's precision rule for an output whose kernel type converts to a narrower float
// tensor (docs/running.md §1), as the host's for inputs: an integer that changes value (int32 2049
// -> float16 2048), a float that overflows to inf, becomes NaN, is flushed to zero or loses bits as
// a subnormal fails the node, naming the first such element; a normal float rounded is no loss.
// RKNNOP_ALLOW_LOSSY=1 (rknnop-run --allow-lossy) accepts it. Boards convert without checking.
inline bool lossy_output(std::int32_t kernel_type, std::int32_t tensor_type, double v, double c) noexcept {
  if (v != v || c == v) return false;  // NaN stays NaN; unchanged
  const bool integer = kernel_type != vx_type::float16 && kernel_type != vx_type::float32;
  const double smallest_normal = tensor_type == vx_type::float16 ? 6.103515625e-05 : 1.1754943508222875e-38;
  const double magnitude = c < 0 ? -c : c;
  return integer || c != c || magnitude > 3.4028234663852886e38 || magnitude < smallest_normal;
}

// lossy_output of one element of first_lossy's: the kernel's `element`, and `converted` to the tensor's dtype.
[[gnu::noinline]] inline bool lossy_element(std::int32_t kernel_type, std::int32_t tensor_type, const char* element,
                                            const char* converted) noexcept {
  return lossy_output(kernel_type, tensor_type, element_value(kernel_type, element),
                      element_value(tensor_type, converted));
}

inline bool lossy_allowed() noexcept {
  const char* allow = std::getenv("RKNNOP_ALLOW_LOSSY");
  return allow && allow[0] == '1' && allow[1] == '\0';
}

// The first element of [a, b) whose conversion lossy_output refuses, or b: `src` holds the kernel's
// elements, `dst` the same elements converted to the tensor's dtype (float16 or float32). A float
// kernel's element that became a normal float16 is no loss, so only the float16 exponents 0 and 31
// (zero and subnormals; inf and NaN) need the rule itself; float16 into float32 is exact. Two loops,
// each element checked by lossy_element (out of line): a loop per pair of the seven dtypes was 49
// instantiations compiled in every op's translation unit (issue 49 item 4).
[[gnu::noinline]] inline std::size_t first_lossy(std::int32_t kernel_type, std::int32_t tensor_type, const char* src,
                                                 const char* dst, std::size_t a, std::size_t b) noexcept {
  if (dtype_row(kernel_type) == dtype_count) return b;  // not a tensor dtype: nothing to check
  if (tensor_type != vx_type::float16 && tensor_type != vx_type::float32) return b;
  // float16 into float32 widens: every value (subnormals, inf, NaN) is exact, nothing to check.
  if (kernel_type == vx_type::float16 && tensor_type == vx_type::float32) return b;
  const std::size_t from = dtype_size(kernel_type), to = dtype_size(tensor_type);
  const auto lost = [&](std::size_t k) noexcept {
    return lossy_element(kernel_type, tensor_type, src + k * from, dst + k * to);
  };
  // (a float kernel into float16: the kernel's type is the tensor's or float32)
  if (tensor_type == vx_type::float16 && (kernel_type == tensor_type || kernel_type == vx_type::float32)) {
    for (std::size_t k = a; k < b; ++k) {  // the hot case: only the exponents 0 and 31 can be a loss
      std::uint16_t bits;
      std::memcpy(&bits, dst + k * 2, 2);
      const unsigned exponent = (bits >> 10) & 31u;
      if ((exponent == 0 || exponent == 31) && lost(k)) return k;
    }
    return b;
  }
  for (std::size_t k = a; k < b; ++k)  // an integer kernel's elements, each one checked
    if (lost(k)) return k;
  return b;
}

// The one line for an output element the conversion to the tensor's dtype loses (first_lossy):
// element i, the kernel's value at `element`.
RKNNOP_DETAIL_COLD inline outcome lossy_failure(const field_desc& f, const tensor_info& info, const char* element,
                                                std::size_t i) noexcept {
  const convert_fn fn = f.from_kernel[accepted_index(f, info.dtype)];
  alignas(8) unsigned char converted[8] = {};
  fn(element, converted, 1);
  const double v = element_value(f.vx_type, element), c = element_value(info.dtype, converted);
  const double magnitude = c < 0 ? -c : c;
  return fail(status_code::failure, f,
              "element {} (index [{}]) = {} becomes {}{} ({} to {}); rknnop-run --allow-lossy "
              "(RKNNOP_ALLOW_LOSSY=1) accepts it",
              i, numpy_index_text(info, i).view(), v, c,
              c != c                              ? std::string_view(" (NaN)")
              : magnitude > 3.4028234663852886e38 ? std::string_view(" (overflow)")
              : c == 0                            ? std::string_view(" (flushed to zero)")
              : f.vx_type == vx_type::float16 || f.vx_type == vx_type::float32
                  ? std::string_view(" (subnormal: bits lost)")
                  : std::string_view(),
              vx_type_name(f.vx_type), vx_type_name(info.dtype));
}

// check_and_convert's exact checks of elements [s, e), on the blocks the screen cannot clear (or on
// all of them where it has no rule: integer kernels, a checked float16 kernel). Out of line: one copy
// for screen_output's two call sites and the unscreened one (compile time).
struct exact_checks {
  unwritten_elements* total;
  std::size_t* first_lost;
  const char* src;
  const char* dst;
  std::int32_t kernel_type, tensor_type;
  bool markers, f32, precision;
  [[gnu::noinline]] void operator()(std::size_t s, std::size_t e) const noexcept {
    if (markers) add_unwritten(total, f32, src, s, e);
    if (!precision) return;
    const std::size_t k = first_lossy(kernel_type, tensor_type, src, dst, s, e);
    if (k != e) lower_to(first_lost, k);
  }
};

// check_every_element: an output the kernel wrote, in one pass over the pool's threads: each range,
// a piece of check_piece elements at a time (so that the checks read what the conversion just read),
// converts to the tensor's dtype into `converted` (when the dtypes differ), counts the elements left
// unwritten and finds the first element that conversion loses (unless RKNNOP_ALLOW_LOSSY=1), the
// exact rules running only where screen_output cannot clear a block.
inline constexpr std::size_t check_piece = 4096;
inline outcome check_and_convert(const field_desc& f, const tensor_info& info, const void* kernel_data,
                                 void* converted) noexcept {
  unwritten_elements r;
  r.first = info.elements;
  std::size_t lossy = info.elements;
  const auto* src = static_cast<const char*>(kernel_data);
  auto* dst = static_cast<char*>(converted);
  const bool markers = has_markers(f), f32 = f.vx_type == vx_type::float32;
  const convert_fn fn = converted ? f.from_kernel[accepted_index(f, info.dtype)] : nullptr;
  const bool precision =
      converted && (info.dtype == vx_type::float16 || info.dtype == vx_type::float32) && !lossy_allowed();
  const std::size_t from = dtype_size(f.vx_type), to = dtype_size(info.dtype);
  const std::int32_t kernel_type = f.vx_type, tensor_type = info.dtype;
  const exact_checks exact{&r, &lossy, src, dst, kernel_type, tensor_type, markers, f32, precision};
  // What the screen looks at: float32 to float16, the converted halves (a quarter of the bytes); else
  // the kernel's elements for the markers, unless the precision rule needs every element.
  const bool halves = fn && f32 && tensor_type == vx_type::float16;
  const bool screened = markers && (halves || !precision);
  const screen what = halves ? (precision ? screen::half_nan_zero : screen::half_nan)
                      : f32  ? screen::marker32
                             : screen::marker16;
  const char* const screened_data = halves ? dst : src;
  parallel_for(info.elements, convert_grain, [=](std::size_t a, std::size_t b) noexcept {
    // A piece at a time, converted and checked while it is in the cache.
    for (std::size_t s = a, e; s < b; s = e) {
      e = b - s > check_piece ? s + check_piece : b;
      if (fn) fn(src + s * from, dst + s * to, e - s);
      if (screened)
        screen_output(what, screened_data, s, e, exact);
      else if (markers || precision)
        exact(s, e);
    }
  });
  if (r.count) return unwritten_failure(f, info, r);
  if (lossy != info.elements) return lossy_failure(f, info, src + lossy * from, lossy);
  return {};
}

// THE check of an output the kernel wrote, on every backend (docs/architecture.md §1): every element
// written, and in checking builds (RKNNOP_GUARD_BUFFERS: the PC's) no value the conversion to the
// tensor's dtype loses (lossy_output; RKNNOP_ALLOW_LOSSY=1 accepts it). `converted` (nullptr when the
// dtypes agree) receives the elements in the tensor's dtype.
inline outcome check_output(const field_desc& f, const tensor_info& info, const void* kernel_data,
                            void* converted) noexcept {
  if constexpr (check_every_element) {
    return check_and_convert(f, info, kernel_data, converted);
  } else {
    if (outcome written = check_written(f, info, kernel_data); !written.ok()) return written;
    if (converted)
      convert_range(f.from_kernel[accepted_index(f, info.dtype)], static_cast<const char*>(kernel_data),
                    dtype_size(f.vx_type), static_cast<char*>(converted), dtype_size(info.dtype), 0, info.elements);
    return {};
  }
}

}  // namespace rknnop::detail

RKNNOP_DETAIL_END_GLUE
RKNNOP_DETAIL_END_HIDDEN

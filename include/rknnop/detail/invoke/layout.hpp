// SPDX-License-Identifier: MIT
#pragma once

// Layer 10 of detail/ (docs/architecture.md §1): layouts, the core's one rule for a layout-tagged
// tensor on every backend that knows the runtime's layout (MindSpore Lite, RKNPU2; RKNN v1's VX
// tensors carry none and are taken as declared): the kernel always sees the layout it declares.
// NHWC and NCHW are converted into each other (plan_layout, convert_permute4), lower ranks are
// batch 1; each adapter refuses the layouts it cannot name as one of the two.

#include <rknnop/detail/convert.hpp>
#include <rknnop/detail/decode.hpp>

#include <cstddef>  // std::size_t
#include <cstdint>  // fixed-width types
#include <cstring>  // std::memcpy

#if defined(__aarch64__) && defined(__ARM_NEON)
#include <arm_neon.h>  // LD3/ST3, LD4/ST4: 4 pixels' 3 or 4 channels (de)interleaved in one instruction
#endif

RKNNOP_DETAIL_BEGIN_HIDDEN  // see config.hpp: nothing of the SDK is exported

namespace rknnop::detail {
// How a tensor's data moves between the runtime's layout and the kernel's view. For a layout-tagged
// field of rank 4 (lower ranks are batch 1, padded), `runtime[4]` holds the tensor's dims outermost
// first as the runtime lays them out, and the kernel's dim i (outermost first) is runtime dim perm[i].
struct layout_plan {
  bool permute = false;  // the two layouts differ (and the tensor has more than one element)
  bool moves = false;    // ...and its bytes move: not when C or H*W is 1 (both layouts are then the same bytes)
  std::uint32_t runtime[4] = {};
  std::uint32_t perm[4] = {0, 1, 2, 3};
  // When it moves: images, and channels and pixels per image; whether the runtime's layout is NCHW
  // (else NHWC). What move_planned transposes without working them out again on every call.
  bool runtime_nchw = false;
  std::size_t images = 0, channels = 0, pixels = 0;
};

// The plans' permutations: the same layout; the runtime's NCHW to the kernel's NHWC, kernel (N, H, W, C) = runtime dims
// (0, 2, 3, 1); NHWC to NCHW, (0, 3, 1, 2). The last two are each the other's inverse.
inline constexpr std::uint32_t keep_layout[4] = {0, 1, 2, 3}, nchw_to_nhwc[4] = {0, 2, 3, 1},
                               nhwc_to_nchw[4] = {0, 3, 1, 2};
constexpr bool is_perm(const std::uint32_t p[4], const std::uint32_t (&q)[4]) noexcept {
  return p[0] == q[0] && p[1] == q[1] && p[2] == q[2] && p[3] == q[3];
}

// n elements of Size bytes from src to dst, src_step and dst_step elements apart (a fixed-size memcpy
// per element: one load and one store, no call; four per round, so that a short run, a tensor's few
// channels, is not mostly loop).
template <std::size_t Size>
void move_strided(const char* src, std::size_t src_step, char* dst, std::size_t dst_step, std::size_t n) noexcept {
  const std::size_t from = src_step * Size, to = dst_step * Size;
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4, src += 4 * from, dst += 4 * to) {
    std::memcpy(dst, src, Size);
    std::memcpy(dst + to, src + from, Size);
    std::memcpy(dst + 2 * to, src + 2 * from, Size);
    std::memcpy(dst + 3 * to, src + 3 * from, Size);
  }
  for (; i < n; ++i, src += from, dst += to) std::memcpy(dst, src, Size);
}
inline void move_strided(std::size_t size, const char* src, std::size_t src_step, char* dst, std::size_t dst_step,
                         std::size_t n) noexcept {
  switch (size) {
    case 1: return move_strided<1>(src, src_step, dst, dst_step, n);
    case 2: return move_strided<2>(src, src_step, dst, dst_step, n);
    case 4: return move_strided<4>(src, src_step, dst, dst_step, n);
    case 8: return move_strided<8>(src, src_step, dst, dst_step, n);
    default:
      for (std::size_t i = 0; i < n; ++i) std::memcpy(dst + i * dst_step * size, src + i * src_step * size, size);
  }
}

// `batches` matrices of rows x cols elements of Size bytes, each transposed from src into dst
// (dst[b][j][i] = src[b][i][j]): NCHW <-> NHWC is [C][H*W] <-> [H*W][C] per image. The inner loop
// goes along the longer side.
// A short side of 3 or 4 (an image's RGB or RGBA channels, or a plane of 3 or 4 pixels) has a loop of
// its own, each line of the long side moved with a fixed count: the generic loop's setup per short-side
// line is most of a small tensor's transpose (an RKNPU2 call on a 4x4x3 image).
// On AArch64, 4-byte elements (FLOAT32, what librknnrt hands a CPU op) go 4 lines of the long side
// at a time through NEON's structure loads and stores (ST3/ST4 interleave 3 or 4 registers of 4
// lanes, LD3/LD4 split them): the bytes as they are, fewer instructions than the element moves
// (an RKNPU2 call on a 4x4x3 image: 283 instructions in its two transposes before).
template <std::size_t Short>
[[gnu::always_inline]] inline std::size_t transpose_short_simd(const char* src, char* dst, std::size_t long_side,
                                                               bool short_first) noexcept {
#if defined(__aarch64__) && defined(__ARM_NEON)
  const std::size_t blocks = long_side / 4, line = long_side * 4;
  const char* const end = src + blocks * (short_first ? 16 : 16 * Short);
  if (short_first)  // [Short][long] -> [long][Short]
    for (; src != end; src += 16, dst += 16 * Short) {
      const auto* a = reinterpret_cast<const std::uint32_t*>(src);
      const auto* b = reinterpret_cast<const std::uint32_t*>(src + line);
      const auto* c = reinterpret_cast<const std::uint32_t*>(src + 2 * line);
      if constexpr (Short == 3) {
        vst3q_u32(reinterpret_cast<std::uint32_t*>(dst), (uint32x4x3_t{{vld1q_u32(a), vld1q_u32(b), vld1q_u32(c)}}));
      } else {
        const auto* d = reinterpret_cast<const std::uint32_t*>(src + 3 * line);
        vst4q_u32(reinterpret_cast<std::uint32_t*>(dst),
                  (uint32x4x4_t{{vld1q_u32(a), vld1q_u32(b), vld1q_u32(c), vld1q_u32(d)}}));
      }
    }
  else  // [long][Short] -> [Short][long]
    for (; src != end; src += 16 * Short, dst += 16) {
      auto* a = reinterpret_cast<std::uint32_t*>(dst);
      auto* b = reinterpret_cast<std::uint32_t*>(dst + line);
      auto* c = reinterpret_cast<std::uint32_t*>(dst + 2 * line);
      if constexpr (Short == 3) {
        const uint32x4x3_t v = vld3q_u32(reinterpret_cast<const std::uint32_t*>(src));
        vst1q_u32(a, v.val[0]);
        vst1q_u32(b, v.val[1]);
        vst1q_u32(c, v.val[2]);
      } else {
        const uint32x4x4_t v = vld4q_u32(reinterpret_cast<const std::uint32_t*>(src));
        vst1q_u32(a, v.val[0]);
        vst1q_u32(b, v.val[1]);
        vst1q_u32(c, v.val[2]);
        vst1q_u32(reinterpret_cast<std::uint32_t*>(dst + 3 * line), v.val[3]);
      }
    }
  return blocks * 4;
#else
  (void)src, (void)dst, (void)long_side, (void)short_first;
  return 0;
#endif
}

template <std::size_t Size, std::size_t Short>
[[gnu::always_inline]] inline void transpose_short(const char* src, char* dst, std::size_t long_side,
                                                   bool short_first) noexcept {
  const std::size_t line = long_side * Size;  // one row of the [Short][long] side, in bytes
  if constexpr (Size == 4) {                  // the lines the vector loop moved, then the last 0..3 below
    const std::size_t done = transpose_short_simd<Short>(src, dst, long_side, short_first);
    src += done * (short_first ? Size : Short * Size);
    dst += done * (short_first ? Short * Size : Size);
    long_side -= done;
  }
  const char* end = src + (short_first ? Size : Short * Size) * long_side;
  if (short_first)  // [Short][long] -> [long][Short]
    for (; src != end; src += Size, dst += Short * Size)
      for (std::size_t i = 0; i < Short; ++i) std::memcpy(dst + i * Size, src + i * line, Size);
  else  // [long][Short] -> [Short][long]
    for (; src != end; src += Short * Size, dst += Size)
      for (std::size_t i = 0; i < Short; ++i) std::memcpy(dst + i * line, src + i * Size, Size);
}

template <std::size_t Size>
void transpose(const char* src, char* dst, std::size_t batches, std::size_t rows, std::size_t cols) noexcept {
  const std::size_t plane = rows * cols * Size;
  const std::size_t short_side = rows < cols ? rows : cols, long_side = rows < cols ? cols : rows;
  if (short_side == 3 || short_side == 4) {
    for (std::size_t b = 0; b < batches; ++b, src += plane, dst += plane)
      if (short_side == 3)
        transpose_short<Size, 3>(src, dst, long_side, rows == 3);
      else
        transpose_short<Size, 4>(src, dst, long_side, rows == 4);
    return;
  }
  for (std::size_t b = 0; b < batches; ++b, src += plane, dst += plane)
    if (cols >= rows)  // source row i -> destination column i
      for (std::size_t i = 0; i < rows; ++i) move_strided<Size>(src + i * cols * Size, 1, dst + i * Size, rows, cols);
    else  // source column j -> destination row j
      for (std::size_t j = 0; j < cols; ++j) move_strided<Size>(src + j * Size, cols, dst + j * rows * Size, 1, rows);
}
// The same for elements of `size` bytes, an element type's: 4 (float32, the usual), 2, 1, else 8.
inline void transpose(std::size_t size, const char* src, char* dst, std::size_t batches, std::size_t rows,
                      std::size_t cols) noexcept {
  if (size == 4) return transpose<4>(src, dst, batches, rows, cols);
  if (size == 2) return transpose<2>(src, dst, batches, rows, cols);
  if (size == 1) return transpose<1>(src, dst, batches, rows, cols);
  transpose<8>(src, dst, batches, rows, cols);
}

// A 4-d tensor from one layout to another, each element converted by `fn` (nullptr: the same type,
// its bytes moved), in one pass: dst (outermost first: s[p[0]], s[p[1]], s[p[2]], s[p[3]]) from src
// (outermost first: s[0..3]), dst[i0][i1][i2][i3] = fn(src at index j with j[p[k]] = i[k]); elements
// are from_size bytes in src and to_size in dst. The work goes along whichever innermost dim is
// longer, dst's or src's, so conversions run on long contiguous stretches (through a small buffer on
// the stack for the strided side): NCHW -> NHWC goes along W rows of the source, NHWC -> NCHW along
// W rows of the destination, not 3 channels at a time.
inline void convert_permute4(convert_fn fn, const char* src, std::size_t from_size, char* dst, std::size_t to_size,
                             const std::uint32_t s[4], const std::uint32_t p[4]) noexcept {
  // The bytes only, NCHW <-> NHWC (the two permutations read_attr_shape plans): transposes.
  const bool to_nhwc = is_perm(p, nchw_to_nhwc), to_nchw = is_perm(p, nhwc_to_nchw);
  if (!fn && (to_nhwc || to_nchw)) {
    const std::size_t rows = to_nhwc ? s[1] : std::size_t(s[1]) * s[2],
                      cols = to_nhwc ? std::size_t(s[2]) * s[3] : s[3];
    return transpose(from_size, src, dst, s[0], rows, cols);
  }
  std::size_t src_stride[4], dst_dims[4], dst_stride[4], dst_stride_of_src_dim[4];
  src_stride[3] = 1;
  for (int d = 2; d >= 0; --d) src_stride[d] = src_stride[d + 1] * s[d + 1];
  for (int k = 0; k < 4; ++k) dst_dims[k] = s[p[k]];
  dst_stride[3] = 1;
  for (int k = 2; k >= 0; --k) dst_stride[k] = dst_stride[k + 1] * dst_dims[k + 1];
  for (int k = 0; k < 4; ++k) dst_stride_of_src_dim[p[k]] = dst_stride[k];
  constexpr std::size_t chunk = 64;  // elements per pass through the stack buffer
  alignas(16) char staged[chunk * 8];
  // One run: n elements, src_step apart in src (from_size bytes each) -> dst_step apart in dst.
  const auto run = [&](const char* from, std::size_t src_step, char* to, std::size_t dst_step, std::size_t n) {
    if (!fn) return move_strided(from_size, from, src_step, to, dst_step, n);
    if (src_step == 1 && dst_step == 1) return fn(from, to, n);
    for (std::size_t done = 0; done < n; done += chunk) {
      const std::size_t m = n - done < chunk ? n - done : chunk;
      const char* a = from + done * src_step * from_size;
      char* b = to + done * dst_step * to_size;
      if (dst_step == 1) {  // gather into the buffer, convert into place
        move_strided(from_size, a, src_step, staged, 1, m);
        fn(staged, b, m);
      } else {  // convert a contiguous source stretch, scatter it
        fn(a, staged, m);
        move_strided(to_size, staged, 1, b, dst_step, m);
      }
    }
  };
  if (dst_dims[3] >= s[3]) {  // along dst's innermost dim (contiguous in dst)
    const std::size_t e = dst_dims[3], se = src_stride[p[3]];
    for (std::size_t i = 0; i < dst_dims[0]; ++i)
      for (std::size_t j = 0; j < dst_dims[1]; ++j)
        for (std::size_t k = 0; k < dst_dims[2]; ++k) {
          const std::size_t at = i * src_stride[p[0]] + j * src_stride[p[1]] + k * src_stride[p[2]];
          run(src + at * from_size, se, dst, 1, e);
          dst += e * to_size;
        }
  } else {  // along src's innermost dim (contiguous in src)
    const std::size_t e = s[3], de = dst_stride_of_src_dim[3];
    for (std::size_t i = 0; i < s[0]; ++i)
      for (std::size_t j = 0; j < s[1]; ++j)
        for (std::size_t k = 0; k < s[2]; ++k) {
          const std::size_t at =
              i * dst_stride_of_src_dim[0] + j * dst_stride_of_src_dim[1] + k * dst_stride_of_src_dim[2];
          run(src, 1, dst + at * to_size, de, e);
          src += e * from_size;
        }
  }
}

// The layout the runtime gives a tensor, where it gives one of the two a tag names.
enum class tensor_layout : unsigned char { nchw, nhwc };

// Whether a field's layout tag is `name` ("NHWC", "NCHW"; the tag is "" or one of them).
constexpr bool layout_is(const char* layout, const char (&name)[5]) noexcept {
  return layout[0] == name[0] && layout[1] == name[1] && layout[2] == name[2] && layout[3] == name[3] &&
         layout[4] == '\0';
}

// THE layout rule: a layout-tagged field's tensor of rank <= 4 (dims outermost first, as the
// runtime lays them out in `runtime`) as the kernel's view: padded to rank 4 with outer dims of 1,
// then permuted into the declared layout. Fills info.rank and info.dims (innermost first, the
// kernel's layout) and `plan` (permute when the layouts differ, moves only when the bytes do).
inline void plan_layout(const field_desc& f, tensor_layout runtime, const std::uint32_t* dims, std::uint32_t n_dims,
                        tensor_info& info, layout_plan& plan) noexcept {
  const std::uint32_t rank = n_dims ? n_dims : 1;
  const std::uint32_t pad = 4 - rank;  // outer dims of 1
  for (std::uint32_t i = 0; i < pad; ++i) plan.runtime[i] = 1;
  for (std::uint32_t i = 0; i < n_dims; ++i) plan.runtime[pad + i] = dims[i];
  if (!n_dims) plan.runtime[3] = 1;
  const std::uint32_t* perm = keep_layout;
  if (runtime == tensor_layout::nchw && layout_is(f.layout, "NHWC")) perm = nchw_to_nhwc;
  if (runtime == tensor_layout::nhwc && layout_is(f.layout, "NCHW")) perm = nhwc_to_nchw;
  info.rank = 4;
  std::size_t elements = 1;
  for (std::uint32_t i = 0; i < 4; ++i) {
    plan.perm[i] = perm[i];
    info.dims[3 - i] = plan.runtime[perm[i]];
    elements *= plan.runtime[i];
  }
  plan.permute = perm != keep_layout && elements > 1;
  // Channels and pixels per image, as the runtime lays them out: NCHW (N, C, H, W), NHWC (N, H, W, C).
  const bool nchw = perm == nchw_to_nhwc;
  const std::size_t channels = nchw ? plan.runtime[1] : plan.runtime[3];
  const std::size_t pixels =
      nchw ? std::size_t(plan.runtime[2]) * plan.runtime[3] : std::size_t(plan.runtime[1]) * plan.runtime[2];
  plan.moves = plan.permute && channels != 1 && pixels != 1;
  plan.runtime_nchw = nchw;
  plan.images = plan.runtime[0];
  plan.channels = channels;
  plan.pixels = pixels;
}

// A tensor whose plan moves its bytes, moved between the two layouts (elements of `size` bytes, the
// same type on both sides): the runtime's to the kernel's (to_kernel), else back. NCHW <-> NHWC is a
// transpose per image, [C][H*W] <-> [H*W][C]: the one convert_permute4 makes of it, with the plan's
// dims, without its dispatch.
inline void move_planned(const layout_plan& plan, const char* src, char* dst, std::size_t size,
                         bool to_kernel) noexcept {
  const bool channels_first = plan.runtime_nchw == to_kernel;  // the source is [C][H*W] per image
  const std::size_t rows = channels_first ? plan.channels : plan.pixels;
  const std::size_t cols = channels_first ? plan.pixels : plan.channels;
  transpose(size, src, dst, plan.images, rows, cols);
}

}  // namespace rknnop::detail

RKNNOP_DETAIL_END_HIDDEN

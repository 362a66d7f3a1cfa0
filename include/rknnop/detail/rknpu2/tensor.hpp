// SPDX-License-Identifier: MIT
#pragma once

// Layer 13 of detail/ (docs/architecture.md §1), in the RKNPU2 backend's room, above the shared
// decoding layers and the core's attribute rules (detail/invoke/attrs.hpp): the non-template work
// of the RKNPU2 backend. librknnrt's tensors (dims
// outermost first, a format, an RKNN dtype) as rknnop's tensor views (dims innermost first, the
// op's layout), their data in and out (dtype conversion, NCHW <-> NHWC), node attribute items for
// the core's decoding, and the one-line diagnostics. <rknnop/rknpu2.hpp> only passes constexpr field
// descriptions here.

#include <rknnop/detail/decode.hpp>
#include <rknnop/detail/invoke/attrs.hpp>
#include <rknnop/detail/rknpu2/abi.hpp>
#include <rknnop/float16.hpp>
#include <rknnop/status.hpp>

#include <cstddef>      // std::size_t
#include <cstdint>      // fixed-width types
#include <cstring>      // std::memcpy, std::strlen
#include <limits>       // overflow bounds
#include <string_view>  // layout names

RKNNOP_DETAIL_BEGIN_HIDDEN  // see config.hpp: nothing of the SDK is exported

namespace rknnop::detail::rknpu2 {

// --- dtypes: one table, RKNN's enum value -> its name, element size and rknnop's VX type ----------
struct rknn_type_row {
  tensor_type type;
  const char* name;
  std::uint32_t size;  // bytes of one element (INT4: packed, not an element type here)
  vx_enum vx;          // VX_TYPE_INVALID: no rknnop tensor element type
};
inline constexpr rknn_type_row rknn_types[] = {
    {type_float32, "FLOAT32", 4, VX_TYPE_FLOAT32}, {type_float16, "FLOAT16", 2, VX_TYPE_FLOAT16},
    {type_int8, "INT8", 1, VX_TYPE_INT8},          {type_uint8, "UINT8", 1, VX_TYPE_UINT8},
    {type_int16, "INT16", 2, VX_TYPE_INT16},       {type_uint16, "UINT16", 2, VX_TYPE_UINT16},
    {type_int32, "INT32", 4, VX_TYPE_INT32},       {type_uint32, "UINT32", 4, VX_TYPE_INVALID},
    {type_int64, "INT64", 8, VX_TYPE_INVALID},     {type_bool, "BOOL", 1, VX_TYPE_INVALID},
    {type_int4, "INT4", 0, VX_TYPE_INVALID},
};

constexpr const rknn_type_row* find_rknn_type(std::int32_t type) noexcept {
  for (const rknn_type_row& row : rknn_types)
    if (row.type == type) return &row;
  return nullptr;
}
constexpr const char* rknn_type_name(std::int32_t type) noexcept {
  const rknn_type_row* row = find_rknn_type(type);
  return row ? row->name : "an unknown RKNN type";
}
constexpr vx_enum vx_of(std::int32_t type) noexcept {
  const rknn_type_row* row = find_rknn_type(type);
  return row ? row->vx : VX_TYPE_INVALID;
}
constexpr tensor_type rknn_of(vx_enum vx) noexcept {
  for (const rknn_type_row& row : rknn_types)
    if (row.vx == vx) return row.type;
  return type_float32;
}
constexpr const char* format_name(std::int32_t fmt) noexcept {
  switch (fmt) {
    case format_nchw: return "NCHW";
    case format_nhwc: return "NHWC";
    case format_nc1hwc2: return "NC1HWC2";
    case format_undefined: return "UNDEFINED";
    default: return "an unknown format";
  }
}

// Whether a tensor field can be fed by librknnrt: the non-native compute path hands a CPU op
// FLOAT32 tensors (FLOAT16 where the model keeps it), so a field must accept one of the two.
constexpr bool rknpu2_feedable(const field_desc& f) noexcept {
  return accepts(f, VX_TYPE_FLOAT32) || accepts(f, VX_TYPE_FLOAT16);
}

// --- layouts --------------------------------------------------------------------------------------
// How a tensor's data moves between librknnrt's layout and the kernel's view. For a layout-tagged
// field of rank 4 (lower ranks are batch 1, padded), `runtime[4]` holds the tensor's dims outermost
// first as the runtime lays them out, and the kernel's dim i (outermost first) is runtime dim perm[i].
struct layout_plan {
  bool permute = false;
  std::uint32_t runtime[4] = {};
  std::uint32_t perm[4] = {0, 1, 2, 3};
};

// The plans' permutations: the same layout; the runtime's NCHW (or an undefined format, as ONNX lays
// tensors out) to the kernel's NHWC, kernel (N, H, W, C) = runtime dims (0, 2, 3, 1); NHWC to NCHW,
// (0, 3, 1, 2). The last two are each the other's inverse.
inline constexpr std::uint32_t keep_layout[4] = {0, 1, 2, 3}, nchw_to_nhwc[4] = {0, 2, 3, 1},
                               nhwc_to_nchw[4] = {0, 3, 1, 2};
constexpr bool is_perm(const std::uint32_t p[4], const std::uint32_t (&q)[4]) noexcept {
  return p[0] == q[0] && p[1] == q[1] && p[2] == q[2] && p[3] == q[3];
}

// n elements of Size bytes from src to dst, src_step and dst_step elements apart (a fixed-size memcpy
// per element: one load and one store, no call).
template <std::size_t Size>
void move_strided(const char* src, std::size_t src_step, char* dst, std::size_t dst_step, std::size_t n) noexcept {
  for (std::size_t i = 0; i < n; ++i) std::memcpy(dst + i * dst_step * Size, src + i * src_step * Size, Size);
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
template <std::size_t Size>
void transpose(const char* src, char* dst, std::size_t batches, std::size_t rows, std::size_t cols) noexcept {
  const std::size_t plane = rows * cols * Size;
  for (std::size_t b = 0; b < batches; ++b, src += plane, dst += plane)
    if (cols >= rows)  // source row i -> destination column i
      for (std::size_t i = 0; i < rows; ++i) move_strided<Size>(src + i * cols * Size, 1, dst + i * Size, rows, cols);
    else  // source column j -> destination row j
      for (std::size_t j = 0; j < cols; ++j) move_strided<Size>(src + j * Size, cols, dst + j * rows * Size, 1, rows);
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
  if (!fn && (to_nhwc || to_nchw) && (from_size == 2 || from_size == 4)) {
    const std::size_t rows = to_nhwc ? s[1] : std::size_t(s[1]) * s[2],
                      cols = to_nhwc ? std::size_t(s[2]) * s[3] : s[3];
    return from_size == 4 ? transpose<4>(src, dst, s[0], rows, cols) : transpose<2>(src, dst, s[0], rows, cols);
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

RKNNOP_DETAIL_COLD inline outcome tensor_failure(const field_desc& f, const tensor_attr& a, const char* what) noexcept {
  status s = error("{} '{}': {} (the runtime's tensor: {} {} [", role_name(f.kind), f.name, what,
                   rknn_type_name(a.type), format_name(a.fmt));
  for (std::uint32_t i = 0; i < a.n_dims && i < max_dims; ++i) {
    if (i) s.append(",");
    detail::append_any(s, a.dims[i]);
  }
  s.append("])");
  return outcome(VX_ERROR_INVALID_PARAMETERS, s);
}

// Whether a field's layout tag is `name` ("NHWC", "NCHW"; the tag is "" or one of them).
constexpr bool layout_is(const char* layout, const char (&name)[5]) noexcept {
  return layout[0] == name[0] && layout[1] == name[1] && layout[2] == name[2] && layout[3] == name[3] &&
         layout[4] == '\0';
}

// Rank, dims (innermost first, in the kernel's layout) and dtype of a runtime tensor, checked
// against its field; `plan` says how its data moves. A rank-0 tensor is one element, [1].
inline outcome read_attr_shape(const tensor_attr& a, const field_desc& f, tensor_info& info,
                               layout_plan& plan) noexcept {
  if (a.n_dims > max_tensor_rank) return tensor_failure(f, a, "rknnop tensors have rank 1..6");
  const std::uint32_t rank = a.n_dims ? a.n_dims : 1;
  std::size_t elements = 1;
  for (std::uint32_t i = 0; i < a.n_dims; ++i) {
    if (a.dims[i] == 0) return tensor_failure(f, a, "a dim is 0");
    if (__builtin_mul_overflow(elements, a.dims[i], &elements) ||
        elements > std::numeric_limits<std::size_t>::max() / 8)
      return tensor_failure(f, a, "the dims overflow the address space");
  }
  info.elements = elements;
  info.dtype = vx_of(a.type);
  if (info.dtype == VX_TYPE_INVALID) return tensor_failure(f, a, "rknnop has no element type for this dtype");
  if (!accepts(f, info.dtype)) return dtype_mismatch(f, info.dtype);
  if (a.qnt_type != 0 && info.dtype != VX_TYPE_FLOAT32 && info.dtype != VX_TYPE_FLOAT16)
    return tensor_failure(f, a, "the tensor is quantized (zero point and scale): rknnop hands kernels plain values");
  info.tensor_rank = rank;
  plan.permute = false;
  if (f.layout[0] != '\0' && rank <= 4) {
    if (a.fmt == format_nc1hwc2) return tensor_failure(f, a, "NC1HWC2 data cannot reach a CPU op's compute");
    const std::uint32_t pad = 4 - rank;  // outer dims of 1
    for (std::uint32_t i = 0; i < pad; ++i) plan.runtime[i] = 1;
    for (std::uint32_t i = 0; i < a.n_dims; ++i) plan.runtime[pad + i] = a.dims[i];
    if (!a.n_dims) plan.runtime[3] = 1;
    const bool runtime_nhwc = a.fmt == format_nhwc;
    const std::uint32_t* perm = keep_layout;
    if (!runtime_nhwc && layout_is(f.layout, "NHWC")) perm = nchw_to_nhwc;
    if (runtime_nhwc && layout_is(f.layout, "NCHW")) perm = nhwc_to_nchw;
    info.rank = 4;
    for (std::uint32_t i = 0; i < 4; ++i) {
      plan.perm[i] = perm[i];
      info.dims[3 - i] = plan.runtime[perm[i]];
    }
    plan.permute = perm != keep_layout && elements > 1;
  } else {
    info.rank = rank;
    info.dims[0] = 1;  // rank 0
    for (std::uint32_t i = 0; i < a.n_dims; ++i) info.dims[i] = a.dims[a.n_dims - 1 - i];
    if (outcome ranked = to_layout_rank(f, info); !ranked.ok()) return ranked;
  }
  return {};
}

// The tensor's data, after checking that the runtime's buffer holds what its shape needs.
inline outcome tensor_data(const op_tensor& t, const field_desc& f, const tensor_info& info, char*& data) noexcept {
  const std::size_t need = info.elements * dtype_size(info.dtype);
  if (!t.mem.virt_addr) return tensor_failure(f, t.attr, "the runtime handed no memory (virt_addr is NULL)");
  if (t.mem.offset < 0) return tensor_failure(f, t.attr, "the runtime's memory offset is negative");
  if (t.mem.size != 0 && (std::size_t(t.mem.size) < std::size_t(t.mem.offset) ||
                          std::size_t(t.mem.size) - std::size_t(t.mem.offset) < need)) {
    status s = error("{} bytes at offset {} of a {}-byte buffer", need, t.mem.offset, t.mem.size);
    return tensor_failure(f, t.attr, s.message());
  }
  data = static_cast<char*>(t.mem.virt_addr) + t.mem.offset;
  return {};
}

// An input as the kernel's element type and layout: the runtime's memory itself when both agree,
// else converted and laid out in one pass into `buffers`.
inline outcome read_input(const op_tensor& t, const field_desc& f, const tensor_info& info, const layout_plan& plan,
                          buffer_list& buffers, void*& kernel_data) noexcept {
  char* data = nullptr;
  if (outcome r = tensor_data(t, f, info, data); !r.ok()) return r;
  const std::size_t kernel_size = dtype_size(f.vx_type);
  const char* typed = data;
  const convert_fn fn = info.dtype != f.vx_type ? f.to_kernel[accepted_index(f, info.dtype)] : nullptr;
  if (plan.permute || fn) {
    char* moved = static_cast<char*>(buffers.allocate(info.elements * kernel_size));
    if (!moved) return fail(VX_ERROR_NO_MEMORY, f, "cannot allocate {} elements", info.elements);
    if (plan.permute)  // converted and laid out in one pass
      convert_permute4(fn, data, dtype_size(info.dtype), moved, kernel_size, plan.runtime, plan.perm);
    else
      convert_range(fn, data, dtype_size(info.dtype), moved, kernel_size, 0, info.elements);
    typed = moved;
  }
  kernel_data = const_cast<char*>(typed);  // bound to a const view: the kernel only reads it
  return {};
}

// The kernel's result into the runtime's output memory: checked as written, converted to the
// tensor's dtype and laid out back in the runtime's layout in one pass, straight into that memory.
inline outcome write_output(op_tensor& t, const field_desc& f, const tensor_info& info, const layout_plan& plan,
                            void* kernel_data, buffer_list& buffers) noexcept {
  char* data = nullptr;
  if (outcome r = tensor_data(t, f, info, data); !r.ok()) return r;
  std::size_t from = dtype_size(f.vx_type);
  const std::size_t to = dtype_size(info.dtype);
  const char* src = static_cast<const char*>(kernel_data);
  convert_fn fn = info.dtype != f.vx_type ? f.from_kernel[accepted_index(f, info.dtype)] : nullptr;
  // The core's one output check (unwritten elements; in checking builds, lossy conversions). A
  // converted output is checked while converting: straight into the runtime's memory, or (laid out
  // anew) into a copy that is then only moved.
  if (!fn) {
    if (outcome checked = check_output(f, info, kernel_data, nullptr); !checked.ok()) return checked;
  } else if (!plan.permute) {
    return check_output(f, info, kernel_data, data);
  } else {
    char* converted = static_cast<char*>(buffers.allocate(info.elements * to));
    if (!converted) return fail(VX_ERROR_NO_MEMORY, f, "cannot allocate the converted copy");
    if (outcome checked = check_output(f, info, kernel_data, converted); !checked.ok()) return checked;
    src = converted;
    from = to;
    fn = nullptr;
  }
  if (plan.permute) {  // the kernel's layout (dims runtime[perm[i]]) back to the runtime's, converted on the way
    std::uint32_t kernel_dims[4], inverse[4];
    for (std::uint32_t i = 0; i < 4; ++i) {
      kernel_dims[i] = plan.runtime[plan.perm[i]];
      inverse[plan.perm[i]] = i;
    }
    convert_permute4(fn, src, from, data, to, kernel_dims, inverse);
  } else if (fn) {
    convert_range(fn, src, from, data, to, 0, info.elements);
  } else if (data != src) {
    std::memcpy(data, src, info.elements * to);
  }
  return {};
}

// --- attributes -----------------------------------------------------------------------------------
// One item of an attribute as the core's attr_item. False: the attribute's dtype holds neither.
inline bool read_attr_item(const op_attr& a, std::uint32_t k, attr_item& v) noexcept {
  const auto* p = static_cast<const unsigned char*>(a.data);
  const auto load = [p, k](auto value) {
    std::memcpy(&value, p + k * sizeof value, sizeof value);
    return value;
  };
  v = attr_item{};
  switch (a.dtype) {
    case type_float32: v.d = double(load(float{})); return true;
    case type_float16: v.d = double(float(float16::from_bits(load(std::uint16_t{})))); return true;
    case type_int8: v.i = load(std::int8_t{}); break;
    case type_uint8: v.i = load(std::uint8_t{}); break;
    case type_int16: v.i = load(std::int16_t{}); break;
    case type_uint16: v.i = load(std::uint16_t{}); break;
    case type_int32: v.i = load(std::int32_t{}); break;
    case type_uint32: v.i = load(std::uint32_t{}); break;
    case type_int64: v.i = load(std::int64_t{}); break;
    case type_bool: v.i = load(std::uint8_t{}) != 0; break;
    default: return false;
  }
  v.integer = true;
  return true;
}

// "param 'alpha': attribute 'alpha' is <got>, expected <expected>"
RKNNOP_DETAIL_COLD inline outcome attr_failure(const field_desc& f, const op_attr& a, const char* expected) noexcept {
  status s = error("{} '{}': the node's attribute '{}' is {} with {} item{}, expected {}", role_name(f.kind), f.name,
                   f.name, rknn_type_name(a.dtype), a.n_elems, a.n_elems == 1 ? "" : "s", expected);
  return outcome(VX_ERROR_INVALID_TYPE, s);
}

}  // namespace rknnop::detail::rknpu2

RKNNOP_DETAIL_END_HIDDEN

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
#include <rknnop/detail/invoke/layout.hpp>
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

// The core's status as librknnrt's return code: every failure is RKNN_ERR_FAIL (docs/rknpu2.md, the
// C entries of rknpu2_plugin.h: 0, or -1 with one line), the line says which rule refused it.
constexpr return_code to_rknn(status_code code) noexcept {
  return code == status_code::success ? rknn_succ : rknn_err_fail;
}

// --- dtypes: one table, RKNN's enum value -> its name, element size, rknnop's VX type and NumPy's descr --
struct rknn_type_row {
  tensor_type type;
  const char* name;
  std::uint32_t size;  // bytes of one element (INT4: packed, not an element type here)
  std::int32_t vx;     // vx_type::invalid: no rknnop tensor element type
  const char* npy;     // NumPy's descr of an element (RKNNOP_RECORD's .npy); nullptr: none
};
inline constexpr rknn_type_row rknn_types[] = {
    {type_float32, "FLOAT32", 4, vx_type::float32, "<f4"},
    {type_float16, "FLOAT16", 2, vx_type::float16, "<f2"},
    {type_int8, "INT8", 1, vx_type::int8, "|i1"},
    {type_uint8, "UINT8", 1, vx_type::uint8, "|u1"},
    {type_int16, "INT16", 2, vx_type::int16, "<i2"},
    {type_uint16, "UINT16", 2, vx_type::uint16, "<u2"},
    {type_int32, "INT32", 4, vx_type::int32, "<i4"},
    {type_uint32, "UINT32", 4, vx_type::invalid, "<u4"},
    {type_int64, "INT64", 8, vx_type::invalid, "<i8"},
    {type_bool, "BOOL", 1, vx_type::invalid, "|b1"},
    {type_int4, "INT4", 0, vx_type::invalid, nullptr},
    {type_bfloat16, "BFLOAT16", 2, vx_type::invalid, "<u2"},  // its bits; the manifest says BFLOAT16
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
constexpr std::int32_t vx_of(std::int32_t type) noexcept {
  const rknn_type_row* row = find_rknn_type(type);
  return row ? row->vx : vx_type::invalid;
}
constexpr tensor_type rknn_of(std::int32_t vx) noexcept {
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
  return accepts(f, vx_type::float32) || accepts(f, vx_type::float16);
}

RKNNOP_DETAIL_COLD inline outcome tensor_failure(const field_desc& f, const tensor_attr& a, const char* what) noexcept {
  status s = error("{} '{}': {} (the runtime's tensor: {} {} [", role_name(f.kind), f.name, what,
                   rknn_type_name(a.type), format_name(a.fmt));
  for (std::uint32_t i = 0; i < a.n_dims && i < max_dims; ++i) {
    if (i) s.append(",");
    detail::append_any(s, a.dims[i]);
  }
  s.append("])");
  return outcome(status_code::invalid_parameters, s);
}

// Rank, dims (innermost first, in the kernel's layout) and dtype of a runtime tensor, checked
// against its field; `plan` says how its data moves. A rank-0 tensor is one element, [1].
inline outcome read_attr_shape(const tensor_attr& a, const field_desc& f, tensor_info& info,
                               layout_plan& plan) noexcept {
  if (a.n_dims > max_tensor_rank) return tensor_failure(f, a, "rknnop tensors have rank 1..6");
  const std::uint32_t rank = a.n_dims ? a.n_dims : 1;
  std::size_t elements = 1;
  for (std::uint32_t i = 0; i < a.n_dims; ++i) {
    if (a.dims[i] == 0) return zero_dim_failure(f, a.dims, a.n_dims);
    if (__builtin_mul_overflow(elements, a.dims[i], &elements) ||
        elements > std::numeric_limits<std::size_t>::max() / 8)
      return tensor_failure(f, a, "the dims overflow the address space");
  }
  info.elements = elements;
  info.dtype = vx_of(a.type);
  if (info.dtype == vx_type::invalid) return tensor_failure(f, a, "rknnop has no element type for this dtype");
  if (!accepts(f, info.dtype)) return dtype_mismatch(f, info.dtype);
  if (a.qnt_type != 0 && info.dtype != vx_type::float32 && info.dtype != vx_type::float16)
    return tensor_failure(f, a, "the tensor is quantized (zero point and scale): rknnop hands kernels plain values");
  info.tensor_rank = rank;
  plan.permute = plan.moves = false;
  if (f.layout[0] != '\0' && rank <= 4) {
    if (a.fmt == format_nc1hwc2) return tensor_failure(f, a, "NC1HWC2 data cannot reach a CPU op's compute");
    // The core's layout rule; UNDEFINED is NCHW, as ONNX lays tensors out.
    plan_layout(f, a.fmt == format_nhwc ? tensor_layout::nhwc : tensor_layout::nchw, a.dims, a.n_dims, info, plan);
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

// The copies' sizes, one rule each for the call and for init's scratch (input_scratch, output_scratch):
// read_input's copy of an input (0: the kernel reads the runtime's memory itself); write_output's
// converted copy of an output laid out anew (0: none). read_attr_shape bounded elements * 8 bytes.
inline std::size_t input_copy_bytes(const field_desc& f, const tensor_info& info, const layout_plan& plan) noexcept {
  return plan.moves || info.dtype != f.vx_type ? info.elements * dtype_size(f.vx_type) : 0;
}
inline std::size_t converted_output_bytes(const field_desc& f, const tensor_info& info,
                                          const layout_plan& plan) noexcept {
  return plan.moves && info.dtype != f.vx_type ? info.elements * dtype_size(info.dtype) : 0;
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
  if (plan.moves || fn) {
    char* moved = static_cast<char*>(buffers.allocate(input_copy_bytes(f, info, plan)));
    if (!moved) return fail(status_code::no_memory, f, "cannot allocate {} elements", info.elements);
    if (plan.moves && !fn)  // laid out
      move_planned(plan, data, moved, kernel_size, true);
    else if (plan.moves)  // converted and laid out in one pass
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
  const std::size_t to = dtype_size(info.dtype);
  const char* src = static_cast<const char*>(kernel_data);
  const convert_fn fn = info.dtype != f.vx_type ? f.from_kernel[accepted_index(f, info.dtype)] : nullptr;
  // The core's one output check (unwritten elements; in checking builds, lossy conversions). A
  // converted output is checked while converting: straight into the runtime's memory, or (laid out
  // anew) into a copy that is then only moved.
  if (!fn) {
    if (outcome checked = check_output(f, info, kernel_data, nullptr); !checked.ok()) return checked;
  } else if (!plan.moves) {
    return check_output(f, info, kernel_data, data);
  } else {
    char* converted = static_cast<char*>(buffers.allocate(converted_output_bytes(f, info, plan)));
    if (!converted) return fail(status_code::no_memory, f, "cannot allocate the converted copy");
    if (outcome checked = check_output(f, info, kernel_data, converted); !checked.ok()) return checked;
    src = converted;
  }
  if (plan.moves)  // the kernel's layout back to the runtime's
    move_planned(plan, src, data, to, false);
  else if (data != src)
    std::memcpy(data, src, info.elements * to);
  return {};
}

// The scratch bytes (buffer_list::footprint) a call takes for a tensor whose shapes init settled, from
// the same sizes the call allocates: read_input's converted or laid-out copy of an input;
// allocate_output's buffer of an output and write_output's converted copy when it is also laid out
// anew. 0: none (or beyond size_t).
inline std::size_t input_scratch(const field_desc& f, const tensor_info& info, const layout_plan& plan) noexcept {
  const std::size_t bytes = input_copy_bytes(f, info, plan);
  return bytes ? buffer_list::footprint(bytes) : 0;
}
inline std::size_t output_scratch(const field_desc& f, const tensor_info& info, const layout_plan& plan) noexcept {
  const std::size_t element = output_element_bytes(f, info);
  if (info.elements > ~std::size_t{0} / element) return 0;
  const std::size_t converted = converted_output_bytes(f, info, plan);
  return buffer_list::footprint(info.elements * element) + (converted ? buffer_list::footprint(converted) : 0);
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
  return outcome(status_code::invalid_type, s);
}

}  // namespace rknnop::detail::rknpu2

RKNNOP_DETAIL_END_HIDDEN

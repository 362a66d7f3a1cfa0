// SPDX-License-Identifier: MIT
#pragma once

// Layer 13 of detail/ (docs/architecture.md §1), in the MindSpore Lite backend's room, above the
// shared decoding layers.
// Non-template work of the MindSpore Lite backend: MSTensor <-> rknnop shapes, dtypes and formats,
// Custom-node attributes, and the one-line diagnostics. The per-op kernel in <rknnop/mindspore.hpp>
// only passes constexpr field descriptions here.

#include <rknnop/detail/decode.hpp>
#include <rknnop/detail/invoke/layout.hpp>
#include <rknnop/mindspore_attrs.hpp>
#include <rknnop/status.hpp>

#include "include/api/data_type.h"
#include "include/api/format.h"
#include "include/api/types.h"
#include "schema/model_generated.h"

#include <cstddef>      // std::size_t
#include <cstdint>      // fixed-width types
#include <cstring>      // std::memcpy
#include <limits>       // overflow bound
#include <memory>       // MSTensor::Data
#include <string_view>  // names
#include <vector>       // MSTensor shapes

namespace rknnop::detail::mindspore {

using ms_dtype = ::mindspore::DataType;

// MindSpore's DataType of each tensor element type, row by row of dtype_table (float16, float32, int8,
// uint8, int16, uint16, int32): the VX side is the one table's, read both ways.
inline constexpr ms_dtype ms_dtypes[] = {
    ms_dtype::kNumberTypeFloat16, ms_dtype::kNumberTypeFloat32, ms_dtype::kNumberTypeInt8,  ms_dtype::kNumberTypeUInt8,
    ms_dtype::kNumberTypeInt16,   ms_dtype::kNumberTypeUInt16,  ms_dtype::kNumberTypeInt32,
};
static_assert(sizeof ms_dtypes / sizeof ms_dtypes[0] == dtype_count,
              "rknnop: one MindSpore DataType per dtype_table row");

constexpr ms_dtype to_ms_dtype(std::int32_t type) noexcept {
  const std::size_t r = dtype_row(type);
  return r < dtype_count ? ms_dtypes[r] : ms_dtype::kTypeUnknown;
}

constexpr std::int32_t from_ms_dtype(ms_dtype type) noexcept {
  for (std::size_t r = 0; r < dtype_count; ++r)
    if (ms_dtypes[r] == type) return dtype_table[r].vx;
  return vx_type::invalid;
}

constexpr const char* format_name(::mindspore::Format format) noexcept {
  return format == ::mindspore::NHWC ? "NHWC" : format == ::mindspore::NCHW ? "NCHW" : "another format";
}

// MindSpore Lite's kernel return codes (lite::RET_OK, lite::RET_ERROR: its include/errorcode.h), what
// Prepare, ReSize and Execute give back; Infer's Status is made of them (kLiteError on RET_ERROR).
enum return_code : int { ret_ok = 0, ret_error = -1 };

// The core's status as MindSpore Lite's return code: every failure is RET_ERROR, the log line says
// which rule refused it.
constexpr return_code to_ms(status_code code) noexcept { return code == status_code::success ? ret_ok : ret_error; }

// "rknnop: <op>: <message>" to rknnop's log sink (the OpenVX log does not exist here).
RKNNOP_DETAIL_COLD inline void report(std::string_view op, const outcome& result) noexcept {
  status line = error("rknnop: {}: {}", op, result.message().message());
  const log_state& cfg = log_config();
  if (cfg.sink) cfg.sink(line.message(), cfg.user);
}

RKNNOP_DETAIL_COLD inline void append_shape(status& s, const std::vector<std::int64_t>& shape) noexcept {
  s.append("[");
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i) s.append(",");
    detail::append_any(s, shape[i]);
  }
  s.append("]");
}

// An MSTensor's known shape (no -1; rank 0..6, else refused) into info's dims (innermost first) and element count:
// no zero dim, each dim within 32 bits, the byte count within the address space. The one loop of
// read_ms_shape (inputs) and read_ms_output (outputs).
inline outcome read_ms_dims(const std::vector<std::int64_t>& shape, const field_desc& f, tensor_info& info) noexcept {
  if (shape.size() > max_tensor_rank)
    return fail(status_code::invalid_dimension, f, "expected rank 1..6, got {}", shape.size());
  std::size_t elements = 1;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    const std::int64_t d = shape[shape.size() - 1 - i];
    if (d == 0) return zero_dim_failure(f, shape.data(), shape.size());
    if (d > 0xFFFFFFFF) {
      status s = error("{} '{}': shape ", role_name(f.kind), f.name);
      append_shape(s, shape);
      s.append(" has a dim above 2^32-1, which rknnop cannot hold");
      return outcome(status_code::invalid_dimension, s);
    }
    info.dims[i] = static_cast<std::uint32_t>(d);
    if (elements > std::numeric_limits<std::size_t>::max() / 8 / info.dims[i])
      return fail(status_code::invalid_dimension, f, "dims overflow the address space");
    elements *= info.dims[i];
  }
  info.elements = elements;
  return {};
}

// Rank, dims (innermost first, MSTensor shapes are outermost first) and dtype of a tensor, checked
// against its field as query_tensor checks an OpenVX tensor (a layout-tagged field's view of a lower
// rank is batch 1). A rank-0 MSTensor is one element, [1].
// `unknown`: a dim is still -1 (shapes deferred until run time); nothing else is checked then.
inline outcome read_ms_shape(const ::mindspore::MSTensor& t, const field_desc& f, tensor_info& info, bool& unknown,
                             layout_plan& plan) noexcept {
  plan.permute = plan.moves = false;
  unknown = false;
  info = tensor_info{};
  if (t == nullptr) return fail(status_code::invalid_reference, f, "the MSTensor is null");
  const std::vector<std::int64_t>& shape = t.Shape();
  for (std::int64_t d : shape)
    if (d < 0) unknown = true;
  if (unknown) return {};
  info.dims[0] = 1;
  const outcome dims = read_ms_dims(shape, f, info);
  if (!dims.ok()) return dims;
  info.rank = shape.empty() ? 1 : static_cast<std::uint32_t>(shape.size());
  info.dtype = from_ms_dtype(t.DataType());
  if (info.dtype == vx_type::invalid || !accepts(f, info.dtype)) {
    if (info.dtype != vx_type::invalid) return dtype_mismatch(f, info.dtype);
    return fail(status_code::invalid_type, f,
                "MindSpore dtype {} has no rknnop element type (expected one of the "
                "op's: float32, float16, int8, uint8, int16, uint16, int32)",
                static_cast<int>(t.DataType()));
  }
  info.tensor_rank = info.rank;
  if (f.layout[0] != '\0' && info.rank <= 4) {
    // The core's layout rule: NHWC and NCHW become the declared layout; no other format is one.
    if (t.format() != ::mindspore::NHWC && t.format() != ::mindspore::NCHW)
      return fail(status_code::invalid_format, f, "the op declares {}, the tensor's format is {} ({})", f.layout,
                  format_name(t.format()), static_cast<long long>(t.format()));
    std::uint32_t outer_first[max_tensor_rank] = {};
    const auto n = static_cast<std::uint32_t>(shape.size());
    for (std::uint32_t i = 0; i < n; ++i) outer_first[i] = static_cast<std::uint32_t>(shape[i]);
    plan_layout(f, t.format() == ::mindspore::NHWC ? tensor_layout::nhwc : tensor_layout::nchw, outer_first, n, info,
                plan);
    return {};
  }
  if (outcome ranked = to_layout_rank(f, info); !ranked.ok()) return ranked;
  return {};
}

// An input's data as the kernel's element type and declared layout: the tensor's own memory when
// both agree, else a converted (and laid out) copy in `buffers` (exactly as the other backends do).
inline outcome read_ms_input(const ::mindspore::MSTensor& t, const field_desc& f, const tensor_info& info,
                             const layout_plan& plan, buffer_list& buffers, void*& kernel_data) noexcept {
  const std::shared_ptr<const void> data = t.Data();
  if (!data) return fail(status_code::invalid_reference, f, "the MSTensor has no data");
  if (t.DataSize() < info.elements * dtype_size(info.dtype))
    return fail(status_code::invalid_parameters, f, "the MSTensor holds {} bytes, its shape needs {}", t.DataSize(),
                info.elements * dtype_size(info.dtype));
  if (info.dtype == f.vx_type && !plan.moves) {
    kernel_data = const_cast<void*>(data.get());  // bound to a const view: the kernel only reads it
    return {};
  }
  kernel_data = buffers.allocate(info.elements * dtype_size(f.vx_type));
  if (!kernel_data) return fail(status_code::no_memory, f, "cannot allocate {} elements", info.elements);
  const convert_fn fn = info.dtype != f.vx_type ? f.to_kernel[accepted_index(f, info.dtype)] : nullptr;
  if (plan.moves)  // converted and laid out in the declared layout in one pass (the core's rule)
    convert_permute4(fn, static_cast<const char*>(data.get()), dtype_size(info.dtype), static_cast<char*>(kernel_data),
                     dtype_size(f.vx_type), plan.runtime, plan.perm);
  else
    fn(data.get(), kernel_data, info.elements);
  return {};
}

// Converts a kernel result into the output MSTensor's memory (MutableData allocates it).
inline outcome write_ms_output(::mindspore::MSTensor& t, const field_desc& f, const tensor_info& info,
                               const void* kernel_data, buffer_list& buffers) noexcept {
  void* out = t.MutableData();
  if (!out) return fail(status_code::no_memory, f, "MSTensor::MutableData() gave no memory");
  if (t.DataSize() < info.elements * dtype_size(info.dtype))
    return fail(status_code::invalid_parameters, f, "the MSTensor holds {} bytes, its shape needs {}", t.DataSize(),
                info.elements * dtype_size(info.dtype));
  // The core's one output check (unwritten elements; in checking builds, lossy conversions), into a
  // converted copy first: a refused output leaves the tensor as it was (as on every backend).
  const void* result = kernel_data;
  if (info.dtype != f.vx_type) {
    void* converted = buffers.allocate(info.elements * dtype_size(info.dtype));
    if (!converted) return fail(status_code::no_memory, f, "cannot allocate the converted copy");
    result = converted;
  }
  if (outcome checked = check_output(f, info, kernel_data, result != kernel_data ? const_cast<void*>(result) : nullptr);
      !checked.ok())
    return checked;
  std::memcpy(out, result, info.elements * dtype_size(info.dtype));
  return {};
}

inline std::vector<std::int64_t> to_ms_shape(const std::uint32_t* dims, std::uint32_t rank) {
  std::vector<std::int64_t> shape(rank);
  for (std::uint32_t i = 0; i < rank; ++i) shape[rank - 1 - i] = dims[i];
  return shape;
}

// An output MSTensor as the core's pipeline takes it: rank 0 while its shape is deferred (never
// shaped, or -1 after a deferred Infer), else its own dims (innermost first; `tensor_rank` its own
// rank); dtype VX_TYPE_INVALID while the model gives none.
inline outcome read_ms_output(const ::mindspore::MSTensor& t, const field_desc& f, tensor_info& info) noexcept {
  info = tensor_info{};
  if (t == nullptr) return fail(status_code::invalid_reference, f, "the MSTensor is null");
  if (t.DataType() != ::mindspore::DataType::kTypeUnknown) {
    info.dtype = from_ms_dtype(t.DataType());
    if (info.dtype == vx_type::invalid)
      return fail(status_code::invalid_type, f, "MindSpore dtype {} has no rknnop element type",
                  static_cast<int>(t.DataType()));
  }
  const std::vector<std::int64_t>& shape = t.Shape();
  if (shape.empty()) return {};
  for (std::int64_t d : shape)
    if (d < 0) return {};
  info.rank = info.tensor_rank = static_cast<std::uint32_t>(shape.size());
  return read_ms_dims(shape, f, info);
}

// The rank Infer gives an output: its own when the model shaped it (no -1) with a lower rank than
// shape inference gives a layout-tagged field (a [h, w, c] output of NHWC; the OpenVX path keeps an
// output tensor's own rank too), else the inferred rank.
inline std::uint32_t output_rank(const ::mindspore::MSTensor& t, const field_desc& f, std::uint32_t rank) noexcept {
  const std::vector<std::int64_t>& shape = t.Shape();
  if (!f.required_rank || shape.empty() || shape.size() >= rank) return rank;
  for (std::int64_t d : shape)
    if (d < 0) return rank;
  return static_cast<std::uint32_t>(shape.size());
}

// The Custom node's attribute `name` (a linear scan: a node has a handful).
inline attr_bytes find_attr(const ::mindspore::schema::Custom* custom, std::string_view name) noexcept {
  if (!custom || !custom->attr()) return {};
  for (const ::mindspore::schema::Attribute* a : *custom->attr()) {
    if (!a || !a->name() || std::string_view(a->name()->c_str(), a->name()->size()) != name) continue;
    if (!a->data()) return {nullptr, 0, true};
    return {a->data()->data(), a->data()->size(), true};
  }
  return {};
}

inline outcome custom_of(const ::mindspore::schema::Primitive* primitive, std::string_view op,
                         const ::mindspore::schema::Custom*& custom) noexcept {
  custom = primitive ? primitive->value_as_Custom() : nullptr;
  if (!custom)
    return outcome(status_code::invalid_parameters,
                   error(primitive ? "the node is not a Custom node" : "the node has no primitive"));
  const auto* type = custom->type();
  if (!type || std::string_view(type->c_str(), type->size()) != op)
    return outcome(status_code::invalid_parameters,
                   error("the Custom node's type is '{}', this kernel is '{}'",
                         type ? std::string_view(type->c_str(), type->size()) : std::string_view("<none>"), op));
  return {};
}

inline outcome check_count(const char* what, std::size_t got, std::size_t expected) noexcept {
  if (got == expected) return {};
  return outcome(status_code::invalid_parameters, error("expected {} {} tensors, got {}", expected, what, got));
}

}  // namespace rknnop::detail::mindspore

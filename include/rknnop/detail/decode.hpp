// SPDX-License-Identifier: MIT
#pragma once

// Layer 9 of detail/ (docs/architecture.md §1): decoding. Non-template work of the generated
// callbacks: tensor queries and copies, scalar and array reads, work-size checks. Per-op templates
// only pass constexpr descriptions here.

#include <rknnop/detail/field_desc.hpp>
#include <rknnop/detail/log.hpp>
#include <rknnop/detail/scratch.hpp>
#include <rknnop/detail/vx_api.hpp>
#include <rknnop/status.hpp>
#include <rknnop/tensor.hpp>
#include <rknnop/types.hpp>

#include <cstddef>      // std::size_t
#include <cstdint>      // fixed-width types
#include <cstring>      // std::memcpy
#include <limits>       // address-space bound
#include <string_view>  // names

RKNNOP_DETAIL_BEGIN_HIDDEN  // see config.hpp: nothing of the SDK is exported

namespace rknnop::detail {
// Shape and dtype of a runtime tensor. For a layout-tagged (NHWC/NCHW) field, `dims`/`rank` are
// what the kernel's view sees: a tensor of lower rank (the model left out batch 1, as the toolkit's
// own ResizeArea model does for its [h, w, c] output) gets its missing outer dims as 1s.
struct tensor_info {
  std::uint32_t dims[max_tensor_rank] = {};
  std::uint32_t rank = 0;
  std::uint32_t tensor_rank = 0;  // the runtime tensor's own rank: what copies pass to the driver
  vx_enum dtype = VX_TYPE_INVALID;
  std::size_t elements = 0;
};

inline bool accepts(const field_desc& f, vx_enum dtype) noexcept {
  for (std::uint32_t i = 0; i < f.accepted_count; ++i)
    if (f.accepted[i] == dtype) return true;
  return false;
}

RKNNOP_DETAIL_COLD inline outcome dtype_mismatch(const field_desc& f, vx_enum got) noexcept {
  status s = error("{} '{}': expected dtype ", role_name(f.kind), f.name);
  for (std::uint32_t i = 0; i < f.accepted_count; ++i) {
    if (i) s.append(" or ");
    s.append(vx_type_name(f.accepted[i]));
  }
  s.append(error(", got {}", vx_type_name(got)).message());
  return outcome(VX_ERROR_INVALID_TYPE, s);
}

RKNNOP_DETAIL_COLD inline void append_dims(status& s, const std::uint32_t* dims, std::uint32_t rank) noexcept {
  s.append("[");
  for (std::uint32_t i = 0; i < rank; ++i) {
    if (i) s.append(",");
    detail::append_any(s, dims[i]);
  }
  s.append("]");
}

// The likely cause when the driver refuses the rank query's size (VX_ERROR_INVALID_PARAMETERS):
// the library was built for the other dims convention (uint32 on VSI, vx_size on Khronos).
#if RKNNOP_VX_KHRONOS_DIMS
inline constexpr std::string_view dims_convention_hint =
    "this library uses vx_size dims (Khronos); for VSI drivers (RKNN boards) build it with RKNNOP_VX_KHRONOS_DIMS=0";
#else
inline constexpr std::string_view dims_convention_hint =
    "this library uses uint32 dims (VSI, RKNN boards); for Khronos OpenVX build it with RKNNOP_VX_KHRONOS_DIMS=1";
#endif

// A layout-tagged (NHWC/NCHW) field's rank rule, shared by every backend: a lower rank is the same
// tensor with its outer dims of 1 left out (batch 1), padded back here; a higher rank is an error.
inline outcome to_layout_rank(const field_desc& f, tensor_info& info) noexcept {
  if (f.required_rank && info.rank > f.required_rank) {
    status s = error("{} '{}': expected rank {} ({}; a lower rank is taken as batch 1), got rank {} with dims ",
                     role_name(f.kind), f.name, f.required_rank, f.layout, info.rank);
    append_dims(s, info.dims, info.rank);
    return outcome(VX_ERROR_INVALID_DIMENSION, s);
  }
  for (; info.rank < f.required_rank; ++info.rank) info.dims[info.rank] = 1;
  return {};
}

// Rank, dims and dtype of a tensor parameter. With allow_unshaped (outputs, in the validator), a
// tensor whose rank or dims are still 0, or whose dtype is VX_TYPE_INVALID (a virtual output "to be
// inferred"), is accepted: shape inference sets it. A layout-tagged field takes ranks 1..4, lower
// ranks padded with outer dims of 1 (batch 1 left out); anything else is an error.
inline outcome query_tensor(vx_reference ref, const field_desc& f, tensor_info& info,
                            bool allow_unshaped = false) noexcept {
  if (!ref) return fail(VX_ERROR_INVALID_REFERENCE, f, "the tensor is NULL");
  const auto tensor = reinterpret_cast<vx_tensor>(ref);
  vx_dim_t rank = 0;
  vx_status st = vxQueryTensor(tensor, VX_TENSOR_NUMBER_OF_DIMS, &rank, sizeof rank);
  if (st == VX_ERROR_INVALID_PARAMETERS)
    return fail(st, f, "the driver refused the rank query's size (-10): {}", dims_convention_hint);
  if (st != VX_SUCCESS) return call_failed(st, f, "vxQueryTensor(VX_TENSOR_NUMBER_OF_DIMS)");
  if (rank > max_tensor_rank || (rank == 0 && !allow_unshaped))
    return fail(VX_ERROR_INVALID_DIMENSION, f, "expected rank 1..6, got {}", rank);
  vx_dim_t dims[max_tensor_rank] = {};
  if (rank != 0) {
    st = vxQueryTensor(tensor, VX_TENSOR_DIMS, dims, sizeof(vx_dim_t) * rank);
    if (st != VX_SUCCESS) return call_failed(st, f, "vxQueryTensor(VX_TENSOR_DIMS)");
  }
  bool unshaped = rank == 0;
  for (std::uint32_t i = 0; i < rank; ++i) unshaped = unshaped || dims[i] == 0;
  info = tensor_info{};
  if (!(unshaped && allow_unshaped)) {
    info.rank = info.tensor_rank = static_cast<std::uint32_t>(rank);
    std::size_t elements = 1;
    for (std::uint32_t i = 0; i < info.rank; ++i) {
      if (dims[i] == 0 || dims[i] > 0xFFFFFFFFu)
        return fail(VX_ERROR_INVALID_DIMENSION, f, "dims[{}] is {}", i, dims[i]);
      info.dims[i] = static_cast<std::uint32_t>(dims[i]);
      if (elements > std::numeric_limits<std::size_t>::max() / 8 / info.dims[i])
        return fail(VX_ERROR_INVALID_DIMENSION, f, "dims overflow the address space");
      elements *= info.dims[i];
    }
    info.elements = elements;
  }
  vx_enum dtype = VX_TYPE_INVALID;
  st = vxQueryTensor(tensor, VX_TENSOR_DATA_TYPE, &dtype, sizeof dtype);
  if (st != VX_SUCCESS) return call_failed(st, f, "vxQueryTensor(VX_TENSOR_DATA_TYPE)");
  info.dtype = dtype;
  if (info.rank == 0) return {};
  if (!(allow_unshaped && dtype == VX_TYPE_INVALID) && !accepts(f, dtype)) return dtype_mismatch(f, dtype);
  if (outcome ranked = to_layout_rank(f, info); !ranked.ok()) return ranked;
  // Integer data with a fixed-point position is quantized (value = integer * 2^-position): rknnop
  // hands kernels plain values, so it refuses such a tensor rather than misread it.
  if (dtype != VX_TYPE_FLOAT16 && dtype != VX_TYPE_FLOAT32 && dtype != VX_TYPE_INVALID) {
    vx_int8 position = 0;
    st = vxQueryTensor(tensor, VX_TENSOR_FIXED_POINT_POSITION, &position, sizeof position);
    if (st != VX_SUCCESS && st != VX_ERROR_NOT_SUPPORTED && st != VX_ERROR_NOT_IMPLEMENTED)
      return call_failed(st, f, "vxQueryTensor(VX_TENSOR_FIXED_POINT_POSITION)");
    if (st == VX_SUCCESS && position != 0)
      return fail(VX_ERROR_INVALID_FORMAT, f,
                  "{} with fixed-point position {} is quantized data (integer * 2^-{}); rknnop passes plain "
                  "values only: use fixed-point position 0 or a float tensor",
                  vx_type_name(dtype), static_cast<int>(position), static_cast<int>(position));
  }
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

inline std::uint32_t accepted_index(const field_desc& f, vx_enum dtype) noexcept {
  for (std::uint32_t i = 0; i < f.accepted_count; ++i)
    if (f.accepted[i] == dtype) return i;
  return 0;  // unreachable: dtypes are checked by query_tensor first
}

// Dense strides, innermost first (stride[0] = element size).
inline void dense_strides(const tensor_info& info, vx_size* start, vx_size* end, vx_size* stride) noexcept {
  const std::size_t element = dtype_size(info.dtype);
  for (std::uint32_t i = 0; i < info.rank; ++i) {
    start[i] = 0;
    end[i] = info.dims[i];
    stride[i] = i == 0 ? element : stride[i - 1] * info.dims[i - 1];
  }
}

// Copies a tensor into host memory as the kernel's element type. One buffer per tensor: when the
// kernel's type is wider than the tensor's (float16 -> float), the raw data lands at the buffer's end
// and is widened front to back in place (element i is written only where elements <= i were).
inline outcome read_tensor(vx_reference ref, const field_desc& f, const tensor_info& info, buffer_list& buffers,
                           void*& kernel_data) noexcept {
  const std::size_t raw_size = dtype_size(info.dtype), kernel_size = dtype_size(f.vx_type);
  const std::size_t element = raw_size > kernel_size ? raw_size : kernel_size;
  char* buffer = static_cast<char*>(buffers.allocate(info.elements * element));
  if (!buffer) return fail(VX_ERROR_NO_MEMORY, f, "cannot allocate {} bytes", info.elements * element);
  void* raw = buffer + info.elements * (element - raw_size);
  vx_size start[max_tensor_rank], end[max_tensor_rank], stride[max_tensor_rank];
  dense_strides(info, start, end, stride);
  const vx_status st = vxCopyTensorPatch(reinterpret_cast<vx_tensor>(ref), info.tensor_rank, start, end, stride, raw,
                                         VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
  if (st != VX_SUCCESS) return call_failed(st, f, "vxCopyTensorPatch(VX_READ_ONLY)");
  if (info.dtype != f.vx_type) f.to_kernel[accepted_index(f, info.dtype)](raw, buffer, info.elements);
  kernel_data = buffer;
  return {};
}

// Output buffers start zeroed (calloc: fresh pages cost nothing) with a marker at up to 64 evenly
// spaced elements, for float element types a NaN with a payload no arithmetic produces; if every
// marker survives the kernel, it wrote nothing. O(1), and unwritten elements are never garbage.
inline constexpr std::uint32_t unwritten_f32 = 0x7FC0DEADu;
inline constexpr std::uint16_t unwritten_f16 = 0x7E5Bu;
inline constexpr std::size_t marker_count = 64;

// Distance between markers: every element when there are at most marker_count.
inline std::size_t marker_step(std::size_t elements) noexcept {
  return elements <= marker_count ? 1 : elements / marker_count;
}

inline bool has_markers(const field_desc& f) noexcept {
  return f.vx_type == VX_TYPE_FLOAT32 || f.vx_type == VX_TYPE_FLOAT16;
}

inline outcome allocate_output(const field_desc& f, const tensor_info& info, buffer_list& buffers,
                               void*& kernel_data) noexcept {
  const std::size_t size = dtype_size(f.vx_type);
  kernel_data = buffers.allocate_zeroed(info.elements, size > dtype_size(info.dtype) ? size : dtype_size(info.dtype));
  if (!kernel_data) return fail(VX_ERROR_NO_MEMORY, f, "cannot allocate {} elements", info.elements);
  if (!has_markers(f)) return {};
  const std::size_t markers = info.elements < marker_count ? info.elements : marker_count;
  const std::size_t step = marker_step(info.elements);
  auto* data = static_cast<char*>(kernel_data);
  if (f.vx_type == VX_TYPE_FLOAT32)
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
    if (f.vx_type == VX_TYPE_FLOAT32) {
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

// The one line for a kernel that wrote outside a tensor's buffer (buffer_list::overrun).
RKNNOP_DETAIL_COLD inline outcome overrun_failure(const field_desc& f, const tensor_info& info,
                                                  const buffer_list::overrun_report& r) noexcept {
  const auto first = static_cast<long long>(r.first), last = static_cast<long long>(r.last);
  if (r.first < 0)
    return fail(VX_FAILURE, f,
                "the CPU kernel wrote before the start of its buffer: bytes {}..{} of a {}-byte buffer of {} "
                "elements; check the indices the kernel computes",
                first, last, r.size, info.elements);
  const std::size_t element = info.elements != 0 && r.size >= info.elements ? r.size / info.elements : 1;
  return fail(VX_FAILURE, f,
              "the CPU kernel wrote past the end of its buffer: bytes {}..{} (from element {}) of a {}-byte "
              "buffer of {} elements; `infer` set smaller dims than `cpu` writes",
              first, last, r.first / static_cast<std::ptrdiff_t>(element), r.size, info.elements);
}

// The one line for a kernel that wrote outside an rknnop::buffer it allocated (scratch_guard).
RKNNOP_DETAIL_COLD inline outcome scratch_overrun_failure() noexcept {
  return outcome(VX_FAILURE, error("the CPU kernel wrote {} an rknnop::buffer: bytes {}..{} of a {}-byte buffer",
                                   scratch_guard::first < 0 ? "before the start of" : "past the end of",
                                   scratch_guard::first, scratch_guard::last, scratch_guard::size));
}

// Converts the kernel's result to the tensor's dtype and copies it into the tensor.
inline outcome write_tensor(vx_reference ref, const field_desc& f, const tensor_info& info, buffer_list& buffers,
                            void* kernel_data) noexcept {
  if (untouched(f, info, kernel_data))
    return fail(VX_FAILURE, f, "the kernel wrote nothing (rknnop's unwritten markers are all still there)");
  void* raw = kernel_data;
  if (info.dtype != f.vx_type) {
    if (dtype_size(info.dtype) > dtype_size(f.vx_type)) {  // widening cannot run in place
      raw = buffers.allocate(info.elements * dtype_size(info.dtype));
      if (!raw) return fail(VX_ERROR_NO_MEMORY, f, "cannot allocate the converted copy");
    }
    f.from_kernel[accepted_index(f, info.dtype)](kernel_data, raw, info.elements);
  }
  vx_size start[max_tensor_rank], end[max_tensor_rank], stride[max_tensor_rank];
  dense_strides(info, start, end, stride);
  const vx_status st = vxCopyTensorPatch(reinterpret_cast<vx_tensor>(ref), info.tensor_rank, start, end, stride, raw,
                                         VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
  if (st != VX_SUCCESS) return call_failed(st, f, "vxCopyTensorPatch(VX_WRITE_ONLY)");
  return {};
}

// Whether a param read checks the object's type. The validator checks it (`check`); the kernel and
// the initializer run only on the very objects the validator accepted (vxProcessGraph verifies
// first, and vxSetParameterByIndex un-verifies the graph), and a scalar's or an array's type is
// fixed when it is created, so they trust that check and skip the query and its runtime lock
// (docs/runtime.md §3). What data can change after verification (an array's count) is still read.
enum class param_types : bool { trust_validator, check };

// Reads a scalar param into zeroed storage of at least its VX type's size (vxCopyScalar writes the
// scalar's own size: only a checked type makes that size the field's, or 1 byte of a BOOL's 4).
inline outcome read_scalar(vx_reference ref, const field_desc& f, void* storage, param_types types) noexcept {
  if (!ref) return fail(VX_ERROR_INVALID_REFERENCE, f, "the scalar is NULL");
  const auto scalar = reinterpret_cast<vx_scalar>(ref);
  vx_status st = VX_SUCCESS;
  if (types == param_types::check) {
    vx_enum type = VX_TYPE_INVALID;
    st = vxQueryScalar(scalar, VX_SCALAR_TYPE, &type, sizeof type);
    if (st != VX_SUCCESS) return call_failed(st, f, "vxQueryScalar(VX_SCALAR_TYPE)");
    // librknn_runtime hands a VX_TYPE_BOOL param over as a 1-byte VX_TYPE_UINT8 scalar (seen running
    // Rockchip's runtime: docs/board-emulation.md); the storage is zeroed, so either size reads right.
    const bool board_bool = f.vx_type == VX_TYPE_BOOL && type == VX_TYPE_UINT8;
    if (type != f.vx_type && !board_bool)
      return fail(VX_ERROR_INVALID_TYPE, f, "expected a {} scalar, got {}", vx_type_name(f.vx_type),
                  vx_type_name(type));
  }
  st = vxCopyScalar(scalar, storage, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
  if (st != VX_SUCCESS) return call_failed(st, f, "vxCopyScalar");
  return {};
}

// Reads an int32 array param after checking its count (and, with param_types::check, its item type).
// The count is queried on every call: items can be added or removed after verification.
inline outcome read_array(vx_reference ref, const field_desc& f, std::int32_t* items, std::size_t& count,
                          param_types types) noexcept {
  if (!ref) return fail(VX_ERROR_INVALID_REFERENCE, f, "the array is NULL");
  const auto array = reinterpret_cast<vx_array>(ref);
  vx_status st = VX_SUCCESS;
  if (types == param_types::check) {
    vx_enum type = VX_TYPE_INVALID;
    st = vxQueryArray(array, VX_ARRAY_ITEMTYPE, &type, sizeof type);
    if (st != VX_SUCCESS) return call_failed(st, f, "vxQueryArray(VX_ARRAY_ITEMTYPE)");
    if (type != VX_TYPE_INT32)
      return fail(VX_ERROR_INVALID_TYPE, f, "expected an array of VX_TYPE_INT32 items, got {} items",
                  vx_type_name(type));
  }
  vx_size n = 0;
  st = vxQueryArray(array, VX_ARRAY_NUMITEMS, &n, sizeof n);
  if (st != VX_SUCCESS) return call_failed(st, f, "vxQueryArray(VX_ARRAY_NUMITEMS)");
  if (f.exact && n != f.capacity)
    return fail(VX_ERROR_INVALID_PARAMETERS, f, "expected exactly {} items, got {}", f.capacity, n);
  if (!f.exact && n > f.capacity)
    return fail(VX_ERROR_INVALID_PARAMETERS, f, "expected at most {} items, got {}", f.capacity, n);
  if (n) {
    st = vxCopyArrayRange(array, 0, n, sizeof(std::int32_t), items, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
    if (st != VX_SUCCESS) return call_failed(st, f, "vxCopyArrayRange");
  }
  count = n;
  return {};
}

// What every callback checks first: the parameter count and the list itself.
inline outcome check_call(vx_uint32 num, std::size_t expected, const vx_reference* refs) noexcept {
  if (num != expected)
    return outcome(VX_ERROR_INVALID_PARAMETERS,
                   error("expected {} parameters (inputs, outputs, params), got {}", expected, num));
  if (!refs) return outcome(VX_ERROR_INVALID_PARAMETERS, error("the parameter list is NULL"));
  return {};
}

// Validates what an op's `vx` function asked for and converts it for the driver.
inline outcome to_execution_parameters(const work_size& ws, vx_kernel_execution_parameters_t& p) noexcept {
  if (ws.dims < 1 || ws.dims > 3)
    return outcome(VX_ERROR_INVALID_PARAMETERS, error("work size: dims must be 1..3, got {}", ws.dims));
  p = vx_kernel_execution_parameters_t{};
  p.workDim = ws.dims;
  for (std::uint32_t d = 0; d < 3; ++d) {
    const bool used = d < ws.dims;
    if (used && ws.global[d] == 0) return outcome(VX_ERROR_INVALID_PARAMETERS, error("work size: global[{}] is 0", d));
    if (used && ws.scale[d] == 0) return outcome(VX_ERROR_INVALID_PARAMETERS, error("work size: scale[{}] is 0", d));
    if (used && ws.local[d] != 0 && ws.global[d] % ws.local[d] != 0)
      return outcome(
          VX_ERROR_INVALID_PARAMETERS,
          error("work size: global[{}] = {} is not a multiple of local[{}] = {}", d, ws.global[d], d, ws.local[d]));
    p.globalWorkOffset[d] = used ? ws.offset[d] : 0;
    p.globalWorkScale[d] = used ? ws.scale[d] : 1;
    p.localWorkSize[d] = used ? ws.local[d] : 0;
    p.globalWorkSize[d] = used ? ws.global[d] : 0;
  }
  return {};
}

}  // namespace rknnop::detail

RKNNOP_DETAIL_END_HIDDEN

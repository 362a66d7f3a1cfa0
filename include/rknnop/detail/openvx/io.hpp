// SPDX-License-Identifier: MIT
#pragma once

// Layer 10 of detail/ (docs/architecture.md §1): the RKNN v1 (OpenVX) adapter's I/O. The core's
// neutral status_code as vx_status and back (the one place the two meet), the node's OpenVX log,
// and every call of the OpenVX API on a node's objects: tensor queries and copies, scalar and array
// reads, the parameter list, the execution parameters of a `vx` kernel.

#include <rknnop/detail/decode.hpp>
#include <rknnop/detail/field_desc.hpp>
#include <rknnop/detail/log.hpp>
#include <rknnop/detail/scratch.hpp>
#include <rknnop/detail/vx_api.hpp>
#include <rknnop/parallel.hpp>
#include <rknnop/status.hpp>
#include <rknnop/tensor.hpp>

#include <cstddef>      // std::size_t
#include <cstdint>      // fixed-width types
#include <cstring>      // std::memcpy
#include <limits>       // address-space bound
#include <string_view>  // names

RKNNOP_DETAIL_BEGIN_HIDDEN  // see config.hpp: nothing of the SDK is exported
RKNNOP_DETAIL_BEGIN_GLUE    // see config.hpp: compiled for size

namespace rknnop::detail {

// The core's status codes are OpenVX's values (log.hpp), so that the mapping costs a board library
// nothing; these lines are what makes them so.
static_assert(static_cast<vx_status>(status_code::success) == VX_SUCCESS);
static_assert(static_cast<vx_status>(status_code::failure) == VX_FAILURE);
static_assert(static_cast<vx_status>(status_code::not_implemented) == VX_ERROR_NOT_IMPLEMENTED);
static_assert(static_cast<vx_status>(status_code::not_supported) == VX_ERROR_NOT_SUPPORTED);
static_assert(static_cast<vx_status>(status_code::no_memory) == VX_ERROR_NO_MEMORY);
static_assert(static_cast<vx_status>(status_code::invalid_parameters) == VX_ERROR_INVALID_PARAMETERS);
static_assert(static_cast<vx_status>(status_code::invalid_reference) == VX_ERROR_INVALID_REFERENCE);
static_assert(static_cast<vx_status>(status_code::invalid_format) == VX_ERROR_INVALID_FORMAT);
static_assert(static_cast<vx_status>(status_code::invalid_dimension) == VX_ERROR_INVALID_DIMENSION);
static_assert(static_cast<vx_status>(status_code::invalid_value) == VX_ERROR_INVALID_VALUE);
static_assert(static_cast<vx_status>(status_code::invalid_type) == VX_ERROR_INVALID_TYPE);

// The core's code as the driver reads it, and a driver's code as the core carries it (any value: a
// code the core does not name passes through unchanged).
constexpr vx_status to_vx(status_code code) noexcept { return static_cast<vx_status>(code); }
constexpr status_code from_vx(vx_status code) noexcept { return static_cast<status_code>(code); }

constexpr const char* vx_status_name(vx_status s) noexcept {
  switch (s) {
    case VX_SUCCESS: return "VX_SUCCESS";
    case VX_FAILURE: return "VX_FAILURE";
    case VX_ERROR_NOT_IMPLEMENTED: return "VX_ERROR_NOT_IMPLEMENTED";
    case VX_ERROR_NOT_SUPPORTED: return "VX_ERROR_NOT_SUPPORTED";
    case VX_ERROR_NO_MEMORY: return "VX_ERROR_NO_MEMORY";
    case VX_ERROR_INVALID_PARAMETERS: return "VX_ERROR_INVALID_PARAMETERS";
    case VX_ERROR_INVALID_REFERENCE: return "VX_ERROR_INVALID_REFERENCE";
    case VX_ERROR_INVALID_FORMAT: return "VX_ERROR_INVALID_FORMAT";
    case VX_ERROR_INVALID_DIMENSION: return "VX_ERROR_INVALID_DIMENSION";
    case VX_ERROR_INVALID_VALUE: return "VX_ERROR_INVALID_VALUE";
    case VX_ERROR_INVALID_TYPE: return "VX_ERROR_INVALID_TYPE";
    default: return "VX_ERROR";
  }
}

// "<role> '<field>': <call> failed: <code> (<name>)" for an OpenVX call that failed on field f. One
// out-of-line copy for every call site (a board library's size budget is 32 KiB).
RKNNOP_DETAIL_COLD inline outcome call_failed(vx_status code, const field_desc& f, const char* call) noexcept {
  return fail(from_vx(code), f, "{} failed: {} ({})", call, code, vx_status_name(code));
}

// Sends "rknnop: <op>: <message>" to the sink and to the OpenVX log of the node.
RKNNOP_DETAIL_COLD inline void report(std::string_view op, vx_node node, vx_status code, const char* message) noexcept {
  status line = error("rknnop: {}: {}", op, message);
  if (node) vxAddLogEntry(reinterpret_cast<vx_reference>(node), code, "%s", line.message());
  const log_state& cfg = log_config();
  if (cfg.sink) cfg.sink(line.message(), cfg.user);
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

// Rank, dims and dtype of a tensor parameter. With allow_unshaped (outputs, in the validator), a
// tensor whose rank or dims are still 0, or whose dtype is VX_TYPE_INVALID (a virtual output "to be
// inferred"), is accepted: shape inference sets it. A layout-tagged field takes ranks 1..4, lower
// ranks padded with outer dims of 1 (batch 1 left out); anything else is an error.
RKNNOP_DETAIL_COLD inline outcome query_tensor(vx_reference ref, const field_desc& f, tensor_info& info,
                                               bool allow_unshaped = false) noexcept {
  if (!ref) return fail(status_code::invalid_reference, f, "the tensor is NULL");
  const auto tensor = reinterpret_cast<vx_tensor>(ref);
  vx_dim_t rank = 0;
  vx_status st = vxQueryTensor(tensor, VX_TENSOR_NUMBER_OF_DIMS, &rank, sizeof rank);
  if (st == VX_ERROR_INVALID_PARAMETERS)
    return fail(from_vx(st), f, "the driver refused the rank query's size (-10): {}", dims_convention_hint);
  if (st != VX_SUCCESS) return call_failed(st, f, "vxQueryTensor(VX_TENSOR_NUMBER_OF_DIMS)");
  if (rank > max_tensor_rank || (rank == 0 && !allow_unshaped))
    return fail(status_code::invalid_dimension, f, "expected rank 1..6, got {}", rank);
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
        return fail(status_code::invalid_dimension, f, "dims[{}] is {}", i, dims[i]);
      info.dims[i] = static_cast<std::uint32_t>(dims[i]);
      if (elements > std::numeric_limits<std::size_t>::max() / 8 / info.dims[i])
        return fail(status_code::invalid_dimension, f, "dims overflow the address space");
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
      return fail(status_code::invalid_format, f,
                  "{} with fixed-point position {} is quantized data (integer * 2^-{}); rknnop passes plain "
                  "values only: use fixed-point position 0 or a float tensor",
                  vx_type_name(dtype), static_cast<int>(position), static_cast<int>(position));
  }
  return {};
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

// Copies indices [a, b) of dim `dim` (every index of the other dims) between the tensor and dense host
// memory at `at`. Out of line, and one function for whole tensors and slabs: called from read_tensor
// and write_tensor (and once per piece of a range), a copy of its stride setup at each call site was
// only compile time (issue 49 item 4).
[[gnu::noinline]] inline vx_status copy_patch(vx_reference ref, const tensor_info& info, std::uint32_t dim,
                                              std::size_t a, std::size_t b, char* at, vx_enum usage) noexcept {
  vx_size start[max_tensor_rank], end[max_tensor_rank], stride[max_tensor_rank];
  dense_strides(info, start, end, stride);
  start[dim] = a;
  end[dim] = b;
  return vxCopyTensorPatch(reinterpret_cast<vx_tensor>(ref), info.tensor_rank, start, end, stride, at, usage,
                           VX_MEMORY_TYPE_HOST);
}

// Copies the whole tensor to or from dense host memory, in one call.
inline vx_status copy_tensor(vx_reference ref, const tensor_info& info, void* host, vx_enum usage) noexcept {
  return copy_patch(ref, info, 0, 0, info.dims[0], static_cast<char*>(host), usage);
}

// Copies slabs [a, b) between the tensor and dense host memory at `at` (where slab a's first element is).
inline vx_status copy_slabs(vx_reference ref, const tensor_info& info, const slabs& s, std::size_t a, std::size_t b,
                            char* at, vx_enum usage) noexcept {
  return copy_patch(ref, info, s.dim, a, b, at, usage);
}

// Copies a tensor into host memory as the kernel's element type. When the types differ, the raw data
// goes to a buffer of its own and is converted in one pass split over the pool's threads (in place,
// in the kernel's buffer, the ranges would have to run in about log2(n / convert_grain) phases). With
// copies_on_the_pool each range copies its own slabs and converts them while they are in its cache;
// a widening conversion (float16 to float) then runs in place, from the end of the range's part of
// the kernel's buffer (convert_span's in-place rule), with no buffer of raw data at all.
inline outcome read_tensor(vx_reference ref, const field_desc& f, const tensor_info& info, buffer_list& buffers,
                           void*& kernel_data) noexcept {
  const std::size_t raw_size = dtype_size(info.dtype), kernel_size = dtype_size(f.vx_type);
  const convert_fn fn = info.dtype == f.vx_type ? nullptr : f.to_kernel[accepted_index(f, info.dtype)];
  slabs s;
  const bool split = split_copies(info, s), in_place = !fn || (split && kernel_size > raw_size);
  char* buffer = static_cast<char*>(buffers.allocate(info.elements * kernel_size));
  char* raw = in_place ? buffer : static_cast<char*>(buffers.allocate(info.elements * raw_size));
  if (!buffer || !raw)
    return fail(status_code::no_memory, f, "cannot allocate {} bytes",
                info.elements * (kernel_size + (in_place ? 0 : raw_size)));
  vx_status st = VX_SUCCESS;
  if (split) {
    vx_status* const failed = &st;
    parallel_for(s.count, s.grain(), [=](std::size_t first, std::size_t last) noexcept {
      // A range's slabs a grain at a time: each piece converted while the copy left it in the cache.
      for (std::size_t a = first, b; a < last; a = b) {
        b = last - a > s.grain() ? a + s.grain() : last;
        const std::size_t n = (b - a) * s.size;
        char* const to = buffer + a * s.size * kernel_size;
        char* const from = !fn ? to : in_place ? to + n * (kernel_size - raw_size) : raw + a * s.size * raw_size;
        if (const vx_status c = copy_slabs(ref, info, s, a, b, from, VX_READ_ONLY); c != VX_SUCCESS) {
          __atomic_store_n(failed, c, __ATOMIC_RELAXED);
          return;
        }
        if (fn) fn(from, to, n);
      }
    });
  } else {
    st = copy_tensor(ref, info, raw, VX_READ_ONLY);
    if (st == VX_SUCCESS && fn) convert_range(fn, raw, raw_size, buffer, kernel_size, 0, info.elements);
  }
  if (st != VX_SUCCESS) return call_failed(st, f, "vxCopyTensorPatch(VX_READ_ONLY)");
  kernel_data = buffer;
  return {};
}

// Copies an output's data, in the tensor's dtype, into the tensor: slabs on the pool's threads
// (copies_on_the_pool), else one call. write_tensor's last step, and the element-wise pass's.
inline outcome copy_out_tensor(vx_reference ref, const field_desc& f, const tensor_info& info, void* raw) noexcept {
  slabs s;
  vx_status st = VX_SUCCESS;
  if (split_copies(info, s)) {
    vx_status* const failed = &st;
    parallel_for(s.count, s.grain(), [=](std::size_t a, std::size_t b) noexcept {
      char* const at = static_cast<char*>(raw) + a * s.size * dtype_size(info.dtype);
      if (const vx_status c = copy_slabs(ref, info, s, a, b, at, VX_WRITE_ONLY); c != VX_SUCCESS)
        __atomic_store_n(failed, c, __ATOMIC_RELAXED);
    });
  } else {
    st = copy_tensor(ref, info, raw, VX_WRITE_ONLY);
  }
  if (st != VX_SUCCESS) return call_failed(st, f, "vxCopyTensorPatch(VX_WRITE_ONLY)");
  return {};
}

// Converts the kernel's result to the tensor's dtype and copies it into the tensor (only once every
// check passed: a refused output leaves the tensor as it was).
inline outcome write_tensor(vx_reference ref, const field_desc& f, const tensor_info& info, buffer_list& buffers,
                            void* kernel_data) noexcept {
  void* raw = kernel_data;
  if (info.dtype != f.vx_type) {
    // Into a buffer of its own, in one pass over the pool's threads (see read_tensor).
    raw = buffers.allocate(info.elements * dtype_size(info.dtype));
    if (!raw) return fail(status_code::no_memory, f, "cannot allocate the converted copy");
  }
  if (outcome checked = check_output(f, info, kernel_data, raw != kernel_data ? raw : nullptr); !checked.ok())
    return checked;
  return copy_out_tensor(ref, f, info, raw);
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
  if (!ref) return fail(status_code::invalid_reference, f, "the scalar is NULL");
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
      return fail(status_code::invalid_type, f, "expected a {} scalar, got {}", vx_type_name(f.vx_type),
                  vx_type_name(type));
  }
  st = vxCopyScalar(scalar, storage, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
  if (st != VX_SUCCESS) return call_failed(st, f, "vxCopyScalar");
  if (f.vx_type == VX_TYPE_BOOL) {
    // 0 or 1 only, in every build: the UINT8 form holds any byte (the storage is zeroed, so 4 bytes
    // read either form); a vx_bool is a 4-byte enum, read signed as decode_params reads it.
    std::int32_t b = 0;
    std::memcpy(&b, storage, sizeof b);
    if (b != 0 && b != 1) return bool_value_failure(f, b);
  }
  if constexpr (check_every_element) {
    // Checking builds (the PC's): a nan or infinite float param is refused with the line the attribute
    // backends give (docs/architecture.md §1). Boards take the scalar as it is (their size budget).
    double value = 0;
    if (f.vx_type == VX_TYPE_FLOAT32) {
      float v = 0;
      std::memcpy(&v, storage, sizeof v);
      value = double(v);
    } else if (f.vx_type == VX_TYPE_FLOAT64) {
      std::memcpy(&value, storage, sizeof value);
    }
    if (value != value || value - value != 0) return non_finite_failure(f, value);
  }
  return {};
}

// Reads an int32 array param after checking its count (and, with param_types::check, its item type).
// The count is queried on every call: items can be added or removed after verification.
inline outcome read_array(vx_reference ref, const field_desc& f, std::int32_t* items, std::size_t& count,
                          param_types types) noexcept {
  if (!ref) return fail(status_code::invalid_reference, f, "the array is NULL");
  const auto array = reinterpret_cast<vx_array>(ref);
  vx_status st = VX_SUCCESS;
  if (types == param_types::check) {
    vx_enum type = VX_TYPE_INVALID;
    st = vxQueryArray(array, VX_ARRAY_ITEMTYPE, &type, sizeof type);
    if (st != VX_SUCCESS) return call_failed(st, f, "vxQueryArray(VX_ARRAY_ITEMTYPE)");
    if (type != VX_TYPE_INT32)
      return fail(status_code::invalid_type, f, "expected an array of VX_TYPE_INT32 items, got {} items",
                  vx_type_name(type));
  }
  vx_size n = 0;
  st = vxQueryArray(array, VX_ARRAY_NUMITEMS, &n, sizeof n);
  if (st != VX_SUCCESS) return call_failed(st, f, "vxQueryArray(VX_ARRAY_NUMITEMS)");
  if (f.exact && n != f.capacity)
    return fail(status_code::invalid_parameters, f, "expected exactly {} items, got {}", f.capacity, n);
  if (!f.exact && n > f.capacity)
    return fail(status_code::invalid_parameters, f, "expected at most {} items, got {}", f.capacity, n);
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
    return outcome(status_code::invalid_parameters,
                   error("expected {} parameters (inputs, outputs, params), got {}", expected, num));
  if (!refs) return outcome(status_code::invalid_parameters, error("the parameter list is NULL"));
  return {};
}

// Validates what an op's `vx` function asked for and converts it for the driver.
RKNNOP_DETAIL_COLD inline outcome to_execution_parameters(const work_size& ws,
                                                          vx_kernel_execution_parameters_t& p) noexcept {
  if (ws.dims < 1 || ws.dims > 3)
    return outcome(status_code::invalid_parameters, error("work size: dims must be 1..3, got {}", ws.dims));
  p = vx_kernel_execution_parameters_t{};
  p.workDim = ws.dims;
  for (std::uint32_t d = 0; d < 3; ++d) {
    const bool used = d < ws.dims;
    if (used && ws.global[d] == 0)
      return outcome(status_code::invalid_parameters, error("work size: global[{}] is 0", d));
    if (used && ws.scale[d] == 0)
      return outcome(status_code::invalid_parameters, error("work size: scale[{}] is 0", d));
    if (used && ws.local[d] != 0 && ws.global[d] % ws.local[d] != 0)
      return outcome(
          status_code::invalid_parameters,
          error("work size: global[{}] = {} is not a multiple of local[{}] = {}", d, ws.global[d], d, ws.local[d]));
    p.globalWorkOffset[d] = used ? ws.offset[d] : 0;
    p.globalWorkScale[d] = used ? ws.scale[d] : 1;
    p.localWorkSize[d] = used ? ws.local[d] : 0;
    p.globalWorkSize[d] = used ? ws.global[d] : 0;
  }
  return {};
}
}  // namespace rknnop::detail

RKNNOP_DETAIL_END_GLUE
RKNNOP_DETAIL_END_HIDDEN

// SPDX-License-Identifier: MIT
// Tensors, with the VSI driver's query sizes (uint32 dims) and the optional Khronos ones.
#include "api.hpp"

#include "objects/objects.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstring>
#include <limits>
#include <new>
#include <string>

namespace rknnop::runtime {

void aligned_free::operator()(std::byte* p) const noexcept {
  if (mapping != nullptr) return release_guarded(mapping, mapping_size);
  ::operator delete[](p, std::align_val_t{64});
}

byte_buffer allocate_bytes(vx_size bytes) {
  if (guard_pages_enabled()) {
    byte_buffer guarded = allocate_guarded_bytes(bytes);
    if (!guarded) throw std::bad_alloc();
    return guarded;
  }
  auto* p = static_cast<std::byte*>(::operator new[](bytes == 0 ? 1 : bytes, std::align_val_t{64}));
  std::memset(p, 0, bytes);
  return byte_buffer(p);
}

vx_status tensor::set_shape(vx_uint32 ndims, const vx_uint32* sizes) noexcept {
  if (ndims == 0 || ndims > max_tensor_dims || sizes == nullptr) return VX_ERROR_INVALID_DIMENSION;
  // The byte size must fit vx_size (32 bits on armhf): checked before anything is multiplied.
  vx_size bytes = data_type == VX_TYPE_INVALID ? 1 : element_size();
  for (vx_uint32 i = 0; i < ndims; ++i) {
    if (sizes[i] == 0) return VX_ERROR_INVALID_DIMENSION;
    if (bytes > std::numeric_limits<vx_size>::max() / sizes[i]) return VX_ERROR_NO_MEMORY;
    bytes *= sizes[i];
  }
  // Keep room for the widest element type in case a virtual tensor learns its type later.
  if (data_type == VX_TYPE_INVALID && bytes > std::numeric_limits<vx_size>::max() / 4) return VX_ERROR_NO_MEMORY;
  num_dims = ndims;
  dims = {};
  for (vx_uint32 i = 0; i < ndims; ++i) dims[i] = sizes[i];
  return VX_SUCCESS;
}

vx_size tensor::dense_stride(vx_uint32 dim) const noexcept {
  vx_size stride = element_size();
  for (vx_uint32 i = 0; i < dim; ++i) stride *= dims[i];
  return stride;
}

tensor::~tensor() {
  // A context's teardown deletes its tensors before itself: the owner is alive here.
  if (counted_bytes != 0 && owner != nullptr) owner->tensor_bytes.fetch_sub(counted_bytes);
}

vx_status tensor::allocate() noexcept {
  if (data) return VX_SUCCESS;
  refused_by_limit = false;
  if (!has_shape() || element_size() == 0) return VX_ERROR_NOT_ALLOCATED;
  byte_size = dense_stride(num_dims);
  // Counted before the memory is taken, so a shape no budget allows is refused without touching it.
  if (owner != nullptr) {
    const vx_size limit = owner->tensor_memory_limit.load();
    vx_size held = owner->tensor_bytes.load();
    do {
      if (limit != 0 && (byte_size > limit || held > limit - byte_size)) {
        refused_by_limit = true;
        return VX_ERROR_NO_MEMORY;
      }
    } while (!owner->tensor_bytes.compare_exchange_weak(held, held + byte_size));
    counted_bytes = byte_size;
  }
  try {
    data = allocate_bytes(byte_size);
  } catch (const std::bad_alloc&) {
    if (owner != nullptr) owner->tensor_bytes.fetch_sub(counted_bytes);
    counted_bytes = 0;
    return VX_ERROR_NO_MEMORY;
  }
  return VX_SUCCESS;
}

std::string tensor::allocation_text() const {
  std::string text = std::to_string(dense_stride(num_dims)) + " bytes for dims " + dims_text(num_dims, dims.data()) +
                     " of " + type_name(data_type);
  if (refused_by_limit && owner != nullptr)
    text += ": over the context's tensor memory limit of " + std::to_string(owner->tensor_memory_limit.load()) +
            " bytes (rknnopHostSetTensorMemoryLimit; its tensors hold " + std::to_string(owner->tensor_bytes.load()) +
            ")";
  return text;
}

}  // namespace rknnop::runtime

using namespace rknnop::runtime;

namespace {

tensor* create_tensor(context* ctx, vx_size rank, const vx_size* given, vx_enum data_type, vx_int8 fixed_point_position,
                      graph* virtual_of) {
  const bool is_virtual = virtual_of != nullptr;
  // The boards' driver takes the rank and sizes as vx_size (8 bytes each on aarch64, as in Khronos
  // 1.2); tensors keep them as vx_uint32, so a size that does not fit is refused here.
  if (rank > max_tensor_dims || (rank > 0 && given == nullptr)) {
    log_to(ctx, VX_ERROR_INVALID_PARAMETERS, "vxCreateTensor: rank %zu must be 1..6 and sizes non-NULL",
           static_cast<std::size_t>(rank));
    return nullptr;
  }
  std::array<vx_uint32, max_tensor_dims> narrow{};
  for (vx_size i = 0; i < rank; ++i) {
    if (given[i] > std::numeric_limits<vx_uint32>::max()) {
      log_to(ctx, VX_ERROR_INVALID_PARAMETERS, "vxCreateTensor: size %zu of dimension %zu does not fit in 32 bits",
             static_cast<std::size_t>(given[i]), static_cast<std::size_t>(i));
      return nullptr;
    }
    narrow[i] = static_cast<vx_uint32>(given[i]);
  }
  const auto ndims = static_cast<vx_uint32>(rank);
  const vx_uint32* sizes = rank > 0 ? narrow.data() : nullptr;
  const bool known_type = !(is_virtual && data_type == VX_TYPE_INVALID);
  if (known_type && tensor_element_size(data_type) == 0) {
    log_to(ctx, VX_ERROR_INVALID_TYPE,
           "vxCreateTensor: data type %#x is not supported (FLOAT16, FLOAT32, INT8, UINT8, INT16, "
           "UINT16, INT32 are)",
           static_cast<unsigned>(data_type));
    return nullptr;
  }
  auto* t = make<tensor>(ctx);
  t->data_type = data_type;
  t->fixed_point_position = fixed_point_position;
  t->is_virtual = is_virtual;
  t->graph_id = is_virtual ? virtual_of->id : 0;
  // OpenVX: a virtual tensor's rank or sizes may be 0, "to be inferred" by its producer's validator.
  const bool unknown_shape =
      is_virtual && (ndims == 0 || (sizes != nullptr && ndims <= max_tensor_dims &&
                                    std::any_of(sizes, sizes + ndims, [](vx_uint32 d) { return d == 0; })));
  if (unknown_shape) {
    t->num_dims = ndims;  // reported as given (zeros included) until verification sets the shape
    for (vx_uint32 i = 0; i < ndims; ++i) t->dims[i] = sizes[i];
  } else {
    const vx_status status = t->set_shape(ndims, sizes);
    if (status != VX_SUCCESS) {
      log_to(ctx, status,
             status == VX_ERROR_NO_MEMORY
                 ? "vxCreateTensor: the byte size of the tensor overflows vx_size"
                 : "vxCreateTensor: rank %u must be 1..6, sizes non-NULL and every size non-zero",
             ndims);
      release_external(t);
      return nullptr;
    }
    // Virtual tensors get their memory at verify time, when their shape is final.
    if (!is_virtual) {
      const vx_status allocated = t->allocate();
      if (allocated != VX_SUCCESS) {
        log_to(ctx, allocated, "vxCreateTensor: cannot allocate %s", t->allocation_text().c_str());
        release_external(t);
        return nullptr;
      }
    }
  }
  return t;
}

}  // namespace

extern "C" {

vx_tensor vxCreateTensor(vx_context context_handle, vx_size num_of_dims, const vx_size* sizes, vx_enum data_format,
                         vx_int8 fixed_point_position) {
  return guarded_value<vx_tensor>(nullptr, [&]() -> vx_tensor {
    auto* ctx = find_as<context>(context_handle);
    if (ctx == nullptr) return nullptr;
    return to_handle<vx_tensor>(create_tensor(ctx, num_of_dims, sizes, data_format, fixed_point_position, nullptr));
  });
}

vx_tensor vxCreateVirtualTensor(vx_graph graph_handle, vx_size num_of_dims, const vx_size* sizes, vx_enum data_format,
                                vx_int8 fixed_point_position) {
  return guarded_value<vx_tensor>(nullptr, [&]() -> vx_tensor {
    auto* g = find_as<graph>(graph_handle);
    if (g == nullptr) return nullptr;
    return to_handle<vx_tensor>(create_tensor(g->owner, num_of_dims, sizes, data_format, fixed_point_position, g));
  });
}

vx_status vxQueryTensor(vx_tensor tensor_handle, vx_enum attribute, void* ptr, vx_size size) {
  auto* t = find_as<tensor>(tensor_handle);
  if (t == nullptr) return VX_ERROR_INVALID_REFERENCE;
  if (ptr == nullptr) return VX_ERROR_INVALID_PARAMETERS;
  const bool khronos = t->owner->khronos_mode.load();
  switch (attribute) {
    case VX_TENSOR_NUMBER_OF_DIMS:
      if (khronos) {
        if (size != sizeof(vx_size)) return VX_ERROR_INVALID_PARAMETERS;
        *static_cast<vx_size*>(ptr) = t->num_dims;
      } else {
        if (size != sizeof(vx_uint32)) return VX_ERROR_INVALID_PARAMETERS;
        *static_cast<vx_uint32*>(ptr) = t->num_dims;
      }
      return VX_SUCCESS;
    case VX_TENSOR_DIMS:
      if (khronos) {
        if (size < t->num_dims * sizeof(vx_size)) return VX_ERROR_INVALID_PARAMETERS;
        auto* out = static_cast<vx_size*>(ptr);
        for (vx_uint32 i = 0; i < t->num_dims; ++i) out[i] = t->dims[i];
      } else {
        // VSI: uint32 per dim, and the buffer may not exceed 6 of them.
        if (size < t->num_dims * sizeof(vx_uint32) || size > max_tensor_dims * sizeof(vx_uint32))
          return VX_ERROR_INVALID_PARAMETERS;
        std::memcpy(ptr, t->dims.data(), t->num_dims * sizeof(vx_uint32));
      }
      return VX_SUCCESS;
    case VX_TENSOR_DATA_TYPE:
      if (size != sizeof(vx_enum)) return VX_ERROR_INVALID_PARAMETERS;
      *static_cast<vx_enum*>(ptr) = t->data_type;
      return VX_SUCCESS;
    case VX_TENSOR_FIXED_POINT_POSITION:
      if (size != sizeof(vx_int8)) return VX_ERROR_INVALID_PARAMETERS;
      *static_cast<vx_int8*>(ptr) = t->fixed_point_position;
      return VX_SUCCESS;
    default: return VX_ERROR_INVALID_PARAMETERS;  // the driver's answer to an unknown attribute (§9)
  }
}

// Long by design: every argument check with its own log message, then the strided copy.
vx_status vxCopyTensorPatch(vx_tensor tensor_handle, vx_size number_of_dims, const vx_size* view_start,
                            const vx_size* view_end, const vx_size* user_stride, void* user_ptr, vx_enum usage,
                            vx_enum user_memory_type) {
  auto* t = find_as<tensor>(tensor_handle);
  if (t == nullptr) return VX_ERROR_INVALID_REFERENCE;
  // The driver enables access to a virtual tensor only around a kernel function call (docs/runtime.md §9).
  if (t->is_virtual && t->access.load() == 0) {
    log_to(t, VX_ERROR_OPTIMIZED_AWAY,
           "vxCopyTensorPatch: a virtual tensor can be copied only from a kernel function it is a parameter of (the "
           "driver answers -9 elsewhere: in a validator, an initializer or the application)");
    return VX_ERROR_OPTIMIZED_AWAY;
  }
  if (!t->allocated()) {
    log_to(t, VX_ERROR_NOT_ALLOCATED, "vxCopyTensorPatch: the virtual tensor has no shape until its graph is verified");
    return VX_ERROR_NOT_ALLOCATED;
  }
  if (view_start == nullptr || view_end == nullptr || user_stride == nullptr || user_ptr == nullptr ||
      !is_host_memory(user_memory_type) || (usage != VX_READ_ONLY && usage != VX_WRITE_ONLY)) {
    log_to(t, VX_ERROR_INVALID_PARAMETERS,
           "vxCopyTensorPatch: NULL argument, usage %#x or memory type %#x not supported", static_cast<unsigned>(usage),
           static_cast<unsigned>(user_memory_type));
    return VX_ERROR_INVALID_PARAMETERS;
  }
  // The driver takes 1..rank dims; the dims past number_of_dims are not walked (index 0 of each).
  if (number_of_dims == 0 || number_of_dims > t->num_dims) {
    log_to(t, VX_ERROR_INVALID_PARAMETERS, "vxCopyTensorPatch: number_of_dims %zu is not in 1..%u (the tensor's rank)",
           static_cast<std::size_t>(number_of_dims), t->num_dims);
    return VX_ERROR_INVALID_PARAMETERS;
  }
  const vx_size element = t->element_size();
  const auto ndims = static_cast<vx_uint32>(number_of_dims);
  std::array<vx_size, max_tensor_dims> extent{};
  std::array<vx_size, max_tensor_dims> tensor_stride{};
  for (vx_uint32 i = 0; i < ndims; ++i) {
    if (view_start[i] >= view_end[i] || view_end[i] > t->dims[i]) {
      log_to(t, VX_ERROR_INVALID_PARAMETERS, "vxCopyTensorPatch: view [%zu, %zu) of dim %u is outside [0, %u]",
             static_cast<std::size_t>(view_start[i]), static_cast<std::size_t>(view_end[i]), i, t->dims[i]);
      return VX_ERROR_INVALID_PARAMETERS;
    }
    extent[i] = view_end[i] - view_start[i];
    if (extent[i] > 1 && user_stride[i] < element) {
      log_to(t, VX_ERROR_INVALID_PARAMETERS,
             "vxCopyTensorPatch: user_stride[%u] = %zu is smaller than the element size %zu", i,
             static_cast<std::size_t>(user_stride[i]), static_cast<std::size_t>(element));
      return VX_ERROR_INVALID_PARAMETERS;
    }
    tensor_stride[i] = t->dense_stride(i);
  }

  const bool to_user = usage == VX_READ_ONLY;
  auto* user = static_cast<std::byte*>(user_ptr);
  std::byte* storage = t->data.get();
  // The longest run of bytes contiguous in both memories: dim 0 when the user's elements are dense,
  // then each dim of extent 1 or whose strides (tensor and user) both equal the run so far. A dense
  // patch is then one memmove; a strided one, one memmove per run (per element only when the user's
  // dim-0 stride is not the element size).
  const bool rows_dense = extent[0] == 1 || user_stride[0] == element;
  vx_size run = element;
  vx_uint32 first_outer = 1;  // dims from here on are walked; the ones before stay at view_start
  if (rows_dense) {
    run = extent[0] * element;
    for (; first_outer < ndims; ++first_outer) {
      const vx_size e = extent[first_outer];
      if (e != 1 && (tensor_stride[first_outer] != run || user_stride[first_outer] != run)) break;
      run *= e;
    }
  }
  std::array<vx_size, max_tensor_dims> index{};
  for (;;) {
    vx_size tensor_offset = view_start[0] * element;
    vx_size user_offset = 0;
    for (vx_uint32 i = 1; i < ndims; ++i) {
      tensor_offset += (view_start[i] + index[i]) * tensor_stride[i];
      user_offset += index[i] * user_stride[i];
    }
    if (rows_dense) {
      std::byte* dst = to_user ? user + user_offset : storage + tensor_offset;
      const std::byte* src = to_user ? storage + tensor_offset : user + user_offset;
      std::memmove(dst, src, run);
    } else {
      for (vx_size x = 0; x < extent[0]; ++x) {
        std::byte* tensor_elem = storage + tensor_offset + x * element;
        std::byte* user_elem = user + user_offset + x * user_stride[0];
        if (to_user)
          std::memcpy(user_elem, tensor_elem, element);
        else
          std::memcpy(tensor_elem, user_elem, element);
      }
    }
    vx_uint32 d = first_outer;
    while (d < ndims && ++index[d] == extent[d]) index[d++] = 0;
    if (d >= ndims) break;
  }
  if (!to_user) t->written.store(true);
  return VX_SUCCESS;
}

vx_status vxReleaseTensor(vx_tensor* tensor_handle) { return release_handle(tensor_handle, VX_TYPE_TENSOR); }

}  // extern "C"

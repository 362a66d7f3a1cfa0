// SPDX-License-Identifier: MIT
// Scalars (the types the board runtime can create; vx_bool is a 4-byte 0/1) and arrays.
#include "api.hpp"

#include "objects/objects.hpp"

#include <cstring>
#include <limits>

namespace rknnop::runtime {}  // namespace rknnop::runtime

using namespace rknnop::runtime;

namespace {

// A vx_bool holds 0 or 1, whatever the 4 bytes could encode.
bool valid_scalar_value(vx_enum data_type, const void* value) noexcept {
  if (data_type != VX_TYPE_BOOL) return true;
  vx_uint32 word = 0;
  std::memcpy(&word, value, sizeof word);
  return word <= 1;
}

}  // namespace

extern "C" {

vx_scalar vxCreateScalar(vx_context context_handle, vx_enum data_type, const void* ptr) {
  return guarded_value<vx_scalar>(nullptr, [&]() -> vx_scalar {
    auto* ctx = find_as<context>(context_handle);
    if (ctx == nullptr) return nullptr;
    const vx_size size = scalar_type_size(data_type);
    if (size == 0) {
      log_to(ctx, VX_ERROR_INVALID_TYPE, "vxCreateScalar: scalars of type %#x cannot be created",
             static_cast<unsigned>(data_type));
      return nullptr;
    }
    if (ptr == nullptr || !valid_scalar_value(data_type, ptr)) {
      log_to(ctx, VX_ERROR_INVALID_PARAMETERS, "vxCreateScalar: NULL initial value or a vx_bool other than 0/1");
      return nullptr;
    }
    auto* s = make<scalar>(ctx, data_type);
    std::memcpy(s->value.data(), ptr, size);
    return to_handle<vx_scalar>(s);
  });
}

vx_status vxQueryScalar(vx_scalar scalar_handle, vx_enum attribute, void* ptr, vx_size size) {
  auto* s = find_as<scalar>(scalar_handle);
  if (s == nullptr) return VX_ERROR_INVALID_REFERENCE;
  if (ptr == nullptr) return VX_ERROR_INVALID_PARAMETERS;
  if (attribute != VX_SCALAR_TYPE) return VX_ERROR_NOT_SUPPORTED;
  if (size != sizeof(vx_enum)) return VX_ERROR_INVALID_PARAMETERS;
  *static_cast<vx_enum*>(ptr) = s->data_type;
  return VX_SUCCESS;
}

vx_status vxCopyScalar(vx_scalar scalar_handle, void* user_ptr, vx_enum usage, vx_enum user_mem_type) {
  auto* s = find_as<scalar>(scalar_handle);
  if (s == nullptr) return VX_ERROR_INVALID_REFERENCE;
  if (user_ptr == nullptr || !is_host_memory(user_mem_type)) return VX_ERROR_INVALID_PARAMETERS;
  const vx_size size = scalar_type_size(s->data_type);
  std::lock_guard lock(s->mutex);
  if (usage == VX_READ_ONLY) {
    std::memcpy(user_ptr, s->value.data(), size);
    return VX_SUCCESS;
  }
  if (usage == VX_WRITE_ONLY) {
    if (!valid_scalar_value(s->data_type, user_ptr)) {
      log_to(s, VX_ERROR_INVALID_VALUE, "vxCopyScalar: a vx_bool must be 0 or 1");
      return VX_ERROR_INVALID_VALUE;
    }
    std::memcpy(s->value.data(), user_ptr, size);
    return VX_SUCCESS;
  }
  return VX_ERROR_INVALID_PARAMETERS;
}

vx_status vxReleaseScalar(vx_scalar* scalar_handle) { return release_handle(scalar_handle, VX_TYPE_SCALAR); }

vx_array vxCreateArray(vx_context context_handle, vx_enum item_type, vx_size capacity) {
  return guarded_value<vx_array>(nullptr, [&]() -> vx_array {
    auto* ctx = find_as<context>(context_handle);
    if (ctx == nullptr) return nullptr;
    const vx_size item_size = array_item_size(item_type);
    if (item_size == 0) {
      log_to(ctx, VX_ERROR_INVALID_TYPE, "vxCreateArray: item type %#x is not supported",
             static_cast<unsigned>(item_type));
      return nullptr;
    }
    if (capacity == 0 || capacity > std::numeric_limits<vx_size>::max() / item_size) {
      log_to(ctx, VX_ERROR_INVALID_PARAMETERS, "vxCreateArray: capacity %zu is zero or its byte size overflows",
             static_cast<std::size_t>(capacity));
      return nullptr;
    }
    auto* a = make<array>(ctx, item_type, item_size, capacity);
    try {
      a->items.resize(capacity * item_size);
    } catch (...) {
      release_external(a);
      throw;
    }
    return to_handle<vx_array>(a);
  });
}

vx_status vxAddArrayItems(vx_array array_handle, vx_size count, const void* ptr, vx_size stride) {
  auto* a = find_as<array>(array_handle);
  if (a == nullptr) return VX_ERROR_INVALID_REFERENCE;
  if (count == 0) return VX_SUCCESS;
  if (ptr == nullptr || stride < a->item_size) return VX_ERROR_INVALID_PARAMETERS;
  std::lock_guard lock(a->mutex);
  const vx_size used = a->num_items.load(std::memory_order_relaxed);  // only written under the mutex
  if (count > a->capacity - used) {
    log_to(a, VX_FAILURE, "vxAddArrayItems: %zu items do not fit (%zu of %zu used)", static_cast<std::size_t>(count),
           static_cast<std::size_t>(used), static_cast<std::size_t>(a->capacity));
    return VX_FAILURE;
  }
  const auto* src = static_cast<const std::byte*>(ptr);
  for (vx_size i = 0; i < count; ++i) std::memcpy(&a->items[(used + i) * a->item_size], src + i * stride, a->item_size);
  a->num_items.store(used + count, std::memory_order_release);
  return VX_SUCCESS;
}

vx_status vxQueryArray(vx_array array_handle, vx_enum attribute, void* ptr, vx_size size) {
  auto* a = find_as<array>(array_handle);
  if (a == nullptr) return VX_ERROR_INVALID_REFERENCE;
  if (ptr == nullptr) return VX_ERROR_INVALID_PARAMETERS;
  vx_size value = 0;
  switch (attribute) {
    case VX_ARRAY_ITEMTYPE:
      if (size != sizeof(vx_enum)) return VX_ERROR_INVALID_PARAMETERS;
      *static_cast<vx_enum*>(ptr) = a->item_type;
      return VX_SUCCESS;
    case VX_ARRAY_NUMITEMS: value = a->num_items.load(std::memory_order_acquire); break;
    case VX_ARRAY_CAPACITY: value = a->capacity; break;
    case VX_ARRAY_ITEMSIZE: value = a->item_size; break;
    default: return VX_ERROR_NOT_SUPPORTED;
  }
  if (size != sizeof(vx_size)) return VX_ERROR_INVALID_PARAMETERS;
  *static_cast<vx_size*>(ptr) = value;
  return VX_SUCCESS;
}

vx_status vxCopyArrayRange(vx_array array_handle, vx_size range_start, vx_size range_end, vx_size user_stride,
                           void* user_ptr, vx_enum usage, vx_enum user_memory_type) {
  auto* a = find_as<array>(array_handle);
  if (a == nullptr) return VX_ERROR_INVALID_REFERENCE;
  if (user_ptr == nullptr || user_stride < a->item_size || !is_host_memory(user_memory_type) ||
      (usage != VX_READ_ONLY && usage != VX_WRITE_ONLY))
    return VX_ERROR_INVALID_PARAMETERS;
  std::lock_guard lock(a->mutex);
  const vx_size used = a->num_items.load(std::memory_order_relaxed);  // only written under the mutex
  if (range_start >= range_end || range_end > used) {
    log_to(a, VX_ERROR_INVALID_PARAMETERS, "vxCopyArrayRange: range [%zu, %zu) is empty or beyond the %zu items",
           static_cast<std::size_t>(range_start), static_cast<std::size_t>(range_end), static_cast<std::size_t>(used));
    return VX_ERROR_INVALID_PARAMETERS;
  }
  auto* user = static_cast<std::byte*>(user_ptr);
  for (vx_size i = range_start; i < range_end; ++i) {
    std::byte* item = &a->items[i * a->item_size];
    std::byte* mine = user + (i - range_start) * user_stride;
    if (usage == VX_READ_ONLY)
      std::memcpy(mine, item, a->item_size);
    else
      std::memcpy(item, mine, a->item_size);
  }
  return VX_SUCCESS;
}

vx_status vxReleaseArray(vx_array* array_handle) { return release_handle(array_handle, VX_TYPE_ARRAY); }

}  // extern "C"

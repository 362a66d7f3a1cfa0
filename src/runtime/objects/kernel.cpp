// SPDX-License-Identifier: MIT
// User kernels: registration, parameter tables, lookup and removal.
#include "api.hpp"

#include "objects/objects.hpp"

#include <cstring>

using namespace rknnop::runtime;

namespace {

bool valid_direction(vx_enum dir) noexcept { return dir == VX_INPUT || dir == VX_OUTPUT || dir == VX_BIDIRECTIONAL; }

bool valid_state(vx_enum state) noexcept {
  return state == VX_PARAMETER_STATE_REQUIRED || state == VX_PARAMETER_STATE_OPTIONAL;
}

// Object types a node parameter can be, plus scalar value types (a scalar of exactly that type).
bool valid_param_type(vx_enum type) noexcept {
  switch (type) {
    case VX_TYPE_REFERENCE:
    case VX_TYPE_SCALAR:
    case VX_TYPE_ARRAY:
    case VX_TYPE_TENSOR: return true;
    default: return scalar_type_size(type) != 0;
  }
}

}  // namespace

extern "C" {

vx_kernel vxAddUserKernel(vx_context context_handle, const vx_char name[VX_MAX_KERNEL_NAME], vx_enum enumeration,
                          vx_kernel_f func_ptr, vx_uint32 numParams, vx_kernel_validate_f validate,
                          vx_kernel_initialize_f init, vx_kernel_deinitialize_f deinit) {
  return guarded_value<vx_kernel>(nullptr, [&]() -> vx_kernel {
    auto* ctx = find_as<context>(context_handle);
    if (ctx == nullptr) return nullptr;
    const std::size_t length = name == nullptr ? 0 : strnlen(name, VX_MAX_KERNEL_NAME);
    if (length == 0 || length == VX_MAX_KERNEL_NAME) {
      log_to(ctx, VX_ERROR_INVALID_PARAMETERS, "vxAddUserKernel: the name must be 1..%d characters",
             VX_MAX_KERNEL_NAME - 1);
      return nullptr;
    }
    auto* k = make<kernel>(ctx);
    k->name.assign(name, length);
    k->enumeration = enumeration;
    k->function = func_ptr;
    k->validate = validate;
    k->initialize = init;
    k->deinitialize = deinit;
    try {
      k->params.assign(numParams, vx_param_description_t{});
      k->param_added.assign(numParams, false);
      if (!ctx->add_kernel(k)) {
        log_to(ctx, VX_ERROR_INVALID_PARAMETERS, "vxAddUserKernel: a kernel named '%s' exists", k->name.c_str());
        release_external(k);
        return nullptr;
      }
    } catch (...) {
      release_external(k);
      throw;
    }
    return to_handle<vx_kernel>(k);
  });
}

vx_status vxAddParameterToKernel(vx_kernel kernel_handle, vx_uint32 index, vx_enum dir, vx_enum data_type,
                                 vx_enum state) {
  auto* k = find_as<kernel>(kernel_handle);
  if (k == nullptr) return VX_ERROR_INVALID_REFERENCE;
  if (k->finalized) {
    log_to(k, VX_ERROR_NOT_SUPPORTED, "vxAddParameterToKernel: kernel '%s' is already finalized", k->name.c_str());
    return VX_ERROR_NOT_SUPPORTED;
  }
  if (index >= k->params.size() || !valid_direction(dir) || !valid_state(state)) {
    log_to(k, VX_ERROR_INVALID_PARAMETERS,
           "vxAddParameterToKernel: kernel '%s' parameter %u: index must be < %zu, direction "
           "INPUT/OUTPUT/BIDIRECTIONAL, state REQUIRED/OPTIONAL",
           k->name.c_str(), index, k->params.size());
    return VX_ERROR_INVALID_PARAMETERS;
  }
  if (!valid_param_type(data_type)) {
    log_to(k, VX_ERROR_INVALID_TYPE, "vxAddParameterToKernel: kernel '%s' parameter %u: type %#x", k->name.c_str(),
           index, static_cast<unsigned>(data_type));
    return VX_ERROR_INVALID_TYPE;
  }
  k->params[index] = vx_param_description_t{dir, data_type, state};
  k->param_added[index] = true;
  return VX_SUCCESS;
}

vx_status vxFinalizeKernel(vx_kernel kernel_handle) {
  auto* k = find_as<kernel>(kernel_handle);
  if (k == nullptr) return VX_ERROR_INVALID_REFERENCE;
  for (std::size_t i = 0; i < k->param_added.size(); ++i) {
    if (!k->param_added[i]) {
      log_to(k, VX_ERROR_INVALID_PARAMETERS, "vxFinalizeKernel: kernel '%s' parameter %zu was never added",
             k->name.c_str(), i);
      return VX_ERROR_INVALID_PARAMETERS;
    }
  }
  k->finalized = true;
  return VX_SUCCESS;
}

vx_kernel vxGetKernelByName(vx_context context_handle, const vx_char* name) {
  return guarded_value<vx_kernel>(nullptr, [&]() -> vx_kernel {
    auto* ctx = find_as<context>(context_handle);
    if (ctx == nullptr || name == nullptr) return nullptr;
    const std::string key(name, strnlen(name, VX_MAX_KERNEL_NAME));
    // Looked up and retained under the table's lock so a concurrent vxRemoveKernel cannot free it.
    std::lock_guard lock(ctx->mutex);
    auto it = ctx->kernels.find(key);
    if (it == ctx->kernels.end() || !it->second->finalized) return nullptr;
    kernel* k = it->second;
    k->external.fetch_add(1);
    hold(k);
    return to_handle<vx_kernel>(k);
  });
}

vx_status vxRemoveKernel(vx_kernel kernel_handle) {
  auto* k = find_as<kernel>(kernel_handle);
  if (k == nullptr) return VX_ERROR_INVALID_REFERENCE;
  // Khronos: removes the kernel from the context and releases the caller's handle. Nodes that
  // use it keep it alive.
  if (!k->owner->remove_kernel(k)) return VX_ERROR_INVALID_PARAMETERS;
  return release_external(k);
}

vx_status vxReleaseKernel(vx_kernel* kernel_handle) { return release_handle(kernel_handle, VX_TYPE_KERNEL); }

}  // extern "C"

// SPDX-License-Identifier: MIT
// Contexts, generic references and the log.
#include "api.hpp"

#include "objects/reference.hpp"

#include <cstdarg>

using namespace rknnop::runtime;

extern "C" {

vx_context vxCreateContext(void) {
  return guarded_value<vx_context>(nullptr, [] { return to_handle<vx_context>(make<context>()); });
}

vx_status vxReleaseContext(vx_context* ctx) { return release_handle(ctx, VX_TYPE_CONTEXT); }

vx_context vxGetContext(vx_reference ref) {
  reference* obj = find(ref, VX_TYPE_REFERENCE);
  if (obj == nullptr) return nullptr;
  return to_handle<vx_context>(context_of(obj));
}

vx_status vxGetStatus(vx_reference ref) {
  if (ref == nullptr) return VX_ERROR_NO_RESOURCES;
  return is_live(ref) ? VX_SUCCESS : VX_ERROR_INVALID_REFERENCE;
}

vx_status vxQueryReference(vx_reference ref, vx_enum attribute, void* ptr, vx_size size) {
  reference* obj = find(ref, VX_TYPE_REFERENCE);
  if (obj == nullptr) return VX_ERROR_INVALID_REFERENCE;
  if (ptr == nullptr) return VX_ERROR_INVALID_PARAMETERS;
  switch (attribute) {
    case VX_REFERENCE_COUNT:
      if (size != sizeof(vx_uint32)) return VX_ERROR_INVALID_PARAMETERS;
      *static_cast<vx_uint32*>(ptr) = obj->external.load();
      return VX_SUCCESS;
    case VX_REFERENCE_TYPE:
      if (size != sizeof(vx_enum)) return VX_ERROR_INVALID_PARAMETERS;
      *static_cast<vx_enum*>(ptr) = obj->type;
      return VX_SUCCESS;
    default: return VX_ERROR_NOT_SUPPORTED;
  }
}

vx_status vxReleaseReference(vx_reference* ref) { return release_handle(ref, VX_TYPE_REFERENCE); }

vx_status vxRetainReference(vx_reference ref) {
  reference* obj = find(ref, VX_TYPE_REFERENCE);
  if (obj == nullptr) return VX_ERROR_INVALID_REFERENCE;
  obj->external.fetch_add(1);
  if (obj->type != VX_TYPE_CONTEXT) hold(obj);
  return VX_SUCCESS;
}

void vxAddLogEntry(vx_reference ref, vx_status status, const char* message, ...) {
  reference* obj = find(ref, VX_TYPE_REFERENCE);
  if (obj == nullptr || message == nullptr) return;
  std::va_list args;
  va_start(args, message);
  add_log_entry_v(obj, status, message, args);
  va_end(args);
}

}  // extern "C"

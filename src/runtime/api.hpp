// SPDX-License-Identifier: MIT
// Included first by every runtime source: gives the exported vx* and rknnopHost* declarations
// default visibility (the library is built with -fvisibility=hidden) before the C headers expand.
#pragma once

#if defined(__GNUC__)
#define VX_API_ENTRY __attribute__((visibility("default")))
#define RKNNOP_HOST_API __attribute__((visibility("default")))
#endif

#include <rknnop/host/openvx_host.h>
#include <rknnop/openvx.h>

#include <new>  // std::bad_alloc

namespace rknnop::runtime {

// Nothing may be thrown across the C boundary: every API body runs through one of these.
template <class F>
vx_status guarded(F&& body) noexcept {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return VX_ERROR_NO_MEMORY;
  } catch (...) {
    return VX_FAILURE;
  }
}

template <class T, class F>
T guarded_value(T on_error, F&& body) noexcept {
  try {
    return body();
  } catch (...) {
    return on_error;
  }
}

}  // namespace rknnop::runtime

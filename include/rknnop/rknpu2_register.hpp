// SPDX-License-Identifier: MIT
#pragma once

// For applications that register custom ops themselves (rknn_register_custom_ops after rknn_init,
// before rknn_run): one call registers every op of one or more rknnop plugins, or of op structs
// compiled into the application. Include Rockchip's rknn_api.h and rknn_custom_op.h first (the
// RKNPU2 SDK's include/), link librknnrt and libdl.
//
//   rknnop::rknpu2::plugins ops;                              // keeps the libraries loaded
//   if (int rc = ops.load({"/usr/lib/rknpu/op_plugins/librkcst_dualresidual.so"}); rc != 0) ...
//   if (int rc = ops.register_with(ctx); rc != 0) fprintf(stderr, "%s\n", ops.error());
//
//   rknnop::rknpu2::register_ops<DualResidual, ResizeArea>(ctx);   // structs built into the app
//
// Op structs built into an application: compile their sources with RKNNOP_RKNPU2_EMBED defined
// (their RKNNOP_EXPORT_OP(Name) then defines nothing but its checks: no OpenVX list, no plugin
// exports).

#include <rknnop/rknpu2.hpp>  // custom_op<Op>: the rknn_custom_op of a struct built into the application

#include <dlfcn.h>

#include <cstdint>           // uint32_t
#include <cstdio>            // std::snprintf
#include <cstring>           // std::memcpy
#include <initializer_list>  // plugin paths

#ifndef _RKNN_CUSTOM_OP_H
#error "rknnop: include Rockchip's rknn_custom_op.h (RKNPU2 SDK include/) before <rknnop/rknpu2_register.hpp>"
#endif

namespace rknnop::rknpu2 {

// The libraries of rknnop (or any) RKNPU2 plugins, loaded and kept loaded until destruction: the
// runtime calls their callbacks until rknn_destroy.
class plugins {
public:
  static constexpr std::uint32_t max_ops = 64;

  plugins() = default;
  plugins(const plugins&) = delete;
  plugins& operator=(const plugins&) = delete;
  ~plugins() {  // after rknn_destroy of every context they were registered with
    for (std::uint32_t i = 0; i < handle_count_; ++i) dlclose(handles_[i]);
  }

  // Loads each library and takes its ops: rknnop_rknpu2_ops (every op of an rknnop plugin), else
  // get_rknn_custom_op (one op, as rknn_server loads plugins). 0, or -1 with error() set.
  int load(std::initializer_list<const char*> paths) noexcept {
    for (const char* path : paths) {
      void* handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
      if (!handle) return fail("rknnop: cannot load the plugin %s: %s", path, dlerror());
      if (handle_count_ == max_ops) {
        dlclose(handle);
        return fail("rknnop: more than %u plugins", unsigned(max_ops));
      }
      handles_[handle_count_++] = handle;
      using table_fn = const rknn_custom_op* (*)(uint32_t*);
      using one_fn = rknn_custom_op* (*)();
      uint32_t n = 0;
      const rknn_custom_op* first = nullptr;
      if (void* table = dlsym(handle, "rknnop_rknpu2_ops")) {
        table_fn f;
        std::memcpy(&f, &table, sizeof f);
        first = f(&n);
      } else if (void* one = dlsym(handle, "get_rknn_custom_op")) {
        one_fn f;
        std::memcpy(&f, &one, sizeof f);
        first = f();
        n = first ? 1 : 0;
      } else {
        return fail("rknnop: %s exports neither rknnop_rknpu2_ops nor get_rknn_custom_op: not an RKNPU2 plugin", path);
      }
      if (!first || n == 0) return fail("rknnop: %s has no custom op", path);
      for (uint32_t i = 0; i < n; ++i)
        if (int rc = add(first[i]); rc != 0) return rc;
    }
    return 0;
  }

  // Adds one op (e.g. rknnop::rknpu2::custom_op<Op>()). 0, or -1 with error() set.
  int add(const rknn_custom_op& op) noexcept {
    if (op_count_ == max_ops) return fail("rknnop: more than %u custom ops", unsigned(max_ops));
    ops_[op_count_++] = op;
    return 0;
  }

  // One rknn_register_custom_ops call with every op loaded: its result (0 on success); on failure
  // error() names the ops.
  int register_with(rknn_context ctx) noexcept {
    if (op_count_ == 0) return fail("rknnop: no custom ops to register");
    const int rc = rknn_register_custom_ops(ctx, ops_, op_count_);
    if (rc != 0) {
      int at = std::snprintf(error_, sizeof error_, "rknnop: rknn_register_custom_ops failed (%d) for", rc);
      for (uint32_t i = 0; i < op_count_ && at > 0 && std::size_t(at) < sizeof error_; ++i)
        at += std::snprintf(error_ + at, sizeof error_ - std::size_t(at), " %s", ops_[i].op_type);
    }
    return rc;
  }

  std::uint32_t size() const noexcept { return op_count_; }
  const rknn_custom_op* ops() const noexcept { return ops_; }
  const char* error() const noexcept { return error_; }

private:
  template <class... Args>
  int fail(const char* format, Args... args) noexcept {
    std::snprintf(error_, sizeof error_, format, args...);
    return -1;
  }

  void* handles_[max_ops] = {};
  std::uint32_t handle_count_ = 0;
  rknn_custom_op ops_[max_ops] = {};
  std::uint32_t op_count_ = 0;
  char error_[512] = {};
};

// The rknn_custom_op of an op struct built into the application (<rknnop/rknpu2.hpp> included).
// rknnop's declaration lays out as Rockchip's (tests/rknpu2/abi_layout.cpp).
template <class Op>
rknn_custom_op custom_op() noexcept {
  static_assert(sizeof(rknn_custom_op) == sizeof(detail::rknpu2::custom_op), "rknnop: rknn_custom_op's layout differs");
  rknn_custom_op op;
  std::memcpy(static_cast<void*>(&op), &detail::rknpu2::the_custom_op<Op>, sizeof op);
  return op;
}

// Registers op structs built into the application, in one rknn_register_custom_ops call.
template <class... Ops>
int register_ops(rknn_context ctx) noexcept {
  rknn_custom_op ops[] = {custom_op<Ops>()...};
  return rknn_register_custom_ops(ctx, ops, sizeof...(Ops));
}

}  // namespace rknnop::rknpu2

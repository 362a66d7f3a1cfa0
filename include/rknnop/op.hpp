// SPDX-License-Identifier: MIT
#pragma once

// The one entry point for writing an op: declare a struct, export it.
//
//   struct MyOp {                                                // the TensorFlow op name
//     struct inputs  { rknnop::tensor<float, rknnop::float16> x; };
//     struct outputs { rknnop::tensor<float, rknnop::float16> y; };
//     struct params  { float alpha; std::array<std::int32_t, 2> size; };   // optional
//     static constexpr auto infer = [](const inputs&, outputs&, const params&) -> rknnop::status;
//     static constexpr auto cpu   = [](const inputs&, outputs&, const params&) -> rknnop::status;
//     static constexpr auto vx    = [](const inputs&, const outputs&, const params&,
//                                      rknnop::work_size&) -> rknnop::status;        // optional
//   };
//   RKNNOP_EXPORT_OP(MyOp);  // defines vx_kernel_MyOp_list, the library's only exported symbol
//
// The op's name is the struct's (namespaces left out). A struct named otherwise (a template, an
// alias) declares it: `static constexpr std::string_view name = "TfOpName";`. Ops without `params`
// take `rknnop::no_params` where the functions above take `const params&`.

#include <rknnop/config.hpp>
#include <rknnop/detail/export.hpp>
#include <rknnop/detail/model.hpp>
#include <rknnop/detail/scratch.hpp>
#include <rknnop/float16.hpp>
#include <rknnop/status.hpp>
#include <rknnop/tensor.hpp>
#include <rknnop/types.hpp>

#ifdef RKNNOP_EMITTER
// Only in the host-side generator build of rknnop_add_op: the op's schema as data, the one thing the
// generator's main (cmake/rknnopEmitterMain.cpp.in, which includes <rknnop/emit/program.hpp>) cannot
// read off a struct it does not see. No {fmt}, no text, no files: the emitter is never reached from here.
#include <rknnop/detail/schema.hpp>
#define RKNNOP_DETAIL_EMITTER_SCHEMA(Name) \
  ::rknnop::op_schema rknnop_schema_##Name() noexcept { return ::rknnop::schema_of<Name>(); }
#else
#define RKNNOP_DETAIL_EMITTER_SCHEMA(Name)
#endif

#include <array>        // std::array params, for users
#include <cstdint>      // std::int32_t, for users
#include <string_view>  // op names, for users

RKNNOP_DETAIL_BEGIN_HIDDEN  // see config.hpp: nothing of the SDK is exported

namespace rknnop {
// True when Op satisfies every rule of an op struct (checked with readable errors by RKNNOP_EXPORT_OP).
template <class Op>
concept op_spec =
    (!detail::declares_name<Op> || detail::has_name<Op>)&&detail::has_io_structs<Op> && detail::has_cpu_kernel<Op> &&
    detail::has_infer<Op> && detail::cpu_kernel_signature<Op> && detail::infer_signature<Op>;

// The op's name: Op::name when the struct declares one, else the struct's own name. It names the
// symbol vx_kernel_<name>_list, op.yml's `name`, the Python class and MindSpore Lite's Custom.type.
template <class Op>
inline constexpr std::string_view op_name = detail::op_model_name<Op>();

// The op's RKNPU2 op type (the ONNX node's op type librknnrt matches): Op::rknpu2_type when the
// struct declares one, else op_name<Op>.
template <class Op>
inline constexpr std::string_view rknpu2_op_type = detail::op_model_rknpu2_type<Op>();

}  // namespace rknnop

// Defines the exported descriptor list `vx_kernel_<Name>_list` for op struct Name (at namespace
// scope, once per op, in the library's source, with a trailing `;`). When the struct also declares
// `name`, it must equal Name: the runtime looks the symbol up by the name written in op.yml.
#define RKNNOP_EXPORT_OP(Name)                                                                                         \
  static_assert(::rknnop::detail::check_op<Name>(), "rknnop: " #Name " is not a valid op (see above)");                \
  static_assert(::rknnop::detail::check_export_name<Name, ::rknnop::detail::fixed_string<sizeof(#Name) - 1>(#Name)>(), \
                "rknnop: RKNNOP_EXPORT_OP(X) needs X::name == \"X\" (see above)");                                     \
  namespace {                                                                                                          \
  constinit ::rknnop::detail::storage_for<Name> rknnop_detail_storage_##Name{};                                        \
  [[gnu::destructor]] void rknnop_detail_unload_##Name() {                                                             \
    ::rknnop::detail::thread_hooks::unload(); /* joins parallel_for's workers */                                       \
    ::rknnop::detail::scratch_cache::drain();                                                                          \
  }                                                                                                                    \
  }                                                                                                                    \
  extern "C" {                                                                                                         \
  RKNNOP_EXPORT constinit ::rknnop::detail::list_for<Name> vx_kernel_##Name##_list{rknnop_detail_storage_##Name};      \
  }                                                                                                                    \
  RKNNOP_DETAIL_EMITTER_SCHEMA(Name)                                                                                   \
  static_assert(true, "RKNNOP_EXPORT_OP(Name) takes a trailing semicolon")

RKNNOP_DETAIL_END_HIDDEN

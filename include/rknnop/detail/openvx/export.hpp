// SPDX-License-Identifier: MIT
#pragma once

// Layer 13 of detail/ (docs/architecture.md §1): export, the RKNN v1 (OpenVX) backend's door. The
// descriptors and parameter table in writable constinit storage, the NULL-terminated list, and
// RKNNOP_EXPORT_OP(Name), the macro that exports it (<rknnop/op.hpp> includes this header unless
// another backend's header defined RKNNOP_EXPORT_OP first).

#include <rknnop/detail/invoke/pipeline.hpp>  // unload_library
#include <rknnop/detail/model.hpp>
#include <rknnop/detail/openvx/callbacks.hpp>
#if RKNNOP_INSTRUMENTED
// The instrumented board library (rknnop_add_op's <out>/<arch>/instrumented/): RKNNOP_PROFILE=1 and
// RKNNOP_RECORD=<dir> around the CPU kernel (openvx/record.hpp). The release library has neither.
#include <rknnop/detail/openvx/record.hpp>
#endif
#include <rknnop/detail/vx_api.hpp>
#include <rknnop/schema_marker.hpp>

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

#if RKNNOP_INSTRUMENTED
#define RKNNOP_DETAIL_INSTRUMENTED_SETTINGS(Name)                                                  \
  [[gnu::constructor]] void rknnop_detail_settings_##Name() {                                      \
    ::rknnop::detail::read_instrumented_settings(); /* RKNNOP_PROFILE, RKNNOP_RECORD: read once */ \
  }
#else
#define RKNNOP_DETAIL_INSTRUMENTED_SETTINGS(Name)
#endif

#include <cstddef>      // std::size_t
#include <cstdint>      // std::uint64_t
#include <string_view>  // names
#include <type_traits>  // std::conditional_t

RKNNOP_DETAIL_BEGIN_HIDDEN  // see config.hpp: nothing of the SDK is exported
RKNNOP_DETAIL_BEGIN_GLUE    // see config.hpp: compiled for size

namespace rknnop::detail {
template <std::size_t N>
constexpr void put_name(vx_char (&dst)[N], std::string_view lower_name, std::string_view suffix,
                        std::uint64_t fingerprint) noexcept {
  std::size_t k = 0;
  for (char c : lower_name) dst[k++] = to_lower(c);
  for (char c : suffix) dst[k++] = c;
  dst[k++] = '\0';
  // After the terminator, where the runtime never looks: the schema fingerprint, for rknnop's loader.
  constexpr char hex[] = "0123456789abcdef";
  for (char c : schema_marker) dst[k++] = c;
  for (int shift = 60; shift >= 0; shift -= 4) dst[k++] = hex[(fingerprint >> shift) & 0xF];
  while (k < N) dst[k++] = '\0';
}

// Descriptors and the parameter table live in writable storage: the runtime writes `enumeration`.
template <class Op>
struct kernel_storage {
  using model = op_model<Op>;
  vx_param_description_t table[model::table_size];
  vx_kernel_description_t cpu;
  vx_kernel_description_t vx;

  constexpr kernel_storage() noexcept : table{}, cpu{}, vx{} {
    for (std::size_t i = 0; i < model::table_size; ++i) {
      const field_desc& f = model::fields[i];
      table[i].direction = f.kind == field_kind::output ? VX_OUTPUT : VX_INPUT;
      table[i].data_type = model::table_type(f);
      table[i].state = VX_PARAMETER_STATE_REQUIRED;
    }
    cpu.enumeration = VX_KERNEL_BASE(VX_ID_DEFAULT, 3);
    put_name(cpu.name, model::name, "_cpu", model::fingerprint);
#if RKNNOP_INSTRUMENTED
    cpu.function = &instrumented_kernel_callback<Op>;
#else
    cpu.function = &cpu_kernel_callback<Op>;
#endif
    cpu.parameters = table;
    cpu.numParams = static_cast<vx_uint32>(model::table_size);
    cpu.validate = &validate_callback<Op>;
    cpu.initialize = &cpu_initialize_callback<Op>;
    cpu.deinitialize = &cpu_deinitialize_callback<Op>;
    if constexpr (model::has_vx) {
      vx.enumeration = VX_KERNEL_BASE(VX_ID_DEFAULT, 3) + 1;
      put_name(vx.name, model::name, "", model::fingerprint);
      vx.parameters = table;
      vx.numParams = static_cast<vx_uint32>(model::table_size);
      vx.validate = &validate_callback<Op>;
      vx.initialize = &vx_initialize_callback<Op>;
      vx.deinitialize = &vx_deinitialize_callback<Op>;
    }
  }
};

// The exported, NULL-terminated list: {&cpu, &vx, NULL} or {&cpu, NULL}. Same bytes as the C array
// `vx_kernel_description_t* vx_kernel_<Name>_list[]` the toolkit's generated code defines.
template <class Op>
struct kernel_list {
  vx_kernel_description_t* entries[op_model<Op>::has_vx ? 3 : 2];
  constexpr explicit kernel_list(kernel_storage<Op>& s) noexcept : entries{} {
    entries[0] = &s.cpu;
    if constexpr (op_model<Op>::has_vx) entries[1] = &s.vx;
  }
};

// What RKNNOP_EXPORT_OP instantiates: the real tables only for a valid op, so that a rule's
// static_assert is the only error the user sees.
struct invalid_op_storage {};
struct invalid_op_list {
  constexpr explicit invalid_op_list(invalid_op_storage&) noexcept {}
};
template <class Op>
using storage_for = std::conditional_t<check_op<Op>(), kernel_storage<Op>, invalid_op_storage>;
template <class Op>
using list_for = std::conditional_t<check_op<Op>(), kernel_list<Op>, invalid_op_list>;

}  // namespace rknnop::detail

RKNNOP_DETAIL_END_GLUE
RKNNOP_DETAIL_END_HIDDEN

// Defines the exported descriptor list `vx_kernel_<Name>_list` for op struct Name (at namespace
// scope, once per op, in the library's source, with a trailing `;`). When the struct also declares
// `name`, it must equal Name: the runtime looks the symbol up by the name written in op.yml.
#define RKNNOP_EXPORT_OP(Name)                                                                                         \
  static_assert(::rknnop::detail::check_op<Name>(), "rknnop: " #Name " is not a valid op (see above)");                \
  static_assert(::rknnop::detail::check_export_name<Name, ::rknnop::detail::fixed_string<sizeof(#Name) - 1>(#Name)>(), \
                "rknnop: RKNNOP_EXPORT_OP(X) needs X::name == \"X\" (see above)");                                     \
  namespace {                                                                                                          \
  constinit ::rknnop::detail::storage_for<Name> rknnop_detail_storage_##Name{};                                        \
  RKNNOP_DETAIL_INSTRUMENTED_SETTINGS(Name)                                                                            \
  [[gnu::destructor]] void rknnop_detail_unload_##Name() {                                                             \
    ::rknnop::detail::unload_library(); /* workers joined, scratch cache drained */                                    \
  }                                                                                                                    \
  }                                                                                                                    \
  extern "C" {                                                                                                         \
  RKNNOP_EXPORT constinit ::rknnop::detail::list_for<Name> vx_kernel_##Name##_list{rknnop_detail_storage_##Name};      \
  }                                                                                                                    \
  RKNNOP_DETAIL_EMITTER_SCHEMA(Name)                                                                                   \
  static_assert(true, "RKNNOP_EXPORT_OP(Name) takes a trailing semicolon")

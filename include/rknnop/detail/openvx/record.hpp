// SPDX-License-Identifier: MIT
#pragma once

// Layer 12 of detail/ (docs/architecture.md §1), in the RKNN v1 (OpenVX) backend's room, above
// openvx/callbacks.hpp. Only in the instrumented kernel library (RKNNOP_INSTRUMENTED=1: rknnop_add_op's
// <out>/<arch>/instrumented/lib<op>.so, docs/running.md §3): the release library has none of it
// (its 32 KiB budget, docs/performance.md §1). Its CPU kernel is the release one run through
// instrumented_io, with the core's RKNNOP_PROFILE=1 (detail/invoke/profile.hpp: one stderr line per
// kernel call) and RKNNOP_RECORD=<dir> (detail/invoke/record.hpp: the budget, the files, the
// build-id). Each kernel call librknn_runtime makes writes, in <dir>,
//   rknnop-<op>-<call>.in<k>.npy    input k as the runtime's VX tensor holds it (its dtype, e.g.
//                                   float16; NumPy's order of its dims: the VX dims reversed)
//   rknnop-<op>-<call>.out<k>.npy   output k as the kernel wrote it into the VX tensor (calls that succeeded)
//   rknnop-<op>-<call>.manifest     key=value lines: backend=rknn_v1, the op, the call, each tensor's
//                                   name, VX type and shape, each param's VX type and value as the
//                                   kernel decoded it (its bytes in hex), the call's status and the
//                                   library's GNU build-id
// rknnop-run --replay <dir> <op.rknnop or lib<op>.so> runs each recorded call again on the PC and
// compares the outputs bit for bit (docs/running.md §3). Both settings are read once, by the library's
// constructor (RKNNOP_EXPORT_OP); with RKNNOP_RECORD set, a call's input time in the profile line
// includes writing its inputs.

#include <rknnop/detail/invoke/profile.hpp>
#include <rknnop/detail/invoke/record.hpp>
#include <rknnop/detail/openvx/callbacks.hpp>

#include <cstdint>
#include <cstdio>   // std::snprintf
#include <cstdlib>  // std::malloc, std::free
#include <cstring>  // std::memcpy
#include <type_traits>

RKNNOP_DETAIL_BEGIN_HIDDEN  // see config.hpp: nothing of the SDK is exported

namespace rknnop::detail {

// A VX tensor read back whole, in its own dtype, as rknnop-<op>-<call>.<kind><k>.npy.
RKNNOP_DETAIL_COLD inline bool record_vx_tensor(const char* stem, const char* kind, std::uint32_t k, vx_reference ref,
                                                const tensor_info& info, std::string_view op) noexcept {
  const std::size_t row = dtype_row(info.dtype);
  if (row == dtype_count || info.tensor_rank == 0 || info.tensor_rank > max_tensor_rank) {
    stop_recording(op, "a tensor of a type or rank the record cannot hold", nullptr);
    return false;
  }
  const std::size_t bytes = info.elements * dtype_size(info.dtype);
  void* data = std::malloc(bytes ? bytes : 1);
  if (data == nullptr) {
    stop_recording(op, "no memory for a tensor's copy", nullptr);
    return false;
  }
  bool ok = copy_tensor(ref, info, data, VX_READ_ONLY) == VX_SUCCESS;
  if (!ok) {
    stop_recording(op, "vxCopyTensorPatch(VX_READ_ONLY) failed on a tensor", nullptr);
  } else {
    std::uint32_t shape[max_tensor_rank] = {};  // NumPy's order: outermost first
    for (std::uint32_t d = 0; d < info.tensor_rank; ++d) shape[d] = info.dims[info.tensor_rank - 1 - d];
    ok = write_record_npy_bytes(stem, kind, k, dtype_table[row].npy_descr, shape, info.tensor_rank, data, bytes, op);
  }
  std::free(data);
  return ok;
}

RKNNOP_DETAIL_COLD inline bool record_vx_tensor_lines(record_file& f, const char* role, std::uint32_t k,
                                                      const field_desc& field, const tensor_info& info) noexcept {
  return f.line("%s.%u.name=%.*s\n", role, k, static_cast<int>(field.name.size()), field.name.data()) &&
         f.line("%s.%u.dtype=%s\n", role, k, vx_type_name(info.dtype)) &&
         record_shape_line(f, role, k, info.dims, info.tensor_rank, true);
}

// One param's line group: its VX type and its value's bytes as the kernel decoded it (an array: its
// INT32 items; a bool or an enum: INT32, as they travel).
template <class Op>
RKNNOP_DETAIL_COLD bool record_vx_params(record_file& f, const typename op_model<Op>::params& par) noexcept {
  using model = op_model<Op>;
  bool good = f.line("params=%u\n", static_cast<unsigned>(model::param_count));
  for_each_field_index<typename model::params>([&](auto i) {
    if (!good) return;
    constexpr field_desc fd = model::fields[model::input_count + model::output_count + i];
    const auto& value = field<i>(par);
    using F = std::remove_cvref_t<decltype(value)>;
    const unsigned char* bytes = nullptr;
    std::size_t size = 0, count = 1;
    std::int32_t as_int = 0;
    if constexpr (int32_array_type<F>) {
      bytes = reinterpret_cast<const unsigned char*>(value.data());
      count = value.size();
      size = count * sizeof(std::int32_t);
    } else if constexpr (std::is_same_v<F, bool> || std::is_enum_v<F>) {
      as_int = static_cast<std::int32_t>(value);
      bytes = reinterpret_cast<const unsigned char*>(&as_int);
      size = sizeof as_int;
    } else {
      bytes = reinterpret_cast<const unsigned char*>(&value);
      size = sizeof value;
    }
    good =
        f.line("param.%u.name=%.*s\n", unsigned(i), static_cast<int>(fd.name.size()), fd.name.data()) &&
        f.line("param.%u.dtype=%s\n", unsigned(i), int32_array_type<F> ? "VX_TYPE_ARRAY" : vx_type_name(fd.vx_type)) &&
        f.line("param.%u.count=%u\n", unsigned(i), static_cast<unsigned>(count)) &&
        f.line("param.%u.data=", unsigned(i)) && f.hex(bytes, size) && f.text("\n");
  });
  return good;
}

// A call of the budget reserved (its tensors' sizes as bind found them) and its inputs written, as
// rknnop-<op>-<call>.in<k>.npy. False: not recorded (a call that fails before has no manifest).
template <class Op>
RKNNOP_DETAIL_COLD bool record_vx_inputs(char (&stem)[320], std::uint64_t& number, const vx_reference* refs,
                                         const invocation<Op>& call) noexcept {
  using model = op_model<Op>;
  std::uint64_t bytes = 4096;  // the manifest, at most about that
  for (std::size_t k = 0; k < model::input_count + model::output_count; ++k)
    if (!record_add_tensor(bytes, std::uint64_t(call.info[k].elements) * dtype_size(call.info[k].dtype))) return false;
  if (!record_reserve(model::name, bytes, number, stem)) return false;
  bool ok = true;
  for_each_field_index<typename model::inputs>([&](auto i) {
    if (ok) ok = record_vx_tensor(stem, "in", unsigned(i), refs[i], call.info[i], model::name);
  });
  return ok;
}

// The release kernel's adapter (vx_io), with the profile's marks and the record's inputs.
template <class Op>
struct instrumented_io {
  static constexpr bool infer_per_call = false;
  vx_io<Op> inner;
  profile_marks* marks = nullptr;  // RKNNOP_PROFILE=1
  char (*stem)[320] = nullptr;     // RKNNOP_RECORD: this call's files' stem; nullptr after bind: not recorded
  std::uint64_t number = 0;        // the recorded call's

  outcome bind(invocation<Op>& call, buffer_list& buffers) noexcept {
    const outcome result = inner.bind(call, buffers);
    if (stem && !(result.ok() && record_vx_inputs<Op>(*stem, number, inner.refs, call))) stem = nullptr;
    if (marks) marks->inputs_done = profile_now();
    return result;
  }
  template <class I>
  outcome settled(invocation<Op>& call, I i) noexcept {
    return inner.settled(call, i);
  }
  template <class I>
  outcome write(invocation<Op>& call, I i, buffer_list& buffers) noexcept {
    if (I::value == 0 && marks) marks->outputs_from = profile_now();
    return inner.write(call, i, buffers);
  }
};

// The recorded call's outputs (when it succeeded) and its manifest, last.
template <class Op>
RKNNOP_DETAIL_COLD void record_vx_after(const char* stem, std::uint64_t number, const vx_reference* refs,
                                        const invocation<Op>& call, bool ok) noexcept {
  using model = op_model<Op>;
  bool good = true;
  if (ok)
    for_each_field_index<typename model::outputs>([&](auto i) {
      constexpr std::size_t k = model::input_count + i;
      if (good) good = record_vx_tensor(stem, "out", unsigned(i), refs[k], call.info[k], model::name);
    });
  if (!good) return;
  record_file f;
  if (!record_manifest_open(f, stem, model::name)) return;
  good = record_manifest_head(f, "backend=rknn_v1\nkernel=cpu\n", model::name, model::name, number, nullptr, ok,
                              static_cast<std::uint32_t>(model::input_count));
  for_each_field_index<typename model::inputs>([&](auto i) {
    if (good) good = record_vx_tensor_lines(f, "input", unsigned(i), model::fields[i], call.info[i]);
  });
  good = good && f.line("outputs=%u\n", ok ? static_cast<unsigned>(model::output_count) : 0u);
  for_each_field_index<typename model::outputs>([&](auto i) {
    constexpr std::size_t k = model::input_count + i;
    if (good && ok) good = record_vx_tensor_lines(f, "output", unsigned(i), model::fields[k], call.info[k]);
  });
  record_manifest_end(f, good && record_vx_params<Op>(f, call.par), model::name);
}

// The instrumented library's CPU kernel: the release kernel's pipeline, profiled and recorded when
// the settings (read at load) ask for it.
template <class Op>
RKNNOP_DETAIL_HIDDEN vx_status VX_CALLBACK instrumented_kernel_callback(vx_node node, const vx_reference* refs,
                                                                        vx_uint32 num) noexcept {
  using model = op_model<Op>;
  outcome result = check_call(num, model::table_size, refs);
  if (!result.ok()) return finish<Op>(node, result);
  buffer_list buffers;
  invocation<Op> call;
  instrumented_io<Op> io{vx_io<Op>{node, refs}};
  profile_marks marks;
  if (profile_enabled) {
    marks = profile_start();
    io.marks = &marks;
  }
  char stem[320];  // RKNNOP_RECORD: named by record_reserve when the call is recorded
  if (record_enabled) io.stem = &stem;
  result = invoke(io, call, buffers);
  if (io.marks) print_profile(model::name, marks, result.ok(), "kernel call");
  if (io.stem) record_vx_after<Op>(*io.stem, io.number, refs, call, result.ok());
  return finish<Op>(node, result);
}

// The instrumented library's constructor (RKNNOP_EXPORT_OP): RKNNOP_PROFILE and RKNNOP_RECORD, read once.
inline void read_instrumented_settings() noexcept {
  read_profile_setting();
  read_record_setting();
}

}  // namespace rknnop::detail

RKNNOP_DETAIL_END_HIDDEN

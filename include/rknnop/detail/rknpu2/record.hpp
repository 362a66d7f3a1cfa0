// SPDX-License-Identifier: MIT
#pragma once

// Layer 14 of detail/ (docs/architecture.md §1), in the RKNPU2 backend's room, above rknpu2/tensor.hpp.
// RKNNOP_RECORD=<dir> for an RKNPU2 plugin: every compute call librknnrt makes writes, in <dir>,
//   rknnop-<type>-<call>.in<k>.npy    input k as librknnrt handed it (its dtype, its dims and layout)
//   rknnop-<type>-<call>.out<k>.npy   output k as the plugin wrote it (calls that succeeded)
//   rknnop-<type>-<call>.manifest     key=value lines: the op, the node, the call, each tensor's name,
//                                     dtype, layout and shape, the node's attributes (their bytes in
//                                     hex), the call's status and the plugin's GNU build-id
// (<type> the op type, <call> six digits from 000000), the manifest last, so that a manifest names a
// complete call. rknnop-run --replay <dir> <plugin> runs each recorded call again on the PC and
// compares the outputs bit for bit (docs/rknpu2-deploy.md §6). Bounded by RKNNOP_RECORD_MAX=CALLS or
// CALLS,BYTES (BYTES with K, M or G; default 32 calls, 64M); a file is never overwritten (O_EXCL):
// a full budget, an existing file or any write error stops recording with one line (a file left
// unfinished is removed), and never fails the op's compute. One line on the first write: "rknnop: recording <type>
// calls to <dir>". The setting is read once, by the plugin's constructor (RKNNOP_RKNPU2_EXPORT_OP): unset, that one
// getenv is the whole cost at load, and a compute call costs one load of a flag (as RKNNOP_PROFILE).

#include <rknnop/detail/invoke/record.hpp>  // the setting, the budget, the files, the build-id (neutral)
#include <rknnop/detail/rknpu2/abi.hpp>
#include <rknnop/detail/rknpu2/tensor.hpp>  // rknn_types, format_name

#include <cstdint>
#include <cstdio>  // std::snprintf
#include <string_view>

RKNNOP_DETAIL_BEGIN_HIDDEN  // see config.hpp: nothing of the SDK is exported

namespace rknnop::detail::rknpu2 {

// A tensor's bytes as the runtime handed them: its dims times its dtype's size; false when the
// tensor cannot be read whole (no memory, too small a buffer, a dtype of no fixed size).
inline bool record_tensor_bytes(const op_tensor& t, std::uint64_t& bytes) noexcept {
  const rknn_type_row* row = find_rknn_type(t.attr.type);
  if (!row || row->size == 0 || !row->npy || t.attr.n_dims > max_dims || !t.mem.virt_addr || t.mem.offset < 0)
    return false;
  std::uint64_t n = row->size;
  for (std::uint32_t d = 0; d < t.attr.n_dims; ++d)
    if (__builtin_mul_overflow(n, std::uint64_t(t.attr.dims[d]), &n)) return false;
  if (n > std::uint64_t(~std::size_t(0))) return false;  // more than this machine addresses
  if (t.mem.size != 0 && (std::uint64_t(t.mem.size) < std::uint64_t(t.mem.offset) ||
                          std::uint64_t(t.mem.size) - std::uint64_t(t.mem.offset) < n))
    return false;
  bytes = n;
  return true;
}

// One tensor as rknnop-<type>-<call>.<kind><k>.npy (format 1.0, C order, the runtime's dims).
inline bool write_record_npy(const char* stem, const char* kind, std::uint32_t k, const op_tensor& t,
                             std::uint64_t bytes, std::string_view type) noexcept {
  // record_tensor_bytes found its row, of a fixed size (so with a descr).
  return write_record_npy_bytes(stem, kind, k, find_rknn_type(t.attr.type)->npy, t.attr.dims, t.attr.n_dims,
                                static_cast<const char*>(t.mem.virt_addr) + t.mem.offset, bytes, type);
}

// What a manifest says of one call.
struct record_call {
  std::string_view type, name;  // the op type (librknnrt's), the op struct's name
  std::uint32_t node = 0;       // the plugin's node, counted from 1 by init; 0: compute without init
  std::uint64_t call = 0;
  char stem[320] = {};
  const op_tensor* inputs = nullptr;
  const op_tensor* outputs = nullptr;
  std::uint32_t n_inputs = 0, n_outputs = 0;
  const std::string_view* input_names = nullptr;  // the op's fields, by position
  const std::string_view* output_names = nullptr;
  std::uint32_t input_fields = 0, output_fields = 0;
  std::uint64_t input_bytes[max_dims] = {}, output_bytes[max_dims] = {};
};

// Before compute: a call of the budget reserved and its inputs written. False: not recorded.
inline bool record_before(record_call& c) noexcept {
  if (c.n_inputs > max_dims || c.n_outputs > max_dims || (c.n_inputs && !c.inputs) || (c.n_outputs && !c.outputs))
    return false;              // compute refuses such a call with its own line
  std::uint64_t bytes = 4096;  // the manifest, at most about that
  for (std::uint32_t i = 0; i < c.n_inputs; ++i)
    if (!record_tensor_bytes(c.inputs[i], c.input_bytes[i]) || !record_add_tensor(bytes, c.input_bytes[i]))
      return false;
  for (std::uint32_t i = 0; i < c.n_outputs; ++i)
    if (!record_tensor_bytes(c.outputs[i], c.output_bytes[i]) || !record_add_tensor(bytes, c.output_bytes[i]))
      return false;
  if (!record_reserve(c.type, bytes, c.call, c.stem)) return false;
  for (std::uint32_t i = 0; i < c.n_inputs; ++i)
    if (!write_record_npy(c.stem, "in", i, c.inputs[i], c.input_bytes[i], c.type)) return false;
  return true;
}

inline bool record_tensor_lines(record_file& f, const char* role, std::uint32_t k, const op_tensor& t,
                                std::string_view field) noexcept {
  char runtime_name[256];
  record_safe_text(t.attr.name, max_name_len, runtime_name);
  return f.line("%s.%u.name=%.*s\n", role, k, static_cast<int>(field.size()), field.data()) &&
         f.line("%s.%u.runtime_name=%s\n", role, k, runtime_name) &&
         f.line("%s.%u.dtype=%s\n", role, k, rknn_type_name(t.attr.type)) &&
         f.line("%s.%u.layout=%s\n", role, k, format_name(t.attr.fmt)) &&
         record_shape_line(f, role, k, t.attr.dims, t.attr.n_dims, false);
}

// After compute: its outputs (when it succeeded) and the manifest, last.
inline void record_after(const record_call& c, const op_attr* attrs, std::uint32_t n_attrs, bool ok) noexcept {
  if (ok)
    for (std::uint32_t i = 0; i < c.n_outputs; ++i)
      if (!write_record_npy(c.stem, "out", i, c.outputs[i], c.output_bytes[i], c.type)) return;
  record_file f;
  if (!record_manifest_open(f, c.stem, c.type)) return;
  bool good = record_manifest_head(f, "", c.type, c.name, c.call, &c.node, ok, c.n_inputs);
  for (std::uint32_t i = 0; good && i < c.n_inputs; ++i)
    good = record_tensor_lines(f, "input", i, c.inputs[i], i < c.input_fields ? c.input_names[i] : "");
  good = good && f.line("outputs=%u\n", ok ? c.n_outputs : 0u);
  for (std::uint32_t i = 0; good && ok && i < c.n_outputs; ++i)
    good = record_tensor_lines(f, "output", i, c.outputs[i], i < c.output_fields ? c.output_names[i] : "");
  good = good && f.line("attrs=%u\n", n_attrs);
  for (std::uint32_t i = 0; good && i < n_attrs; ++i) {
    const op_attr& a = attrs[i];
    const rknn_type_row* row = find_rknn_type(a.dtype);
    const std::uint64_t size = row ? std::uint64_t(row->size) * a.n_elems : 0;
    if (!row || row->size == 0 || size > 65536 || (size && !a.data)) {
      f.failure = "an attribute of no fixed size, or of more than 64 KiB";
      good = false;
      break;
    }
    char name[256];
    record_safe_text(a.name, max_name_len, name);
    good = f.line("attr.%u.name=%s\n", i, name) && f.line("attr.%u.dtype=%s\n", i, row->name) &&
           f.line("attr.%u.count=%u\n", i, a.n_elems) && f.line("attr.%u.data=", i) && f.hex(a.data, size) &&
           f.text("\n");
  }
  record_manifest_end(f, good, c.type);
}

}  // namespace rknnop::detail::rknpu2

RKNNOP_DETAIL_END_HIDDEN

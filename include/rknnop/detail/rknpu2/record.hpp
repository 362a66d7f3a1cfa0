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
// a full budget, an existing file or any write error stops recording with one line, and never fails
// the op's compute. One line on the first write: "rknnop: recording <type> calls to <dir>".
// The setting is read once, by the plugin's constructor (RKNNOP_RKNPU2_EXPORT_OP): unset, that one
// getenv is the whole cost at load, and a compute call costs one load of a flag (as RKNNOP_PROFILE).

#include <rknnop/detail/rknpu2/abi.hpp>
#include <rknnop/detail/rknpu2/tensor.hpp>  // rknn_types, format_name

#include <cerrno>
#include <cstdint>
#include <cstdio>   // std::snprintf, std::fputs
#include <cstdlib>  // std::getenv, std::strtoull
#include <cstring>  // std::strerror, std::memcpy
#include <string_view>

#include <fcntl.h>  // open
#include <link.h>   // dl_iterate_phdr: the plugin's own build-id
#include <sched.h>  // sched_yield
#include <sys/stat.h>
#include <unistd.h>  // write, close

RKNNOP_DETAIL_BEGIN_HIDDEN  // see config.hpp: nothing of the SDK is exported

namespace rknnop::detail::rknpu2 {

inline constinit bool record_enabled = false;

struct record_settings {
  const char* dir = nullptr;  // the environment's own string (it lives as long as the process)
  std::uint64_t max_calls = 32;
  std::uint64_t max_bytes = std::uint64_t(64) << 20;
  // Shared by the plugin's calls (under `lock`).
  std::uint64_t calls = 0;
  std::uint64_t bytes = 0;
  bool stopped = false;
  bool announced = false;
  bool dir_made = false;
  int lock = 0;
};
inline constinit record_settings record_state{};

struct record_lock {
  record_lock() noexcept {
    while (__atomic_exchange_n(&record_state.lock, 1, __ATOMIC_ACQUIRE)) sched_yield();
  }
  ~record_lock() { __atomic_store_n(&record_state.lock, 0, __ATOMIC_RELEASE); }
  record_lock(const record_lock&) = delete;
  record_lock& operator=(const record_lock&) = delete;
};

// "64M" and the like: a count with an optional K, M or G (binary). False: not one.
inline bool parse_record_amount(const char* text, std::size_t length, std::uint64_t& value) noexcept {
  std::uint64_t v = 0;
  std::size_t i = 0;
  for (; i < length && text[i] >= '0' && text[i] <= '9'; ++i)
    if (__builtin_mul_overflow(v, 10u, &v) || __builtin_add_overflow(v, std::uint64_t(text[i] - '0'), &v)) return false;
  if (i == 0) return false;
  int shift = 0;
  if (i + 1 == length) {
    switch (text[i]) {
      case 'K':
      case 'k': shift = 10; break;
      case 'M':
      case 'm': shift = 20; break;
      case 'G':
      case 'g': shift = 30; break;
      default: return false;
    }
  } else if (i != length) {
    return false;
  }
  if (shift && v > (~std::uint64_t(0) >> shift)) return false;
  value = v << shift;
  return true;
}

// The plugin's constructor: RKNNOP_RECORD=<dir> turns recording on (unset or empty: off, and nothing
// else is read); RKNNOP_RECORD_MAX=CALLS[,BYTES] bounds it.
inline void read_record_setting() noexcept {
  const char* dir = std::getenv("RKNNOP_RECORD");
  if (dir == nullptr || dir[0] == '\0') return;
  record_state.dir = dir;
  if (const char* max = std::getenv("RKNNOP_RECORD_MAX"); max != nullptr && max[0] != '\0') {
    const char* comma = std::strchr(max, ',');
    const std::size_t first = comma ? std::size_t(comma - max) : std::strlen(max);
    std::uint64_t calls = 0, bytes = record_state.max_bytes;
    if (!parse_record_amount(max, first, calls) ||
        (comma && !parse_record_amount(comma + 1, std::strlen(comma + 1), bytes))) {
      std::fprintf(stderr,
                   "rknnop: RKNNOP_RECORD_MAX='%.64s': expected CALLS or CALLS,BYTES (BYTES with K, M or G, e.g. "
                   "32,64M): not recording\n",
                   max);
      return;
    }
    record_state.max_calls = calls;
    record_state.max_bytes = bytes;
  }
  record_enabled = true;
}

inline const char* record_arch() noexcept {
#if defined(__aarch64__)
  return "aarch64";
#elif defined(__arm__)
  return "armhf";
#elif defined(__x86_64__)
  return "x86_64";
#else
  return "unknown";
#endif
}

// The GNU build-id note of the object holding this code (the plugin), as hex; "none" without one.
struct build_id_search {
  ElfW(Addr) address;
  char hex[2 * 64 + 1];
};
inline int build_id_of_object(dl_phdr_info* info, std::size_t, void* data) noexcept {
  auto* s = static_cast<build_id_search*>(data);
  bool mine = false;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& p = info->dlpi_phdr[i];
    if (p.p_type == PT_LOAD && s->address >= info->dlpi_addr + p.p_vaddr &&
        s->address < info->dlpi_addr + p.p_vaddr + p.p_memsz)
      mine = true;
  }
  if (!mine) return 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& p = info->dlpi_phdr[i];
    if (p.p_type != PT_NOTE) continue;
    const auto* at = reinterpret_cast<const unsigned char*>(info->dlpi_addr + p.p_vaddr);
    std::size_t left = p.p_memsz;
    while (left >= sizeof(ElfW(Nhdr))) {
      ElfW(Nhdr) n;
      std::memcpy(&n, at, sizeof n);
      const std::size_t name = (std::size_t(n.n_namesz) + 3) & ~std::size_t(3);
      const std::size_t desc = (std::size_t(n.n_descsz) + 3) & ~std::size_t(3);
      if (name > left - sizeof n || desc > left - sizeof n - name) break;
      if (n.n_type == NT_GNU_BUILD_ID && n.n_namesz == 4 && std::memcmp(at + sizeof n, "GNU", 4) == 0) {
        const unsigned char* d = at + sizeof n + name;
        const std::size_t bytes = n.n_descsz < 64 ? n.n_descsz : 64;
        for (std::size_t k = 0; k < bytes; ++k) {
          s->hex[2 * k] = "0123456789abcdef"[d[k] >> 4];
          s->hex[2 * k + 1] = "0123456789abcdef"[d[k] & 15];
        }
        s->hex[2 * bytes] = '\0';
        return 1;
      }
      at += sizeof n + name + desc;
      left -= sizeof n + name + desc;
    }
  }
  return 1;
}
inline void plugin_build_id(char (&hex)[2 * 64 + 1]) noexcept {
  build_id_search s{reinterpret_cast<ElfW(Addr)>(&build_id_of_object), "none"};
  dl_iterate_phdr(&build_id_of_object, &s);
  std::memcpy(hex, s.hex, sizeof hex);
}

// One file of the record, written whole or not at all (never over an existing one).
struct record_file {
  int fd = -1;
  char path[4096] = {};
  const char* failure = nullptr;  // what went wrong (strerror's text or rknnop's)
  char buffer[4096] = {};
  std::size_t used = 0;

  bool open(const char* stem, const char* suffix) noexcept {
    const int n = std::snprintf(path, sizeof path, "%s/%s%s", record_state.dir, stem, suffix);
    if (n < 0 || std::size_t(n) >= sizeof path) {
      failure = "the path is too long";
      return false;
    }
    fd = ::open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0) failure = errno == EEXIST ? "the file exists (a record is never overwritten)" : std::strerror(errno);
    return fd >= 0;
  }
  bool raw(const void* data, std::size_t size) noexcept {
    const auto* p = static_cast<const char*>(data);
    while (size) {
      const ssize_t n = ::write(fd, p, size);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        failure = n < 0 ? std::strerror(errno) : "nothing written";
        return false;
      }
      p += n;
      size -= std::size_t(n);
    }
    return true;
  }
  bool flush() noexcept {
    const bool ok = raw(buffer, used);
    used = 0;
    return ok;
  }
  bool put(const void* data, std::size_t size) noexcept {
    if (used + size > sizeof buffer && !flush()) return false;
    if (size > sizeof buffer) return raw(data, size);
    std::memcpy(buffer + used, data, size);
    used += size;
    return true;
  }
  bool text(std::string_view s) noexcept { return put(s.data(), s.size()); }
  template <class... A>
  bool line(const char* format, A... args) noexcept {
    char l[768];
    const int n = std::snprintf(l, sizeof l, format, args...);
    if (n < 0 || std::size_t(n) >= sizeof l) {
      failure = "a manifest line is too long";
      return false;
    }
    return put(l, std::size_t(n));
  }
  bool close() noexcept {
    bool ok = failure == nullptr && flush();
    if (fd >= 0 && ::close(fd) != 0 && ok) {
      failure = std::strerror(errno);
      ok = false;
    }
    fd = -1;
    return ok;
  }
  ~record_file() {
    if (fd >= 0) ::close(fd);
  }
};

// Stops recording with its one line (the first reason only).
RKNNOP_DETAIL_COLD inline void stop_recording(std::string_view type, const char* why, const char* path) noexcept {
  {
    record_lock hold;
    if (record_state.stopped) return;
    record_state.stopped = true;
  }
  std::fprintf(stderr, "rknnop: %.*s: recording stopped: %s%s%s\n", static_cast<int>(type.size()), type.data(),
               path ? path : "", path ? ": " : "", why);
}

// A tensor's bytes as the runtime handed them: its dims times its dtype's size; false when the
// tensor cannot be read whole (no memory, too small a buffer, a dtype of no fixed size).
inline bool record_tensor_bytes(const op_tensor& t, std::uint64_t& bytes) noexcept {
  const rknn_type_row* row = find_rknn_type(t.attr.type);
  if (!row || row->size == 0 || t.attr.n_dims > max_dims || !t.mem.virt_addr || t.mem.offset < 0) return false;
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

inline const char* record_npy_descr(std::int32_t type) noexcept {
  switch (type) {
    case type_float32: return "<f4";
    case type_float16: return "<f2";
    case type_int8: return "|i1";
    case type_uint8: return "|u1";
    case type_int16: return "<i2";
    case type_uint16: return "<u2";
    case type_int32: return "<i4";
    case type_uint32: return "<u4";
    case type_int64: return "<i8";
    case type_bool: return "|b1";
    case type_bfloat16: return "<u2";  // its bits; the manifest says BFLOAT16
    default: return nullptr;
  }
}

// One tensor as rknnop-<type>-<call>.<kind><k>.npy (format 1.0, C order, the runtime's dims).
inline bool write_record_npy(const char* stem, const char* kind, std::uint32_t k, const op_tensor& t,
                             std::uint64_t bytes, std::string_view type) noexcept {
  char suffix[32];
  std::snprintf(suffix, sizeof suffix, ".%s%u.npy", kind, k);
  record_file f;
  if (!f.open(stem, suffix)) {
    stop_recording(type, f.failure, f.path);
    return false;
  }
  char header[512];
  int n = std::snprintf(header, sizeof header, "{'descr': '%s', 'fortran_order': False, 'shape': (",
                        record_npy_descr(t.attr.type));
  for (std::uint32_t d = 0; d < t.attr.n_dims; ++d)
    n += std::snprintf(header + n, sizeof header - std::size_t(n), "%u%s", t.attr.dims[d],
                       t.attr.n_dims == 1      ? ","
                       : d + 1 < t.attr.n_dims ? ", "
                                               : "");
  n += std::snprintf(header + n, sizeof header - std::size_t(n), "), }");
  std::size_t total = 10 + std::size_t(n) + 1;
  const std::size_t padded = (total + 63) / 64 * 64;
  while (std::size_t(n) + 10 + 1 < padded) header[n++] = ' ';
  header[n++] = '\n';
  const unsigned char magic[10] = {
      0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, static_cast<unsigned char>(n & 0xFF), static_cast<unsigned char>(n >> 8)};
  const bool ok = f.put(magic, sizeof magic) && f.put(header, std::size_t(n)) &&
                  f.put(static_cast<const char*>(t.mem.virt_addr) + t.mem.offset, static_cast<std::size_t>(bytes)) &&
                  f.close();
  if (!ok) stop_recording(type, f.failure ? f.failure : "write failed", f.path);
  return ok;
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
    if (!record_tensor_bytes(c.inputs[i], c.input_bytes[i]) ||
        __builtin_add_overflow(bytes, c.input_bytes[i] + 128, &bytes))
      return false;
  for (std::uint32_t i = 0; i < c.n_outputs; ++i)
    if (!record_tensor_bytes(c.outputs[i], c.output_bytes[i]) ||
        __builtin_add_overflow(bytes, c.output_bytes[i] + 128, &bytes))
      return false;
  bool announce = false, make_dir = false;
  {
    record_lock hold;
    if (record_state.stopped) return false;
    if (record_state.calls >= record_state.max_calls || record_state.bytes > record_state.max_bytes ||
        record_state.max_bytes - record_state.bytes < bytes) {
      record_state.stopped = true;
      char why[160];
      if (record_state.calls >= record_state.max_calls)
        std::snprintf(why, sizeof why, "RKNNOP_RECORD_MAX's %llu calls are recorded",
                      static_cast<unsigned long long>(record_state.max_calls));
      else
        std::snprintf(why, sizeof why, "the next call's %llu bytes would pass RKNNOP_RECORD_MAX's %llu bytes",
                      static_cast<unsigned long long>(bytes), static_cast<unsigned long long>(record_state.max_bytes));
      std::fprintf(stderr, "rknnop: %.*s: recording stopped: %s\n", static_cast<int>(c.type.size()), c.type.data(),
                   why);
      return false;
    }
    c.call = record_state.calls++;
    record_state.bytes += bytes;
    announce = !record_state.announced;
    record_state.announced = true;
    make_dir = !record_state.dir_made;
    record_state.dir_made = true;
  }
  if (make_dir && ::mkdir(record_state.dir, 0755) != 0 && errno != EEXIST) {
    stop_recording(c.type, std::strerror(errno), record_state.dir);
    return false;
  }
  char type[72];
  std::size_t n = 0;
  for (const char ch : c.type) {
    if (n + 1 >= sizeof type) break;
    const bool plain = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_';
    type[n++] = plain ? ch : '_';
  }
  type[n] = '\0';
  std::snprintf(c.stem, sizeof c.stem, "rknnop-%s-%06llu", n ? type : "op", static_cast<unsigned long long>(c.call));
  if (announce)
    std::fprintf(stderr, "rknnop: recording %.*s calls to %s\n", static_cast<int>(c.type.size()), c.type.data(),
                 record_state.dir);
  for (std::uint32_t i = 0; i < c.n_inputs; ++i)
    if (!write_record_npy(c.stem, "in", i, c.inputs[i], c.input_bytes[i], c.type)) return false;
  return true;
}

// A name as one manifest value: printable ASCII, at most 255 bytes ('?' for anything else).
inline void record_safe_text(const char* text, std::size_t limit, char (&out)[256]) noexcept {
  std::size_t n = 0;
  for (; n < limit && n + 1 < sizeof out && text[n] != '\0'; ++n)
    out[n] = text[n] >= 0x20 && text[n] < 0x7F ? text[n] : '?';
  out[n] = '\0';
}

inline bool record_tensor_lines(record_file& f, const char* role, std::uint32_t k, const op_tensor& t,
                                std::string_view field) noexcept {
  char runtime_name[256];
  record_safe_text(t.attr.name, max_name_len, runtime_name);
  char shape[16 * 12] = {};
  int n = 0;
  for (std::uint32_t d = 0; d < t.attr.n_dims; ++d)
    n += std::snprintf(shape + n, sizeof shape - std::size_t(n), d ? ",%u" : "%u", t.attr.dims[d]);
  return f.line("%s.%u.name=%.*s\n", role, k, static_cast<int>(field.size()), field.data()) &&
         f.line("%s.%u.runtime_name=%s\n", role, k, runtime_name) &&
         f.line("%s.%u.dtype=%s\n", role, k, rknn_type_name(t.attr.type)) &&
         f.line("%s.%u.layout=%s\n", role, k, format_name(t.attr.fmt)) && f.line("%s.%u.shape=%s\n", role, k, shape);
}

// After compute: its outputs (when it succeeded) and the manifest, last.
inline void record_after(const record_call& c, const op_attr* attrs, std::uint32_t n_attrs, bool ok) noexcept {
  if (ok)
    for (std::uint32_t i = 0; i < c.n_outputs; ++i)
      if (!write_record_npy(c.stem, "out", i, c.outputs[i], c.output_bytes[i], c.type)) return;
  record_file f;
  if (!f.open(c.stem, ".manifest")) {
    stop_recording(c.type, f.failure, f.path);
    return;
  }
  static constinit char build_id[2 * 64 + 1] = {};
  if (build_id[0] == '\0') plugin_build_id(build_id);
  bool good = f.text("rknnop_record=1\n") && f.line("op_type=%.*s\n", static_cast<int>(c.type.size()), c.type.data()) &&
              f.line("op=%.*s\n", static_cast<int>(c.name.size()), c.name.data()) &&
              f.line("call=%llu\n", static_cast<unsigned long long>(c.call)) && f.line("node=%u\n", c.node) &&
              f.line("status=%s\n", ok ? "ok" : "failed") && f.line("build_id=%s\n", build_id) &&
              f.line("arch=%s\n", record_arch()) && f.line("inputs=%u\n", c.n_inputs);
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
           f.line("attr.%u.count=%u\n", i, a.n_elems) && f.line("attr.%u.data=", i);
    const auto* p = static_cast<const unsigned char*>(a.data);
    for (std::uint64_t k = 0; good && k < size; ++k) {
      const char hex[2] = {"0123456789abcdef"[p[k] >> 4], "0123456789abcdef"[p[k] & 15]};
      good = f.put(hex, 2);
    }
    good = good && f.text("\n");
  }
  good = good && f.text("end\n");
  if (!f.close() || !good) stop_recording(c.type, f.failure ? f.failure : "write failed", f.path);
}

}  // namespace rknnop::detail::rknpu2

RKNNOP_DETAIL_END_HIDDEN

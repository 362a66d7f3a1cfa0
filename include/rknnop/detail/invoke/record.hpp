// SPDX-License-Identifier: MIT
#pragma once

// Layer 7 of detail/ (docs/architecture.md §1), in the backend-neutral core (std and POSIX only).
// What every backend's recorder shares (RKNNOP_RECORD=<dir>: detail/rknpu2/record.hpp for an RKNPU2
// plugin, detail/openvx/record.hpp for the instrumented RKNN v1 kernel library): the setting and its
// bound RKNNOP_RECORD_MAX=CALLS[,BYTES] (read once, at load, with the library's GNU build-id:
// dl_iterate_phdr), the budget under one lock, files written whole and never over an existing one
// (O_EXCL), the .npy writer, the architecture, and the one line that stops recording. Files are named
// rknnop-<type>-<call>.{in<k>.npy,out<k>.npy,manifest} (<call> six digits from 000000), the manifest
// last; a full budget, an existing file or a write error stops recording with one line (a file left
// unfinished is removed) and never fails the op. One line on the first write: "rknnop: recording <type> calls to
// <dir>".

#include <rknnop/config.hpp>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>   // std::snprintf, std::fprintf
#include <cstdlib>  // std::getenv
#include <cstring>  // std::strerror, std::memcpy, std::strchr
#include <string_view>

#include <fcntl.h>  // open
#include <link.h>   // dl_iterate_phdr: the library's own build-id
#include <sched.h>  // sched_yield
#include <sys/stat.h>
#include <unistd.h>  // write, close

RKNNOP_DETAIL_BEGIN_HIDDEN  // see config.hpp: nothing of the SDK is exported

namespace rknnop::detail {
inline constinit bool record_enabled = false;

struct record_settings {
  const char* dir = nullptr;  // the environment's own string (it lives as long as the process)
  std::uint64_t max_calls = 32;
  std::uint64_t max_bytes = std::uint64_t(64) << 20;
  char build_id[2 * 64 + 1] = {};  // the library's GNU build-id as hex, read with the setting
  // Shared by the plugin's calls (under `lock`).
  std::uint64_t calls = 0;
  std::uint64_t bytes = 0;
  bool stopped = false;
  bool started = false;  // the folder made (or there) and the first line printed, by the first call
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

// The library's constructor: RKNNOP_RECORD=<dir> turns recording on (unset or empty: off, and nothing
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
  plugin_build_id(record_state.build_id);  // here, once, by one thread: the calls only read it
  record_enabled = true;
}

// One file of the record, written whole or not at all (never over an existing one): a file this
// opened and could not write to the end is removed.
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
  bool hex(const void* data, std::uint64_t size) noexcept {  // a value's bytes, two lowercase digits each
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::uint64_t k = 0; k < size; ++k) {
      const char two[2] = {"0123456789abcdef"[p[k] >> 4], "0123456789abcdef"[p[k] & 15]};
      if (!put(two, 2)) return false;
    }
    return true;
  }
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
  // False: the file is removed (a record holds no truncated file).
  bool close() noexcept {
    if (fd < 0) return false;
    bool ok = failure == nullptr && flush();
    if (::close(fd) != 0 && ok) {
      failure = std::strerror(errno);
      ok = false;
    }
    fd = -1;
    if (!ok) ::unlink(path);
    return ok;
  }
  ~record_file() {  // not closed: a write failed before the end
    if (fd >= 0) {
      ::close(fd);
      ::unlink(path);
    }
  }
};

// The one line that says recording stopped: why, and the file or folder it concerns (or none).
RKNNOP_DETAIL_COLD inline void print_record_stop(std::string_view type, const char* why, const char* path) noexcept {
  std::fprintf(stderr, "rknnop: %.*s: recording stopped: %s%s%s\n", static_cast<int>(type.size()), type.data(),
               path ? path : "", path ? ": " : "", why);
}

// Stops recording with its one line (the first reason only).
RKNNOP_DETAIL_COLD inline void stop_recording(std::string_view type, const char* why, const char* path) noexcept {
  {
    record_lock hold;
    if (record_state.stopped) return;
    record_state.stopped = true;
  }
  print_record_stop(type, why, path);
}

// A tensor as rknnop-<type>-<call>.<kind><k>.npy (format 1.0, C order): its NumPy descr, dims, bytes.
inline bool write_record_npy_bytes(const char* stem, const char* kind, std::uint32_t k, const char* descr,
                                   const std::uint32_t* dims, std::uint32_t rank, const void* data, std::uint64_t bytes,
                                   std::string_view type) noexcept {
  char suffix[32];
  std::snprintf(suffix, sizeof suffix, ".%s%u.npy", kind, k);
  record_file f;
  if (!f.open(stem, suffix)) {
    stop_recording(type, f.failure, f.path);
    return false;
  }
  char header[512];
  int n = std::snprintf(header, sizeof header, "{'descr': '%s', 'fortran_order': False, 'shape': (", descr);
  for (std::uint32_t d = 0; d < rank; ++d)
    n += std::snprintf(header + n, sizeof header - std::size_t(n), "%u%s", dims[d],
                       rank == 1      ? ","
                       : d + 1 < rank ? ", "
                                      : "");
  n += std::snprintf(header + n, sizeof header - std::size_t(n), "), }");
  std::size_t total = 10 + std::size_t(n) + 1;
  const std::size_t padded = (total + 63) / 64 * 64;
  while (std::size_t(n) + 10 + 1 < padded) header[n++] = ' ';
  header[n++] = '\n';
  const unsigned char magic[10] = {
      0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, static_cast<unsigned char>(n & 0xFF), static_cast<unsigned char>(n >> 8)};
  const bool ok = f.put(magic, sizeof magic) && f.put(header, std::size_t(n)) &&
                  f.put(data, static_cast<std::size_t>(bytes)) && f.close();
  if (!ok) stop_recording(type, f.failure ? f.failure : "write failed", f.path);
  return ok;
}

// A tensor's `bytes` and its .npy header (128 bytes, about) added to a call's `total`; false when the
// sum passes 2^64 bytes (a size the runtime claims, which no budget holds).
inline bool record_add_tensor(std::uint64_t& total, std::uint64_t bytes) noexcept {
  return !__builtin_add_overflow(bytes, std::uint64_t(128), &bytes) && !__builtin_add_overflow(total, bytes, &total);
}

// A call of the budget reserved (`bytes`: what it writes, about), the folder made, the first line
// printed and `stem` named. False: not recorded (recording stopped, with its one line).
inline bool record_reserve(std::string_view type, std::uint64_t bytes, std::uint64_t& call,
                           char (&stem)[320]) noexcept {
  bool announce = false, refused = true;
  char why[160];
  const char* where = nullptr;  // the folder, when it could not be made
  {
    record_lock hold;
    if (record_state.stopped) return false;
    if (record_state.calls >= record_state.max_calls) {
      std::snprintf(why, sizeof why, "RKNNOP_RECORD_MAX's %llu calls are recorded",
                    static_cast<unsigned long long>(record_state.max_calls));
    } else if (record_state.max_bytes - record_state.bytes < bytes) {  // bytes <= max_bytes, always
      std::snprintf(why, sizeof why, "the next call's %llu bytes would pass RKNNOP_RECORD_MAX's %llu bytes",
                    static_cast<unsigned long long>(bytes), static_cast<unsigned long long>(record_state.max_bytes));
    } else if (!record_state.started && ::mkdir(record_state.dir, 0755) != 0 && errno != EEXIST) {
      // The folder, made by the first call before any call opens a file in it (the others wait here).
      std::snprintf(why, sizeof why, "%s", std::strerror(errno));
      where = record_state.dir;
    } else {
      announce = !record_state.started;
      record_state.started = true;
      call = record_state.calls++;
      record_state.bytes += bytes;
      refused = false;
    }
    if (refused) record_state.stopped = true;
  }
  if (refused) {  // its line printed once the lock is released
    print_record_stop(type, why, where);
    return false;
  }
  char plain[72];
  std::size_t n = 0;
  for (const char ch : type) {
    if (n + 1 >= sizeof plain) break;
    const bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_';
    plain[n++] = ok ? ch : '_';
  }
  plain[n] = '\0';
  std::snprintf(stem, sizeof stem, "rknnop-%s-%06llu", n ? plain : "op", static_cast<unsigned long long>(call));
  if (announce)
    std::fprintf(stderr, "rknnop: recording %.*s calls to %s\n", static_cast<int>(type.size()), type.data(),
                 record_state.dir);
  return true;
}

// The manifest's build_id: the library's own, read once by read_record_setting.
inline const char* record_build_id() noexcept { return record_state.build_id; }

// --- the manifest (rknnop-<type>-<call>.manifest, key=value lines), what every backend's shares ----
// Opened; false: recording stopped, with its line.
inline bool record_manifest_open(record_file& f, const char* stem, std::string_view type) noexcept {
  if (f.open(stem, ".manifest")) return true;
  stop_recording(type, f.failure, f.path);
  return false;
}

// Its first lines: rknnop_record=1, the backend's own (`lead`), the op type and name, the call, the
// node (`node` not null), the status, the build-id, the architecture and the input count.
inline bool record_manifest_head(record_file& f, std::string_view lead, std::string_view type, std::string_view op,
                                 std::uint64_t call, const std::uint32_t* node, bool ok,
                                 std::uint32_t inputs) noexcept {
  return f.text("rknnop_record=1\n") && f.text(lead) &&
         f.line("op_type=%.*s\n", static_cast<int>(type.size()), type.data()) &&
         f.line("op=%.*s\n", static_cast<int>(op.size()), op.data()) &&
         f.line("call=%llu\n", static_cast<unsigned long long>(call)) && (!node || f.line("node=%u\n", *node)) &&
         f.line("status=%s\n", ok ? "ok" : "failed") && f.line("build_id=%s\n", record_build_id()) &&
         f.line("arch=%s\n", record_arch()) && f.line("inputs=%u\n", inputs);
}

// A tensor's shape line: <role>.<k>.shape=d0,d1,... (`dims` outermost first, or innermost first when
// `reversed`: the VX order).
inline bool record_shape_line(record_file& f, const char* role, std::uint32_t k, const std::uint32_t* dims,
                              std::uint32_t rank, bool reversed) noexcept {
  char shape[16 * 12] = {};
  int n = 0;
  for (std::uint32_t d = 0; d < rank && std::size_t(n) < sizeof shape; ++d)
    n += std::snprintf(shape + n, sizeof shape - std::size_t(n), d ? ",%u" : "%u", dims[reversed ? rank - 1 - d : d]);
  return f.line("%s.%u.shape=%s\n", role, k, shape);
}

// Its last line and its close; a failure stops recording (the unfinished file removed).
inline void record_manifest_end(record_file& f, bool good, std::string_view type) noexcept {
  good = good && f.text("end\n");
  if (!f.close() || !good) stop_recording(type, f.failure ? f.failure : "write failed", f.path);
}

// A name as one manifest value: printable ASCII, at most 255 bytes ('?' for anything else).
inline void record_safe_text(const char* text, std::size_t limit, char (&out)[256]) noexcept {
  std::size_t n = 0;
  for (; n < limit && n + 1 < sizeof out && text[n] != '\0'; ++n)
    out[n] = text[n] >= 0x20 && text[n] < 0x7F ? text[n] : '?';
  out[n] = '\0';
}

}  // namespace rknnop::detail

RKNNOP_DETAIL_END_HIDDEN

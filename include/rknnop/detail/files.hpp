// SPDX-License-Identifier: MIT
#pragma once

// Layer 1 of detail/ (docs/architecture.md §1): the one file reader and the one atomic writer
// (docs/container.md §5, "Hostile files"), used by the emitter inside every user's build and wrapped
// by the host library (rknnop::host::read_file and write_file_atomically throw what these return).
// Standard library and POSIX only; nothing is thrown (a failure is one line in the result).
//  - reads take regular files only (no device, FIFO, socket or directory: /dev/zero or a FIFO would
//    be read forever), no larger than a limit checked while reading;
//  - writes go to a temporary file beside the target, named to fit NAME_MAX, flushed and renamed
//    over it, so readers never see half a file; an existing output keeps its mode; what is not a
//    regular file (device, FIFO, socket, directory, symbolic link) is never replaced;
//  - temporary files are registered so that SIGINT/SIGTERM/SIGHUP/SIGQUIT remove them once
//    install_interrupt_cleanup ran (the emitter's and every tool's main call it).

#include <rknnop/config.hpp>

#include <atomic>        // the interrupt registry, temporary names
#include <cerrno>        // errno for messages
#include <chrono>        // temporary names
#include <csignal>       // the interrupt cleanup
#include <cstddef>       // std::size_t
#include <cstdint>       // std::uint8_t, std::uint64_t
#include <cstring>       // std::strerror, std::memcpy
#include <filesystem>    // paths
#include <span>          // byte views
#include <string>        // messages
#include <string_view>   // names
#include <system_error>  // std::error_code
#include <vector>        // read bytes

#include <fcntl.h>     // open
#include <sys/stat.h>  // fstat, lstat, fchmod
#include <unistd.h>    // read, write, pwrite, fsync, rename, unlink, pathconf

RKNNOP_DETAIL_BEGIN_HIDDEN  // see config.hpp: nothing of the SDK is exported

namespace rknnop::detail {

/// Success, or one line saying what went wrong (without the "rknnop: " prefix).
struct file_result {
  std::string error;
  [[nodiscard]] bool ok() const noexcept { return error.empty(); }
  explicit operator bool() const noexcept { return ok(); }
};

/// The largest file read_regular_file reads by default: 1 GiB, far above any kernel library,
/// shader, op.yml or tensor the tools take.
inline constexpr std::uint64_t max_read_size = std::uint64_t{1} << 30;

/// What a file that is not a regular file is, for messages.
[[nodiscard]] constexpr std::string_view file_kind(mode_t mode) noexcept {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISLNK(mode)) return "a symbolic link";
  return "not a regular file";
}

// One message from its parts, appended into one string (GCC 12 at -O3 reports a false -Wrestrict on
// `"literal" + std::string`, which inserts at the front).
template <class... Parts>
std::string concat(const Parts&... parts) {
  std::string text;
  text.reserve((std::string_view(parts).size() + ...));
  (text.append(std::string_view(parts)), ...);
  return text;
}

inline std::string quoted(const std::filesystem::path& path) { return concat("'", path.native(), "'"); }

// A descriptor closed on every path out.
class unique_fd {
public:
  explicit unique_fd(int fd) noexcept : fd_(fd) {}
  ~unique_fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  unique_fd(const unique_fd&) = delete;
  unique_fd& operator=(const unique_fd&) = delete;
  [[nodiscard]] int get() const noexcept { return fd_; }
  int release() noexcept {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }

private:
  int fd_;
};

/// Reads the whole regular file `path` (at most `limit` bytes) into `out`; on failure `out` is empty.
[[nodiscard]] inline file_result read_regular_file(const std::filesystem::path& path, std::vector<std::uint8_t>& out,
                                                   std::uint64_t limit = max_read_size) {
  out.clear();
  const std::string name = path.string();
  // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused right after, by fstat.
  const unique_fd fd(::open(name.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK));
  if (fd.get() < 0) return {concat("cannot open ", quoted(path), ": ", std::strerror(errno))};
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return {concat("cannot examine ", quoted(path), ": ", std::strerror(errno))};
  if (!S_ISREG(st.st_mode))
    return {
        concat(quoted(path), " is ", file_kind(st.st_mode), ", not a regular file; rknnop reads regular files only")};
  const auto size = static_cast<std::uint64_t>(st.st_size);
  const auto too_large = [&](std::uint64_t at_least) {
    out.clear();
    return file_result{concat(quoted(path), " is ", at_least > size ? "over " : "", std::to_string(at_least),
                              " bytes, larger than the ", std::to_string(limit), "-byte limit for files rknnop reads")};
  };
  if (size > limit) return too_large(size);
  out.resize(static_cast<std::size_t>(size));
  std::size_t done = 0;
  for (;;) {
    if (done == out.size()) {
      // The file may have grown since fstat: read on, up to the limit.
      if (out.size() >= limit) {
        std::uint8_t probe = 0;
        if (::read(fd.get(), &probe, 1) > 0) return too_large(limit + 1);
        break;
      }
      const std::uint64_t grown = out.size() + (std::uint64_t{1} << 16);
      out.resize(static_cast<std::size_t>(grown < limit ? grown : limit));
    }
    const ::ssize_t got = ::read(fd.get(), out.data() + done, out.size() - done);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      const int why = errno;
      out.clear();
      return {concat("cannot read ", quoted(path), ": ", std::strerror(why))};
    }
    if (got == 0) break;
    done += static_cast<std::size_t>(got);
  }
  out.resize(done);
  return {};
}

/// Whether `path` can be written by write_file_atomically: it does not exist or is a regular file
/// (not a directory, device, FIFO, socket or symbolic link), and its folder is an existing writable
/// directory. `what` starts the message ("--output 'y'", "cannot write the output").
[[nodiscard]] inline file_result check_output_path(const std::filesystem::path& path, std::string_view what) {
  const std::string name = path.string();
  const std::string lead(what);
  if (name.empty()) return {concat(lead, ": the output path is empty")};
  struct stat st {};
  if (::lstat(name.c_str(), &st) == 0) {
    if (S_ISLNK(st.st_mode)) {
      std::error_code ec;
      const std::filesystem::path target = std::filesystem::read_symlink(path, ec);
      return {concat(lead, ": ", quoted(path), " is a symbolic link",
                     ec ? std::string() : concat(" to ", quoted(target)),
                     "; rknnop replaces an output file as a whole and does not write through links: name the file "
                     "itself")};
    }
    if (!S_ISREG(st.st_mode))
      return {concat(lead, ": ", quoted(path), " is ", file_kind(st.st_mode),
                     "; rknnop writes an output by replacing a regular file and will not replace ",
                     file_kind(st.st_mode))};
  } else if (errno != ENOENT) {
    return {concat(lead, ": cannot examine ", quoted(path), ": ", std::strerror(errno))};
  }
  const std::filesystem::path folder = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  struct stat dir {};
  if (::stat(folder.c_str(), &dir) != 0)
    return {
        concat(lead, ": the folder ", quoted(folder), " of ", quoted(path), " ",
               errno == ENOENT ? std::string("does not exist") : concat("cannot be examined: ", std::strerror(errno)))};
  if (!S_ISDIR(dir.st_mode))
    return {concat(lead, ": ", quoted(folder), " (the folder of ", quoted(path), ") is ", file_kind(dir.st_mode),
                   ", not a directory")};
  if (::access(folder.c_str(), W_OK | X_OK) != 0)
    return {concat(lead, ": the folder ", quoted(folder), " of ", quoted(path),
                   " is not writable: ", std::strerror(errno))};
  return {};
}

// --- the interrupt cleanup registry ------------------------------------------------------------
// Fixed storage only: the signal handler reads it with no allocation and no locks. One registry per
// program (or shared library: the SDK's symbols are hidden), shared by every translation unit.
inline constexpr int max_registered_temporaries = 64;
inline constexpr std::size_t max_registered_path = 4096;
enum temporary_slot_state : int { temporary_slot_free = 0, temporary_slot_filling = 1, temporary_slot_ready = 2 };
struct temporary_slot {
  std::atomic<int> state{temporary_slot_free};
  char path[max_registered_path] = {};
};
inline temporary_slot temporary_registry[max_registered_temporaries];
inline std::atomic<bool> interrupt_cleanup_installed{false};
inline constexpr int interrupt_cleanup_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

/// Registers `path` for removal by the interrupt handler; returns its slot, or -1 when the path is
/// empty, too long or all 64 slots are taken (its owner still removes it).
[[nodiscard]] inline int register_temporary(const std::string& path) noexcept {
  if (path.empty() || path.size() >= max_registered_path) return -1;
  for (int i = 0; i < max_registered_temporaries; ++i) {
    int expected = temporary_slot_free;
    if (!temporary_registry[i].state.compare_exchange_strong(expected, temporary_slot_filling,
                                                             std::memory_order_acq_rel))
      continue;
    std::memcpy(temporary_registry[i].path, path.c_str(), path.size() + 1);
    temporary_registry[i].state.store(temporary_slot_ready, std::memory_order_release);
    return i;
  }
  return -1;
}

/// Stops watching slot `slot` (a no-op for -1).
inline void release_temporary(int slot) noexcept {
  if (slot >= 0 && slot < max_registered_temporaries)
    temporary_registry[slot].state.store(temporary_slot_free, std::memory_order_release);
}

}  // namespace rknnop::detail

// The handler has C linkage (it is called by the C library): async-signal-safe calls only.
extern "C" inline void rknnop_detail_remove_temporaries_and_reraise(int signal_number) {
  const int saved_errno = errno;
  for (rknnop::detail::temporary_slot& slot : rknnop::detail::temporary_registry)
    if (slot.state.load(std::memory_order_acquire) == rknnop::detail::temporary_slot_ready) ::unlink(slot.path);
  errno = saved_errno;
  // SA_RESETHAND restored the default action; the signal is blocked until this handler returns,
  // then it is delivered again and terminates the process as it would have without us.
  ::raise(signal_number);
}

namespace rknnop::detail {

/// Installs handlers for SIGINT, SIGTERM, SIGHUP and SIGQUIT (those not ignored) that remove every
/// registered temporary file and re-raise the signal with its default action. Idempotent.
inline void install_interrupt_cleanup() noexcept {
  if (interrupt_cleanup_installed.exchange(true)) return;
  for (const int signal_number : interrupt_cleanup_signals) {
    struct sigaction current {};
    if (::sigaction(signal_number, nullptr, &current) != 0) continue;
    if (current.sa_handler == SIG_IGN) continue;  // nohup and friends: keep ignoring
    struct sigaction action {};
    action.sa_handler = rknnop_detail_remove_temporaries_and_reraise;
    sigemptyset(&action.sa_mask);
    for (const int other : interrupt_cleanup_signals) sigaddset(&action.sa_mask, other);
    action.sa_flags = SA_RESETHAND;
    ::sigaction(signal_number, &action, nullptr);
  }
}

/// The name of the temporary file beside `file_name`: "." + the name + ".tmp." + 16 hex digits, the
/// name cut (at a UTF-8 character boundary) so that the whole fits `name_max` bytes.
[[nodiscard]] inline std::string temporary_name(std::string_view file_name, std::uint64_t salt, std::size_t name_max) {
  constexpr std::string_view tag = ".tmp.";
  constexpr std::size_t fixed = 1 + tag.size() + 16;
  std::size_t keep = file_name.size();
  if (name_max > fixed && keep > name_max - fixed) {
    keep = name_max - fixed;
    while (keep > 0 && (static_cast<unsigned char>(file_name[keep]) & 0xC0u) == 0x80u) --keep;
  }
  std::string name = concat(".", file_name.substr(0, keep), tag);
  for (int shift = 60; shift >= 0; shift -= 4) name += "0123456789abcdef"[(salt >> shift) & 0xFu];
  return name;
}

/// Writes all of `bytes` to `fd`, from its offset (`at` < 0) or at offset `at` (pwrite), again after
/// EINTR and short writes. 0, or the error number (EIO when the descriptor takes no more).
[[nodiscard]] inline int write_all(int fd, std::span<const std::uint8_t> bytes, ::off_t at = -1) noexcept {
  for (std::size_t done = 0; done < bytes.size();) {
    const ::ssize_t put = at < 0
                              ? ::write(fd, bytes.data() + done, bytes.size() - done)
                              : ::pwrite(fd, bytes.data() + done, bytes.size() - done, at + static_cast<::off_t>(done));
    if (put < 0 && errno == EINTR) continue;
    if (put <= 0) return put < 0 ? errno : EIO;
    done += static_cast<std::size_t>(put);
  }
  return 0;
}

/// check_output_path, then writes `bytes` to a new temporary file beside `path` (registered for the
/// interrupt cleanup), flushes it to disk and renames it over `path`: `path` is either untouched or
/// complete. A file it replaces keeps its permission bits; a new one gets 0666 & ~umask. On failure
/// the temporary file is removed.
[[nodiscard]] inline file_result write_file_atomically(const std::filesystem::path& path,
                                                       std::span<const std::uint8_t> bytes) {
  if (file_result checked = check_output_path(path, "cannot write the output"); !checked) return checked;
  const std::string name = path.string();
  const std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  struct stat existing {};
  const bool replaces = ::stat(name.c_str(), &existing) == 0 && S_ISREG(existing.st_mode);
  const long name_max = ::pathconf(dir.c_str(), _PC_NAME_MAX);
  const std::string file_name = path.filename().string();
  // The absolute name is what the handler removes (the process may change folder meanwhile).
  std::error_code ec;
  std::filesystem::path absolute_dir = std::filesystem::absolute(dir, ec);
  if (ec) absolute_dir = dir;
  // A name no one else uses; O_EXCL makes a collision fail instead of sharing the file. Registered
  // before it exists, so no signal can come between its creation and its registration.
  static std::atomic<std::uint64_t> counter{0};
  std::string temporary;
  int slot = -1;
  int raw = -1;
  int reason = 0;
  for (unsigned attempt = 0; attempt < 8 && raw < 0; ++attempt) {
    const std::uint64_t salt = (static_cast<std::uint64_t>(::getpid()) << 40) ^
                               static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
                               (++counter * 0x9E3779B97F4A7C15ull);
    const std::string temporary_file = temporary_name(file_name, salt, name_max > 0 ? std::size_t(name_max) : 255);
    temporary = (dir / temporary_file).string();
    release_temporary(slot);
    slot = register_temporary((absolute_dir / temporary_file).string());
    raw = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);  // 0666 & ~umask
    reason = errno;
    if (raw < 0 && reason != EEXIST) break;
  }
  if (raw < 0) {
    release_temporary(slot);
    return {
        concat("cannot create a temporary file in ", quoted(dir), " for ", quoted(path), ": ", std::strerror(reason))};
  }
  unique_fd fd(raw);
  const auto fail = [&](std::string_view stage, int why) {
    ::unlink(temporary.c_str());
    release_temporary(slot);
    return file_result{concat("cannot ", stage, " ", quoted(path), ": ", std::strerror(why))};
  };
  if (const int why = write_all(fd.get(), bytes); why != 0) return fail("write", why);
  if (replaces && ::fchmod(fd.get(), existing.st_mode & 07777) != 0) return fail("keep the permissions of", errno);
  if (::fsync(fd.get()) != 0) return fail("flush", errno);
  if (::close(fd.release()) != 0) return fail("close", errno);
  if (::rename(temporary.c_str(), name.c_str()) != 0) {
    const int why = errno;
    ::unlink(temporary.c_str());
    release_temporary(slot);
    return {concat("cannot rename the temporary file onto ", quoted(path), ": ", std::strerror(why))};
  }
  release_temporary(slot);
  return {};
}

}  // namespace rknnop::detail

RKNNOP_DETAIL_END_HIDDEN

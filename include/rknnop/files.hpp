// SPDX-License-Identifier: MIT
#pragma once

// Reading and writing files the way every rknnop program does (docs/container.md §5, "Hostile
// files"): the emitter inside users' builds, the host library and the tools share this one reader
// and one atomic writer (implemented in detail/files.hpp). Standard library and POSIX only; nothing
// is thrown: a failure is one line in the result (without the "rknnop: " prefix).
//
//   std::vector<std::uint8_t> bytes;
//   if (auto r = rknnop::files::read_file("op.yml", bytes); !r) std::puts(r.error.c_str());
//   if (auto r = rknnop::files::write_file_atomically("out.bin", bytes); !r) ...
//
// read_file takes regular files only (no device, FIFO, socket or directory), up to a limit checked
// while reading. write_file_atomically refuses to replace what is not a regular file (a symbolic
// link, FIFO, device, socket or directory), writes a temporary file beside the target (its name
// fits NAME_MAX), flushes it and renames it over the target, which keeps its permission bits.
// After install_interrupt_cleanup, SIGINT/SIGTERM/SIGHUP/SIGQUIT remove the temporary files of
// writes in progress and of every registered_temporary.

#include <rknnop/detail/files.hpp>

#include <cstdint>      // std::uint8_t, std::uint64_t
#include <filesystem>   // std::filesystem::path
#include <span>         // byte views
#include <string_view>  // what an output is called
#include <vector>       // read bytes

RKNNOP_DETAIL_BEGIN_HIDDEN  // see config.hpp: nothing of the SDK is exported

namespace rknnop::files {

/// Success, or one line saying what went wrong.
using result = detail::file_result;

/// The default limit of read_file: 1 GiB.
inline constexpr std::uint64_t max_file_size = detail::max_read_size;

/// What a file that is not a regular file is, for messages: "a FIFO (named pipe)", "a directory", ...
[[nodiscard]] constexpr std::string_view kind_of(mode_t mode) noexcept { return detail::file_kind(mode); }

/// Reads the whole regular file `path` (at most `limit` bytes) into `out`; on failure `out` is empty.
/// Errors: "'p' is a FIFO (named pipe), not a regular file; ...", "'p' is 5 bytes, larger than the
/// 4-byte limit ...", "cannot open 'p': No such file or directory".
[[nodiscard]] inline result read_file(const std::filesystem::path& path, std::vector<std::uint8_t>& out,
                                      std::uint64_t limit = max_file_size) {
  return detail::read_regular_file(path, out, limit);
}

/// Whether write_file_atomically may write `path`: it does not exist or is a regular file, and its
/// folder is a writable directory. `what` starts the message ("--output 'y'").
[[nodiscard]] inline result check_output_path(const std::filesystem::path& path, std::string_view what) {
  return detail::check_output_path(path, what);
}

/// check_output_path, then a temporary file beside `path`, flushed and renamed over it.
[[nodiscard]] inline result write_file_atomically(const std::filesystem::path& path,
                                                  std::span<const std::uint8_t> bytes) {
  return detail::write_file_atomically(path, bytes);
}

/// Writes all of `bytes` to the open descriptor `fd` (at offset `at` with pwrite, or from its own
/// offset when `at` < 0), again after EINTR and short writes: the one write loop of rknnop's programs.
/// Returns 0, or the error number (EIO when the descriptor takes no more bytes).
[[nodiscard]] inline int write_all(int fd, std::span<const std::uint8_t> bytes, ::off_t at = -1) noexcept {
  return detail::write_all(fd, bytes, at);
}

/// Handlers for SIGINT, SIGTERM, SIGHUP and SIGQUIT (those not ignored) that remove the registered
/// temporary files, then re-raise the signal with its default action. Idempotent.
inline void install_interrupt_cleanup() noexcept { detail::install_interrupt_cleanup(); }

/// A temporary path that the interrupt handler removes while the object lives. At most 64 at once
/// (further ones are not registered, and still removed by their owner).
class registered_temporary {
public:
  registered_temporary() noexcept = default;
  explicit registered_temporary(const std::filesystem::path& path) noexcept { watch(path); }
  ~registered_temporary() { release(); }
  registered_temporary(const registered_temporary&) = delete;
  registered_temporary& operator=(const registered_temporary&) = delete;
  /// Watches `path` instead (an empty path: nothing).
  void watch(const std::filesystem::path& path) noexcept {
    release();
    slot_ = detail::register_temporary(path.native());
  }
  /// Stops watching the path (after it was renamed away or removed).
  void release() noexcept {
    detail::release_temporary(slot_);
    slot_ = -1;
  }

private:
  int slot_ = -1;
};

}  // namespace rknnop::files

RKNNOP_DETAIL_END_HIDDEN

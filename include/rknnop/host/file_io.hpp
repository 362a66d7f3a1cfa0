// SPDX-License-Identifier: MIT
#pragma once

// Every file rknnop's host tools read or write goes through here: the throwing face of the SDK's one
// reader and one atomic writer (<rknnop/files.hpp>, which the emitter uses too), so that each rule
// about files holds in one place (docs/container.md §5, "Hostile files"):
//  - reads take regular files only (no device, FIFO, socket or directory: /dev/zero or a FIFO
//    would be read forever) no larger than max_input_file_size;
//  - writes go to a temporary file beside the target (its name fits NAME_MAX) that is renamed over
//    it (a replaced file keeps its permission bits), and never replace
//    what is not a regular file: an existing device, FIFO, socket, directory or symbolic link at an
//    output path is refused before anything runs (check_output_path);
//  - temporary files are registered so that SIGINT/SIGTERM/SIGHUP remove them
//    (install_interrupt_cleanup), and names taken from a file's content become paths only when they
//    are plain file names (check_plain_file_name).

#include <rknnop/files.hpp>  // the reader, the writer, the interrupt registry

#include <cstdint>      // std::uint8_t, std::uint64_t
#include <filesystem>   // std::filesystem::path
#include <span>         // std::span
#include <string>       // std::string
#include <string_view>  // std::string_view
#include <vector>       // std::vector

namespace rknnop::host {

/// The largest file any rknnop tool reads (containers, libraries, op.yml, .py, .npy, shaders): 1 GiB.
inline constexpr std::uint64_t max_input_file_size = rknnop::files::max_file_size;

/// Reads a whole regular file of at most `limit` bytes; throws rknnop::host::error naming the path
/// and the reason (not a regular file and what it is instead, too large, the OS error).
[[nodiscard]] std::vector<std::uint8_t> read_file(const std::filesystem::path& path,
                                                  std::uint64_t limit = max_input_file_size);

/// Throws unless `path` can be written by write_file_atomically: it must not exist or be a regular
/// file (not a directory, device, FIFO, socket or symbolic link), and its folder must exist and be
/// a writable directory. `what` names the path in the message ("--output 'y'").
void check_output_path(const std::filesystem::path& path, std::string_view what);

/// check_output_path, then writes `bytes` to a temporary file next to `path`, flushes it and renames
/// it over `path`, so readers never see a half-written artifact. The temporary file is registered
/// for install_interrupt_cleanup and removed on every failure. Throws rknnop::host::error.
void write_file_atomically(const std::filesystem::path& path, std::span<const std::uint8_t> bytes);

/// Convenience for text files.
void write_file_atomically(const std::filesystem::path& path, std::string_view text);

/// Throws unless `name` (the value of `field`, read from `source`) is a plain file name: not empty,
/// not "." or "..", no '/' or '\\', no control byte. Names from a file's content (op.yml's
/// op_py_file, vx_file, out_binary) pass this before they become paths.
void check_plain_file_name(std::string_view name, std::string_view field, std::string_view source);

/// Installs handlers for SIGINT, SIGTERM, SIGHUP and SIGQUIT (those not ignored) that remove every
/// registered temporary file with async-signal-safe calls and then re-raise the signal with its
/// default action. Tools call it first thing in main; idempotent.
void install_interrupt_cleanup() noexcept;

/// A temporary path that the interrupt handler removes while the object lives. At most 64 at once
/// (further ones are not registered, and still removed by their owner).
using registered_temporary = rknnop::files::registered_temporary;

/// A new empty file in the temporary folder ($TMPDIR, else /tmp) named `<stem>XXXXXX<suffix>`,
/// opened read-write (O_CLOEXEC); returns its descriptor and sets `path`. Throws naming the folder
/// and where it came from ("TMPDIR='/x' does not exist") when it cannot be created.
[[nodiscard]] int create_temporary_file(std::string_view stem, std::string_view suffix, std::string& path);

}  // namespace rknnop::host

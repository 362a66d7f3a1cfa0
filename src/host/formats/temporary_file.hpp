// SPDX-License-Identifier: MIT
#pragma once
// The host library's one temporary file (file_io.cpp), not installed: what the host writes to open by
// path. Files it writes for users go through write_file_atomically (<rknnop/host/file_io.hpp>).
#include "rknnop/host/file_io.hpp"  // create_temporary_file, registered_temporary

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace rknnop::host {

/// Bytes in a file only this process knows, for what opens files by path (dlopen): an anonymous memory
/// file (memfd_create; nothing in any folder, gone with its descriptor) opened as /proc/self/fd/N, or,
/// where /proc is missing, a create_temporary_file removed on remove() or destruction and by the interrupt
/// cleanup while it exists (registered with the interrupt signals blocked). The one temporary file of the
/// host: the loader holds a container's library section in it (loader.cpp).
class [[gnu::visibility("hidden")]] temporary_file {  // hidden: it holds the SDK's hidden registered_temporary
public:
  /// Throws rknnop::host::error "cannot write N bytes to memory: reason" (or to the file's path).
  temporary_file(std::span<const std::uint8_t> bytes, std::string_view stem, std::string_view suffix);
  temporary_file(const temporary_file&) = delete;
  temporary_file& operator=(const temporary_file&) = delete;
  ~temporary_file() { remove(); }

  /// /proc/self/fd/N, or the temporary file's path.
  [[nodiscard]] const std::string& path() const noexcept { return path_; }
  /// Drops the file (what was opened from it, such as a dlopen'ed library's mappings, stays valid).
  void remove() noexcept;

private:
  int fd_ = -1;
  bool named_ = false;
  std::string path_;
  registered_temporary watch_;  // released after the unlink
};

}  // namespace rknnop::host

// SPDX-License-Identifier: MIT
#include "rknnop/host/file_io.hpp"
#include "formats/temporary_file.hpp"

#include "rknnop/host/error.hpp"

#include <cerrno>
#include <csignal>  // the interrupt signals, blocked while a temporary file is registered
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>  // memfd_create
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

namespace rknnop::host {

namespace {

std::string reason_of(int error_number) { return std::strerror(error_number); }

}  // namespace

// The reader, the writer and the interrupt registry are the SDK's (<rknnop/files.hpp>, also the
// emitter's): the host throws what they return.

std::vector<std::uint8_t> read_file(const std::filesystem::path& path, std::uint64_t limit) {
  std::vector<std::uint8_t> bytes;
  if (files::result r = files::read_file(path, bytes, limit); !r) throw error(r.error);
  return bytes;
}

void check_output_path(const std::filesystem::path& path, std::string_view what) {
  if (files::result r = files::check_output_path(path, what); !r) throw error(r.error);
}

void write_file_atomically(const std::filesystem::path& path, std::span<const std::uint8_t> bytes) {
  if (files::result r = files::write_file_atomically(path, bytes); !r) throw error(r.error);
}

void write_file_atomically(const std::filesystem::path& path, std::string_view text) {
  write_file_atomically(path,
                        std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
}

void check_plain_file_name(std::string_view name, std::string_view field, std::string_view source) {
  const auto refuse = [&](std::string_view why) {
    return error(fmt::format("{}: {} '{}' {}; it must be a plain file name (it becomes a path beside the op)", source,
                             field, name, why));
  };
  if (name.empty()) throw refuse("is empty");
  if (name == "." || name == "..") throw refuse("names a folder");
  if (name.front() == '/') throw refuse("is an absolute path");
  for (std::size_t i = 0; i < name.size(); ++i) {
    const auto c = static_cast<unsigned char>(name[i]);
    if (c == '/' || c == '\\')
      throw refuse(fmt::format("holds a '{}' at byte {} (a folder separator)", static_cast<char>(c), i));
    if (c < 0x20 || c == 0x7F) throw refuse(fmt::format("holds the control byte 0x{:02x} at byte {}", c, i));
  }
}

void install_interrupt_cleanup() noexcept { files::install_interrupt_cleanup(); }

int create_temporary_file(std::string_view stem, std::string_view suffix, std::string& path) {
  const char* from_environment = std::getenv("TMPDIR");
  const bool named = from_environment != nullptr && *from_environment != '\0';
  const std::string folder = named ? from_environment : "/tmp";
  const std::string origin = named ? fmt::format("TMPDIR='{}'", folder) : std::string("the temporary folder '/tmp'");
  struct stat st {};
  if (::stat(folder.c_str(), &st) != 0)
    throw error(
        fmt::format("{} {}; set TMPDIR to an existing writable folder", origin,
                    errno == ENOENT ? std::string("does not exist") : "cannot be examined: " + reason_of(errno)));
  if (!S_ISDIR(st.st_mode)) throw error(fmt::format("{} is {}, not a directory", origin, files::kind_of(st.st_mode)));
  path = fmt::format("{}/{}XXXXXX{}", folder, stem, suffix);
  const int fd = ::mkostemps(path.data(), static_cast<int>(suffix.size()), O_CLOEXEC);
  if (fd < 0) throw error(fmt::format("cannot create a temporary file in {}: {}", origin, reason_of(errno)));
  return fd;
}

temporary_file::temporary_file(std::span<const std::uint8_t> bytes, std::string_view stem, std::string_view suffix) {
  std::string memory_name(stem);  // "rknnop-op-" names the memory file "rknnop-op"
  while (memory_name.ends_with('-')) memory_name.pop_back();
  fd_ = ::memfd_create(memory_name.c_str(), MFD_CLOEXEC);
  if (fd_ >= 0) {
    path_ = fmt::format("/proc/self/fd/{}", fd_);
    if (::access(path_.c_str(), R_OK) != 0) {  // no /proc: fall back to a file
      ::close(fd_);
      fd_ = -1;
    }
  }
  if (fd_ < 0) {
    // Registered with the interrupt signals blocked: no SIGINT between its creation and its registration.
    sigset_t interrupts;
    sigset_t before;
    sigemptyset(&interrupts);
    for (const int signal_number : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) sigaddset(&interrupts, signal_number);
    ::pthread_sigmask(SIG_BLOCK, &interrupts, &before);
    try {
      fd_ = create_temporary_file(stem, suffix, path_);
      named_ = true;
      watch_.watch(path_);
    } catch (...) {
      ::pthread_sigmask(SIG_SETMASK, &before, nullptr);
      throw;
    }
    ::pthread_sigmask(SIG_SETMASK, &before, nullptr);
  }
  if (const int why = files::write_all(fd_, bytes); why != 0) {
    const std::string where = named_ ? fmt::format("'{}'", path_) : std::string("memory");
    remove();
    throw error(fmt::format("cannot write {} bytes to {}: {}", bytes.size(), where, reason_of(why)));
  }
}

void temporary_file::remove() noexcept {
  if (named_) ::unlink(path_.c_str());
  named_ = false;
  watch_.release();
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

}  // namespace rknnop::host

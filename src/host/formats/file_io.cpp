// SPDX-License-Identifier: MIT
#include "rknnop/host/file_io.hpp"

#include "rknnop/host/error.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>

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

}  // namespace rknnop::host

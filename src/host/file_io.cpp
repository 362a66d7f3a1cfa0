// SPDX-License-Identifier: MIT
#include "rknnop/host/file_io.hpp"

#include "rknnop/host/error.hpp"

// The one reader and atomic writer, shared with the emitter; here their errors become exceptions.
#include <rknnop/container_format.hpp>

namespace rknnop::host {

std::vector<std::uint8_t> read_file(const std::filesystem::path& path) {
  std::vector<std::uint8_t> bytes;
  if (const container_format::result r = container_format::read_file(path, bytes); !r) throw error(r.error);
  return bytes;
}

void write_file_atomically(const std::filesystem::path& path, std::span<const std::uint8_t> bytes) {
  if (const container_format::result r = container_format::write_file_atomically(path, bytes); !r) throw error(r.error);
}

void write_file_atomically(const std::filesystem::path& path, std::string_view text) {
  write_file_atomically(path,
                        std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
}

}  // namespace rknnop::host

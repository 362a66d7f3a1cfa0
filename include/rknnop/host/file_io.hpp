// SPDX-License-Identifier: MIT
#pragma once

// Whole-file reads and atomic writes shared by every host-side format.

#include <cstdint>     // std::uint8_t
#include <filesystem>  // std::filesystem::path
#include <span>        // std::span
#include <string_view>
#include <vector>  // std::vector

namespace rknnop::host {

/// Reads a whole regular file; throws rknnop::host::error naming the path and the OS reason.
[[nodiscard]] std::vector<std::uint8_t> read_file(const std::filesystem::path& path);

/// Writes `bytes` to a temporary file next to `path`, flushes it and renames it over `path`, so
/// readers never see a half-written artifact. Throws rknnop::host::error on any failure (and
/// removes the temporary file).
void write_file_atomically(const std::filesystem::path& path, std::span<const std::uint8_t> bytes);

/// Convenience for text files.
void write_file_atomically(const std::filesystem::path& path, std::string_view text);

}  // namespace rknnop::host

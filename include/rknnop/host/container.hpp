// SPDX-License-Identifier: MIT
#pragma once

// The `.rknnop` container the RKNN-Toolkit v1 builds for one custom op (docs/container.md §2):
// "RKNN\0\0\0\0", u64 LE version (1 or 2), then sections `u64 LE length + bytes` back to back.
// Version 2: shader, x86-64 .so, aarch64 .so, armhf .so, op.yml, .py. Version 1: no armhf section.

#include <rknnop/container_format.hpp>  // the byte layout and the section enum

#include <array>        // std::array
#include <cstddef>      // std::size_t
#include <cstdint>      // std::uint8_t, std::uint64_t
#include <filesystem>   // std::filesystem::path
#include <span>         // std::span
#include <string>       // std::string
#include <string_view>  // std::string_view
#include <vector>       // std::vector

namespace rknnop::host {

/// What a section of the container holds; the enumerator order is the version-2 file order. The
/// same enum as the emitter's (one byte layout, <rknnop/container_format.hpp>).
using section_kind = container_format::section;

/// Every section kind, in the version-2 file order.
inline constexpr auto all_section_kinds = [] {
  std::array<section_kind, container_format::section_count> kinds{};
  for (std::size_t i = 0; i < kinds.size(); ++i) kinds[i] = static_cast<section_kind>(i);
  return kinds;
}();

/// Human name used in diagnostics ("aarch64 library").
[[nodiscard]] constexpr std::string_view section_description(section_kind kind) noexcept {
  return container_format::description(kind);
}

/// The sections a container of this version holds, in file order. Empty for unknown versions.
[[nodiscard]] constexpr std::span<const section_kind> section_layout(std::uint64_t version) noexcept {
  return container_format::layout(version);
}

struct container {
  std::uint64_t version = 2;
  std::vector<std::uint8_t> shader;       ///< Vivante shader binary ("SHDR..."), may be empty
  std::vector<std::uint8_t> lib_x86_64;   ///< PC simulator kernel library
  std::vector<std::uint8_t> lib_aarch64;  ///< RK1808/RK3399Pro kernel library
  std::vector<std::uint8_t> lib_armhf;    ///< RK1806/RV1109/RV1126 kernel library (version 2 only)
  std::vector<std::uint8_t> op_yml;       ///< op.yml text
  std::vector<std::uint8_t> op_py;        ///< rknn_op_<lower>.py text

  [[nodiscard]] std::vector<std::uint8_t>& section(section_kind kind) noexcept;
  [[nodiscard]] const std::vector<std::uint8_t>& section(section_kind kind) const noexcept;
};

/// Where one section's bytes were found (for `inspect`).
struct section_location {
  section_kind kind;
  std::uint64_t offset;  ///< offset of the section's bytes (after its length field)
  std::uint64_t size;
};

/// "an RKNN model (.rknn, ...)" when `bytes` start like a toolkit model (RKNN + version + weights +
/// a JSON graph) or an encrypted one (CYPTRKNN); empty otherwise. parse_container and the loader
/// use it to say what such a file is instead of counting its sections.
[[nodiscard]] std::string rknn_model_kind(std::span<const std::uint8_t> bytes);

/// Parses a container strictly. `source` names the file in diagnostics. Throws rknnop::host::error
/// on bad magic, unknown version, truncated length field, a section running past the end, a
/// missing section or trailing bytes. If `locations` is given it receives each section's place.
[[nodiscard]] container parse_container(std::span<const std::uint8_t> bytes, std::string_view source,
                                        std::vector<section_location>* locations = nullptr);

[[nodiscard]] container read_container_file(const std::filesystem::path& path,
                                            std::vector<section_location>* locations = nullptr);

/// Serializes; byte-identical to the input of parse_container for anything it accepted. Throws
/// if a version-1 container has a non-empty armhf section or the version is unknown.
[[nodiscard]] std::vector<std::uint8_t> serialize_container(const container& c);

/// serialize_container + write_file_atomically.
void write_container_file(const container& c, const std::filesystem::path& path);

}  // namespace rknnop::host

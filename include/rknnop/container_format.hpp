// SPDX-License-Identifier: MIT
#pragma once

// The `.rknnop` container the RKNN-Toolkit v1 builds for one custom op, read and written in one
// place (docs/container.md §1, §2). Standard library only, no exceptions thrown: the emitter, the
// host tools (src/host/formats/container.cpp) and users' own build scripts share this byte layout.
//
//   bytes 0-7   "RKNN" + four zero bytes
//   bytes 8-15  u64 little-endian format version: 2 (toolkit >= 1.3.2), 1 (toolkit 1.2.0)
//   then        sections back to back, each `u64 LE length` + bytes; no padding, no trailer
//   version 2:  shader, x86-64 .so, aarch64 .so, armhf .so, op.yml, .py (version 1: no armhf)
//
// Reading is strict (`parse`): a wrong magic, an unknown version, a truncated or overlong section,
// a missing section or trailing bytes is an error with its offset. Files are read and written by
// the SDK's one reader and atomic writer (<rknnop/files.hpp>), so a reader never sees half an artifact.

#include <rknnop/config.hpp>
#include <rknnop/files.hpp>  // the one reader and atomic writer

#include <array>        // magic, layouts, section views
#include <cstddef>      // std::size_t
#include <cstdint>      // std::uint8_t, std::uint64_t
#include <filesystem>   // paths
#include <span>         // byte views
#include <string>       // messages
#include <string_view>  // descriptions
#include <vector>       // serialized bytes

RKNNOP_DETAIL_BEGIN_HIDDEN  // see config.hpp: nothing of the SDK is exported

namespace rknnop::container_format {
using bytes_view = std::span<const std::uint8_t>;

inline constexpr std::array<std::uint8_t, 8> magic{'R', 'K', 'N', 'N', 0, 0, 0, 0};
inline constexpr std::size_t header_size = 16;  // magic + u64 version
inline constexpr std::size_t length_size = 8;   // u64 LE length before each section
inline constexpr std::uint64_t latest_version = 2;
/// The first bytes of a compiled Vivante shader, the only thing a shader section may hold (§3).
inline constexpr std::array<std::uint8_t, 4> shader_magic{'S', 'H', 'D', 'R'};
/// The largest file read_file reads: 1 GiB, far above any kernel library or shader.
inline constexpr std::uint64_t max_file_size = files::max_file_size;

/// Whether `bytes` start with `magic` (a container's "RKNN\0\0\0\0", a shader's "SHDR").
template <std::size_t N>
constexpr bool starts_with(std::span<const std::uint8_t> bytes, const std::array<std::uint8_t, N>& prefix) noexcept {
  if (bytes.size() < N) return false;
  for (std::size_t i = 0; i < N; ++i)
    if (bytes[i] != prefix[i]) return false;
  return true;
}

/// What a section holds; the enumerator order is the version-2 file order.
enum class section : std::uint8_t { shader, lib_x86_64, lib_aarch64, lib_armhf, op_yml, op_py };
inline constexpr std::size_t section_count = 6;

namespace detail {
inline constexpr std::array<section, 6> layout_v2{section::shader,    section::lib_x86_64, section::lib_aarch64,
                                                  section::lib_armhf, section::op_yml,     section::op_py};
inline constexpr std::array<section, 5> layout_v1{section::shader, section::lib_x86_64, section::lib_aarch64,
                                                  section::op_yml, section::op_py};

constexpr std::uint64_t load_u64_le(const std::uint8_t* p) noexcept {
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < 8; ++i) value |= std::uint64_t{p[i]} << (8 * i);
  return value;
}

inline void append_u64_le(std::vector<std::uint8_t>& out, std::uint64_t value) {
  for (std::size_t i = 0; i < 8; ++i) out.push_back(static_cast<std::uint8_t>((value >> (8 * i)) & 0xFFu));
}

inline std::string number(std::uint64_t v) { return std::to_string(v); }

inline std::string hex_bytes(bytes_view bytes) {
  constexpr char digits[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (i != 0) out += ' ';
    out += digits[bytes[i] >> 4];
    out += digits[bytes[i] & 0xF];
  }
  return out;
}
}  // namespace detail

/// The sections a container of this version holds, in file order; empty for unknown versions.
constexpr std::span<const section> layout(std::uint64_t version) noexcept {
  if (version == 2) return detail::layout_v2;
  if (version == 1) return detail::layout_v1;
  return {};
}

/// Human name used in diagnostics ("aarch64 library").
constexpr std::string_view description(section kind) noexcept {
  switch (kind) {
    case section::shader: return "shader";
    case section::lib_x86_64: return "x86-64 library";
    case section::lib_aarch64: return "aarch64 library";
    case section::lib_armhf: return "armhf library";
    case section::op_yml: return "op.yml";
    case section::op_py: return ".py";
  }
  return "?";
}

/// Success, or one line saying what went wrong (without the "rknnop: " prefix).
struct result {
  std::string error;
  [[nodiscard]] bool ok() const noexcept { return error.empty(); }
  explicit operator bool() const noexcept { return ok(); }
};

// --- writing ---------------------------------------------------------------------------------

/// The bytes of each section to write (views, not copies), indexed by `section`.
struct contents {
  std::uint64_t version = latest_version;
  std::array<bytes_view, section_count> sections{};

  constexpr bytes_view& operator[](section kind) noexcept { return sections[static_cast<std::size_t>(kind)]; }
  constexpr bytes_view operator[](section kind) const noexcept { return sections[static_cast<std::size_t>(kind)]; }
};

/// Whether `c` can be written: a known version, and no armhf bytes in a version-1 container
/// (which has no place for them).
[[nodiscard]] inline result check(const contents& c) {
  if (layout(c.version).empty())
    return {"cannot write .rknnop version " + detail::number(c.version) + ": expected 1 or 2"};
  if (c.version == 1 && !c[section::lib_armhf].empty())
    return {"cannot write a version 1 .rknnop with an armhf library (" + detail::number(c[section::lib_armhf].size()) +
            " bytes): version 1 has no armhf section, use version 2"};
  return {};
}

/// The container's bytes; empty when check(c) fails.
[[nodiscard]] inline std::vector<std::uint8_t> serialize(const contents& c) {
  if (!check(c)) return {};
  std::size_t total = header_size;
  for (const section kind : layout(c.version)) total += length_size + c[kind].size();
  std::vector<std::uint8_t> out;
  out.reserve(total);
  out.insert(out.end(), magic.begin(), magic.end());
  detail::append_u64_le(out, c.version);
  for (const section kind : layout(c.version)) {
    detail::append_u64_le(out, c[kind].size());
    out.insert(out.end(), c[kind].begin(), c[kind].end());
  }
  return out;
}

// --- reading ---------------------------------------------------------------------------------

enum class parse_error : std::uint8_t {
  none,
  header_too_short,  // fewer than 16 bytes
  bad_magic,         // bytes 0-7 are not "RKNN\0\0\0\0"
  unknown_version,   // bytes 8-15 are neither 1 nor 2
  missing_section,   // the file ends where a section's length should start
  truncated_length,  // fewer than 8 bytes left for a length field
  section_past_end,  // a section claims more bytes than remain
  trailing_bytes,    // bytes after the last section
};

/// Where one section's bytes are: `offset` is just past its length field.
struct section_location {
  section kind = section::shader;
  std::uint64_t offset = 0;
  std::uint64_t size = 0;
};

/// What `parse` found. On failure, `error` says what and the context fields say where.
struct parsed {
  parse_error error = parse_error::none;
  std::uint64_t version = 0;
  std::array<section_location, section_count> locations{};
  std::size_t location_count = 0;

  std::uint64_t file_size = 0;
  std::array<std::uint8_t, 8> header{};  // bytes 0-7 as read (for bad_magic)
  std::size_t failed_index = 0;          // index in layout(version) of the failing section
  std::uint64_t offset = 0;              // offset of the failing length field / trailing bytes
  std::uint64_t claimed = 0;             // section_past_end: the length read
  std::uint64_t remaining = 0;           // bytes left at `offset` (after the length for section_past_end)

  [[nodiscard]] constexpr bool ok() const noexcept { return error == parse_error::none; }
  constexpr explicit operator bool() const noexcept { return ok(); }

  /// The sections found, in file order.
  [[nodiscard]] constexpr std::span<const section_location> sections() const noexcept {
    return {locations.data(), location_count};
  }
  /// The bytes of section `kind` inside `file` (the buffer given to parse); empty if absent.
  [[nodiscard]] constexpr bytes_view bytes_of(bytes_view file, section kind) const noexcept {
    for (const section_location& l : sections())
      if (l.kind == kind) return file.subspan(static_cast<std::size_t>(l.offset), static_cast<std::size_t>(l.size));
    return {};
  }
};

/// Parses a container strictly; never reads outside `file`.
[[nodiscard]] constexpr parsed parse(bytes_view file) noexcept {
  parsed r;
  r.file_size = file.size();
  if (file.size() < header_size) {
    r.error = parse_error::header_too_short;
    return r;
  }
  for (std::size_t i = 0; i < 8; ++i) r.header[i] = file[i];
  if (!starts_with(file, magic)) {
    r.error = parse_error::bad_magic;
    return r;
  }
  r.version = detail::load_u64_le(file.data() + 8);
  const auto order = layout(r.version);
  if (order.empty()) {
    r.error = parse_error::unknown_version;
    r.offset = 8;
    return r;
  }
  std::size_t offset = header_size;
  for (std::size_t index = 0; index < order.size(); ++index) {
    r.failed_index = index;
    r.offset = offset;
    r.remaining = file.size() - offset;
    if (r.remaining == 0) {
      r.error = parse_error::missing_section;
      return r;
    }
    if (r.remaining < length_size) {
      r.error = parse_error::truncated_length;
      return r;
    }
    const std::uint64_t length = detail::load_u64_le(file.data() + offset);
    offset += length_size;
    if (length > file.size() - offset) {
      r.error = parse_error::section_past_end;
      r.offset = offset;
      r.claimed = length;
      r.remaining = file.size() - offset;
      return r;
    }
    r.locations[r.location_count++] = {order[index], offset, length};
    offset += static_cast<std::size_t>(length);
  }
  if (offset != file.size()) {
    r.error = parse_error::trailing_bytes;
    r.failed_index = order.size() - 1;
    r.offset = offset;
    r.remaining = file.size() - offset;
    return r;
  }
  r.failed_index = 0;
  r.offset = 0;
  r.remaining = 0;
  return r;
}

/// One line describing a failed parse (without the "rknnop: " prefix); `source` names the file.
[[nodiscard]] inline std::string message(const parsed& r, std::string_view source) {
  using detail::number;
  const std::string src(source);
  const auto order = layout(r.version);
  const auto section_name = [&](std::size_t index) {
    return "section " + number(index + 1) + " (" + std::string(description(order[index])) + ")";
  };
  switch (r.error) {
    case parse_error::none: return {};
    case parse_error::header_too_short:
      return src + ": not a .rknnop container: " + number(r.file_size) +
             " bytes, shorter than the 16-byte header (\"RKNN\\0\\0\\0\\0\" + u64 version)";
    case parse_error::bad_magic:
      return src + ": not a .rknnop container: bad magic at offset 0: expected 52 4b 4e 4e 00 00 00 00 " +
             "(\"RKNN\\0\\0\\0\\0\"), got " + detail::hex_bytes(r.header);
    case parse_error::unknown_version:
      return src + ": unsupported .rknnop version " + number(r.version) + " at offset 8: expected 1 or 2";
    case parse_error::missing_section:
      return src + ": version " + number(r.version) + " container has " + number(r.failed_index) +
             " sections, expected " + number(order.size()) + " (missing section " + number(r.failed_index + 1) + ", " +
             std::string(description(order[r.failed_index])) + ", at offset " + number(r.offset) + ")";
    case parse_error::truncated_length:
      return src + ": truncated length field of " + section_name(r.failed_index) + " at offset " + number(r.offset) +
             ": need 8 bytes, " + number(r.remaining) + " left";
    case parse_error::section_past_end:
      return src + ": " + section_name(r.failed_index) + " at offset " + number(r.offset) + " claims " +
             number(r.claimed) + " bytes but only " + number(r.remaining) + " remain in the file";
    case parse_error::trailing_bytes:
      return src + ": " + number(r.remaining) + " trailing bytes at offset " + number(r.offset) +
             " after the last section (" + std::string(description(order.back())) + "); a version " +
             number(r.version) + " container has exactly " + number(order.size()) + " sections";
  }
  return src + ": invalid .rknnop container";
}

// --- files -----------------------------------------------------------------------------------

/// Reads a whole regular file of at most `limit` bytes into `out` (<rknnop/files.hpp>: FIFOs,
/// devices and directories are refused).
[[nodiscard]] inline result read_file(const std::filesystem::path& path, std::vector<std::uint8_t>& out,
                                      std::uint64_t limit = max_file_size) {
  return {files::read_file(path, out, limit).error};
}

/// The shader section of the container `file` (the toolkit's .rknnop, whose compiled shader
/// rknnop_add_op's TOOLKIT_RKNNOP reuses): parsed strictly, and it must be non-empty and start with
/// "SHDR". On failure `shader` is empty and the result says why; `source` names the file.
[[nodiscard]] inline result shader_section(bytes_view file, std::string_view source, bytes_view& shader) {
  shader = {};
  const parsed p = parse(file);
  if (!p) return {message(p, source)};
  const bytes_view bytes = p.bytes_of(file, section::shader);
  if (bytes.empty())
    return {std::string(source) +
            ": the container's shader section is empty (a CPU-only op: it has no shader to reuse)"};
  if (!starts_with(bytes, shader_magic))
    return {std::string(source) +
            ": the container's shader section is not a compiled Vivante shader (it does not "
            "start with \"SHDR\")"};
  shader = bytes;
  return {};
}

/// Writes `bytes` atomically with the SDK's one writer (<rknnop/files.hpp>, which the host library
/// wraps): `path` is either untouched or complete, keeps its mode when it existed, and is never a
/// symbolic link, FIFO, device or directory.
[[nodiscard]] inline result write_file_atomically(const std::filesystem::path& path, bytes_view bytes) {
  return {files::write_file_atomically(path, bytes).error};
}

/// check + serialize + write_file_atomically.
[[nodiscard]] inline result write_file(const std::filesystem::path& path, const contents& c) {
  if (result checked = check(c); !checked) return checked;
  return write_file_atomically(path, serialize(c));
}

}  // namespace rknnop::container_format

RKNNOP_DETAIL_END_HIDDEN

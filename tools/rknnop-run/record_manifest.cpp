// SPDX-License-Identifier: MIT
// rknnop-run --replay: a record's manifests (record_manifest.hpp).

#include <rknnop/host/error.hpp>
#include <rknnop/host/file_io.hpp>

#include "record_manifest.hpp"

#include "cli.hpp"  // tools/common: terminal_text

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <regex>

namespace rknnop_run {

using rknnop::host::error;
using rknnop::host::read_file;
using rknnop::tools::terminal_text;

// The GNU build-id note of an ELF image, as hex; "none" without one (or in an image it cannot walk:
// the runner has checked the file's structure before this runs).
std::string gnu_build_id(const std::vector<std::uint8_t>& b) {
  const auto read = [&b](std::uint64_t at, unsigned n, std::uint64_t& v) {
    if (at > b.size() || n > b.size() - at) return false;
    v = 0;
    for (unsigned k = 0; k < n; ++k) v |= std::uint64_t(b[at + k]) << (8 * k);
    return true;
  };
  if (b.size() < 52 || b[5] != 1) return "none";  // little-endian only
  const bool wide = b[4] == 2;
  std::uint64_t phoff = 0, phentsize = 0, phnum = 0;
  if (!read(wide ? 0x20 : 0x1C, wide ? 8 : 4, phoff) || !read(wide ? 0x36 : 0x2A, 2, phentsize) ||
      !read(wide ? 0x38 : 0x2C, 2, phnum))
    return "none";
  for (std::uint64_t i = 0; i < phnum; ++i) {
    const std::uint64_t ph = phoff + i * phentsize;
    std::uint64_t type = 0, offset = 0, size = 0;
    if (!read(ph, 4, type) || type != 4 /* PT_NOTE */) continue;
    if (!read(ph + (wide ? 8 : 4), wide ? 8 : 4, offset) || !read(ph + (wide ? 32 : 16), wide ? 8 : 4, size)) continue;
    for (std::uint64_t at = offset; at + 12 <= offset + size;) {
      std::uint64_t namesz = 0, descsz = 0, kind = 0;
      if (!read(at, 4, namesz) || !read(at + 4, 4, descsz) || !read(at + 8, 4, kind)) break;
      const std::uint64_t name_at = at + 12, desc_at = name_at + ((namesz + 3) & ~std::uint64_t(3));
      if (desc_at > b.size() || descsz > b.size() - desc_at) break;
      if (kind == 3 /* NT_GNU_BUILD_ID */ && namesz == 4 && std::memcmp(b.data() + name_at, "GNU", 4) == 0) {
        std::string hex;
        for (std::uint64_t k = 0; k < descsz && k < 64; ++k) hex += fmt::format("{:02x}", b[desc_at + k]);
        return hex;
      }
      at = desc_at + ((descsz + 3) & ~std::uint64_t(3));
    }
  }
  return "none";
}

std::vector<std::pair<std::string, std::string>> build_ids_of(const std::vector<std::filesystem::path>& files) {
  std::vector<std::pair<std::string, std::string>> builds;
  for (const std::filesystem::path& p : files) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(p, ec)) continue;
    std::vector<std::uint8_t> bytes;
    try {
      bytes = read_file(p);
    } catch (const error&) {
      continue;
    }
    if (bytes.size() < 4 || std::memcmp(bytes.data(),
                                        "\x7f"
                                        "ELF",
                                        4) != 0)
      continue;
    const std::string id = gnu_build_id(bytes);
    if (id != "none") builds.emplace_back(id, p.string());
  }
  return builds;
}

const std::string* manifest::find(std::string_view key) const {
  for (const auto& [k, v] : fields)
    if (k == key) return &v;
  return nullptr;
}
const std::string& manifest::get(const std::string& key) const {
  if (const std::string* v = find(key)) return *v;
  throw error(fmt::format("--replay: {}: field '{}' is missing", path.string(), key));
}
error manifest::bad(const std::string& key, std::string_view expected) const {
  return error(fmt::format("--replay: {}: field '{}' is '{}', expected {}", path.string(), key,
                           terminal_text(get(key).substr(0, 80)), expected));
}
std::uint64_t manifest::number(const std::string& key, std::uint64_t max) const {
  const std::string& v = get(key);
  if (v.empty() || v.size() > 19 || !std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; }))
    throw bad(key, fmt::format("a number of at most {}", max));
  const std::uint64_t n = std::stoull(v);
  if (n > max) throw bad(key, fmt::format("a number of at most {}", max));
  return n;
}

manifest read_manifest(const std::filesystem::path& path) {
  const std::vector<std::uint8_t> bytes = read_file(path, 1u << 20);  // a larger one is named by read_file
  manifest m;
  m.path = path;
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  bool ended = false;
  std::size_t line_number = 0;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(at, end - at);
    at = end + 1;
    ++line_number;
    if (ended) throw error(fmt::format("--replay: {}: line {} follows 'end'", path.string(), line_number));
    if (line == "end") {
      ended = true;
      continue;
    }
    const std::size_t eq = line.find('=');
    const std::string_view key = eq == std::string_view::npos ? std::string_view() : line.substr(0, eq);
    if (key.empty() || key.size() > 64 || !std::all_of(key.begin(), key.end(), [](char c) {
          return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
        }))
      throw error(fmt::format("--replay: {}: line {} is not key=value: '{}'", path.string(), line_number,
                              terminal_text(std::string(line.substr(0, 80)))));
    if (m.find(key)) throw error(fmt::format("--replay: {}: field '{}' is given twice", path.string(), key));
    m.fields.emplace_back(std::string(key), std::string(line.substr(eq + 1)));
  }
  if (m.fields.empty() || m.fields.front() != std::pair<std::string, std::string>("rknnop_record", "1"))
    throw error(fmt::format("--replay: {}: not an rknnop record manifest (its first line is not 'rknnop_record=1')",
                            path.string()));
  if (!ended)
    throw error(fmt::format("--replay: {}: the manifest is incomplete (no 'end' line: the recording stopped in it)",
                            path.string()));
  return m;
}

std::vector<std::filesystem::path> record_manifests(const std::string& replay) {
  const std::filesystem::path dir = replay;
  std::error_code ec;
  // The recorder's own names only: rknnop-<type>-<call>.manifest, nothing else is read.
  static const std::regex pattern("rknnop-([A-Za-z0-9_]{1,64})-([0-9]{6,12})\\.manifest");
  std::vector<std::filesystem::path> manifests;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!std::regex_match(name, pattern)) continue;
    if (!it->is_regular_file(ec) || it->is_symlink(ec)) continue;
    if (manifests.size() >= 100000) throw error(fmt::format("--replay {}: more than 100000 manifests", replay));
    manifests.push_back(it->path());
  }
  if (ec) throw error(fmt::format("--replay {}: cannot list the folder: {}", replay, ec.message()));
  if (manifests.empty())
    throw error(fmt::format("--replay {}: no record in the folder (no rknnop-<op type>-<call>.manifest file)", replay));
  std::sort(manifests.begin(), manifests.end());

  return manifests;
}

}  // namespace rknnop_run

// SPDX-License-Identifier: MIT
// rknnop-run --replay: a record's manifests (record_manifest.hpp).

#include <rknnop/host/error.hpp>
#include <rknnop/host/file_io.hpp>
#include <rknnop/float16.hpp>
#include <rknnop/vx_type.hpp>

#include "record_manifest.hpp"

#include "cli.hpp"  // tools/common: terminal_text

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <string_view>
#include <type_traits>
#include <unordered_set>

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
  const auto it = fields.find(key);
  return it == fields.end() ? nullptr : &it->second;
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

std::vector<std::uint8_t> manifest::hex(const std::string& key, std::uint64_t count, std::uint64_t item) const {
  const std::string& text = get(key);
  const auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  if (text.size() != 2 * count * item || !std::all_of(text.begin(), text.end(), [&](char c) { return digit(c) >= 0; }))
    throw bad(key, fmt::format("{} hex digits ({} items of {} bytes)", 2 * count * item, count, item));
  std::vector<std::uint8_t> bytes(text.size() / 2);
  for (std::size_t i = 0; i < bytes.size(); ++i)
    bytes[i] = static_cast<std::uint8_t>(digit(text[2 * i]) * 16 + digit(text[2 * i + 1]));
  return bytes;
}

std::string element_text(rknnop::host::npy_dtype dtype, const std::uint8_t* p) {
  std::string text;
  (void)rknnop::visit_tensor_element_type(static_cast<std::int32_t>(dtype), [&]<class T>(std::type_identity<T>) {
    T v{};
    std::memcpy(&v, p, sizeof v);
    if constexpr (std::is_same_v<T, rknnop::float16> || std::is_floating_point_v<T>) {
      using bits_type = std::conditional_t<sizeof(T) == 2, std::uint16_t, std::uint32_t>;
      bits_type bits = 0;
      std::memcpy(&bits, p, sizeof bits);
      text = fmt::format("{} (0x{:0{}x})", static_cast<float>(v), bits, 2 * sizeof bits);
    } else {
      text = fmt::format("{}", static_cast<std::int64_t>(v));  // exactly, int8 as a number
    }
  });
  return text;
}

manifest read_manifest(const std::filesystem::path& path) {
  const std::vector<std::uint8_t> bytes = read_file(path, 1u << 20);  // a larger one is named by read_file
  manifest m;
  m.path = path;
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  const auto not_a_manifest = [&path] {
    return error(fmt::format("--replay: {}: not an rknnop record manifest (its first line is not 'rknnop_record=1')",
                             path.string()));
  };
  bool ended = false;
  std::size_t line_number = 0;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(at, end - at);
    at = end + 1;
    ++line_number;
    if (line_number == 1 && line != "rknnop_record=1") throw not_a_manifest();  // before reading on
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
    if (!m.fields.emplace(std::string(key), std::string(line.substr(eq + 1))).second)
      throw error(fmt::format("--replay: {}: field '{}' is given twice", path.string(), key));
  }
  if (m.fields.empty()) throw not_a_manifest();
  if (!ended)
    throw error(fmt::format("--replay: {}: the manifest is incomplete (no 'end' line: the recording stopped in it)",
                            path.string()));
  return m;
}

std::vector<std::filesystem::path> record_manifests(const std::string& replay) {
  const std::filesystem::path dir = replay;
  std::error_code ec;
  // The recorder's own names only: rknnop-<type>-<call>.manifest, nothing else is read.
  const auto recorders_name = [](std::string_view name) {
    constexpr std::string_view prefix = "rknnop-", suffix = ".manifest";
    if (name.size() <= prefix.size() + suffix.size() || !name.starts_with(prefix) || !name.ends_with(suffix))
      return false;
    name = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
    const std::size_t dash = name.rfind('-');
    if (dash == std::string_view::npos) return false;
    const std::string_view type = name.substr(0, dash), call = name.substr(dash + 1);
    return type.size() >= 1 && type.size() <= 64 && call.size() >= 6 && call.size() <= 12 &&
           std::all_of(type.begin(), type.end(),
                       [](char c) {
                         return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
                       }) &&
           std::all_of(call.begin(), call.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  std::vector<std::filesystem::path> manifests;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!recorders_name(name)) continue;
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

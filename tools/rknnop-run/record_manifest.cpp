// SPDX-License-Identifier: MIT
// rknnop-run --replay: a record's manifests (record_manifest.hpp).

#include <rknnop/host/error.hpp>
#include <rknnop/host/file_io.hpp>
#include <rknnop/float16.hpp>
#include <rknnop/vx_type.hpp>

#include "record_manifest.hpp"

#include "cli.hpp"  // tools/common: terminal_text

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstring>
#include <string_view>
#include <type_traits>

namespace rknnop_run {

using rknnop::host::error;
using rknnop::host::npy_array;
using rknnop::host::npy_dtype;
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

std::filesystem::path record_npy_path(const manifest& m, const std::string& stem, const std::string& role,
                                      std::size_t k) {
  return m.path.parent_path() / fmt::format("{}.{}{}.npy", stem, role == "input" ? "in" : "out", k);
}

npy_array read_record_npy(const manifest& m, const std::string& stem, const std::string& role, std::size_t k,
                          npy_dtype dtype, std::string_view dtype_name) {
  const std::filesystem::path file = record_npy_path(m, stem, role, k);
  std::error_code ec;
  const std::filesystem::file_status status = std::filesystem::symlink_status(file, ec);
  if (ec || !std::filesystem::is_regular_file(status))
    throw error(fmt::format("--replay: {}: {} {} of the call has no file {} (a regular file, not a link)",
                            m.path.string(), role, k, file.string()));
  npy_array array = rknnop::host::read_npy_file(file);
  if (array.dtype != dtype)
    throw error(fmt::format("--replay: {}: {}, but {}.{}.dtype in {} says {}", file.string(),
                            rknnop::host::npy_descr(array.dtype), role, k, m.path.filename().string(), dtype_name));
  return array;
}

namespace {

// Compares one call's outputs bit for bit; prints the first difference. True: all equal.
bool outputs_equal(const replayed_call& c) {
  for (std::size_t k = 0; k < c.recorded.size(); ++k) {
    const replay_output& want = c.recorded[k];
    const replay_output& have = c.pc[k];
    if (have.type != want.type || have.shape != want.shape || have.data->size() != want.data->size()) {
      // terminal: the label and the output names are the caller's terminal-safe text
      fmt::print("{}: DIFFERS: output '{}' is {} ({}) on the PC, {} ({}) in the record\n", c.label, c.names[k],
                 have.type, fmt::join(have.shape, ", "), want.type, fmt::join(want.shape, ", "));
      return false;
    }
    const std::size_t size = rknnop::host::npy_item_size(want.dtype);
    for (std::size_t at = 0; at < want.data->size(); at += size) {
      if (std::memcmp(want.data->data() + at, have.data->data() + at, size) == 0) continue;
      // terminal: the label and the output names are the caller's terminal-safe text
      fmt::print("{}: DIFFERS: output '{}' element {} {}: recorded {}, PC {}\n", c.label, c.names[k], at / size,
                 rknnop::host::numpy_index(want.shape, at / size), element_text(want.dtype, want.data->data() + at),
                 element_text(have.dtype, have.data->data() + at));
      return false;
    }
  }
  return true;
}

}  // namespace

int replay_calls(const replay_target& t, const std::vector<std::filesystem::path>& manifests,
                 const std::function<void(const manifest&)>& check,
                 const std::function<replayed_call(const manifest& m, const std::string& stem, bool board_ok)>& run) {
  std::size_t replayed = 0, equal = 0, other_ops = 0;
  std::vector<std::string> other_builds;
  for (const std::filesystem::path& path : manifests) {
    const manifest m = read_manifest(path);
    const std::string& call = m.get("call");
    (void)m.number("call", 999999999999);
    check(m);
    const std::string& op_type = m.get("op_type");
    if (op_type != t.op_type) {
      ++other_ops;
      fmt::print("call {}: op '{}', not {} '{}': skipped\n", terminal_text(call), terminal_text(op_type), t.whose,
                 terminal_text(t.op_type));
      continue;
    }
    const std::string& recorded_build = m.get("build_id");
    const bool known =
        std::any_of(t.known.begin(), t.known.end(), [&](const auto& b) { return b.first == recorded_build; });
    if (!known && std::find(other_builds.begin(), other_builds.end(), recorded_build) == other_builds.end()) {
      other_builds.push_back(recorded_build);
      const std::string* arch = m.find("arch");
      std::string mine;
      for (const auto& [id, file] : t.known) mine += fmt::format("{}{} ({})", mine.empty() ? "" : ", ", id, file);
      fmt::print(stderr,
                 "rknnop-run: --replay: the record came from a different build of {}: {} was recorded by build-id {} "
                 "({}), which is none of this build's {} ({}); its calls are compared all the same\n",
                 t.build_of, path.filename().string(), terminal_text(recorded_build.substr(0, 128)),
                 arch ? terminal_text(arch->substr(0, 16)) : std::string("an unknown machine"), t.builds,
                 mine.empty() ? t.none_found : mine);
    }
    const std::string& status = m.get("status");
    if (status != "ok" && status != "failed") throw m.bad("status", "ok or failed");
    const replayed_call c = run(m, path.stem().string(), status == "ok");
    ++replayed;
    // The labels and output names below are the caller's terminal-safe text (replayed_call).
    if (status == "failed" && c.failure) {  // the board's run failed: it must fail on the PC too
      ++equal;
      fmt::print("{}: failed on the board, fails on the PC too: {}\n", c.label, terminal_text(*c.failure));
      continue;
    }
    if (status == "failed") {
      // terminal: the label is the caller's terminal-safe text
      fmt::print("{}: DIFFERS: failed on the board, succeeds on the PC\n", c.label);
      continue;
    }
    if (c.failure) {
      fmt::print("{}: DIFFERS: succeeded on the board, fails on the PC: {}\n", c.label, terminal_text(*c.failure));
      continue;
    }
    if (outputs_equal(c)) {
      ++equal;
      // terminal: the label is the caller's terminal-safe text
      fmt::print("{}: {} output(s) equal, bit for bit\n", c.label, c.recorded.size());
    }
  }
  fmt::print("replayed {} call(s) of '{}' from {} with {}: {} equal, {} differ{}\n", replayed, terminal_text(t.op_type),
             terminal_text(t.dir), terminal_text(t.given), equal, replayed - equal,
             other_ops ? fmt::format(" ({} call(s) of other ops skipped)", other_ops) : std::string());
  if (replayed == 0) throw error(fmt::format("--replay {}: no recorded call of op '{}'", t.dir, t.op_type));
  return equal == replayed ? 0 : rknnop::tools::exit_failure;
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

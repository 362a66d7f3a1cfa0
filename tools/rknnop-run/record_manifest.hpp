// SPDX-License-Identifier: MIT
#pragma once
// rknnop-run --replay's reading of a record (RKNNOP_RECORD=<dir>), shared by both generations: an
// RKNPU2 plugin's (rknpu2_mode.cpp, detail/rknpu2/record.hpp) and the instrumented RKNN v1 kernel
// library's (vx_replay.cpp, detail/openvx/record.hpp): the manifests' names, their key=value lines,
// an ELF image's GNU build-id, and an element of a differing output as text.

#include <rknnop/host/error.hpp>
#include <rknnop/host/npy.hpp>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rknnop_run {

/// The GNU build-id note of an ELF image, as hex; "none" without one.
[[nodiscard]] std::string gnu_build_id(const std::vector<std::uint8_t>& image);

/// The GNU build-ids of those of `files` that are ELF images with one, as (build-id, path): the
/// libraries of one build a record's build-id is looked for among. A file that is absent, cannot be
/// read or is not ELF is left out.
[[nodiscard]] std::vector<std::pair<std::string, std::string>> build_ids_of(
    const std::vector<std::filesystem::path>& files);

/// One manifest: its key=value lines, read whole (at most 1 MiB), each key once.
struct manifest {
  std::filesystem::path path;
  std::map<std::string, std::string, std::less<>> fields;  // by key: a lookup is logarithmic

  [[nodiscard]] const std::string* find(std::string_view key) const;
  /// The field's value; throws naming the manifest and the missing field.
  [[nodiscard]] const std::string& get(const std::string& key) const;
  /// The error of a field whose value is not what is expected.
  [[nodiscard]] rknnop::host::error bad(const std::string& key, std::string_view expected) const;
  /// The field as a decimal number of at most `max`.
  [[nodiscard]] std::uint64_t number(const std::string& key, std::uint64_t max) const;
  /// The field as `count` items of `item` bytes, in hex (2 * count * item digits); throws naming the field.
  [[nodiscard]] std::vector<std::uint8_t> hex(const std::string& key, std::uint64_t count, std::uint64_t item) const;
};

/// Reads one manifest: its first line rknnop_record=1, its last "end".
[[nodiscard]] manifest read_manifest(const std::filesystem::path& path);

/// One element of a tensor at `p` as text: an integer exactly, a float's value and its bits.
[[nodiscard]] std::string element_text(rknnop::host::npy_dtype dtype, const std::uint8_t* p);

/// The record's manifests in `dir` (rknnop-<type>-<call>.manifest, regular files, not links), sorted;
/// throws when there is none.
[[nodiscard]] std::vector<std::filesystem::path> record_manifests(const std::string& dir);

}  // namespace rknnop_run

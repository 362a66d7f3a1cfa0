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
#include <optional>
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

/// The file of a recorded tensor: <stem>.in<k>.npy or <stem>.out<k>.npy beside the manifest.
[[nodiscard]] std::filesystem::path record_npy_path(const manifest& m, const std::string& stem, const std::string& role,
                                                    std::size_t k);

/// The .npy of a recorded tensor, `role` "input" or "output" number `k`: <stem>.in<k>.npy or
/// <stem>.out<k>.npy beside the manifest (a regular file, not a link), its dtype checked against
/// `dtype` (the manifest's <role>.<k>.dtype, `dtype_name`). Its shape is the caller's to check.
[[nodiscard]] rknnop::host::npy_array read_record_npy(const manifest& m, const std::string& stem,
                                                      const std::string& role, std::size_t k,
                                                      rknnop::host::npy_dtype dtype, std::string_view dtype_name);

/// One output of a replayed call, as recorded or as the PC made it.
struct replay_output {
  std::string type;  ///< its type as the messages name it
  rknnop::host::npy_dtype dtype{};
  std::vector<std::size_t> shape;
  const std::vector<std::uint8_t>* data = nullptr;
};

/// One call run again: how its lines name it ("call 3", "call 3 (node 1)": terminal-safe text), the
/// PC's error when the run failed, else the outputs' names (terminal-safe), the record's and the PC's.
struct replayed_call {
  std::string label;
  std::optional<std::string> failure;
  std::vector<std::string> names;
  std::vector<replay_output> recorded, pc;
};

/// What a replay runs the record's calls with: the op type they must name, the file given and the
/// build-ids of this build's libraries, and how the messages name them.
struct replay_target {
  std::string dir;                                         ///< --replay's folder, as given
  std::string op_type;                                     ///< calls of another op are skipped
  std::string given;                                       ///< the op or plugin, as given
  std::string whose;                                       ///< "this op's", "this plugin's"
  std::string build_of;                                    ///< "the op's library", "the plugin"
  std::string builds;                                      ///< "libraries", "plugins"
  std::string none_found;                                  ///< said when `known` is empty
  std::vector<std::pair<std::string, std::string>> known;  ///< build_ids_of this build's libraries
};

/// Replays every call of `t.op_type` in the record's manifests: each manifest read, `check` called on it
/// (it throws on a record this replay cannot take), another op's call skipped, a record of another build
/// named once, its status checked, then `run(m, stem, board_ok)` runs it on the PC; its outputs are
/// compared bit for bit (one line per call, the first differing element named), one summary line.
/// 0: every call equal; throws when no call is of the op.
[[nodiscard]] int replay_calls(
    const replay_target& t, const std::vector<std::filesystem::path>& manifests,
    const std::function<void(const manifest&)>& check,
    const std::function<replayed_call(const manifest& m, const std::string& stem, bool board_ok)>& run);

/// The record's manifests in `dir` (rknnop-<type>-<call>.manifest, regular files, not links), sorted;
/// throws when there is none.
[[nodiscard]] std::vector<std::filesystem::path> record_manifests(const std::string& dir);

}  // namespace rknnop_run

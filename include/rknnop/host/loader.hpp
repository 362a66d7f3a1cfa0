// SPDX-License-Identifier: MIT
#pragma once

// Opens a custom op's kernel library the way the RKNN v1 board runtime does (docs/runtime.md §7): from a
// `lib<op>.so` or from the library section of a `.rknnop` for this host (x86-64, aarch64 or armhf; a
// version-1 container has no armhf section), checking the ELF machine first, then
// dlsym("vx_kernel_<Name>_list"), picking the descriptor at kernel_index, writing its enumeration
// (which proves it lives in writable memory) and checking numParams and the parameter table
// against op.yml. Before any of the library runs, the same checks are made on the file (ELF
// structure, kernel table: check_library_for_op, shared with `rknnop-pack inspect --verify`) and
// the library is loaded once in a forked probe process, so a corrupt library is an error, not a
// crash; a container's section is loaded from an anonymous memory file (memfd), never from a folder.
// Every failure is a rknnop::host::error naming the file, symbol or parameter.
//
// One door: the loader opens an op_source, the op's bytes with the label its messages name it by. A
// path is "read the file, then open the bytes" (op_source::read); a model's op is its container made in
// memory, labelled "M.rknn: op 'X'" (load_model_op), so no message ever names a temporary file.

#include <rknnop/host/container.hpp>
#include <rknnop/host/isolation.hpp>  // node_execution
#include <rknnop/host/op_yml.hpp>
#include <rknnop/host/validate.hpp>  // kernel_parameter

#include <cstddef>      // std::size_t
#include <cstdint>      // std::int32_t, std::uint32_t
#include <filesystem>   // std::filesystem::path
#include <memory>       // std::unique_ptr
#include <optional>     // std::optional
#include <string>       // std::string
#include <string_view>  // std::string_view
#include <vector>       // std::vector

namespace rknnop::host {

/// An op to open: the bytes of a .rknnop or of a kernel library, and the label every message names it by.
struct op_source {
  std::vector<std::uint8_t> bytes;
  /// Names the op in every message: "F.rknnop", "M.rknn: op 'X'" (a container's section is added:
  /// "F.rknnop (x86-64 library section)").
  std::string label;
  /// The file the bytes were read from, if any: a bare library's op.yml is looked for beside it and the
  /// library is loaded from it. Without one a library is loaded from a memory file, and needs op_yml.
  std::optional<std::filesystem::path> file;

  /// The file's bytes, labelled with its path. Throws naming the path when it cannot be read.
  [[nodiscard]] static op_source read(const std::filesystem::path& path);
};

struct load_options {
  /// op.yml to use; required for a bare .so unless an op.yml lies beside it. For a .rknnop it
  /// replaces the embedded one.
  std::optional<std::filesystem::path> op_yml;
  /// Overrides op.yml's kernel_index (default 0).
  std::optional<std::uint32_t> kernel_index;
  /// Where session::load runs the library's code (isolation.hpp); unset: default_node_execution().
  /// op_library::open always loads in this process.
  std::optional<node_execution> execution;
  /// Names where the op's code comes from in the one line of a crash in a child process ("node 'n',
  /// model M.rknn, x86-64 library section"); empty: the op_source's label, and its section for a .rknnop.
  std::string origin;
};

/// What open() learns from a library file before any of it runs (its steps 1-3: the file read, the
/// machine checked, op.yml read, the structure and kernel table checked), for a child process to load.
struct library_inspection {
  op_yml op;
  std::string label;                                 ///< names the library: the file, or "<file> (<section> section)"
  std::vector<std::uint8_t> file;                    ///< the file as read (a .rknnop or the ELF library)
  std::optional<std::filesystem::path> op_yml_path;  ///< the op.yml used (given, or beside a bare .so)
};

/// What the selected vx_kernel_description_t says. Distinct from op_yml on purpose: this is what
/// the library exports, op_yml what op.yml declares; open() compares the two, as the board does.
struct kernel_descriptor_info {
  std::string list_symbol;    ///< "vx_kernel_<Name>_list"
  std::size_t list_size = 0;  ///< entries before the terminating NULL
  std::uint32_t kernel_index = 0;
  std::string name;              ///< descriptor name ("<lower>_cpu" or "<lower>")
  std::int32_t enumeration = 0;  ///< after the loader wrote it
  bool is_shader = false;        ///< function == NULL: a VX shader kernel
  bool has_validate = false;
  bool has_initialize = false;
  bool has_deinitialize = false;
  std::uint32_t num_params = 0;
  std::vector<kernel_parameter> parameters;
};

/// The enumeration the loader writes into the selected descriptor (the board runtime's value).
inline constexpr std::int32_t loader_kernel_enumeration = static_cast<std::int32_t>(0xFFF03080u);

/// A dlopen'ed kernel library with its op.yml and selected descriptor. Move-only; dlclose on
/// destruction (descriptors must not be used afterwards). open() is thread-safe: threads opening
/// the same .so share its mapping, and the descriptor's enumeration is written once, under a lock.
class op_library {
public:
  [[nodiscard]] static op_library open(op_source source, const load_options& options = {});
  /// open(op_source::read(path), options).
  [[nodiscard]] static op_library open(const std::filesystem::path& path, const load_options& options = {});
  /// open()'s checks without loading: nothing of the library runs. Throws as open() does.
  [[nodiscard]] static library_inspection inspect(op_source source, const load_options& options = {});
  /// inspect(op_source::read(path), options).
  [[nodiscard]] static library_inspection inspect(const std::filesystem::path& path, const load_options& options = {});

  op_library(op_library&&) noexcept;
  op_library& operator=(op_library&&) noexcept;
  ~op_library();

  [[nodiscard]] const op_yml& op() const noexcept;
  [[nodiscard]] const kernel_descriptor_info& kernel() const noexcept;
  /// The selected `vx_kernel_description_t *` (as void* so this header needs no OpenVX header).
  [[nodiscard]] void* descriptor() const noexcept;
  /// The file given to open(), or the op_source's label when it was opened from memory.
  [[nodiscard]] const std::filesystem::path& source() const noexcept;

private:
  struct state;
  explicit op_library(std::unique_ptr<state> s) noexcept;
  std::unique_ptr<state> state_;
};

/// The library section the board runtime of an ELF `machine` (elf_machine::x86_64, aarch64, arm)
/// takes from a container of `version`. Throws naming `source` when there is none: another machine,
/// or armhf with a version-1 container (which has no armhf section).
[[nodiscard]] section_kind library_section_for(std::uint16_t machine, std::uint64_t version, std::string_view source);

/// "VX_ERROR_INVALID_TYPE (-17)"
[[nodiscard]] std::string vx_status_text(std::int32_t status);

}  // namespace rknnop::host

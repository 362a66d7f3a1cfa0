// SPDX-License-Identifier: MIT
#pragma once

// A small, bounds-checked ELF inspector for kernel libraries: class, machine, shared-object-ness,
// exported and undefined dynamic symbols (with GNU symbol versions), DT_NEEDED, and the newest
// GLIBC_/GLIBCXX_/CXXABI_ versions a library requires (boards ship glibc 2.28 / GCC 8's libstdc++).
// Reads from a byte buffer; garbage input yields rknnop::host::error, never a crash.

#include <array>        // elf_kernel_descriptor::parameters
#include <cstdint>      // std::uint16_t, std::uint8_t
#include <optional>     // read_kernel_list
#include <span>         // std::span
#include <string>       // std::string
#include <string_view>  // std::string_view
#include <vector>       // std::vector

namespace rknnop::host {

/// ELF e_machine values rknnop cares about.
namespace elf_machine {
inline constexpr std::uint16_t i386 = 3;
inline constexpr std::uint16_t arm = 40;
inline constexpr std::uint16_t x86_64 = 62;
inline constexpr std::uint16_t aarch64 = 183;
}  // namespace elf_machine

/// "x86-64", "aarch64", "arm", or "machine 243" for others.
[[nodiscard]] std::string machine_name(std::uint16_t machine);

/// e_machine of the process running this code (0 when unknown).
[[nodiscard]] std::uint16_t host_machine() noexcept;

enum class elf_symbol_kind { object, function, tls, other };

struct elf_symbol {
  std::string name;
  elf_symbol_kind kind = elf_symbol_kind::other;
  std::string version;  ///< "GLIBC_2.14" for memcpy@GLIBC_2.14; empty when unversioned
  bool weak = false;
};

struct elf_info {
  int bits = 0;  ///< 32 or 64
  std::uint16_t machine = 0;
  std::uint16_t type = 0;             ///< e_type; 3 = ET_DYN
  std::vector<elf_symbol> exported;   ///< defined, global/weak, default/protected visibility
  std::vector<elf_symbol> undefined;  ///< undefined dynamic symbols (imports)
  std::vector<std::string> needed;    ///< DT_NEEDED entries in order
  std::string soname;                 ///< DT_SONAME, may be empty
  std::string max_glibc;              ///< newest "GLIBC_x.y" required, empty when none
  std::string max_glibcxx;            ///< newest "GLIBCXX_x.y.z" required, empty when none
  std::string max_cxxabi;             ///< newest "CXXABI_x.y.z" required, empty when none

  [[nodiscard]] bool is_shared_object() const noexcept { return type == 3; }
  [[nodiscard]] const elf_symbol* find_export(std::string_view name) const noexcept;
  /// True when `vx_kernel_<op_name>_list` is an exported data object.
  [[nodiscard]] bool exports_kernel_list(std::string_view op_name) const noexcept;
  /// "ELF64 aarch64 shared object"
  [[nodiscard]] std::string summary() const;
};

/// `vx_kernel_<op_name>_list`
[[nodiscard]] std::string kernel_list_symbol(std::string_view op_name);

/// True when the buffer starts with "\x7f" "ELF".
[[nodiscard]] bool looks_like_elf(std::span<const std::uint8_t> bytes) noexcept;

/// Inspects a little-endian ELF32/ELF64 image. `source` names the file in diagnostics.
[[nodiscard]] elf_info inspect_elf(std::span<const std::uint8_t> bytes, std::string_view source);

/// Checks what the dynamic loader reads from a shared object before it runs any of it: the program
/// headers and segments lie in the file, the dynamic table, string, symbol, hash, version and
/// relocation tables lie in the loaded segments, every relocation writes inside a writable segment
/// with a type this machine's shared objects use, constructors point into the code. Throws
/// "rknnop: <source>: corrupt library: ..." naming the first problem. The loader runs it before
/// dlopen, and `rknnop-pack inspect --verify` on every library section.
void check_elf_structure(std::span<const std::uint8_t> bytes, std::string_view source);

/// One vx_kernel_description_t of a library's kernel list, read from the file as the loader would
/// see it after relocation (no code runs).
struct elf_kernel_descriptor {
  std::string name_field;  ///< the 256-byte name array: the name, NUL, then rknnop's schema marker
  bool writable = false;   ///< lies in a writable segment (the runtime writes its enumeration)
  bool has_function = false;
  bool has_parameters = false;
  bool has_validate = false;
  bool has_initialize = false;
  bool has_deinitialize = false;
  std::uint32_t num_params = 0;
  std::vector<std::array<std::int32_t, 3>> parameters;  ///< direction, data_type, state
};

/// The entries of vx_kernel_<Op>_list before its NULL terminator.
struct elf_kernel_list {
  std::vector<elf_kernel_descriptor> entries;
};

/// check_elf_structure, then the kernel list exported as `symbol`; nullopt when no such symbol is
/// defined. Throws naming `source` when the list or a descriptor lies outside the loaded segments.
[[nodiscard]] std::optional<elf_kernel_list> read_kernel_list(std::span<const std::uint8_t> bytes,
                                                              std::string_view symbol, std::string_view source);

/// Throws "rknnop: <source>: ELF for aarch64 (ELF64 shared object) but this host is x86-64" when
/// the library could not be dlopen'ed by this process (wrong machine/class, not a shared object).
void check_loadable_on_host(const elf_info& info, std::string_view source);

/// Compares dotted version tails: compare_symbol_versions("GLIBC_2.14", "GLIBC_2.2.5") > 0.
/// Both must have the same prefix; returns <0, 0, >0.
[[nodiscard]] int compare_symbol_versions(std::string_view a, std::string_view b) noexcept;

}  // namespace rknnop::host

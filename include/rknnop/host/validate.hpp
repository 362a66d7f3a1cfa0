// SPDX-License-Identifier: MIT
#pragma once

// One validation of a `.rknnop` and of a kernel library against its op.yml, used by the loader
// (rknnop-run, sessions), by `rknnop-pack inspect --verify` and by `rknnop-pack pack` (which
// refuses to write a container --verify would reject). What the loader checks is a subset of what
// --verify reports, by construction: both call check_library_for_op and container_op.

#include <rknnop/host/container.hpp>
#include <rknnop/host/op_yml.hpp>

#include <array>        // container_report::details
#include <cstdint>      // std::uint8_t, std::uint32_t
#include <optional>     // std::optional
#include <span>         // std::span
#include <string>       // std::string
#include <string_view>  // std::string_view
#include <vector>       // std::vector

namespace rknnop::host {

/// Throws unless the .py section is what Python 3 can import: UTF-8 text without NUL bytes.
void check_python_section(std::span<const std::uint8_t> py, std::string_view source);

/// The container's op.yml section parsed, its .py section checked (check_python_section) and the
/// port order taken from the .py's def_input/def_output. `source` names the container.
[[nodiscard]] op_yml container_op(const container& c, std::string_view source);

/// What the board runtime checks of a kernel library before a node runs, read from the file
/// without running it: its ELF structure (check_elf_structure), that it exports
/// vx_kernel_<Op>_list, and that the descriptor at `kernel_index` (default op.yml's, else 0) has
/// a name, the op.yml's schema fingerprint, numParams and a parameter table matching op.yml's
/// inputs, outputs and params. Throws naming `label`.
void check_library_for_op(std::span<const std::uint8_t> library, const op_yml& op,
                          std::optional<std::uint32_t> kernel_index, std::string_view label);

/// Everything `rknnop-pack inspect --verify` reports of a container: a one-line detail per section
/// (file order) for inspect, and every problem, one line each without the "rknnop: " prefix.
struct container_report {
  std::optional<op_yml> op;
  std::array<std::string, container_format::section_count> details;  ///< indexed by section_kind
  std::vector<std::string> problems;
  /// Empty board-library sections the op's target_platform needs: `--verify` reports them with the
  /// problems and `pack` refuses them too, unless asked for a container only the PC runs (`--pc-only`).
  std::vector<std::string> missing_sections;
};
[[nodiscard]] container_report validate_container(const container& c, std::string_view source);

}  // namespace rknnop::host

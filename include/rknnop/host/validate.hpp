// SPDX-License-Identifier: MIT
#pragma once

// One validation of a `.rknnop` and of a kernel library against its op.yml, used by the loader
// (rknnop-run, sessions), by `rknnop-pack inspect --verify` and by `rknnop-pack pack` (which
// refuses to write a container --verify would reject). What the loader checks is a subset of what
// --verify reports, by construction: both call check_library_for_op and container_op (op_yml.hpp).

#include <rknnop/host/container.hpp>
#include <rknnop/host/elf.hpp>
#include <rknnop/host/op_yml.hpp>

#include <array>        // container_report::details
#include <cstddef>      // std::size_t
#include <cstdint>      // std::uint8_t, std::uint32_t
#include <optional>     // std::optional
#include <span>         // std::span
#include <string>       // std::string
#include <string_view>  // std::string_view
#include <vector>       // std::vector

namespace rknnop::host {

/// What the board runtime checks of a kernel library before a node runs, read from the file
/// without running it: its ELF structure (check_elf_structure), that it exports
/// vx_kernel_<Op>_list, and that the descriptor at `kernel_index` (default op.yml's, else 0) has
/// a name, the op.yml's schema fingerprint, numParams and a parameter table matching op.yml's
/// inputs, outputs and params. Throws naming `label`.
void check_library_for_op(std::span<const std::uint8_t> library, const op_yml& op,
                          std::optional<std::uint32_t> kernel_index, std::string_view label);

/// One row of a descriptor's vx_param_description_t table.
struct kernel_parameter {
  std::int32_t direction = 0;  ///< VX_INPUT 0 / VX_OUTPUT 1
  std::int32_t data_type = 0;  ///< VX_TYPE_TENSOR / ARRAY / SCALAR
  std::int32_t state = 0;      ///< VX_PARAMETER_STATE_REQUIRED 0x8000
};

/// What the board runtime checks of the selected vx_kernel_description_t, read from the file
/// (check_library_for_op) or from the loaded library (op_library::open).
struct kernel_descriptor_fields {
  std::string_view name_field;  ///< the name array: the name, NUL, then rknnop's schema marker
  bool writable = false;        ///< lies in writable memory (the runtime writes its enumeration)
  std::uint32_t num_params = 0;
  bool has_parameters = false;                   ///< the table pointer is not NULL
  std::span<const kernel_parameter> parameters;  ///< the table's rows, op.yml's count of them when numParams matches
};

/// Throws "<label>: does not export <symbol> ...", listing the kernel lists `exported` does hold.
[[noreturn]] void throw_missing_kernel_list(std::span<const elf_symbol> exported, const op_yml& op,
                                            std::string_view label);

/// The index the runtime selects in the kernel list `symbol` of `count` entries: `kernel_index`,
/// else op.yml's, else 0. Throws naming `label` when the list is empty or the index out of range.
[[nodiscard]] std::uint32_t select_kernel_index(std::size_t count, const op_yml& op,
                                                std::optional<std::uint32_t> kernel_index, std::string_view symbol,
                                                std::string_view label);

/// Checks the descriptor at `index` of `symbol` against op.yml as the board runtime does: writable,
/// a terminated non-empty name, the schema fingerprint (when both carry one), numParams and each
/// table row's direction and type. Returns the descriptor's name; throws naming `label`.
[[nodiscard]] std::string check_descriptor_for_op(const kernel_descriptor_fields& descriptor, const op_yml& op,
                                                  std::uint32_t index, std::string_view symbol, std::string_view label);

/// validate_container's checks of each non-empty library section against `op` (machine, ELF
/// structure, the kernel list, the descriptor), one problem a line without the "rknnop: " prefix:
/// what `rknnop-pack update` applies to every library it writes into a model.
[[nodiscard]] std::vector<std::string> library_problems(const container& c, const op_yml& op, std::string_view source);

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

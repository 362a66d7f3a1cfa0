// SPDX-License-Identifier: MIT
#pragma once
// rknnop-run on a toolkit-built .rknn model (docs/rknn-model.md §4): --describe, --check, or run one
// custom-op node with the model's params and dims.

#include "cli.hpp"  // tools/common: shared_options

#include <cstdint>   // std::uint32_t, std::uint64_t
#include <optional>  // std::optional
#include <string>    // std::string

namespace rknnop::host {
class session;
}

namespace rknnop_run {

/// --repeat N, in op mode and model mode: N more runs of the session's node (after the first), timed from
/// graph creation to the outputs read back; prints the median, the minimum and the thread count.
void print_timing(rknnop::host::session& s, std::uint32_t runs);

/// True when `path` is an .rknn model (by its bytes, not its extension), or a file named .rknn that is
/// neither a container nor a library (missing, empty, truncated, another format: the model reader says why).
[[nodiscard]] bool is_model_path(const std::string& path) noexcept;

/// The model mode's own options (main.cpp's one table holds them with the shared ones).
struct model_options {
  std::string node;                            ///< --node NAME|INDEX
  std::optional<std::uint64_t> random_inputs;  ///< --random-inputs SEED
  bool check = false;                          ///< --check
};

/// The model mode, after main.cpp parsed the command line: one line "rknnop-run: ..." per failure.
[[nodiscard]] int model_main(const rknnop::tools::shared_options& shared, const model_options& model);

}  // namespace rknnop_run

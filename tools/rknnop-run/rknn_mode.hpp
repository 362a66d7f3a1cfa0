// SPDX-License-Identifier: MIT
#pragma once
// rknnop-run on a toolkit-built .rknn model (docs/rknn-model.md §4): --describe, --check, or run one
// custom-op node with the model's params and dims.

#include <cstdint>  // std::uint32_t

namespace rknnop::host {
class session;
}

namespace rknnop_run {

/// --repeat N, in op mode and model mode: N more runs of the session's node (after the first), timed from
/// graph creation to the outputs read back; prints the median, the minimum and the thread count.
void print_timing(rknnop::host::session& s, std::uint32_t runs);

/// True when an argument names an .rknn model (by its bytes, not its extension).
[[nodiscard]] bool is_model_invocation(int argc, char** argv) noexcept;

/// The model mode's main: its own options, one line "rknnop-run: ..." per failure.
[[nodiscard]] int model_main(int argc, char** argv);

}  // namespace rknnop_run

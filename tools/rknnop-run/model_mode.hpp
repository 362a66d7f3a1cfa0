// SPDX-License-Identifier: MIT
#pragma once
// rknnop-run on a toolkit-built .rknn model (docs/rknn-model.md §4): --describe, --check, or run one
// custom-op node with the model's params and dims.

namespace rknnop_run {

/// True when an argument names an .rknn model (by its bytes, not its extension).
[[nodiscard]] bool is_model_invocation(int argc, char** argv) noexcept;

/// The model mode's main: its own options, one line "rknnop-run: ..." per failure.
[[nodiscard]] int model_main(int argc, char** argv);

}  // namespace rknnop_run

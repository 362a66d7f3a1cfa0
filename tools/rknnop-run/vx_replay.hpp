// SPDX-License-Identifier: MIT
#pragma once
// rknnop-run --replay DIR OP for an RKNN v1 op (docs/running.md §3): the calls the instrumented
// kernel library recorded on the board (RKNNOP_RECORD=<dir>), run on the PC and compared bit for bit.

#include <rknnop/host/session.hpp>  // load_options

#include <string>

namespace rknnop_run {

/// Replays every recorded call of the op in `dir` with `op` (a .rknnop container or the op's PC
/// kernel library); one line per call, one summary line. 0: every call equal.
[[nodiscard]] int vx_replay(const std::string& dir, const std::string& op, const rknnop::host::load_options& load);

}  // namespace rknnop_run

// SPDX-License-Identifier: MIT
#pragma once
// The node runner's RKNPU2 requests (runner_command::rknpu2, rknpu2_run.hpp): the runner's side
// (rknpu2_runner.cpp, called from node_runner.cpp's serve) and the wire both sides write.
#include "isolate/node_wire.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace rknnop::host::child_io {

enum class rknpu2_request : std::uint8_t { describe = 1, run = 2 };

// What the runner's loop lends the RKNPU2 requests: its status page's step, the sandbox's second
// call once the plugin is loaded, the fault handler's tensor list, and the tensor bytes for the limit.
struct rknpu2_runner_hooks {
  std::function<void(runner_step)> set_step;
  std::function<void()> after_load;
  std::function<void()> clear_guarded;
  std::function<void(const std::string& label, const void* data, std::size_t size)> guard_buffer;
  std::function<void(std::uint64_t bytes)> tensor_bytes;
};

/// Serves one RKNPU2 request (its head read by serve): loads the plugin from the library descriptor
/// at the first, then describes it or runs a node. The reply follows the success byte; a failure is
/// thrown (rknnop::host::error: its detail is the reply's line).
void serve_rknpu2(wire_reader& request, wire_writer& reply, const std::string& label, const rknpu2_runner_hooks& hooks);

}  // namespace rknnop::host::child_io

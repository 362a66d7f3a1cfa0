// SPDX-License-Identifier: MIT
#pragma once
// The parent's side of a node run in a child process (isolation.hpp): session's isolated mode loads
// and runs through these.
#include "rknnop/host/engine.hpp"
#include "rknnop/host/loader.hpp"
#include "isolate/node_wire.hpp"

#include <functional>

#include <memory>
#include <string>
#include <vector>

namespace rknnop::host::child_io {

// A library inspected here (op_library::inspect), to be loaded in a child process.
struct child_library {
  std::string label;   ///< the op_source's label: the runner's loader names the library by it
  std::string origin;  ///< "M.rknn, x86-64 library section": where the op's code comes from, for messages
  std::vector<std::uint8_t> file;
  load_options options;  ///< op_yml resolved; execution ignored
  std::string op_name;
};

/// A started runner (rknnop-node) serving one library's requests; destroying it stops the runner.
struct runner_process;
/// The runner a session keeps between its requests: empty until the first, and again after the runner
/// died in one (a crash, a hang or its memory stopped it), so that the next starts a fresh runner.
using runner_slot = std::shared_ptr<runner_process>;

/// Loads the library in the slot's runner (started first if there is none) and returns its selected
/// descriptor (open()'s steps 4-7 there); the runner stays loaded for run_in_child.
kernel_descriptor_info load_in_child(const child_library& library, runner_slot& runner);
/// Runs `spec` (its descriptor ignored, on_context refused) in the slot's runner, which loads the
/// library first if it has not.
node_result run_in_child(const child_library& library, runner_slot& runner, const node_spec& spec);
/// One request of `command`, its body written by `body` after the common head, in the slot's runner
/// (started first if there is none), watched and bounded as every request: the reply's bytes (its
/// magic and success byte first; rknpu2_child.cpp). A failure reply is thrown as run_in_child throws it.
/// `tensor_bytes` is the tool's own count of the request's tensors; `outputs_open`: the runner shapes
/// more (outputs only the library's inference sizes), counted from its status page up to the budget.
std::vector<std::uint8_t> call_in_child(const child_library& library, runner_slot& runner, runner_command command,
                                        const std::function<void(wire_writer&)>& body, std::uint64_t tensor_bytes,
                                        bool outputs_open);

}  // namespace rknnop::host::child_io

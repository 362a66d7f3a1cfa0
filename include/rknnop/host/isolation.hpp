// SPDX-License-Identifier: MIT
#pragma once
// Where a custom op's code runs: in this process, or in a child process (rknnop-node) that loads the
// library, runs the descriptor's callbacks and the kernel on tensors in shared memory, and reports back
// (docs/isolation.md). In a child, a crash, abort, hang or runaway allocation of the op's code becomes
// one rknnop::host::error naming the file, the section, the node, the step and the signal, and a
// tensor buffer ends at an inaccessible page, so an overrun faults at its first byte out.
//
// The library's default is in_process: an embedding program need not ship the runner, its on_context
// hooks (a shader executor) reach the node directly, and a node costs no process start. The tools
// (rknnop-run, rknnop-pack update/wrap, rknnop-parity) set child, because they run files they do not
// trust; a VX kernel's .vx then travels with the request (session::set_shader) and runs in the runner.
#include <chrono>      // std::chrono::milliseconds
#include <cstdint>     // std::uint64_t
#include <filesystem>  // std::filesystem::path
#include <functional>  // std::function
#include <memory>      // std::shared_ptr
#include <string>      // runner_sandbox_request
#include <string_view>

#include <rknnop/host/engine.hpp>  // node_shader

namespace rknnop::host {

enum class node_execution {
  in_process,  ///< dlopen and run here (the library's default)
  child,       ///< load and run every node in a child process (rknnop-node); a session keeps its
               ///< runner for all its runs, and one that died in a run is replaced at the next
};

/// What session::load uses when load_options::execution is not set. Process-wide.
void set_default_node_execution(node_execution execution) noexcept;
[[nodiscard]] node_execution default_node_execution() noexcept;

/// Bounds of each request to a child process (a load, a run): it is stopped (SIGKILL) after `time` or
/// when its resident memory exceeds `memory` bytes plus four times the tensor bytes of the request
/// (of the run, once the runner has verified its graph and reported them).
/// Defaults: 60 s, 1 GiB; the environment variables RKNNOP_NODE_TIME_LIMIT (seconds) and
/// RKNNOP_NODE_MEMORY_LIMIT (MiB) override them.
struct node_limits {
  std::chrono::milliseconds time{60'000};
  std::uint64_t memory = std::uint64_t{1} << 30;
};
void set_node_limits(const node_limits& limits) noexcept;
[[nodiscard]] node_limits current_node_limits();

/// The runner executable: RKNNOP_NODE_RUNNER if set, else `rknnop-node` beside this program, else
/// (build tree) ../rknnop-node/rknnop-node from this program's folder. Throws naming where it looked.
[[nodiscard]] std::filesystem::path node_runner_path();
/// Uses `runner` instead of the search above (an empty path: search again).
void set_node_runner(const std::filesystem::path& runner);

/// How the runner gives a shader kernel's node (a VX kernel, list index != 0) its shader executor:
/// attaches one to `vx_context` that takes the .vx from `source` (called with the kernel name as the
/// shader is about to run) and returns what must stay alive while the node runs. rknnop-node passes
/// rknnop::vxc's bridge when it is built with it (OpenCL); without one a shader node fails, saying so.
using runner_shader_executor = std::function<std::shared_ptr<void>(
    void* vx_context, std::function<node_shader(std::string_view kernel_name)> source)>;

/// What the runner asks of its sandbox, once, before it loads the op's library (docs/isolation.md):
/// `processes`: it may start processes (a VX shader's runner: POCL links each compiled kernel with
/// the system linker); `writable_folder`: the one folder it may write beneath (POCL's kernel cache),
/// or empty; `refused`: where a refused system call's name is written (the status page). Asked again
/// with `library_loaded` once the library is loaded, for what only the load needed (memory files).
struct runner_sandbox_request {
  bool library_loaded = false;
  bool processes = false;
  std::string writable_folder;
  char* refused = nullptr;
  std::size_t refused_capacity = 0;
};
/// The user and group a root tool's runner runs as (nobody's): the kernel exempts root from the
/// runner's thread cap (RLIMIT_NPROC), and root's file permissions are not the runner's to have.
inline constexpr unsigned runner_unprivileged_id = 65534;

/// Confines the runner; returns the layers it could not set up, empty when all hold (rknnop-node's
/// sandbox.cpp). Without one the runner says it runs unconfined.
using runner_sandbox = std::function<std::string(const runner_sandbox_request&)>;

/// The main() of rknnop-node (the runner): not for other programs.
int node_runner_main(int argc, char** argv, const runner_shader_executor& shaders = {},
                     const runner_sandbox& sandbox = {}) noexcept;

}  // namespace rknnop::host

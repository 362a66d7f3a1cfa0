// SPDX-License-Identifier: MIT
// The node runner the tools start to load and run an op's code out of their own process
// (rknnop/host/isolation.hpp); it takes its work from descriptors its parent gives it. Built with
// rknnop::vxc (OpenCL), it runs a VX kernel's .vx too, through the shader bridge.
#include <rknnop/host/isolation.hpp>

#include "sandbox.hpp"

#if RKNNOP_VXC_HAS_BRIDGE
#include <rknnop/vxc/vxc.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace {

// One bridge for the runner's life, attached to each run's context with that run's .vx: its OpenCL
// context and compiled programs serve every run of the session (POCL starts once per runner).
std::shared_ptr<void> attach_shader_bridge(
    void* vx_context, std::function<rknnop::host::node_shader(std::string_view kernel_name)> source) {
  static std::function<rknnop::host::node_shader(std::string_view)> current;
  static rknnop::vxc::shader_bridge bridge([](std::string_view kernel_name) {
    rknnop::host::node_shader s = current(kernel_name);
    return rknnop::vxc::shader_source{std::move(s.text), std::move(s.file_name), std::move(s.error)};
  });
  current = std::move(source);
  if (const std::int32_t status = bridge.attach(vx_context); status != 0)
    throw std::runtime_error("rknnop: rknnopHostSetShaderExecutor failed with " + std::to_string(status));
  return {};  // the bridge outlives the node's context
}

}  // namespace

int main(int argc, char** argv) {
  return rknnop::host::node_runner_main(argc, argv, attach_shader_bridge, rknnop_node::confine_runner);
}
#else
int main(int argc, char** argv) { return rknnop::host::node_runner_main(argc, argv, {}, rknnop_node::confine_runner); }
#endif

// SPDX-License-Identifier: MIT
// The node runner the tools start to load and run an op's code out of their own process
// (rknnop/host/isolation.hpp); it takes its work from descriptors its parent gives it. Built with
// rknnop::vxc (OpenCL), it runs a VX kernel's .vx too, through the shader bridge.
#include <rknnop/host/isolation.hpp>

#if RKNNOP_VXC_HAS_BRIDGE
#include <rknnop/vxc/vxc.hpp>

#include <functional>
#include <memory>
#include <string_view>
#include <utility>

namespace {

// The bridge attached to the node's context, with the .vx the parent sent.
std::shared_ptr<void> attach_shader_bridge(
    void* vx_context, std::function<rknnop::host::node_shader(std::string_view kernel_name)> source) {
  return rknnop::vxc::attach(vx_context, [source = std::move(source)](std::string_view kernel_name) {
    rknnop::host::node_shader s = source(kernel_name);
    return rknnop::vxc::shader_source{std::move(s.text), std::move(s.file_name), std::move(s.error)};
  });
}

}  // namespace

int main(int argc, char** argv) { return rknnop::host::node_runner_main(argc, argv, attach_shader_bridge); }
#else
int main(int argc, char** argv) { return rknnop::host::node_runner_main(argc, argv); }
#endif

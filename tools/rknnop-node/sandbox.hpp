// SPDX-License-Identifier: MIT
#pragma once
// The node runner's sandbox (sandbox.cpp, docs/isolation.md).
#include <rknnop/host/isolation.hpp>

#include <string>

namespace rknnop_node {

/// Confines this process before it loads an op's library; returns the layers it could not set up
/// ("Landlock (the kernel offers none: ...)"), empty when all hold.
std::string confine_runner(const rknnop::host::runner_sandbox_request& request);

}  // namespace rknnop_node

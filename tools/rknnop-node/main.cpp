// SPDX-License-Identifier: MIT
// The node runner the tools start to load and run an op's code out of their own process
// (rknnop/host/isolation.hpp); it takes its work from descriptors its parent gives it.
#include <rknnop/host/isolation.hpp>

int main(int argc, char** argv) { return rknnop::host::node_runner_main(argc, argv); }

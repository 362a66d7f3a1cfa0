// SPDX-License-Identifier: MIT
// The full model path of `rknnop-run MODEL.rknn --check`, as the tool runs it, on mutated models
// and their libraries: parse, validate each custom node's library (ELF structure, relocations,
// kernel list), then load it, read its descriptor and run the node (validator, shape inference on
// zeros) in the node runner rknnop-node (docs/isolation.md). Any input ends as a pass or a clean
// one-line error: a mutated library that crashes, aborts, hangs or fills memory in the runner is such
// a line, and a crash of this process (the tool's side) or a sanitizer report in it is a finding.
// The seed is a wrapped model of the project's own test op (scripts/fuzz.sh writes it).
#include "fuzz_util.hpp"

#include <rknnop/host/isolation.hpp>
#include <rknnop/host/memory_budget.hpp>
#include <rknnop/host/rknn_session.hpp>
#include <rknnop/host/rknn_model.hpp>

#include <chrono>
#include <cstdlib>
#include <span>

#ifndef RKNNOP_FUZZ_NODE_RUNNER
#error "RKNNOP_FUZZ_NODE_RUNNER: the path of rknnop-node (tests/fuzz/CMakeLists.txt sets it)"
#endif

namespace {
// Each node starts up to three runners; a hanging mutant costs each its time limit, and libFuzzer's
// -timeout (25 s in scripts/fuzz.sh) must not fire first.
constexpr std::size_t max_nodes_checked = 3;
}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  setenv("RKNNOP_LOG", "off", 0);  // a kernel's messages are the tool's line, not the fuzzer's output
  using namespace rknnop::host;
  set_default_node_execution(node_execution::child);  // as rknnop-run and rknnop-pack do
  set_node_runner(RKNNOP_FUZZ_NODE_RUNNER);
  set_node_limits(node_limits{std::chrono::seconds(2), std::uint64_t{512} << 20});
  // The model's tensors are made here (zeros of its shapes) and copied to the runner: a small budget
  // keeps this process far below libFuzzer's -rss_limit_mb.
  set_memory_budget(std::uint64_t{64} << 20);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rknnop::host;
  model m;
  try {
    m = model::parse(std::span<const std::uint8_t>(data, size), "fuzz.rknn");
  } catch (const error& e) {
    rknnop::fuzz::expect_clean_error(e);
    return 0;
  }
  std::size_t checked = 0;
  for (const std::size_t i : m.custom_nodes()) {
    if (checked++ == max_nodes_checked) break;
    try {
      const model_node_check r = check_model_node(m, m.nodes[i]);
      RKNNOP_FUZZ_EXPECT(r.line.find('\n') == std::string::npos, r.line);
    } catch (const error& e) {
      rknnop::fuzz::expect_clean_error(e);
    }
  }
  return 0;
}

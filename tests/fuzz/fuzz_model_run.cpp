// SPDX-License-Identifier: MIT
// The full model path of `rknnop-run MODEL.rknn --check` on mutated models, their libraries
// included: parse, validate each custom node's library (ELF structure, relocations, kernel list,
// descriptor), load it, decode the params and run the node (validator and shape inference on
// zeros). Any input ends as a pass or a clean one-line error; a crash or a sanitizer report in a
// loaded library is a finding (the checks before dlopen let it through). The seed is a wrapped
// model of the project's own test op (scripts/fuzz.sh writes it).
#include "fuzz_util.hpp"

#include <rknnop/host/model_session.hpp>
#include <rknnop/host/rknn_model.hpp>

#include <cstdlib>
#include <span>

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  setenv("RKNNOP_LOG", "off", 0);  // a kernel's messages are the tool's line, not the fuzzer's output
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
  for (const std::size_t i : m.custom_nodes()) {
    try {
      const model_node_check r = check_model_node(m, m.nodes[i]);
      RKNNOP_FUZZ_EXPECT(r.line.find('\n') == std::string::npos, r.line);
    } catch (const error& e) {
      rknnop::fuzz::expect_clean_error(e);
    }
  }
  return 0;
}

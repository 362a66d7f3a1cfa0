// SPDX-License-Identifier: MIT
#include "tiny_op.hpp"

#include <rknnop/container_format.hpp>
#include <rknnop/emit.hpp>

#include <cstdio>
#include <string>

int main() {
  const std::string yml = rknnop::emit_op_yml<Gain>();
  const std::string py = rknnop::emit_python<Gain>();
  std::fputs(yml.c_str(), stdout);
  const bool ok = yml.find("  gain:\n    type: VX_TYPE_FLOAT32\n") != std::string::npos &&
                  py.find("class Gain(RKNNCustomOP):") != std::string::npos &&
                  rknnop::container_format::layout(2).size() == 6;
  std::puts(ok ? "rknnop test_package: OK" : "rknnop test_package: unexpected output");
  return ok ? 0 : 1;
}

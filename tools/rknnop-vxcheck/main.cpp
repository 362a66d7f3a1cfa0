// SPDX-License-Identifier: MIT
// rknnop-vxcheck --op-yml op.yml --vx kernel.vx [--kernel NAME]
// Exit 0 when the shader's __kernel matches the op's parameter table, 1 otherwise (one
// "file:line: rknnop: ..." line per problem on stderr), 2 for bad command lines.
#include <rknnop/host/cli.hpp>
#include <rknnop/host/error.hpp>
#include <rknnop/host/op_yml.hpp>
#include <rknnop/vxc/signature_of.hpp>
#include <rknnop/vxc/vxc.hpp>

#include <CLI/CLI.hpp>

#include <iostream>
#include <string>

int main(int argc, char** argv) try {
  CLI::App app{"Checks a VX shader's __kernel signature against the op's parameter table (op.yml)", "rknnop-vxcheck"};
  std::string op_yml;
  std::string vx_file;
  std::string kernel;
  app.add_option("--op-yml", op_yml, "the op description (name, inputs, outputs, params)")->required();
  app.add_option("--vx", vx_file, "the shader source (.vx)")->required();
  app.add_option("--kernel", kernel, "the VX descriptor name to look for (default: the lower-case op name)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }

  rknnop::vxc::op_signature signature;
  try {
    signature = rknnop::vxc::signature_of(rknnop::host::read_op_yml_file(op_yml));
  } catch (const rknnop::host::error& e) {
    std::cerr << e.what() << '\n';
    return 1;
  }
  const auto problems = rknnop::vxc::check_signature_file(signature, vx_file, kernel);
  for (const auto& d : problems) std::cerr << d.to_string() << '\n';
  return problems.empty() ? 0 : 1;
} catch (...) {
  return rknnop::host::tool_failure("rknnop-vxcheck");
}

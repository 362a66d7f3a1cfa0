// SPDX-License-Identifier: MIT
// rknnop-vxcheck --op-yml op.yml --vx kernel.vx [--kernel NAME]
// Exit 0 when the shader's __kernel matches the op's parameter table, 1 otherwise (one
// "file:line: rknnop: ..." line per problem on stderr), 2 for bad command lines.
#include "cli.hpp"  // tools/common: parse_or_exit, tool_failure, usage_error
#include <rknnop/host/error.hpp>
#include <rknnop/host/file_io.hpp>
#include <rknnop/host/op_yml.hpp>
#include <rknnop/vxc/signature_of.hpp>
#include <rknnop/vxc/vxc.hpp>

#include <CLI/CLI.hpp>

#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

int main(int argc, char** argv) try {
  CLI::App app{"Checks a VX shader's __kernel signature against the op's parameter table (op.yml)", "rknnop-vxcheck"};
  std::string op_yml;
  std::string vx_file;
  std::string kernel;
  app.add_option("--op-yml", op_yml, "the op description (name, inputs, outputs, params)")->required();
  app.add_option("--vx", vx_file, "the shader source (.vx)")->required();
  app.add_option("--kernel", kernel, "the VX descriptor name to look for (default: the lower-case op name)");
  if (const auto status = rknnop::tools::parse_or_exit(app, argc, argv)) return *status;

  rknnop::vxc::op_signature signature;
  try {
    signature = rknnop::vxc::signature_of(rknnop::host::read_op_yml_file(op_yml));
  } catch (const rknnop::host::error& e) {
    std::cerr << e.what() << '\n';
    return 1;
  }
  // The shader through the bounded reader (a regular file of at most max_shader_size bytes: a larger
  // one is refused naming the file and the bound, before it is read); a binary file is one line, not
  // a diagnostic per byte run.
  std::string text;
  const std::string cannot_read = rknnop::host::escape_nonprintable(vx_file) + ": rknnop: op '" + signature.name +
                                  "': cannot read the shader '" + rknnop::host::escape_nonprintable(vx_file) + "': ";
  std::error_code ec;
  if (!std::filesystem::exists(vx_file, ec)) {
    std::cerr << cannot_read << "no such file\n";
    return 1;
  }
  try {
    const std::vector<std::uint8_t> bytes = rknnop::host::read_file(vx_file, rknnop::vxc::max_shader_size);
    text.assign(bytes.begin(), bytes.end());
  } catch (const rknnop::host::error& e) {
    std::cerr << cannot_read << e.detail() << '\n';
    return 1;
  }
  if (const auto nul = text.find('\0'); nul != std::string::npos) {
    std::cerr << rknnop::host::escape_nonprintable(vx_file) << ": rknnop: not a .vx source: byte " << nul
              << " is a NUL (a binary file?)\n";
    return 1;
  }
  const auto problems = rknnop::vxc::check_signature(signature, text, vx_file, kernel);
  // At most max_shown lines, each escaped: the text quotes the shader's bytes.
  constexpr std::size_t max_shown = 20;
  for (std::size_t i = 0; i < problems.size() && i < max_shown; ++i)
    std::cerr << rknnop::host::escape_nonprintable(problems[i].to_string()) << '\n';
  if (problems.size() > max_shown)
    std::cerr << rknnop::host::escape_nonprintable(vx_file) << ": rknnop: " << problems.size() - max_shown
              << " more problems not shown\n";
  return problems.empty() ? 0 : 1;
} catch (...) {
  return rknnop::tools::tool_failure("rknnop-vxcheck");
}

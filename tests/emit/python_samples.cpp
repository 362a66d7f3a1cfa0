// SPDX-License-Identifier: MIT
// Writes the generated Python (and op.yml) of the example and of the sample ops into a directory,
// through the generator's own command line, for check_python.py.

#include "resize_area/resize_area.cpp"

#include <rknnop/emit.hpp>

#include "sample_ops.hpp"

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

namespace {

template <class Op>
int generate(const std::filesystem::path& dir, const std::vector<std::string>& extra = {}) {
  const std::string lower = rknnop::lower_name(rknnop::op_name<Op>);
  std::vector<std::string> args{"emit_python_samples", "--yml", (dir / (lower + ".yml")).string(), "--py",
                                (dir / rknnop::python_file_name(rknnop::op_name<Op>)).string()};
  args.insert(args.end(), extra.begin(), extra.end());
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  return rknnop::emit_main<Op>(static_cast<int>(args.size()), argv.data());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fputs("usage: emit_python_samples DIR\n", stderr);
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  int failures = 0;
  failures += generate<ResizeArea>(dir) != 0;
  failures += generate<emit_samples::AllTypes>(dir) != 0;
  failures += generate<emit_samples::TwoByTwo>(dir, {"--target-platform", "RV1126", "--kernel-index", "1"}) != 0;
  failures += generate<emit_samples::Reserved>(dir) != 0;
  failures += generate<emit_samples::Defaults>(dir) != 0;
  return failures == 0 ? 0 : 1;
}

// SPDX-License-Identifier: MIT
#pragma once

// Runs a command-line tool under /bin/sh and captures its exit status, stdout and stderr.

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <vector>

namespace rknnop_test {

struct tool_result {
  int status = -1;
  std::string out;
  std::string err;
};

inline std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (const char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline tool_result run_tool(const std::string& exe, const std::vector<std::string>& args,
                            const std::filesystem::path& scratch) {
  std::string command = shell_quote(exe);
  for (const auto& a : args) {  // appended piece by piece: GCC 12 at -O3 misreads `" " + string` (-Wrestrict)
    command += ' ';
    command += shell_quote(a);
  }
  const auto out = scratch / "stdout.txt";
  const auto err = scratch / "stderr.txt";
  command += " >" + shell_quote(out.string()) + " 2>" + shell_quote(err.string());
  const int raw = std::system(command.c_str());
  tool_result r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

/// Number of lines in a string ending with '\n'.
inline std::size_t line_count(const std::string& s) {
  std::size_t n = 0;
  for (const char c : s) n += c == '\n';
  return n;
}

}  // namespace rknnop_test

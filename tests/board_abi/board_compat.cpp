// SPDX-License-Identifier: MIT
// Board compatibility of built kernel libraries, read with rknnop::host's ELF inspector:
//   rknnop_board_compat --op Name --lib ARCH FILE [--strip ARCH TOOL] [--max-stripped BYTES] ...
// Fails unless each library is a shared object for ARCH that needs no symbol version above the
// boards' ceiling and no library outside their list (<rknnop/board_abi.hpp>), exports exactly
// vx_kernel_<Name>_list, and, calling pthread_create/pthread_join (rknnop::parallel_for), needs
// libpthread.so.0, where the boards' glibc has them. Prints each library's size and, with --strip, the size of a
// stripped copy.
#include <rknnop/board_abi.hpp>
#include <rknnop/host/elf.hpp>
#include <rknnop/host/error.hpp>
#include <rknnop/host/file_io.hpp>

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

namespace host = rknnop::host;

using rknnop::board_abi::allowed_needed;
using rknnop::board_abi::max_cxxabi;
using rknnop::board_abi::max_glibc;
using rknnop::board_abi::max_glibcxx;

struct arch_info {
  std::uint16_t machine;
  int bits;
};

const std::map<std::string, arch_info, std::less<>> arches{{"x86_64", {host::elf_machine::x86_64, 64}},
                                                           {"aarch64", {host::elf_machine::aarch64, 64}},
                                                           {"armhf", {host::elf_machine::arm, 32}}};

std::string shell_quote(const std::filesystem::path& p) {
  std::string out = "'";
  for (char c : p.string()) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

// Size of a stripped copy (-1 when stripping failed).
long long stripped_size(const std::string& strip, const std::filesystem::path& lib) {
  const auto copy = std::filesystem::temp_directory_path() /
                    ("rknnop-board-" + std::to_string(std::rand()) + "-" + lib.filename().string());
  const std::string command = shell_quote(strip) + " -o " + shell_quote(copy) + " " + shell_quote(lib);
  if (std::system(command.c_str()) != 0) return -1;
  std::error_code ec;
  const auto size = std::filesystem::file_size(copy, ec);
  std::filesystem::remove(copy, ec);
  return static_cast<long long>(size);
}

std::string version_prefix(std::string_view v) { return std::string(v.substr(0, v.find('_') + 1)); }

// Returns the problems found in one library (empty = compatible) and prints its summary line.
std::vector<std::string> check(const std::string& op, const std::string& arch, const std::filesystem::path& file,
                               const std::string& strip, long long max_stripped) {
  std::vector<std::string> problems;
  const auto bytes = host::read_file(file);
  const host::elf_info info = host::inspect_elf(bytes, file.string());
  const std::string what = op + " " + arch + " (" + file.filename().string() + ")";

  const auto expected = arches.find(arch);
  if (expected == arches.end()) return {what + ": unknown architecture"};
  if (info.machine != expected->second.machine || info.bits != expected->second.bits)
    problems.push_back(what + ": is " + info.summary() + ", expected ELF" + std::to_string(expected->second.bits) +
                       " " + host::machine_name(expected->second.machine));
  if (!info.is_shared_object()) problems.push_back(what + ": not a shared object");

  for (const host::elf_symbol& s : info.undefined) {
    for (std::string_view limit : {max_glibc, max_glibcxx, max_cxxabi}) {
      const std::string prefix = version_prefix(limit);
      if (s.version.starts_with(prefix) && host::compare_symbol_versions(s.version, limit) > 0)
        problems.push_back(what + ": needs " + s.name + "@" + s.version + ", newer than the boards' " +
                           std::string(limit));
    }
  }
  const std::string list = host::kernel_list_symbol(op);
  if (!info.exports_kernel_list(op)) problems.push_back(what + ": does not export the data object " + list);
  for (const host::elf_symbol& s : info.exported)
    if (s.name != list) problems.push_back(what + ": exports " + s.name + " (only " + list + " may be exported)");
  for (const std::string& needed : info.needed) {
    bool ok = false;
    for (std::string_view allowed : allowed_needed) ok = ok || needed == allowed;
    if (!ok)
      problems.push_back(what + ": needs " + needed +
                         " (boards give kernel libraries libc, libm, libpthread, libOpenVX)");
  }
  bool threads = false, pthread_needed = false;
  for (const host::elf_symbol& s : info.undefined)
    threads = threads || s.name == "pthread_create" || s.name == "pthread_join";
  for (const std::string& needed : info.needed) pthread_needed = pthread_needed || needed == "libpthread.so.0";
  if (threads && !pthread_needed)
    problems.push_back(
        what + ": calls pthread_create/pthread_join but does not need libpthread.so.0 (glibc 2.28 has them there)");

  std::string needed;
  for (const std::string& n : info.needed) needed += (needed.empty() ? "" : " ") + n;
  std::printf("%-18s %-8s %s; needs [%s]; newest %s%s%s; %zu export(s); %llu bytes", op.c_str(), arch.c_str(),
              info.summary().c_str(), needed.c_str(), info.max_glibc.empty() ? "(no GLIBC)" : info.max_glibc.c_str(),
              info.max_glibcxx.empty() ? "" : (" " + info.max_glibcxx).c_str(),
              info.max_cxxabi.empty() ? "" : (" " + info.max_cxxabi).c_str(), info.exported.size(),
              static_cast<unsigned long long>(bytes.size()));
  if (!strip.empty()) {
    const long long size = stripped_size(strip, file);
    if (size < 0)
      problems.push_back(what + ": '" + strip + "' could not strip a copy");
    else
      std::printf(", stripped %lld bytes", size);
    if (size >= 0 && max_stripped > 0 && size > max_stripped)
      problems.push_back(what + ": stripped size " + std::to_string(size) + " bytes, over the budget of " +
                         std::to_string(max_stripped));
  }
  std::printf("%s\n", problems.empty() ? ": ok" : ": INCOMPATIBLE");
  return problems;
}

int usage() {
  std::fputs("usage: rknnop_board_compat --op NAME --lib ARCH FILE [--strip ARCH TOOL] [--max-stripped BYTES] ...\n",
             stderr);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string op;
  std::vector<std::pair<std::string, std::filesystem::path>> libs;
  std::map<std::string, std::string> strips;
  long long max_stripped = 0;  // a stripped board library's size budget, checked where a strip tool is given
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--op" && i + 1 < argc) {
      op = argv[++i];
    } else if (arg == "--lib" && i + 2 < argc) {
      libs.emplace_back(argv[i + 1], argv[i + 2]);
      i += 2;
    } else if (arg == "--strip" && i + 2 < argc) {
      strips[argv[i + 1]] = argv[i + 2];
      i += 2;
    } else if (arg == "--max-stripped" && i + 1 < argc) {
      max_stripped = std::atoll(argv[++i]);
    } else {
      return usage();
    }
  }
  if (op.empty() || libs.empty()) return usage();

  std::vector<std::string> problems;
  try {
    for (const auto& [arch, file] : libs) {
      const auto strip = strips.find(arch);
      const std::string tool = strip == strips.end() ? std::string() : strip->second;
      for (std::string& p : check(op, arch, file, tool, arch == "x86_64" ? 0 : max_stripped))
        problems.push_back(std::move(p));
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rknnop: %s\n", e.what());
    return 1;
  }
  for (const std::string& p : problems) std::fprintf(stderr, "rknnop: %s\n", p.c_str());
  return problems.empty() ? 0 : 1;
}

// SPDX-License-Identifier: MIT
// rknnop-pack: inspect, verify, pack and unpack the `.rknnop` container of one custom op.
// Every failure is one line "rknnop-pack: ..." and a non-zero exit status.

#include <rknnop/host/container.hpp>
#include <rknnop/host/elf.hpp>
#include <rknnop/host/cli.hpp>
#include <rknnop/host/error.hpp>
#include <rknnop/host/file_io.hpp>
#include <rknnop/host/op_yml.hpp>
#if RKNNOP_HOST_HAS_MODEL
#include "model_update.hpp"  // update / extract / wrap: the custom ops inside a .rknn model
#endif

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using namespace rknnop::host;

// Board images are Debian 10 era (docs/abi.md §1): glibc 2.28, libstdc++ of GCC 8.
constexpr std::string_view board_glibc = "GLIBC_2.28";
constexpr std::string_view board_glibcxx = "GLIBCXX_3.4.25";
constexpr std::string_view board_cxxabi = "CXXABI_1.3.11";

struct failure {
  std::string message;  // without the tool prefix
};

std::string_view text_of(const std::vector<std::uint8_t>& bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

/// The first `class X(...)` line of the .py, trimmed; empty when none.
std::string python_class_line(std::string_view py) {
  std::size_t at = 0;
  while (at < py.size()) {
    auto end = py.find('\n', at);
    if (end == std::string_view::npos) end = py.size();
    std::string_view line = py.substr(at, end - at);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.starts_with("class ")) return std::string(line);
    at = end + 1;
  }
  return {};
}

/// "ResizeArea" from "class ResizeArea(RKNNCustomOP):".
std::string python_class_name(std::string_view line) {
  line.remove_prefix(std::string_view("class ").size());
  const auto end = line.find_first_of("(: ");
  return std::string(line.substr(0, end));
}

struct library_slot {
  section_kind kind;
  std::uint16_t machine;
  int bits;
};

constexpr library_slot library_slots[] = {
    {section_kind::lib_x86_64, elf_machine::x86_64, 64},
    {section_kind::lib_aarch64, elf_machine::aarch64, 64},
    {section_kind::lib_armhf, elf_machine::arm, 32},
};

bool targets_armhf(const std::optional<op_yml>& op) {
  if (!op || !op->target_platform) return false;
  return *op->target_platform == "RV1109" || *op->target_platform == "RV1126";
}

// Long by design: prints each container section in file order.
int run_inspect(const fs::path& file, bool verify) {
  std::vector<section_location> locations;
  const container c = read_container_file(file, &locations);
  const std::string source = file.string();
  std::vector<std::string> problems;

  std::optional<op_yml> op;
  std::string yml_error;
  try {
    op = parse_op_yml(text_of(c.op_yml), source + " (op.yml section)");
  } catch (const error& e) {
    yml_error = e.detail();
    problems.push_back(e.detail());
  }

  fmt::print("{}: .rknnop version {}, {} sections\n", source, c.version, locations.size());
  for (std::size_t i = 0; i < locations.size(); ++i) {
    const section_location& loc = locations[i];
    const auto& bytes = c.section(loc.kind);
    std::string detail;
    switch (loc.kind) {
      case section_kind::shader: {
        if (bytes.empty()) {
          detail = "empty";
          if (op && op->kernel_index.value_or(0) != 0)
            problems.push_back(
                fmt::format("{}: op.yml selects kernel_index {} (a shader kernel) but the "
                            "shader section is empty",
                            source, *op->kernel_index));
        } else if (bytes.size() >= 4 && text_of(bytes).starts_with("SHDR")) {
          detail = "Vivante shader binary (SHDR)";
        } else {
          detail = "unknown data (no SHDR magic)";
          problems.push_back(fmt::format("{}: shader section does not start with \"SHDR\"", source));
        }
        break;
      }
      case section_kind::lib_x86_64:
      case section_kind::lib_aarch64:
      case section_kind::lib_armhf: {
        const library_slot* slot = nullptr;
        for (const library_slot& s : library_slots)
          if (s.kind == loc.kind) slot = &s;
        const std::string what = fmt::format("{} section", section_description(loc.kind));
        if (bytes.empty()) {
          detail = "empty";
          const bool needed = loc.kind == section_kind::lib_x86_64 ||
                              (loc.kind == section_kind::lib_aarch64 && !targets_armhf(op)) ||
                              (loc.kind == section_kind::lib_armhf && targets_armhf(op));
          if (needed)
            problems.push_back(fmt::format(
                "{}: {} is empty{}", source, what,
                loc.kind == section_kind::lib_x86_64
                    ? " (the toolkit's PC simulator needs it)"
                    : fmt::format(" but target_platform is {}",
                                  op && op->target_platform ? *op->target_platform : std::string("RK1808 (default)"))));
          break;
        }
        try {
          const elf_info info = inspect_elf(bytes, fmt::format("{} ({})", source, what));
          detail = info.summary();
          if (info.machine != slot->machine || info.bits != slot->bits)
            problems.push_back(fmt::format("{}: {} holds an {}, expected ELF{} {}", source, what, info.summary(),
                                           slot->bits, machine_name(slot->machine)));
          else if (!info.is_shared_object())
            problems.push_back(
                fmt::format("{}: {} holds an {}, expected a shared object", source, what, info.summary()));
          if (op) {
            const std::string symbol = kernel_list_symbol(op->name);
            if (info.exports_kernel_list(op->name)) {
              detail += fmt::format(", exports {}", symbol);
            } else {
              detail += fmt::format(", does NOT export {}", symbol);
              problems.push_back(fmt::format("{}: {} does not export {} (op.yml name is '{}'){}", source, what, symbol,
                                             op->name, info.find_export(symbol) ? "; it is not a data object" : ""));
            }
          }
          std::string needs;
          for (const std::string* v : {&info.max_glibc, &info.max_glibcxx, &info.max_cxxabi})
            if (!v->empty()) needs += (needs.empty() ? "" : " ") + *v;
          detail += needs.empty() ? std::string(", needs no versioned glibc/libstdc++ symbols") : ", needs " + needs;
          if (loc.kind != section_kind::lib_x86_64) {
            for (const auto& [need, limit] :
                 {std::pair{info.max_glibc, board_glibc}, std::pair{info.max_glibcxx, board_glibcxx},
                  std::pair{info.max_cxxabi, board_cxxabi}}) {
              if (!need.empty() && compare_symbol_versions(need, limit) > 0)
                problems.push_back(
                    fmt::format("{}: {} needs {} but board images provide at most {}; "
                                "build with an older toolchain or avoid the symbol",
                                source, what, need, limit));
            }
          }
        } catch (const error& e) {
          detail = "not a usable ELF";
          problems.push_back(e.detail());
        }
        break;
      }
      case section_kind::op_yml:
        if (op)
          detail = fmt::format("op {}: {} input(s), {} output(s), {} param(s), kernel_index {}", op->name,
                               op->inputs.size(), op->outputs.size(), op->params.size(),
                               op->kernel_index ? fmt::format("{}", *op->kernel_index) : std::string("absent"));
        else
          detail = "invalid";
        break;
      case section_kind::op_py: {
        const std::string line = python_class_line(text_of(bytes));
        detail = line.empty() ? std::string("no class line") : line;
        if (line.empty()) {
          problems.push_back(fmt::format("{}: .py section has no 'class ...' line", source));
        } else if (op && python_class_name(line) != op->name) {
          problems.push_back(
              fmt::format("{}: .py class is '{}' but op.yml name is '{}'", source, python_class_name(line), op->name));
        }
        break;
      }
    }
    fmt::print("  {} {:<16} offset {:>8} size {:>8}  {}\n", i + 1, section_description(loc.kind), loc.offset, loc.size,
               detail);
  }
  if (!verify) return 0;
  if (problems.empty()) {
    fmt::print("{}: verify: OK\n", source);
    return 0;
  }
  std::fflush(stdout);
  for (const std::string& p : problems) fmt::print(stderr, "rknnop-pack: verify: {}\n", p);
  return 1;
}

std::vector<std::uint8_t> read_optional(const std::string& path) {
  if (path.empty()) return {};
  return read_file(path);
}

int run_pack(std::uint64_t version, const std::string& shader, const std::string& x86, const std::string& aarch64,
             const std::string& armhf, const std::string& yml, const std::string& py, const fs::path& out) {
  if (version != 1 && version != 2) throw error(fmt::format("--version {}: expected 1 or 2", version));
  if (version == 1 && !armhf.empty())
    throw error("--armhf given with --version 1: version 1 containers have no armhf section");
  container c;
  c.version = version;
  c.shader = read_optional(shader);
  c.lib_x86_64 = read_file(x86);
  c.lib_aarch64 = read_optional(aarch64);
  c.lib_armhf = read_optional(armhf);
  c.op_yml = read_file(yml);
  c.op_py = read_file(py);
  (void)parse_op_yml(text_of(c.op_yml), yml);  // refuse to pack an op.yml the runtime cannot read
  write_container_file(c, out);
  fmt::print("{}: wrote .rknnop version {} ({} bytes)\n", out.string(), version, serialize_container(c).size());
  return 0;
}

int run_unpack(const fs::path& file, const fs::path& dir) {
  const container c = read_container_file(file);
  const op_yml op = parse_op_yml(text_of(c.op_yml), file.string() + " (op.yml section)");
  const std::string lower = op.lower_name();
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw error(fmt::format("cannot create directory '{}': {}", dir.string(), ec.message()));
  const auto put = [&](const fs::path& relative, const std::vector<std::uint8_t>& bytes) {
    const fs::path target = dir / relative;
    if (target.has_parent_path()) {
      fs::create_directories(target.parent_path(), ec);
      if (ec) throw error(fmt::format("cannot create directory '{}': {}", target.parent_path().string(), ec.message()));
    }
    write_file_atomically(target, bytes);
    fmt::print("{} ({} bytes)\n", target.string(), bytes.size());
  };
  if (!c.shader.empty()) put(fmt::format("rknn_kernel_{}.vx.bin", lower), c.shader);
  if (!c.lib_x86_64.empty()) put(fs::path("x86_64") / fmt::format("lib{}.so", lower), c.lib_x86_64);
  if (!c.lib_aarch64.empty()) put(fs::path("aarch64") / fmt::format("lib{}.so", lower), c.lib_aarch64);
  if (!c.lib_armhf.empty()) put(fs::path("armhf") / fmt::format("lib{}.so", lower), c.lib_armhf);
  put("op.yml", c.op_yml);
  put(op.op_py_file.value_or(fmt::format("rknn_op_{}.py", lower)), c.op_py);
  return 0;
}

}  // namespace

int main(int argc, char** argv) try {
  CLI::App app{"Inspect, verify, pack and unpack RKNN-Toolkit v1 custom-op containers (.rknnop)", "rknnop-pack"};
  app.require_subcommand(1);

  std::string inspect_file;
  bool verify = false;
  auto* inspect = app.add_subcommand("inspect", "Print the sections of a .rknnop; --verify checks them");
  inspect->add_option("file", inspect_file, ".rknnop file")->required();
  inspect->add_flag("--verify", verify, "Exit non-zero with the reason when something is wrong");

  std::uint64_t version = 2;
  std::string shader, x86, aarch64, armhf, yml, py, out;
  auto* pack = app.add_subcommand("pack", "Build a .rknnop from its parts");
  pack->add_option("--version", version, "Container version: 2 (toolkit >= 1.3.2) or 1")->capture_default_str();
  pack->add_option("--shader", shader, "Compiled shader binary; omitted or '' = empty section");
  pack->add_option("--x86", x86, "x86-64 kernel library (.so)")->required();
  pack->add_option("--aarch64", aarch64, "aarch64 kernel library (.so)");
  pack->add_option("--armhf", armhf, "armhf kernel library (.so), version 2 only");
  pack->add_option("--yml", yml, "op.yml")->required();
  pack->add_option("--py", py, "rknn_op_<lower>.py")->required();
  pack->add_option("-o,--output", out, "Output .rknnop")->required();

  std::string unpack_file, unpack_dir;
  auto* unpack = app.add_subcommand("unpack", "Write the sections of a .rknnop as files");
  unpack->add_option("file", unpack_file, ".rknnop file")->required();
  unpack->add_option("-d,--directory", unpack_dir, "Output directory")->required();
#if RKNNOP_HOST_HAS_MODEL
  const rknnop_pack::model_commands model_commands(app);
#endif

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string message = e.what();
    for (char& ch : message)
      if (ch == '\n') ch = ' ';
    fmt::print(stderr, "rknnop-pack: {}\n", message);
    return e.get_exit_code() == 0 ? 2 : e.get_exit_code();
  }

  try {
    if (*inspect) return run_inspect(inspect_file, verify);
    if (*pack) return run_pack(version, shader, x86, aarch64, armhf, yml, py, out);
    if (*unpack) return run_unpack(unpack_file, unpack_dir);
#if RKNNOP_HOST_HAS_MODEL
    if (model_commands.parsed()) return model_commands.run();
#endif
  } catch (const error& e) {
    std::fflush(stdout);
    fmt::print(stderr, "rknnop-pack: {}\n", e.detail());
    return 1;
  } catch (const std::exception& e) {
    std::fflush(stdout);
    fmt::print(stderr, "rknnop-pack: {}\n", e.what());
    return 1;
  }
  return 1;
} catch (...) {
  return rknnop::host::tool_failure("rknnop-pack");
}

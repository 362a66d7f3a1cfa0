// SPDX-License-Identifier: MIT
// rknnop-pack: inspect, verify, pack and unpack the `.rknnop` container of one custom op.
// Every failure is one line "rknnop-pack: ..." and a non-zero exit status.

#include "cli.hpp"  // tools/common: parse_or_exit, tool_failure, usage_error
#if RKNNOP_HOST_HAS_SESSION
#include <rknnop/host/isolation.hpp>
#endif
#include <rknnop/host/container.hpp>
#include <rknnop/host/elf.hpp>
#include <rknnop/host/error.hpp>
#include <rknnop/host/file_io.hpp>
#include <rknnop/host/op_yml.hpp>
#if RKNNOP_HOST_HAS_MODEL
#include "rknn_update.hpp"  // update / extract / wrap: the custom ops inside a .rknn model
#endif
#include <rknnop/host/validate.hpp>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>  // setenv
#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace fs = std::filesystem;
using namespace rknnop::host;
using rknnop::tools::terminal_text;  // tools/common: text from a file, escaped for the terminal

std::string_view text_of(const std::vector<std::uint8_t>& bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

// Prints each container section in file order; --verify adds every problem validate_container finds.
int run_inspect(const fs::path& file, bool verify) {
  std::vector<section_location> locations;
  const container c = read_container_file(file, &locations);
  const std::string source = file.string();
  const container_report report = validate_container(c, source);

  fmt::print("{}: .rknnop version {}, {} sections\n", terminal_text(source), c.version, locations.size());
  for (std::size_t i = 0; i < locations.size(); ++i) {
    const section_location& loc = locations[i];
    fmt::print("  {} {:<16} offset {:>8} size {:>8}  {}\n", i + 1, section_description(loc.kind), loc.offset, loc.size,
               terminal_text(report.details[static_cast<std::size_t>(loc.kind)]));
  }
  if (!verify) return 0;
  if (report.problems.empty() && report.missing_sections.empty()) {
    fmt::print("{}: verify: OK\n", terminal_text(source));
    return 0;
  }
  std::fflush(stdout);
  for (const auto* list : {&report.problems, &report.missing_sections})
    for (const std::string& p : *list) fmt::print(stderr, "rknnop-pack: verify: {}\n", terminal_text(p));
  return 1;
}

std::vector<std::uint8_t> read_optional(const std::string& path) {
  if (path.empty()) return {};
  return read_file(path);
}

int run_pack(std::uint64_t version, const std::string& shader, const std::string& x86, const std::string& aarch64,
             const std::string& armhf, const std::string& yml, const std::string& py, const fs::path& out,
             bool pc_only) {
  if (version != 1 && version != 2) throw error(fmt::format("--version {}: expected 1 or 2", version));
  if (version == 1 && !armhf.empty())
    throw error("--armhf given with --version 1: version 1 containers have no armhf section");
  check_output_path(out, "--output");  // before reading anything
  rknnop_pack::check_output_is_not_input(out.string(), {&shader, &x86, &aarch64, &armhf, &yml, &py});
  container c;
  c.version = version;
  c.shader = read_optional(shader);
  c.lib_x86_64 = read_file(x86);
  c.lib_aarch64 = read_optional(aarch64);
  c.lib_armhf = read_optional(armhf);
  c.op_yml = read_file(yml);
  c.op_py = read_file(py);
  (void)parse_op_yml(text_of(c.op_yml), yml);  // an op.yml error names the file given
  // Refuse to write what `inspect --verify` would reject: the same validation, one line per problem.
  // A missing board library too, unless the user asks for a container only the PC runs (--pc-only).
  const container_report report = validate_container(c, out.string());
  if (!report.problems.empty() || (!pc_only && !report.missing_sections.empty())) {
    for (const std::string& p : report.problems) fmt::print(stderr, "rknnop-pack: pack: {}\n", terminal_text(p));
    for (const std::string& p : report.missing_sections)
      fmt::print(stderr,
                 "rknnop-pack: pack: {} (give the board's library, or --pc-only for a container only the PC runs)\n",
                 terminal_text(p));
    return 1;
  }
  for (const std::string& p : report.missing_sections)
    fmt::print(stderr,
               "rknnop-pack: pack: warning: {}: --pc-only, so the boards cannot load it and `inspect --verify` "
               "rejects it\n",
               terminal_text(p));
  write_container_file(c, out);
  fmt::print("{}: wrote .rknnop version {} ({} bytes)\n", terminal_text(out.string()), version,
             serialize_container(c).size());
  return 0;
}

// One file unpack writes: its role in the container and its path below the output folder.
struct unpacked_file {
  std::string role;
  fs::path relative;
  const std::vector<std::uint8_t>* bytes;
};

// Refuses two sections written to one file (op_py_file: op.yml overwrote the op.yml it came from) or
// a file where another section's folder goes; and any path that is not a plain name below `dir`.
void check_unpack_targets(const std::vector<unpacked_file>& files, const fs::path& dir, const fs::path& container) {
  for (std::size_t i = 0; i < files.size(); ++i) {
    const fs::path& path = files[i].relative;
    if (path.is_absolute() || path.empty() || *path.begin() == ".." || path.lexically_normal() != path)
      throw error(fmt::format("unpack '{}': the {} path '{}' leaves the output folder '{}'", container.string(),
                              files[i].role, path.string(), dir.string()));
    for (std::size_t j = 0; j < i; ++j) {
      const fs::path& other = files[j].relative;
      const bool same = path == other;
      const bool folder = *path.begin() == *other.begin();  // one is a file where the other needs a folder
      if (same || folder)
        throw error(
            fmt::format("unpack '{}': the {} and the {} would both be written to '{}'{}; unpack writes no "
                        "file twice (op.yml's op_py_file names another section's file)",
                        container.string(), files[j].role, files[i].role,
                        (dir / (same ? path : *path.begin())).string(), same ? "" : " (a file and a folder)"));
    }
  }
}

int run_unpack(const fs::path& file, const fs::path& dir) {
  const container c = read_container_file(file);
  // op.yml's op_py_file becomes a path below `dir`: parse_op_yml accepts only a plain file name, and the
  // op name (in the other names) only a C identifier.
  const op_yml op = parse_op_yml(text_of(c.op_yml), file.string() + " (op.yml section)");
  const std::string lower = op.lower_name();
  std::vector<unpacked_file> files;
  if (!c.shader.empty()) files.push_back({"shader", fmt::format("rknn_kernel_{}.vx.bin", lower), &c.shader});
  if (!c.lib_x86_64.empty())
    files.push_back({"x86_64 library", fs::path("x86_64") / fmt::format("lib{}.so", lower), &c.lib_x86_64});
  if (!c.lib_aarch64.empty())
    files.push_back({"aarch64 library", fs::path("aarch64") / fmt::format("lib{}.so", lower), &c.lib_aarch64});
  if (!c.lib_armhf.empty())
    files.push_back({"armhf library", fs::path("armhf") / fmt::format("lib{}.so", lower), &c.lib_armhf});
  files.push_back({"op.yml", "op.yml", &c.op_yml});
  files.push_back({"Python op (op_py_file)", op.op_py_file.value_or(fmt::format("rknn_op_{}.py", lower)), &c.op_py});
  check_unpack_targets(files, dir, file);
  // What this unpack made (folders, then files), removed again when it fails: a failed unpack leaves
  // nothing behind (before, an empty folder).
  std::vector<fs::path> made;
  bool done = false;
  struct undo {
    std::vector<fs::path>& made;
    bool& done;
    ~undo() {
      if (done) return;
      std::error_code ignored;
      for (auto it = made.rbegin(); it != made.rend(); ++it) fs::remove(*it, ignored);  // a folder only if empty
    }
  } cleanup{made, done};
  const auto make_folder = [&made](const fs::path& folder) {
    std::vector<fs::path> missing;
    for (fs::path at = folder; !at.empty() && !fs::exists(fs::symlink_status(at)); at = at.parent_path()) {
      missing.push_back(at);
      if (at == at.parent_path()) break;
    }
    std::error_code ec;
    fs::create_directories(folder, ec);
    if (ec) throw error(fmt::format("cannot create directory '{}': {}", folder.string(), ec.message()));
    made.insert(made.end(), missing.rbegin(), missing.rend());
  };
  make_folder(dir);
  std::error_code ec;
  // Every target is checked before the first is written (no half-unpacked folder because the
  // fourth path was a FIFO); a section's folder must be a folder of `dir`, not a link.
  const fs::path real_dir = fs::canonical(dir, ec);
  for (const unpacked_file& f : files) {
    const fs::path target = dir / f.relative;
    if (f.relative.has_parent_path()) {
      make_folder(target.parent_path());
      const fs::path real = fs::canonical(target.parent_path(), ec);
      const bool inside = !ec && real.parent_path() == real_dir;
      if (fs::is_symlink(target.parent_path()) || !inside)
        throw error(fmt::format(
            "unpack '{}': '{}' is a symbolic link {}, not a folder of it", file.string(), target.parent_path().string(),
            !ec && std::mismatch(real_dir.begin(), real_dir.end(), real.begin(), real.end()).first == real_dir.end()
                ? fmt::format("to '{}' (inside the output folder)", real.string())
                : std::string("out of the output folder")));
    }
    check_output_path(target, fmt::format("unpack '{}'", target.string()));
  }
  for (const unpacked_file& f : files) {
    const fs::path target = dir / f.relative;
    const bool existed = fs::exists(fs::symlink_status(target));
    write_file_atomically(target, *f.bytes);
    if (!existed) made.push_back(target);
  }
  done = true;
  for (const unpacked_file& f : files)
    fmt::print("{} ({} bytes)\n", terminal_text((dir / f.relative).string()), f.bytes->size());
  return 0;
}

}  // namespace

int main(int argc, char** argv) try {
  rknnop::host::install_interrupt_cleanup();  // SIGINT/SIGTERM remove the temporary files of writes
  // `wrap` and `update` run the op: its messages reach the user once, in this tool's error line
  // (docs/first-op.md §9), as in rknnop-run. A user's RKNNOP_LOG wins.
  setenv("RKNNOP_LOG", "off", 0);
#if RKNNOP_HOST_HAS_SESSION
  // update/wrap run the op's code in rknnop-node, not here (isolation.hpp).
  rknnop::host::set_default_node_execution(rknnop::host::node_execution::child);
#endif
  CLI::App app{"Inspect, verify, pack and unpack RKNN-Toolkit v1 custom-op containers (.rknnop)", "rknnop-pack"};
  app.require_subcommand(1);
  rknnop::tools::add_memory_limit_option(app);

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
  bool pc_only = false;
  pack->add_flag("--pc-only", pc_only,
                 "Write it without the board library target_platform needs (only the PC runs it; --verify rejects it)");

  std::string unpack_file, unpack_dir;
  auto* unpack = app.add_subcommand("unpack", "Write the sections of a .rknnop as files");
  unpack->add_option("file", unpack_file, ".rknnop file")->required();
  unpack->add_option("-d,--directory", unpack_dir, "Output directory")->required();
#if RKNNOP_HOST_HAS_MODEL
  const rknnop_pack::model_commands model_commands(app);
#endif

  if (const auto status = rknnop::tools::parse_or_exit(app, argc, argv)) return *status;

  if (*inspect) return run_inspect(inspect_file, verify);
  if (*pack) return run_pack(version, shader, x86, aarch64, armhf, yml, py, out, pc_only);
  if (*unpack) return run_unpack(unpack_file, unpack_dir);
#if RKNNOP_HOST_HAS_MODEL
  if (model_commands.parsed()) return model_commands.run();
#endif
  return rknnop::tools::exit_failure;
} catch (...) {
  return rknnop::tools::tool_failure("rknnop-pack");
}

// SPDX-License-Identifier: MIT
// The flagship example through the emitter: its op.yml, its Python class, and the generator
// program's command line, called as the generated main calls it: run_emitter with
// rknnop_schema_ResizeArea(), which RKNNOP_EXPORT_OP defines under RKNNOP_EMITTER.
// The only translation unit of emit_tests that includes the example (it exports a symbol).

#include "resize_area/resize_area.cpp"

#include <rknnop/container_format.hpp>
#include <rknnop/emit.hpp>
#include <rknnop/files.hpp>

#include "emit_test_util.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#if RKNNOP_EMIT_TEST_HAS_HOST
#include <rknnop/host/container.hpp>
#include <rknnop/host/op_yml.hpp>
#endif

#ifndef RKNNOP_EMITTER
#error "this test is compiled with RKNNOP_EMITTER"
#endif

namespace {

namespace fs = std::filesystem;
namespace format = rknnop::container_format;
using emit_test::count_of;
using emit_test::entries_of;
using emit_test::keys_of;

struct run_result {
  int code = -1;
  std::string out, err;
};

run_result run(std::initializer_list<std::string> args) {
  std::vector<std::string> storage{"rknnop-emit-ResizeArea"};
  storage.insert(storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : storage) argv.push_back(a.data());
  argv.push_back(nullptr);
  run_result r;
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  r.code = rknnop::run_emitter(rknnop_schema_ResizeArea(), static_cast<int>(storage.size()), argv.data());
  r.err = testing::internal::GetCapturedStderr();
  r.out = testing::internal::GetCapturedStdout();
  return r;
}

std::string read_text(const fs::path& path) {
  std::vector<std::uint8_t> bytes;
  const auto r = format::read_file(path, bytes);
  EXPECT_TRUE(r) << r.error;
  return {bytes.begin(), bytes.end()};
}

void write_bytes(const fs::path& path, const std::vector<std::uint8_t>& bytes) {
  const auto r = format::write_file_atomically(path, bytes);
  ASSERT_TRUE(r) << r.error;
}

// The first 20 bytes of an ELF header are all the emitter looks at (class, data, machine).
std::vector<std::uint8_t> fake_elf(std::uint8_t elf_class, std::uint16_t machine, std::string_view tag) {
  // Sized once: GCC 12 at -O2 misreports vector::insert after a fixed-size constructor (array-bounds).
  std::vector<std::uint8_t> b(64 + tag.size(), 0);
  b[0] = 0x7F, b[1] = 'E', b[2] = 'L', b[3] = 'F', b[4] = elf_class, b[5] = 1, b[6] = 1, b[16] = 3;
  b[18] = static_cast<std::uint8_t>(machine & 0xFF);
  b[19] = static_cast<std::uint8_t>(machine >> 8);
  for (std::size_t i = 0; i < tag.size(); ++i) b[64 + i] = static_cast<std::uint8_t>(tag[i]);
  return b;
}

// Library sections for the three architectures and a shader, as files in `dir`.
struct parts {
  fs::path shader, x86, aarch64, armhf;
  std::vector<std::uint8_t> shader_bytes{'S', 'H', 'D', 'R', 1, 2, 3};
  std::vector<std::uint8_t> x86_bytes = fake_elf(2, 62, "x86");
  std::vector<std::uint8_t> aarch64_bytes = fake_elf(2, 183, "aarch64");
  std::vector<std::uint8_t> armhf_bytes = fake_elf(1, 40, "armhf");

  explicit parts(const fs::path& dir)
      : shader(dir / "resizearea.vx.bin"), x86(dir / "x86.so"), aarch64(dir / "aarch64.so"), armhf(dir / "armhf.so") {
    write_bytes(shader, shader_bytes);
    write_bytes(x86, x86_bytes);
    write_bytes(aarch64, aarch64_bytes);
    write_bytes(armhf, armhf_bytes);
  }
};

std::size_t entries_in(const fs::path& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++n;
  return n;
}

TEST(EmitResizeArea, OpYmlHasTheToolkitKeys) {
  const std::string text = rknnop::emit_op_yml<ResizeArea>();
  const YAML::Node yml = YAML::Load(text);
  EXPECT_EQ(keys_of(yml), emit_test::toolkit_key_order);
  EXPECT_EQ(yml["name"].as<std::string>(), "ResizeArea");
  EXPECT_EQ(yml["framework"].as<std::string>(), "tensorflow");
  EXPECT_EQ(yml["target_platform"].as<std::string>(), "RK1808");
  using entries = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(entries_of(yml["inputs"]), (entries{{"images", "VX_TYPE_TENSOR"}}));
  EXPECT_EQ(entries_of(yml["outputs"]), (entries{{"output", "VX_TYPE_TENSOR"}}));
  EXPECT_EQ(entries_of(yml["params"]), (entries{{"size", "VX_TYPE_ARRAY"}, {"align_corners", "VX_TYPE_BOOL"}}));
  EXPECT_EQ(yml["op_version"].as<int>(), 2);
  EXPECT_EQ(yml["out_binary"].as<std::string>(), "ResizeArea.rknnop");
  EXPECT_EQ(yml["op_py_file"].as<std::string>(), "rknn_op_resizearea.py");
  EXPECT_EQ(yml["vx_file"].as<std::string>(), "rknn_kernel_resizearea.vx");
  EXPECT_EQ(yml["kernel_index"].as<int>(), 0);
}

// The fingerprint in op.yml is the one the library carries after its descriptor names' NUL.
TEST(EmitResizeArea, SchemaCommentMatchesTheLibrary) {
  for (std::size_t k = 0; k < 2; ++k) {
    const vx_kernel_description_t* d = vx_kernel_ResizeArea_list.entries[k];
    ASSERT_NE(d, nullptr);
    const char* after_nul = d->name + std::strlen(d->name) + 1;
    const std::string stored(after_nul, std::strlen("rknnop-schema:") + 16);
    EXPECT_EQ(stored, fmt::format("rknnop-schema:{:016x}", rknnop::detail::op_model<ResizeArea>::fingerprint));
    EXPECT_EQ(count_of(rknnop::emit_op_yml<ResizeArea>(), "# rknnop-schema: " + stored.substr(14) + "\n"), 1u);
  }
}

TEST(EmitResizeArea, PythonUsesTheStructsPythonMembers) {
  const std::string py = rknnop::emit_python<ResizeArea>();
  EXPECT_NE(py.find("\nclass ResizeArea(RKNNCustomOP):\n"), std::string::npos);
  EXPECT_NE(py.find("p['size'] = _rknnop_array(self.op, node_def, consts, 'size', exactly=2)\n"), std::string::npos);
  EXPECT_NE(py.find("p['align_corners'] = _rknnop_scalar(self.op, node_def, consts, 'align_corners', bool)"),
            std::string::npos);
  EXPECT_NE(py.find("            " + std::string(ResizeArea::python_output_shape) + "\n"), std::string::npos) << py;
  EXPECT_NE(py.find("            " + std::string(ResizeArea::python_compute) + "\n"), std::string::npos) << py;
  EXPECT_EQ(py.find("NotImplementedError"), std::string::npos);
  EXPECT_EQ(count_of(py, "params = self._rknnop_typed_params(params)\n"), 2u);
}

TEST(EmitMain, WritesYmlAndPy) {
  const auto dir = emit_test::work_dir("yml_py");
  const auto r = run({"--yml", (dir / "op.yml").string(), "--py=" + (dir / "rknn_op_resizearea.py").string(),
                      "--target-platform", "RV1126"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out, "");  // quiet on success, as a build step should be
  EXPECT_EQ(read_text(dir / "op.yml"), rknnop::emit_op_yml<ResizeArea>({.target_platform = "RV1126"}));
  EXPECT_EQ(read_text(dir / "rknn_op_resizearea.py"), rknnop::emit_python<ResizeArea>());
  EXPECT_EQ(entries_in(dir), 2u);  // no temporary files left behind
}

TEST(EmitMain, WritesToolkit2Class) {
  const auto dir = emit_test::work_dir("toolkit2_py");
  const auto py = dir / rknnop::toolkit2_python_file_name("ResizeArea");
  const auto r = run({"--toolkit2-py", py.string()});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(read_text(py), rknnop::emit_toolkit2_python<ResizeArea>());
  EXPECT_EQ(entries_in(dir), 1u);
  const auto missing = run({"--toolkit2-py"});
  EXPECT_EQ(missing.code, 2);
  EXPECT_NE(missing.err.find("rknnop: ResizeArea: --toolkit2-py needs a file name"), std::string::npos) << missing.err;
}

TEST(EmitMain, Describe) {
  const auto r = run({"--describe", "--kernel-index", "1"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, rknnop::emit_description<ResizeArea>({.kernel_index = 1}));
  EXPECT_NE(r.out.find("   2  param   size           VX_TYPE_ARRAY    int32[2]\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("   3  param   align_corners  VX_TYPE_BOOL     scalar\n"), std::string::npos) << r.out;
}

TEST(EmitMain, PackRoundTrip) {
  const auto dir = emit_test::work_dir("pack");
  const parts p(dir);
  const fs::path out = dir / "ResizeArea.rknnop";
  const auto r = run({"--pack", out.string(), "--shader", p.shader.string(), "--x86", p.x86.string(), "--aarch64",
                      p.aarch64.string(), "--armhf", p.armhf.string(), "--kernel-index", "1"});
  ASSERT_EQ(r.code, 0) << r.err;
  std::vector<std::uint8_t> file;
  ASSERT_TRUE(format::read_file(out, file));
  const format::parsed parsed = format::parse(file);
  ASSERT_TRUE(parsed) << format::message(parsed, out.string());
  EXPECT_EQ(parsed.version, 2u);
  const auto bytes = [&](format::section s) {
    const auto v = parsed.bytes_of(file, s);
    return std::vector<std::uint8_t>(v.begin(), v.end());
  };
  EXPECT_EQ(bytes(format::section::shader), p.shader_bytes);
  EXPECT_EQ(bytes(format::section::lib_x86_64), p.x86_bytes);
  EXPECT_EQ(bytes(format::section::lib_aarch64), p.aarch64_bytes);
  EXPECT_EQ(bytes(format::section::lib_armhf), p.armhf_bytes);
  const std::string yml = rknnop::emit_op_yml<ResizeArea>({.kernel_index = 1});
  const std::string py = rknnop::emit_python<ResizeArea>();
  EXPECT_EQ(bytes(format::section::op_yml), std::vector<std::uint8_t>(yml.begin(), yml.end()));
  EXPECT_EQ(bytes(format::section::op_py), std::vector<std::uint8_t>(py.begin(), py.end()));

  // Byte-exact against an independent serialization of the same parts.
  format::contents c;
  c[format::section::shader] = p.shader_bytes;
  c[format::section::lib_x86_64] = p.x86_bytes;
  c[format::section::lib_aarch64] = p.aarch64_bytes;
  c[format::section::lib_armhf] = p.armhf_bytes;
  c[format::section::op_yml] = format::bytes_view(reinterpret_cast<const std::uint8_t*>(yml.data()), yml.size());
  c[format::section::op_py] = format::bytes_view(reinterpret_cast<const std::uint8_t*>(py.data()), py.size());
  EXPECT_EQ(file, format::serialize(c));

#if RKNNOP_EMIT_TEST_HAS_HOST
  // And through rknnop::host's reader, with its own op.yml parser on the op.yml section.
  const rknnop::host::container host = rknnop::host::read_container_file(out);
  EXPECT_EQ(host.lib_armhf, p.armhf_bytes);
  const auto op = rknnop::host::parse_op_yml(std::string(host.op_yml.begin(), host.op_yml.end()), "section");
  EXPECT_EQ(op.name, "ResizeArea");
  EXPECT_EQ(op.kernel_index, 1u);
  // The loader compares this with the library's descriptor names.
  EXPECT_EQ(op.schema_fingerprint, fmt::format("{:016x}", rknnop::detail::op_model<ResizeArea>::fingerprint));
#endif
}

TEST(EmitMain, PackVersion1AndEmptySections) {
  const auto dir = emit_test::work_dir("pack_v1");
  const parts p(dir);
  const fs::path out = dir / "v1.rknnop";
  const auto r = run({"--pack", out.string(), "--x86", p.x86.string(), "--version", "1"});
  ASSERT_EQ(r.code, 0) << r.err;
  std::vector<std::uint8_t> file;
  ASSERT_TRUE(format::read_file(out, file));
  const format::parsed parsed = format::parse(file);
  ASSERT_TRUE(parsed);
  EXPECT_EQ(parsed.version, 1u);
  EXPECT_EQ(parsed.sections().size(), 5u);
  EXPECT_EQ(parsed.bytes_of(file, format::section::shader).size(), 0u);
  EXPECT_EQ(parsed.bytes_of(file, format::section::lib_aarch64).size(), 0u);
}

TEST(EmitMain, PackWithUsersPythonFile) {
  const auto dir = emit_test::work_dir("pack_py");
  const parts p(dir);
  const std::string own = "class ResizeArea(RKNNCustomOP):\n    op = 'ResizeArea'\n";
  write_bytes(dir / "mine.py", {own.begin(), own.end()});
  const auto r = run({"--pack", (dir / "o.rknnop").string(), "--x86", p.x86.string(), "--py-file",
                      (dir / "mine.py").string(), "--py", (dir / "copy.py").string()});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read_text(dir / "copy.py"), own);
  std::vector<std::uint8_t> file;
  ASSERT_TRUE(format::read_file(dir / "o.rknnop", file));
  const auto py = format::parse(file).bytes_of(file, format::section::op_py);
  EXPECT_EQ(std::string(py.begin(), py.end()), own);
}

// Every failure: exit status, exactly one "rknnop: ResizeArea: " line naming the problem, no output.
void expect_failure(const run_result& r, int code, std::string_view fragment) {
  EXPECT_EQ(r.code, code);
  EXPECT_TRUE(r.err.starts_with("rknnop: ResizeArea: ")) << r.err;
  EXPECT_EQ(count_of(r.err, "\n"), 1u) << r.err;
  EXPECT_NE(r.err.find(fragment), std::string::npos) << "missing \"" << fragment << "\" in: " << r.err;
}

TEST(EmitMain, MissingInputFileNamesIt) {
  const auto dir = emit_test::work_dir("missing");
  const parts p(dir);
  const fs::path out = dir / "x.rknnop";
  const std::string missing = (dir / "nope" / "libresizearea.so").string();
  const auto r = run({"--pack", out.string(), "--x86", p.x86.string(), "--aarch64", missing});
  expect_failure(r, 1, fmt::format("cannot open '{}': ", missing));
  EXPECT_FALSE(fs::exists(out));
}

TEST(EmitMain, RefusesWrongParts) {
  const auto dir = emit_test::work_dir("wrong");
  const parts p(dir);
  const std::string out = (dir / "x.rknnop").string();
  expect_failure(run({"--pack", out, "--x86", p.x86.string(), "--aarch64", p.armhf.string()}), 1,
                 "is an ELF32 file for machine 40, but the aarch64 library section needs ELF64 aarch64");
  expect_failure(run({"--pack", out, "--x86", p.shader.string()}), 1, "(x86-64 library) is not an ELF file");
  expect_failure(run({"--pack", out, "--shader", p.x86.string()}), 1,
                 "is not a compiled Vivante shader (no SHDR magic)");
  expect_failure(run({"--pack", out, "--armhf", p.armhf.string(), "--version", "1"}), 1,
                 "--armhf given with --version 1");
  expect_failure(run({"--pack", out, "--x86", p.x86.string(), "--kernel-index", "1"}), 1,
                 "kernel_index 1 selects the VX kernel, whose shader binary comes from --shader");
  expect_failure(run({"--pack", out, "--py-file", p.x86.string()}), 1, "has no line 'class ResizeArea(...)'");
  expect_failure(run({"--yml", out, "--target-platform", "RK3588"}), 1, "unknown target_platform 'RK3588'");
  expect_failure(run({"--yml", out, "--kernel-index", "2"}), 1, "kernel_index 2 does not exist");
  EXPECT_EQ(entries_in(dir), 4u);  // the parts only
}

// The emitter's outputs have the tools' rules (<rknnop/files.hpp>): what is not a regular file is
// refused before anything is read or written, with one line naming the option, the path and what it is.
TEST(EmitMain, RefusesOutputsThatAreNotRegularFiles) {
  const auto dir = emit_test::work_dir("outputs_refused");
  const parts p(dir);
  const fs::path fifo = dir / "fifo.yml";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const fs::path target = dir / "target.yml";
  write_bytes(target, {'k', 'e', 'e', 'p'});
  const fs::path link = dir / "link.yml";
  fs::create_symlink(target, link);
  const fs::path yml = dir / "fresh.yml";
  expect_failure(run({"--yml", fifo.string()}), 1,
                 fmt::format("--yml: '{}' is a FIFO (named pipe); rknnop writes an output by replacing a regular "
                             "file and will not replace a FIFO (named pipe)",
                             fifo.string()));
  expect_failure(run({"--yml", yml.string(), "--py", link.string()}), 1,
                 fmt::format("--py: '{}' is a symbolic link to '{}'; rknnop replaces an output file as a whole and "
                             "does not write through links: name the file itself",
                             link.string(), target.string()));
  expect_failure(run({"--yml", yml.string(), "--pack", dir.string(), "--x86", p.x86.string()}), 1,
                 fmt::format("--pack: '{}' is a directory; rknnop writes an output by replacing a regular file and "
                             "will not replace a directory",
                             dir.string()));
  EXPECT_FALSE(fs::exists(yml)) << "an output was written before every output was checked";
  // A device: one made here when the test may (root), else /dev/null, which is only checked (a
  // regressed emitter run as root would replace a device it writes to).
  fs::path device = dir / "null";
  if (::mknod(device.c_str(), S_IFCHR | 0666, ::makedev(1, 3)) == 0)
    expect_failure(run({"--yml", device.string()}), 1,
                   fmt::format("--yml: '{}' is a character device; rknnop writes an output by replacing a regular "
                               "file and will not replace a character device",
                               device.string()));
  else
    device = "/dev/null";
  const auto checked = rknnop::files::check_output_path(device, "--yml");
  EXPECT_EQ(checked.error, fmt::format("--yml: '{}' is a character device; rknnop writes an output by replacing a "
                                       "regular file and will not replace a character device",
                                       device.string()));
  struct stat st {};
  ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(read_text(target), "keep");
  for (const auto& e : fs::directory_iterator(dir))
    EXPECT_EQ(e.path().filename().string().find(".tmp."), std::string::npos) << e.path();
}

// Inputs of the emitter (--x86, --py-file, ...) are regular files: a FIFO is not waited on.
TEST(EmitMain, RefusesInputsThatAreNotRegularFiles) {
  const auto dir = emit_test::work_dir("inputs_refused");
  const fs::path fifo = dir / "fifo.py";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const fs::path out = dir / "o.rknnop";
  expect_failure(
      run({"--pack", out.string(), "--py-file", fifo.string()}), 1,
      fmt::format("'{}' is a FIFO (named pipe), not a regular file; rknnop reads regular files only", fifo.string()));
  expect_failure(run({"--pack", out.string(), "--x86", "/dev/zero"}), 1,
                 "'/dev/zero' is a character device, not a regular file; rknnop reads regular files only");
  EXPECT_FALSE(fs::exists(out));
}

// Replacing an output keeps its permission bits (0600 stays 0600), as `cp` onto a file does; a new
// output gets 0666 & ~umask.
TEST(EmitMain, ReplacedOutputsKeepTheirMode) {
  const auto dir = emit_test::work_dir("outputs_mode");
  const fs::path yml = dir / "op.yml";
  const fs::path py = dir / "op.py";
  write_bytes(yml, {'o', 'l', 'd'});
  ASSERT_EQ(::chmod(yml.c_str(), 0600), 0);
  const mode_t mask = ::umask(022);
  const auto r = run({"--yml", yml.string(), "--py", py.string()});
  ::umask(mask);
  ASSERT_EQ(r.code, 0) << r.err;
  struct stat st {};
  ASSERT_EQ(::stat(yml.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
  EXPECT_EQ(read_text(yml), rknnop::emit_op_yml<ResizeArea>({}));
  ASSERT_EQ(::stat(py.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0644u);  // new: 0666 & ~022
  ASSERT_EQ(::chmod(py.c_str(), 0751), 0);
  ASSERT_EQ(run({"--py", py.string()}).code, 0);
  ASSERT_EQ(::stat(py.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0751u);
  EXPECT_EQ(entries_in(dir), 2u);
}

// Output names up to NAME_MAX (255 bytes) are written: the temporary name beside them is cut to fit.
TEST(EmitMain, OutputNamesUpToNameMax) {
  const auto dir = emit_test::work_dir("outputs_long");
  for (const std::size_t length : {233u, 234u, 254u, 255u}) {
    const fs::path yml = dir / (std::string(length - 4, 'y') + ".yml");
    const auto r = run({"--yml", yml.string()});
    EXPECT_EQ(r.code, 0) << length << ": " << r.err;
    EXPECT_EQ(read_text(yml), rknnop::emit_op_yml<ResizeArea>({})) << length;
  }
  EXPECT_EQ(entries_in(dir), 4u);  // no temporary left
  const fs::path too_long = dir / (std::string(252, 'y') + ".yml");
  expect_failure(run({"--yml", too_long.string()}), 1,
                 fmt::format("--yml: cannot examine '{}': File name too long", too_long.string()));
}

// SIGINT while the emitter writes its container: the temporary file is removed and the process dies
// of the signal, as it would without rknnop (run_emitter installs the cleanup). A 64 MiB library
// makes the write (and its fsync) long enough to be interrupted.
TEST(EmitMain, InterruptedWriteLeavesNothing) {
  const auto dir = emit_test::work_dir("outputs_signal");
  std::vector<std::uint8_t> big = fake_elf(2, 62, "x86");
  big.resize(std::size_t{64} << 20, 0x5A);
  write_bytes(dir / "big.so", big);
  big = {};
  const fs::path out = dir / "o.rknnop";
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    const auto r = run({"--pack", out.string(), "--x86", (dir / "big.so").string()});
    std::_Exit(r.code == 0 ? 0 : 3);
  }
  // Wait for the temporary file to appear, then interrupt.
  bool seen = false;
  for (int i = 0; i < 20000 && !seen; ++i) {
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().filename().string().starts_with(".o.rknnop.tmp.")) seen = true;
    if (!seen) ::usleep(500);
  }
  ASSERT_TRUE(seen) << "no temporary file appeared in 10 s";
  ASSERT_EQ(::kill(child, SIGINT), 0);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) GTEST_SKIP() << "the write finished before the signal arrived";
  ASSERT_TRUE(WIFSIGNALED(status)) << "exit status " << status;
  EXPECT_EQ(WTERMSIG(status), SIGINT);
  EXPECT_FALSE(fs::exists(out));
  for (const auto& e : fs::directory_iterator(dir))
    EXPECT_EQ(e.path().filename().string().find(".tmp."), std::string::npos) << e.path() << " was left behind";
  fs::remove_all(dir);
}

// TOOLKIT_RKNNOP: the shader section of the toolkit's own container, through the one reader.
TEST(EmitMain, PacksTheShaderOfAToolkitContainer) {
  const auto dir = emit_test::work_dir("toolkit_rknnop");
  const parts p(dir);
  format::contents theirs;
  theirs[format::section::shader] = p.shader_bytes;
  theirs[format::section::lib_x86_64] = p.x86_bytes;
  write_bytes(dir / "Theirs.rknnop", format::serialize(theirs));
  const fs::path out = dir / "ours.rknnop";
  const auto r = run({"--pack", out.string(), "--toolkit-rknnop", (dir / "Theirs.rknnop").string(), "--kernel-index",
                      "1", "--x86", p.x86.string()});
  ASSERT_EQ(r.code, 0) << r.err;
  std::vector<std::uint8_t> file;
  ASSERT_TRUE(format::read_file(out, file));
  const auto shader = format::parse(file).bytes_of(file, format::section::shader);
  EXPECT_EQ(std::vector<std::uint8_t>(shader.begin(), shader.end()), p.shader_bytes);
}

TEST(EmitMain, RefusesABadToolkitContainer) {
  const auto dir = emit_test::work_dir("toolkit_rknnop_bad");
  const parts p(dir);
  const std::string out = (dir / "x.rknnop").string();
  const auto write_container = [&](std::string_view name, const std::vector<std::uint8_t>& shader) {
    format::contents c;
    c[format::section::shader] = shader;
    write_bytes(dir / name, format::serialize(c));
    return (dir / name).string();
  };
  const std::string cpu_only = write_container("cpu_only.rknnop", {});
  const std::string source = write_container("source.rknnop", {'_', '_', 'k', 'e', 'r', 'n', 'e', 'l'});
  expect_failure(
      run({"--pack", out, "--toolkit-rknnop", p.x86.string()}), 1,
      fmt::format("'{}' (--toolkit-rknnop): not a .rknnop container: bad magic at offset 0", p.x86.string()));
  expect_failure(run({"--pack", out, "--toolkit-rknnop", cpu_only}), 1, "shader section is empty (a CPU-only op");
  expect_failure(run({"--pack", out, "--toolkit-rknnop", source}), 1,
                 "shader section is not a compiled Vivante shader (it does not start with \"SHDR\")");
  expect_failure(run({"--pack", out, "--toolkit-rknnop", (dir / "none.rknnop").string()}), 1, "cannot open '");
  expect_failure(run({"--pack", out, "--shader", p.shader.string(), "--toolkit-rknnop", cpu_only}), 2,
                 "give --shader or --toolkit-rknnop, not both");
  expect_failure(run({"--yml", out, "--toolkit-rknnop", cpu_only}), 2, "--toolkit-rknnop only applies to --pack");
  EXPECT_FALSE(fs::exists(out));
  EXPECT_EQ(entries_in(dir), 6u);  // the parts and the two containers only
}

// The toolkit's own ResizeArea.rknnop (RKNNOP_TOOLKIT_SAMPLES, the folder of RKNN-Toolkit's
// custom-op samples): its shader section is reused as is.
TEST(EmitMain, PacksTheToolkitSampleShader) {
  const char* samples = std::getenv("RKNNOP_TOOLKIT_SAMPLES");
  if (samples == nullptr || *samples == '\0') GTEST_SKIP() << "RKNNOP_TOOLKIT_SAMPLES is not set";
  const fs::path sample = fs::path(samples) / "rknn_custom_op_resize" / "resize_area" / "ResizeArea.rknnop";
  if (!fs::is_regular_file(sample)) GTEST_SKIP() << sample.string() << " is missing";
  std::vector<std::uint8_t> theirs;
  ASSERT_TRUE(format::read_file(sample, theirs));
  const auto dir = emit_test::work_dir("toolkit_sample");
  const fs::path out = dir / "ResizeArea.rknnop";
  const auto r = run({"--pack", out.string(), "--toolkit-rknnop", sample.string(), "--kernel-index", "1"});
  ASSERT_EQ(r.code, 0) << r.err;
  std::vector<std::uint8_t> ours;
  ASSERT_TRUE(format::read_file(out, ours));
  const auto expected = format::parse(theirs).bytes_of(theirs, format::section::shader);
  const auto got = format::parse(ours).bytes_of(ours, format::section::shader);
  ASSERT_GE(got.size(), 4u);
  EXPECT_TRUE(format::starts_with(got, format::shader_magic));
  EXPECT_TRUE(std::equal(got.begin(), got.end(), expected.begin(), expected.end()));
}

TEST(EmitMain, UsageErrors) {
  expect_failure(run({}), 2, "nothing to do");
  expect_failure(run({"--bogus"}), 2, "unknown option '--bogus'");
  expect_failure(run({"--yml"}), 2, "--yml needs a file name");
  expect_failure(run({"--yml", "a", "--yml", "b"}), 2, "--yml given twice");
  expect_failure(run({"--kernel-index", "one", "--yml", "a"}), 2, "--kernel-index needs a number, got 'one'");
  expect_failure(run({"--version", "3", "--pack", "a"}), 2, "--version 3");
  expect_failure(run({"--x86", "lib.so", "--yml", "a"}), 2, "--x86 only applies to --pack");
  const auto help = run({"--help"});
  EXPECT_EQ(help.code, 0);
  EXPECT_NE(help.out.find("usage:"), std::string::npos);
}

}  // namespace

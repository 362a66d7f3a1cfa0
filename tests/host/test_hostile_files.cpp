// SPDX-License-Identifier: MIT
// Hostile and broken files never hurt the user (issue 22): names from a file's content stay plain
// file names, outputs never replace what is not a regular file, reads are bounded, a corrupt library
// cannot crash the tool or leave files behind, interrupted runs leave nothing, one validation for
// run, --verify and pack, and the messages say what is wrong. Every hostile input is made here from
// the ResizeArea example's container built in the tree.
#include "test_util.hpp"
#include "tool_runner.hpp"

#include <rknnop/host/container.hpp>
#include <rknnop/host/file_io.hpp>
#include <rknnop/host/loader.hpp>
#include <rknnop/host/npy.hpp>
#include <rknnop/host/op_yml.hpp>
#include <rknnop/host/validate.hpp>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <iostream>
#include <optional>
#include <fstream>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace {

namespace fs = std::filesystem;
using namespace rknnop::host;
using rknnop_test::line_count;
using rknnop_test::run_tool;
using rknnop_test::work_dir;

const fs::path resize_area = RKNNOP_TEST_RESIZEAREA_RKNNOP;

std::string text_of(const std::vector<std::uint8_t>& bytes) { return {bytes.begin(), bytes.end()}; }
std::vector<std::uint8_t> bytes_of(std::string_view text) { return {text.begin(), text.end()}; }

// The container with `from` replaced by `to` in its op.yml section (which must hold `from`).
container with_yml(container c, std::string_view from, std::string_view to) {
  std::string yml = text_of(c.op_yml);
  const auto at = yml.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) yml.replace(at, from.size(), to);
  c.op_yml = bytes_of(yml);
  return c;
}

fs::path save(const container& c, const fs::path& path) {
  const std::vector<std::uint8_t> bytes = serialize_container(c);
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  return path;
}

void write_bytes(const fs::path& path, std::string_view bytes) {
  std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::vector<std::string> files_in(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    names.push_back(e.path().lexically_relative(dir).string());
  return names;
}

std::size_t open_descriptors() {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator("/proc/self/fd")) ++n;
  return n;
}

// Sets an environment variable for one scope.
class scoped_env {
public:
  scoped_env(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value.c_str(), 1);
  }
  ~scoped_env() {
    if (old_)
      ::setenv(name_, old_->c_str(), 1);
    else
      ::unsetenv(name_);
  }
  scoped_env(const scoped_env&) = delete;
  scoped_env& operator=(const scoped_env&) = delete;

private:
  const char* name_;
  std::optional<std::string> old_;
};

// Deterministic mutations: splitmix64 (the seed's stream), 1-8 bytes changed.
struct splitmix64 {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
};

// The end of the file bytes an ELF64's PT_LOAD segments cover: what ld.so reads and maps (the
// tree's RelWithDebInfo library is mostly debug sections, which no loader reads).
std::size_t loaded_extent(const std::vector<std::uint8_t>& elf) {
  const auto u64 = [&](std::size_t at) {
    std::uint64_t v = 0;
    for (std::size_t k = 0; k < 8; ++k) v |= std::uint64_t{elf.at(at + k)} << (8 * k);
    return v;
  };
  const std::size_t phoff = u64(32);
  const std::size_t phnum = elf.at(56) | (std::size_t{elf.at(57)} << 8);
  std::size_t end = 0;
  for (std::size_t i = 0; i < phnum; ++i) {
    const std::size_t at = phoff + 56 * i;
    if (elf.at(at) == 1 && elf.at(at + 1) == 0) end = std::max<std::size_t>(end, u64(at + 8) + u64(at + 32));
  }
  return std::min(end, elf.size());
}

bool has_vx_option() {
  const fs::path scratch = work_dir("hostile_help");
  return run_tool(RKNNOP_RUN_EXE, {"--help"}, scratch).out.find("--vx") != std::string::npos;
}

// --- 1. names from a file's content are plain file names ---------------------------------------

TEST(HostileNames, OpYmlFileNamesMustBePlain) {
  const std::string yml = text_of(read_container_file(resize_area).op_yml);
  for (const std::string_view key : {"op_py_file", "vx_file", "out_binary"}) {
    for (const std::string_view value :
         {"../../rknnop-escaped.py", "/etc/passwd", "sub/dir.py", "..", "\"a\\x01b.py\"", "\"a\\\\b.py\""}) {
      std::string changed = yml;
      const auto at = changed.find(std::string(key) + ": ");
      ASSERT_NE(at, std::string::npos) << key;
      const auto end = changed.find('\n', at);
      changed.replace(at, end - at, std::string(key) + ": " + std::string(value));
      // (control bytes are refused earlier, as in every op.yml value)
      RKNNOP_EXPECT_ERROR(parse_op_yml(changed, "op.yml"), "op.yml:", key,
                          value.find("\\x01") == std::string_view::npos ? "plain file name" : "control character");
    }
  }
  EXPECT_NO_THROW((void)parse_op_yml(yml, "op.yml"));
}

TEST(HostileNames, UnpackVerifyAndRunRefuseAPathInOpPyFile) {
  const fs::path scratch = work_dir("hostile_unpack");
  const container good = read_container_file(resize_area);
  const fs::path absolute_target = scratch / "absolute-escape.py";
  for (const std::string& value : {std::string("../../rknnop-escaped.py"), absolute_target.string()}) {
    const fs::path file =
        save(with_yml(good, "op_py_file: rknn_op_resizearea.py", "op_py_file: " + value), scratch / "hostile.rknnop");
    const fs::path out = scratch / "out" / "a" / "b";
    fs::create_directories(out);
    const auto unpacked = run_tool(RKNNOP_PACK_EXE, {"unpack", file.string(), "-d", out.string()}, scratch);
    EXPECT_EQ(unpacked.status, 1) << unpacked.out << unpacked.err;
    EXPECT_EQ(line_count(unpacked.err), 1u) << unpacked.err;
    EXPECT_NE(unpacked.err.find("op_py_file"), std::string::npos) << unpacked.err;
    EXPECT_TRUE(files_in(out).empty());  // nothing written, not even the sections before the .py
    EXPECT_FALSE(fs::exists(scratch / "out" / "rknnop-escaped.py"));
    EXPECT_FALSE(fs::exists(absolute_target));

    const auto verified = run_tool(RKNNOP_PACK_EXE, {"inspect", "--verify", file.string()}, scratch);
    EXPECT_EQ(verified.status, 1) << verified.out;
    EXPECT_NE(verified.err.find("plain file name"), std::string::npos) << verified.err;

    const auto ran = run_tool(RKNNOP_RUN_EXE, {file.string(), "--describe"}, scratch);
    EXPECT_EQ(ran.status, 1) << ran.out;
    EXPECT_EQ(line_count(ran.err), 1u) << ran.err;
    EXPECT_NE(ran.err.find("plain file name"), std::string::npos) << ran.err;
  }
}

// op_py_file naming another section's file made unpack write it twice (the .py over op.yml); naming a
// section's folder, a file where the folder goes. Refused before anything is written, naming both roles.
TEST(HostileNames, UnpackNeverWritesOneFileTwice) {
  const fs::path scratch = work_dir("hostile_unpack_twice");
  const container good = read_container_file(resize_area);
  const struct {
    std::string_view name, first, second;
  } cases[] = {
      {"op.yml", "the op.yml and the Python op (op_py_file)", "op.yml'"},
      {"x86_64", "the x86_64 library and the Python op (op_py_file)", "x86_64' (a file and a folder)"},
  };
  for (const auto& [name, roles, where] : cases) {
    SCOPED_TRACE(name);
    const fs::path file = save(with_yml(good, "op_py_file: rknn_op_resizearea.py", "op_py_file: " + std::string(name)),
                               scratch / "twice.rknnop");
    const fs::path out = scratch / "out";
    fs::remove_all(out);
    const auto r = run_tool(RKNNOP_PACK_EXE, {"unpack", file.string(), "-d", out.string()}, scratch);
    EXPECT_EQ(r.status, 1) << r.out << r.err;
    EXPECT_EQ(line_count(r.err), 1u) << r.err;
    EXPECT_NE(r.err.find("rknnop-pack: unpack '" + file.string() + "': " + std::string(roles) +
                         " would both be written to '" + (out / where).string()),
              std::string::npos)
        << r.err;
    EXPECT_FALSE(fs::exists(out)) << "unpack wrote before it refused";
  }
}

// --- issue 50: a container's op.yml section, a failed unpack, a file size limit -------------------

// A container's op.yml section is bounded as an op.yml file is (16 MiB): on ef302f7 a 900 MiB section
// was parsed (76 s, 3.7 GB) and a 17 MiB one passed --describe.
TEST(Sandbox, AContainersOpYmlSectionIsBoundedLikeAnOpYmlFile) {
  const fs::path scratch = work_dir("sandbox_big_op_yml");
  container big = read_container_file(resize_area);
  std::string yml = text_of(big.op_yml);
  yml += "# " + std::string((std::size_t{17} << 20), 'x') + "\n";
  big.op_yml = bytes_of(yml);
  const fs::path file = save(big, scratch / "big.rknnop");
  const auto r = run_tool(RKNNOP_RUN_EXE, {file.string(), "--describe"}, scratch);
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_EQ(line_count(r.err), 1u) << r.err;
  EXPECT_NE(
      r.err.find(fmt::format("{}: its op.yml section is {} bytes, more than an op.yml may hold ({} bytes, 16 MiB)",
                             file.string(), yml.size(), std::uint64_t{16} << 20)),
      std::string::npos)
      << r.err;
}

// A failed unpack leaves nothing behind, and a file size limit (RLIMIT_FSIZE) is an error naming the
// file, not a silent SIGXFSZ: on ef302f7 the tool died with exit status 153 and left the folder.
TEST(Sandbox, AFailedUnpackLeavesNothingAndAFileSizeLimitIsAnError) {
  const fs::path scratch = work_dir("sandbox_unpack_fsize");
  const fs::path out = scratch / "fresh" / "out";
  const auto r = run_tool(
      "prlimit", {"--fsize=1000", RKNNOP_PACK_EXE, "unpack", resize_area.string(), "-d", out.string()}, scratch);
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_EQ(line_count(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find("File too large"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(scratch / "fresh")) << "a failed unpack left its folders";
}

// A section's folder that is a link to a folder inside the output folder is named as such, not "out
// of the output folder"; what the unpack made is removed, what was there stays.
TEST(Sandbox, UnpackNamesALinkInsideTheOutputFolder) {
  const fs::path scratch = work_dir("sandbox_unpack_inside_link");
  const fs::path out = scratch / "out";
  fs::create_directories(out / "other");
  fs::create_directory_symlink(out / "other", out / "x86_64");
  const auto r = run_tool(RKNNOP_PACK_EXE, {"unpack", resize_area.string(), "-d", out.string()}, scratch);
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_EQ(line_count(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find("'" + (out / "x86_64").string() + "' is a symbolic link to '" + (out / "other").string() +
                       "' (inside the output folder), not a folder of it"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("out of the output folder"), std::string::npos) << r.err;
  std::vector<std::string> left = files_in(out);
  std::sort(left.begin(), left.end());
  EXPECT_EQ(left, (std::vector<std::string>{"other", "x86_64"}));
}

// --- 2. outputs never replace what is not a regular file --------------------------------------

TEST(HostileOutputs, RunRefusesNonRegularOutputsBeforeTheKernelRuns) {
  const fs::path scratch = work_dir("hostile_outputs");
  const fs::path input = scratch / "in.npy";
  write_npy_file(npy_array{npy_dtype::float32, {1, 4, 4, 3}, std::vector<std::uint8_t>(4 * 4 * 3 * 4)}, input);
  const fs::path fifo = scratch / "fifo.npy";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const fs::path target = scratch / "target.npy";
  write_bytes(target, "keep me");
  const fs::path link = scratch / "link.npy";
  fs::create_symlink(target, link);
  fs::create_directories(scratch / "a-directory.npy");
  struct probe {
    fs::path path;
    std::string_view says;
  };
  std::vector<probe> probes{{fifo, "FIFO"},
                            {link, "symbolic link"},
                            {scratch / "a-directory.npy", "a directory"},
                            {scratch / "no" / "such" / "o.npy", "does not exist"}};
  // (No device here: a regressed tool run as root would replace it. check_output_path's device
  // case is checked without writing, in WritesRefuseLinksAndSpecialFiles.)
  for (const probe& p : probes) {
    struct stat before {};
    const bool existed = ::lstat(p.path.c_str(), &before) == 0;
    const auto r = run_tool(RKNNOP_RUN_EXE,
                            {resize_area.string(), "-i", "images=" + input.string(), "-p", "size=8,8", "-p",
                             "align_corners=false", "-o", "output=" + p.path.string()},
                            scratch);
    EXPECT_EQ(r.status, 1) << p.path;
    EXPECT_TRUE(r.out.empty()) << "the kernel ran before the output path was checked: " << r.out;
    EXPECT_EQ(line_count(r.err), 1u) << r.err;
    EXPECT_NE(r.err.find("--output output"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(p.says), std::string::npos) << r.err;
    struct stat after {};
    if (existed) {
      ASSERT_EQ(::lstat(p.path.c_str(), &after), 0) << p.path;
      EXPECT_EQ(before.st_mode, after.st_mode) << p.path << " was replaced";
      EXPECT_EQ(before.st_ino, after.st_ino) << p.path << " was replaced";
    }
  }
  EXPECT_EQ(rknnop_test::slurp(target), "keep me");
  // The regular-file twin: the same command writes a regular output.
  const auto ok = run_tool(RKNNOP_RUN_EXE,
                           {resize_area.string(), "-i", "images=" + input.string(), "-p", "size=8,8", "-p",
                            "align_corners=false", "-o", "output=" + target.string()},
                           scratch);
  EXPECT_EQ(ok.status, 0) << ok.err;
  EXPECT_EQ(read_npy_file(target).shape, (std::vector<std::size_t>{1, 8, 8, 3}));
}

TEST(HostileOutputs, WritesRefuseLinksAndSpecialFiles) {
  const fs::path scratch = work_dir("hostile_writes");
  const fs::path fifo = scratch / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  RKNNOP_EXPECT_ERROR(write_file_atomically(fifo, std::string_view("x")), "FIFO", "will not replace");
  fs::create_symlink(scratch / "elsewhere", scratch / "link");
  RKNNOP_EXPECT_ERROR(write_file_atomically(scratch / "link", std::string_view("x")), "symbolic link");
  EXPECT_FALSE(fs::exists(scratch / "elsewhere"));
  EXPECT_TRUE(fs::is_symlink(scratch / "link"));
  if (fs::exists("/dev/full"))
    RKNNOP_EXPECT_ERROR(check_output_path("/dev/full", "--output output"),
                        "--output output: '/dev/full' is a character device");
  write_file_atomically(scratch / "plain", std::string_view("x"));
  EXPECT_EQ(rknnop_test::slurp(scratch / "plain"), "x");
  // No temporary file is left by either outcome.
  for (const std::string& name : files_in(scratch)) EXPECT_EQ(name.find(".tmp."), std::string::npos) << name;

  const auto packed = run_tool(RKNNOP_PACK_EXE,
                               {"pack", "--x86", resize_area.string(), "--yml", resize_area.string(), "--py",
                                resize_area.string(), "-o", fifo.string()},
                               scratch);
  EXPECT_EQ(packed.status, 1);
  EXPECT_EQ(line_count(packed.err), 1u) << packed.err;
  EXPECT_NE(packed.err.find("--output"), std::string::npos) << packed.err;
  EXPECT_NE(packed.err.find("FIFO"), std::string::npos) << packed.err;
}

// --- 3. bounded reads --------------------------------------------------------------------------

TEST(BoundedReads, OnlyRegularFilesUnderTheLimit) {
  const fs::path scratch = work_dir("hostile_reads");
  RKNNOP_EXPECT_ERROR(read_file("/dev/zero"), "/dev/zero", "a character device, not a regular file");
  const fs::path fifo = scratch / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  RKNNOP_EXPECT_ERROR(read_file(fifo), "a FIFO (named pipe), not a regular file");  // no writer: no wait
  RKNNOP_EXPECT_ERROR(read_file(scratch), "a directory");
  // A sparse file one byte over the limit (no disk space used).
  const fs::path huge = scratch / "huge.npy";
  { std::ofstream(huge, std::ios::binary).put('x'); }
  fs::resize_file(huge, max_input_file_size + 1);
  RKNNOP_EXPECT_ERROR(read_file(huge), "huge.npy", "1073741825 bytes, larger than the 1073741824-byte limit");
  RKNNOP_EXPECT_ERROR(read_npy_file(huge), "larger than the 1073741824-byte limit");
  write_bytes(scratch / "small", "12345");
  EXPECT_EQ(read_file(scratch / "small").size(), 5u);
  RKNNOP_EXPECT_ERROR(read_file(scratch / "small", 4), "5 bytes, larger than the 4-byte limit");
}

TEST(BoundedReads, ShadersFromArgumentsAndContainersAreBounded) {
  if (!has_vx_option()) GTEST_SKIP() << "rknnop-run is built without the VX shader bridge (no OpenCL)";
  const fs::path scratch = work_dir("hostile_vx");
  const fs::path input = scratch / "in.npy";
  write_npy_file(npy_array{npy_dtype::float32, {1, 4, 4, 3}, std::vector<std::uint8_t>(4 * 4 * 3 * 4)}, input);
  const fs::path fifo = scratch / "shader.vx";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string& vx : {std::string("/dev/zero"), fifo.string()}) {
    const auto r = run_tool("timeout",
                            {"20", RKNNOP_RUN_EXE, resize_area.string(), "--kernel-index", "1", "--vx", vx, "-i",
                             "images=" + input.string(), "-p", "size=8,8", "-p", "align_corners=false"},
                            scratch);
    EXPECT_EQ(r.status, 1) << vx << ": " << r.err;
    EXPECT_EQ(line_count(r.err), 1u) << r.err;
    EXPECT_NE(r.err.find("not a regular file"), std::string::npos) << r.err;
  }
  const fs::path hostile =
      save(with_yml(read_container_file(resize_area), "vx_file: rknn_kernel_resizearea.vx", "vx_file: /dev/zero"),
           scratch / "vx-file-dev-zero.rknnop");
  const auto r = run_tool("timeout",
                          {"20", RKNNOP_RUN_EXE, hostile.string(), "--kernel-index", "1", "-i",
                           "images=" + input.string(), "-p", "size=8,8", "-p", "align_corners=false"},
                          scratch);
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(line_count(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find("vx_file '/dev/zero' is an absolute path"), std::string::npos) << r.err;
}

// --- 4. a corrupt library cannot crash the tool -------------------------------------------------

struct spawned {
  pid_t pid = -1;
};

spawned spawn_run(const std::vector<std::string>& args, const fs::path& tmpdir, const fs::path& log) {
  std::vector<std::string> env_text{"TMPDIR=" + tmpdir.string()};
  for (char** e = environ; *e; ++e)
    if (!std::string_view(*e).starts_with("TMPDIR=")) env_text.emplace_back(*e);
  std::vector<char*> env, argv;
  for (std::string& e : env_text) env.push_back(e.data());
  env.push_back(nullptr);
  std::vector<std::string> all{RKNNOP_RUN_EXE};
  all.insert(all.end(), args.begin(), args.end());
  for (std::string& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  spawned s;
  EXPECT_EQ(::posix_spawn(&s.pid, argv[0], &actions, nullptr, argv.data(), env.data()), 0);
  posix_spawn_file_actions_destroy(&actions);
  return s;
}

TEST(CorruptLibraries, TwoHundredFiftyMutationsNeverCrashAndLeaveNothing) {
  // Each mutated container goes through the validation in this process and through rknnop-run in
  // its own: a library that passes every check is loaded and its (corrupt) code runs, which only a
  // separate process survives in general (a changed PLT relocation can call the wrong function).
  const fs::path scratch = work_dir("hostile_corrupt");
  const fs::path tmp = scratch / "tmp";
  fs::create_directories(tmp);
  const container good = read_container_file(resize_area);
  const std::size_t extent = loaded_extent(good.lib_x86_64);
  ASSERT_GT(extent, 4096u);
  int refused_by_structure = 0, refused_by_probe = 0, refused_by_dlopen = 0, refused_by_pointers = 0, loaded = 0;
  // A sanitizer build runs 100 (each run is two instrumented processes, ~0.85 s: 250 took 211 s).
#if defined(RKNNOP_SANITIZED_BUILD_TESTS)
  constexpr int mutations = 100;
#else
  constexpr int mutations = 250;
#endif
  for (std::uint64_t seed = 1; seed <= std::uint64_t{mutations}; ++seed) {
    container c = good;
    splitmix64 random{seed};
    const std::uint64_t changes = 1 + random.next() % 8;
    for (std::uint64_t k = 0; k < changes; ++k) {
      const std::uint64_t at = random.next() % extent;
      c.lib_x86_64[at] = static_cast<std::uint8_t>(random.next() % 256);
    }
    const fs::path file = save(c, scratch / fmt::format("corrupt-{}.rknnop", seed));
    const container_report verify = validate_container(c, file.string());
    const fs::path log = scratch / "log.txt";
    int status = 0;
    ::waitpid(spawn_run({file.string(), "--describe"}, tmp, log).pid, &status, 0);
    const std::string err = rknnop_test::slurp(log);
    SCOPED_TRACE(fmt::format("seed {}: {}", seed, err));
    ASSERT_TRUE(WIFEXITED(status)) << "rknnop-run was killed by signal " << WTERMSIG(status);
    EXPECT_TRUE(files_in(tmp).empty()) << "a file was left in TMPDIR";
    if (WEXITSTATUS(status) == 0) {
      ++loaded;
      fs::remove(file);
      continue;
    }
    EXPECT_EQ(WEXITSTATUS(status), 1);
    EXPECT_EQ(line_count(err), 1u);
    EXPECT_TRUE(err.starts_with("rknnop-run: ")) << err;
    EXPECT_NE(err.find(file.string()), std::string::npos) << "the line names the file: " << err;
    // The probe is a separate process: a crash or a constructor that never returns (30 s) is its finding,
    // reported as the load of the op's library (child_process.cpp, shared with rknnop-node).
    if (err.find("probe process") != std::string::npos || err.find("did not finish within") != std::string::npos ||
        err.find("loading the library of") != std::string::npos ||
        err.find("the runner reports: while loading the library") != std::string::npos) {
      ++refused_by_probe;
      EXPECT_NE(err.find("x86-64 library"), std::string::npos);
    } else if (err.find("dlopen of the x86-64 library failed") != std::string::npos) {
      ++refused_by_dlopen;
    } else if (err.find("outside the library's") != std::string::npos) {
      ++refused_by_pointers;  // the loaded library's descriptor pointers (descriptor_pointers.cpp), after dlopen
    } else {
      ++refused_by_structure;
      // --verify rejects everything the loader rejects before loading (one validation).
      EXPECT_FALSE(verify.problems.empty()) << "verify passed what the loader refused";
    }
    fs::remove(file);
  }
  std::cout << fmt::format(
      "{} corrupt libraries: {} refused by the checks before loading, {} by the probe "
      "process, {} by dlopen, {} by the descriptor pointer check, {} loaded\n",
      mutations, refused_by_structure, refused_by_probe, refused_by_dlopen, refused_by_pointers, loaded);
  // The family is not vacuous: it reaches the structure check and loading (an ASan build's library is
  // mostly instrumented code, so fewer mutations load there: 81 of 250, against about 200 natively).
  EXPECT_GE(refused_by_structure, mutations / 25);
  EXPECT_GE(loaded, mutations / 5);
}

TEST(CorruptLibraries, AConstructorThatCrashesIsReportedNotFatal) {
  // A library whose DT_INIT_ARRAY calls into the code at a place that faults: the structure
  // check cannot know, the probe process dies instead of this one.
  const fs::path scratch = work_dir("hostile_crashing_ctor");
  const fs::path tmp = scratch / "tmp";
  fs::create_directories(tmp);
  const scoped_env tmpdir("TMPDIR", tmp.string());
  container c = read_container_file(resize_area);
  // Overwrite the first bytes of every executable segment's file contents with ud2 (0f 0b): the
  // first constructor that runs traps.
  std::vector<std::uint8_t>& lib = c.lib_x86_64;
  const auto u64 = [&](std::size_t at) {
    std::uint64_t v = 0;
    for (std::size_t k = 0; k < 8; ++k) v |= std::uint64_t{lib.at(at + k)} << (8 * k);
    return v;
  };
  const std::size_t phoff = u64(32), phnum = lib.at(56);
  for (std::size_t i = 0; i < phnum; ++i) {
    const std::size_t at = phoff + 56 * i;
    if (lib.at(at) != 1 || (lib.at(at + 4) & 1u) == 0) continue;  // PT_LOAD with PF_X
    for (std::size_t k = u64(at + 8); k + 1 < u64(at + 8) + u64(at + 32); k += 2) {
      lib[k] = 0x0f;
      lib[k + 1] = 0x0b;
    }
  }
  const fs::path file = save(c, scratch / "crashing.rknnop");
  const std::size_t descriptors = open_descriptors();
  RKNNOP_EXPECT_ERROR((void)op_library::open(file), "crashing.rknnop", "x86-64 library is corrupt",
                      "killed a probe process with SIGILL");
  EXPECT_TRUE(files_in(tmp).empty());
  EXPECT_EQ(open_descriptors(), descriptors);  // the memory file and the pipe are closed
}

TEST(CorruptLibraries, AConstructorThatFillsMemoryIsStoppedByTheProbe) {
  // A library whose constructor writes 4 GiB (what a corrupt segment size or constructor can do): the
  // probe process is stopped at its memory budget, one line, and this process never loads it.
#ifndef RKNNOP_TEST_MEMORY_HUNGRY_RKNNOP
  GTEST_SKIP() << "the MemoryHungry test op is built only natively (rknnop_add_op, not cross-compiling)";
#else
  const std::size_t descriptors = open_descriptors();
  RKNNOP_EXPECT_ERROR((void)op_library::open(RKNNOP_TEST_MEMORY_HUNGRY_RKNNOP), "MemoryHungry.rknnop",
                      "loading the x86-64 library used more than 1024 MiB of memory",
                      "the probe process was stopped at");
  EXPECT_EQ(open_descriptors(), descriptors);  // the memory file and the pipe are closed
#endif
}

// --- 5. interrupted runs leave nothing --------------------------------------------------------

TEST(Interrupts, SigintAndSigtermAtManyPointsLeaveNothing) {
  const fs::path scratch = work_dir("hostile_interrupts");
  const fs::path tmp = scratch / "tmp", out = scratch / "out";
  fs::create_directories(tmp);
  fs::create_directories(out);
  const fs::path input = scratch / "in.npy";
  write_npy_file(npy_array{npy_dtype::float32, {1, 64, 64, 3}, std::vector<std::uint8_t>(64 * 64 * 3 * 4)}, input);
  const fs::path output = out / "o.npy";
  // A 6 MB output: its write (and fsync) takes long enough to be hit at some of the points.
  const std::vector<std::string> args{resize_area.string(),       "-i", "images=" + input.string(), "-p",
                                      "size=1024,1024",           "-p", "align_corners=false",      "-o",
                                      "output=" + output.string()};
  // How long a whole run takes: the shorter of two (a loaded machine makes single runs slow).
  int status = 0;
  auto full = std::chrono::microseconds::max();
  for (int k = 0; k < 2; ++k) {
    const auto started = std::chrono::steady_clock::now();
    ::waitpid(spawn_run(args, tmp, scratch / "log.txt").pid, &status, 0);
    full = std::min(full,
                    std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - started));
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << rknnop_test::slurp(scratch / "log.txt");
    fs::remove(output);
  }
  int interrupted = 0;
  // 8 points over the first half (loading, extraction, the kernel), 24 over the rest and past the
  // end (the output write and its fsync, where the old writer left a half-written temporary).
  constexpr int points = 32;
  for (int i = 0; i < points; ++i) {
    const auto delay = i < 8 ? full * i / 16 : full / 2 + full * (i - 8) * 6 / (10 * 24);
    const int signal_number = i % 2 == 0 ? SIGINT : SIGTERM;
    spawned run = spawn_run(args, tmp, scratch / "log.txt");
    std::this_thread::sleep_for(delay);
    ::kill(run.pid, signal_number);
    ::waitpid(run.pid, &status, 0);
    if (WIFSIGNALED(status)) {
      ++interrupted;
      EXPECT_EQ(WTERMSIG(status), signal_number);  // the default action after the cleanup
    }
    SCOPED_TRACE(fmt::format("signal {} after {} us", signal_number, delay.count()));
    EXPECT_TRUE(files_in(tmp).empty()) << "TMPDIR is not empty";
    for (const std::string& name : files_in(out)) {
      EXPECT_EQ(name, "o.npy") << "left behind: " << name;
      if (name == "o.npy") {  // an output that exists is whole
        EXPECT_EQ(read_npy_file(output).shape, (std::vector<std::size_t>{1, 1024, 1024, 3}));
        fs::remove(output);
      }
    }
  }
  // At least the points in the first half interrupt a run (timing on a loaded machine varies).
  EXPECT_GE(interrupted, points / 4) << "too few runs were interrupted to test anything";
}

// --- 6. one validation: pack refuses what --verify rejects, --verify what rknnop-run rejects ----

TEST(OneValidation, PackRefusesWhatVerifyWouldReject) {
  const fs::path scratch = work_dir("hostile_pack");
  const container good = read_container_file(resize_area);
  const auto put = [&](const std::string& name, const std::vector<std::uint8_t>& bytes) {
    write_bytes(scratch / name, text_of(bytes));
    return (scratch / name).string();
  };
  const std::string x86 = put("x86.so", good.lib_x86_64), arm64 = put("aarch64.so", good.lib_aarch64),
                    armhf = put("armhf.so", good.lib_armhf), yml = put("op.yml", good.op_yml),
                    py = put("op.py", good.op_py), text = put("text.txt", bytes_of("just text\n"));
  const std::string out = (scratch / "out.rknnop").string();
  const auto pack = [&](const std::string& x, const std::string& y, const std::string& p) {
    return run_tool(RKNNOP_PACK_EXE,
                    {"pack", "--x86", x, "--aarch64", arm64, "--armhf", armhf, "--yml", y, "--py", p, "-o", out},
                    scratch);
  };
  struct refusal {
    std::string x86, yml, py;
    std::string_view says;
  };
  std::vector<refusal> refusals{{text, yml, py, "not an ELF file"},
                                {arm64, yml, py, "expected ELF64 x86-64"},
                                {x86, yml, x86, "the .py section"}};
#ifdef RKNNOP_TEST_EXP_RKNNOP
  refusals.push_back({x86, put("exp.yml", read_container_file(RKNNOP_TEST_EXP_RKNNOP).op_yml), py,
                      "does not export vx_kernel_Exp_list"});
#endif
  for (const refusal& r : refusals) {
    const auto packed = pack(r.x86, r.yml, r.py);
    EXPECT_EQ(packed.status, 1) << r.says;
    EXPECT_NE(packed.err.find(r.says), std::string::npos) << packed.err;
    EXPECT_FALSE(fs::exists(out)) << r.says;
  }
  const auto packed = pack(x86, yml, py);  // the twin that packs
  ASSERT_EQ(packed.status, 0) << packed.err;
  const auto verified = run_tool(RKNNOP_PACK_EXE, {"inspect", "--verify", out}, scratch);
  EXPECT_EQ(verified.status, 0) << verified.err;
}

TEST(OneValidation, VerifyRejectsWhatRunRejects) {
  const fs::path scratch = work_dir("hostile_verify");
  const container good = read_container_file(resize_area);
  const std::string yml = text_of(good.op_yml);
  const auto schema = yml.find("# rknnop-schema: ");
  ASSERT_NE(schema, std::string::npos);
  const std::string fingerprint = yml.substr(schema, yml.find('\n', schema) - schema);
  container bad_py = good;
  bad_py.op_py.insert(bad_py.op_py.begin() + 10, std::uint8_t{0xff});
  struct variant {
    std::string name;
    container c;
    std::string_view says;
  };
  const std::vector<variant> variants{
      {"stale-schema", with_yml(good, fingerprint, "# rknnop-schema: 0123456789abcdef"), "different op struct"},
      {"vx-type",  // the array's rknnop-field item count goes too: an int32 has none
       with_yml(with_yml(good, "  size:\n    type: VX_TYPE_ARRAY", "  size:\n    type: VX_TYPE_INT32"),
                "# rknnop-field: size param items=2", "# rknnop-field: size param"),
       "parameter 2 is {VX_INPUT, VX_TYPE_ARRAY}"},
      {"extra-param",
       with_yml(good, "    type: VX_TYPE_BOOL\n", "    type: VX_TYPE_BOOL\n  extra:\n    type: VX_TYPE_INT32\n"),
       "numParams 4 but op.yml declares 5"},
      {"py-encoding", bad_py, "not UTF-8"}};
  for (const variant& v : variants) {
    const fs::path file = save(v.c, scratch / (v.name + ".rknnop"));
    const auto ran = run_tool(RKNNOP_RUN_EXE, {file.string(), "--describe"}, scratch);
    EXPECT_EQ(ran.status, 1) << v.name << ran.out;
    EXPECT_EQ(line_count(ran.err), 1u) << ran.err;
    EXPECT_NE(ran.err.find(v.says), std::string::npos) << ran.err;
    const auto verified = run_tool(RKNNOP_PACK_EXE, {"inspect", "--verify", file.string()}, scratch);
    EXPECT_EQ(verified.status, 1) << v.name << verified.out;
    // The same sentence: one validation.
    const std::string sentence = ran.err.substr(std::string_view("rknnop-run: ").size());
    EXPECT_NE(verified.err.find(sentence.substr(0, sentence.size() - 1)), std::string::npos)
        << "run: " << ran.err << "verify: " << verified.err;
  }
}

// --- 7. messages --------------------------------------------------------------------------------

TEST(HostileMessages, AnRknnModelIsNamed) {
  const fs::path scratch = work_dir("hostile_rknn_model");
  // RKNN\0\0\0\0, version 2, no weights, a JSON graph, the two custom-op sections (docs: runtime §10).
  std::string model("RKNN\0\0\0\0", 8);
  const auto u64 = [&](std::uint64_t v) {
    for (int k = 0; k < 8; ++k) model += static_cast<char>((v >> (8 * k)) & 0xff);
  };
  const std::string graph = R"({"network_platform": "tensorflow", "nodes": []})";
  u64(2);
  u64(0);
  u64(graph.size());
  model += graph;
  u64(0);
  u64(0);
  write_bytes(scratch / "model.rknn", model);
  write_bytes(scratch / "encrypted.rknn", "CYPTRKNN" + model.substr(8));
  // The container tool names the file kind; rknnop-run reads models (docs/rknn-model.md): it describes
  // this one (no custom op) and names the encrypted one.
  for (const auto& [file, says] : {std::pair{"model.rknn", "this is an RKNN model (.rknn"},
                                   std::pair{"encrypted.rknn", "an encrypted RKNN model"}}) {
    const auto r = run_tool(RKNNOP_PACK_EXE, {"inspect", (scratch / file).string()}, scratch);
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(line_count(r.err), 1u) << r.err;
    EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
  }
#if RKNNOP_HOST_HAS_MODEL
  const auto described = run_tool(RKNNOP_RUN_EXE, {(scratch / "model.rknn").string(), "--describe"}, scratch);
  EXPECT_EQ(described.status, 0) << described.err;
  EXPECT_TRUE(described.err.empty()) << described.err;
  const auto encrypted = run_tool(RKNNOP_RUN_EXE, {(scratch / "encrypted.rknn").string(), "--describe"}, scratch);
  EXPECT_EQ(encrypted.status, 1);
  EXPECT_EQ(line_count(encrypted.err), 1u) << encrypted.err;
  EXPECT_NE(encrypted.err.find("an encrypted model"), std::string::npos) << encrypted.err;
#endif
}

TEST(HostileMessages, OutOfMemoryNamesTheStageAndTensor) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "a sanitized build cannot run under an address-space limit";
#else
  const fs::path scratch = work_dir("hostile_oom");
  // A 300 MB input (sparse: no disk used) under a 400 MB address-space limit.
  const fs::path big = scratch / "big.npy";
  {
    std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 5000, 5000, 3), }";
    header.append(64 - (10 + header.size() + 1) % 64, ' ');
    header += '\n';
    std::string file("\x93NUMPY\x01\x00", 8);
    file += static_cast<char>(header.size() & 0xff);
    file += static_cast<char>(header.size() >> 8);
    write_bytes(big, file + header);
  }
  fs::resize_file(big, fs::file_size(big) + std::uint64_t{5000} * 5000 * 3 * 4);
  const auto r = run_tool("sh",
                          {"-c", "ulimit -v 400000; exec \"$0\" \"$@\"", RKNNOP_RUN_EXE, resize_area.string(), "-i",
                           "images=" + big.string(), "-p", "size=8,8", "-p", "align_corners=false"},
                          scratch);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(line_count(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find("out of memory while reading input 'images' from"), std::string::npos) << r.err;
#endif
}

TEST(HostileMessages, AMissingTemporaryFolderIsNamed) {
  const scoped_env tmpdir("TMPDIR", "/nonexistent/rknnop-tmp");
  std::string path;
  RKNNOP_EXPECT_ERROR((void)create_temporary_file("rknnop-op-", ".so", path),
                      "TMPDIR='/nonexistent/rknnop-tmp' does not exist");
}

// The one write loop (rknnop::files::write_all): every byte, from the descriptor's offset or at a given
// one; an error is its number, never a short write taken for success.
TEST(HostileMessages, WriteAllWritesEveryByteOrSaysWhy) {
  const fs::path scratch = work_dir("hostile_write_all");
  const fs::path file = scratch / "bytes.bin";
  const std::vector<std::uint8_t> bytes(300000, 0x5a), head{1, 2, 3};
  const int fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  ASSERT_GE(fd, 0);
  EXPECT_EQ(rknnop::files::write_all(fd, bytes), 0);
  EXPECT_EQ(rknnop::files::write_all(fd, head, 1), 0);  // pwrite: the offset is not moved
  EXPECT_EQ(rknnop::files::write_all(fd, head), 0);
  ::close(fd);
  std::vector<std::uint8_t> expected = bytes;
  std::copy(head.begin(), head.end(), expected.begin() + 1);
  expected.insert(expected.end(), head.begin(), head.end());
  EXPECT_EQ(read_file(file), expected);
  EXPECT_EQ(rknnop::files::write_all(-1, head), EBADF);
  const int read_only = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(read_only, 0);
  EXPECT_EQ(rknnop::files::write_all(read_only, head), EBADF);
  ::close(read_only);
}

TEST(HostileMessages, OpYmlNulAndDeepNestingAreSpecific) {
  const std::string nul = std::string("name: Resize") + '\0' + "Area\ninputs: {}\noutputs: {}\n";
  RKNNOP_EXPECT_ERROR(parse_op_yml(nul, "op.yml"), "op.yml:1: a NUL byte at byte 12", "Resize\\0Area");
  const std::string deep = "name: X\ninputs: " + std::string(100000, '[') + "\n";
  RKNNOP_EXPECT_ERROR(parse_op_yml(deep, "op.yml"), "op.yml:2: brackets nested more than 64 deep");
}

#ifdef RKNNOP_VXCHECK_EXE
TEST(HostileMessages, VxcheckOnABinaryIsCappedAndEscaped) {
  const fs::path scratch = work_dir("hostile_vxcheck");
  const fs::path yml = scratch / "op.yml";
  write_bytes(yml, text_of(read_container_file(resize_area).op_yml));
  const container c = read_container_file(resize_area);
  write_bytes(scratch / "lib.so", text_of(c.lib_x86_64));  // an ELF holds NUL bytes
  const auto elf =
      run_tool(RKNNOP_VXCHECK_EXE, {"--op-yml", yml.string(), "--vx", (scratch / "lib.so").string()}, scratch);
  EXPECT_EQ(elf.status, 1);
  EXPECT_EQ(line_count(elf.err), 1u) << elf.err.substr(0, 2000);
  EXPECT_NE(elf.err.find("not a .vx source"), std::string::npos) << elf.err;
  // Binary without NULs: control bytes everywhere, "__kernel" lines with garbage.
  std::string noise;
  splitmix64 random{7};
  for (int i = 0; i < 200000; ++i) noise += static_cast<char>(1 + random.next() % 255);
  for (int i = 0; i < 100; ++i) noise += "\n__kernel void resizearea(\x1b[31m\x07 int x)\n";
  write_bytes(scratch / "noise.vx", noise);
  const auto r =
      run_tool(RKNNOP_VXCHECK_EXE, {"--op-yml", yml.string(), "--vx", (scratch / "noise.vx").string()}, scratch);
  EXPECT_EQ(r.status, 1);
  EXPECT_LE(line_count(r.err), 21u);
  for (const char ch : r.err) EXPECT_TRUE(ch == '\n' || static_cast<unsigned char>(ch) >= 0x20) << r.err;
}

// A shader is read up to its bound and no further (before, any file up to 1 GiB was read whole and
// parsed): one line naming the file and the bound. An op.yml likewise.
TEST(HostileMessages, VxcheckRefusesAShaderOverItsBound) {
  const fs::path scratch = work_dir("hostile_vxcheck_bound");
  const fs::path yml = scratch / "op.yml";
  write_bytes(yml, text_of(read_container_file(resize_area).op_yml));
  const fs::path big = scratch / "big.vx";
  fs::resize_file((std::ofstream(big), big), 16 * 1024 * 1024 + 1);  // sparse: nothing to write
  const auto r = run_tool(RKNNOP_VXCHECK_EXE, {"--op-yml", yml.string(), "--vx", big.string()}, scratch);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(line_count(r.err), 1u) << r.err.substr(0, 2000);
  EXPECT_NE(r.err.find("rknnop: op 'ResizeArea': cannot read the shader '" + big.string() + "'"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("16777216-byte limit"), std::string::npos) << r.err;
  fs::resize_file(big, 16 * 1024 * 1024 + 1);
  fs::resize_file((std::ofstream(scratch / "big.yml"), scratch / "big.yml"), 16 * 1024 * 1024 + 1);
  const auto y =
      run_tool(RKNNOP_VXCHECK_EXE, {"--op-yml", (scratch / "big.yml").string(), "--vx", big.string()}, scratch);
  EXPECT_EQ(y.status, 1);
  EXPECT_EQ(line_count(y.err), 1u) << y.err.substr(0, 2000);
  EXPECT_NE(y.err.find("big.yml"), std::string::npos) << y.err;
  EXPECT_NE(y.err.find("16777216-byte limit"), std::string::npos) << y.err;
}
#endif

}  // namespace

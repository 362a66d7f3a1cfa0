// SPDX-License-Identifier: MIT
// Node execution in a child process (issue 30, docs/isolation.md): whatever an op's code does — crash,
// abort, never return, fill memory, write past its output, a corrupt library — the tool prints one line
// naming the step, the op and where its code comes from, exits non-zero and leaves nothing in TMPDIR.
// On 16f196e every family here killed the tool (or hung it) instead.
#include <rknnop/host/container.hpp>
#include <rknnop/host/file_io.hpp>
#include <rknnop/host/npy.hpp>
#include <rknnop/host/rknn_model.hpp>
#include <rknnop/host/rknn_session.hpp>  // load_model_op
#include <rknnop/host/isolation.hpp>
#include <rknnop/host/session.hpp>

#include "test_util.hpp"
#include "tool_runner.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace {

namespace fs = std::filesystem;
using namespace rknnop::host;
using rknnop_test::run_tool;
using rknnop_test::tool_result;

std::size_t line_count(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

bool empty_folder(const fs::path& dir) { return fs::is_empty(dir); }

// Under ASan the runner's SIGSEGV reaches ASan's handler first, which reports and exits: the line a
// test expects is checked by the native build.
#if defined(__SANITIZE_ADDRESS__)
#define SKIP_SIGSEGV_LINE_UNDER_ASAN() \
  GTEST_SKIP()                         \
      << "under ASan the runner's own SIGSEGV report comes first (ASan's handler); the native build checks the line"
#else
#define SKIP_SIGSEGV_LINE_UNDER_ASAN() static_cast<void>(0)
#endif
// Memory figures and the library's symbol versions are the sanitizers' under ASan (shadow memory,
// the interceptors' imports): those checks are the native build's.
#if defined(__SANITIZE_ADDRESS__)
#define SKIP_MEMORY_OR_ELF_CHECK_UNDER_ASAN()                                                                      \
  GTEST_SKIP() << "under ASan the runner's memory and the library's symbol versions are ASan's; the native build " \
                  "checks"
#else
#define SKIP_MEMORY_OR_ELF_CHECK_UNDER_ASAN() static_cast<void>(0)
#endif

// rknnop-run with TMPDIR in `dir`/tmp and short limits for the child.
tool_result run_limited(const fs::path& dir, const std::vector<std::string>& args, int seconds = 2,
                        const std::vector<std::string>& environment = {}) {
  const fs::path tmp = dir / "tmp";
  fs::create_directories(tmp);
  std::vector<std::string> full = {"TMPDIR=" + tmp.string(), fmt::format("RKNNOP_NODE_TIME_LIMIT={}", seconds),
                                   "RKNNOP_NODE_MEMORY_LIMIT=256"};
  full.insert(full.end(), environment.begin(), environment.end());
  full.push_back(RKNNOP_RUN_EXE);
  full.insert(full.end(), args.begin(), args.end());
  return run_tool("env", full, dir);
}

tool_result run_hostile(const fs::path& dir, int mode, int seconds = 2) {
  write_npy_file(npy_array::from_floats(std::vector<float>(4096, 1.0f), {1, 64, 64}), dir / "in.npy");
  return run_limited(
      dir,
      {RKNNOP_HOSTILE_SO, "--op-yml", RKNNOP_HOSTILE_YML, "--input", "input=" + (dir / "in.npy").string(), "--param",
       fmt::format("mode={}", mode), "--output", "output=" + (dir / "out.npy").string()},
      seconds);
}

void expect_one_line(const tool_result& r, const fs::path& dir, const std::string& what) {
  EXPECT_NE(r.status, 0) << r.err;
  EXPECT_LT(r.status, 128) << "the tool was killed: " << r.err;
  EXPECT_EQ(line_count(r.err), 1u) << r.err;
  EXPECT_TRUE(r.err.starts_with("rknnop-run: ")) << r.err;
  EXPECT_NE(r.err.find(what), std::string::npos) << r.err;
  EXPECT_TRUE(empty_folder(dir / "tmp")) << "a file was left in TMPDIR";
  EXPECT_FALSE(fs::exists(dir / "out.npy"));
}

TEST(Isolation, ACorrectKernelRunsInTheChild) {
  const fs::path dir = rknnop_test::work_dir("isolation_ok");
  const tool_result r = run_hostile(dir, 0);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(read_npy_file(dir / "out.npy").to_floats(), std::vector<float>(4096, 1.0f));
}

TEST(Isolation, AKernelThatSegfaultsIsOneLine) {
  SKIP_SIGSEGV_LINE_UNDER_ASAN();
  const fs::path dir = rknnop_test::work_dir("isolation_segv");
  expect_one_line(run_hostile(dir, 1), dir,
                  fmt::format("Hostile ({}) crashed with SIGSEGV (Segmentation fault); the runner reports: in the "
                              "CPU kernel, a null pointer was used",
                              RKNNOP_HOSTILE_SO));
}

#ifdef RKNNOP_PARITY_EXE
// rknnop-parity on the Hostile op with `mode`, one random case, TMPDIR in `dir`/tmp and the runner's
// time limit: 2 s for the hang tests (whose message names it); 60 s otherwise, since the VX side's
// POCL start-up and shader compile (the linker, in the runner's own kernel cache) took over 2 s on a loaded
// 2-core machine (a crash then read as a hang).
tool_result run_parity(const fs::path& dir, int mode, const std::vector<std::string>& environment = {},
                       int time_limit = 60) {
  fs::create_directories(dir / "tmp");
  std::vector<std::string> args = {"TMPDIR=" + (dir / "tmp").string(),
                                   fmt::format("RKNNOP_NODE_TIME_LIMIT={}", time_limit)};
  args.insert(args.end(), environment.begin(), environment.end());
  const std::vector<std::string> tool = {RKNNOP_PARITY_EXE,
                                         RKNNOP_HOSTILE_SO,
                                         "--op-yml",
                                         RKNNOP_HOSTILE_YML,
                                         "--vx",
                                         RKNNOP_HOSTILE_VX,
                                         "--random",
                                         "1",
                                         "--shape",
                                         "input=1,8,8",
                                         "--param",
                                         fmt::format("mode={}", mode)};
  args.insert(args.end(), tool.begin(), tool.end());
  return run_tool("env", args, dir);
}

// The case's ERROR line: `side` ("CPU kernel", "VX kernel") and the runner's one line `what`; exit 1,
// the tool alive, nothing left in TMPDIR.
void expect_case_error(const tool_result& r, const fs::path& dir, const std::string& side, const std::string& what) {
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_NE(r.out.find(fmt::format("case 'random 1/1 (seed 1)': ERROR: {}: rknnop: {}", side, what)), std::string::npos)
      << r.out << r.err;
  EXPECT_NE(r.out.find("FAIL: 0 of 1 case(s) within tolerance"), std::string::npos) << r.out;
  EXPECT_TRUE(empty_folder(dir / "tmp"));
}

// rknnop-parity on the Hostile op in `mode`: its case's error line (or skipped without OpenCL).
void expect_parity_case_error(const std::string& work, int mode, const std::string& side, const std::string& what) {
  const fs::path dir = rknnop_test::work_dir(work);
  const tool_result r = run_parity(dir, mode);
  if (r.status == 77) GTEST_SKIP() << "no OpenCL device: " << r.err;
  expect_case_error(r, dir, side, what);
}

// rknnop-parity runs the CPU kernel in the runner as rknnop-run does: its crash is the case's error.
TEST(Isolation, ParitysCpuKernelCrashIsTheCasesError) {
  SKIP_SIGSEGV_LINE_UNDER_ASAN();
  expect_parity_case_error(
      "isolation_parity", 1, "CPU kernel",
      fmt::format("Hostile ({}) crashed with SIGSEGV (Segmentation fault); the runner reports: in the CPU kernel",
                  RKNNOP_HOSTILE_SO));
}

// And the VX kernel, its callbacks and its shader, in the runner too: a crash of its initializer is the
// case's error (on 2f800d8 it killed rknnop-parity).
TEST(Isolation, ParitysVxInitializerCrashIsTheCasesError) {
  SKIP_SIGSEGV_LINE_UNDER_ASAN();
  expect_parity_case_error(
      "isolation_parity_vx", 12, "VX kernel",
      fmt::format("Hostile ({}) crashed with SIGSEGV (Segmentation fault); the runner reports: in the initializer, "
                  "a null pointer was used",
                  RKNNOP_HOSTILE_SO));
}

// The shader itself runs on POCL in the runner: its fault is named as the VX shader's step.
TEST(Isolation, ParitysVxShaderCrashIsTheCasesError) {
  SKIP_SIGSEGV_LINE_UNDER_ASAN();
  expect_parity_case_error(
      "isolation_parity_shader", 14, "VX kernel",
      fmt::format("Hostile ({}) crashed with SIGSEGV (Segmentation fault); the runner reports: in the VX shader",
                  RKNNOP_HOSTILE_SO));
}

TEST(Isolation, ParitysVxInitializerThatNeverReturnsIsStopped) {
  const fs::path dir = rknnop_test::work_dir("isolation_parity_vx_loop");
  const tool_result r = run_parity(dir, 13, {}, 2);
  if (r.status == 77) GTEST_SKIP() << "no OpenCL device: " << r.err;
  expect_case_error(
      r, dir, "VX kernel",
      fmt::format("Hostile ({}) did not finish within 2 s (stopped); the runner reports: in the initializer",
                  RKNNOP_HOSTILE_SO));
}

// rknnop-parity never loads the library itself: the Hostile constructor aborts the process named by
// RKNNOP_HOSTILE_ABORT_IN. Named rknnop-parity, the comparison still passes (the VX shader's copy is the
// CPU kernel's, run in the runner); named rknnop-node, the runner's load is the one line.
TEST(Isolation, ParityNeverLoadsTheLibraryItself) {
  const fs::path dir = rknnop_test::work_dir("isolation_parity_load");
  const tool_result r = run_parity(dir, 0, {"RKNNOP_HOSTILE_ABORT_IN=rknnop-parity"});
  if (r.status == 77) GTEST_SKIP() << "no OpenCL device: " << r.err;
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("PASS: 1 of 1 case(s) within tolerance"), std::string::npos) << r.out << r.err;

  const tool_result in_runner = run_parity(dir, 0, {"RKNNOP_HOSTILE_ABORT_IN=rknnop-node"});
  EXPECT_EQ(in_runner.status, 1) << in_runner.out << in_runner.err;
  EXPECT_LT(in_runner.status, 128) << "the tool was killed: " << in_runner.err;
  EXPECT_NE(
      in_runner.err.find(fmt::format(
          "rknnop-parity: Hostile ({}) crashed with SIGABRT (Aborted); the runner reports: while loading the library",
          RKNNOP_HOSTILE_SO)),
      std::string::npos)
      << in_runner.out << in_runner.err;
  EXPECT_TRUE(empty_folder(dir / "tmp"));
}

// rknnop-run's VX kernel (--kernel-index 1) with its .vx on the Hostile op with `mode`: in the runner
// too, its callbacks and shader as rknnop-parity runs them.
tool_result run_hostile_vx(const fs::path& dir, int mode, const std::vector<std::string>& environment = {},
                           int seconds = 10) {
  write_npy_file(npy_array::from_floats(std::vector<float>(64, 1.0f), {1, 8, 8}), dir / "in.npy");
  return run_limited(dir,
                     {RKNNOP_HOSTILE_SO, "--op-yml", RKNNOP_HOSTILE_YML, "--kernel-index", "1", "--vx",
                      RKNNOP_HOSTILE_VX, "--input", "input=" + (dir / "in.npy").string(), "--param",
                      fmt::format("mode={}", mode), "--output", "output=" + (dir / "out.npy").string()},
                     seconds, environment);
}

// A crash of the VX kernel's initializer is rknnop-run's one line (on 6df9fb6 it killed the tool: the
// VX kernel ran in the tool, where the shader executor was attached).
TEST(Isolation, RunsVxInitializerCrashIsOneLine) {
  SKIP_SIGSEGV_LINE_UNDER_ASAN();
  const fs::path dir = rknnop_test::work_dir("isolation_run_vx_init");
  expect_one_line(run_hostile_vx(dir, 12), dir,
                  fmt::format("Hostile ({}) crashed with SIGSEGV (Segmentation fault); the runner reports: in the "
                              "initializer, a null pointer was used",
                              RKNNOP_HOSTILE_SO));
}

TEST(Isolation, RunsVxShaderCrashIsOneLine) {
  SKIP_SIGSEGV_LINE_UNDER_ASAN();
  const fs::path dir = rknnop_test::work_dir("isolation_run_vx_shader");
  const tool_result r = run_hostile_vx(dir, 14);
  if (r.err.find("cannot run the VX shader on the host") != std::string::npos) GTEST_SKIP() << "no OpenCL: " << r.err;
  expect_one_line(
      r, dir,
      fmt::format("Hostile ({}) crashed with SIGSEGV (Segmentation fault); the runner reports: in the VX shader",
                  RKNNOP_HOSTILE_SO));
}

TEST(Isolation, RunsVxInitializerThatNeverReturnsIsStopped) {
  const fs::path dir = rknnop_test::work_dir("isolation_run_vx_loop");
  expect_one_line(
      run_hostile_vx(dir, 13, {}, 2), dir,
      fmt::format("Hostile ({}) did not finish within 2 s (stopped); the runner reports: in the initializer",
                  RKNNOP_HOSTILE_SO));
}

// rknnop-run never loads the library itself for a VX kernel either: the Hostile constructor aborts a
// process named rknnop-run, and the shader's copy still comes out (on 6df9fb6 the tool died, SIGABRT).
TEST(Isolation, RunsVxKernelNeverLoadsTheLibraryInTheTool) {
  SKIP_MEMORY_OR_ELF_CHECK_UNDER_ASAN();
  const fs::path dir = rknnop_test::work_dir("isolation_run_vx_load");
  const tool_result r = run_hostile_vx(dir, 0, {"RKNNOP_HOSTILE_ABORT_IN=rknnop-run"});
  if (r.err.find("cannot run the VX shader on the host") != std::string::npos) GTEST_SKIP() << "no OpenCL: " << r.err;
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(read_npy_file(dir / "out.npy").to_floats(), std::vector<float>(64, 1.0f));
  EXPECT_TRUE(empty_folder(dir / "tmp"));
}
#endif

#ifdef RKNNOP_PARITY_EXE
// A root tool's runner is nobody (its thread cap needs it): a TMPDIR only root can enter cannot hold a
// VX runner's kernel-cache folder, which the tool then makes in /tmp (before, POCL found no device).
TEST(Sandbox, ARootToolsPrivateTmpdirStillRunsAVxKernel) {
  SKIP_MEMORY_OR_ELF_CHECK_UNDER_ASAN();
  if (::geteuid() != 0) GTEST_SKIP() << "a root tool's case";
  const fs::path dir = rknnop_test::work_dir("sandbox_private_tmpdir");
  fs::create_directories(dir / "private");
  fs::permissions(dir / "private", fs::perms::owner_all);
  const tool_result r = run_hostile_vx(dir, 0, {"TMPDIR=" + (dir / "private").string()});
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(r.err.find("note:"), std::string::npos) << r.err;
  EXPECT_EQ(read_npy_file(dir / "out.npy").to_floats(), std::vector<float>(64, 1.0f));
  EXPECT_TRUE(empty_folder(dir / "private"));
}
#endif

TEST(Isolation, AValidatorThatSegfaultsIsNamed) {
  const fs::path dir = rknnop_test::work_dir("isolation_validator");
  expect_one_line(run_hostile(dir, 11), dir, "; the runner reports: in the validator");
}

TEST(Isolation, AKernelThatAbortsIsOneLine) {
  const fs::path dir = rknnop_test::work_dir("isolation_abort");
  expect_one_line(run_hostile(dir, 2), dir, "; the runner reports: in the CPU kernel");
  EXPECT_NE(run_hostile(dir, 2).err.find("crashed with SIGABRT"), std::string::npos);
}

TEST(Isolation, AKernelThatNeverReturnsIsStopped) {
  const fs::path dir = rknnop_test::work_dir("isolation_loop");
  expect_one_line(run_hostile(dir, 3), dir, "; the runner reports: in the CPU kernel");
  EXPECT_NE(run_hostile(dir, 3).err.find("did not finish within 2 s"), std::string::npos);
}

TEST(Isolation, AKernelThatFillsMemoryIsStopped) {
  const fs::path dir = rknnop_test::work_dir("isolation_memory");
  // The memory limit must stop it, not the time limit: 20 s, so that a loaded machine (ctest -j, CI)
  // cannot reach the time limit first.
  const tool_result r = run_hostile(dir, 4, 20);
  expect_one_line(r, dir, "; the runner reports: in the CPU kernel");
  EXPECT_NE(r.err.find("used more than 256 MiB of memory"), std::string::npos) << r.err;
}

TEST(Isolation, AnOverrunFaultsAtTheFirstByteOutAndNamesTheTensor) {
  SKIP_SIGSEGV_LINE_UNDER_ASAN();
  const fs::path dir = rknnop_test::work_dir("isolation_overrun");
  // 4096 float16 elements: 8192 bytes; the first byte out is byte 8192.
  expect_one_line(run_hostile(dir, 5), dir,
                  "crashed with SIGSEGV (Segmentation fault); the runner reports: in the CPU kernel, the access at "
                  "byte 8192 of output 'output' is 1 byte(s) past its end (it holds 8192 bytes)");
  const fs::path under = rknnop_test::work_dir("isolation_underrun");
  expect_one_line(run_hostile(under, 6), under, "the access at byte -1 of input 'input' is before its start");
}

// --- the hostile-library suite: what the node runner's sandbox refuses (docs/isolation.md) -----------

// The processes that still carry `marker` in their environment (a run's runner and anything it started).
std::vector<std::string> processes_marked(const std::string& marker) {
  std::vector<std::string> found;
  for (const fs::directory_entry& e : fs::directory_iterator("/proc")) {
    const std::string environment = rknnop_test::slurp(e.path() / "environ");
    if (environment.find(marker) != std::string::npos) found.push_back(e.path().filename().string());
  }
  return found;
}

// rknnop-run (op mode) or rknnop-parity (the CPU kernel's case) on the Hostile op in an attack `mode`
// (a runner limited to 256 MiB: a VX runner holds POCL and LLVM, a sanitized one its runtime),
// as this user or, when `unprivileged`, as nobody (setpriv; the test then runs as root).
// System V shared memory segments of 1 GiB (what the hostile library's SysV attack asks for) on the
// machine: counted before each attack and after it, so that a segment some other process left (an
// earlier run of the old runner, say) does not count against this run.
std::size_t gib_segments() {
  const std::string table = rknnop_test::slurp("/proc/sysvipc/shm");
  std::size_t count = 0;
  for (std::size_t at = table.find(" 1073741824 "); at != std::string::npos; at = table.find(" 1073741824 ", at + 1))
    ++count;
  return count;
}
// A tool's result with the 1 GiB System V segments counted before it ran (expect_refused: none of the
// run's may be left).
struct attack_result : tool_result {
  std::size_t gib_segments_before = 0;
};

pid_t spawn_quiet(const std::vector<std::string>& args, const fs::path& tmp);

// The tool an attack goes through: rknnop-run on the op (op mode), rknnop-run on a one-node model around
// it (model mode: the library from the model's x86-64 section), or rknnop-parity.
enum class via { run, model, parity };
const char* via_name(via tool) { return tool == via::run ? "run" : tool == via::model ? "model" : "parity"; }
constexpr via all_tools[] = {via::run, via::model, via::parity};
// Model mode packs the Hostile library into a container; a sanitizer build's library carries the
// sanitizer's imports, which the container's checks are not for: model mode is the native build's.
#if defined(RKNNOP_SANITIZED_BUILD_TESTS) || defined(__SANITIZE_ADDRESS__)
constexpr bool model_mode_checked = false;
#else
constexpr bool model_mode_checked = true;
#endif

// The ways a test of one attack goes through: each of `tools` as this user, then each as nobody too when
// this test runs as root (run_attack's setpriv).
struct attack_way {
  via tool;
  bool unprivileged;
};
std::vector<attack_way> ways(std::initializer_list<via> tools) {
  std::vector<attack_way> all;
  for (const bool unprivileged : {false, true})
    for (const via tool : tools) {
      if (tool == via::model && !model_mode_checked) continue;
#ifndef RKNNOP_PARITY_EXE
      if (tool == via::parity) continue;
#endif
      if (unprivileged && ::geteuid() != 0) continue;
      all.push_back({tool, unprivileged});
    }
  return all;
}
std::string way_name(const attack_way& w) {
  return fmt::format("{}{}", via_name(w.tool), w.unprivileged ? "_nobody" : "");
}

// The one-node model around the Hostile op in `mode` (rknnop-pack pack, then wrap with the output's shape
// given, so that wrap runs none of its code), made once per test process, in a folder of the test's own:
// ctest runs each test in its own process, side by side, and work_dir empties the folder it names.
fs::path hostile_model(int mode) {
  static const fs::path dir = rknnop_test::work_dir(std::string("sandbox_models_") +
                                                    ::testing::UnitTest::GetInstance()->current_test_info()->name());
  const fs::path container = dir / "Hostile.rknnop";
  if (!fs::exists(container)) {
    const fs::path kernels = fs::path(RKNNOP_HOSTILE_YML).parent_path();
    const tool_result r = run_tool(RKNNOP_PACK_EXE,
                                   {"pack", "--x86", RKNNOP_HOSTILE_SO, "--yml", RKNNOP_HOSTILE_YML, "--py",
                                    (kernels / "rknn_op_hostile.py").string(), "--pc-only", "-o", container.string()},
                                   dir);
    EXPECT_EQ(r.status, 0) << r.err;
  }
  const fs::path model = dir / fmt::format("hostile_{}.rknn", mode);
  if (!fs::exists(model)) {
    const tool_result r = run_tool(RKNNOP_PACK_EXE,
                                   {"wrap", container.string(), "--input-shape", "input=1,8,8", "--output-shape",
                                    "output=1,8,8", "--param", fmt::format("mode={}", mode), "-o", model.string()},
                                   dir);
    EXPECT_EQ(r.status, 0) << r.err;
  }
  return model;
}

// How the tool names the op whose code ran: the library given, or the model's section.
std::string hostile_origin(via tool, int mode) {
  return tool == via::model
             ? fmt::format("Hostile (node 'hostile_0', model {}, x86-64 library section)", hostile_model(mode).string())
             : fmt::format("Hostile ({})", RKNNOP_HOSTILE_SO);
}

attack_result run_attack(const fs::path& dir, int mode, via tool, bool unprivileged,
                         const std::vector<std::string>& options = {}, bool vx = false,
                         const std::vector<std::string>& environment = {}) {
  const bool parity = tool == via::parity;
  const std::size_t segments = gib_segments();
  write_npy_file(npy_array::from_floats(std::vector<float>(64, 1.0f), {1, 8, 8}), dir / "in.npy");
  fs::permissions(dir / "in.npy", fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  fs::create_directories(dir / "tmp");
  std::vector<std::string> args;
  if (unprivileged) {
    for (const fs::path& p : {dir, dir / "tmp", dir / "in.npy"}) EXPECT_EQ(::chown(p.c_str(), 65534, 65534), 0) << p;
    // POCL in the tool (rknnop-parity's OpenCL probe) needs a cache folder nobody may write.
    const fs::path cache = fs::path(RKNNOP_TEST_WORK_DIR) / "sandbox_nobody_pocl_cache";
    fs::create_directories(cache);
    EXPECT_EQ(::chown(cache.c_str(), 65534, 65534), 0);
    args = {"--reuid=65534", "--regid=65534", "--clear-groups", "env", "POCL_CACHE_DIR=" + cache.string()};
  }
  for (const std::string& a : {"TMPDIR=" + (dir / "tmp").string(), std::string("RKNNOP_NODE_TIME_LIMIT=10"),
                               std::string("RKNNOP_NODE_MEMORY_LIMIT=256"), "RKNNOP_HOSTILE_MARK=" + dir.string()})
    args.push_back(a);
  args.insert(args.end(), environment.begin(), environment.end());
  if (parity) {
#ifdef RKNNOP_PARITY_EXE
    for (const std::string& a : {std::string(RKNNOP_PARITY_EXE), std::string(RKNNOP_HOSTILE_SO),
                                 std::string("--op-yml"), std::string(RKNNOP_HOSTILE_YML), std::string("--vx"),
                                 std::string(RKNNOP_HOSTILE_VX), std::string("--shape"), std::string("input=1,8,8")})
      args.push_back(a);
    if (std::find(options.begin(), options.end(), "--random") == options.end())
      args.insert(args.end(), {"--random", "1"});
#endif
  } else if (tool == via::model) {
    for (const std::string& a :
         {std::string(RKNNOP_RUN_EXE), hostile_model(mode).string(), std::string("--input"),
          "input=" + (dir / "in.npy").string(), std::string("--output"), "output=" + (dir / "out.npy").string()})
      args.push_back(a);
  } else {
    for (const std::string& a :
         {std::string(RKNNOP_RUN_EXE), std::string(RKNNOP_HOSTILE_SO), std::string("--op-yml"),
          std::string(RKNNOP_HOSTILE_YML), std::string("--input"), "input=" + (dir / "in.npy").string(),
          std::string("--output"), "output=" + (dir / "out.npy").string()})
      args.push_back(a);
#ifdef RKNNOP_PARITY_EXE
    if (vx) args.insert(args.end(), {"--kernel-index", "1", "--vx", RKNNOP_HOSTILE_VX});
#endif
  }
  if (tool != via::model) args.insert(args.end(), {"--param", fmt::format("mode={}", mode)});
  args.insert(args.end(), options.begin(), options.end());
  attack_result r{run_tool(unprivileged ? "setpriv" : "env", args, dir)};
  r.gib_segments_before = segments;
  return r;
}

// One line naming the refused action (rknnop-run's, or rknnop-parity's case ERROR line), a non-zero
// exit of a tool that was not killed, nothing of the run left running, no file made or changed.
void expect_refused(const attack_result& r, const fs::path& dir, via tool, const std::string& what,
                    const char* side = "CPU kernel") {
  const bool parity = tool == via::parity;
  EXPECT_NE(r.status, 0) << r.out << r.err;
  EXPECT_LT(r.status, 128) << "the tool was killed: " << r.err;
  EXPECT_GE(r.status, 0) << "the tool was killed: " << r.err;
  if (parity) {
    EXPECT_NE(r.out.find(fmt::format("case 'random 1/1 (seed 1)': ERROR: {}: rknnop: {}", side, what)),
              std::string::npos)
        << r.out << r.err;
  } else {
    EXPECT_EQ(line_count(r.err), 1u) << r.err;
    EXPECT_TRUE(r.err.starts_with("rknnop-run: ")) << r.err;
    EXPECT_NE(r.err.find(what), std::string::npos) << r.err;
  }
  std::vector<std::string> left = processes_marked(dir.string());
  for (int wait = 0; wait < 100 && !left.empty(); ++wait) {  // a SIGKILL is delivered asynchronously
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    left = processes_marked(dir.string());
  }
  EXPECT_TRUE(left.empty()) << "still running: " << fmt::format("{}", fmt::join(left, " "));
  std::vector<std::string> files;
  for (const fs::directory_entry& e : fs::directory_iterator(dir)) files.push_back(e.path().filename().string());
  std::sort(files.begin(), files.end());
  EXPECT_EQ(files, (std::vector<std::string>{"in.npy", "stderr.txt", "stdout.txt", "tmp"}));
  EXPECT_TRUE(empty_folder(dir / "tmp"));
  // The input as run_attack left it: mode 0640, its folder's owner, no attribute, its own times.
  struct stat input {};
  struct stat folder {};
  ASSERT_EQ(::stat((dir / "in.npy").c_str(), &input), 0);
  ASSERT_EQ(::stat(dir.c_str(), &folder), 0);
  EXPECT_EQ(input.st_mode & 07777, 0640u) << "the input's mode was changed";
  EXPECT_EQ(input.st_uid, folder.st_uid) << "the input's owner was changed";
  EXPECT_GT(input.st_mtime, 1000000000) << "the input's times were changed";
  EXPECT_LE(::listxattr((dir / "in.npy").c_str(), nullptr, 0), 0) << "an attribute was left on the input";
  // No System V object of the run's left behind (1 GiB segments, queues).
  EXPECT_LE(gib_segments(), r.gib_segments_before) << "a System V segment of the run was left";
}

struct attack {
  int mode;
  const char* name;
  const char* refused;  // the call the runner reports it tried; nullptr: a call of another architecture
};

// Each attack of the Hostile op (its modes 20-28), refused by the seccomp filter with its name.
constexpr attack attacks[] = {
    {20, "ptrace", "ptrace"},
    {21, "tiocsti", "a terminal ioctl (TIOCSTI, TCSETS, TIOCSETD...)"},
    {22, "kill_parent", "kill (of a process other than itself)"},
    {23, "kill_group", "kill (of a process other than itself)"},
    {24, "fork", "clone (a process, not a thread)"},
    {25, "execve", "execve"},
    {26, "connect", "socket"},
    {27, "write_file", "open (a file to write)"},
    {28, "memfd", "memfd_create"},
    // Issue 50: on ef302f7 each of these passed (the input made 0666, root-owned by nobody, an xattr
    // and a time stamp left on it, 1 GiB of SysV memory left behind, the tool's RLIMIT_FSIZE set to 0,
    // its priority and CPUs changed); an x32 call killed only the thread and the tool waited. (Mode 41,
    // i386's int 0x80, takes the same path where the kernel has IA-32 emulation; this one faults it.)
    {34, "chmod", "chmod"},
    {35, "setxattr", "setxattr (an extended attribute)"},
    {36, "utimensat", "utimensat (a file's times)"},
    {37, "shmget", "System V IPC (shmget, msgget, semget...)"},
    {38, "socketpair", "socketpair"},
    {39, "prlimit", "prlimit64 (of another process)"},
    {40, "setpriority", "setpriority (of another process)"},
    {42, "affinity", "sched_setaffinity"},
    {43, "msgget", "System V IPC (shmget, msgget, semget...)"},
    {44, "chown", "chown"},
    {45, "ioprio", "ioprio_set (of another process)"},
#if defined(__x86_64__)
    {46, "x32", nullptr},
#endif
};

// The one line of a refused attack: the tool's own words (the runner ended by SIGSYS), then what the
// runner reports (its status page, the library's to write: the step and the call), marked as its report.
std::string refusal(const std::string& origin, const attack& a, const char* step = "the CPU kernel") {
  if (a.refused == nullptr)
    return fmt::format(
        "{} was killed by the node runner's sandbox (SIGSYS) without a call named: a system call of another "
        "architecture (int 0x80 or x32) is killed so; the runner reports: in {}",
        origin, step);
  return fmt::format(
      "{} was stopped by the node runner's sandbox (SIGSYS); the runner reports: in {}, it tried {}, which the "
      "sandbox refuses",
      origin, step, a.refused);
}

void run_attacks(via tool, bool unprivileged) {
#if defined(RKNNOP_SANITIZED_BUILD_TESTS)
  GTEST_SKIP() << "a sanitizer build opens the runner's filter for the sanitizers (docs/isolation.md); the native "
                  "build checks the sandbox";
#endif
  if (unprivileged && ::geteuid() != 0) GTEST_SKIP() << "setpriv to nobody needs root";
  for (const attack& a : attacks) {
    SCOPED_TRACE(a.name);
    const fs::path dir =
        rknnop_test::work_dir(fmt::format("sandbox_{}_{}{}", a.name, via_name(tool), unprivileged ? "_nobody" : ""));
    const attack_result r = run_attack(dir, a.mode, tool, unprivileged);
    if (tool == via::parity && r.status == 77) GTEST_SKIP() << "no OpenCL device: " << r.err;
    expect_refused(r, dir, tool, refusal(hostile_origin(tool, a.mode), a));
  }
}

TEST(Sandbox, RunsAttacksAreRefusedAndNamed) { run_attacks(via::run, false); }
TEST(Sandbox, RunsAttacksAreRefusedAndNamedForAnUnprivilegedUser) { run_attacks(via::run, true); }
TEST(Sandbox, ModelModesAttacksAreRefusedAndNamed) { run_attacks(via::model, false); }
TEST(Sandbox, ModelModesAttacksAreRefusedAndNamedForAnUnprivilegedUser) { run_attacks(via::model, true); }
// Reads beyond what a node needs (issue 50): the tool's /proc entry (its terminal's number is there),
// a terminal device, the user's own file; on ef302f7 each opened (the runs passed), and a runner read
// what the user typed on the tool's terminal. Landlock refuses them: the kernel sees EACCES and fails.
void run_read_attacks(via tool, bool unprivileged) {
#if defined(RKNNOP_SANITIZED_BUILD_TESTS)
  GTEST_SKIP() << "a sanitizer build opens the runner's filter for the sanitizers (docs/isolation.md)";
#endif
  for (const auto& [mode, name] : {std::pair{47, "proc"}, std::pair{48, "terminal"}, std::pair{49, "user_file"}}) {
    SCOPED_TRACE(name);
    const fs::path dir =
        rknnop_test::work_dir(fmt::format("sandbox_read_{}_{}{}", name, via_name(tool), unprivileged ? "_nobody" : ""));
    const attack_result r = run_attack(dir, mode, tool, unprivileged);
    expect_refused(r, dir, tool, "op 'Hostile' (kernel 'hostile_cpu'): ");
    EXPECT_NE((r.out + r.err).find("VX_FAILURE"), std::string::npos) << r.out << r.err;
  }
}

// Threads (issue 50): on ef302f7 a library started 32,426 threads, up to pid_max, and the user's other
// processes could not fork. The runner's cap (RLIMIT_NPROC in its own user namespace, so the user's
// other processes do not count) stops 2000 short: the kernel fails. The kernel exempts the real root
// user from RLIMIT_NPROC, so a root tool's runner leaves root for nobody first (on fdeb2e1 a root tool's
// runner started all 2000 and the run passed).
void run_thread_attacks(bool unprivileged) {
#if defined(RKNNOP_SANITIZED_BUILD_TESTS)
  GTEST_SKIP() << "a sanitizer build opens the runner's filter for the sanitizers (docs/isolation.md)";
#endif
  if (unprivileged && ::geteuid() != 0) GTEST_SKIP() << "setpriv to nobody needs root";
  for (const via tool : all_tools) {
#ifndef RKNNOP_PARITY_EXE
    if (tool == via::parity) continue;
#endif
    SCOPED_TRACE(via_name(tool));
    const fs::path dir =
        rknnop_test::work_dir(fmt::format("sandbox_threads_{}{}", via_name(tool), unprivileged ? "_nobody" : ""));
    const attack_result r = run_attack(dir, 50, tool, unprivileged);
    expect_refused(r, dir, tool, "op 'Hostile' (kernel 'hostile_cpu'): ");
    EXPECT_NE((r.out + r.err).find("VX_FAILURE"), std::string::npos) << r.out << r.err;
  }
}
TEST(Sandbox, ThreadsAreCapped) { run_thread_attacks(false); }
TEST(Sandbox, ThreadsAreCappedForAnUnprivilegedUser) { run_thread_attacks(true); }

// The status page is the library's to write (issue 50): on ef302f7 a library that wrote 1 TiB of tensors
// there switched the memory limit off and filled 1 GiB under a 256 MiB limit (the run passed); on fdeb2e1
// the tool took that figure up to the tensor budget, so a model's node still filled 1 GiB under the
// default budget, and the step the library wrote there was said in the tool's own voice ("the validator
// of Hostile used more than..."). The tool counts the run's tensors itself (a model fixes all of them;
// in op mode an output only the validator shapes counts up to --memory-limit) and says the page's step
// as the runner's report.
// rknnop-parity has no --memory-limit: its budget is RKNNOP_MEMORY_LIMIT's (its CPU case's output is the
// validator's shape, as in op mode).
TEST(Sandbox, AForgedTensorFigureDoesNotRaiseTheMemoryLimit) {
  for (const auto& [tool, unprivileged] : ways({via::run, via::model, via::parity})) {
    SCOPED_TRACE(way_name({tool, unprivileged}));
    const fs::path dir = rknnop_test::work_dir("sandbox_status_page_" + way_name({tool, unprivileged}));
    const std::vector<std::string> budget =
        tool == via::run ? std::vector<std::string>{"--memory-limit", "16M"} : std::vector<std::string>{};
    const std::vector<std::string> environment =
        tool == via::parity ? std::vector<std::string>{"RKNNOP_MEMORY_LIMIT=16M"} : std::vector<std::string>{};
    const attack_result r = run_attack(dir, 51, tool, unprivileged, budget, false, environment);
    if (tool == via::parity && r.status == 77) GTEST_SKIP() << "no OpenCL device: " << r.err;
    expect_refused(r, dir, tool, fmt::format("{} used more than", hostile_origin(tool, 51)));
    EXPECT_NE((r.out + r.err)
                  .find("MiB beyond the run's tensors, RKNNOP_NODE_MEMORY_LIMIT); the runner reports: in the "
                        "validator\n"),
              std::string::npos)
        << r.out << r.err;
  }
}

// The page's step and fault text are the runner's report, never the tool's words: a library that writes
// "the validator" and an invented overrun there and then dies of SIGSEGV is reported as the runner having
// crashed, the page's text after "the runner reports:" (on fdeb2e1: "the validator of Hostile (...) crashed
// with SIGSEGV (Segmentation fault): the access at byte 9 of output 'output' is 1 byte(s) past its end").
TEST(Sandbox, TheStatusPagesStepAndFaultAreTheRunnersReport) {
#if defined(RKNNOP_SANITIZED_BUILD_TESTS)
  GTEST_SKIP() << "under a sanitizer the runner's SIGSEGV is the sanitizer's report first";
#endif
  for (const auto& [tool, unprivileged] : ways({via::run, via::model, via::parity})) {
    SCOPED_TRACE(way_name({tool, unprivileged}));
    const fs::path dir = rknnop_test::work_dir("sandbox_status_text_" + way_name({tool, unprivileged}));
    const attack_result r = run_attack(dir, 54, tool, unprivileged);
    expect_refused(r, dir, tool,
                   fmt::format("{} crashed with SIGSEGV (Segmentation fault); the runner reports: in the validator, "
                               "the access at byte 9 of output 'output' is 1 byte(s) past its end",
                               hostile_origin(tool, 54)));
    EXPECT_EQ((r.out + r.err).find("the validator of"), std::string::npos) << r.out << r.err;
  }
}

// One run of the tool `tool` (with `environment` before it, as nobody when `unprivileged`), measured: sh execs
// it (one process, which wait4 measures, with the runners it waited for) with its stdout and stderr in
// `dir`/log.txt. Its wait status and peak resident memory in KiB.
struct measured_run {
  int status = 0;
  long peak_kib = 0;
  std::string log;
};
measured_run run_measured(const fs::path& dir, bool unprivileged, const std::vector<std::string>& environment,
                          const std::vector<std::string>& tool) {
  std::vector<std::string> args = {"/bin/sh", "-c", "exec \"$@\" >\"$0\" 2>&1", (dir / "log.txt").string()};
  if (unprivileged) {  // setpriv runs the tool in its own process too
    for (const fs::path& p : {dir, dir / "tmp", dir / "in.npy"}) EXPECT_EQ(::chown(p.c_str(), 65534, 65534), 0) << p;
    const fs::path cache = fs::path(RKNNOP_TEST_WORK_DIR) / "sandbox_nobody_pocl_cache";
    fs::create_directories(cache);
    EXPECT_EQ(::chown(cache.c_str(), 65534, 65534), 0);
    args.insert(args.end(), {"/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/env",
                             "POCL_CACHE_DIR=" + cache.string()});
  } else {
    args.push_back("/usr/bin/env");
  }
  args.insert(args.end(), environment.begin(), environment.end());
  args.insert(args.end(), tool.begin(), tool.end());
  const pid_t pid = spawn_quiet(args, dir / "tmp");
  measured_run run;
  rusage usage{};
  EXPECT_EQ(::wait4(pid, &run.status, 0, &usage), pid);
  run.peak_kib = usage.ru_maxrss;
  run.log = rknnop_test::slurp(dir / "log.txt");
  return run;
}

// The reply's size, raced (issue 50): a thread of the library grows and shrinks the reply file between 76
// MiB and 1 GiB while the tool reads it. On ef302f7 the tool took the size for its check and then read
// what the file had grown to (4.2 GB RSS under --memory-limit 64M, about 1 run in 10). The tool takes the
// size once and reads no more: its peak (with its runners': wait4 counts them) stays within --memory-limit,
// 16 MiB of reply text and 48 MiB of its own (a run of the tool alone peaks near 8 MiB); rknnop-parity's
// within that beyond a clean run's peak (its VX runner holds POCL and LLVM, well over 48 MiB).
// A read is raced the wrong way only now and then (most reads find the file at 1 GiB at once and refuse
// it, which ends a run of rknnop-run), so each way makes many: rknnop-run `race_runs` runs of --repeat
// (a reply read at 76 MiB passes and the next run of --repeat races again), rknnop-parity `race_cases`
// cases (a refused case is its ERROR; the next case goes on). 40 runs (30 before the huge pages below):
// a run hit ef302f7's race 1 time in 10 (16 in 160; 19 in 200 with the huge pages), so the 80 runs of a
// test miss it with a chance of 0.905^80 = 0.0003 (0.9^60 = 0.002 with 30 and 4 KiB pages).
constexpr int race_runs = 40;
constexpr int race_cases = 30;
// Three tests (rknnop-run's op mode, its model mode, rknnop-parity), each well within ctest's 300 s on a loaded
// 2-core machine (op and model mode together took 285 s there with 4 KiB pages; 36 s with huge pages).
void run_reply_races(std::initializer_list<via> tools) {
  SKIP_MEMORY_OR_ELF_CHECK_UNDER_ASAN();
  constexpr long bound_kib = (64 + 16 + 48) * 1024;
  for (const auto& [tool, unprivileged] : ways(tools)) {
    SCOPED_TRACE(way_name({tool, unprivileged}));
    const fs::path dir = rknnop_test::work_dir("sandbox_reply_race_" + way_name({tool, unprivileged}));
    write_npy_file(npy_array::from_floats(std::vector<float>(64, 1.0f), {1, 8, 8}), dir / "in.npy");
    fs::create_directories(dir / "tmp");
    const auto command = [&](int mode) {
      std::vector<std::string> args;
#ifdef RKNNOP_PARITY_EXE
      if (tool == via::parity)
        return std::vector<std::string>{RKNNOP_PARITY_EXE,
                                        RKNNOP_HOSTILE_SO,
                                        "--op-yml",
                                        RKNNOP_HOSTILE_YML,
                                        "--vx",
                                        RKNNOP_HOSTILE_VX,
                                        "--shape",
                                        "input=1,8,8",
                                        "--param",
                                        fmt::format("mode={}", mode),
                                        "--random",
                                        std::to_string(mode == 0 ? 1 : race_cases)};
#endif
      args.push_back(RKNNOP_RUN_EXE);
      if (tool == via::model)
        args.push_back(hostile_model(mode).string());
      else
        args.insert(args.end(),
                    {RKNNOP_HOSTILE_SO, "--op-yml", RKNNOP_HOSTILE_YML, "--param", fmt::format("mode={}", mode)});
      args.insert(args.end(), {"--input", "input=" + (dir / "in.npy").string(), "--output",
                               "output=" + (dir / "out.npy").string(), "--memory-limit", "64M", "--repeat", "20"});
      return args;
    };
    // glibc's malloc in transparent huge pages: a reply read at 76 MiB faults in 38 pages instead of 19,456,
    // which took most of a run of --repeat (1.3 s on a loaded 2-core VM, 0.24 s with), and the race is hit
    // as often (above). A kernel without transparent huge pages ignores it.
    const std::vector<std::string> environment = {"RKNNOP_NODE_TIME_LIMIT=30", "RKNNOP_MEMORY_LIMIT=64M",
                                                  "GLIBC_TUNABLES=glibc.malloc.hugetlb=1"};
    long bound = bound_kib;
    if (tool == via::parity) {  // a clean run's peak: its VX runner's
      const measured_run clean = run_measured(dir, unprivileged, environment, command(0));
      if (WIFEXITED(clean.status) && WEXITSTATUS(clean.status) == 77) GTEST_SKIP() << "no OpenCL: " << clean.log;
      ASSERT_TRUE(WIFEXITED(clean.status) && WEXITSTATUS(clean.status) == 0) << clean.log;
      bound += clean.peak_kib;
    }
    const int runs = tool == via::parity ? 1 : race_runs;
    long peak = 0;
    for (int run = 1; run <= runs && peak <= bound; ++run) {
      const measured_run r = run_measured(dir, unprivileged, environment, command(55));
      ASSERT_TRUE(WIFEXITED(r.status) && WEXITSTATUS(r.status) <= 1) << "the tool was killed: " << r.status << r.log;
      peak = std::max(peak, r.peak_kib);
      EXPECT_LE(r.peak_kib, bound) << "run " << run << ": the tool (or its runner) peaked at " << r.peak_kib
                                   << " KiB: " << r.log;
      // The run reached the reply: it passed, or a reply was refused naming the op (rknnop-run's one line,
      // rknnop-parity's case ERROR).
      if (WEXITSTATUS(r.status) == 1) {
        EXPECT_NE(r.log.find(tool == via::parity ? "ERROR: CPU kernel: rknnop: Hostile (" : "rknnop-run: Hostile ("),
                  std::string::npos)
            << r.log;
      } else if (tool != via::parity) {
        EXPECT_TRUE(fs::exists(dir / "out.npy")) << r.log;
      }
      EXPECT_TRUE(empty_folder(dir / "tmp"));
    }
    std::cout << fmt::format("{}: peak {} KiB (bound {} KiB)\n", way_name({tool, unprivileged}), peak, bound);
  }
}
TEST(Sandbox, ARacedReplySizeKeepsTheToolsMemoryBounded) { run_reply_races({via::run}); }
TEST(Sandbox, ARacedReplySizeKeepsModelModesMemoryBounded) { run_reply_races({via::model}); }
#ifdef RKNNOP_PARITY_EXE
TEST(Sandbox, ARacedReplySizeKeepsParitysMemoryBounded) { run_reply_races({via::parity}); }
#endif

// A file size limit on the tool (a runner's prlimit could set one on ef302f7: RLIMIT_FSIZE 0 killed
// rknnop-run with SIGXFSZ, exit status 153, no message, a .out.npy.tmp.* left) is an error naming what
// could not be written, and nothing is left behind.
TEST(Sandbox, AFileSizeLimitOnTheToolIsAnErrorNotASilentDeath) {
  const fs::path dir = rknnop_test::work_dir("sandbox_fsize");
  write_npy_file(npy_array::from_floats(std::vector<float>(4096, 1.0f), {1, 64, 64}), dir / "in.npy");
  fs::create_directories(dir / "tmp");
  const tool_result r =
      run_tool("prlimit",
               {"--fsize=4096", "env", "TMPDIR=" + (dir / "tmp").string(), RKNNOP_RUN_EXE, RKNNOP_HOSTILE_SO,
                "--op-yml", RKNNOP_HOSTILE_YML, "--input", "input=" + (dir / "in.npy").string(), "--param", "mode=0",
                "--output", "output=" + (dir / "out.npy").string()},
               dir);
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_EQ(line_count(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find("File too large"), std::string::npos) << r.err;
  for (const fs::directory_entry& e : fs::directory_iterator(dir))
    EXPECT_EQ(e.path().filename().string().find("out.npy"), std::string::npos) << "left: " << e.path();
  EXPECT_TRUE(empty_folder(dir / "tmp"));
}

// The control channel (issue 50): a thread of the library that answers every byte on descriptor 7 made
// each later run of `--repeat` return the first run's outputs on ef302f7 (the run passed). The tool
// empties the reply before each request: an answer that is not the runner's reads no reply, refused.
// The thread races the runner's own for each request, and under load loses most races (stop 57's CI:
// all 11 of a 12-case parity run): 40 cases and 60 runs give it more than enough.
TEST(Sandbox, AnAnswerFromALibrarysThreadReadsNoEarlierReply) {
  for (const auto& [tool, unprivileged] : ways({via::run, via::model, via::parity})) {
    SCOPED_TRACE(way_name({tool, unprivileged}));
    const fs::path dir = rknnop_test::work_dir("sandbox_control_channel_" + way_name({tool, unprivileged}));
    const attack_result r = run_attack(
        dir, 52, tool, unprivileged,
        tool == via::parity ? std::vector<std::string>{"--random", "40"} : std::vector<std::string>{"--repeat", "60"});
    EXPECT_EQ(r.status, 1) << r.out << r.err;
    const std::string line = fmt::format("{}: node runner message: truncated", hostile_origin(tool, 52));
    if (tool == via::parity) {
      EXPECT_NE(r.out.find("ERROR: CPU kernel: rknnop: " + line), std::string::npos) << r.out << r.err;
    } else {
      EXPECT_EQ(line_count(r.err), 1u) << r.err;
      EXPECT_NE(r.err.find(line), std::string::npos) << r.err;
    }
  }
}

#ifdef RKNNOP_PARITY_EXE
// A VX runner's child outlived the tool on ef302f7 (SIGKILL, SIGTERM, SIGHUP, SIGINT of the tool): the
// runner's guardian kills its process group when the runner dies, which it does with the tool. Through
// rknnop-run (op mode, its VX kernel) and rknnop-parity (its VX case's runner, beside the CPU kernel's);
// as this user, and as nobody when the test runs as root (a nobody tool's runner and guardian are nobody's).
void run_vx_child_attacks(via tool, bool unprivileged) {
#if defined(RKNNOP_SANITIZED_BUILD_TESTS)
  GTEST_SKIP() << "a sanitizer build opens the runner's filter for the sanitizers (docs/isolation.md)";
#endif
  if (unprivileged && ::geteuid() != 0) GTEST_SKIP() << "setpriv to nobody needs root";
  for (const char* signal_name : {"KILL", "TERM", "HUP", "INT"}) {
    SCOPED_TRACE(signal_name);
    const fs::path dir = rknnop_test::work_dir(
        fmt::format("sandbox_vx_child_{}_{}{}", via_name(tool), signal_name, unprivileged ? "_nobody" : ""));
    write_npy_file(npy_array::from_floats(std::vector<float>(64, 1.0f), {1, 8, 8}), dir / "in.npy");
    fs::create_directories(dir / "tmp");
    std::string as_user;
    if (unprivileged) {
      for (const fs::path& p : {dir, dir / "tmp", dir / "in.npy"}) EXPECT_EQ(::chown(p.c_str(), 65534, 65534), 0) << p;
      // POCL in rknnop-parity (its OpenCL probe) needs a cache folder nobody may write.
      const fs::path cache = fs::path(RKNNOP_TEST_WORK_DIR) / "sandbox_nobody_pocl_cache";
      fs::create_directories(cache);
      EXPECT_EQ(::chown(cache.c_str(), 65534, 65534), 0);
      as_user =
          fmt::format("setpriv --reuid=65534 --regid=65534 --clear-groups env POCL_CACHE_DIR={} ", cache.string());
    }
    const std::string command =
        tool == via::parity
            ? fmt::format("{} {} --op-yml {} --vx {} --shape input=1,8,8 --random 1 --param mode=153",
                          RKNNOP_PARITY_EXE, RKNNOP_HOSTILE_SO, RKNNOP_HOSTILE_YML, RKNNOP_HOSTILE_VX)
            : fmt::format(
                  "{} {} --op-yml {} --input input={}/in.npy --output output={}/out.npy --kernel-index 1 --vx {} "
                  "--param mode=153",
                  RKNNOP_RUN_EXE, RKNNOP_HOSTILE_SO, RKNNOP_HOSTILE_YML, dir.string(), dir.string(), RKNNOP_HOSTILE_VX);
    const std::string run = fmt::format(
        "{}env --default-signal=INT TMPDIR={}/tmp RKNNOP_NODE_TIME_LIMIT=30 "
        "RKNNOP_HOSTILE_MARK={} {}",
        as_user, dir.string(), dir.string(), command);
    // The child is up once a marked rknnop-node's parent is an rknnop-node (a runner's fork: a runner's
    // other children are its guardian); then the tool is signalled. (sh starts a background job with
    // SIGINT ignored: env gives the tool SIGINT's default back, or the INT case would only wait for the
    // time limit.)
    const std::string child_up = fmt::format(
        "up() {{ for f in $(grep -l {} /proc/[0-9]*/environ 2>/dev/null); do p=${{f%/environ}}; "
        "[ \"$(cat $p/comm 2>/dev/null)\" = rknnop-node ] || continue; "
        "pp=$(sed -n 's/^PPid:[[:space:]]*//p' $p/status 2>/dev/null); "
        "[ -n \"$pp\" ] && [ \"$(cat /proc/$pp/comm 2>/dev/null)\" = rknnop-node ] && return 0; done; return 1; }}",
        dir.string());
    const tool_result r = run_tool(
        "sh",
        {"-c", fmt::format("{}; {} & for i in $(seq 300); do up && echo up && break; sleep 0.1; done; kill -{} $!; "
                           "wait $!; exit 0",
                           child_up, run, signal_name)},
        dir);
    EXPECT_NE(r.out.find("up"), std::string::npos) << "the runner's child did not start: " << r.out << r.err;
    std::vector<std::string> left = processes_marked(dir.string());
    for (int wait = 0; wait < 1000 && !left.empty(); ++wait) {  // up to 10 s on a loaded machine
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      left = processes_marked(dir.string());
    }
    EXPECT_TRUE(left.empty()) << "still running after the tool's end: " << fmt::format("{}", fmt::join(left, " "));
  }
}
TEST(Sandbox, AVxRunnersChildEndsWithTheToolHoweverItEnds) { run_vx_child_attacks(via::run, false); }
TEST(Sandbox, AVxRunnersChildEndsWithTheToolHoweverItEndsForAnUnprivilegedUser) {
  run_vx_child_attacks(via::run, true);
}
TEST(Sandbox, AVxRunnersChildEndsWithParityHoweverItEnds) { run_vx_child_attacks(via::parity, false); }
TEST(Sandbox, AVxRunnersChildEndsWithParityHoweverItEndsForAnUnprivilegedUser) {
  run_vx_child_attacks(via::parity, true);
}
#endif

TEST(Sandbox, RunsReadsBeyondTheNodesFilesAreRefused) { run_read_attacks(via::run, false); }
TEST(Sandbox, RunsReadsBeyondTheNodesFilesAreRefusedForAnUnprivilegedUser) { run_read_attacks(via::run, true); }
TEST(Sandbox, ModelModesReadsBeyondTheNodesFilesAreRefused) { run_read_attacks(via::model, false); }
TEST(Sandbox, ModelModesReadsBeyondTheNodesFilesAreRefusedForAnUnprivilegedUser) { run_read_attacks(via::model, true); }
#ifdef RKNNOP_PARITY_EXE
TEST(Sandbox, ParitysReadsBeyondTheNodesFilesAreRefused) { run_read_attacks(via::parity, false); }
#endif

#ifdef RKNNOP_PARITY_EXE
TEST(Sandbox, ParitysAttacksAreRefusedAndNamed) { run_attacks(via::parity, false); }
TEST(Sandbox, ParitysAttacksAreRefusedAndNamedForAnUnprivilegedUser) { run_attacks(via::parity, true); }
#endif

#if defined(__x86_64__) && !defined(RKNNOP_SANITIZED_BUILD_TESTS)  // (the test below skips under sanitizers)
// Why this kernel cannot run an i386 system call from a 64-bit process ("" when it can): a probe process
// makes i386's getpid through `int 0x80`. A kernel without IA-32 emulation (built without
// CONFIG_IA32_EMULATION, booted with ia32_emulation=0, or a paravirtual guest whose host runs 64-bit user
// code only) installs no gate for the vector: the instruction faults (SIGSEGV, a general protection fault)
// before any system call is made, so no seccomp filter ever sees it.
std::string ia32_emulation_missing() {
  const pid_t child = ::fork();
  if (child == 0) {
    const rlimit no_core{0, 0};
    ::setrlimit(RLIMIT_CORE, &no_core);
    std::signal(SIGSEGV, SIG_DFL);  // a sanitizer's handler would exit instead
    long result = 20;               // i386's getpid
    __asm__ volatile("int $0x80" : "+a"(result) : : "r8", "r9", "r10", "r11", "memory");
    ::_exit(result == static_cast<long>(::getpid()) ? 0 : 1);
  }
  int status = 0;
  if (child < 0 || ::waitpid(child, &status, 0) != child)
    return fmt::format("the IA-32 probe did not run: {}", std::strerror(errno));
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return "";
  if (WIFSIGNALED(status))
    return fmt::format(
        "this kernel has no IA-32 emulation: `int 0x80` (i386's getpid) in a probe process faulted ({}) "
        "instead of calling, so an i386 call never reaches the runner's filter (no CONFIG_IA32_EMULATION, "
        "ia32_emulation=0, or a host that runs 64-bit user code only; dmesg may say which)",
        ::strsignal(WTERMSIG(status)));
  return fmt::format("this kernel answered i386's getpid wrongly (probe exit {})", WEXITSTATUS(status));
}
#endif

// A call of another architecture kills the whole runner (SCMP_ACT_KILL_PROCESS), named by the tool: x32's
// is in the attacks above (mode 46); i386's `int 0x80` (mode 41) here (on ef302f7 either killed only the
// calling thread, and the tool waited out its time limit). Where the kernel has IA-32 emulation the
// runner's filter kills it (SIGSYS); where it has none the instruction faults before any call is made,
// and the fault (SIGSEGV) ends the whole runner, named as a crash (not the time limit's line: a runner
// left waiting would be named so).
TEST(Sandbox, AnI386CallKillsTheWholeRunnerAndIsNamed) {
#if defined(RKNNOP_SANITIZED_BUILD_TESTS)
  GTEST_SKIP() << "a sanitizer build opens the runner's filter for the sanitizers (docs/isolation.md)";
#elif !defined(__x86_64__)
  GTEST_SKIP() << "`int 0x80` from a 64-bit process is x86-64's";
#else
  const std::string missing = ia32_emulation_missing();
  if (!missing.empty()) std::cout << "the fault's path (" << missing << ")\n";
  constexpr attack int80{41, "int80", nullptr};
  for (const auto& [tool, unprivileged] : ways({via::run, via::model, via::parity})) {
    SCOPED_TRACE(way_name({tool, unprivileged}));
    const fs::path dir = rknnop_test::work_dir("sandbox_int80_" + way_name({tool, unprivileged}));
    const attack_result r = run_attack(dir, int80.mode, tool, unprivileged);
    if (tool == via::parity && r.status == 77) GTEST_SKIP() << "no OpenCL device: " << r.err;
    expect_refused(r, dir, tool,
                   missing.empty() ? refusal(hostile_origin(tool, int80.mode), int80)
                                   : hostile_origin(tool, int80.mode) +
                                         " crashed with SIGSEGV (Segmentation fault); the runner reports: in the "
                                         "CPU kernel");
  }
#endif
}

// In a VX shader's runner (processes allowed, for POCL's linker) the other layers hold: the attacks
// from the VX kernel's initializer are refused and named, a file write is refused by Landlock (the
// initializer fails), and a child process counts with the runner's memory and is killed with its group.
void run_vx_attacks(via tool, bool unprivileged) {
#if defined(RKNNOP_SANITIZED_BUILD_TESTS)
  GTEST_SKIP() << "a sanitizer build opens the runner's filter for the sanitizers (docs/isolation.md)";
#endif
  if (unprivileged && ::geteuid() != 0) GTEST_SKIP() << "setpriv to nobody needs root";
  const std::string way = way_name({tool, unprivileged});
  for (const attack& a : attacks) {
    if (a.mode == 24 || a.mode == 25 || a.mode == 27 || a.mode == 34) continue;  // processes, Landlock, mounts: below
    SCOPED_TRACE(a.name);
    const fs::path dir = rknnop_test::work_dir(fmt::format("sandbox_vx_{}_{}", a.name, way));
    const attack_result r = run_attack(dir, a.mode + 100, tool, unprivileged, {}, true);
    if (r.status == 77 || r.err.find("cannot run the VX shader on the host") != std::string::npos)
      GTEST_SKIP() << "no OpenCL: " << r.err;
    expect_refused(r, dir, tool, refusal(hostile_origin(tool, a.mode), a, "the initializer"), "VX kernel");
  }
  const fs::path write = rknnop_test::work_dir(fmt::format("sandbox_vx_write_file_{}", way));
  expect_refused(run_attack(write, 127, tool, unprivileged, {}, true), write, tool,
                 "op 'Hostile' (kernel 'hostile_vx'): initialize failed with VX_FAILURE", "VX kernel");
  // chmod passes the filter of a VX runner (its linker chmods what it links): the read-only mounts of
  // its mount namespace refuse it (EROFS), and the input's mode stays (expect_refused checks it).
  const fs::path chmod = rknnop_test::work_dir(fmt::format("sandbox_vx_chmod_{}", way));
  expect_refused(run_attack(chmod, 134, tool, unprivileged, {}, true), chmod, tool,
                 "op 'Hostile' (kernel 'hostile_vx'): initialize failed with VX_FAILURE", "VX kernel");
  // The child holds 512 MiB: it counts with the runner's memory (its process group), past 256 MiB; so
  // does one that names itself "x\n) R 1 1 1" (mode 156: on ef302f7 the watch read the first line of its
  // stat, took it for no member of the group, and the run passed holding 1.5 GiB under 256 MiB).
  for (const int mode : {124, 156}) {
    SCOPED_TRACE(mode);
    const fs::path fork = rknnop_test::work_dir(fmt::format("sandbox_vx_fork_{}_{}", mode, way));
    const attack_result forked = run_attack(fork, mode, tool, unprivileged, {}, true);
    EXPECT_EQ(forked.status, 1) << forked.out << forked.err;
    EXPECT_NE((forked.out + forked.err).find("used more than 256 MiB of memory"), std::string::npos)
        << forked.out << forked.err;
    std::vector<std::string> left = processes_marked(fork.string());
    for (int wait = 0; wait < 100 && !left.empty(); ++wait) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      left = processes_marked(fork.string());
    }
    EXPECT_TRUE(left.empty()) << "the runner's child outlived the run";
  }
}

#ifdef RKNNOP_PARITY_EXE
TEST(Sandbox, RunsVxRunnerAttacksAreRefusedAndItsChildrenEndWithIt) { run_vx_attacks(via::run, false); }
TEST(Sandbox, RunsVxRunnerAttacksAreRefusedAndItsChildrenEndWithItForAnUnprivilegedUser) {
  run_vx_attacks(via::run, true);
}
TEST(Sandbox, ParitysVxRunnerAttacksAreRefusedAndItsChildrenEndWithIt) { run_vx_attacks(via::parity, false); }
TEST(Sandbox, ParitysVxRunnerAttacksAreRefusedAndItsChildrenEndWithItForAnUnprivilegedUser) {
  run_vx_attacks(via::parity, true);
}
#endif

// Where a layer is missing, the tool says so once and the others hold: the tool run under a filter
// that answers landlock_create_ruleset with ENOSYS (as a kernel without Landlock does), which the
// runner inherits.
TEST(Sandbox, AMissingLayerIsSaidOnceAndTheOthersHold) {
#if defined(RKNNOP_SANITIZED_BUILD_TESTS) || !defined(__NR_landlock_create_ruleset)
  GTEST_SKIP() << "the native build with Landlock's system call checks this";
#else
  const fs::path dir = rknnop_test::work_dir("sandbox_no_landlock");
  const std::size_t segments = gib_segments();  // (run_attack counts them in the child)
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_landlock_create_ruleset, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    sock_fprog program{static_cast<unsigned short>(std::size(filter)), filter};
    if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || ::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) != 0)
      ::_exit(99);
    ::_exit(run_attack(dir, 20, via::run, false).status);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) != 99) << "the test's filter was not installed";
  attack_result r;
  r.status = WEXITSTATUS(status);
  r.err = rknnop_test::slurp(dir / "stderr.txt");
  r.gib_segments_before = segments;
  EXPECT_EQ(line_count(r.err), 2u) << r.err;
  EXPECT_TRUE(
      r.err.starts_with("rknnop: note: the node runner runs without Landlock (the kernel offers none: "
                        "Function not implemented); its other layers hold (docs/isolation.md)\n"))
      << r.err;
  r.err.erase(0, r.err.find('\n') + 1);
  expect_refused(r, dir, via::run, refusal(hostile_origin(via::run, 20), attacks[0]));
#endif
}

// A truncated reply (a string running past the reply's end) is one line naming the op and its library,
// not "node runner message: truncated" alone.
TEST(Sandbox, ATruncatedReplyNamesTheOpAndItsLibrary) {
  const fs::path dir = rknnop_test::work_dir("sandbox_truncated_reply");
  expect_refused(run_attack(dir, 33, via::run, false), dir, via::run,
                 fmt::format("Hostile ({}): node runner message: truncated", RKNNOP_HOSTILE_SO));
}

// A reply the library wrote itself, sent as the runner's: its size is checked before it is read (a
// 1 GiB reply under --memory-limit 64M), its outputs against their shapes (128 MiB for a 5 x 7 FLOAT16).
TEST(Sandbox, AForgedReplyIsRefusedBeforeItIsRead) {
  const fs::path big = rknnop_test::work_dir("sandbox_forged_big");
  expect_refused(run_attack(big, 29, via::run, false, {"--memory-limit", "64M"}), big, via::run,
                 fmt::format("Hostile ({}): the node runner's reply is 1073741824 bytes, more than the memory budget "
                             "and 16 MiB of text allow (83886080 bytes); it was not read",
                             RKNNOP_HOSTILE_SO));
  const fs::path shape = rknnop_test::work_dir("sandbox_forged_shape");
  expect_refused(run_attack(shape, 30, via::run, false, {"--memory-limit", "1G"}), shape, via::run,
                 "the node runner's reply is forged: output 'output' holds 134217728 bytes, its shape 70");
  // A shape the request fixed (--output-shape) is checked before the bytes: the forged (5, 7) is refused.
  const fs::path fixed = rknnop_test::work_dir("sandbox_forged_fixed_shape");
  expect_refused(run_attack(fixed, 30, via::run, false, {"--memory-limit", "1G", "--output-shape", "output=1,8,8"}),
                 fixed, via::run,
                 "the node runner's reply is forged: output 'output' has a shape other than the requested one");
}

// Root in the runner has no capabilities: the op's code finds CapEff empty (before, a root tool's
// runner had them all, and mode 32 failed).
TEST(Sandbox, RootInTheRunnerHasNoCapabilities) {
  const fs::path dir = rknnop_test::work_dir("sandbox_capabilities");
  const attack_result r = run_attack(dir, 32, via::run, false);
  EXPECT_EQ(r.status, 0) << r.err;
}

// A memory file the library's constructor filled (before memfd_create is refused) counts with the
// runner's memory: 256 MiB in it stop a runner limited to 64 MiB (before, the run passed).
TEST(Sandbox, AConstructorsMemoryFileCountsWithTheRunnersMemory) {
  const fs::path dir = rknnop_test::work_dir("sandbox_constructor_memfd");
  write_npy_file(npy_array::from_floats(std::vector<float>(64, 1.0f), {1, 8, 8}), dir / "in.npy");
  fs::create_directories(dir / "tmp");
  const tool_result r = run_tool(
      "env",
      {"TMPDIR=" + (dir / "tmp").string(), "RKNNOP_NODE_TIME_LIMIT=10", "RKNNOP_NODE_MEMORY_LIMIT=64",
       "RKNNOP_HOSTILE_MEMFD_MIB=256", RKNNOP_RUN_EXE, RKNNOP_HOSTILE_SO, "--op-yml", RKNNOP_HOSTILE_YML, "--input",
       "input=" + (dir / "in.npy").string(), "--param", "mode=0", "--output", "output=" + (dir / "out.npy").string()},
      dir);
  expect_one_line(r, dir, "used more than 64 MiB of memory");
}

// A load reply the library's constructor forged (numParams 0 for an op.yml of 3) is refused: the tool
// checks the descriptor against the op.yml it read.
TEST(Sandbox, AForgedDescriptorIsRefused) {
  const fs::path dir = rknnop_test::work_dir("sandbox_forged_descriptor");
  write_npy_file(npy_array::from_floats(std::vector<float>(64, 1.0f), {1, 8, 8}), dir / "in.npy");
  const tool_result r =
      run_limited(dir,
                  {RKNNOP_HOSTILE_SO, "--op-yml", RKNNOP_HOSTILE_YML, "--input", "input=" + (dir / "in.npy").string(),
                   "--param", "mode=0", "--output", "output=" + (dir / "out.npy").string()},
                  10, {"RKNNOP_HOSTILE_FORGE_LOAD=1"});
  expect_one_line(r, dir,
                  fmt::format("Hostile ({}): the node runner's reply is forged: kernel 'hostile_cpu' has numParams 0, "
                              "op.yml declares 3",
                              RKNNOP_HOSTILE_SO));
}

// A runner the tool stops itself (its channel closed under it) is said to be stopped by the tool, not
// to have crashed with SIGKILL (before, "crashed with SIGKILL (Killed)").
TEST(Sandbox, ARunnerTheToolStoppedIsNotCalledACrash) {
  const fs::path dir = rknnop_test::work_dir("sandbox_closed_channel");
  const attack_result r = run_attack(dir, 31, via::run, false);
  expect_refused(r, dir, via::run,
                 fmt::format("Hostile ({}) closed the node runner's channel to the tool without an answer; the tool "
                             "stopped it (SIGKILL); the runner reports: in the CPU kernel",
                             RKNNOP_HOSTILE_SO));
  EXPECT_EQ(r.err.find("crashed"), std::string::npos) << r.err;
}

// RKNNOP_NODE_TIME_LIMIT is bounded: a number of seconds the steady clock cannot add is refused, not
// an instant "did not finish within 9223372037 s".
TEST(Sandbox, ATimeLimitBeyondAYearIsRefused) {
  const fs::path dir = rknnop_test::work_dir("sandbox_time_limit");
  const tool_result r = run_limited(dir, {RKNNOP_HOSTILE_SO, "--op-yml", RKNNOP_HOSTILE_YML, "--describe"}, 2,
                                    {"RKNNOP_NODE_TIME_LIMIT=9223372037"});
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("RKNNOP_NODE_TIME_LIMIT='9223372037': at most 31536000 (a year)"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("did not finish"), std::string::npos) << r.err;
}

// The live runners (rknnop-node, whose argv[2] is `pid`) of the process `pid`, their guardians left out:
// a guardian is forked from its runner, so it has the runner's command line, and it is named
// rknnop-guardian only a moment after the fork (a check in that moment counted two runners). A guardian
// is known by its parent, a runner, and once that runner is gone by its name.
std::vector<std::string> runner_pids(pid_t pid) {
  const auto parent_of = [](const fs::path& proc) {
    const std::string stat = rknnop_test::slurp(proc / "stat");
    const std::size_t end = stat.rfind(')');  // the command name may hold spaces and parentheses
    return end == std::string::npos ? std::string() : stat.substr(end + 4, stat.find(' ', end + 4) - (end + 4));
  };
  std::vector<std::pair<std::string, std::string>> candidates;  // pid, parent pid
  for (const fs::directory_entry& e : fs::directory_iterator("/proc")) {
    const std::string cmdline = rknnop_test::slurp(e.path() / "cmdline");
    if (cmdline.find(std::string("--rknnop-node") + '\0' + std::to_string(pid) + '\0') != std::string::npos &&
        rknnop_test::slurp(e.path() / "comm") != "rknnop-guardian\n")
      candidates.emplace_back(e.path().filename().string(), parent_of(e.path()));
  }
  std::vector<std::string> found;
  for (const auto& [self, parent] : candidates)
    if (std::none_of(candidates.begin(), candidates.end(), [&](const auto& c) { return c.first == parent; }))
      found.push_back(self);
  std::sort(found.begin(), found.end());
  return found;
}

int runners_of(pid_t pid) { return static_cast<int>(runner_pids(pid).size()); }

// runners_of(pid) once it reaches 0, or after 2 s: a stopped runner's group is killed at once, but a
// process of it that had not yet run since its fork (a guardian not yet named, so not yet known from
// a runner once its runner is gone) may take a moment to die under load (stop 57's CI saw one).
int runners_left(pid_t pid) {
  int left = runners_of(pid);
  for (int wait = 0; wait < 200 && left != 0; ++wait) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    left = runners_of(pid);
  }
  return left;
}

#ifdef RKNNOP_NODE_EXE
// A session's runner serves its runs: one rknnop-node for the session's life, the library loaded once.
// A run that crashes or hangs is that run's one line; the next run gets a fresh runner; the session's
// end stops its runner (on 6df9fb6 every run started its own runner and none outlived its run).
TEST(Isolation, ASessionsRunnerServesItsRunsAndIsReplacedAfterACrash) {
  SKIP_SIGSEGV_LINE_UNDER_ASAN();
  set_node_runner(RKNNOP_NODE_EXE);
  set_node_limits(node_limits{std::chrono::seconds(2), std::uint64_t{256} << 20});
  load_options options;
  options.op_yml = RKNNOP_HOSTILE_YML;
  options.kernel_index = 0;
  options.execution = node_execution::child;
  const pid_t self = ::getpid();
  {
    session s = session::load(RKNNOP_HOSTILE_SO, options);
    const std::vector<std::string> first = runner_pids(self);
    ASSERT_EQ(first.size(), 1u) << "the runner that loaded the library is kept for the runs";
    const auto run = [&s](int mode, std::size_t side) {
      s.set_input("input", std::vector<float>(side * side, 2.0f), {1, side, side});
      s.set_param("mode", mode);
      (void)s.run();
      return s.output("output").values;
    };
    EXPECT_EQ(run(0, 8), std::vector<float>(64, 2.0f));
    EXPECT_EQ(run(0, 16), std::vector<float>(256, 2.0f));  // new shapes, new tensors, the same runner
    EXPECT_EQ(runner_pids(self), first);
    const std::string crash = fmt::format(
        "Hostile ({}) crashed with SIGSEGV (Segmentation fault); the runner reports: in the CPU kernel, a "
        "null pointer was used",
        RKNNOP_HOSTILE_SO);
    EXPECT_THROW(
        try { (void)run(1, 8); } catch (const error& e) {
          EXPECT_NE(std::string(e.what()).find(crash), std::string::npos) << e.what();
          throw;
        },
        error);
    EXPECT_EQ(runners_left(self), 0) << "the dead runner is waited for";
    EXPECT_EQ(run(0, 8), std::vector<float>(64, 2.0f));
    const std::vector<std::string> second = runner_pids(self);
    ASSERT_EQ(second.size(), 1u);
    EXPECT_NE(second, first) << "a fresh runner after the crash";
    EXPECT_THROW(
        try { (void)run(3, 8); } catch (const error& e) {
          EXPECT_NE(std::string(e.what()).find("the runner reports: in the CPU kernel"), std::string::npos) << e.what();
          EXPECT_NE(std::string(e.what()).find("did not finish within 2 s (stopped)"), std::string::npos) << e.what();
          throw;
        },
        error);
    EXPECT_EQ(run(0, 8), std::vector<float>(64, 2.0f));
  }
  EXPECT_EQ(runners_left(self), 0) << "the session's end stops its runner";
  set_node_limits(node_limits{});
  set_node_runner({});
}
#endif

pid_t spawn_quiet(const std::vector<std::string>& args, const fs::path& tmp) {
  std::vector<std::string> env_text{"TMPDIR=" + tmp.string()};
  for (char** e = environ; *e != nullptr; ++e)
    if (!std::string_view(*e).starts_with("TMPDIR=")) env_text.emplace_back(*e);
  std::vector<char*> env, argv;
  for (std::string& e : env_text) env.push_back(e.data());
  env.push_back(nullptr);
  std::vector<std::string> all = args;
  for (std::string& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid = -1;
  EXPECT_EQ(::posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), env.data()), 0);
  posix_spawn_file_actions_destroy(&actions);
  return pid;
}

#ifdef RKNNOP_TEST_RESIZEAREA_RKNNOP
// A one-node model around the ResizeArea example (rknnop-pack wrap), and where its x86-64 library lies.
struct wrapped_model {
  std::vector<std::uint8_t> bytes;
  std::size_t library_at = 0;
  std::size_t library_size = 0;
};

wrapped_model wrap_resize_area(const fs::path& dir) {
  const fs::path model_path = dir / "resize_area.rknn";
  const tool_result w = run_tool(RKNNOP_PACK_EXE,
                                 {"wrap", RKNNOP_TEST_RESIZEAREA_RKNNOP, "--input-shape", "images=1,8,8,3", "--param",
                                  "size=16,16", "--param", "align_corners=false", "-o", model_path.string()},
                                 dir);
  EXPECT_EQ(w.status, 0) << w.err;
  wrapped_model m;
  const std::string text = rknnop_test::slurp(model_path);
  m.bytes.assign(text.begin(), text.end());
  const std::vector<std::uint8_t> library = read_container_file(RKNNOP_TEST_RESIZEAREA_RKNNOP).lib_x86_64;
  const auto at = std::search(m.bytes.begin(), m.bytes.end(), library.begin(), library.end());
  EXPECT_NE(at, m.bytes.end()) << "the model does not hold the container's x86-64 library";
  m.library_at = static_cast<std::size_t>(at - m.bytes.begin());
  m.library_size = library.size();
  return m;
}

void save(const std::vector<std::uint8_t>& bytes, const fs::path& path) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

// rknnop-run OP --param size=H,W: the output's shape comes from the op's validator, in the runner; the
// memory budget (--memory-limit, RKNNOP_MEMORY_LIMIT) travels to it and is checked before the runtime
// allocates the output, so a shape the budget does not allow is one line and no memory is taken.
tool_result run_resize_area(const fs::path& dir, const std::vector<std::string>& options, const std::string& size,
                            const std::string& budget_variable = {}) {
  write_npy_file(npy_array::from_floats(std::vector<float>(8 * 8 * 3, 0.5f), {1, 8, 8, 3}), dir / "in.npy");
  const fs::path tmp = dir / "tmp";
  fs::create_directories(tmp);
  // The runner's own limits are short: a run that allocated a huge output would be stopped at 256 MiB.
  std::vector<std::string> args = {"TMPDIR=" + tmp.string(), "RKNNOP_NODE_TIME_LIMIT=10",
                                   "RKNNOP_NODE_MEMORY_LIMIT=256"};
  if (!budget_variable.empty()) args.push_back("RKNNOP_MEMORY_LIMIT=" + budget_variable);
  args.emplace_back(RKNNOP_RUN_EXE);
  args.insert(args.end(), options.begin(), options.end());
  for (const std::string& arg :
       {std::string(RKNNOP_TEST_RESIZEAREA_RKNNOP), std::string("-i"), "images=" + (dir / "in.npy").string(),
        std::string("--param"), "size=" + size, std::string("--param"), std::string("align_corners=false"),
        std::string("-o"), "output=" + (dir / "out.npy").string()})
    args.push_back(arg);
  return run_tool("env", args, dir);
}

TEST(MemoryBudget, AnOpModeOutputOverTheBudgetIsOneLineBeforeItIsAllocated) {
  const fs::path dir = rknnop_test::work_dir("budget_op_output");
  // 16384 x 16384 x 3 FLOAT16 is 1.5 GiB, a shape the op's validator gives the output in the runner.
  const tool_result r = run_resize_area(dir, {"--memory-limit", "64M"}, "16384,16384");
  expect_one_line(r, dir,
                  "rknnop-run: op 'ResizeArea' (kernel 'resizearea_cpu'): output 'output' of shape (1, 16384, 16384, "
                  "3) VX_TYPE_FLOAT16 needs 1.5 GiB, over the memory budget of 64 MiB (raise it with --memory-limit "
                  "or RKNNOP_MEMORY_LIMIT)\n");
  EXPECT_EQ(r.status, 1);
}

TEST(MemoryBudget, TheBudgetCountsTheNodesTensorsTogether) {
  const fs::path dir = rknnop_test::work_dir("budget_op_together");
  // A 128 x 128 x 3 FLOAT16 output is 98304 bytes, the 8 x 8 x 3 input 384: 98688 in all.
  const tool_result fits = run_resize_area(dir, {}, "128,128", "98688");
  ASSERT_EQ(fits.status, 0) << fits.err;
  EXPECT_EQ(read_npy_file(dir / "out.npy").shape, (std::vector<std::size_t>{1, 128, 128, 3}));
  fs::remove(dir / "out.npy");
  const tool_result over = run_resize_area(dir, {}, "128,128", "98624");
  expect_one_line(over, dir,
                  "output 'output' of shape (1, 128, 128, 3) VX_TYPE_FLOAT16 needs 96 KiB (96.4 KiB with the node's "
                  "other tensors), over the memory budget of 96.3 KiB");
}

// The runner's memory limit grows by the tensors the runner reports once it has them: an output the
// budget allows (4096 x 4096 x 3 FLOAT16, 96 MiB; with the kernel's float staging and the reply's
// copy about 400 MiB) is no "used more than 256 MiB" when only the runner's base limit is 256 MiB.
TEST(MemoryBudget, AnOutputTheBudgetAllowsIsNotStoppedByTheRunnersLimit) {
  SKIP_MEMORY_OR_ELF_CHECK_UNDER_ASAN();
  const fs::path dir = rknnop_test::work_dir("budget_op_runner_limit");
  const tool_result r = run_resize_area(dir, {}, "4096,4096");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(read_npy_file(dir / "out.npy").shape, (std::vector<std::size_t>{1, 4096, 4096, 3}));
}

// splitmix64: the same mutations on every machine.
struct splitmix64 {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
};

TEST(Interrupts, SigintDuringACheckLeavesNoFileAndNoRunner) {
  // The runner, and any file of load_model_op's (it writes none since issue 40: the op's container stays
  // in memory): SIGINT at 0-40 ms into `--check` (on 16f196e a signal 5-10 ms in left
  // $TMPDIR/rknnop-model-op-XXXXXX.rknnop).
  const fs::path dir = rknnop_test::work_dir("isolation_interrupts");
  const fs::path tmp = dir / "tmp";
  fs::create_directories(tmp);
  (void)wrap_resize_area(dir);
  int interrupted = 0;
  for (int ms = 0; ms <= 40; ms += 2) {
    SCOPED_TRACE(fmt::format("SIGINT after {} ms", ms));
    const pid_t pid = spawn_quiet({RKNNOP_RUN_EXE, (dir / "resize_area.rknn").string(), "--check"}, tmp);
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
    ::kill(pid, SIGINT);
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (WIFSIGNALED(status)) ++interrupted;
    EXPECT_TRUE(empty_folder(tmp)) << "TMPDIR is not empty";
    EXPECT_EQ(runners_left(pid), 0) << "a runner outlived its tool";  // its SIGKILL is delivered asynchronously
  }
  EXPECT_GE(interrupted, 5) << "too few runs were interrupted to test anything";
}

// What a library can do to its tool, a runner does here (RKNNOP_NODE_RUNNER is a script that SIGKILLs
// the tool, as the Hostile op's mode 22 would unconfined): `rknnop-pack update` leaves no temporary
// container (before, $TMPDIR/rknnop-model-op-XXXXXX.rknnop stayed; since issue 40 none is made) and no
// partial output. SIGKILL at
// 0-40 ms into `rknnop-run --check` leaves nothing either.
TEST(Sandbox, AToolKilledWhileItsRunnerRunsLeavesNoTemporaryFile) {
  const fs::path dir = rknnop_test::work_dir("sandbox_killed_tool");
  const fs::path tmp = dir / "tmp", out = dir / "out";
  (void)wrap_resize_area(dir);
  fs::create_directories(tmp);
  fs::create_directories(out);
  const fs::path killer = dir / "kill-the-tool.sh";
  std::ofstream(killer) << "#!/bin/sh\nkill -KILL $PPID\n";
  fs::permissions(killer, fs::perms::owner_all);
  const tool_result r = run_tool(
      "env",
      {"TMPDIR=" + tmp.string(), "RKNNOP_NODE_RUNNER=" + killer.string(), RKNNOP_PACK_EXE, "update",
       (dir / "resize_area.rknn").string(), RKNNOP_TEST_RESIZEAREA_RKNNOP, "-o", (out / "updated.rknn").string()},
      dir);
  EXPECT_EQ(r.status, 128 + SIGKILL) << "the runner did not kill the tool: " << r.out << r.err;
  EXPECT_TRUE(empty_folder(tmp)) << "a file was left in TMPDIR";
  EXPECT_TRUE(empty_folder(out)) << "a file was left beside the output";
  for (int ms = 0; ms <= 40; ms += 4) {
    SCOPED_TRACE(fmt::format("SIGKILL after {} ms", ms));
    const pid_t pid = spawn_quiet({RKNNOP_RUN_EXE, (dir / "resize_area.rknn").string(), "--check"}, tmp);
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
    ::kill(pid, SIGKILL);
    int status = 0;
    ::waitpid(pid, &status, 0);
    EXPECT_TRUE(empty_folder(tmp)) << "TMPDIR is not empty";
  }
}

// A node's name from the model goes to the terminal escaped: ESC and CR cannot move the cursor or
// rewrite a line (before, `--describe` and `--check` printed them raw).
TEST(Sandbox, NodeNamesFromAModelAreEscapedOnTheTerminal) {
  const fs::path dir = rknnop_test::work_dir("sandbox_node_name");
  wrapped_model m = wrap_resize_area(dir);
  std::string text(m.bytes.begin(), m.bytes.end());
  const std::string name = "resizearea_0", hostile = "\\u001b[J\\rxy";  // as long, JSON-escaped
  ASSERT_EQ(hostile.size(), name.size());
  std::size_t replaced = 0;
  for (std::size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1), ++replaced)
    text.replace(at, name.size(), hostile);
  ASSERT_GT(replaced, 0u);
  save(std::vector<std::uint8_t>(text.begin(), text.end()), dir / "escaped.rknn");
  for (const char* mode : {"--describe", "--check"}) {
    SCOPED_TRACE(mode);
    const tool_result r = run_limited(dir, {(dir / "escaped.rknn").string(), mode}, 10);
    const std::string all = r.out + r.err;
    EXPECT_EQ(all.find('\x1b'), std::string::npos) << all;
    EXPECT_EQ(all.find('\r'), std::string::npos) << all;
    EXPECT_NE(all.find("\\x1b[J\\x0dxy"), std::string::npos) << all;
  }
}

// A library needing a symbol version the host's glibc lacks: ld.so's message named the memory file the
// runner loads it from ("required by /proc/self/fd/8"); now the op and the model or container file.
TEST(CorruptLibraries, AMissingSymbolVersionNamesTheOpAndTheFile) {
  SKIP_MEMORY_OR_ELF_CHECK_UNDER_ASAN();
  const fs::path dir = rknnop_test::work_dir("isolation_symbol_version");
  const auto needing_glibc_9 = [](std::vector<std::uint8_t> bytes, std::size_t from, std::size_t size) {
    const std::string_view have = "GLIBC_2.14", want = "GLIBC_9.99";  // as long: the string table keeps its layout
    std::size_t replaced = 0;
    for (std::size_t at = from; at + have.size() <= from + size; ++at)
      if (std::equal(have.begin(), have.end(), bytes.begin() + static_cast<std::ptrdiff_t>(at))) {
        std::copy(want.begin(), want.end(), bytes.begin() + static_cast<std::ptrdiff_t>(at));
        ++replaced;
      }
    EXPECT_GT(replaced, 0u) << "the library needs no GLIBC_2.14";
    return bytes;
  };
  const wrapped_model m = wrap_resize_area(dir);
  const fs::path model = dir / "glibc9.rknn";
  save(needing_glibc_9(m.bytes, m.library_at, m.library_size), model);
  const container packed = read_container_file(RKNNOP_TEST_RESIZEAREA_RKNNOP);
  container changed = packed;
  changed.lib_x86_64 = needing_glibc_9(packed.lib_x86_64, 0, packed.lib_x86_64.size());
  const fs::path op = dir / "glibc9.rknnop";
  write_container_file(changed, op);
  for (const auto& [args, file] : {std::pair{std::vector<std::string>{model.string(), "--check"}, model},
                                   std::pair{std::vector<std::string>{op.string(), "--describe"}, op}}) {
    SCOPED_TRACE(file.string());
    const tool_result r = run_limited(dir, args, 10);
    const std::string all = r.out + r.err;
    EXPECT_EQ(r.status, 1) << all;
    EXPECT_NE(all.find("version `GLIBC_9.99' not found (required by the x86-64 library of op 'ResizeArea' in " +
                       file.string()),
              std::string::npos)
        << all;
    EXPECT_EQ(all.find("/proc/self/fd"), std::string::npos) << all;
    EXPECT_TRUE(empty_folder(dir / "tmp"));
  }
  // The same bytes given to the loader's one door with a label: the runner's dlopen fails, and its message
  // names the label, which travelled in the request (no path of the parent's to put back).
  set_node_runner(RKNNOP_NODE_EXE);
  load_options options;
  options.execution = node_execution::child;
  try {
    (void)session::load(op_source{serialize_container(changed), "glibc9 (bytes)", {}}, options);
    ADD_FAILURE() << "a library needing GLIBC_9.99 loaded";
  } catch (const error& e) {
    const std::string text = e.detail();
    EXPECT_NE(text.find("glibc9 (bytes): dlopen of the x86-64 library failed: "), std::string::npos) << text;
    EXPECT_NE(text.find("(required by the x86-64 library of op 'ResizeArea' in glibc9 (bytes))"), std::string::npos)
        << text;
    EXPECT_EQ(text.find("/proc/self/fd"), std::string::npos) << text;
  }
  set_node_runner({});
}

// Model mode enters the loader's one door with the op's container made in memory, labelled with the
// model and the op (load_model_op): an error names them from the start, no temporary file is made.
TEST(CorruptLibraries, AModelsOpErrorNamesTheModelAndTheOp) {
  const fs::path dir = rknnop_test::work_dir("isolation_model_label");
  wrapped_model m = wrap_resize_area(dir);
  ASSERT_NE(m.library_at, 0u);
  m.bytes[m.library_at + 4] = 9;  // the ELF class byte: neither 32- nor 64-bit
  const fs::path path = dir / "bad_class.rknn";
  save(m.bytes, path);
  const std::string label = path.string() + ": op 'ResizeArea' (x86-64 library section): ";
  const model parsed = model::read(path);
  ASSERT_EQ(parsed.ops.size(), 1u);
  for (const node_execution where : {node_execution::in_process, node_execution::child}) {
    set_node_runner(RKNNOP_NODE_EXE);
    set_default_node_execution(where);
    try {
      (void)load_model_op(parsed, parsed.ops[0], std::nullopt, "resizearea_0");
      ADD_FAILURE() << "a library of ELF class 9 loaded";
    } catch (const error& e) {
      EXPECT_TRUE(e.detail().starts_with(label)) << e.detail();
      EXPECT_EQ(e.detail().find("/proc/self/fd"), std::string::npos) << e.detail();
    }
    set_default_node_execution(node_execution::in_process);
    set_node_runner({});
  }
  const tool_result r = run_limited(dir, {path.string(), "--check"});
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_NE((r.out + r.err).find("op 'ResizeArea' (x86-64 library section): "), std::string::npos) << r.out << r.err;
  EXPECT_EQ((r.out + r.err).find("/proc/self/fd"), std::string::npos) << r.out << r.err;
  EXPECT_TRUE(empty_folder(dir / "tmp"));
}

TEST(CorruptLibraries, AWildCallbackPointerInAModelIsOneLine) {
  // The case on our own model: a relocation addend's high byte set, so a descriptor callback
  // points nowhere. The ELF structure check refuses a RELATIVE relocation whose result leaves the
  // loaded image (elf_structure.cpp); what it cannot decide faults in rknnop-node. Either way: one
  // line, exit 1, nothing left.
  const fs::path dir = rknnop_test::work_dir("isolation_wild_pointer");
  wrapped_model m = wrap_resize_area(dir);
  ASSERT_NE(m.library_at, 0u);
  // Every R_X86_64_RELATIVE addend of .rela.dyn, one at a time, until one is refused or crashes.
  int handled = 0;
  for (std::size_t at = 0; at + 24 <= m.library_size && handled == 0; at += 8) {
    std::uint64_t info = 0;
    for (std::size_t k = 0; k < 8; ++k) info |= std::uint64_t{m.bytes[m.library_at + at + 8 + k]} << (8 * k);
    if (info != 8) continue;  // R_X86_64_RELATIVE, symbol 0
    std::vector<std::uint8_t> bytes = m.bytes;
    bytes[m.library_at + at + 16 + 5] = 0x0f;  // addend + 0xf0000000000
    const fs::path mutant = dir / "wild.rknn";
    save(bytes, mutant);
    const tool_result r = run_limited(dir, {mutant.string(), "--check"});
    ASSERT_LT(r.status, 128) << "rknnop-run was killed: " << r.err;
    EXPECT_TRUE(empty_folder(dir / "tmp"));
    if (r.status == 0) continue;
    ++handled;
    EXPECT_EQ(r.status, 1);
    const bool refused = r.out.find("outside the loaded segments") != std::string::npos;
    const bool contained = r.out.find("(node 'resizearea_0', model " + mutant.string() +
                                      ", x86-64 library section) crashed with SIGSEGV (Segmentation fault): a wild "
                                      "(non-canonical) address was used") != std::string::npos;
    EXPECT_TRUE(refused || contained) << r.out << r.err;
  }
  EXPECT_EQ(handled, 1) << "no relocation of the library's descriptor was reached";
}

TEST(CorruptLibraries, OneHundredFiftyModelMutationsRunTheKernelAndCrashNothing) {
  // 150 random mutations of the model's x86-64 library, each through --check, --random-inputs and
  // update: every run ends with its own exit status (never a signal), one line per failure, and
  // nothing in TMPDIR. The runs that reached a crash in the child are counted: the family runs kernels.
  const fs::path dir = rknnop_test::work_dir("isolation_mutations");
  const wrapped_model m = wrap_resize_area(dir);
  ASSERT_NE(m.library_at, 0u);
  // A sanitizer build runs a third of them: each is three tool runs and up to seven runner starts.
#if defined(__SANITIZE_ADDRESS__)
  constexpr std::uint64_t mutations = 50;
#else
  constexpr std::uint64_t mutations = 150;
#endif
  const container good = read_container_file(RKNNOP_TEST_RESIZEAREA_RKNNOP);
  const fs::path model_path = dir / "resize_area.rknn";
  int passed = 0, refused = 0, contained = 0;
  std::map<std::string, int> signals;
  const auto count = [&](const tool_result& r, const std::string& what) {
    SCOPED_TRACE(fmt::format("{}: {}{}", what, r.out, r.err));
    ASSERT_LT(r.status, 128) << "the tool was killed";
    EXPECT_TRUE(empty_folder(dir / "tmp")) << "a file was left in TMPDIR";
    if (r.status == 0) {
      ++passed;
      return;
    }
    ++refused;
    EXPECT_EQ(line_count(r.err), 1u);
    const std::string all = r.out + r.err;
    if (const auto at = all.find(" crashed with "); at != std::string::npos) {
      ++contained;
      ++signals[all.substr(at + 14, all.find(' ', at + 14) - at - 14)];
    } else if (all.find("did not finish within") != std::string::npos) {
      ++contained;
      ++signals["stopped at the time limit"];
    } else if (all.find("MiB of memory") != std::string::npos) {
      ++contained;
      ++signals["stopped at the memory limit"];
    } else if (all.find(" stopped with exit status ") != std::string::npos) {
      ++contained;  // a runner that exits in a step: in a sanitizer build, ASan's report of the crash
      ++signals["exited in a step"];
    }
  };
  int kernel_passes = 0;  // --random-inputs runs that ran the kernel to the end
  for (std::uint64_t seed = 1; seed <= mutations; ++seed) {
    std::vector<std::uint8_t> bytes = m.bytes;
    container c = good;
    splitmix64 random{seed};
    const std::uint64_t changes = 1 + random.next() % 8;
    for (std::uint64_t k = 0; k < changes; ++k) {
      const std::size_t at = random.next() % m.library_size;
      const auto value = static_cast<std::uint8_t>(random.next() % 256);
      bytes[m.library_at + at] = value;
      c.lib_x86_64[at] = value;
    }
    const fs::path mutant = dir / "mutant.rknn";
    save(bytes, mutant);
    const fs::path mutant_op = dir / "mutant.rknnop";
    save(serialize_container(c), mutant_op);
    const std::string trace = fmt::format("seed {}", seed);
    count(run_limited(dir, {mutant.string(), "--check"}, 1), trace + " --check");
    const tool_result random_run = run_limited(dir, {mutant.string(), "--random-inputs", "1"}, 1);
    kernel_passes += random_run.status == 0 ? 1 : 0;
    count(random_run, trace + " --random-inputs");
    const fs::path tmp = dir / "tmp";
    const fs::path updated = dir / "updated.rknn";
    count(run_tool("env",
                   {"TMPDIR=" + tmp.string(), "RKNNOP_NODE_TIME_LIMIT=1", "RKNNOP_NODE_MEMORY_LIMIT=256",
                    RKNNOP_PACK_EXE, "update", model_path.string(), mutant_op.string(), "-o", updated.string()},
                   dir),
          trace + " update");
    fs::remove(updated);
  }
  std::cout << fmt::format(
      "{} mutated x86-64 libraries, each through --check, --random-inputs and update: {} "
      "runs passed, {} refused with one line, {} of them a crash, hang or runaway memory "
      "contained in the child\n",
      mutations, passed, refused, contained);
  for (const auto& [what, n] : signals) std::cout << fmt::format("  {}: {}\n", what, n);
  EXPECT_GE(contained + kernel_passes, 5) << "the family does not reach the kernel";
#if !defined(__SANITIZE_ADDRESS__)
  // How many mutants crash depends on the library's layout: 79 of 450 runs here; with ASan's larger
  // library (50 mutants) 0 to 27 of 150 in two build trees, most mutants refused for their relocations.
  EXPECT_GE(contained, 5) << "no crash reached the child";
#endif
}
#endif

}  // namespace

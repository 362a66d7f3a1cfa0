// SPDX-License-Identifier: MIT
// One validation (issue 30 item 5) and bounded memory (item 4) through the tools: update validates
// every library as pack does and refuses an update that checks no node; an output that is an input
// is refused; a damaged model is reported as a model, naming the section; --node takes an index;
// hostile 5 MB models finish in bounded memory; the memory budget refuses what is too big up front.
#include <rknnop/host/container.hpp>
#include <rknnop/host/file_io.hpp>
#include <rknnop/host/rknn_model.hpp>

#include "model_writer.hpp"
#include "test_util.hpp"
#include "tool_fixture.hpp"

#include <filesystem>
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>

extern char** environ;

namespace {

namespace fs = std::filesystem;
using namespace rknnop::host;
using rknnop_test::line_count;
using rknnop_test::tool_result;

#define EXPECT_CONTAINS(text, fragment) \
  EXPECT_NE((text).find(fragment), std::string::npos) << "missing \"" << (fragment) << "\" in:\n" << (text)

using rknnop_test::scale_spec;

std::string replaced(std::string text, std::string_view from, std::string_view to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

class ModelValidation : public rknnop_test::tool_fixture {
protected:
  ModelValidation() : tool_fixture("validation_") {}
  std::string write_bytes(const std::vector<std::uint8_t>& bytes, const std::string& name) {
    write_file_atomically(dir_ / name, bytes);
    return (dir_ / name).string();
  }
  std::string write_model(const model_file& f, const std::string& name = "model.rknn") {
    return write_bytes(f.serialize(), name);
  }
  std::string write_container(container c, const std::string& name = "TestScale.rknnop") {
    const auto y = read_file(std::string(RKNNOP_TEST_DATA_DIR) + "/testscale.yml");
    c.op_yml.assign(y.begin(), y.end());
    c.op_py = read_file(std::string(RKNNOP_TEST_DATA_DIR) + "/rknn_op_testscale.py");
    write_container_file(c, dir_ / name);
    return (dir_ / name).string();
  }
  std::string scale_container() {
    container c;
    c.lib_x86_64 = read_file(RKNNOP_TEST_SCALE_SO);
    return write_container(c);
  }
};

#ifdef RKNNOP_TEST_aarch64_SO
// An aarch64 library whose kernel list is named for another op: pack refuses it, and so does update.
TEST_F(ModelValidation, UpdateRefusesABoardLibraryWithoutTheKernelList) {
  std::vector<std::uint8_t> board = read_file(RKNNOP_TEST_aarch64_SO);
  const std::string_view list = "vx_kernel_TestScale_list";
  const auto at = std::search(board.begin(), board.end(), list.begin(), list.end());
  ASSERT_NE(at, board.end());
  *(at + 10) = 'B';  // vx_kernel_BestScale_list
  auto s = scale_spec();
  s.blobs.emplace_back(model_blob_kind::lib_aarch64, board);
  const std::string model_path = write_model(rknnop_test::test_model_file(s));
  container c;
  c.lib_x86_64 = read_file(RKNNOP_TEST_SCALE_SO);
  c.lib_aarch64 = board;
  const std::string out = (dir_ / "new.rknn").string();
  expect_one_line_failure(pack({"update", model_path, write_container(c), "-o", out}), "rknnop-pack",
                          "does not export vx_kernel_TestScale_list");
  EXPECT_FALSE(fs::exists(out));
}
#endif

TEST_F(ModelValidation, UpdateRefusesAModelWithoutANodeOfTheOp) {
  model_file f = rknnop_test::test_model_file(scale_spec());
  f.config = replaced(f.config, R"("op": "TESTSCALE")", R"("op": "CONVOLUTION")");
  const std::string out = (dir_ / "new.rknn").string();
  expect_one_line_failure(pack({"update", write_model(f), scale_container(), "-o", out}), "rknnop-pack",
                          "no node of the model runs it");
  EXPECT_FALSE(fs::exists(out));
}

TEST_F(ModelValidation, AnOutputThatIsAnInputIsRefused) {
  const std::string model_path = write_model(rknnop_test::test_model_file(scale_spec()));
  const std::vector<std::uint8_t> before = read_file(model_path);
  expect_one_line_failure(pack({"extract", model_path, "-o", model_path}), "rknnop-pack", "is the input");
  fs::create_hard_link(model_path, dir_ / "link.rknnop");
  expect_one_line_failure(pack({"extract", model_path, "-o", (dir_ / "link.rknnop").string()}), "rknnop-pack",
                          "is the input");
  EXPECT_EQ(read_file(model_path), before);
  const std::string op = scale_container();
  expect_one_line_failure(pack({"wrap", op, "--input-shape", "input=1,4,3", "--param", "bias=5", "--param", "scale=2",
                                "--param", "negate=true", "-o", op}),
                          "rknnop-pack", "is the input");
  const std::string yml = std::string(RKNNOP_TEST_DATA_DIR) + "/testscale.yml";
  fs::copy_file(yml, dir_ / "op.yml");
  expect_one_line_failure(
      pack({"pack", "--x86", RKNNOP_TEST_SCALE_SO, "--yml", (dir_ / "op.yml").string(), "--py",
            std::string(RKNNOP_TEST_DATA_DIR) + "/rknn_op_testscale.py", "-o", (dir_ / "op.yml").string()}),
      "rknnop-pack", "is the input");
}

// A model whose magic is right but whose sections are not is a damaged model, not a container
// (before: "The following argument was not expected: --check", exit 109).
TEST_F(ModelValidation, ADamagedModelIsReportedAsAModel) {
  std::vector<std::uint8_t> bytes = rknnop_test::test_model_bytes(scale_spec());
  std::vector<std::uint8_t> long_export = bytes;
  long_export[16] = 16;  // export_data's length: the config section's length is read from its JSON
  expect_one_line_failure(run({write_bytes(long_export, "long.rknn"), "--check"}), "rknnop-run",
                          "the config (graph JSON) section at offset 48 says");
  model_file f = rknnop_test::test_model_file(scale_spec());
  f.config = "[" + f.config + "]";
  expect_one_line_failure(run({write_model(f, "array.rknn"), "--check"}), "rknnop-run",
                          "graph JSON: expected an object, found an array");
}

TEST_F(ModelValidation, NodeTakesAnIndex) {
  const std::string model_path = write_model(rknnop_test::test_model_file(scale_spec()));
  const tool_result r =
      run({model_path, "--node", "0", "--random-inputs", "1", "--output", "output=" + (dir_ / "o.npy").string()});
  EXPECT_EQ(r.status, 0) << r.err;
  expect_one_line_failure(run({model_path, "--node", "3", "--random-inputs", "1"}), "rknnop-run",
                          "--node 3: no custom-op node has that index (custom-op nodes: 0)");
  // One parser for an op and a model: an op's option with a model is a usage error naming it (before, CLI11's
  // "The following argument was not expected").
  const tool_result op_option = run({model_path, "--check", "--kernel-index", "1"});
  EXPECT_EQ(op_option.status, 2) << op_option.err;
  expect_one_line_failure(
      op_option, "rknnop-run",
      "--kernel-index is for an op (a .rknnop container or a kernel library); '" + model_path + "' is a model");
}

TEST_F(ModelValidation, TheMemoryBudgetRefusesUpFront) {
  const std::string op = scale_container();
  const std::string out = (dir_ / "big.rknn").string();
  expect_one_line_failure(pack({"wrap", op, "--input-shape", "input=1,16384,16384,1", "--param", "bias=5", "--param",
                                "scale=2", "--param", "negate=true", "-o", out}),
                          "rknnop-pack",
                          "wrap: --input-shape input=1,16384,16384,1 needs 4 GiB, over the memory budget of 2 GiB");
  expect_one_line_failure(pack({"--memory-limit", "64M", "wrap", op, "--input-shape", "input=1,2048,2048,2", "--param",
                                "bias=5", "--param", "scale=2", "--param", "negate=true", "-o", out}),
                          "rknnop-pack", "over the memory budget of 64 MiB");
  EXPECT_FALSE(fs::exists(out));
  // rknnop-run MODEL: a tensor of the model over the budget is refused before its buffer is made.
  const std::string model = (dir_ / "small.rknn").string();
  ASSERT_EQ(pack({"wrap", op, "--input-shape", "input=1,512,512,1", "--param", "bias=5", "--param", "scale=2",
                  "--param", "negate=true", "-o", model})
                .status,
            0);
  const tool_result refused = run({"--memory-limit", "256K", model, "--random-inputs", "1"});
  expect_one_line_failure(refused, "rknnop-run", "input 0 ('input') of dims [1, 512, 512, 1] VSI_NN_TYPE_FLOAT16");
  EXPECT_CONTAINS(refused.err, "needs 512 KiB, over the memory budget of 256 KiB (raise it with --memory-limit");
  // Each tensor alone fits; the node's input and output together do not (counted in the runner).
  expect_one_line_failure(run({"--memory-limit", "512K", model, "--random-inputs", "1"}), "rknnop-run",
                          "output 'output' of shape (1, 512, 512, 1) VX_TYPE_FLOAT16 needs 512 KiB (1 MiB with the "
                          "node's other tensors), over the memory budget of 512 KiB");
  EXPECT_EQ(run({"--memory-limit", "8M", model, "--random-inputs", "1"}).status, 0);
}

// `rknnop-run MODEL --check` in a child: its exit status, peak RSS (KiB) and CPU seconds.
struct child_usage {
  int status = -1;
  long max_rss_kib = 0;
  double cpu_seconds = 0;
};
child_usage check_in_child(const std::string& model_path, const fs::path& dir) {
  const std::string out = (dir / "child.out").string(), err = (dir / "child.err").string();
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::string exe = RKNNOP_RUN_EXE, check = "--check";
  std::vector<char*> argv{exe.data(), const_cast<char*>(model_path.c_str()), check.data(), nullptr};
  pid_t pid = -1;
  child_usage u;
  if (posix_spawn(&pid, exe.c_str(), &actions, nullptr, argv.data(), environ) != 0) return u;
  posix_spawn_file_actions_destroy(&actions);
  int status = 0;
  rusage r{};
  if (::wait4(pid, &status, 0, &r) != pid) return u;
  u.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  u.max_rss_kib = r.ru_maxrss;
  u.cpu_seconds = static_cast<double>(r.ru_utime.tv_sec + r.ru_stime.tv_sec) +
                  static_cast<double>(r.ru_utime.tv_usec + r.ru_stime.tv_usec) / 1e6;
  return u;
}

// 5 MB models of hostile shapes (a 42 MB graph of `[],` took 1.19 GB before): each ends in a line,
// within 100 MB. RSS is asserted (a bound, not a timing); the CPU time is printed.
TEST_F(ModelValidation, HostileFiveMegabyteModelsStayUnder100MB) {
  constexpr std::size_t size = 5 << 20;
  const auto repeat = [&](std::string_view head, std::string_view unit, std::string_view tail) {
    std::string text(head);
    while (text.size() + unit.size() + tail.size() < size) text += unit;
    if (text.ends_with(", ")) text.resize(text.size() - 2);
    if (text.ends_with(',')) text.pop_back();
    return text + std::string(tail);
  };
  const std::pair<const char*, std::string> shapes[] = {
      {"empty arrays", repeat(R"({"nodes": [], "x": [)", "[],", "]}")},
      {"many keys",
       [&] {
         std::string text = R"({"nodes": [], "x": {)";
         for (std::size_t i = 0; text.size() < size; ++i) text += fmt::format(R"("k{}": 0, )", i);
         text.resize(text.size() - 2);
         return text + "}}";
       }()},
      {"nested arrays",
       repeat(R"({"nodes": [], "x": [)", "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]],", "]}")},
      {"numbers", repeat(R"({"nodes": [], "x": [)", "0,", "]}")},
      {"one string", R"({"nodes": [], "x": ")" + std::string(size, 'a') + R"("})"},
      {"nodes", repeat(R"({"nodes": [)", R"({"op": "ADD"},)", "]}")},
  };
  for (const auto& [what, graph] : shapes) {
    model_file f = rknnop_test::test_model_file(scale_spec());
    f.config = graph;
    const std::string path = write_model(f, "hostile.rknn");
    const child_usage u = check_in_child(path, dir_);
    const std::string err = rknnop_test::slurp(dir_ / "child.err");
    std::printf("%s (%zu bytes): exit %d, %.2f s CPU, peak RSS %ld KiB: %s", what, fs::file_size(path), u.status,
                u.cpu_seconds, u.max_rss_kib, err.empty() ? "\n" : err.c_str());
    EXPECT_LT(u.status, 128) << what << " died of a signal";
#if !defined(__SANITIZE_ADDRESS__)  // ASan's shadow memory and quarantine: the native build checks the bound
    EXPECT_LT(u.max_rss_kib, 100 * 1024) << what;
#endif
    EXPECT_LE(line_count(err), 1u) << what << ": " << err;
  }
}

}  // namespace

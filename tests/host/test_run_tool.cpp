// SPDX-License-Identifier: MIT
// rknnop-run end to end: success output, --describe, and failures as one line.
#include <rknnop/host/npy.hpp>

#include "test_util.hpp"
#include "tool_runner.hpp"

#include <filesystem>

namespace {

namespace fs = std::filesystem;
using namespace rknnop::host;
using rknnop_test::line_count;
using rknnop_test::tool_result;

const std::string yml = std::string(RKNNOP_TEST_DATA_DIR) + "/testscale.yml";

class RunTool : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = rknnop_test::work_dir(std::string("run_") + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    in_ = (dir_ / "in.npy").string();
    write_npy_file(npy_array::from_floats(std::vector<float>{1, 2, 3, 4, 5, 6}, {1, 2, 3}), in_);
  }
  tool_result run(std::vector<std::string> args) { return rknnop_test::run_tool(RKNNOP_RUN_EXE, args, dir_); }
  std::vector<std::string> good_args() {
    return {RKNNOP_TEST_SCALE_SO,
            "--op-yml",
            yml,
            "--input",
            "input=" + in_,
            "--param",
            "bias=1",
            "--param",
            "scale=2",
            "--param",
            "negate=false",
            "--output",
            "output=" + (dir_ / "out.npy").string()};
  }
  void expect_one_line_failure(const tool_result& r, std::string_view what) {
    EXPECT_NE(r.status, 0);
    EXPECT_TRUE(r.err.starts_with("rknnop-run: ")) << r.err;
    EXPECT_EQ(line_count(r.err), 1u) << r.err;
    EXPECT_NE(r.err.find(what), std::string::npos) << "missing \"" << what << "\" in: " << r.err;
  }
  fs::path dir_;
  std::string in_;
};

TEST_F(RunTool, RunsAndWritesTheOutput) {
  const tool_result r = run(good_args());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("TestScale (kernel 'testscale_cpu', kernel_index 0)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("validate      VX_SUCCESS (0)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("deinitialize  VX_SUCCESS (0)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("output 'output': shape (1, 2, 3) VX_TYPE_FLOAT16"), std::string::npos) << r.out;
  const npy_array out = read_npy_file(dir_ / "out.npy");
  EXPECT_EQ(out.dtype, npy_dtype::float16);
  EXPECT_EQ(out.to_floats(), (std::vector<float>{3, 5, 7, 9, 11, 13}));
}

TEST_F(RunTool, Describe) {
  const tool_result r = run({RKNNOP_TEST_SCALE_SO, "--op-yml", yml, "--describe"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("'testscale_cpu' (CPU kernel)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("4 param  negate               VX_TYPE_BOOL"), std::string::npos) << r.out;
}

TEST_F(RunTool, FailuresAreOneLine) {
  expect_one_line_failure(run({(dir_ / "missing.so").string(), "--op-yml", yml}), "cannot open");
  expect_one_line_failure(run({RKNNOP_TEST_SCALE_NOLIST_SO, "--op-yml", yml, "--describe"}),
                          "does not export vx_kernel_TestScale_list");
  expect_one_line_failure(run({RKNNOP_TEST_SCALE_SO, "--op-yml", yml, "--kernel-index", "7", "--describe"}),
                          "kernel_index 7 is out of range");

  auto args = good_args();
  args[4] = "input";  // no '='
  expect_one_line_failure(run(args), "--input 'input': expected NAME=FILE.npy");
  args = good_args();
  args[12] = "result=" + (dir_ / "out.npy").string();
  expect_one_line_failure(run(args), "op 'TestScale' has no output 'result' (outputs: output)");
  args = good_args();
  args[8] = "scale=0";
  expect_one_line_failure(run(args), "kernel failed with VX_ERROR_INVALID_VALUE (-16): TestScale: scale must not be 0");
  args = good_args();
  args[6] = "bias=1,x";
  expect_one_line_failure(run(args), "param 'bias': expected VX_TYPE_ARRAY of int32 like 64,64, got '1,x'");
  args = good_args();
  args.push_back("--param");
  args.push_back("bias=2");
  expect_one_line_failure(run(args), "--param 'bias' given twice");
  args = good_args();
  args.resize(9);  // drop negate and the output
  expect_one_line_failure(run(args), "not set: param 'negate'");
  expect_one_line_failure(run({}), "op is required");
  // One parser for an op and a model: a model's option with an op is a usage error naming it.
  const tool_result check = run({RKNNOP_TEST_SCALE_SO, "--op-yml", yml, "--check"});
  EXPECT_EQ(check.status, 2) << check.err;
  expect_one_line_failure(check,
                          "--check is for a .rknn model; '" + std::string(RKNNOP_TEST_SCALE_SO) + "' is not a model");
}

}  // namespace

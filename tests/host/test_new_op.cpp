// SPDX-License-Identifier: MIT
// A newcomer's op (tests/host/kernels/depth_to_space.cpp: TensorFlow's DepthToSpace with
// `block_size = 2` and an enum `data_format` NHWC/NCHW) through every tool with the same names and
// defaults (issue 31): rknnop-run, rknnop-pack wrap, --describe, --check, rknnop-pack update.
#include <rknnop/host/npy.hpp>
#include <rknnop/host/rknn_model.hpp>

#include "test_util.hpp"
#include "tool_runner.hpp"

#include <filesystem>
#include <string>
#include <vector>

#define EXPECT_CONTAINS(text, fragment) EXPECT_NE((text).find(fragment), std::string::npos) << (text)

namespace {

namespace fs = std::filesystem;
using namespace rknnop::host;

class NewOp : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ =
        rknnop_test::work_dir(std::string("new_op_") + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    // NHWC [1, 1, 2, 4]: one pixel row of two pixels, four channels each.
    in_ = (dir_ / "in.npy").string();
    write_npy_file(npy_array::from_floats(std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7}, {1, 1, 2, 4}), in_);
  }
  rknnop_test::tool_result run(std::vector<std::string> args) {
    return rknnop_test::run_tool(RKNNOP_RUN_EXE, args, dir_);
  }
  rknnop_test::tool_result pack(std::vector<std::string> args) {
    return rknnop_test::run_tool(RKNNOP_PACK_EXE, args, dir_);
  }
  std::string wrap(std::vector<std::string> extra, const std::string& shape = "1,1,2,4") {
    const std::string out = (dir_ / "wrapped.rknn").string();
    std::vector<std::string> args{"wrap", RKNNOP_DEPTH_TO_SPACE_RKNNOP, "--input-shape", "input=" + shape, "-o", out};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto r = pack(args);
    EXPECT_EQ(r.status, 0) << r.err;
    return out;
  }
  fs::path dir_;
  std::string in_;
};

// TensorFlow: tf.nn.depth_to_space([[[[0,1,2,3],[4,5,6,7]]]], 2) = [[[[0],[1],[4],[5]],[[2],[3],[6],[7]]]].
const std::vector<float> nhwc_expected{0, 1, 4, 5, 2, 3, 6, 7};

TEST_F(NewOp, RunTakesTheDefaultsAndTheEnumByName) {
  const std::string out = (dir_ / "out.npy").string();
  const auto r = run({RKNNOP_DEPTH_TO_SPACE_RKNNOP, "-i", "input=" + in_, "-o", "output=" + out});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(read_npy_file(out).shape, (std::vector<std::size_t>{1, 2, 4, 1}));
  EXPECT_EQ(read_npy_file(out).to_floats(), nhwc_expected);
  const auto named = run({RKNNOP_DEPTH_TO_SPACE_RKNNOP, "-i", "input=" + in_, "-p", "data_format=NHWC", "-p",
                          "block_size=2", "-o", "output=" + out});
  ASSERT_EQ(named.status, 0) << named.err;
  EXPECT_EQ(read_npy_file(out).to_floats(), nhwc_expected);
  const auto number = run({RKNNOP_DEPTH_TO_SPACE_RKNNOP, "-i", "input=" + in_, "-p", "data_format=0"});
  EXPECT_EQ(number.status, 1);
  EXPECT_EQ(number.err,
            "rknnop-run: param 'data_format': expected one of NHWC (0), NCHW (1) (an enum, given by name), got '0'\n");
}

// rank 3 [h, w, c] is NHWC with batch 1, in the kernel as in the check.
TEST_F(NewOp, RankThreeIsBatchOne) {
  const std::string in3 = (dir_ / "in3.npy").string(), out = (dir_ / "out3.npy").string();
  write_npy_file(npy_array::from_floats(std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7}, {1, 2, 4}), in3);
  const auto r = run({RKNNOP_DEPTH_TO_SPACE_RKNNOP, "-i", "input=" + in3, "-o", "output=" + out});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(read_npy_file(out).shape, (std::vector<std::size_t>{2, 4, 1}));
  EXPECT_EQ(read_npy_file(out).to_floats(), nhwc_expected);
}

TEST_F(NewOp, DescribeShowsTheEnumAndTheDefaults) {
  const auto d = run({RKNNOP_DEPTH_TO_SPACE_RKNNOP, "--describe"});
  ASSERT_EQ(d.status, 0) << d.err;
  EXPECT_CONTAINS(d.out, "default 2");
  EXPECT_CONTAINS(d.out, "enum NHWC=0, NCHW=1; default NHWC");
}

// Before issue 31: wrap demanded every param ("--param data_format=VALUE is needed (VX_TYPE_INT32)"),
// refused names ("expected VX_TYPE_INT32 (an integer ...), got 'NHWC'") and took data_format=7.
TEST_F(NewOp, WrapTakesTheDefaultsAndNamesAndRefusesOtherValues) {
  const model defaults = model::read(wrap({}));
  ASSERT_EQ(defaults.nodes.size(), 1u);
  ASSERT_EQ(defaults.nodes[0].params.size(), 2u);
  EXPECT_EQ(defaults.nodes[0].params[0].json, "2");
  EXPECT_EQ(defaults.nodes[0].params[1].json, "0");
  EXPECT_EQ(defaults.nodes[0].outputs[0].tensor->dims, (std::vector<std::uint32_t>{1, 4, 2, 1}));
  const model named = model::read(wrap({"-p", "data_format=NCHW"}, "1,4,1,2"));  // NCHW: 4 channels of 1x2
  EXPECT_EQ(named.nodes[0].params[1].json, "1");
  EXPECT_EQ(named.nodes[0].outputs[0].tensor->dims, (std::vector<std::uint32_t>{4, 2, 1, 1}));
  // The op's own refusal, once (a kernel's line is not printed a second time on its stderr).
  const auto refused = pack({"wrap", RKNNOP_DEPTH_TO_SPACE_RKNNOP, "--input-shape", "input=1,1,2,4", "-p",
                             "data_format=NCHW", "-o", (dir_ / "refused.rknn").string()});
  EXPECT_EQ(refused.status, 1);
  EXPECT_EQ(rknnop_test::line_count(refused.err), 1u) << refused.err;
  EXPECT_CONTAINS(refused.err, "the depth 1 is not divisible by block_size^2 = 4");
  const std::string out = (dir_ / "bad.rknn").string();
  const auto seven =
      pack({"wrap", RKNNOP_DEPTH_TO_SPACE_RKNNOP, "--input-shape", "input=1,4,1,2", "-p", "data_format=7", "-o", out});
  EXPECT_EQ(seven.status, 1);
  EXPECT_EQ(seven.err,
            "rknnop-pack: param 'data_format': expected one of NHWC (0), NCHW (1) (an enum, given by name), got '7'\n");
  const auto misspelt = pack(
      {"wrap", RKNNOP_DEPTH_TO_SPACE_RKNNOP, "--input-shape", "input=1,1,2,4", "-p", "data_fromat=NHWC", "-o", out});
  EXPECT_EQ(misspelt.status, 2);  // a mistake on the command line, as in every tool
  EXPECT_CONTAINS(misspelt.err, "--param 'data_fromat': op 'DepthToSpace' has no param 'data_fromat'");
  EXPECT_FALSE(fs::exists(out));
}

TEST_F(NewOp, WrappedModelPassesCheckRunsAndUpdates) {
  const std::string model_path = wrap({});
  const auto d = run({model_path, "--describe"});
  ASSERT_EQ(d.status, 0) << d.err;
  EXPECT_CONTAINS(d.out, "param block_size = 2 (VX_TYPE_INT32)");
  // Before: "param data_format = 0 (VX_TYPE_INT32)", no name (the model carried only the type).
  EXPECT_CONTAINS(d.out, "params:  block_size VX_TYPE_INT32, data_format VX_TYPE_INT32 {NHWC=0, NCHW=1}");
  EXPECT_CONTAINS(d.out, "param data_format = NHWC (0) (VX_TYPE_INT32)");
  const auto c = run({model_path, "--check"});
  ASSERT_EQ(c.status, 0) << c.out << c.err;
  EXPECT_CONTAINS(c.out, "node 'depthtospace_0' (DepthToSpace): OK");
  EXPECT_CONTAINS(c.out,
                  "params block_size=2, data_format=NHWC (0), inputs [4,2,1,1] accepted");  // before: data_format=0
  const std::string out = (dir_ / "model_out.npy").string();
  const auto r = run({model_path, "--input", "input=" + in_, "--output", "output=" + out});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(read_npy_file(out).to_floats(), nhwc_expected);
  const std::string updated = (dir_ / "updated.rknn").string();
  const auto u = pack({"update", model_path, RKNNOP_DEPTH_TO_SPACE_RKNNOP, "-o", updated});
  ASSERT_EQ(u.status, 0) << u.err;
  EXPECT_CONTAINS(u.out, "identical to the input");
}

TEST_F(NewOp, RepeatPrintsTimingAndThreads) {
  const auto r = run({RKNNOP_DEPTH_TO_SPACE_RKNNOP, "-i", "input=" + in_, "--repeat", "5"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_CONTAINS(r.out, "timing        5 run(s): median ");
  EXPECT_CONTAINS(r.out, " ms per run (graph, kernel, outputs read back); ");
  const auto zero = run({RKNNOP_DEPTH_TO_SPACE_RKNNOP, "-i", "input=" + in_, "--repeat", "0"});
  EXPECT_EQ(zero.status, 2);
}

// Model mode takes --repeat as op mode does (a newcomer timed the op, then its model).
TEST_F(NewOp, RepeatInModelMode) {
  const std::string model_path = wrap({});
  const auto r = run({model_path, "-i", "input=" + in_, "--repeat", "5"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_CONTAINS(r.out, "timing        5 run(s): median ");
  EXPECT_CONTAINS(r.out, " ms per run (graph, kernel, outputs read back); ");
  EXPECT_EQ(run({model_path, "-i", "input=" + in_, "--repeat", "0"}).status, 2);
  const auto with_check = run({model_path, "--check", "--repeat", "5"});
  EXPECT_EQ(with_check.status, 2);
  EXPECT_CONTAINS(with_check.err, "they do not go with --describe or --check");
}

}  // namespace

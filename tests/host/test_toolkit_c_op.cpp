// SPDX-License-Identifier: MIT
// An existing RKNN-Toolkit C op (tests/core/variants/toolkit_c_op, written in the layout the
// toolkit generates and built unchanged against rknnop's VX/ compatibility headers) runs through
// rknnop-run: both kernels of its list are found, the CPU kernel computes, errors are reported.
#include <rknnop/host/npy.hpp>

#include "test_util.hpp"
#include "tool_runner.hpp"

#include <gtest/gtest.h>

namespace {

using namespace rknnop::host;

TEST(ToolkitCOp, RunsThroughRknnopRun) {
  const auto dir = rknnop_test::work_dir("toolkit_c_op");
  write_npy_file(npy_array::from_floats(std::vector<float>{1, -2, 0.5f, 3, 4, 6}, {1, 2, 3}), dir / "in.npy");
  const auto r = rknnop_test::run_tool(
      RKNNOP_RUN_EXE,
      {RKNNOP_TOOLKIT_C_OP_SO, "--op-yml", RKNNOP_TOOLKIT_C_OP_YML, "--input", "input=" + (dir / "in.npy").string(),
       "--param", "scale=2.5", "--output", "output=" + (dir / "out.npy").string()},
      dir);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("ToolkitScale (kernel 'toolkitscale_cpu', kernel_index 0)"), std::string::npos) << r.out;
  const npy_array out = read_npy_file(dir / "out.npy");
  EXPECT_EQ(out.shape, (std::vector<std::size_t>{1, 2, 3}));
  EXPECT_EQ(out.to_floats(), (std::vector<float>{2.5f, -5, 1.25f, 7.5f, 10, 15}));

  const auto d = rknnop_test::run_tool(
      RKNNOP_RUN_EXE,
      {RKNNOP_TOOLKIT_C_OP_SO, "--op-yml", RKNNOP_TOOLKIT_C_OP_YML, "--kernel-index", "1", "--describe"}, dir);
  ASSERT_EQ(d.status, 0) << d.err;
  EXPECT_NE(d.out.find("kernel_index 1 of 2 in vx_kernel_ToolkitScale_list: 'toolkitscale' (VX shader kernel)"),
            std::string::npos)
      << d.out;
}

TEST(ToolkitCOp, ItsValidatorRejectsAFloat32Tensor) {
  const auto dir = rknnop_test::work_dir("toolkit_c_op_error");
  write_npy_file(npy_array::from_floats(std::vector<float>{1}, {1}), dir / "in.npy");
  const auto r = rknnop_test::run_tool(
      RKNNOP_RUN_EXE,
      {RKNNOP_TOOLKIT_C_OP_SO, "--op-yml", RKNNOP_TOOLKIT_C_OP_YML, "--input", "input=" + (dir / "in.npy").string(),
       "--param", "scale=2", "--tensor-type", "VX_TYPE_FLOAT32"},
      dir);
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find("validate failed with VX_ERROR_INVALID_TYPE (-17)"), std::string::npos) << r.err;
}

}  // namespace

// SPDX-License-Identifier: MIT
// rknnop-run --kernel-index 1 reports why a VX shader kernel failed (a missing .vx, a construct the
// emulator refuses), never a guess such as "no shader executor?". examples/truncate_div's container.
#include "test_util.hpp"
#include "tool_runner.hpp"

#include <rknnop/host/npy.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace {

namespace fs = std::filesystem;
using namespace rknnop::host;

class ShaderErrors : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = rknnop_test::work_dir(std::string("shader_errors_") +
                                 ::testing::UnitTest::GetInstance()->current_test_info()->name());
    write_npy_file(npy_array::from_floats(std::vector<float>{8, 9}, {2}), dir_ / "x.npy");
    write_npy_file(npy_array::from_floats(std::vector<float>{2, 4}, {2}), dir_ / "y.npy");
  }
  rknnop_test::tool_result run(const fs::path& vx) {
    auto r = rknnop_test::run_tool(RKNNOP_RUN_EXE,
                                   {RKNNOP_TRUNCATE_DIV_RKNNOP, "--kernel-index", "1", "--vx", vx.string(), "--input",
                                    "x=" + (dir_ / "x.npy").string(), "--input", "y=" + (dir_ / "y.npy").string(),
                                    "--output", "z=" + (dir_ / "z.npy").string()},
                                   dir_);
    EXPECT_NE(r.status, 0);
    EXPECT_EQ(r.err.find("no shader executor"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("rknnop-run: op 'TruncateDiv' (kernel 'truncatediv'): shader kernel failed with "),
              std::string::npos)
        << r.err;
    return r;
  }
  static bool no_opencl(const rknnop_test::tool_result& r) {
    return r.err.find("cannot run the VX shader on the host") != std::string::npos;
  }
  fs::path dir_;
};

TEST_F(ShaderErrors, MissingVxFileIsNamed) {
  const auto r = run(dir_ / "missing.vx");
  if (no_opencl(r)) GTEST_SKIP() << "no OpenCL platform, so the shader is never read: " << r.err;
  EXPECT_NE(r.err.find("cannot read the shader '" + (dir_ / "missing.vx").string() + "'"), std::string::npos) << r.err;
}

TEST_F(ShaderErrors, RefusedConstructIsNamed) {
  std::ofstream(dir_ / "uniform.vx") << "#include \"cl_viv_vx_ext.h\"\n_viv_uniform float scale;\n"
                                        "__kernel void truncatediv(__read_only image2d_array_t x,\n"
                                        "    __read_only image2d_array_t y, __write_only image2d_array_t z) { }\n";
  const auto r = run(dir_ / "uniform.vx");
  if (no_opencl(r)) GTEST_SKIP() << "no OpenCL platform, so the shader is never translated: " << r.err;
  EXPECT_NE(r.err.find("_viv_uniform"), std::string::npos) << r.err;
}

}  // namespace

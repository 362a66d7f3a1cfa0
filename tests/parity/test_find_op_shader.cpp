// SPDX-License-Identifier: MIT
// rknnop::vxc::find_op_shader: the one rule rknnop-run and rknnop-parity use to find an op's .vx
// (docs/runtime.md §8, "Finding an op's .vx").
#include <rknnop/vxc/vxc.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include <unistd.h>  // getpid

namespace fs = std::filesystem;
using rknnop::vxc::find_op_shader;

namespace {

class FindOpShader : public ::testing::Test {
protected:
  void SetUp() override {
    root_ = fs::path(::testing::TempDir()) / ("rknnop_find_op_shader_" + std::to_string(::getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_ / "yml");
    fs::create_directories(root_ / "lib");
  }
  void TearDown() override { fs::remove_all(root_); }
  void touch(const fs::path& p) { std::ofstream(p) << "__kernel void k() {}\n"; }
  fs::path root_;
};

TEST_F(FindOpShader, ExplicitVxWins) {
  touch(root_ / "lib" / "k.vx");
  const auto r = find_op_shader(root_ / "lib" / "libk.so", {}, std::string("other.vx"), "k", root_ / "mine.vx");
  EXPECT_EQ(r.path, root_ / "mine.vx");
  EXPECT_TRUE(r.error.empty());
}

TEST_F(FindOpShader, VxFileIsRelativeToOpYmlElseToTheOp) {
  // --op-yml given: vx_file beside it (not beside the library).
  auto r = find_op_shader(root_ / "lib" / "libk.so", root_ / "yml" / "op.yml", std::string("rknn_kernel_k.vx"), "k");
  EXPECT_EQ(r.path, root_ / "yml" / "rknn_kernel_k.vx");
  // No --op-yml: the loader read op.yml beside the library (or from the container), so the .vx is there too.
  // rknnop-parity used to refuse this case ("--vx is required").
  r = find_op_shader(root_ / "lib" / "libk.so", {}, std::string("rknn_kernel_k.vx"), "k");
  EXPECT_EQ(r.path, root_ / "lib" / "rknn_kernel_k.vx");
  EXPECT_TRUE(r.error.empty());
}

TEST_F(FindOpShader, WithoutVxFileLooksForTheKernelsNames) {
  auto r = find_op_shader(root_ / "lib" / "libk.so", root_ / "yml" / "op.yml", std::nullopt, "k");
  EXPECT_TRUE(r.path.empty());
  EXPECT_EQ(r.error, "rknnop: kernel 'k': no .vx: op.yml names no vx_file and '" + (root_ / "yml").string() +
                         "' holds neither k.vx nor rknn_kernel_k.vx; give --vx FILE");
  touch(root_ / "yml" / "rknn_kernel_k.vx");
  r = find_op_shader(root_ / "lib" / "libk.so", root_ / "yml" / "op.yml", std::nullopt, "k");
  EXPECT_EQ(r.path, root_ / "yml" / "rknn_kernel_k.vx");
  touch(root_ / "yml" / "k.vx");  // <kernel>.vx comes first
  r = find_op_shader(root_ / "lib" / "libk.so", root_ / "yml" / "op.yml", std::nullopt, "k");
  EXPECT_EQ(r.path, root_ / "yml" / "k.vx");
}

TEST_F(FindOpShader, BareOpNameSearchesTheWorkingDirectory) {
  const auto r = find_op_shader("libk_does_not_exist.so", {}, std::nullopt, "k_does_not_exist");
  EXPECT_NE(r.error.find("'.' holds neither k_does_not_exist.vx"), std::string::npos) << r.error;
}

}  // namespace

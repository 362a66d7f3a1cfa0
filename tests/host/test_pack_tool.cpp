// SPDX-License-Identifier: MIT
// rknnop-pack end to end: pack, inspect --verify, unpack, and every failure as one line.
#include <rknnop/host/container.hpp>
#include <rknnop/host/file_io.hpp>

#include "test_util.hpp"
#include "tool_runner.hpp"

#include <filesystem>

namespace {

namespace fs = std::filesystem;
using rknnop_test::line_count;
using rknnop_test::tool_result;

const std::string data_dir = RKNNOP_TEST_DATA_DIR;
const std::string yml = data_dir + "/testscale.yml";
const std::string py = data_dir + "/rknn_op_testscale.py";

class PackTool : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ =
        rknnop_test::work_dir(std::string("pack_") + ::testing::UnitTest::GetInstance()->current_test_info()->name());
  }
  tool_result run(const std::vector<std::string>& args) { return rknnop_test::run_tool(RKNNOP_PACK_EXE, args, dir_); }
  // A failure: non-zero status, exactly one stderr line starting "rknnop-pack: " and containing `what`.
  void expect_one_line_failure(const tool_result& r, std::string_view what) {
    EXPECT_NE(r.status, 0);
    EXPECT_TRUE(r.err.starts_with("rknnop-pack: ")) << r.err;
    EXPECT_EQ(line_count(r.err), 1u) << r.err;
    EXPECT_NE(r.err.find(what), std::string::npos) << "missing \"" << what << "\" in: " << r.err;
  }
  // `pack` refuses what --verify rejects (issue 22): the broken containers these tests verify are
  // written directly, and pack is shown to refuse each of them with the same problem.
  void write_broken(const std::string& out, const std::string& x86, const std::string& aarch64,
                    const std::string& armhf, const std::string& op_yml, const std::string& op_py,
                    std::string_view pack_says) {
    std::vector<std::string> args{"pack", "--x86", x86, "--yml", op_yml, "--py", op_py, "-o", out};
    if (!aarch64.empty()) args.insert(args.end(), {"--aarch64", aarch64});
    if (!armhf.empty()) args.insert(args.end(), {"--armhf", armhf});
    const tool_result refused = run(args);
    EXPECT_EQ(refused.status, 1);
    EXPECT_NE(refused.err.find(pack_says), std::string::npos) << refused.err;
    EXPECT_FALSE(fs::exists(out));
    rknnop::host::container c;
    c.lib_x86_64 = rknnop::host::read_file(x86);
    if (!aarch64.empty()) c.lib_aarch64 = rknnop::host::read_file(aarch64);
    if (!armhf.empty()) c.lib_armhf = rknnop::host::read_file(armhf);
    c.op_yml = rknnop::host::read_file(op_yml);
    c.op_py = rknnop::host::read_file(op_py);
    rknnop::host::write_container_file(c, out);
  }
  fs::path dir_;
};

#if defined(RKNNOP_TEST_aarch64_SO) && defined(RKNNOP_TEST_armhf_SO)
TEST_F(PackTool, PackInspectVerifyUnpackRepack) {
  const std::string out = (dir_ / "TestScale.rknnop").string();
  tool_result r = run({"pack", "--version", "2", "--shader", "", "--x86", RKNNOP_TEST_SCALE_SO, "--aarch64",
                       RKNNOP_TEST_aarch64_SO, "--armhf", RKNNOP_TEST_armhf_SO, "--yml", yml, "--py", py, "-o", out});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;

  r = run({"inspect", out, "--verify"});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find(".rknnop version 2, 6 sections"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("ELF64 x86-64 shared object, exports vx_kernel_TestScale_list, needs GLIBC_2.14"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("ELF64 aarch64 shared object, exports vx_kernel_TestScale_list, needs GLIBC_2.17"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("ELF32 arm shared object, exports vx_kernel_TestScale_list"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("op TestScale: 1 input(s), 1 output(s), 3 param(s), kernel_index 0"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("class TestScale(RKNNCustomOP):"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("verify: OK"), std::string::npos) << r.out;

  const fs::path unpacked = dir_ / "unpacked";
  r = run({"unpack", out, "-d", unpacked.string()});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(rknnop::host::read_file(unpacked / "x86_64" / "libtestscale.so"),
            rknnop::host::read_file(RKNNOP_TEST_SCALE_SO));
  EXPECT_EQ(rknnop::host::read_file(unpacked / "op.yml"), rknnop::host::read_file(yml));
  EXPECT_TRUE(fs::exists(unpacked / "rknn_op_testscale.py"));
  EXPECT_FALSE(fs::exists(unpacked / "rknn_kernel_testscale.vx.bin"));  // empty shader: no file

  const std::string again = (dir_ / "again.rknnop").string();
  r = run({"pack", "--x86", (unpacked / "x86_64/libtestscale.so").string(), "--aarch64",
           (unpacked / "aarch64/libtestscale.so").string(), "--armhf", (unpacked / "armhf/libtestscale.so").string(),
           "--yml", (unpacked / "op.yml").string(), "--py", (unpacked / "rknn_op_testscale.py").string(), "-o", again});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(rknnop::host::read_file(again), rknnop::host::read_file(out));
}

TEST_F(PackTool, VerifyRejectsLibraryForTheWrongMachine) {
  const std::string out = (dir_ / "swapped.rknnop").string();
  write_broken(out, RKNNOP_TEST_aarch64_SO, RKNNOP_TEST_SCALE_SO, RKNNOP_TEST_armhf_SO, yml, py,
               "x86-64 library section holds an ELF64 aarch64 shared object");
  const tool_result r = run({"inspect", out, "--verify"});
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find("rknnop-pack: verify: " + out +
                       ": x86-64 library section holds an ELF64 aarch64 shared object, expected ELF64 x86-64"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("aarch64 library section holds an ELF64 x86-64 shared object, expected ELF64 aarch64"),
            std::string::npos)
      << r.err;
  // Without --verify, inspect only reports.
  EXPECT_EQ(run({"inspect", out}).status, 0);
}

// The CPU library a board loads follows its userland (docs/abi.md §1): RK1806's is armhf, like
// RV1109/RV1126's, so an RK1806 op needs the armhf library and not the aarch64 one.
TEST_F(PackTool, Rk1806OpsNeedTheArmhfLibrary) {
  const std::vector<std::uint8_t> bytes = rknnop::host::read_file(yml);
  std::string text(bytes.begin(), bytes.end());
  text += "target_platform: RK1806\n";
  const std::string rk1806_yml = (dir_ / "testscale.yml").string();
  rknnop::host::write_file_atomically(rk1806_yml, std::string_view(text));
  const std::string without_armhf = (dir_ / "aarch64_only.rknnop").string();
  const tool_result refused = run({"pack", "--x86", RKNNOP_TEST_SCALE_SO, "--aarch64", RKNNOP_TEST_aarch64_SO, "--yml",
                                   rk1806_yml, "--py", py, "-o", without_armhf});
  EXPECT_EQ(refused.status, 1);
  EXPECT_NE(refused.err.find("armhf library section is empty but target_platform is RK1806"), std::string::npos)
      << refused.err;
  EXPECT_FALSE(fs::exists(without_armhf));
  const std::string with_armhf = (dir_ / "armhf.rknnop").string();
  const tool_result packed = run({"pack", "--x86", RKNNOP_TEST_SCALE_SO, "--armhf", RKNNOP_TEST_armhf_SO, "--yml",
                                  rk1806_yml, "--py", py, "-o", with_armhf});
  ASSERT_EQ(packed.status, 0) << packed.err;
  const tool_result verified = run({"inspect", with_armhf, "--verify"});
  EXPECT_EQ(verified.status, 0) << verified.out << verified.err;
}
#endif

TEST_F(PackTool, VerifyRejectsMissingListSymbolAndNameMismatch) {
  const std::string out = (dir_ / "nolist.rknnop").string();
  write_broken(out, RKNNOP_TEST_SCALE_NOLIST_SO, "", "", yml, py, "does not export vx_kernel_TestScale_list");
  tool_result r = run({"inspect", out, "--verify"});
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find("rknnop-pack: verify: " + out +
                       ": x86-64 library section does not export vx_kernel_TestScale_list (op.yml name is "
                       "'TestScale')"),
            std::string::npos)
      << r.err;
  // The board library for the default target (RK1808) is missing too.
  EXPECT_NE(r.err.find("aarch64 library section is empty but target_platform is RK1808 (default)"), std::string::npos)
      << r.err;

  // op.yml names another op than the library and the .py.
  const fs::path other_yml = dir_ / "other.yml";
  rknnop::host::write_file_atomically(
      other_yml, std::string_view("name: Other\ninputs: {i: {type: VX_TYPE_TENSOR}}\noutputs: {o: {type: "
                                  "VX_TYPE_TENSOR}}\n"));
  const std::string mismatch = (dir_ / "mismatch.rknnop").string();
  write_broken(mismatch, RKNNOP_TEST_SCALE_SO, "", "", other_yml.string(), py, "does not export vx_kernel_Other_list");
  r = run({"inspect", mismatch, "--verify"});
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find("does not export vx_kernel_Other_list (op.yml name is 'Other')"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(".py class is 'TestScale' but op.yml name is 'Other'"), std::string::npos) << r.err;
}

TEST_F(PackTool, VersionOneHasNoArmhfSlot) {
  const std::string out = (dir_ / "v1.rknnop").string();
  expect_one_line_failure(run({"pack", "--version", "1", "--x86", RKNNOP_TEST_SCALE_SO, "--armhf", RKNNOP_TEST_SCALE_SO,
                               "--yml", yml, "--py", py, "-o", out}),
                          "--armhf given with --version 1");
  EXPECT_FALSE(fs::exists(out));
  // Without the aarch64 library RK1808 (the default target) needs: refused, or written with --pc-only.
  expect_one_line_failure(
      run({"pack", "--version", "1", "--x86", RKNNOP_TEST_SCALE_SO, "--yml", yml, "--py", py, "-o", out}),
      "or --pc-only for a container only the PC runs");
  EXPECT_FALSE(fs::exists(out));
  ASSERT_EQ(
      run({"pack", "--version", "1", "--pc-only", "--x86", RKNNOP_TEST_SCALE_SO, "--yml", yml, "--py", py, "-o", out})
          .status,
      0);
  EXPECT_NE(run({"inspect", "--verify", out}).status, 0);  // the boards could not load it
  const tool_result r = run({"inspect", out});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find(".rknnop version 1, 5 sections"), std::string::npos) << r.out;
}

TEST_F(PackTool, FailuresAreOneLine) {
  expect_one_line_failure(run({"inspect", (dir_ / "missing.rknnop").string()}), "cannot open");
  const fs::path garbage = dir_ / "garbage.rknnop";
  rknnop::host::write_file_atomically(garbage, std::string_view("PK\x03\x04 zip, not rknnop......."));
  expect_one_line_failure(run({"inspect", garbage.string()}), "not a .rknnop container: bad magic at offset 0");
  expect_one_line_failure(run({"unpack", garbage.string(), "-d", (dir_ / "u").string()}), "bad magic");
  expect_one_line_failure(run({}), "A subcommand is required");
  expect_one_line_failure(run({"pack", "--x86", RKNNOP_TEST_SCALE_SO}), "--yml is required");
  expect_one_line_failure(
      run({"pack", "--x86", RKNNOP_TEST_SCALE_SO, "--yml", py, "--py", py, "-o", (dir_ / "bad.rknnop").string()}),
      "rknn_op_testscale.py:4: invalid YAML");
  expect_one_line_failure(run({"pack", "--version", "3", "--x86", RKNNOP_TEST_SCALE_SO, "--yml", yml, "--py", py, "-o",
                               (dir_ / "bad.rknnop").string()}),
                          "--version 3: expected 1 or 2");
  EXPECT_EQ(run({"--help"}).status, 0);
}

}  // namespace

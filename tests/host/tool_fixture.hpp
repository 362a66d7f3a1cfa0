// SPDX-License-Identifier: MIT
#pragma once
// A test of rknnop-run and rknnop-pack: its own scratch directory (<prefix><test name>), the two tools
// run in it, and the check that a failure is one line. Needs RKNNOP_RUN_EXE and RKNNOP_PACK_EXE.
#include <gtest/gtest.h>

#include "test_util.hpp"
#include "tool_runner.hpp"

#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rknnop_test {

class tool_fixture : public ::testing::Test {
protected:
  explicit tool_fixture(std::string prefix) : prefix_(std::move(prefix)) {}
  void SetUp() override { dir_ = work_dir(prefix_ + ::testing::UnitTest::GetInstance()->current_test_info()->name()); }
  tool_result run(const std::vector<std::string>& args) { return run_tool(RKNNOP_RUN_EXE, args, dir_); }
  tool_result pack(const std::vector<std::string>& args) { return run_tool(RKNNOP_PACK_EXE, args, dir_); }
  static void expect_one_line_failure(const tool_result& r, std::string_view tool, std::string_view what) {
    EXPECT_NE(r.status, 0);
    EXPECT_TRUE(r.err.starts_with(std::string(tool) + ": ")) << r.err;
    EXPECT_EQ(line_count(r.err), 1u) << r.err;
    EXPECT_NE(r.err.find(what), std::string::npos) << "missing \"" << what << "\" in: " << r.err;
  }
  std::filesystem::path dir_;

private:
  std::string prefix_;
};

}  // namespace rknnop_test

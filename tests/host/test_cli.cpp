// SPDX-License-Identifier: MIT
// The tools' shared command-line syntax: NAME=VALUE options and NumPy shapes.
#include <rknnop/host/cli.hpp>

#include "test_util.hpp"

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using namespace rknnop::host;

// The message of the usage_error `f` throws (not just any rknnop::host::error).
template <class F>
std::string usage_error_of(F&& f) {
  try {
    (void)f();
  } catch (const usage_error& e) {
    return e.detail();
  }
  return "<no usage_error thrown>";
}

TEST(Cli, AssignmentsKeepCommandLineOrder) {
  const std::vector<assignment> got = parse_assignments("--param", {"size=3,4", "align=false", "b="}, "VALUE");
  EXPECT_EQ(got, (std::vector<assignment>{{"size", "3,4"}, {"align", "false"}, {"b", ""}}));
  EXPECT_TRUE(parse_assignments("--param", {}, "VALUE").empty());
}

TEST(Cli, AssignmentSplitsAtTheFirstEquals) {
  EXPECT_EQ(parse_assignments("--input", {"x=a=b.npy"}, "FILE.npy"), (std::vector<assignment>{{"x", "a=b.npy"}}));
}

TEST(Cli, AssignmentWithoutName) {
  EXPECT_EQ(usage_error_of([] { return parse_assignments("--input", {"in.npy"}, "FILE.npy"); }),
            "--input 'in.npy': expected NAME=FILE.npy");
  EXPECT_EQ(usage_error_of([] { return parse_assignments("--param", {"=3"}, "VALUE"); }),
            "--param '=3': expected NAME=VALUE");
}

TEST(Cli, AssignmentGivenTwice) {
  EXPECT_EQ(usage_error_of([] {
              return parse_assignments("--param", {"bias=1", "scale=2", "bias=3"}, "VALUE");
            }),
            "--param 'bias' given twice");
}

TEST(Cli, UsageErrorIsAHostError) {
  RKNNOP_EXPECT_ERROR(parse_assignments("--output", {"out"}, "FILE.npy"), "--output 'out': expected NAME=FILE.npy");
}

TEST(Cli, Shapes) {
  EXPECT_EQ(parse_numpy_shape("--shape", "x", "1,8,8,3", "1,8,8,3"), (std::vector<std::size_t>{1, 8, 8, 3}));
  EXPECT_EQ(parse_numpy_shape("--shape", "x", "5", "1,8,8,3"), std::vector<std::size_t>{5});
  EXPECT_EQ(parse_numpy_shape("--output-shape", "y", "1,0,3", "1,32,32,3", zero_dims::allowed),
            (std::vector<std::size_t>{1, 0, 3}));
}

TEST(Cli, BadShapes) {
  for (const char* text : {"", ",", "1,", ",1", "1,,2", "1;2", "1,x", "-1", "+1", "1 ,2", "1,2.0", "0", "1,0",
                           "99999999999999999999999"}) {
    EXPECT_EQ(usage_error_of([&] { return parse_numpy_shape("--shape", "x", text, "1,8,8,3"); }),
              "--shape 'x': expected a NumPy shape like 1,8,8,3, got '" + std::string(text) + "'")
        << text;
  }
  EXPECT_EQ(
      usage_error_of([] { return parse_numpy_shape("--output-shape", "y", "1,a", "1,32,32,3", zero_dims::allowed); }),
      "--output-shape 'y': expected a NumPy shape like 1,32,32,3, got '1,a'");
}

// A tool's main ends in `catch (...) { return tool_failure(tool); }`: one line on stderr, status 1,
// for every kind of exception.
TEST(Cli, ToolFailureReportsWhateverEscaped) {
  const auto report = [](auto thrown) {
    testing::internal::CaptureStderr();
    int status = -1;
    try {
      throw thrown;
    } catch (...) {
      status = tool_failure("rknnop-tool");
    }
    EXPECT_EQ(status, 1);
    return testing::internal::GetCapturedStderr();
  };
  EXPECT_EQ(report(error("kernel 'x' failed")), "rknnop-tool: rknnop: kernel 'x' failed\n");
  EXPECT_EQ(report(std::runtime_error("out of range")), "rknnop-tool: rknnop: out of range\n");
  EXPECT_EQ(report(42), "rknnop-tool: rknnop: an exception that is not a std::exception\n");
}

}  // namespace

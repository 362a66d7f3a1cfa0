// SPDX-License-Identifier: MIT
// The tools' command-line layer (tools/common): NAME=VALUE options, NumPy shapes, the one handler.
#include "cli.hpp"  // tools/common

#include "test_util.hpp"

#include <CLI/CLI.hpp>

#include <cstddef>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using namespace rknnop::tools;
using rknnop::host::error;

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

// A tool's main ends in `catch (...) { return tool_failure(tool); }`: one line on stderr, status 2 for
// a mistake on the command line and 1 for anything else.
TEST(Cli, ToolFailureReportsWhateverEscaped) {
  const auto report = [](auto thrown, int expected_status) {
    testing::internal::CaptureStderr();
    int status = -1;
    try {
      throw thrown;
    } catch (...) {
      status = tool_failure("rknnop-tool", "reading x.npy");
    }
    EXPECT_EQ(status, expected_status);
    return testing::internal::GetCapturedStderr();
  };
  EXPECT_EQ(report(usage_error("--input 'x' given twice"), 2), "rknnop-tool: --input 'x' given twice\n");
  EXPECT_EQ(report(error("kernel 'x' failed"), 1), "rknnop-tool: kernel 'x' failed\n");
  EXPECT_EQ(report(std::bad_alloc(), 1), "rknnop-tool: out of memory while reading x.npy\n");
  EXPECT_EQ(report(std::runtime_error("out of range"), 1), "rknnop-tool: out of range\n");
  EXPECT_EQ(report(42, 1), "rknnop-tool: an exception that is not a std::exception\n");
}

// CLI11's errors: one line, status 2; --help: status 0.
TEST(Cli, ParseOrExit) {
  const auto parse = [](std::vector<std::string> args, std::string& err) {
    CLI::App app{"test", "rknnop-tool"};
    std::string file;
    app.add_option("--file", file)->required();
    std::vector<char*> argv{const_cast<char*>("rknnop-tool")};
    for (std::string& a : args) argv.push_back(a.data());
    testing::internal::CaptureStdout();
    testing::internal::CaptureStderr();
    const std::optional<int> r = parse_or_exit(app, static_cast<int>(argv.size()), argv.data());
    (void)testing::internal::GetCapturedStdout();
    err = testing::internal::GetCapturedStderr();
    return r;
  };
  std::string err;
  EXPECT_EQ(parse({"--file", "a"}, err), std::nullopt);
  EXPECT_EQ(parse({"--help"}, err), 0);
  EXPECT_EQ(parse({}, err), 2);
  EXPECT_EQ(err, "rknnop-tool: --file is required\n");
  EXPECT_EQ(parse({"--file", "a", "--nope"}, err), 2);
  EXPECT_EQ(err, "rknnop-tool: The following argument was not expected: --nope\n");
}

}  // namespace

// SPDX-License-Identifier: MIT
// The tools' command-line layer (tools/common): NAME=VALUE options, NumPy shapes, the one handler.
#include "cli.hpp"  // tools/common

#include "test_util.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
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

// --- terminal text (issue 50): one escaping function for what came from a file, a library or a runner ---

// A node name, a graph name or a kernel's log line cannot start a line of its own, move the cursor or
// switch the terminal's state: newlines, tabs, ESC, CR, DEL, C1 controls, bidirectional overrides and
// bytes that are not UTF-8 are written as \xHH; letters of other scripts pass.
TEST(Sandbox, TerminalTextEscapesNewlinesEscapeCodesAndControls) {
  EXPECT_EQ(terminal_text("conv\nrknnop-run: all OK"), "conv\\x0arknnop-run: all OK");
  EXPECT_EQ(terminal_text("a\x1b[2J\rb\tc\x7f"), "a\\x1b[2J\\x0db\\x09c\\x7f");
  EXPECT_EQ(terminal_text("\xc2\x9b"
                          "31m"),
            "\\xc2\\x9b31m");  // C1 CSI, UTF-8 encoded
  EXPECT_EQ(terminal_text("\x9b"
                          "31m"),
            "\\x9b31m");  // a lone C1 byte
  EXPECT_EQ(terminal_text("ab\xe2\x80\xae"
                          "cd"),
            "ab\\xe2\\x80\\xaecd");                    // U+202E, right-to-left override
  EXPECT_EQ(terminal_text("\xc0\xaf"), "\\xc0\\xaf");  // an overlong '/'
  EXPECT_EQ(terminal_text("caf\xc3\xa9 \xe5\x8d\xb7\xe7\xa7\xaf"),
            "caf\xc3\xa9 \xe5\x8d\xb7\xe7\xa7\xaf");  // café 卷积
  EXPECT_EQ(terminal_lines("op.yml\nname: a\x1b[0m\n"), "op.yml\nname: a\\x1b[0m\n");
}

// Every print of rknnop-run (both modes), rknnop-parity and rknnop-pack that formats a value passes it
// through terminal_text (or terminal_lines), or says on the line before why the value is the tool's own
// ("// terminal: sizes only"). The errors a tool ends with go through tool_failure, which escapes them.
TEST(Sandbox, NoToolPrintBypassesTerminalText) {
  namespace fs = std::filesystem;
  const fs::path root = fs::path(RKNNOP_TEST_DATA_DIR).parent_path().parent_path().parent_path();
  const std::regex print(R"((fmt::print|std::printf|std::fprintf|std::puts)\()");
  std::size_t prints = 0;
  std::vector<std::string> bypassing;
  for (const char* folder : {"tools/rknnop-run", "tools/rknnop-parity", "tools/rknnop-pack"})
    for (const fs::directory_entry& e : fs::directory_iterator(root / folder)) {
      if (e.path().extension() != ".cpp") continue;
      std::ifstream in(e.path());
      std::stringstream text;
      text << in.rdbuf();
      const std::string s = text.str();
      EXPECT_EQ(s.find("std::cout"), std::string::npos) << e.path() << ": print through fmt::print and terminal_text";
      EXPECT_EQ(s.find("std::cerr"), std::string::npos) << e.path() << ": print through fmt::print and terminal_text";
      for (auto it = std::sregex_iterator(s.begin(), s.end(), print); it != std::sregex_iterator(); ++it) {
        const std::size_t start = static_cast<std::size_t>(it->position());
        std::size_t at = s.find('(', start);
        ASSERT_NE(at, std::string::npos);
        int depth = 0;
        std::size_t end = at;
        for (; end < s.size(); ++end) {
          if (s[end] == '(') ++depth;
          if (s[end] == ')' && --depth == 0) break;
        }
        const std::string statement = s.substr(start, end - start + 1);
        const std::size_t line_start = s.rfind('\n', start);
        const std::size_t previous_start = line_start == std::string::npos ? 0 : s.rfind('\n', line_start - 1);
        const std::string previous =
            line_start == std::string::npos ? std::string() : s.substr(previous_start + 1, line_start - previous_start);
        ++prints;
        const bool formats = statement.find("{}") != std::string::npos || statement.find("{:") != std::string::npos ||
                             statement.find("%s") != std::string::npos;
        if (formats && statement.find("terminal_text(") == std::string::npos &&
            statement.find("terminal_lines(") == std::string::npos &&
            previous.find("// terminal: ") == std::string::npos)
          bypassing.push_back(
              fmt::format("{}:{}: {}", e.path().filename().string(),
                          std::count(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(start), '\n') + 1,
                          statement.substr(0, 100)));
      }
    }
  EXPECT_GT(prints, 40u) << "the tools' sources were not found under " << root;
  EXPECT_TRUE(bypassing.empty()) << fmt::format("{}", fmt::join(bypassing, "\n"));
}

}  // namespace

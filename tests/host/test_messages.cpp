// SPDX-License-Identifier: MIT
// Every rknnop::host::error is one line: bytes quoted from the user's files (op.yml values, .npy
// headers, param text) are escaped, never copied raw (a NUL cut what() short, a line break split it).
#include <rknnop/host/error.hpp>
#include <rknnop/host/file_io.hpp>
#include <rknnop/host/npy.hpp>
#include <rknnop/host/op_yml.hpp>
#include <rknnop/host/param_value.hpp>
#include <rknnop/vx_type.hpp>

#include "op_yml_writer.hpp"
#include "test_util.hpp"

#include <cstring>
#include <string>
#include <vector>

namespace {

using namespace rknnop::host;
using rknnop::vx_type;
using namespace std::string_literals;

// The message of what `f` throws, checked to be one clean line.
template <class F>
std::string one_line_error(F&& f) {
  try {
    f();
  } catch (const error& e) {
    const std::string what = e.what();
    EXPECT_EQ(std::strlen(e.what()), what.size()) << "a NUL in: " << what;
    EXPECT_EQ(what.find_first_of("\n\r"s + '\0'), std::string::npos) << what;
    EXPECT_EQ(what, "rknnop: " + e.detail());
    return what;
  }
  ADD_FAILURE() << "no rknnop::host::error";
  return {};
}

TEST(Messages, EscapeKeepsTextAndUtf8AndEscapesTheRest) {
  EXPECT_EQ(escape_nonprintable("plain 'text' (64,64)"), "plain 'text' (64,64)");
  EXPECT_EQ(escape_nonprintable("caf\xc3\xa9 \xe2\x86\x92 ok"), "caf\xc3\xa9 \xe2\x86\x92 ok");
  EXPECT_EQ(escape_nonprintable("a\nb\r\tc"s + '\0' + "\x02\x7f"), "a\\nb\\r\\tc\\0\\x02\\x7f");
  EXPECT_EQ(escape_nonprintable("\xff\xc3(\xe2\x82"), "\\xff\\xc3(\\xe2\\x82");           // not UTF-8
  EXPECT_EQ(escape_nonprintable("\xc2\x85|\xe2\x80\xa8"), "\\xc2\\x85|\\xe2\\x80\\xa8");  // NEL, LINE SEPARATOR
  EXPECT_EQ(escape_nonprintable("\xc0\xaf"), "\\xc0\\xaf");                               // overlong '/'
  const error e("line one\nline two"s + '\0' + "tail");
  EXPECT_STREQ(e.what(), "rknnop: line one\\nline two\\0tail");
}

// fuzz_op_yml's finding (../shared/findings/fuzz_op_yml-nul-in-value.yml, kept in the seed corpus):
// op_py_file holds 0x02 0x00; emit -> parse changed it. Such values are refused, naming the bytes.
TEST(Messages, OpYmlValueWithANulIsRefusedOnOneLine) {
  const auto bytes = read_file(std::filesystem::path(RKNNOP_TEST_FUZZ_CORPUS) / "fuzz_op_yml" / "nul_in_value.yml");
  const std::string text(bytes.begin(), bytes.end());
  ASSERT_NE(text.find('\0'), std::string::npos);
  const std::string what = one_line_error([&] { (void)parse_op_yml(text, "nul.yml"); });
  EXPECT_NE(what.find("nul.yml:"), std::string::npos) << what;
  // The NUL is refused before yaml-cpp reads it, and shown escaped with its line.
  EXPECT_NE(what.find("a NUL byte at byte"), std::string::npos) << what;
  EXPECT_NE(what.find("r&nn_\\x02\\0"), std::string::npos) << what;
  // A value that is not UTF-8 would not survive emit -> parse either (yaml-cpp writes U+FFFD).
  const std::string latin1 =
      "name: Exp\ninputs:\n  x: {type: VX_TYPE_TENSOR}\noutputs:\n  y: {type: VX_TYPE_TENSOR}\n"
      "framework: tensorfl\xf6w\n";
  EXPECT_NE(one_line_error([&] { (void)parse_op_yml(latin1, "latin1.yml"); }).find("'tensorfl\\xf6w'"),
            std::string::npos);
  // Printable values round-trip as before.
  const std::string good =
      "name: Exp\ninputs:\n  x: {type: VX_TYPE_TENSOR}\noutputs:\n  y: {type: VX_TYPE_TENSOR}\n"
      "op_py_file: rknn_op_\xc3\xa9xp.py\n";
  const op_yml op = parse_op_yml(good, "good.yml");
  EXPECT_EQ(parse_op_yml(rknnop_test::yaml_op_yml(op), "again.yml"), op);
}

TEST(Messages, NpyHeaderBytesAreEscaped) {
  std::string header = "{'descr': '<f4',\n 'fortran_order': False, 'shape': (1,\0 2), }"s;
  while ((10 + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  std::vector<std::uint8_t> file = {0x93,
                                    'N',
                                    'U',
                                    'M',
                                    'P',
                                    'Y',
                                    1,
                                    0,
                                    static_cast<std::uint8_t>(header.size() & 0xFF),
                                    static_cast<std::uint8_t>(header.size() >> 8)};
  file.insert(file.end(), header.begin(), header.end());
  const std::string what = one_line_error([&] { (void)parse_npy(file, "in.npy"); });
  EXPECT_NE(what.find("in.npy: bad .npy header"), std::string::npos) << what;
}

TEST(Messages, ParamTextIsEscaped) {
  const std::string what =
      one_line_error([] { (void)parse_param_value("size", vx_type::array, "64,\n64"s + '\0', 2); });
  EXPECT_NE(what.find("param 'size'"), std::string::npos) << what;
  EXPECT_NE(what.find("64,\\n64\\0"), std::string::npos) << what;
}

}  // namespace

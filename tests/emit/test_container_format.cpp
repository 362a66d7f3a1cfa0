// SPDX-License-Identifier: MIT
// <rknnop/container_format.hpp>: the byte layout (checked at compile time too), strict parsing with
// located errors, atomic files, and agreement with rknnop::host's reader.

#include <rknnop/container_format.hpp>

#include "emit_test_util.hpp"

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#if RKNNOP_EMIT_TEST_HAS_HOST
#include <rknnop/host/container.hpp>
#include <rknnop/host/error.hpp>
#endif

namespace {

// 'text' (the messages quote paths so); built by appending, as GCC 12 at -O3 misreads `"'" + string` (-Wrestrict).
std::string quoted(const std::string& text) {
  std::string q(1, '\'');
  q += text;
  q += '\'';
  return q;
}

namespace fs = std::filesystem;
namespace format = rknnop::container_format;
using format::section;

// A version-2 container with sections of 0, 1, 0, 0, 2, 1 bytes.
constexpr std::array<std::uint8_t, 16 + 6 * 8 + 4> tiny = [] {
  std::array<std::uint8_t, 16 + 6 * 8 + 4> b{'R', 'K', 'N', 'N', 0, 0, 0, 0, 2};
  std::size_t at = 16;
  for (const std::uint8_t len : std::array<std::uint8_t, 6>{0, 1, 0, 0, 2, 1}) {
    b[at] = len;
    at += 8;
    for (std::uint8_t i = 0; i < len; ++i) b[at++] = static_cast<std::uint8_t>(0xA0 + i);
  }
  return b;
}();

// The layout is constexpr: the parser is usable (and checked) at compile time.
static_assert(format::parse(tiny).ok());
static_assert(format::parse(tiny).version == 2);
static_assert(format::parse(tiny).location_count == 6);
static_assert(format::parse(tiny).locations[1].kind == section::lib_x86_64);
static_assert(format::parse(tiny).locations[1].offset == 32 && format::parse(tiny).locations[1].size == 1);
static_assert(format::parse(tiny).locations[4].offset == 16 + 5 * 8 + 1);
static_assert(format::parse(std::span(tiny).first(15)).error == format::parse_error::header_too_short);
static_assert(format::parse(std::span(tiny).first(tiny.size() - 1)).error == format::parse_error::section_past_end);
static_assert(format::layout(1).size() == 5 && format::layout(2).size() == 6 && format::layout(3).empty());

std::vector<std::uint8_t> text(std::string_view s) { return {s.begin(), s.end()}; }

struct owned {
  std::uint64_t version = 2;
  std::array<std::vector<std::uint8_t>, format::section_count> bytes{};
  format::contents view() const {
    format::contents c;
    c.version = version;
    for (std::size_t i = 0; i < bytes.size(); ++i) c.sections[i] = bytes[i];
    return c;
  }
};

owned sample(std::uint64_t version) {
  owned o;
  o.version = version;
  o.bytes = {text("SHDR\x01"),
             text("\x7f"
                  "ELF x86"),
             text("\x7f"
                  "ELF a64"),
             version == 2 ? text("\x7f"
                                 "ELF arm")
                          : std::vector<std::uint8_t>{},
             text("name: Foo\n"),
             text("class Foo(RKNNCustomOP):\n")};
  return o;
}

TEST(EmitContainer, SerializeIsMagicVersionThenLengthPrefixedSections) {
  format::contents c;
  const std::array<std::uint8_t, 1> x86{0xA0};
  const std::array<std::uint8_t, 3> yml{0xA0, 0xA1, 0xA2};
  c[section::lib_x86_64] = x86;
  c[section::op_yml] = std::span(yml).first(2);
  c[section::op_py] = std::span(yml).first(1);
  const auto bytes = format::serialize(c);
  EXPECT_EQ(bytes, std::vector<std::uint8_t>(tiny.begin(), tiny.end()));
}

TEST(EmitContainer, RoundTripBothVersions) {
  for (const std::uint64_t version : {1u, 2u}) {
    const owned o = sample(version);
    const auto bytes = format::serialize(o.view());
    const format::parsed p = format::parse(bytes);
    ASSERT_TRUE(p) << format::message(p, "x");
    EXPECT_EQ(p.version, version);
    EXPECT_EQ(p.sections().size(), version == 2 ? 6u : 5u);
    owned back;
    back.version = p.version;
    for (const auto& where : p.sections()) {
      const auto v = p.bytes_of(bytes, where.kind);
      back.bytes[static_cast<std::size_t>(where.kind)].assign(v.begin(), v.end());
    }
    EXPECT_EQ(back.bytes, o.bytes);
    EXPECT_EQ(format::serialize(back.view()), bytes);
  }
}

TEST(EmitContainer, WriterRefusesWhatItCannotWrite) {
  owned o = sample(2);
  o.version = 1;  // with an armhf library
  EXPECT_EQ(format::check(o.view()).error,
            "cannot write a version 1 .rknnop with an armhf library (8 bytes): version 1 has no armhf section, use "
            "version 2");
  EXPECT_TRUE(format::serialize(o.view()).empty());
  o.version = 7;
  EXPECT_EQ(format::check(o.view()).error, "cannot write .rknnop version 7: expected 1 or 2");
}

std::string parse_message(const std::vector<std::uint8_t>& bytes) {
  return format::message(format::parse(bytes), "f.rknnop");
}

TEST(EmitContainer, ParseErrorsSayWhatAndWhere) {
  const auto good = format::serialize(sample(2).view());
  EXPECT_EQ(parse_message(text("RKNN")),
            "f.rknnop: not a .rknnop container: 4 bytes, shorter than the 16-byte header (\"RKNN\\0\\0\\0\\0\" + u64 "
            "version)");
  auto bad = good;
  bad[3] = 'X';
  EXPECT_EQ(parse_message(bad),
            "f.rknnop: not a .rknnop container: bad magic at offset 0: expected 52 4b 4e 4e 00 00 00 00 "
            "(\"RKNN\\0\\0\\0\\0\"), got 52 4b 4e 58 00 00 00 00");
  bad = good;
  bad[8] = 9;
  EXPECT_EQ(parse_message(bad), "f.rknnop: unsupported .rknnop version 9 at offset 8: expected 1 or 2");
  bad.assign(good.begin(), good.begin() + 16 + 8 + 5 + 3);  // shader (5 bytes), then 3 bytes of a length
  EXPECT_EQ(parse_message(bad),
            "f.rknnop: truncated length field of section 2 (x86-64 library) at offset 29: need 8 bytes, 3 left");
  bad.assign(good.begin(), good.begin() + 16 + 8 + 5);
  EXPECT_EQ(parse_message(bad),
            "f.rknnop: version 2 container has 1 sections, expected 6 (missing section 2, x86-64 library, at "
            "offset 29)");
  bad.assign(good.begin(), good.begin() + 16 + 8 + 4);
  EXPECT_EQ(parse_message(bad),
            "f.rknnop: section 1 (shader) at offset 24 claims 5 bytes but only 4 remain in the file");
  bad = good;
  bad.push_back(0);
  EXPECT_EQ(parse_message(bad), "f.rknnop: 1 trailing bytes at offset " + std::to_string(good.size()) +
                                    " after the last section (.py); a version 2 container has exactly 6 sections");
  // A section length near 2^64 must not wrap around.
  bad.assign(good.begin(), good.begin() + 24);
  bad[16 + 7] = 0xFF;
  bad.push_back(1);
  EXPECT_EQ(format::parse(bad).error, format::parse_error::section_past_end);
}

TEST(EmitContainer, FilesAreWrittenAtomically) {
  const auto dir = emit_test::work_dir("container_files");
  const owned o = sample(2);
  ASSERT_TRUE(format::write_file(dir / "Foo.rknnop", o.view()));
  ASSERT_TRUE(format::write_file(dir / "Foo.rknnop", o.view()));  // replaces
  std::vector<std::uint8_t> back;
  ASSERT_TRUE(format::read_file(dir / "Foo.rknnop", back));
  EXPECT_EQ(back, format::serialize(o.view()));
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++files;
  EXPECT_EQ(files, 1u);  // no temporary left

  const auto missing_dir = format::write_file(dir / "no-such-dir" / "x.rknnop", o.view());
  EXPECT_EQ(missing_dir.error, "cannot write the output: the folder '" + (dir / "no-such-dir").string() + "' of '" +
                                   (dir / "no-such-dir" / "x.rknnop").string() + "' does not exist");
  owned v1 = o;
  v1.version = 1;
  EXPECT_FALSE(format::write_file(dir / "v1.rknnop", v1.view()));
  EXPECT_FALSE(fs::exists(dir / "v1.rknnop"));
  const auto not_file = format::read_file(dir, back);
  EXPECT_EQ(not_file.error,
            quoted(dir.string()).append(" is a directory, not a regular file; rknnop reads regular files only"));
}

// The magics are the one definition the readers compare against; a prefix of a magic is not it.
static_assert(format::starts_with(tiny, format::magic));
static_assert(!format::starts_with(std::span(tiny).first(7), format::magic));
static_assert(format::shader_magic == std::array<std::uint8_t, 4>{'S', 'H', 'D', 'R'});

TEST(EmitContainer, ReadFileIsBounded) {
  const auto dir = emit_test::work_dir("container_bounded");
  const owned o = sample(2);
  ASSERT_TRUE(format::write_file(dir / "Foo.rknnop", o.view()));
  const std::size_t size = format::serialize(o.view()).size();
  std::vector<std::uint8_t> back;
  ASSERT_TRUE(format::read_file(dir / "Foo.rknnop", back, size));  // exactly the limit: read
  EXPECT_EQ(back.size(), size);
  const auto over = format::read_file(dir / "Foo.rknnop", back, size - 1);
  EXPECT_EQ(over.error, quoted((dir / "Foo.rknnop").string())
                            .append(" is ")
                            .append(std::to_string(size))
                            .append(" bytes, larger than the ")
                            .append(std::to_string(size - 1))
                            .append("-byte limit for files rknnop reads"));
  EXPECT_TRUE(back.empty());
}

// TOOLKIT_RKNNOP's shader: the first section of a strictly parsed container, "SHDR" and non-empty.
TEST(EmitContainer, ShaderSectionOfAToolkitContainer) {
  owned o = sample(2);
  auto file = format::serialize(o.view());
  format::bytes_view shader;
  ASSERT_TRUE(format::shader_section(file, "T.rknnop", shader));
  EXPECT_EQ(std::vector<std::uint8_t>(shader.begin(), shader.end()), o.bytes[0]);

  const auto refused = [&](const std::vector<std::uint8_t>& bytes, std::string_view fragment) {
    format::bytes_view out{bytes.data(), 1};
    const auto r = format::shader_section(bytes, "T.rknnop", out);
    EXPECT_FALSE(r);
    EXPECT_TRUE(out.empty());
    EXPECT_TRUE(r.error.starts_with("T.rknnop: ")) << r.error;
    EXPECT_NE(r.error.find(fragment), std::string::npos) << "missing \"" << fragment << "\" in: " << r.error;
    EXPECT_EQ(r.error.find('\n'), std::string::npos) << r.error;
  };
  refused(o.bytes[1], "not a .rknnop container");
  o.bytes[0].clear();
  refused(format::serialize(o.view()), "shader section is empty (a CPU-only op");
  o.bytes[0] = text("#include <cl_viv_vx_ext.h>\n");
  refused(format::serialize(o.view()), "is not a compiled Vivante shader (it does not start with \"SHDR\")");
  file.resize(file.size() - 1);
  refused(file, "claims 25 bytes but only 24 remain");
}

#if RKNNOP_EMIT_TEST_HAS_HOST
// rknnop::host's owning container adapts this header; both read each other's files byte-exactly.
TEST(EmitContainer, AgreesWithHostReader) {
  const auto dir = emit_test::work_dir("container_host");
  for (const std::uint64_t version : {1u, 2u}) {
    const owned o = sample(version);
    ASSERT_TRUE(format::write_file(dir / "ours.rknnop", o.view()));
    const rknnop::host::container c = rknnop::host::read_container_file(dir / "ours.rknnop");
    EXPECT_EQ(c.version, version);
    EXPECT_EQ(c.shader, o.bytes[0]);
    EXPECT_EQ(c.lib_armhf, o.bytes[3]);
    EXPECT_EQ(c.op_py, o.bytes[5]);
    rknnop::host::write_container_file(c, dir / "theirs.rknnop");
    std::vector<std::uint8_t> ours, theirs;
    ASSERT_TRUE(format::read_file(dir / "ours.rknnop", ours));
    ASSERT_TRUE(format::read_file(dir / "theirs.rknnop", theirs));
    EXPECT_EQ(ours, theirs);
  }
  // Same diagnostics, with the host's "rknnop: " prefix.
  auto bad = format::serialize(sample(2).view());
  bad.push_back(0);
  try {
    (void)rknnop::host::parse_container(bad, "f.rknnop");
    ADD_FAILURE() << "no error";
  } catch (const rknnop::host::error& e) {
    EXPECT_EQ(std::string(e.what()), "rknnop: " + parse_message(bad));
  }
}
#endif

}  // namespace

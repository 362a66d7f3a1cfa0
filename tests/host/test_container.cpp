// SPDX-License-Identifier: MIT
#include <rknnop/host/container.hpp>
#include <rknnop/host/file_io.hpp>

#include "test_util.hpp"

#include <filesystem>

namespace {

using namespace rknnop::host;
using rknnop_test::bytes_of;

container sample(std::uint64_t version) {
  container c;
  c.version = version;
  c.shader = bytes_of("SHDR\x01\x02");
  c.lib_x86_64 = bytes_of(
      "\x7f"
      "ELF x86");
  c.lib_aarch64 = bytes_of(
      "\x7f"
      "ELF aarch64");
  if (version == 2)
    c.lib_armhf = bytes_of(
        "\x7f"
        "ELF arm");
  c.op_yml = bytes_of("name: Foo\n");
  c.op_py = bytes_of("class Foo(RKNNCustomOP):\n");
  return c;
}

void put_u64(std::vector<std::uint8_t>& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

TEST(Container, LayoutIsMagicVersionThenLengthPrefixedSections) {
  container c;
  c.version = 2;
  c.lib_x86_64 = {0xAA};
  c.op_py = {0xBB, 0xCC};
  const auto bytes = serialize_container(c);
  std::vector<std::uint8_t> expected{'R', 'K', 'N', 'N', 0, 0, 0, 0};
  put_u64(expected, 2);
  put_u64(expected, 0);  // shader
  put_u64(expected, 1);
  expected.push_back(0xAA);
  put_u64(expected, 0);
  put_u64(expected, 0);
  put_u64(expected, 0);
  put_u64(expected, 2);
  expected.push_back(0xBB);
  expected.push_back(0xCC);
  EXPECT_EQ(bytes, expected);
}

TEST(Container, RoundTripIsByteIdenticalForBothVersions) {
  for (const std::uint64_t version : {1u, 2u}) {
    const auto bytes = serialize_container(sample(version));
    std::vector<section_location> where;
    const container parsed = parse_container(bytes, "x.rknnop", &where);
    EXPECT_EQ(parsed.version, version);
    EXPECT_EQ(where.size(), version == 2 ? 6u : 5u);
    EXPECT_EQ(parsed.op_yml, sample(version).op_yml);
    EXPECT_EQ(serialize_container(parsed), bytes);
  }
}

TEST(Container, FileRoundTripAndAtomicWrite) {
  const auto dir = rknnop_test::work_dir("container_file");
  const auto path = dir / "Foo.rknnop";
  write_container_file(sample(2), path);
  const auto first = read_file(path);
  write_container_file(read_container_file(path), dir / "copy.rknnop");
  EXPECT_EQ(read_file(dir / "copy.rknnop"), first);
  // No temporary files left behind.
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir)) ++files;
  EXPECT_EQ(files, 2u);
}

TEST(Container, FailedWriteLeavesNoArtifact) {
  const auto dir = rknnop_test::work_dir("container_fail");
  RKNNOP_EXPECT_ERROR(write_container_file(sample(2), dir / "missing-dir" / "x.rknnop"), "cannot write the output",
                      "missing-dir", "does not exist");
  container bad = sample(2);
  bad.version = 1;  // armhf section present: refused before anything is written
  RKNNOP_EXPECT_ERROR(write_container_file(bad, dir / "x.rknnop"), "version 1", "armhf");
  EXPECT_FALSE(std::filesystem::exists(dir / "x.rknnop"));
}

TEST(Container, BadMagic) {
  auto bytes = serialize_container(sample(2));
  bytes[4] = 1;
  RKNNOP_EXPECT_ERROR(parse_container(bytes, "bad.rknnop"), "bad.rknnop", "bad magic at offset 0",
                      "got 52 4b 4e 4e 01 00 00 00");
}

TEST(Container, TooShortForHeader) {
  RKNNOP_EXPECT_ERROR(parse_container(bytes_of("RKNN"), "short.rknnop"), "short.rknnop", "4 bytes", "16-byte header");
}

TEST(Container, UnknownVersion) {
  auto bytes = serialize_container(sample(2));
  bytes[8] = 3;
  RKNNOP_EXPECT_ERROR(parse_container(bytes, "v3.rknnop"), "unsupported .rknnop version 3 at offset 8",
                      "expected 1 or 2");
}

TEST(Container, TruncatedLengthField) {
  std::vector<std::uint8_t> bytes{'R', 'K', 'N', 'N', 0, 0, 0, 0};
  put_u64(bytes, 2);
  put_u64(bytes, 0);                // shader
  bytes.insert(bytes.end(), 3, 0);  // 3 bytes of the x86 length
  RKNNOP_EXPECT_ERROR(parse_container(bytes, "t.rknnop"),
                      "truncated length field of section 2 (x86-64 library) at offset 24", "need 8 bytes, 3 left");
}

TEST(Container, SectionPastEndOfFile) {
  std::vector<std::uint8_t> bytes{'R', 'K', 'N', 'N', 0, 0, 0, 0};
  put_u64(bytes, 2);
  put_u64(bytes, 100);  // shader claims 100 bytes
  bytes.insert(bytes.end(), 10, 0);
  RKNNOP_EXPECT_ERROR(parse_container(bytes, "p.rknnop"), "section 1 (shader) at offset 24",
                      "claims 100 bytes but only 10 remain");
}

TEST(Container, MissingSections) {
  auto bytes = serialize_container(sample(1));
  bytes[8] = 2;  // a version-1 body labelled version 2: one section short
  // Reading sections as v2 order misattributes them but the count check fires at the end.
  RKNNOP_EXPECT_ERROR(parse_container(bytes, "m.rknnop"), "version 2 container has 5 sections, expected 6",
                      "missing section 6, .py");
}

TEST(Container, TrailingBytes) {
  auto bytes = serialize_container(sample(2));
  const auto size = bytes.size();
  bytes.push_back(0);
  bytes.push_back(0);
  const std::string expected = "2 trailing bytes at offset " + std::to_string(size);
  RKNNOP_EXPECT_ERROR(parse_container(bytes, "tr.rknnop"), expected, "after the last section (.py)",
                      "exactly 6 sections");
}

}  // namespace

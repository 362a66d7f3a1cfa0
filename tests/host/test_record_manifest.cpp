// SPDX-License-Identifier: MIT
// rknnop-run --replay's reading of a record (tools/rknnop-run/record_manifest.cpp): the manifest's lines,
// its hex fields, the recorder's file names, an element of a differing output as text.
#include "record_manifest.hpp"  // tools/rknnop-run

#include "test_util.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using rknnop::host::npy_dtype;
using rknnop_run::element_text;
using rknnop_run::read_manifest;
using rknnop_run::record_manifests;

fs::path write(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

template <class T>
std::string text_of(npy_dtype dtype, T value) {
  std::uint8_t bytes[sizeof value];
  std::memcpy(bytes, &value, sizeof value);
  return element_text(dtype, bytes);
}

TEST(RecordManifest, IntegerElementsPrintExactly) {
  // 16777217 and INT32_MIN are no floats: printed through float they read 16777216 and -2.1474836e+09.
  EXPECT_EQ(text_of(npy_dtype::int32, std::int32_t{16777217}), "16777217");
  EXPECT_EQ(text_of(npy_dtype::int32, std::int32_t{-2147483647 - 1}), "-2147483648");
  EXPECT_EQ(text_of(npy_dtype::uint16, std::uint16_t{65535}), "65535");
  EXPECT_EQ(text_of(npy_dtype::int16, std::int16_t{-32768}), "-32768");
  EXPECT_EQ(text_of(npy_dtype::int8, std::int8_t{-1}), "-1");
  EXPECT_EQ(text_of(npy_dtype::uint8, std::uint8_t{255}), "255");
}

TEST(RecordManifest, FloatElementsPrintValueAndBits) {
  EXPECT_EQ(text_of(npy_dtype::float32, 1.0f), "1 (0x3f800000)");
  EXPECT_EQ(text_of(npy_dtype::float32, -0.0f), "-0 (0x80000000)");
  EXPECT_EQ(text_of(npy_dtype::float16, std::uint16_t{0x3c00}), "1 (0x3c00)");
  EXPECT_EQ(text_of(npy_dtype::float16, std::uint16_t{0xc000}), "-2 (0xc000)");
}

TEST(RecordManifest, HexFieldsDecodeOrNameTheField) {
  const fs::path dir = rknnop_test::work_dir("record_manifest_hex");
  const auto m = read_manifest(write(dir / "m.manifest", "rknnop_record=1\na=0aFf\nb=00003f\nc=0g\nd=\nend\n"));
  EXPECT_EQ(m.hex("a", 1, 2), (std::vector<std::uint8_t>{0x0a, 0xff}));
  EXPECT_EQ(m.hex("a", 2, 1), (std::vector<std::uint8_t>{0x0a, 0xff}));
  EXPECT_TRUE(m.hex("d", 0, 4).empty());
  RKNNOP_EXPECT_ERROR(m.hex("b", 1, 4),
                      "m.manifest: field 'b' is '00003f', expected 8 hex digits (1 items of 4 bytes)");
  RKNNOP_EXPECT_ERROR(m.hex("c", 1, 1), "field 'c' is '0g', expected 2 hex digits");
  RKNNOP_EXPECT_ERROR(m.hex("a", 1, 4), "field 'a' is '0aFf', expected 8 hex digits");
  RKNNOP_EXPECT_ERROR(m.hex("e", 1, 1), "field 'e' is missing");
}

TEST(RecordManifest, LinesAreCheckedFirstLineFirst) {
  const fs::path dir = rknnop_test::work_dir("record_manifest_lines");
  RKNNOP_EXPECT_ERROR(read_manifest(write(dir / "twice.manifest", "rknnop_record=1\na=1\nb=2\na=3\nend\n")),
                      "twice.manifest: field 'a' is given twice");
  // The first line decides: no other line of a file that is no manifest is looked at.
  RKNNOP_EXPECT_ERROR(read_manifest(write(dir / "other.manifest", "a=1\na=1\nend\nx\n")),
                      "other.manifest: not an rknnop record manifest (its first line is not 'rknnop_record=1')");
  RKNNOP_EXPECT_ERROR(read_manifest(write(dir / "end.manifest", "end\n")), "not an rknnop record manifest");
  RKNNOP_EXPECT_ERROR(read_manifest(write(dir / "empty.manifest", "")), "not an rknnop record manifest");
  RKNNOP_EXPECT_ERROR(read_manifest(write(dir / "after.manifest", "rknnop_record=1\nend\na=1\n")),
                      "line 3 follows 'end'");
  const auto m = read_manifest(write(dir / "good.manifest", "rknnop_record=1\nb=2\na=\nend\n"));
  ASSERT_NE(m.find("a"), nullptr);
  EXPECT_EQ(*m.find("a"), "");
  EXPECT_EQ(m.get("b"), "2");
  EXPECT_EQ(m.find("c"), nullptr);
}

TEST(RecordManifest, AManifestOfManyShortKeysReadsInLinearTime) {
  // The worst case of the 1 MiB limit: ~175,000 distinct 4-character keys. A linear search per line
  // (the duplicate check) makes that ~1.5e10 comparisons, minutes; a set of keys makes it milliseconds.
  std::string text = "rknnop_record=1\n";
  const std::string digits = "abcdefghijklmnopqrstuvwxyz0123456789_";
  std::size_t keys = 0;
  for (std::size_t n = 0; text.size() + 8 < (1u << 20) - 4; ++n, ++keys) {
    std::string key;
    for (std::size_t v = n, k = 0; k < 4; ++k, v /= digits.size()) key += digits[v % digits.size()];
    text += key + "=\n";
  }
  text += "end\n";
  const fs::path dir = rknnop_test::work_dir("record_manifest_large");
  const fs::path path = write(dir / "large.manifest", text);
  ASSERT_LE(fs::file_size(path), 1u << 20);
  const auto start = std::chrono::steady_clock::now();
  const auto m = read_manifest(path);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(m.fields.size(), keys + 1);
  std::printf("read a %ju-byte manifest of %zu keys in %.3f s\n", static_cast<std::uintmax_t>(fs::file_size(path)),
              keys + 1, seconds);
  EXPECT_LT(seconds, 5.0);  // linear: well under 1 s even on a loaded machine
}

TEST(RecordManifest, OnlyTheRecordersNamesAreListed) {
  const fs::path dir = rknnop_test::work_dir("record_manifest_names");
  for (const char* name : {"rknnop-cstDualResidual-000000.manifest", "rknnop-Op_1-000000000001.manifest"})
    write(dir / name, "rknnop_record=1\nend\n");
  // Not the recorder's: a path-like or empty op type, a call of 5 or 13 digits, another suffix.
  for (const char* name : {"rknnop-..-000003.manifest", "rknnop--000003.manifest", "rknnop-a.b-000003.manifest",
                           "rknnop-a-00003.manifest", "rknnop-a-0000000000003.manifest", "rknnop-a-000003.manifest~",
                           "rknnop-a-00000x.manifest", "xrknnop-a-000003.manifest", "rknnop-000003.manifest"})
    write(dir / name, "rknnop_record=1\nend\n");
  fs::create_directory(dir / "rknnop-Dir-000004.manifest");  // a folder of the recorder's name
  fs::create_symlink(dir / "rknnop-cstDualResidual-000000.manifest", dir / "rknnop-Link-000005.manifest");
  const std::vector<fs::path> got = record_manifests(dir.string());
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].filename(), "rknnop-Op_1-000000000001.manifest");
  EXPECT_EQ(got[1].filename(), "rknnop-cstDualResidual-000000.manifest");
  const fs::path none = rknnop_test::work_dir("record_manifest_none");
  write(none / "rknnop-..-000003.manifest", "rknnop_record=1\nend\n");
  RKNNOP_EXPECT_ERROR(record_manifests(none.string()), "no record in the folder");
}

}  // namespace

// SPDX-License-Identifier: MIT
#include <rknnop/host/elf.hpp>
#include <rknnop/host/file_io.hpp>

#include "test_util.hpp"

#include <algorithm>
#include <random>

namespace {

using namespace rknnop::host;

const elf_symbol* find_undefined(const elf_info& info, std::string_view name) {
  const auto it =
      std::find_if(info.undefined.begin(), info.undefined.end(), [&](const elf_symbol& s) { return s.name == name; });
  return it == info.undefined.end() ? nullptr : &*it;
}

TEST(Elf, HostKernelLibrary) {
  const auto bytes = read_file(RKNNOP_TEST_SCALE_SO);
  const elf_info info = inspect_elf(bytes, "libtestscale.so");
  EXPECT_EQ(info.bits, 64);
  EXPECT_EQ(info.machine, elf_machine::x86_64);
  EXPECT_TRUE(info.is_shared_object());
  EXPECT_EQ(info.summary(), "ELF64 x86-64 shared object");
  EXPECT_TRUE(info.exports_kernel_list("TestScale"));
  EXPECT_FALSE(info.exports_kernel_list("Other"));
  const elf_symbol* list = info.find_export("vx_kernel_TestScale_list");
  ASSERT_NE(list, nullptr);
  EXPECT_EQ(list->kind, elf_symbol_kind::object);
  // Built with hidden visibility: the callbacks are not exported.
  EXPECT_EQ(info.find_export("cpu_kernel_function"), nullptr);
  EXPECT_EQ(info.find_export("validator"), nullptr);
  // Imports carry their GNU symbol versions.
  const elf_symbol* memcpy_symbol = find_undefined(info, "memcpy");
  ASSERT_NE(memcpy_symbol, nullptr);
  EXPECT_EQ(memcpy_symbol->version, "GLIBC_2.14");
  const elf_symbol* copy = find_undefined(info, "vxCopyTensorPatch");
  ASSERT_NE(copy, nullptr);
  EXPECT_TRUE(copy->version.empty());  // libOpenVX has no symbol versions
  EXPECT_GE(compare_symbol_versions(info.max_glibc, "GLIBC_2.14"), 0) << info.max_glibc;
  EXPECT_TRUE(info.max_glibcxx.empty());  // a C library needs no libstdc++
  EXPECT_NE(std::find(info.needed.begin(), info.needed.end(), "libc.so.6"), info.needed.end());
  EXPECT_NO_THROW(check_loadable_on_host(info, "libtestscale.so"));
}

TEST(Elf, LibraryWithoutTheListSymbol) {
  const elf_info info = inspect_elf(read_file(RKNNOP_TEST_SCALE_NOLIST_SO), "nolist.so");
  EXPECT_FALSE(info.exports_kernel_list("TestScale"));
  EXPECT_TRUE(info.exports_kernel_list("Other"));
}

#ifdef RKNNOP_TEST_aarch64_SO
TEST(Elf, Aarch64CrossBuiltLibrary) {
  const elf_info info = inspect_elf(read_file(RKNNOP_TEST_aarch64_SO), "aarch64.so");
  EXPECT_EQ(info.bits, 64);
  EXPECT_EQ(info.machine, elf_machine::aarch64);
  EXPECT_TRUE(info.is_shared_object());
  EXPECT_TRUE(info.exports_kernel_list("TestScale"));
  const elf_symbol* memcpy_symbol = find_undefined(info, "memcpy");
  ASSERT_NE(memcpy_symbol, nullptr);
  EXPECT_EQ(memcpy_symbol->version, "GLIBC_2.17");  // aarch64's first glibc
  if (host_machine() == elf_machine::x86_64)
    RKNNOP_EXPECT_ERROR(check_loadable_on_host(info, "aarch64.so"),
                        "aarch64.so: library is for aarch64 (ELF64 aarch64 shared object) but this host "
                        "is x86-64 (ELF64)");
}
#endif

#ifdef RKNNOP_TEST_armhf_SO
TEST(Elf, ArmhfCrossBuiltLibrary) {
  const elf_info info = inspect_elf(read_file(RKNNOP_TEST_armhf_SO), "armhf.so");
  EXPECT_EQ(info.bits, 32);
  EXPECT_EQ(info.machine, elf_machine::arm);
  EXPECT_EQ(info.summary(), "ELF32 arm shared object");
  EXPECT_TRUE(info.exports_kernel_list("TestScale"));
  const elf_symbol* memcpy_symbol = find_undefined(info, "memcpy");
  ASSERT_NE(memcpy_symbol, nullptr);
  EXPECT_EQ(memcpy_symbol->version, "GLIBC_2.4");  // armhf's first glibc
#if !defined(__arm__)                              // under qemu-arm the host is arm
  RKNNOP_EXPECT_ERROR(check_loadable_on_host(info, "armhf.so"), "library is for arm (ELF32 arm shared object)");
#endif
}
#endif

TEST(Elf, NotAnElf) {
  RKNNOP_EXPECT_ERROR(inspect_elf(rknnop_test::bytes_of("hello world"), "x.so"),
                      "x.so: not an ELF file (starts with 68 65 6c 6c, expected 7f 45 4c 46)");
  RKNNOP_EXPECT_ERROR(inspect_elf({}, "empty.so"), "empty.so: not an ELF file", "empty");
}

TEST(Elf, BadClassAndByteOrder) {
  auto bytes = read_file(RKNNOP_TEST_SCALE_SO);
  bytes[4] = 7;
  RKNNOP_EXPECT_ERROR(inspect_elf(bytes, "c.so"), "EI_CLASS is 7");
  bytes[4] = 2;
  bytes[5] = 2;
  RKNNOP_EXPECT_ERROR(inspect_elf(bytes, "be.so"), "big-endian", "only little-endian");
}

TEST(Elf, TruncatedImages) {
  const auto bytes = read_file(RKNNOP_TEST_SCALE_SO);
  RKNNOP_EXPECT_ERROR(inspect_elf(std::span(bytes).first(20), "t.so"), "t.so: malformed ELF",
                      "past the end of the 20-byte file");
  // Any prefix either parses (section table still inside) or fails with a message: never a crash.
  for (std::size_t size = 0; size < bytes.size(); size += 61) {
    try {
      (void)inspect_elf(std::span(bytes).first(size), "t.so");
    } catch (const error& e) {
      EXPECT_TRUE(std::string_view(e.what()).starts_with("rknnop: ")) << e.what();
    }
  }
}

TEST(Elf, RandomCorruptionNeverCrashes) {
  const auto original = read_file(RKNNOP_TEST_SCALE_SO);
  std::mt19937 rng(12345);
  std::uniform_int_distribution<std::size_t> position(0, original.size() - 1);
  std::uniform_int_distribution<int> value(0, 255);
  int failures = 0;
  for (int round = 0; round < 3000; ++round) {
    auto bytes = original;
    const int flips = 1 + round % 8;
    for (int i = 0; i < flips; ++i) {
      // Bias towards the headers, where corruption matters most.
      const std::size_t at = round % 2 == 0 ? position(rng) % 64 : position(rng);
      bytes[at] = static_cast<std::uint8_t>(value(rng));
    }
    try {
      (void)inspect_elf(bytes, "fuzz.so");
    } catch (const error&) {
      ++failures;
    }
  }
  EXPECT_GT(failures, 0);
}

TEST(Elf, VersionComparison) {
  EXPECT_GT(compare_symbol_versions("GLIBC_2.14", "GLIBC_2.2.5"), 0);
  EXPECT_LT(compare_symbol_versions("GLIBC_2.2.5", "GLIBC_2.14"), 0);
  EXPECT_EQ(compare_symbol_versions("GLIBC_2.2", "GLIBC_2.2.0"), 0);
  EXPECT_GT(compare_symbol_versions("GLIBCXX_3.4.26", "GLIBCXX_3.4.25"), 0);
  EXPECT_EQ(kernel_list_symbol("ResizeArea"), "vx_kernel_ResizeArea_list");
  EXPECT_EQ(machine_name(243), "machine 243");
}

}  // namespace

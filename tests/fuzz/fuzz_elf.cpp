// SPDX-License-Identifier: MIT
// ELF inspection: any bytes give an elf_info or rknnop::host::error, never a crash or an
// out-of-bounds read; the queries on a result work; symbol version comparison is an order. The
// structural check and kernel-list reader the loader and --verify run before dlopen, likewise.
#include "fuzz_util.hpp"

#include <rknnop/host/elf.hpp>

#include <span>
#include <string>
#include <string_view>

namespace {
int sign(int v) { return (v > 0) - (v < 0); }
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rknnop::host;
  const std::span<const std::uint8_t> bytes(data, size);
  elf_info info;
  bool parsed = false;
  try {
    info = inspect_elf(bytes, "fuzz.so");
    parsed = true;
  } catch (const error& e) {
    rknnop::fuzz::expect_clean_error(e);
  }
  if (parsed) {
    RKNNOP_FUZZ_EXPECT(looks_like_elf(bytes));
    RKNNOP_FUZZ_EXPECT(info.bits == 32 || info.bits == 64);
    RKNNOP_FUZZ_EXPECT(!info.summary().empty());
    for (const elf_symbol& s : info.exported) RKNNOP_FUZZ_EXPECT(info.find_export(s.name) != nullptr);
    for (const std::string* v : {&info.max_glibc, &info.max_glibcxx, &info.max_cxxabi})
      RKNNOP_FUZZ_EXPECT(v->empty() || compare_symbol_versions(*v, *v) == 0);
    (void)info.exports_kernel_list("ResizeArea");
    if (!info.exported.empty()) {
      const std::string& name = info.exported.front().name;
      if (name.starts_with("vx_kernel_") && name.ends_with("_list") && name.size() > 15)
        (void)info.exports_kernel_list(std::string_view(name).substr(10, name.size() - 15));
    }
    try {
      check_loadable_on_host(info, "fuzz.so");
    } catch (const error& e) {
      rknnop::fuzz::expect_clean_error(e);
    }
  }

  // The structural check the loader runs before dlopen, and the static kernel-list reader behind
  // --verify: an error or a result, never a crash, a hang or a read outside the input.
  try {
    check_elf_structure(bytes, "fuzz.so");
    if (const auto list = read_kernel_list(bytes, "vx_kernel_Seed_list", "fuzz.so"))
      for (const elf_kernel_descriptor& d : list->entries) RKNNOP_FUZZ_EXPECT(d.name_field.size() == 256);
  } catch (const error& e) {
    rknnop::fuzz::expect_clean_error(e);
  }

  // Version strings from the input: compare_symbol_versions is reflexive and antisymmetric.
  const std::string_view text(reinterpret_cast<const char*>(data), size < 64 ? size : 64);
  const std::size_t cut = text.find('\n');
  const std::string_view a = text.substr(0, cut);
  const std::string_view b = cut == std::string_view::npos ? std::string_view() : text.substr(cut + 1);
  RKNNOP_FUZZ_EXPECT(compare_symbol_versions(a, a) == 0);
  RKNNOP_FUZZ_EXPECT(sign(compare_symbol_versions(a, b)) == -sign(compare_symbol_versions(b, a)));
  (void)machine_name(static_cast<std::uint16_t>(size));
  return 0;
}

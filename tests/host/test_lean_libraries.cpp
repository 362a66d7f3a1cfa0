// SPDX-License-Identifier: MIT
// rknnop_add_op packs stripped libraries with their debug info beside the container (docs/abi.md §9):
// tests/host/CMakeLists.txt asks for it for ResizeAreaToolkit in every build type. That op also takes
// its shader section from a toolkit-style container (TOOLKIT_RKNNOP).
#include <rknnop/host/container.hpp>
#include <rknnop/host/elf.hpp>
#include <rknnop/host/file_io.hpp>

#include "test_util.hpp"

#include <algorithm>
#include <filesystem>
#include <string_view>

namespace {

namespace fs = std::filesystem;
using namespace rknnop::host;

[[maybe_unused]] bool holds(const std::vector<std::uint8_t>& bytes, std::string_view text) {
  return std::search(bytes.begin(), bytes.end(), text.begin(), text.end()) != bytes.end();
}

TEST(LeanLibraries, ContainerHoldsStrippedLibrariesWithDebugInfoBeside) {
#ifndef RKNNOP_TEST_TOOLKIT_PY_RKNNOP
  GTEST_SKIP() << "ResizeAreaToolkit is not built here (examples off or a cross build)";
#else
  const fs::path container_path = RKNNOP_TEST_TOOLKIT_PY_RKNNOP;
  const container c = read_container_file(container_path);
  const fs::path dir = container_path.parent_path();
  const std::vector<std::uint8_t> full = read_file(dir / "x86_64" / "libresizeareatoolkit.so");
  const fs::path debug_path = dir / "debug" / "x86_64" / "libresizeareatoolkit.so.debug";
  ASSERT_TRUE(fs::exists(debug_path)) << debug_path;
  const std::vector<std::uint8_t> debug = read_file(debug_path);

  const std::vector<std::uint8_t>& shipped = c.lib_x86_64;
  EXPECT_LT(shipped.size(), full.size());
  EXPECT_TRUE(holds(full, ".symtab"));
  EXPECT_FALSE(holds(shipped, ".symtab")) << "the packed library still has a symbol table";
  EXPECT_FALSE(holds(shipped, ".debug_info")) << "the packed library still has debug info";
  EXPECT_TRUE(holds(shipped, ".gnu_debuglink"));
  EXPECT_TRUE(holds(shipped, "libresizeareatoolkit.so.debug"));  // the link names the debug file
  EXPECT_TRUE(holds(debug, ".debug_info"));
  EXPECT_TRUE(holds(debug, ".symtab"));
  // What the runtime needs is intact: the list symbol and the version needs.
  const elf_info info = inspect_elf(shipped, "shipped");
  EXPECT_TRUE(info.exports_kernel_list("ResizeAreaToolkit"));
  EXPECT_EQ(info.max_glibc, inspect_elf(full, "full").max_glibc);
#endif
}

// The same op is built with TOOLKIT_RKNNOP: its emitter packs the donor container's shader section.
TEST(LeanLibraries, ShaderSectionComesFromTheToolkitContainer) {
#ifndef RKNNOP_TEST_TOOLKIT_PY_RKNNOP
  GTEST_SKIP() << "ResizeAreaToolkit is not built here (examples off or a cross build)";
#else
  const container donor = read_container_file(RKNNOP_TEST_SHADER_DONOR);
  ASSERT_GT(donor.shader.size(), 4u);
  EXPECT_EQ(read_container_file(RKNNOP_TEST_TOOLKIT_PY_RKNNOP).shader, donor.shader);
#endif
}

}  // namespace

// SPDX-License-Identifier: MIT
// Relocations and descriptor pointers (issue 30 item 3): a RELATIVE relocation whose addend points
// outside the loaded image is refused by the structure check, before dlopen; in the loaded
// process, a kernel list whose callback points outside the library's code is refused before it is
// called (check_descriptor_pointers).
#include <rknnop/host/elf.hpp>
#include <rknnop/host/error.hpp>
#include <rknnop/host/file_io.hpp>
#include <rknnop/openvx.h>
#if RKNNOP_HOST_HAS_SESSION
#include <rknnop/host/descriptor_pointers.hpp>
#endif

#include "test_util.hpp"

#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace {

using namespace rknnop::host;

std::uint64_t u64_at(const std::vector<std::uint8_t>& b, std::size_t at) {
  std::uint64_t v = 0;
  std::memcpy(&v, b.data() + at, 8);
  return v;
}

// The file offset of the first Elf64_Rela entry of type R_X86_64_RELATIVE (8) in the test library:
// offset and addend inside the image (the image is small), info exactly 8.
std::size_t first_relative(const std::vector<std::uint8_t>& b) {
  for (std::size_t at = 64; at + 24 <= b.size(); at += 8)
    if (u64_at(b, at + 8) == 8 && u64_at(b, at) != 0 && u64_at(b, at) < b.size() + 0x10000 && u64_at(b, at + 16) != 0 &&
        u64_at(b, at + 16) < b.size() + 0x10000)
      return at;
  return 0;
}

TEST(Relocations, ARelativeAddendOutsideTheImageIsRefused) {
  std::vector<std::uint8_t> library = read_file(RKNNOP_TEST_SCALE_SO);
  EXPECT_NO_THROW(check_elf_structure(library, "libtestscale.so"));
  const std::size_t at = first_relative(library);
  ASSERT_NE(at, 0u);
  library[at + 16 + 5] = 0x0f;  // addend 0x1116 -> 0xf0000001116, as in issue 30
  const std::string message = rknnop_test::error_of([&] { check_elf_structure(library, "libtestscale.so"); });
  EXPECT_TRUE(message.starts_with("rknnop: libtestscale.so: corrupt library: DT_RELA relocation ")) << message;
  EXPECT_NE(message.find("(RELATIVE) stores load address + 0xf"), std::string::npos) << message;
  EXPECT_NE(message.find("outside the loaded segments"), std::string::npos) << message;
}

// The issue's repro on the toolkit's own demo model: byte 1581 of its x86-64 library.
TEST(Relocations, TheToolkitDemoLibraryMutatedAsInTheIssue) {
  const char* samples = std::getenv("RKNNOP_TOOLKIT_SAMPLES");
  if (samples == nullptr || !std::filesystem::exists(std::string(samples) + "/rknn_custom_op_resize/resize_area.rknn"))
    GTEST_SKIP() << "RKNNOP_TOOLKIT_SAMPLES does not name the toolkit's samples";
  const std::vector<std::uint8_t> model_bytes =
      read_file(std::string(samples) + "/rknn_custom_op_resize/resize_area.rknn");
  // Sections: export_data, config, custom_op_config, custom_op_data; the x86-64 library is the op's
  // op_lib_x86 blob, found here by its ELF magic and size (13768 bytes in the demo model).
  const std::string_view elf =
      "\x7f"
      "ELF\x02\x01\x01";
  const auto it = std::search(model_bytes.begin(), model_bytes.end(), elf.begin(), elf.end());
  ASSERT_NE(it, model_bytes.end());
  const auto begin = static_cast<std::size_t>(it - model_bytes.begin());
  ASSERT_GE(model_bytes.size() - begin, 13768u);
  std::vector<std::uint8_t> library(model_bytes.begin() + static_cast<std::ptrdiff_t>(begin),
                                    model_bytes.begin() + static_cast<std::ptrdiff_t>(begin + 13768));
  EXPECT_NO_THROW(check_elf_structure(library, "libresizearea.so"));
  library[1581] = 0x0f;
  const std::string message = rknnop_test::error_of([&] { check_elf_structure(library, "libresizearea.so"); });
  EXPECT_NE(message.find("(RELATIVE) stores load address + 0xf0000001116"), std::string::npos) << message;
}

#if RKNNOP_HOST_HAS_SESSION
// A kernel list in this test program: one good descriptor shape, its callback sent elsewhere.
vx_status VX_CALLBACK kernel_function(vx_node, const vx_reference*, vx_uint32) { return VX_SUCCESS; }
vx_param_description_t parameters[] = {{VX_INPUT, VX_TYPE_TENSOR, VX_PARAMETER_STATE_REQUIRED}};
vx_kernel_description_t good{0, "good", kernel_function, parameters, 1, nullptr, nullptr, nullptr, nullptr, nullptr};
vx_kernel_description_t wild{0, "wild", kernel_function, parameters, 1, nullptr, nullptr, nullptr, nullptr, nullptr};
vx_kernel_description_t* good_list[] = {&good, nullptr};
vx_kernel_description_t* wild_list[] = {&good, &wild, nullptr};

TEST(DescriptorPointers, CallbacksOutsideTheCodeAreRefusedBeforeTheCall) {
  EXPECT_NO_THROW(check_descriptor_pointers(good_list, "vx_kernel_Good_list", 1024, "good.so"));
  wild.validate = reinterpret_cast<vx_kernel_validate_f>(std::uintptr_t{0xf0001116});
  const std::string message =
      rknnop_test::error_of([&] { check_descriptor_pointers(wild_list, "vx_kernel_Wild_list", 1024, "wild.so"); });
  EXPECT_EQ(message,
            "rknnop: wild.so: descriptor 1 of vx_kernel_Wild_list: validate points to 0xf0001116, outside the "
            "library's code; it is not called");
  wild.validate = nullptr;
  wild.parameters = reinterpret_cast<vx_param_description_t*>(std::uintptr_t{0xf0001000});
  const std::string table =
      rknnop_test::error_of([&] { check_descriptor_pointers(wild_list, "vx_kernel_Wild_list", 1024, "wild.so"); });
  EXPECT_NE(table.find("descriptor 1 of vx_kernel_Wild_list: the parameter table (at 0xf0001000, 12 bytes) is "
                       "outside the library's readable segments"),
            std::string::npos)
      << table;
  wild.parameters = parameters;
}
#endif

}  // namespace

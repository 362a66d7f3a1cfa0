// SPDX-License-Identifier: MIT
// The loader and the session against what the toolkit and rknnop_add_op really produce: the
// library section of this host's architecture (x86-64, aarch64, armhf; a version-1 container has
// no armhf section), the tensor ranks of the toolkit's own ResizeArea demo model (input NHWC rank 4
// [3,32,32,1], output rank 3 [3,64,64] from a Python class returning [h, w, c]), and allocation
// failures. Runs natively and, in the cross builds, under qemu-aarch64 and qemu-arm.
#include <rknnop/host/container.hpp>
#include <rknnop/host/elf.hpp>
#include <rknnop/host/file_io.hpp>
#include <rknnop/host/memory_budget.hpp>
#include <rknnop/host/session.hpp>
#include <rknnop/vx_type.hpp>

#include "test_util.hpp"

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using namespace rknnop::host;

using rknnop_test::data_dir;

// The TestScale container with `library` in the given sections (the others empty).
fs::path scale_container(const fs::path& dir, std::uint64_t version, std::vector<section_kind> sections,
                         const std::vector<std::uint8_t>& library) {
  container c;
  c.version = version;
  for (const section_kind kind : sections) c.section(kind) = library;
  c.op_yml = read_file(data_dir / "testscale.yml");
  c.op_py = read_file(data_dir / "rknn_op_testscale.py");
  const fs::path out = dir / ("TestScale_v" + std::to_string(version) + ".rknnop");
  write_container_file(c, out);
  return out;
}

void expect_scale_runs(session s) {
  s.set_input("input", std::vector<float>{1, 2}, {2});
  s.set_param("bias", {1});
  s.set_param("scale", 2.0f);
  s.set_param("negate", false);
  s.run();
  EXPECT_EQ(s.output("output").values, (std::vector<float>{3, 5}));
}

section_kind host_kind() { return library_section_for(host_machine(), 2, "test"); }

// --- the section of this host's architecture -----------------------------------------------------

TEST(LoaderSections, EachArchitectureTakesItsOwnSection) {
  EXPECT_EQ(library_section_for(elf_machine::x86_64, 2, "op.rknnop"), section_kind::lib_x86_64);
  EXPECT_EQ(library_section_for(elf_machine::aarch64, 2, "op.rknnop"), section_kind::lib_aarch64);
  EXPECT_EQ(library_section_for(elf_machine::arm, 2, "op.rknnop"), section_kind::lib_armhf);
  EXPECT_EQ(library_section_for(elf_machine::x86_64, 1, "op.rknnop"), section_kind::lib_x86_64);
  EXPECT_EQ(library_section_for(elf_machine::aarch64, 1, "op.rknnop"), section_kind::lib_aarch64);
  RKNNOP_EXPECT_ERROR(library_section_for(elf_machine::arm, 1, "old.rknnop"),
                      "old.rknnop: a version-1 container (RKNN-Toolkit 1.2.0) has no armhf library section",
                      "this host is armhf");
  RKNNOP_EXPECT_ERROR(library_section_for(elf_machine::i386, 2, "op.rknnop"),
                      "x86-64, aarch64 and armhf only; this host is x86 (i386)");
}

TEST(LoaderSections, TakesTheHostSectionAndNoOther) {
  const fs::path dir = rknnop_test::work_dir("loader_sections");
  const std::vector<std::uint8_t> library = read_file(RKNNOP_TEST_SCALE_SO);
  // Only the host's section holds a library: it is the one loaded, whatever this host is.
  const session s = session::load(scale_container(dir, 2, {host_kind()}, library));
  EXPECT_EQ(s.kernel().name, "testscale_cpu");
  // The host's section empty, the library in every other one: refused, naming the section.
  std::vector<section_kind> others;
  for (const section_kind k : {section_kind::lib_x86_64, section_kind::lib_aarch64, section_kind::lib_armhf})
    if (k != host_kind()) others.push_back(k);
  const fs::path wrong = scale_container(dir, 2, others, library);
  const std::string expected = "TestScale_v2.rknnop: the " + std::string(section_description(host_kind())) +
                               " section is empty, and this host is " + machine_name(host_machine());
  RKNNOP_EXPECT_ERROR(session::load(wrong), expected);
}

TEST(LoaderSections, Version1ContainerHasNoArmhfSection) {
  const fs::path dir = rknnop_test::work_dir("loader_v1");
  const std::vector<std::uint8_t> library = read_file(RKNNOP_TEST_SCALE_SO);
  // The toolkit 1.2.0 layout: shader, x86-64, aarch64, op.yml, .py.
  const fs::path v1 = scale_container(dir, 1, {section_kind::lib_x86_64, section_kind::lib_aarch64}, library);
  EXPECT_EQ(read_container_file(v1).version, 1u);
  if (host_machine() == elf_machine::arm) {
    RKNNOP_EXPECT_ERROR(session::load(v1), "TestScale_v1.rknnop: a version-1 container", "no armhf library section");
  } else {
    expect_scale_runs(session::load(v1));
  }
}

// --- the toolkit's ResizeArea demo: its model's tensor ranks through rknnop's generated library ---

#ifdef RKNNOP_TEST_RESIZEAREA_RKNNOP
const fs::path resize_area = RKNNOP_TEST_RESIZEAREA_RKNNOP;

session resize_session(const fs::path& op, std::vector<std::size_t> input_shape, std::int32_t size) {
  if (!fs::exists(op)) ADD_FAILURE() << op << " is missing (built by rknnop_add_op)";
  session s = session::load(op);
  std::size_t count = 1;
  for (const std::size_t d : input_shape) count *= d;
  std::vector<float> values(count);
  for (std::size_t i = 0; i < count; ++i) values[i] = static_cast<float>(i % 61) * 0.25f;
  s.set_input(s.op().inputs.at(0).name, values, input_shape);
  s.set_param("size", {size, size});
  s.set_param("align_corners", false);
  return s;
}

// Input dims [3,32,32,1] (NHWC 1x32x32x3), output dims [3,64,64] (rank 3), size 64,64: what the
// toolkit's demo model hands the kernel. Same values as with a rank-4 output.
void expect_demo_ranks_run(const fs::path& op) {
  session s = resize_session(op, {1, 32, 32, 3}, 64);
  s.run();
  const std::vector<float> batch4 = s.output("output").values;
  EXPECT_EQ(s.output("output").dims, (std::vector<std::uint32_t>{3, 64, 64, 1}));

  s.set_output_shape("output", {64, 64, 3});
  s.run();
  const tensor_result& out = s.output("output");
  EXPECT_EQ(out.dims, (std::vector<std::uint32_t>{3, 64, 64}));
  EXPECT_EQ(out.shape, (std::vector<std::size_t>{64, 64, 3}));
  EXPECT_EQ(out.values, batch4);
  // Upscaling by 2: every output pixel is its input pixel.
  EXPECT_EQ(out.values[0], 0.0f);
  EXPECT_EQ(out.values[3], 0.0f);
  EXPECT_EQ(out.values[6], 0.75f);

  // An input without its batch dim (rank 3) is batch 1 too.
  session s3 = resize_session(op, {32, 32, 3}, 64);
  s3.set_output_shape("output", {64, 64, 3});
  s3.run();
  EXPECT_EQ(s3.output("output").values, batch4);
}

TEST(ToolkitRanks, ResizeAreaDemoShapesThroughTheGeneratedLibrary) { expect_demo_ranks_run(resize_area); }

TEST(ToolkitRanks, OtherRanksStayClearErrors) {
  session wrong_shape = resize_session(resize_area, {1, 32, 32, 3}, 64);
  wrong_shape.set_output_shape("output", {64, 32, 3});
  RKNNOP_EXPECT_ERROR(wrong_shape.run(),
                      "output 'output': shape inference gives NumPy shape (1, 64, 64, 3), the output tensor "
                      "has (64, 32, 3) (dims innermost first [3,64,64,1] and [3,32,64])");
  session rank5 = resize_session(resize_area, {1, 1, 8, 8, 3}, 4);
  RKNNOP_EXPECT_ERROR(rank5.run(),
                      "input 'images': expected rank 4 (NHWC; a lower rank is taken as batch 1), got "
                      "rank 5 with dims [3,8,8,1,1]");
}

TEST(ToolkitRanks, AllocationFailureNamesTheTensor) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "a sanitizer's allocator aborts on a 60 GB request instead of failing it";
#else
  if (sizeof(void*) < 8) GTEST_SKIP() << "a 32-bit vx_size cannot express the request (checked separately)";
  session s = resize_session(resize_area, {1, 32, 32, 3}, 100000);
  // The memory budget refuses the 60 GB output before the runtime asks for it (docs/memory-budget.md).
  RKNNOP_EXPECT_ERROR(s.run(),
                      "op 'ResizeArea' (kernel 'resizearea_cpu'): output 'output' of shape (1, 100000, 100000, 3) "
                      "VX_TYPE_FLOAT16 needs 55.9 GiB, over the memory budget of 2 GiB");
  // With a budget that allows it, the allocation itself fails and the runtime names the tensor.
  set_memory_budget(std::uint64_t{1} << 40);
  RKNNOP_EXPECT_ERROR(
      s.run(), "graph verification failed with VX_ERROR_NO_MEMORY (-8)",
      "parameter 1 (output 'output'): cannot allocate 60000000000 bytes for dims [3, 100000, 100000, 1] "
      "of FLOAT16");
  set_memory_budget(0);  // the default again
#endif
}
#endif

#ifdef RKNNOP_TEST_TOOLKIT_PY_RKNNOP
// rknnop_add_op(ResizeAreaToolkit ... PYTHON rknn_op_resizeareatoolkit.py): the container carries the
// hand-written toolkit-style class, and the library runs the rank its [h, w, c] shape gives.
TEST(ToolkitRanks, RknnopAddOpWithAToolkitPythonClass) {
  const fs::path op = RKNNOP_TEST_TOOLKIT_PY_RKNNOP;
  const container c = read_container_file(op);
  EXPECT_EQ(c.op_py, read_file(RKNNOP_TEST_TOOLKIT_PY));
  const std::string python(c.op_py.begin(), c.op_py.end());
  EXPECT_NE(python.find("class ResizeAreaToolkit(RKNNCustomOP):"), std::string::npos);
  EXPECT_NE(python.find("out_shape.extend(params['size'])"), std::string::npos);
  expect_demo_ranks_run(op);
}
#endif

}  // namespace

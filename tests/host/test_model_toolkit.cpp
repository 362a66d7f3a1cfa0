// SPDX-License-Identifier: MIT
// The toolkit's own ResizeArea demo model (rockchip-linux/rknn-toolkit,
// examples/common_function_demos/custom_op/rknn_custom_op_resize/resize_area.rknn) in both forms,
// when RKNNOP_TOOLKIT_SAMPLES names a folder holding them (docs/rknn-model.md §6 lists the layout):
//   resize_area_v1.3.0.rknn                      toolkit 1.3.0's form (graph version 1.2.0)
//   resize_area_v1.3.2.rknn or resize_area.rknn  toolkit 1.3.2 and later (graph version 1.3.0)
// each also accepted under rknn_custom_op_resize/; and, optionally,
//   rknn_custom_op_resize/resize_area/ResizeArea.rknnop   the toolkit's container of the op.
// Skipped with the reason otherwise.
#include <rknnop/host/elf.hpp>
#include <rknnop/host/file_io.hpp>
#include <rknnop/host/npy.hpp>
#include <rknnop/host/rknn_model.hpp>

#include "test_util.hpp"
#include "tool_runner.hpp"

#include <cstdlib>
#include <filesystem>
#include <optional>

namespace {

namespace fs = std::filesystem;
using namespace rknnop::host;
using rknnop_test::tool_result;

std::optional<fs::path> samples_dir() {
  const char* dir = std::getenv("RKNNOP_TOOLKIT_SAMPLES");
  if (dir == nullptr || *dir == '\0') return std::nullopt;
  return fs::path(dir);
}

std::optional<fs::path> find_sample(std::initializer_list<const char*> names) {
  const auto dir = samples_dir();
  if (!dir) return std::nullopt;
  for (const char* name : names)
    for (const fs::path& at : {*dir / name, *dir / "rknn_custom_op_resize" / name})
      if (fs::is_regular_file(at)) return at;
  return std::nullopt;
}

struct sample {
  const char* label;
  std::initializer_list<const char*> names;
  std::size_t file_size, config_size;
  const char* graph_version;
  bool virtual_tensor_note;  // toolkit 1.3.2 writes virtual_tensor_num 1 with an empty array
};
const sample v130{"v1.3.0", {"resize_area_v1.3.0.rknn"}, 32366, 1325, "1.2.0", false};
const sample v132{"v1.3.2+", {"resize_area_v1.3.2.rknn", "resize_area.rknn"}, 32416, 1375, "1.3.0", true};

void PrintTo(const sample* s, std::ostream* os) { *os << s->label; }  // stable test names in ctest

class ToolkitModel : public ::testing::TestWithParam<const sample*> {
protected:
  void SetUp() override {
    if (!samples_dir())
      GTEST_SKIP() << "RKNNOP_TOOLKIT_SAMPLES is not set (a folder holding the toolkit's resize_area "
                      "demo models, see docs/rknn-model.md)";
    const auto found = find_sample(GetParam()->names);
    if (!found)
      GTEST_SKIP() << "RKNNOP_TOOLKIT_SAMPLES=" << samples_dir()->string() << " holds no " << GetParam()->label
                   << " sample (" << *GetParam()->names.begin() << ")";
    path_ = *found;
    dir_ = rknnop_test::work_dir(std::string("toolkit_model_") + (GetParam() == &v130 ? "v130_" : "v132_") +
                                 ::testing::UnitTest::GetInstance()->current_test_info()->name());
  }
  tool_result run(std::vector<std::string> args) { return rknnop_test::run_tool(RKNNOP_RUN_EXE, args, dir_); }
  tool_result pack(std::vector<std::string> args) { return rknnop_test::run_tool(RKNNOP_PACK_EXE, args, dir_); }
  fs::path path_, dir_;
};

TEST_P(ToolkitModel, ReadsSectionsOpNodeParamsAndTensors) {
  const sample& s = *GetParam();
  const std::vector<std::uint8_t> bytes = read_file(path_);
  EXPECT_EQ(bytes.size(), s.file_size);
  const model m = model::parse(bytes, path_.string());
  EXPECT_EQ(m.file.version, 2u);
  EXPECT_TRUE(m.file.export_data.empty());
  EXPECT_EQ(m.file.config.size(), s.config_size);
  EXPECT_EQ(m.file.custom_op_config.size(), 400u);
  EXPECT_EQ(m.file.custom_op_data.size(), 30593u);
  EXPECT_TRUE(m.file.trailing.empty());
  EXPECT_EQ(m.name, "ResizeAreaTest");
  EXPECT_EQ(m.graph_version, s.graph_version);
  EXPECT_EQ(m.notes.size(), s.virtual_tensor_note ? 1u : 0u);

  ASSERT_EQ(m.ops.size(), 1u);
  const model_op& op = m.ops[0];
  EXPECT_EQ(op.name, "ResizeArea");
  EXPECT_EQ(op.kernel_index, 0u);
  EXPECT_EQ(op.to_op_yml().params, (std::vector<op_yml_entry>{{"size", 0x80E}, {"align_corners", 0x010}}));
  ASSERT_EQ(op.blobs.size(), 3u);  // no armhf pair
  EXPECT_EQ(op.blobs[0].kind, model_blob_kind::shader);
  EXPECT_EQ(op.blobs[0].offset, 0u);
  EXPECT_EQ(op.blobs[0].size, 3609u);
  EXPECT_EQ(op.blobs[1].offset, 3609u);
  EXPECT_EQ(op.blobs[1].size, 13768u);
  EXPECT_EQ(op.blobs[2].offset, 17377u);
  EXPECT_EQ(op.blobs[2].size, 13216u);
  const auto shader = m.blob(op, model_blob_kind::shader);
  EXPECT_EQ(std::string(shader.begin(), shader.begin() + 4), "SHDR");
  const elf_info x86 = inspect_elf(m.blob(op, model_blob_kind::lib_x86_64), "x86");
  EXPECT_EQ(x86.machine, elf_machine::x86_64);
  EXPECT_TRUE(x86.exports_kernel_list("ResizeArea"));
  const elf_info a64 = inspect_elf(m.blob(op, model_blob_kind::lib_aarch64), "aarch64");
  EXPECT_EQ(a64.machine, elf_machine::aarch64);
  EXPECT_TRUE(a64.exports_kernel_list("ResizeArea"));

  ASSERT_EQ(m.nodes.size(), 1u);
  const model_node& node = m.nodes[0];
  EXPECT_EQ(node.name, "resize_area_0");
  EXPECT_EQ(node.op, "RESIZEAREA");
  ASSERT_EQ(node.params.size(), 2u);
  EXPECT_EQ(node.params[0].name, "size");
  EXPECT_EQ(node.params[0].json, "[64, 64]");
  EXPECT_EQ(node.params[1].name, "align_corners");
  EXPECT_EQ(node.params[1].json, "0");
  const auto params = decode_node_params(m, node);
  EXPECT_EQ(params[0].value.items, (std::vector<std::int32_t>{64, 64}));
  EXPECT_EQ(params[1].value.to_string(), "false");
  ASSERT_EQ(node.inputs.size(), 1u);
  ASSERT_EQ(node.outputs.size(), 1u);
  EXPECT_EQ(node.inputs[0].tensor->id, 1);
  EXPECT_EQ(node.inputs[0].tensor->dims, (std::vector<std::uint32_t>{3, 32, 32, 1}));
  EXPECT_EQ(node.inputs[0].tensor->shape(), (std::vector<std::size_t>{1, 32, 32, 3}));
  EXPECT_EQ(node.outputs[0].tensor->dims, (std::vector<std::uint32_t>{3, 64, 64}));  // rank 3 (§9)
  EXPECT_EQ(node.outputs[0].tensor->vx_type, "VSI_NN_TYPE_FLOAT16");
  EXPECT_EQ(node.outputs[0].tensor->qnt_type, "VSI_NN_QNT_TYPE_NONE");

  EXPECT_EQ(m.file.serialize(), bytes);  // the writer gives back the same bytes
}

TEST_P(ToolkitModel, DescribeAndCheck) {
  const tool_result d = run({path_.string(), "--describe"});
  ASSERT_EQ(d.status, 0) << d.err;
  EXPECT_NE(d.out.find("param size = [64, 64] (VX_TYPE_ARRAY)"), std::string::npos) << d.out;
  EXPECT_NE(d.out.find("library for this host (x86-64 library): present"), std::string::npos) << d.out;
  const tool_result c = run({path_.string(), "--check"});
  EXPECT_EQ(c.status, 0) << c.out << c.err;
  EXPECT_NE(c.out.find("node 'resize_area_0' (ResizeArea): OK: kernel 'resizearea_cpu'"), std::string::npos) << c.out;
}

// The toolkit's own x86-64 kernel runs the node with the model's params and dims.
TEST_P(ToolkitModel, RunsTheNode) {
  const std::string out = (dir_ / "out.npy").string();
  const tool_result r = run({path_.string(), "--random-inputs", "3", "--output", "output=" + out});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("output 0 'output': shape (64, 64, 3) VX_TYPE_FLOAT16"), std::string::npos) << r.out;
  const npy_array a = read_npy_file(out);
  EXPECT_EQ(a.shape, (std::vector<std::size_t>{64, 64, 3}));
  // An input of another shape is refused before anything runs.
  const std::string in = (dir_ / "in.npy").string();
  write_npy_file(npy_array::from_floats(std::vector<float>(32 * 32 * 3), {32, 32, 3}), in);
  const tool_result bad = run({path_.string(), "--input", "input=" + in});
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.err.find("has NumPy shape (32, 32, 3), the model's tensor is (1, 32, 32, 3)"), std::string::npos)
      << bad.err;
}

// Unpacking the op and packing it back gives the same model, byte for byte.
TEST_P(ToolkitModel, ExtractAndUpdateGiveTheSameBytes) {
  const std::string op = (dir_ / "ResizeArea.rknnop").string(), out = (dir_ / "same.rknn").string();
  ASSERT_EQ(pack({"extract", path_.string(), "-o", op}).status, 0);
  const tool_result r = pack({"update", path_.string(), op, "-o", out});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("identical to the input"), std::string::npos) << r.out;
  EXPECT_EQ(read_file(out), read_file(path_));
}

// The toolkit's newer container of the same op (with an armhf library): every section replaced, the
// armhf pair added, the graph untouched, and the node still passes the check.
TEST_P(ToolkitModel, UpdateFromTheToolkitsContainer) {
  const auto container = find_sample({"resize_area/ResizeArea.rknnop"});
  if (!container) GTEST_SKIP() << "no rknn_custom_op_resize/resize_area/ResizeArea.rknnop under RKNNOP_TOOLKIT_SAMPLES";
  const std::string out = (dir_ / "updated.rknn").string();
  const tool_result r = pack({"update", path_.string(), container->string(), "-o", out});
  ASSERT_EQ(r.status, 0) << r.err;
  const model before = model::read(path_), after = model::read(out);
  EXPECT_EQ(after.file.config, before.file.config);
  const model_op& op = after.ops[0];
  EXPECT_EQ(op.find_blob(model_blob_kind::lib_armhf)->size, 10560u);
  EXPECT_EQ(inspect_elf(after.blob(op, model_blob_kind::lib_armhf), "armhf").machine, elf_machine::arm);
  EXPECT_EQ(op.find_blob(model_blob_kind::lib_x86_64)->size, 13984u);
  EXPECT_EQ(run({out, "--check"}).status, 0);
}

#ifdef RKNNOP_TEST_RESIZEAREA_RKNNOP
// rknnop's own ResizeArea example infers a rank-4 output, the toolkit's model has rank 3 (its Python
// class returns [h, w, c]): one rank rule (a rank-3 [h, w, c] is NHWC with batch 1) in the kernel,
// the check and the update, so the update succeeds, the node passes --check and computes TensorFlow's
// area resize on the model's dims. (Before issue 31 the update refused: "the op's shape inference
// gives dims [3, 64, 64, 1] (rank 4), the model has [3, 64, 64] (rank 3)".)
TEST_P(ToolkitModel, UpdateWithRknnopsResizeArea) {
  const std::string out = (dir_ / "rknnop.rknn").string();
  const tool_result r = pack({"update", path_.string(), RKNNOP_TEST_RESIZEAREA_RKNNOP, "-o", out});
  ASSERT_EQ(r.status, 0) << r.err;
  const tool_result c = run({out, "--check"});
  EXPECT_EQ(c.status, 0) << c.out << c.err;
  EXPECT_NE(c.out.find("node 'resize_area_0' (ResizeArea): OK"), std::string::npos) << c.out;
  EXPECT_NE(c.out.find("outputs [3,64,64] accepted by the op's validator"), std::string::npos) << c.out;
  // 32x32 -> 64x64: each output pixel covers a quarter of one input pixel, so TensorFlow's area resize
  // gives that pixel (tf.image.resize(..., method='area') on an exact 2x upscale).
  std::vector<float> pixels(32 * 32 * 3);
  for (std::size_t i = 0; i < pixels.size(); ++i) pixels[i] = static_cast<float>(i % 97) / 8.0f;
  const std::string in = (dir_ / "in.npy").string(), result = (dir_ / "out.npy").string();
  write_npy_file(npy_array::from_floats(pixels, {1, 32, 32, 3}), in);
  const tool_result n = run({out, "--input", "input=" + in, "--output", "output=" + result});
  ASSERT_EQ(n.status, 0) << n.err;
  const npy_array a = read_npy_file(result);
  ASSERT_EQ(a.shape, (std::vector<std::size_t>{64, 64, 3}));
  const std::vector<float> got = a.to_floats();
  for (std::size_t y = 0; y < 64; ++y)
    for (std::size_t x = 0; x < 64; ++x)
      for (std::size_t ch = 0; ch < 3; ++ch)
        ASSERT_EQ(got[(y * 64 + x) * 3 + ch], pixels[((y / 2) * 32 + x / 2) * 3 + ch]) << y << "," << x << "," << ch;
}
#endif

INSTANTIATE_TEST_SUITE_P(Samples, ToolkitModel, ::testing::Values(&v130, &v132),
                         [](const auto& param_info) { return param_info.param == &v130 ? "v1_3_0" : "v1_3_2"; });

}  // namespace

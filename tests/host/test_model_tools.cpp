// SPDX-License-Identifier: MIT
// rknnop-run MODEL.rknn (--describe, --check, run a node) and rknnop-pack update/extract on models the
// project's own writer makes around the test kernel library (kernels/test_scale_kernel.c):
// output = input * scale + bias[0], negated when negate.
#include <rknnop/host/container.hpp>
#include <rknnop/host/file_io.hpp>
#include <rknnop/host/npy.hpp>
#include <rknnop/host/rknn_model.hpp>

#include "model_writer.hpp"
#include "test_util.hpp"
#include "tool_fixture.hpp"

#include <filesystem>

namespace {

namespace fs = std::filesystem;
using namespace rknnop::host;
using rknnop_test::line_count;
using rknnop_test::tool_result;

std::vector<std::uint8_t> scale_library() { return read_file(RKNNOP_TEST_SCALE_SO); }

using rknnop_test::scale_spec;

class ModelTools : public rknnop_test::tool_fixture {
protected:
  ModelTools() : tool_fixture("model_") {}
  std::string write_model(const rknnop_test::test_model_spec& s, const std::string& name = "model.rknn") {
    write_file_atomically(dir_ / name, rknnop_test::test_model_bytes(s));
    return (dir_ / name).string();
  }
  // A .rknnop around a kernel library with the test op's op.yml and .py.
  std::string write_container(const std::string& library, const std::string& name = "TestScale.rknnop",
                              std::string yml = {}) {
    container c;
    c.lib_x86_64 = read_file(library);
    if (yml.empty()) {
      const auto y = read_file(std::string(RKNNOP_TEST_DATA_DIR) + "/testscale.yml");
      yml.assign(y.begin(), y.end());
    }
    c.op_yml.assign(yml.begin(), yml.end());
    c.op_py = read_file(std::string(RKNNOP_TEST_DATA_DIR) + "/rknn_op_testscale.py");
    write_container_file(c, dir_ / name);
    return (dir_ / name).string();
  }
};

#define EXPECT_CONTAINS(text, fragment) \
  EXPECT_NE((text).find(fragment), std::string::npos) << "missing \"" << (fragment) << "\" in:\n" << (text)

TEST_F(ModelTools, DescribeListsOpsNodesParamsTensorsAndSections) {
  const tool_result r = run({write_model(scale_spec()), "--describe"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_CONTAINS(r.out, ".rknn model format 2, graph 'TestModel' version 1.3.0, 1 node(s), 1 custom op(s)");
  EXPECT_CONTAINS(r.out, "note: virtual_tensor_num is 1 but the virtual_tensor array holds 0");
  EXPECT_CONTAINS(r.out, "custom op 'TestScale': kernel_index 0");
  EXPECT_CONTAINS(r.out, "params:  bias VX_TYPE_ARRAY, scale VX_TYPE_FLOAT32, negate VX_TYPE_BOOL");
  EXPECT_CONTAINS(r.out, "shader           offset       0 size       0  empty");
  EXPECT_CONTAINS(r.out, "ELF64 x86-64 shared object, exports vx_kernel_TestScale_list, needs GLIBC_");
  EXPECT_CONTAINS(r.out, "aarch64 library  absent");
  EXPECT_CONTAINS(r.out, "armhf library    absent (the format has room for it");
  EXPECT_CONTAINS(r.out, "library for this host (x86-64 library): present");
  EXPECT_CONTAINS(r.out, "node 0 'testscale_0' (TESTSCALE, custom op TestScale)");
  EXPECT_CONTAINS(r.out, "param bias = [1] (VX_TYPE_ARRAY)");
  EXPECT_CONTAINS(r.out, "param scale = 2.0 (VX_TYPE_FLOAT32)");
  EXPECT_CONTAINS(r.out,
                  "input 0 'input': norm_tensor 1, dims [3, 2, 1] (NumPy shape (1, 2, 3)), VSI_NN_TYPE_FLOAT16, "
                  "VSI_NN_QNT_TYPE_NONE");
  EXPECT_CONTAINS(r.out, "output 0 'output': norm_tensor 0, dims [3, 2, 1]");
}

TEST_F(ModelTools, CheckPassesForAFittingModel) {
  const tool_result r = run({write_model(scale_spec()), "--check"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_CONTAINS(r.out,
                  "node 'testscale_0' (TestScale): OK: kernel 'testscale_cpu' (index 0, table of 5 matches the "
                  "op description), params bias=1, scale=2, negate=false, inputs [3,2,1] accepted, outputs "
                  "[3,2,1] as the op's shape inference gives");
}

TEST_F(ModelTools, CheckNamesTheOutputWhoseDimsDiffer) {
  auto s = scale_spec();
  s.output_dims = "[3, 2]";  // what a Python class returning a lower rank would make
  const tool_result r = run({write_model(s), "--check"});
  EXPECT_EQ(r.status, 1);
  EXPECT_CONTAINS(r.out, "node 'testscale_0' (TestScale): FAILED:");
  EXPECT_CONTAINS(r.out, "output");
  EXPECT_CONTAINS(r.out, "[3, 2, 1] (rank 3)");
  EXPECT_CONTAINS(r.out, "[3, 2] (rank 2)");
  EXPECT_CONTAINS(r.err, "1 of 1 custom-op node(s) failed the check");
}

TEST_F(ModelTools, CheckNamesTheParamWhoseTypeDiffers) {
  auto s = scale_spec();
  s.params_desc =
      R"({"bias": {"type": "VX_TYPE_INT32"}, "scale": {"type": "VX_TYPE_FLOAT32"}, "negate": {"type": "VX_TYPE_BOOL"}})";
  s.node_params = R"({"bias": 1, "scale": 2.0, "negate": 0})";
  const tool_result r = run({write_model(s), "--check"});
  EXPECT_EQ(r.status, 1);
  EXPECT_CONTAINS(r.out, "FAILED:");
  EXPECT_CONTAINS(r.out, "param 'bias' (VX_TYPE_INT32) needs {VX_INPUT, VX_TYPE_SCALAR}");

  auto p = scale_spec();
  p.node_params = R"({"bias": [1], "scale": 2.0, "negate": 3})";
  const tool_result q = run({write_model(p, "p.rknn"), "--check"});
  EXPECT_EQ(q.status, 1);
  EXPECT_CONTAINS(q.out, "param 'negate' expected VX_TYPE_BOOL (true/false or 0/1), found an integer '3'");
}

TEST_F(ModelTools, CheckRefusesHugeTensorsBeforeAllocating) {
  auto s = scale_spec();
  s.input_dims = "[4294967295, 4294967295, 4294967295]";
  const tool_result r = run({write_model(s), "--check"});
  EXPECT_EQ(r.status, 1);
  EXPECT_CONTAINS(r.out,
                  "input 0 ('input') has dims [4294967295, 4294967295, 4294967295]: more than the 268435456 "
                  "elements rknnop runs on the PC");
  expect_one_line_failure(run({(dir_ / "model.rknn").string(), "--random-inputs", "1"}), "rknnop-run",
                          "more than the 268435456 elements");
}

TEST_F(ModelTools, DescribeAndCheckATensorBetweenNodes) {
  write_file_atomically(dir_ / "chain.rknn", rknnop_test::two_op_model_file().serialize());
  const std::string chain = (dir_ / "chain.rknn").string();
  const tool_result d = run({chain, "--describe"});
  ASSERT_EQ(d.status, 0) << d.err;
  EXPECT_CONTAINS(d.out, "node 1 'opb_0' (OPB, custom op OpB)");
  EXPECT_CONTAINS(d.out, "input 0 'in': virtual tensor from node 0 'opa_0' output 0 (dims not stored in the model)");
  const tool_result c = run({chain, "--check"});
  EXPECT_EQ(c.status, 1);
  EXPECT_CONTAINS(c.out,
                  "node 'opb_0' (OpB): FAILED: node 'opb_0': input 0 ('in') comes from node 0's output 0 (a "
                  "virtual tensor): the model does not store its dims");
  EXPECT_CONTAINS(c.err, "2 of 2 custom-op node(s) failed the check");
  expect_one_line_failure(run({chain, "--random-inputs", "1"}), "rknnop-run",
                          "2 custom-op nodes ('opa_0', 'opb_0'); choose one with --node NAME");
}

TEST_F(ModelTools, CheckFailsWithoutALibraryForThisHost) {
  auto s = scale_spec();
  s.blobs = {{model_blob_kind::lib_aarch64, {0x7f, 'E', 'L', 'F'}}};
  const tool_result r = run({write_model(s), "--check"});
  EXPECT_EQ(r.status, 1);
  EXPECT_CONTAINS(r.out, "FAILED: op 'TestScale': the model has no x86-64 library for this host");
}

TEST_F(ModelTools, RunsTheNodeWithTheModelsParamsAndDims) {
  const std::string in = (dir_ / "in.npy").string(), out = (dir_ / "out.npy").string();
  write_npy_file(npy_array::from_floats(std::vector<float>{1, 2, 3, 4, 5, 6}, {1, 2, 3}), in);
  const tool_result r = run({write_model(scale_spec()), "--input", "input=" + in, "--output", "output=" + out});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_CONTAINS(r.out, "node 'testscale_0' (op TestScale, kernel 'testscale_cpu', kernel_index 0)");
  EXPECT_CONTAINS(r.out, "output 0 'output': shape (1, 2, 3) VX_TYPE_FLOAT16");
  EXPECT_EQ(read_npy_file(out).to_floats(), (std::vector<float>{3, 5, 7, 9, 11, 13}));  // x * 2 + 1
  // Ports by number too.
  const tool_result n = run({(dir_ / "model.rknn").string(), "-i", "0=" + in, "-o", "0=" + out});
  EXPECT_EQ(n.status, 0) << n.err;
}

TEST_F(ModelTools, RandomInputsAreReproducible) {
  const std::string model_path = write_model(scale_spec());
  const std::string a = (dir_ / "a.npy").string(), b = (dir_ / "b.npy").string(), c = (dir_ / "c.npy").string();
  ASSERT_EQ(run({model_path, "--random-inputs", "7", "--output", "output=" + a}).status, 0);
  ASSERT_EQ(run({model_path, "--random-inputs", "7", "--output", "output=" + b}).status, 0);
  ASSERT_EQ(run({model_path, "--random-inputs", "8", "--output", "output=" + c}).status, 0);
  EXPECT_EQ(read_npy_file(a).to_floats(), read_npy_file(b).to_floats());
  EXPECT_NE(read_npy_file(a).to_floats(), read_npy_file(c).to_floats());
  EXPECT_EQ(read_npy_file(a).shape, (std::vector<std::size_t>{1, 2, 3}));
}

TEST_F(ModelTools, RunFailuresAreOneLine) {
  const std::string model_path = write_model(scale_spec());
  const std::string in = (dir_ / "in.npy").string();
  write_npy_file(npy_array::from_floats(std::vector<float>{1, 2, 3, 4}, {1, 2, 2}), in);
  expect_one_line_failure(run({model_path, "--input", "input=" + in}), "rknnop-run",
                          "node 'testscale_0': input 0 ('input'): " + in +
                              " has NumPy shape (1, 2, 2), the model's tensor is (1, 2, 3) (dims [3, 2, 1])");
  expect_one_line_failure(
      run({model_path}), "rknnop-run",
      "input 0 ('input') needs --input input=FILE.npy (NumPy shape (1, 2, 3)) or --random-inputs SEED");
  expect_one_line_failure(run({model_path, "--node", "nope", "--random-inputs", "1"}), "rknnop-run",
                          "--node 'nope': no custom-op node of that name (custom-op nodes: 'testscale_0')");
  expect_one_line_failure(run({model_path, "--input", "in9=" + in}), "rknnop-run",
                          "--input 'in9': op 'TestScale' has no such port (ports: input (0))");
  auto bad = rknnop_test::test_model_bytes(scale_spec());
  bad.resize(bad.size() - 1);
  write_file_atomically(dir_ / "cut.rknn", bad);
  expect_one_line_failure(run({(dir_ / "cut.rknn").string(), "--describe"}), "rknnop-run",
                          "the custom_op_data (op blobs) section at offset");
  write_file_atomically(dir_ / "enc.rknn", rknnop_test::bytes_of("CYPTRKNN\x02\0\0\0\0\0\0\0"));
  expect_one_line_failure(run({(dir_ / "enc.rknn").string(), "--check"}), "rknnop-run", "an encrypted model");
  write_file_atomically(dir_ / "empty.rknn", std::vector<std::uint8_t>{});
  expect_one_line_failure(run({(dir_ / "empty.rknn").string(), "--describe"}), "rknnop-run",
                          "empty.rknn: not an .rknn model: 0 bytes");
  expect_one_line_failure(run({(dir_ / "missing.rknn").string(), "--check"}), "rknnop-run", "cannot open");
}

TEST_F(ModelTools, UpdateWithTheSameLibraryGivesTheSameBytes) {
  const std::string model_path = write_model(scale_spec());
  const tool_result r =
      pack({"update", model_path, write_container(RKNNOP_TEST_SCALE_SO), "-o", (dir_ / "new.rknn").string()});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_CONTAINS(r.out, "op 'TestScale' updated from");
  EXPECT_CONTAINS(r.out, "(1 node(s) checked against its library)");
  EXPECT_CONTAINS(r.out, "identical to the input");
  EXPECT_EQ(read_file(dir_ / "new.rknn"), read_file(model_path));
}

TEST_F(ModelTools, ExtractThenUpdateGivesTheSameBytes) {
  auto s = scale_spec();
  s.blobs = {{model_blob_kind::shader, {'S', 'H', 'D', 'R'}}, {model_blob_kind::lib_x86_64, scale_library()}};
  const std::string model_path = write_model(s);
  const std::string op = (dir_ / "extracted.rknnop").string();
  ASSERT_EQ(pack({"extract", model_path, "-o", op}).status, 0);
  const container c = read_container_file(op);
  EXPECT_EQ(c.lib_x86_64, scale_library());
  EXPECT_EQ(c.shader, (std::vector<std::uint8_t>{'S', 'H', 'D', 'R'}));
  const tool_result r = pack({"update", model_path, op, "-o", (dir_ / "new.rknn").string()});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(read_file(dir_ / "new.rknn"), read_file(model_path));
}

TEST_F(ModelTools, UpdateReplacesTheLibraryAndKeepsEveryOtherByte) {
  auto s = scale_spec();
  s.blobs = {{model_blob_kind::lib_x86_64, std::vector<std::uint8_t>(64, 0)}};  // a stand-in the update replaces
  const std::string model_path = write_model(s);
  // The stand-in cannot load: the check fails, while the update with the real library passes it.
  EXPECT_EQ(run({model_path, "--check"}).status, 1);
  const std::string out = (dir_ / "new.rknn").string();
  const tool_result r = pack({"update", model_path, write_container(RKNNOP_TEST_SCALE_SO), "-o", out});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(run({out, "--check"}).status, 0);
  const model before = model::read(model_path), after = model::read(out);
  EXPECT_EQ(after.file.config, before.file.config);
  EXPECT_EQ(after.file.export_data, before.file.export_data);
  const auto lib = after.blob(after.ops[0], model_blob_kind::lib_x86_64);
  EXPECT_EQ(std::vector<std::uint8_t>(lib.begin(), lib.end()), scale_library());
}

TEST_F(ModelTools, UpdateRefusesALibraryThatDoesNotFit) {
  const std::string model_path = write_model(scale_spec());
  const std::string out = (dir_ / "new.rknn").string();
  // numParams 4 instead of 5.
  expect_one_line_failure(pack({"update", model_path, write_container(RKNNOP_TEST_SCALE_BADNUM_SO), "-o", out}),
                          "rknnop-pack", "refusing to update op 'TestScale'");
  EXPECT_FALSE(fs::exists(out));
  // An op.yml whose params differ from the model's description.
  std::string yml =
      "name: TestScale\ninputs:\n  input: {type: VX_TYPE_TENSOR}\noutputs:\n  output: {type: "
      "VX_TYPE_TENSOR}\nparams:\n  bias: {type: VX_TYPE_ARRAY}\n  scale: {type: VX_TYPE_FLOAT64}\n  "
      "negate: {type: VX_TYPE_BOOL}\n";
  expect_one_line_failure(
      pack({"update", model_path, write_container(RKNNOP_TEST_SCALE_SO, "f64.rknnop", yml), "-o", out}), "rknnop-pack",
      "params differ: the model's op description has bias VX_TYPE_ARRAY, scale VX_TYPE_FLOAT32, negate VX_TYPE_BOOL, "
      "the container's op.yml bias VX_TYPE_ARRAY, scale VX_TYPE_FLOAT64, negate VX_TYPE_BOOL");
  // A model whose node does not fit the (unchanged) library: the update names the node's problem.
  auto s = scale_spec();
  s.output_dims = "[6]";
  expect_one_line_failure(
      pack({"update", write_model(s, "rank1.rknn"), write_container(RKNNOP_TEST_SCALE_SO), "-o", out}), "rknnop-pack",
      "node 'testscale_0' (TestScale): FAILED: output 0 ('output')");
  // A container whose aarch64 section holds the x86-64 library.
  container wrong = read_container_file(write_container(RKNNOP_TEST_SCALE_SO));
  wrong.lib_aarch64 = wrong.lib_x86_64;
  write_container_file(wrong, dir_ / "wrong.rknnop");
  expect_one_line_failure(pack({"update", model_path, (dir_ / "wrong.rknnop").string(), "-o", out}), "rknnop-pack",
                          "aarch64 library section holds an ELF64 x86-64 shared object, expected ELF64 aarch64");
  // A container without the aarch64 library the model has.
  auto a = scale_spec();
  a.blobs.emplace_back(model_blob_kind::lib_aarch64, std::vector<std::uint8_t>{0x7f, 'E', 'L', 'F'});
  expect_one_line_failure(
      pack({"update", write_model(a, "a64.rknn"), write_container(RKNNOP_TEST_SCALE_SO), "-o", out}), "rknnop-pack",
      "has no aarch64 library but the model's op has one (4 bytes)");
  EXPECT_FALSE(fs::exists(out));
}

TEST_F(ModelTools, WrapMakesAOneNodeModelThatPassesTheCheck) {
  const std::string op = write_container(RKNNOP_TEST_SCALE_SO), out = (dir_ / "wrapped.rknn").string();
  const tool_result w = pack({"wrap", op, "--input-shape", "input=1,4,3", "--param", "bias=5", "--param", "scale=2",
                              "--param", "negate=true", "-o", out});
  ASSERT_EQ(w.status, 0) << w.err;
  const model m = model::read(out);
  ASSERT_EQ(m.nodes.size(), 1u);
  EXPECT_EQ(m.nodes[0].params[0].json, "[5]");
  EXPECT_EQ(m.nodes[0].params[1].json, "2.0");  // a float, as Python writes it
  EXPECT_EQ(m.nodes[0].params[2].json, "1");    // bools as the toolkit writes them
  EXPECT_EQ(m.nodes[0].outputs[0].tensor->dims, (std::vector<std::uint32_t>{3, 4, 1}));  // the op's inference
  EXPECT_EQ(m.blob(m.ops[0], model_blob_kind::lib_x86_64).size(), scale_library().size());
  const tool_result c = run({out, "--check"});
  EXPECT_EQ(c.status, 0) << c.out << c.err;
  // Given output dims that the op does not infer: the check names both.
  const tool_result bad = pack({"wrap", op, "--input-shape", "input=1,4,3", "--output-shape", "output=4,3", "--param",
                                "bias=5", "--param", "scale=0.5", "--param", "negate=true", "-o", out});
  ASSERT_EQ(bad.status, 0) << bad.err;
  const tool_result f = run({out, "--check"});
  EXPECT_EQ(f.status, 1);
  EXPECT_CONTAINS(f.out, "the op's shape inference gives dims [3, 4, 1] (rank 3), the model has [3, 4] (rank 2)");
  expect_one_line_failure(pack({"wrap", op, "--input-shape", "input=1,4,3", "-o", out}), "rknnop-pack",
                          "--param bias=VALUE is needed (VX_TYPE_ARRAY, the op gives no default)");
}

}  // namespace

namespace {

// A model whose custom-op description is gone (custom_op_config emptied) or whose node names an op it
// carries no library for is a failed --check, not "nothing to check" (before, both exited 0); a model of
// built-in nodes only has nothing to check.
TEST_F(ModelTools, CheckFailsOnANodeOfAnOpTheModelDoesNotDescribe) {
  const auto write_file = [&](const model_file& f, const std::string& name) {
    write_file_atomically(dir_ / name, f.serialize());
    return (dir_ / name).string();
  };
  const auto with_node_op = [](model_file f, const std::string& op) {
    const auto at = f.config.find(R"("op": "TESTSCALE")");
    EXPECT_NE(at, std::string::npos);
    if (at != std::string::npos) f.config.replace(at, 17, R"("op": ")" + op + "\"");
    return f;
  };
  model_file gone = rknnop_test::test_model_file(scale_spec());
  gone.custom_op_config = "[]";
  gone.custom_op_data.clear();
  const std::string gone_path = write_file(gone, "gone.rknn");
  tool_result r = run({gone_path, "--check"});
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_EQ(line_count(r.err), 1u) << r.err;
  EXPECT_CONTAINS(r.err, "rknnop-run: " + gone_path + ": --check failed: node 0 'testscale_0' runs op 'TESTSCALE'");
  EXPECT_CONTAINS(r.err, "custom_op_config describes no op (the custom-op description is gone)");
  EXPECT_EQ(r.out.find("nothing to check"), std::string::npos) << r.out;

  const std::string other_path =
      write_file(with_node_op(rknnop_test::test_model_file(scale_spec()), "OTHERSCALE"), "other.rknn");
  r = run({other_path, "--check"});
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_EQ(line_count(r.err), 1u) << r.err;
  EXPECT_CONTAINS(r.err,
                  "runs op 'OTHERSCALE', neither a built-in op (VSI_NN_OP_*) nor a custom op the model "
                  "describes: custom_op_config describes only 'TestScale'");

  const std::string builtin_path = write_file(with_node_op(gone, "VSI_NN_OP_ADD"), "builtin.rknn");
  r = run({builtin_path, "--check"});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_CONTAINS(r.out, "no custom-op nodes (every node's op is a built-in VSI_NN_OP_*), nothing to check");
}

}  // namespace

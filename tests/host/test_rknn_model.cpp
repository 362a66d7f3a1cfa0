// SPDX-License-Identifier: MIT
// The .rknn model reader and writer: models written by the project's own writer (model_writer.hpp),
// read back field by field, rewritten byte for byte, and broken in every way the issue lists.
#include <rknnop/host/rknn_model.hpp>
#include <rknnop/vx_type.hpp>

#include <fmt/format.h>

#include "model_writer.hpp"
#include "test_util.hpp"

#include <algorithm>
#include <span>
#include <cstring>
#include <fstream>

namespace {

using namespace rknnop::host;
using rknnop::vx_type;
using rknnop_test::inert_spec;
using rknnop_test::test_model_bytes;
using rknnop_test::test_model_spec;

// A model whose graph JSON is `graph` (the writer sets every length).
std::vector<std::uint8_t> with_graph(const test_model_spec& s, std::string graph) {
  return build_model_file(std::move(graph), rknnop_test::test_ops_json(s), {{s.blobs}}).serialize();
}
std::vector<std::uint8_t> with_ops(const test_model_spec& s, std::string ops) {
  model_file f = rknnop_test::test_model_file(s);
  f.custom_op_config = std::move(ops);
  return f.serialize();
}
std::string replace_text(std::string text, std::string_view from, std::string_view to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

void put_u64(std::vector<std::uint8_t>& bytes, std::size_t at, std::uint64_t value) {
  for (std::size_t i = 0; i < 8; ++i) bytes[at + i] = static_cast<std::uint8_t>(value >> (8 * i));
}

#define EXPECT_MODEL_ERROR(bytes, ...)                                                                              \
  do {                                                                                                              \
    const auto model_bytes_ = (bytes);                                                                              \
    const std::string message_ = rknnop_test::error_of([&] { (void)model::parse(model_bytes_, "m.rknn"); });        \
    EXPECT_TRUE(message_.starts_with("rknnop: m.rknn: ")) << message_;                                              \
    EXPECT_EQ(message_.find('\n'), std::string::npos) << message_;                                                  \
    for (const std::string_view fragment_ : std::initializer_list<std::string_view>{__VA_ARGS__})                   \
      EXPECT_NE(message_.find(fragment_), std::string::npos) << "missing \"" << fragment_ << "\" in: " << message_; \
  } while (false)

TEST(RknnModel, ReadsWhatTheWriterWrote) {
  const test_model_spec s = inert_spec();
  const auto bytes = test_model_bytes(s);
  const model m = model::parse(bytes, "m.rknn");
  EXPECT_EQ(m.file.version, 2u);
  EXPECT_TRUE(m.file.export_data.empty());
  EXPECT_EQ(m.name, "TestModel");
  EXPECT_EQ(m.graph_version, "1.3.0");
  ASSERT_EQ(m.ops.size(), 1u);
  const model_op& op = m.ops[0];
  EXPECT_EQ(op.name, "TestScale");
  EXPECT_EQ(op.kernel_index, 0u);
  ASSERT_EQ(op.params.size(), 3u);
  EXPECT_EQ(op.params[0], (op_yml_entry{"bias", vx_type::array}));
  EXPECT_EQ(op.params[1], (op_yml_entry{"scale", vx_type::float32}));
  EXPECT_EQ(op.params[2], (op_yml_entry{"negate", vx_type::bool_}));
  ASSERT_EQ(op.blobs.size(), 3u);
  EXPECT_EQ(op.blobs[0].offset, 0u);
  EXPECT_EQ(op.blobs[0].size, 7u);
  EXPECT_EQ(op.blobs[1].offset, 7u);
  EXPECT_EQ(op.blobs[2].offset, 14u);
  EXPECT_EQ(op.blobs[2].size, 8u);
  const auto aarch64 = m.blob(op, model_blob_kind::lib_aarch64);
  EXPECT_EQ(std::string(aarch64.begin(), aarch64.end()),
            "\x7f"
            "ELFa64!");
  EXPECT_TRUE(m.blob(op, model_blob_kind::lib_armhf).empty());

  ASSERT_EQ(m.nodes.size(), 1u);
  const model_node& node = m.nodes[0];
  EXPECT_EQ(node.name, "testscale_0");
  EXPECT_EQ(node.op, "TESTSCALE");
  ASSERT_TRUE(node.custom_op);
  ASSERT_EQ(node.params.size(), 3u);
  EXPECT_EQ(node.params[0].name, "bias");
  EXPECT_EQ(node.params[0].json, "[1]");
  EXPECT_EQ(node.params[1].json, "2.0");
  EXPECT_EQ(node.params[2].json, "0");
  ASSERT_EQ(node.inputs.size(), 1u);
  ASSERT_TRUE(node.inputs[0].tensor);
  EXPECT_EQ(node.inputs[0].tensor->id, 1);
  EXPECT_EQ(node.inputs[0].tensor->dims, (std::vector<std::uint32_t>{3, 2, 1}));
  EXPECT_EQ(node.inputs[0].tensor->shape(), (std::vector<std::size_t>{1, 2, 3}));
  EXPECT_EQ(node.inputs[0].tensor->vx_type, "VSI_NN_TYPE_FLOAT16");
  EXPECT_EQ(node.inputs[0].tensor->vx_tensor_type(), vx_type::float16);
  EXPECT_FALSE(node.inputs[0].tensor->quantized());
  ASSERT_EQ(node.outputs.size(), 1u);
  EXPECT_EQ(node.outputs[0].tensor->id, 0);
  // The toolkit's count says 1 virtual tensor, the array holds none: the array wins, noted.
  ASSERT_EQ(m.notes.size(), 1u);
  EXPECT_NE(m.notes[0].find("virtual_tensor_num is 1 but the virtual_tensor array holds 0"), std::string::npos);
}

TEST(RknnModel, ParamsKeepTheirMemberOrderAndDecode) {
  test_model_spec s = inert_spec();
  s.node_params = R"({"negate": true, "scale": 0.5, "bias": [64, -64]})";
  const model m = model::parse(test_model_bytes(s), "m.rknn");
  const model_node& node = m.nodes[0];
  EXPECT_EQ(node.params[0].name, "negate");
  EXPECT_EQ(node.params[2].json, "[64, -64]");
  const auto decoded = decode_node_params(m, node);  // in the op description's order
  ASSERT_EQ(decoded.size(), 3u);
  EXPECT_EQ(decoded[0].name, "bias");
  EXPECT_EQ(decoded[0].value.items, (std::vector<std::int32_t>{64, -64}));
  EXPECT_EQ(decoded[1].value.to_string(), "0.5");
  EXPECT_EQ(decoded[2].value.to_string(), "true");
}

TEST(RknnModel, ParamsThatDoNotDecodeNameNodeParamExpectedAndFound) {
  const auto decode_error = [](std::string params) {
    test_model_spec s = inert_spec();
    s.node_params = std::move(params);
    const model m = model::parse(test_model_bytes(s), "m.rknn");
    return rknnop_test::error_of([&] { (void)decode_node_params(m, m.nodes[0]); });
  };
  std::string e = decode_error(R"({"bias": 1, "scale": 2.0, "negate": 0})");
  EXPECT_NE(e.find("node 'testscale_0' (op TestScale): param 'bias' expected VX_TYPE_ARRAY"), std::string::npos) << e;
  EXPECT_NE(e.find("found an integer '1'"), std::string::npos) << e;
  e = decode_error(R"({"bias": [1], "scale": 2.0})");
  EXPECT_NE(e.find("param 'negate' (VX_TYPE_BOOL) is missing from nn.testscale"), std::string::npos) << e;
  e = decode_error(R"({"bias": [1], "scale": 2.0, "negate": 2})");
  EXPECT_NE(e.find("param 'negate' expected VX_TYPE_BOOL (true/false or 0/1), found an integer '2'"), std::string::npos)
      << e;
  e = decode_error(R"({"bias": [4294967296], "scale": 2.0, "negate": 0})");
  EXPECT_NE(e.find("param 'bias' item 0 expected an int32, found an integer '4294967296'"), std::string::npos) << e;
  e = decode_error(R"({"bias": [1], "scale": "x", "negate": 0, "extra": 1})");
  EXPECT_NE(e.find("param 'extra' is not a param of op 'TestScale' (bias, scale, negate)"), std::string::npos) << e;
  e = decode_error(R"({"bias": [1], "scale": 1e300, "negate": 0})");
  EXPECT_NE(e.find("scale"), std::string::npos) << e;
  EXPECT_NE(e.find("VX_TYPE_FLOAT32"), std::string::npos) << e;
}

TEST(RknnModel, SerializesByteForByte) {
  const auto bytes = test_model_bytes(inert_spec());
  EXPECT_EQ(model::parse(bytes, "m.rknn").file.serialize(), bytes);
  // Trailing bytes (ignored by the toolkit's reader) are kept too.
  auto longer = bytes;
  longer.push_back(0xAB);
  const model m = model::parse(longer, "m.rknn");
  EXPECT_EQ(m.file.trailing, (std::vector<std::uint8_t>{0xAB}));
  EXPECT_EQ(m.file.serialize(), longer);
}

TEST(RknnModel, WritesJsonAsPythonsJsonDumps) {
  // What python3 -c 'import json; print(json.dumps(json.loads(TEXT)))' prints for each.
  EXPECT_EQ(to_python_json(R"({"a":1,"b":[1.0,0.5,1e-05,1e16,123456789.0,-0.0001,2.5e-07]})", "t"),
            R"({"a": 1, "b": [1.0, 0.5, 1e-05, 1e+16, 123456789.0, -0.0001, 2.5e-07]})");
  EXPECT_EQ(
      to_python_json(R"({"z":{},"y":[],"x":null,"w":true,"v":"\u00e9\n\"","u":-3,"t":18446744073709551615})", "t"),
      R"({"z": {}, "y": [], "x": null, "w": true, "v": "\u00e9\n\"", "u": -3, "t": 18446744073709551615})");
  EXPECT_EQ(to_python_json(R"(["😀", 1234567890123456789012.0, 0.1])", "t"),
            R"(["\ud83d\ude00", 1.2345678901234568e+21, 0.1])");
}

TEST(RknnModel, VersionOneHasNoCustomOpSections) {
  test_model_spec s = inert_spec();
  std::string graph = rknnop_test::test_graph_json(s);
  const model_file f = build_model_file(graph, "", {}, 1);
  const auto bytes = f.serialize();
  EXPECT_EQ(bytes.size(), 16 + 8 + 8 + graph.size());
  const model m = model::parse(bytes, "m.rknn");
  EXPECT_EQ(m.file.version, 1u);
  EXPECT_TRUE(m.ops.empty());
  ASSERT_EQ(m.nodes.size(), 1u);
  EXPECT_FALSE(m.nodes[0].custom_op);  // TESTSCALE is no custom op without a description
  EXPECT_TRUE(m.custom_nodes().empty());
}

TEST(RknnModel, ReplacingBlobsKeepsEveryOtherByte) {
  const test_model_spec s = inert_spec();
  const auto bytes = test_model_bytes(s);
  const model m = model::parse(bytes, "m.rknn");
  // Same blobs: the same bytes.
  EXPECT_EQ(replace_op_blobs(m, "TestScale", s.blobs).serialize(), bytes);

  // A longer x86-64 library: the aarch64 one moves, nothing else changes.
  const std::vector<std::uint8_t> x86(100, 0x5A);
  const model_file f = replace_op_blobs(m, "TestScale", {{model_blob_kind::lib_x86_64, x86}});
  EXPECT_EQ(f.config, m.file.config);
  EXPECT_EQ(f.export_data, m.file.export_data);
  const model again = model::parse(f.serialize(), "new.rknn");
  const model_op& op = again.ops[0];
  const auto blob = again.blob(op, model_blob_kind::lib_x86_64);
  EXPECT_EQ(std::vector<std::uint8_t>(blob.begin(), blob.end()), x86);
  EXPECT_EQ(op.find_blob(model_blob_kind::lib_aarch64)->offset, 107u);
  const auto a64 = again.blob(op, model_blob_kind::lib_aarch64);
  EXPECT_EQ(std::vector<std::uint8_t>(a64.begin(), a64.end()), s.blobs[2].second);
  // The description keeps its member order; only the numbers change.
  EXPECT_EQ(f.custom_op_config,
            replace_text(replace_text(m.file.custom_op_config, "\"op_lib_x86_len\": 7", "\"op_lib_x86_len\": 100"),
                         "\"op_lib_aarch64_offset\": 14", "\"op_lib_aarch64_offset\": 107"));

  // An armhf library the model did not have: appended, with its pair at the end of the description,
  // and "op_version": 2, without which librknn_runtime never reads it (docs/board-emulation.md §8).
  const model_file with_armhf = replace_op_blobs(m, "TestScale", {{model_blob_kind::lib_armhf, {1, 2, 3}}});
  EXPECT_TRUE(
      with_armhf.custom_op_config.ends_with(R"("op_lib_armhf_offset": 22, "op_lib_armhf_len": 3, "op_version": 2}])"))
      << with_armhf.custom_op_config;
  EXPECT_EQ(m.file.custom_op_config.find("op_version"), std::string::npos);  // none without an armhf library
  const model armhf = model::parse(with_armhf.serialize(), "armhf.rknn");
  EXPECT_EQ(armhf.blob(armhf.ops[0], model_blob_kind::lib_armhf).size(), 3u);

  RKNNOP_EXPECT_ERROR(replace_op_blobs(m, "Other", {}), "m.rknn: the model has no custom op 'Other'");
}

TEST(RknnModel, TwoOpsAndATensorBetweenNodes) {
  const auto bytes = rknnop_test::two_op_model_file().serialize();
  const model m = model::parse(bytes, "chain.rknn");
  ASSERT_EQ(m.ops.size(), 2u);
  EXPECT_EQ(m.custom_nodes(), (std::vector<std::size_t>{0, 1}));
  const model_node& b = m.nodes[1];
  EXPECT_EQ(b.custom_op, 1u);
  ASSERT_EQ(b.inputs.size(), 1u);
  EXPECT_FALSE(b.inputs[0].tensor);  // right_node: no dims in the model
  EXPECT_EQ(b.inputs[0].from_node, 0);
  EXPECT_EQ(b.inputs[0].from_port, 0);
  EXPECT_EQ(b.outputs[0].tensor->id, 1);
  EXPECT_TRUE(m.nodes[0].outputs.empty());
  const auto params = decode_node_params(m, b);
  ASSERT_EQ(params.size(), 1u);
  EXPECT_EQ(params[0].value.to_string(), "3");

  // OpA's library grows: OpB's blobs move, unchanged, and so does nothing else.
  const std::vector<std::uint8_t> longer(40, 0x11);
  const model_file f = replace_op_blobs(m, "OpA", {{model_blob_kind::lib_x86_64, longer}});
  EXPECT_EQ(f.config, m.file.config);
  const model again = model::parse(f.serialize(), "again.rknn");
  for (const model_blob_kind kind : {model_blob_kind::shader, model_blob_kind::lib_x86_64}) {
    const auto before = m.blob(m.ops[1], kind), after = again.blob(again.ops[1], kind);
    EXPECT_TRUE(std::ranges::equal(before, after));
    EXPECT_EQ(again.ops[1].find_blob(kind)->offset, m.ops[1].find_blob(kind)->offset + 35);
  }
  EXPECT_EQ(again.blob(again.ops[0], model_blob_kind::lib_x86_64).size(), 40u);
  // Back to the old library: the same bytes.
  const auto old = m.blob(m.ops[0], model_blob_kind::lib_x86_64);
  EXPECT_EQ(replace_op_blobs(again, "OpA", {{model_blob_kind::lib_x86_64, {old.begin(), old.end()}}}).serialize(),
            bytes);
}

TEST(RknnModel, DetectsModelsByContentNotName) {
  const auto dir = rknnop_test::work_dir("rknn_model_detect");
  const auto write = [&](const std::string& name, const std::vector<std::uint8_t>& bytes) {
    std::ofstream(dir / name, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    return dir / name;
  };
  EXPECT_TRUE(is_rknn_model_file(write("model.bin", test_model_bytes(inert_spec()))));
  EXPECT_TRUE(is_rknn_model_file(write("enc.rknn", rknnop_test::bytes_of("CYPTRKNNxxxxxxxx"))));
  // A .rknnop has the same 16-byte header; its second section is an ELF library.
  std::vector<std::uint8_t> rknnop(rknn_model_magic.begin(), rknn_model_magic.end());
  // (push_back, not insert of a list: GCC 12 at -O3 misreads the insert, -Wstringop-overflow)
  const auto append_u64 = [](std::vector<std::uint8_t>& to, std::uint64_t v) {
    for (int i = 0; i < 8; ++i) to.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  };
  for (const std::uint64_t v : {2, 0, 4}) append_u64(rknnop, v);
  for (const char c : {'\x7f', 'E', 'L', 'F'}) rknnop.push_back(static_cast<std::uint8_t>(c));
  EXPECT_FALSE(is_rknn_model_file(write("op.rknn", rknnop)));
  // Empty shader and x86-64 sections, then an aarch64 length whose first byte is '{' (123 bytes).
  std::vector<std::uint8_t> empty_x86(rknn_model_magic.begin(), rknn_model_magic.end());
  for (const std::uint64_t v : {2, 0, 0, 123}) append_u64(empty_x86, v);
  EXPECT_FALSE(is_rknn_model_file(write("empty_x86.rknnop", empty_x86)));
  // The magic, a version and two empty sections: a damaged model where it is named one (its config
  // section is empty), a container where it is named one.
  std::vector<std::uint8_t> two_empty(rknn_model_magic.begin(), rknn_model_magic.end());
  for (const std::uint64_t v : {1, 0, 0}) append_u64(two_empty, v);
  EXPECT_TRUE(is_rknn_model_file(write("two_empty.rknn", two_empty)));
  EXPECT_FALSE(is_rknn_model_file(write("two_empty.rknnop", two_empty)));
  EXPECT_FALSE(is_rknn_model_file(dir / "missing.rknn"));
  EXPECT_FALSE(is_rknn_model_file(dir));
}

// --- bad files: one line naming the file and what is wrong, never a crash -------------------------

TEST(RknnModelBad, WrongMagic) {
  EXPECT_MODEL_ERROR(rknnop_test::bytes_of("NOTAMODELATALL!!"), "not an .rknn model", "4e 4f 54 41");
}
TEST(RknnModelBad, Encrypted) {
  EXPECT_MODEL_ERROR(rknnop_test::bytes_of("CYPTRKNN\x02\0\0\0\0\0\0\0"), "an encrypted model", "CYPTRKNN");
}
TEST(RknnModelBad, TooShortForTheMagic) { EXPECT_MODEL_ERROR(rknnop_test::bytes_of("RKNN"), "4 bytes"); }
TEST(RknnModelBad, TruncatedVersion) {
  auto b = test_model_bytes(inert_spec());
  b.resize(12);
  EXPECT_MODEL_ERROR(b, "truncated: the format version needs 8 bytes at offset 8, 4 remain");
}
TEST(RknnModelBad, UnknownVersion) {
  auto b = test_model_bytes(inert_spec());
  put_u64(b, 8, 3);
  EXPECT_MODEL_ERROR(b, "format version 3, rknnop reads versions 1 and 2");
}
TEST(RknnModelBad, TruncatedLengthField) {
  auto b = test_model_bytes(inert_spec());
  b.resize(16 + 8 + 3);
  EXPECT_MODEL_ERROR(b,
                     "truncated: the config (graph JSON) section's length field needs 8 bytes at offset 24, 3 remain");
}
TEST(RknnModelBad, TruncatedSection) {
  auto b = test_model_bytes(inert_spec());
  b.resize(b.size() - 1);  // the blobs section is the last one
  EXPECT_MODEL_ERROR(b, "the custom_op_data (op blobs) section", "says 22 bytes but only 21 remain");
}
TEST(RknnModelBad, LengthNearTwoToTheSixtyFour) {
  for (const std::uint64_t huge : {~std::uint64_t{0}, ~std::uint64_t{0} - 7, std::uint64_t{1} << 63}) {
    auto b = test_model_bytes(inert_spec());
    put_u64(b, 16, huge);  // export_data length
    const std::string says = "says " + std::to_string(huge) + " bytes but only 1583 remain";
    EXPECT_MODEL_ERROR(b, "the export_data section at offset 24", says);
  }
}
TEST(RknnModelBad, BrokenGraphJson) {
  EXPECT_MODEL_ERROR(with_graph(inert_spec(), R"({"nodes": [)"), "config section (graph JSON): invalid JSON");
  EXPECT_MODEL_ERROR(with_graph(inert_spec(), "{\"nodes\": [], \"name\": \"\xff\"}"), "invalid JSON");
}
TEST(RknnModelBad, BrokenOpJson) {
  EXPECT_MODEL_ERROR(with_ops(inert_spec(), "[{\"name\": \"TestScale\""), "custom_op_config section: invalid JSON");
  EXPECT_MODEL_ERROR(with_ops(inert_spec(), R"({"name": "TestScale"})"), "expected a JSON array of op descriptions");
}
TEST(RknnModelBad, DeeplyNestedJson) {
  EXPECT_MODEL_ERROR(with_graph(inert_spec(), std::string(100000, '[')), "JSON nested deeper than 64 levels");
}
TEST(RknnModelBad, BlobOutsideTheData) {
  const test_model_spec s = inert_spec();
  const std::string ops = rknnop::host::to_python_json(rknnop_test::test_model_file(s).custom_op_config, "t");
  EXPECT_MODEL_ERROR(with_ops(s, replace_text(ops, "\"op_lib_aarch64_len\": 8", "\"op_lib_aarch64_len\": 9")),
                     "op 'TestScale': aarch64 library at offset 14 length 9 runs past the end of the 22-byte "
                     "custom_op_data section");
  EXPECT_MODEL_ERROR(
      with_ops(s, replace_text(ops, "\"op_lib_x86_offset\": 7", "\"op_lib_x86_offset\": 18446744073709551615")),
      "x86-64 library at offset 18446744073709551615 length 7 runs past the end");
  EXPECT_MODEL_ERROR(with_ops(s, replace_text(ops, "\"op_lib_x86_offset\": 7", "\"op_lib_x86_offset\": -7")),
                     "op_lib_x86_offset must be a whole number >= 0, found an integer '-7'");
  EXPECT_MODEL_ERROR(with_ops(s, replace_text(ops, "\"op_lib_x86_offset\": 7, ", "")),
                     "has op_lib_x86_len but no op_lib_x86_offset");
}
TEST(RknnModelBad, NodePointsToAMissingTensor) {
  const test_model_spec s = inert_spec();
  EXPECT_MODEL_ERROR(
      with_graph(s, replace_text(rknnop_test::test_graph_json(s), R"("type": "norm_tensor", "tensor_id": 1})",
                                 R"("type": "norm_tensor", "tensor_id": 7})")),
      "node 'testscale_0' (op TESTSCALE): port 0 names 'norm_tensor' 7, which the model does not have");
  EXPECT_MODEL_ERROR(with_graph(s, replace_text(rknnop_test::test_graph_json(s),
                                                R"("right_tensor": {"type": "norm_tensor", "tensor_id": 1})",
                                                R"("right_node": {"node_id": 5, "tensor_id": 0})")),
                     "right_node.node_id must name one of the 1 nodes, found an integer '5'");
}
TEST(RknnModelBad, ConnectionsThatDoNotAddUp) {
  const test_model_spec s = inert_spec();
  const std::string graph = rknnop_test::test_graph_json(s);
  EXPECT_MODEL_ERROR(with_graph(s, replace_text(graph, R"("node_id": 0, "left": "output", "left_tensor_id": 0)",
                                                R"("node_id": 0, "left": "output", "left_tensor_id": 1)")),
                     "output port 1 is connected but port 0 is not");
  EXPECT_MODEL_ERROR(
      with_graph(s, replace_text(graph, R"("node_id": 0, "left": "output")", R"("node_id": 0, "left": "input")")),
      "input port 0 is connected twice");
  EXPECT_MODEL_ERROR(
      with_graph(s, replace_text(graph, R"("node_id": 0, "left": "output")", R"("node_id": 3, "left": "output")")),
      "connection 1: node_id must name one of the 1 nodes, found an integer '3'");
  EXPECT_MODEL_ERROR(with_graph(s, replace_text(graph, R"("left": "output")", R"("left": "sideways")")),
                     "left is 'sideways', expected \"input\" or \"output\"");
}
TEST(RknnModelBad, CountsDisagreeingWithArraysAreNotErrors) {
  test_model_spec s = inert_spec();
  s.virtual_tensor_num = "\"many\"";
  const model m = model::parse(test_model_bytes(s), "m.rknn");
  EXPECT_EQ(m.notes.size(), 1u);
  const std::string graph =
      replace_text(rknnop_test::test_graph_json(inert_spec()), "\"node_num\": 1", "\"node_num\": 9");
  const model n = model::parse(with_graph(inert_spec(), graph), "m.rknn");
  EXPECT_EQ(n.nodes.size(), 1u);
  EXPECT_NE(n.notes[0].find("node_num is 9 but the nodes array holds 1"), std::string::npos);
}
TEST(RknnModelBad, TensorsAndNodesOfTheWrongShape) {
  const test_model_spec s = inert_spec();
  const std::string graph = rknnop_test::test_graph_json(s);
  EXPECT_MODEL_ERROR(with_graph(s, replace_text(graph, "\"size\": [3, 2, 1]", "\"size\": [3, -2, 1]")),
                     "norm_tensor 0: a dim must be a whole number in [0, 2^32), found an integer '-2'");
  EXPECT_MODEL_ERROR(with_graph(s, replace_text(graph, "\"tensor_id\": 1, \"size\"", "\"tensor_id\": 0, \"size\"")),
                     "norm_tensor tensor_id 0 appears twice");
  EXPECT_MODEL_ERROR(with_graph(s, replace_text(graph, "\"nodes\": [{", "\"nodes\": {\"x\": [{") + "}"),
                     "graph JSON: 'nodes' must be an array, found an object");
  EXPECT_MODEL_ERROR(with_graph(s, replace_text(graph, "\"nn\": {\"testscale\": ", "\"nn\": {\"other\": ")),
                     "no nn.testscale object, but op 'TestScale' has 3 param(s)");
}
TEST(RknnModelBad, OpDescriptionsOfTheWrongShape) {
  const test_model_spec s = inert_spec();
  const std::string ops = rknnop::host::to_python_json(rknnop_test::test_model_file(s).custom_op_config, "t");
  EXPECT_MODEL_ERROR(with_ops(s, replace_text(ops, "VX_TYPE_FLOAT32", "VX_TYPE_FLOAT99")),
                     "op 'TestScale' params 'scale': type 'VX_TYPE_FLOAT99' is not a VX type name");
  EXPECT_MODEL_ERROR(with_ops(s, replace_text(ops, "\"name\": \"TestScale\"", "\"name\": \"Test Scale\"")),
                     "custom-op description 0: name 'Test Scale' is not an identifier");
  EXPECT_MODEL_ERROR(with_ops(s, replace_text(ops, "\"kernel_index\": 0", "\"kernel_index\": 4294967296")),
                     "kernel_index must be a whole number in [0, 2^32), found an integer '4294967296'");
  EXPECT_MODEL_ERROR(with_ops(s, "[" + ops.substr(1, ops.size() - 2) + ", " + ops.substr(1)),
                     "two custom-op descriptions for op 'TestScale'");
}

// An enum param's value names travel in the op description beside its type ("rknnop_enum"; the
// board's runtime reads only "type"), so that a model shows and checks its enum params by name.
TEST(RknnModel, EnumParamsCarryTheirValueNames) {
  test_model_spec s = inert_spec();
  const std::string ops = rknnop::host::to_python_json(rknnop_test::test_model_file(s).custom_op_config, "t");
  const std::string plain = R"("scale": {"type": "VX_TYPE_FLOAT32"})";
  ASSERT_NE(ops.find(plain), std::string::npos) << ops;
  const std::string int32 = replace_text(ops, plain, R"("scale": {"type": "VX_TYPE_INT32"})");
  s.node_params = R"({"negate": true, "scale": 1, "bias": [1, 2]})";
  const model unnamed = model::parse(with_ops(s, int32), "m.rknn");
  EXPECT_TRUE(unnamed.ops[0].params[1].enumerators.empty());

  // update adds the names the container's op.yml gives; reading them back gives the same entries.
  op_yml_entry scale{"scale", vx_type::int32};
  scale.enumerators = {{"NEAR", 0}, {"FAR", 1}};
  const model named =
      model::parse(replace_op_blobs(unnamed, "TestScale", {}, std::span(&scale, 1)).serialize(), "named.rknn");
  EXPECT_EQ(named.ops[0].params[1], (op_yml_entry{"scale", vx_type::int32, {}, {}, {}, false, scale.enumerators}));
  EXPECT_NE(
      named.file.custom_op_config.find(R"("scale": {"type": "VX_TYPE_INT32", "rknnop_enum": {"NEAR": 0, "FAR": 1}})"),
      std::string::npos)
      << named.file.custom_op_config;
  EXPECT_EQ(decode_node_params(named, named.nodes[0])[1].value.to_string(), "1");
  // A value outside the names is the node's error, naming both.
  s.node_params = R"({"negate": true, "scale": 7, "bias": [1, 2]})";
  const std::string named_ops =
      replace_text(int32, R"("VX_TYPE_INT32"})", R"("VX_TYPE_INT32", "rknnop_enum": {"NEAR": 0, "FAR": 1}})");
  const model seven = model::parse(with_ops(s, named_ops), "seven.rknn");
  EXPECT_NE(rknnop_test::error_of([&] {
              (void)decode_node_params(seven, seven.nodes[0]);
            }).find("param 'scale': 7 is not a value of the op's enum (expected one of NEAR (0), FAR (1))"),
            std::string::npos);

  const auto bad = [&](std::string_view names) {
    return with_ops(
        s, replace_text(int32, R"("VX_TYPE_INT32"})", fmt::format(R"("VX_TYPE_INT32", "rknnop_enum": {}}})", names)));
  };
  EXPECT_MODEL_ERROR(bad("[0, 1]"), "op 'TestScale' params 'scale': 'rknnop_enum': expected an object of value names");
  EXPECT_MODEL_ERROR(bad(R"({"A B": 0})"),
                     "'rknnop_enum': 'A B' = an integer '0' is not an identifier with an int32 value");
  EXPECT_MODEL_ERROR(bad(R"({"BIG": 2147483648})"), "'BIG' = an integer '2147483648' is not an identifier");
  EXPECT_MODEL_ERROR(
      with_ops(s, replace_text(ops, plain, R"("scale": {"type": "VX_TYPE_FLOAT32", "rknnop_enum": {"A": 0}})")),
      "op 'TestScale' params 'scale': 'rknnop_enum': names values of a VX_TYPE_FLOAT32 param; only "
      "VX_TYPE_INT32 params are enums");
}

TEST(RknnModelBad, BadFilesOnDisk) {
  const auto dir = rknnop_test::work_dir("rknn_model_bad_files");
  RKNNOP_EXPECT_ERROR(model::read(dir / "missing.rknn"), "cannot open", "missing.rknn");
  RKNNOP_EXPECT_ERROR(model::read(dir), "is not a regular file");
}

// The fuzz target's seeds are models written by this writer; keep them the writer's current output.
TEST(RknnModel, FuzzSeedsAreTheWritersModels) {
  test_model_spec v1 = inert_spec();
  const std::vector<std::pair<std::string, std::vector<std::uint8_t>>> seeds = {
      {"writer.rknn", test_model_bytes(inert_spec())},
      {"writer_v1.rknn", build_model_file(rknnop_test::test_graph_json(v1), "", {}, 1).serialize()},
      {"writer_chain.rknn", rknnop_test::two_op_model_file().serialize()}};
  for (const auto& [name, expected] : seeds) {
    const std::filesystem::path seed = std::filesystem::path(RKNNOP_TEST_FUZZ_CORPUS) / "fuzz_rknn_model" / name;
    if (std::getenv("RKNNOP_WRITE_FUZZ_SEEDS") != nullptr) {
      std::filesystem::create_directories(seed.parent_path());
      std::ofstream(seed, std::ios::binary)
          .write(reinterpret_cast<const char*>(expected.data()), static_cast<std::streamsize>(expected.size()));
    }
    std::ifstream in(seed, std::ios::binary);
    const std::vector<std::uint8_t> stored((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(stored, expected) << seed << " is not what the writer makes now; regenerate it with "
                                << "RKNNOP_WRITE_FUZZ_SEEDS=1 rknnop_host_model_tests";
  }
}

}  // namespace

// SPDX-License-Identifier: MIT
// .rknn model reading: any input either parses or throws rknnop::host::error with one clean line;
// whatever parses re-serializes byte for byte, its blobs lie inside the blob section, its custom
// nodes' params decode or fail cleanly, and rewriting an op with its own blobs reads back the same.
#include "fuzz_util.hpp"

#include <rknnop/host/rknn_model.hpp>

#include <algorithm>
#include <span>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rknnop::host;
  const std::span<const std::uint8_t> bytes(data, size);
  model m;
  try {
    m = model::parse(bytes, "fuzz.rknn");
  } catch (const error& e) {
    rknnop::fuzz::expect_clean_error(e);
    return 0;
  }
  RKNNOP_FUZZ_EXPECT(std::ranges::equal(m.file.serialize(), bytes), "re-serialized model differs from the input");
  for (const model_op& op : m.ops)
    for (const model_blob& b : op.blobs)
      RKNNOP_FUZZ_EXPECT(b.offset <= m.file.custom_op_data.size() && b.size <= m.file.custom_op_data.size() - b.offset);
  for (const std::size_t i : m.custom_nodes()) {
    const model_node& node = m.nodes[i];
    RKNNOP_FUZZ_EXPECT(node.custom_op && *node.custom_op < m.ops.size());
    for (std::size_t p = 0; p < node.inputs.size(); ++p) RKNNOP_FUZZ_EXPECT(node.inputs[p].index == p);
    for (std::size_t p = 0; p < node.outputs.size(); ++p) RKNNOP_FUZZ_EXPECT(node.outputs[p].index == p);
    try {
      const auto params = decode_node_params(m, node);
      RKNNOP_FUZZ_EXPECT(params.size() == m.ops[*node.custom_op].params.size());
    } catch (const error& e) {
      rknnop::fuzz::expect_clean_error(e);
    }
  }
  for (const model_op& op : m.ops) {
    std::vector<std::pair<model_blob_kind, std::vector<std::uint8_t>>> same;
    for (const model_blob& b : op.blobs) {
      const auto blob = m.blob(op, b.kind);
      same.emplace_back(b.kind, std::vector<std::uint8_t>(blob.begin(), blob.end()));
    }
    try {
      const model again = model::parse(replace_op_blobs(m, op.name, same).serialize(), "again.rknn");
      RKNNOP_FUZZ_EXPECT(again.ops.size() == m.ops.size());
      for (std::size_t i = 0; i < m.ops.size(); ++i)
        for (const model_blob& b : m.ops[i].blobs)
          RKNNOP_FUZZ_EXPECT(std::ranges::equal(again.blob(again.ops[i], b.kind), m.blob(m.ops[i], b.kind)));
    } catch (const error& e) {
      rknnop::fuzz::expect_clean_error(e);
    }
  }
  return 0;
}

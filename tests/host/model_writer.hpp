// SPDX-License-Identifier: MIT
#pragma once
// Test models written by the project's own model writer (rknnop::host::build_model_file): one custom
// node in the form the toolkit's ResizeArea demo model has (docs/rknn-model.md §2), with knobs for
// the op, its params, the tensors and the embedded blobs.

#include <rknnop/host/file_io.hpp>
#include <rknnop/host/rknn_model.hpp>

#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace rknnop_test {

struct test_model_spec {
  std::string op_name = "TestScale";
  std::string params_desc =
      R"({"bias": {"type": "VX_TYPE_ARRAY"}, "scale": {"type": "VX_TYPE_FLOAT32"}, "negate": {"type": "VX_TYPE_BOOL"}})";
  std::string node_params = R"({"bias": [1], "scale": 2.0, "negate": 0})";
  std::string input_dims = "[3, 2, 1]";  // innermost first: NumPy (1, 2, 3)
  std::string output_dims = "[3, 2, 1]";
  std::string vx_type = "VSI_NN_TYPE_FLOAT16";
  std::string virtual_tensor_num = "1";  // what toolkit 1.3.2 writes beside an empty virtual_tensor array
  unsigned kernel_index = 0;
  std::vector<std::pair<rknnop::host::model_blob_kind, std::vector<std::uint8_t>>> blobs;
};

inline std::string lower_name(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
inline std::string upper_name(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

inline std::size_t rank_of(const std::string& dims) {
  if (dims == "[]") return 0;
  std::size_t n = 1;
  for (const char c : dims) n += c == ',';
  return n;
}

inline std::string test_graph_json(const test_model_spec& s) {
  const auto tensor = [&](int id, const std::string& dims) {
    return fmt::format(
        R"({{"tensor_id": {}, "size": {}, "dim_num": {}, "dtype": {{"qnt_type": "VSI_NN_QNT_TYPE_NONE", "vx_type": "{}"}}}})",
        id, dims, rank_of(dims), s.vx_type);
  };
  return fmt::format(
      R"({{"network_platform": "caffe", "ori_network_platform": "tensorflow", "name": "TestModel", "version": "1.3.0", )"
      R"("node_num": 1, "norm_tensor_num": 2, "const_tensor_num": 0, "virtual_tensor_num": {}, )"
      R"("nodes": [{{"lid": "{}_0_2", "name": "{}_0", "op": "{}", "uid": 2, "input_num": 1, "output_num": 1, )"
      R"("nn": {{"{}": {}}}}}], "norm_tensor": [{}, {}], "const_tensor": [], "virtual_tensor": [], )"
      R"("connection": [{{"node_id": 0, "left": "input", "left_tensor_id": 0, "right_tensor": {{"type": "norm_tensor", "tensor_id": 1}}}}, )"
      R"({{"node_id": 0, "left": "output", "left_tensor_id": 0, "right_tensor": {{"type": "norm_tensor", "tensor_id": 0}}}}], )"
      R"("graph": [{{"left": "output", "left_tensor_id": 0, "right": "norm_tensor", "right_tensor_id": 0}}, )"
      R"({{"left": "input", "left_tensor_id": 0, "right": "norm_tensor", "right_tensor_id": 1}}]}})",
      s.virtual_tensor_num, lower_name(s.op_name), lower_name(s.op_name), upper_name(s.op_name), lower_name(s.op_name),
      s.node_params, tensor(0, s.output_dims), tensor(1, s.input_dims));
}

inline std::string test_ops_json(const test_model_spec& s) {
  return fmt::format(R"([{{"name": "{}", "params": {}, "inputs": {{"input": {{"type": "VX_TYPE_TENSOR"}}}}, )"
                     R"("outputs": {{"output": {{"type": "VX_TYPE_TENSOR"}}}}, "kernel_index": {}}}])",
                     s.op_name, s.params_desc, s.kernel_index);
}

inline rknnop::host::model_file test_model_file(const test_model_spec& s) {
  return rknnop::host::build_model_file(test_graph_json(s), test_ops_json(s), {{s.blobs}});
}

inline std::vector<std::uint8_t> test_model_bytes(const test_model_spec& s) { return test_model_file(s).serialize(); }

#if defined(RKNNOP_TEST_SCALE_SO)
/// A model of the test op (tests/host/kernels/scale) with its x86-64 library and an empty shader.
inline test_model_spec scale_spec() {
  test_model_spec s;
  s.blobs = {{rknnop::host::model_blob_kind::shader, {}},
             {rknnop::host::model_blob_kind::lib_x86_64, rknnop::host::read_file(RKNNOP_TEST_SCALE_SO)}};
  return s;
}
#endif

/// A spec whose blobs are small stand-ins (not loadable): for the reader's tests.
inline test_model_spec inert_spec() {
  test_model_spec s;
  s.blobs = {{rknnop::host::model_blob_kind::shader, {'S', 'H', 'D', 'R', 1, 2, 3}},
             {rknnop::host::model_blob_kind::lib_x86_64, {0x7f, 'E', 'L', 'F', 'x', '8', '6'}},
             {rknnop::host::model_blob_kind::lib_aarch64, {0x7f, 'E', 'L', 'F', 'a', '6', '4', '!'}}};
  return s;
}

/// Two custom ops in a chain: opa_0 (OpA) feeds opb_0 (OpB, param k) through a tensor between the
/// nodes (`right_node`), which the model stores no dims for. Blobs are small stand-ins.
inline rknnop::host::model_file two_op_model_file() {
  using rknnop::host::model_blob_kind;
  const std::string graph =
      R"({"name": "Chain", "version": "1.3.0", "node_num": 2, "norm_tensor_num": 2, "virtual_tensor_num": 0, )"
      R"("nodes": [{"lid": "opa_0_1", "name": "opa_0", "op": "OPA", "uid": 1, "nn": {"opa": {}}}, )"
      R"({"lid": "opb_0_2", "name": "opb_0", "op": "OPB", "uid": 2, "nn": {"opb": {"k": 3}}}], )"
      R"("norm_tensor": [{"tensor_id": 0, "size": [4], "dim_num": 1, "dtype": {"qnt_type": "VSI_NN_QNT_TYPE_NONE", "vx_type": "VSI_NN_TYPE_FLOAT16"}}, )"
      R"({"tensor_id": 1, "size": [4], "dim_num": 1, "dtype": {"qnt_type": "VSI_NN_QNT_TYPE_NONE", "vx_type": "VSI_NN_TYPE_FLOAT16"}}], )"
      R"("const_tensor": [], "virtual_tensor": [], )"
      R"("connection": [{"node_id": 0, "left": "input", "left_tensor_id": 0, "right_tensor": {"type": "norm_tensor", "tensor_id": 0}}, )"
      R"({"node_id": 1, "left": "input", "left_tensor_id": 0, "right_node": {"node_id": 0, "tensor_id": 0}}, )"
      R"({"node_id": 1, "left": "output", "left_tensor_id": 0, "right_tensor": {"type": "norm_tensor", "tensor_id": 1}}]})";
  const std::string ops =
      R"([{"name": "OpA", "params": {}, "inputs": {"in": {"type": "VX_TYPE_TENSOR"}}, "outputs": {"out": {"type": "VX_TYPE_TENSOR"}}, "kernel_index": 0}, )"
      R"({"name": "OpB", "params": {"k": {"type": "VX_TYPE_INT32"}}, "inputs": {"in": {"type": "VX_TYPE_TENSOR"}}, "outputs": {"out": {"type": "VX_TYPE_TENSOR"}}, "kernel_index": 0}])";
  return rknnop::host::build_model_file(graph, ops,
                                        {{{{model_blob_kind::shader, {'S', 'H', 'D', 'R', 'a'}},
                                           {model_blob_kind::lib_x86_64, {0x7f, 'E', 'L', 'F', 'a'}}}},
                                         {{{model_blob_kind::shader, {'S', 'H', 'D', 'R', 'b', 'b'}},
                                           {model_blob_kind::lib_x86_64, {0x7f, 'E', 'L', 'F', 'b', 'b'}}}}});
}

}  // namespace rknnop_test

// SPDX-License-Identifier: MIT
// Graphs and nodes: verify (validators, meta formats, virtual tensors), process, deinit on
// release, execution parameters, uniforms, shader kernels, Khronos-mode validators.
#include "runtime_test_util.hpp"

#include "scale_bias_kernel.h"

#include <cstring>
#include <string>
#include <vector>

using namespace rknnop_test;

namespace {

// Objects of one ScaleBias node's parameters.
struct scale_bias_params {
  vx_array bias = nullptr;
  vx_scalar scale = nullptr;
  vx_scalar negate = nullptr;
};

class runtime_graph : public context_test {
protected:
  void SetUp() override {
    context_test::SetUp();
    kernel = register_kernel_description(ctx, vx_kernel_ScaleBias_list[0]);
    ASSERT_NE(kernel, nullptr);
    graph = vxCreateGraph(ctx);
    ASSERT_NE(graph, nullptr);
  }
  void TearDown() override {
    vxReleaseKernel(&kernel);
    if (graph != nullptr) vxReleaseGraph(&graph);
    context_test::TearDown();
  }

  vx_tensor make_tensor(std::vector<vx_size> dims, vx_enum type = VX_TYPE_FLOAT32) {
    return vxCreateTensor(ctx, dims.size(), dims.data(), type, 0);
  }

  void write(vx_tensor t, const std::vector<float>& values, vx_uint32 d0, vx_uint32 d1) {
    vx_size start[2] = {0, 0}, end[2] = {d0, d1}, stride[2] = {4, 4 * static_cast<vx_size>(d0)};
    ASSERT_EQ(vxCopyTensorPatch(t, 2, start, end, stride, const_cast<float*>(values.data()), VX_WRITE_ONLY,
                                VX_MEMORY_TYPE_HOST),
              VX_SUCCESS);
  }

  std::vector<float> read(vx_tensor t, vx_uint32 d0, vx_uint32 d1) {
    std::vector<float> values(static_cast<std::size_t>(d0) * d1);
    vx_size start[2] = {0, 0}, end[2] = {d0, d1}, stride[2] = {4, 4 * static_cast<vx_size>(d0)};
    EXPECT_EQ(vxCopyTensorPatch(t, 2, start, end, stride, values.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST),
              VX_SUCCESS);
    return values;
  }

  // A node out = (in * scale + bias) * (negate ? -1 : 1).
  vx_node add_node(vx_tensor in, vx_tensor out, vx_int32 bias, float scale, bool negate) {
    vx_node n = vxCreateGenericNode(graph, kernel);
    EXPECT_NE(n, nullptr);
    vx_array a = vxCreateArray(ctx, VX_TYPE_INT32, 2);
    EXPECT_EQ(vxAddArrayItems(a, 1, &bias, sizeof bias), VX_SUCCESS);
    vx_scalar s = vxCreateScalar(ctx, VX_TYPE_FLOAT32, &scale);
    vx_bool flag = negate ? vx_true_e : vx_false_e;
    vx_scalar b = vxCreateScalar(ctx, VX_TYPE_BOOL, &flag);
    EXPECT_EQ(vxSetParameterByIndex(n, 0, ref(in)), VX_SUCCESS);
    EXPECT_EQ(vxSetParameterByIndex(n, 1, ref(out)), VX_SUCCESS);
    EXPECT_EQ(vxSetParameterByIndex(n, 2, ref(a)), VX_SUCCESS);
    EXPECT_EQ(vxSetParameterByIndex(n, 3, ref(s)), VX_SUCCESS);
    EXPECT_EQ(vxSetParameterByIndex(n, 4, ref(b)), VX_SUCCESS);
    // The node holds its parameters: the application's handles can go.
    vxReleaseArray(&a);
    vxReleaseScalar(&s);
    vxReleaseScalar(&b);
    return n;
  }

  vx_kernel kernel = nullptr;
  vx_graph graph = nullptr;
};

TEST_F(runtime_graph, two_nodes_through_a_virtual_tensor) {
  vx_tensor in = make_tensor({4, 3});
  vx_tensor out = make_tensor({4, 3});
  vx_tensor mid = vxCreateVirtualTensor(graph, 0, nullptr, VX_TYPE_FLOAT32, 0);
  std::vector<float> input(12);
  for (std::size_t i = 0; i < input.size(); ++i) input[i] = static_cast<float>(i) - 4.0f;
  write(in, input, 4, 3);

  // Created consumer first: verify must order the nodes by data flow.
  vx_node second = add_node(mid, out, -1, 0.5f, true);
  vx_node first = add_node(in, mid, 5, 2.0f, false);

  const int init_before = scale_bias_init_calls();
  ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS) << last_log(ref(ctx));
  EXPECT_EQ(scale_bias_init_calls(), init_before + 2);

  vx_uint32 ndims = 0, dims[6] = {};
  ASSERT_EQ(vxQueryTensor(mid, VX_TENSOR_NUMBER_OF_DIMS, &ndims, 4), VX_SUCCESS);
  EXPECT_EQ(ndims, 2U);
  ASSERT_EQ(vxQueryTensor(mid, VX_TENSOR_DIMS, dims, 8), VX_SUCCESS);
  EXPECT_EQ(dims[0], 4U);
  EXPECT_EQ(dims[1], 3U);

  vx_bool written = vx_true_e;
  rknnopHostTensorWasWritten(out, &written);
  EXPECT_EQ(written, vx_false_e);
  ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS) << last_log(ref(ctx));
  rknnopHostTensorWasWritten(out, &written);
  EXPECT_EQ(written, vx_true_e);

  const auto output = read(out, 4, 3);
  for (std::size_t i = 0; i < input.size(); ++i)
    EXPECT_FLOAT_EQ(output[i], -((input[i] * 2.0f + 5.0f) * 0.5f - 1.0f)) << i;

  vx_status status = VX_FAILURE;
  ASSERT_EQ(vxQueryNode(first, VX_NODE_STATUS, &status, sizeof status), VX_SUCCESS);
  EXPECT_EQ(status, VX_SUCCESS);
  EXPECT_EQ(vxQueryNode(first, VX_NODE_STATUS, &status, 8), VX_ERROR_INVALID_PARAMETERS);

  // Processing again reuses the verification (no second initialize).
  ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
  EXPECT_EQ(scale_bias_init_calls(), init_before + 2);

  // Deinitializers run when the graph goes, even with the node handles still held.
  const int deinit_before = scale_bias_deinit_calls();
  ASSERT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  EXPECT_EQ(scale_bias_deinit_calls(), deinit_before + 2);
  EXPECT_EQ(vxQueryNode(first, VX_NODE_STATUS, &status, sizeof status), VX_SUCCESS);
  vx_node first_copy = first;
  vxReleaseNode(&first);
  vxReleaseNode(&second);
  EXPECT_EQ(first, nullptr);
  EXPECT_EQ(vxGetStatus(ref(first_copy)), VX_ERROR_INVALID_REFERENCE);
  vxReleaseTensor(&in);
  vxReleaseTensor(&out);
  vxReleaseTensor(&mid);
}

TEST_F(runtime_graph, process_verifies_first) {
  vx_tensor in = make_tensor({2, 2});
  vx_tensor out = make_tensor({2, 2});
  write(in, {1, 2, 3, 4}, 2, 2);
  vx_node n = add_node(in, out, 1, 3.0f, false);
  ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS) << last_log(ref(ctx));
  EXPECT_EQ(read(out, 2, 2), (std::vector<float>{4, 7, 10, 13}));
  // Changing a parameter invalidates the verification; the new value is used.
  float scale = -1.0f;
  vx_scalar s = vxCreateScalar(ctx, VX_TYPE_FLOAT32, &scale);
  ASSERT_EQ(vxSetParameterByIndex(n, 3, ref(s)), VX_SUCCESS);
  const int deinit_before = scale_bias_deinit_calls();
  ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
  EXPECT_EQ(scale_bias_deinit_calls(), deinit_before + 1);  // re-verify deinitializes first
  EXPECT_EQ(read(out, 2, 2), (std::vector<float>{0, -1, -2, -3}));
  vxReleaseScalar(&s);
  vxReleaseNode(&n);
  vxReleaseTensor(&in);
  vxReleaseTensor(&out);
}

// As on the board's driver: no node attribute can be set once the graph is verified (kernels set
// theirs from the initializer); changing a parameter un-verifies it again.
TEST_F(runtime_graph, node_attributes_are_read_only_on_a_verified_graph) {
  vx_tensor in = make_tensor({2, 2});
  vx_tensor out = make_tensor({2, 2});
  vx_node n = add_node(in, out, 0, 1.0f, false);
  vx_kernel_execution_parameters_t p{};
  p.workDim = 1;
  p.globalWorkScale[0] = 1;
  p.globalWorkSize[0] = 4;
  ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS) << last_log(ref(ctx));
  EXPECT_EQ(vxSetNodeAttribute(n, VX_NODE_ATTRIBUTE_KERNEL_EXECUTION_PARAMETERS, &p, sizeof p), VX_ERROR_NOT_SUPPORTED);
  EXPECT_NE(last_log(ref(n)).find("the node's graph is verified"), std::string::npos) << last_log(ref(n));
  float scale = 2.0f;
  vx_scalar s = vxCreateScalar(ctx, VX_TYPE_FLOAT32, &scale);
  ASSERT_EQ(vxSetParameterByIndex(n, 3, ref(s)), VX_SUCCESS);  // un-verifies the graph
  EXPECT_EQ(vxSetNodeAttribute(n, VX_NODE_ATTRIBUTE_KERNEL_EXECUTION_PARAMETERS, &p, sizeof p), VX_SUCCESS);
  vxReleaseScalar(&s);
  vxReleaseNode(&n);
  vxReleaseTensor(&in);
  vxReleaseTensor(&out);
}

TEST_F(runtime_graph, missing_required_parameter) {
  vx_tensor in = make_tensor({2, 2});
  vx_node n = vxCreateGenericNode(graph, kernel);
  ASSERT_EQ(vxSetParameterByIndex(n, 0, ref(in)), VX_SUCCESS);
  EXPECT_EQ(vxVerifyGraph(graph), VX_ERROR_NOT_SUFFICIENT);
  const std::string log = last_log(ref(n));
  EXPECT_NE(log.find("scalebias_cpu"), std::string::npos) << log;
  EXPECT_NE(log.find("parameter 1"), std::string::npos) << log;
  EXPECT_EQ(vxProcessGraph(graph), VX_ERROR_NOT_SUFFICIENT);
  vxReleaseNode(&n);
  vxReleaseTensor(&in);
}

TEST_F(runtime_graph, parameter_index_and_type_checks) {
  vx_tensor t = make_tensor({2, 2});
  float f = 1.0f;
  vx_scalar s = vxCreateScalar(ctx, VX_TYPE_FLOAT32, &f);
  vx_node n = vxCreateGenericNode(graph, kernel);
  EXPECT_EQ(vxSetParameterByIndex(n, 0, ref(s)), VX_ERROR_INVALID_TYPE);  // scalar for a tensor
  EXPECT_NE(last_log(ref(n)).find("expects type 0x815"), std::string::npos);
  EXPECT_EQ(vxSetParameterByIndex(n, 3, ref(t)), VX_ERROR_INVALID_TYPE);  // tensor for a scalar
  EXPECT_EQ(vxSetParameterByIndex(n, 2, ref(s)), VX_ERROR_INVALID_TYPE);  // scalar for an array
  EXPECT_EQ(vxSetParameterByIndex(n, 5, ref(t)), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxSetParameterByIndex(n, 0, nullptr), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxSetParameterByIndex(nullptr, 0, ref(t)), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxSetParameterByIndex(n, 0, ref(t)), VX_SUCCESS);

  // A virtual tensor belongs to its graph.
  vx_graph other = vxCreateGraph(ctx);
  vx_tensor foreign = vxCreateVirtualTensor(other, 0, nullptr, VX_TYPE_FLOAT32, 0);
  EXPECT_EQ(vxSetParameterByIndex(n, 1, ref(foreign)), VX_ERROR_INVALID_GRAPH);
  vxReleaseTensor(&foreign);
  vxReleaseGraph(&other);
  vxReleaseNode(&n);
  vxReleaseScalar(&s);
  vxReleaseTensor(&t);
}

TEST_F(runtime_graph, output_shape_mismatch_names_both) {
  vx_tensor in = make_tensor({4, 3});
  vx_tensor out = make_tensor({3, 4});
  vx_node n = add_node(in, out, 0, 1.0f, false);
  EXPECT_EQ(vxVerifyGraph(graph), VX_ERROR_INVALID_DIMENSION);
  const std::string log = last_log(ref(n));
  EXPECT_NE(log.find("[4, 3]"), std::string::npos) << log;
  EXPECT_NE(log.find("[3, 4]"), std::string::npos) << log;
  vxReleaseNode(&n);
  vxReleaseTensor(&in);
  vxReleaseTensor(&out);
}

TEST_F(runtime_graph, output_type_mismatch_names_both) {
  vx_tensor in = make_tensor({4, 3});
  vx_tensor out = make_tensor({4, 3}, VX_TYPE_INT16);
  vx_node n = add_node(in, out, 0, 1.0f, false);
  EXPECT_EQ(vxVerifyGraph(graph), VX_ERROR_INVALID_FORMAT);
  const std::string log = last_log(ref(n));
  EXPECT_NE(log.find("FLOAT32"), std::string::npos) << log;
  EXPECT_NE(log.find("INT16"), std::string::npos) << log;
  vxReleaseNode(&n);
  vxReleaseTensor(&in);
  vxReleaseTensor(&out);
}

TEST_F(runtime_graph, kernel_failure_sets_node_status) {
  vx_tensor in = make_tensor({2, 2}, VX_TYPE_INT16);  // the kernel only computes FLOAT32
  vx_tensor out = make_tensor({2, 2}, VX_TYPE_INT16);
  vx_node n = add_node(in, out, 0, 1.0f, false);
  EXPECT_EQ(vxProcessGraph(graph), VX_ERROR_INVALID_TYPE);
  vx_status status = VX_SUCCESS;
  ASSERT_EQ(vxQueryNode(n, VX_NODE_STATUS, &status, sizeof status), VX_SUCCESS);
  EXPECT_EQ(status, VX_ERROR_INVALID_TYPE);
  EXPECT_NE(last_log(ref(n)).find("failed with -17"), std::string::npos);
  vx_bool written = vx_true_e;
  rknnopHostTensorWasWritten(out, &written);
  EXPECT_EQ(written, vx_false_e);
  vxReleaseNode(&n);
  vxReleaseTensor(&in);
  vxReleaseTensor(&out);
}

TEST_F(runtime_graph, graph_structure_errors) {
  // A virtual input nobody produces.
  vx_tensor orphan = vxCreateVirtualTensor(graph, 0, nullptr, VX_TYPE_FLOAT32, 0);
  vx_tensor out = make_tensor({2, 2});
  vx_node n = add_node(orphan, out, 0, 1.0f, false);
  EXPECT_EQ(vxVerifyGraph(graph), VX_ERROR_INVALID_GRAPH);
  vxReleaseNode(&n);
  vxReleaseGraph(&graph);

  // A cycle.
  graph = vxCreateGraph(ctx);
  vx_tensor a = make_tensor({2, 2});
  vx_tensor b = make_tensor({2, 2});
  vx_node ab = add_node(a, b, 0, 1.0f, false);
  vx_node ba = add_node(b, a, 0, 1.0f, false);
  EXPECT_EQ(vxVerifyGraph(graph), VX_ERROR_INVALID_GRAPH);
  EXPECT_NE(last_log(ref(graph)).find("cycle"), std::string::npos);
  vxReleaseNode(&ab);
  vxReleaseNode(&ba);
  vxReleaseGraph(&graph);

  // Two producers of one tensor.
  graph = vxCreateGraph(ctx);
  vx_node p1 = add_node(a, out, 0, 1.0f, false);
  vx_node p2 = add_node(b, out, 0, 1.0f, false);
  EXPECT_EQ(vxVerifyGraph(graph), VX_ERROR_INVALID_GRAPH);
  vxReleaseNode(&p1);
  vxReleaseNode(&p2);
  vxReleaseTensor(&a);
  vxReleaseTensor(&b);
  vxReleaseTensor(&orphan);
  vxReleaseTensor(&out);
}

// --- hand-written C++ kernels for the remaining behaviour ----------------------------------------

vx_meta_format saved_meta = nullptr;
vx_status meta_status_wrong_size = VX_SUCCESS;
int fail_init_deinit_calls = 0;

vx_status VX_CALLBACK copy_function(vx_node, const vx_reference*, vx_uint32) { return VX_SUCCESS; }

// Khronos-mode validator: vx_size for NUMBER_OF_DIMS and DIMS, output = input shape doubled in x.
vx_status VX_CALLBACK khronos_validator(vx_node, const vx_reference params[], vx_uint32, vx_meta_format metas[]) {
  auto in = reinterpret_cast<vx_tensor>(params[0]);
  vx_size ndims = 0, dims[6] = {};
  vx_status status = vxQueryTensor(in, VX_TENSOR_NUMBER_OF_DIMS, &ndims, sizeof ndims);
  if (status != VX_SUCCESS) return status;
  status = vxQueryTensor(in, VX_TENSOR_DIMS, dims, sizeof dims);
  if (status != VX_SUCCESS) return status;
  dims[0] *= 2;
  vx_uint32 narrow = static_cast<vx_uint32>(ndims);
  meta_status_wrong_size = vxSetMetaFormatAttribute(metas[1], VX_TENSOR_NUMBER_OF_DIMS, &narrow, 4);
  status = vxSetMetaFormatAttribute(metas[1], VX_TENSOR_NUMBER_OF_DIMS, &ndims, sizeof ndims);
  if (status != VX_SUCCESS) return status;
  status = vxSetMetaFormatAttribute(metas[1], VX_TENSOR_DIMS, dims, ndims * sizeof(vx_size));
  if (status != VX_SUCCESS) return status;
  vx_enum type = VX_TYPE_INT8;
  saved_meta = metas[1];
  return vxSetMetaFormatAttribute(metas[1], VX_TENSOR_DATA_TYPE, &type, sizeof type);
}

vx_status VX_CALLBACK failing_init(vx_node, const vx_reference*, vx_uint32) { return VX_ERROR_NO_RESOURCES; }
vx_status VX_CALLBACK counting_deinit(vx_node, const vx_reference*, vx_uint32) {
  ++fail_init_deinit_calls;
  return VX_SUCCESS;
}

vx_kernel add_two_tensor_kernel(vx_context ctx, const char* name, vx_kernel_f function, vx_kernel_validate_f validate,
                                vx_kernel_initialize_f init, vx_kernel_deinitialize_f deinit) {
  vx_kernel k = vxAddUserKernel(ctx, name, 0x7FF00300, function, 2, validate, init, deinit);
  EXPECT_EQ(vxAddParameterToKernel(k, 0, VX_INPUT, VX_TYPE_TENSOR, VX_PARAMETER_STATE_REQUIRED), VX_SUCCESS);
  EXPECT_EQ(vxAddParameterToKernel(k, 1, VX_OUTPUT, VX_TYPE_TENSOR, VX_PARAMETER_STATE_REQUIRED), VX_SUCCESS);
  EXPECT_EQ(vxFinalizeKernel(k), VX_SUCCESS);
  return k;
}

TEST_F(runtime_graph, khronos_mode_validator_sets_virtual_output) {
  ASSERT_EQ(rknnopHostSetKhronosMode(ctx, vx_true_e), VX_SUCCESS);
  vx_kernel k = add_two_tensor_kernel(ctx, "khronos_double_x", copy_function, khronos_validator, nullptr, nullptr);
  vx_size dims[3] = {5, 2, 3};
  vx_tensor in = vxCreateTensor(ctx, 3, dims, VX_TYPE_INT8, 0);
  vx_tensor mid = vxCreateVirtualTensor(graph, 0, nullptr, VX_TYPE_INVALID, 0);
  vx_node n = vxCreateGenericNode(graph, k);
  ASSERT_EQ(vxSetParameterByIndex(n, 0, ref(in)), VX_SUCCESS);
  ASSERT_EQ(vxSetParameterByIndex(n, 1, ref(mid)), VX_SUCCESS);
  ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS) << last_log(ref(ctx));
  if (sizeof(vx_size) != 4) {  // on 32-bit targets uint32 and vx_size have the same size
    EXPECT_EQ(meta_status_wrong_size, VX_ERROR_INVALID_PARAMETERS);
  }
  // The meta format lived only during the validator.
  vx_enum type = VX_TYPE_INT8;
  EXPECT_EQ(vxSetMetaFormatAttribute(saved_meta, VX_TENSOR_DATA_TYPE, &type, sizeof type), VX_ERROR_INVALID_REFERENCE);

  vx_size ndims = 0, got[6] = {};
  ASSERT_EQ(vxQueryTensor(mid, VX_TENSOR_NUMBER_OF_DIMS, &ndims, sizeof ndims), VX_SUCCESS);
  EXPECT_EQ(ndims, 3U);
  ASSERT_EQ(vxQueryTensor(mid, VX_TENSOR_DIMS, got, sizeof got), VX_SUCCESS);
  EXPECT_EQ(got[0], 10U);
  EXPECT_EQ(got[1], 2U);
  EXPECT_EQ(got[2], 3U);
  ASSERT_EQ(vxQueryTensor(mid, VX_TENSOR_DATA_TYPE, &type, sizeof type), VX_SUCCESS);
  EXPECT_EQ(type, VX_TYPE_INT8);
  rknnop_host_tensor_buffer buffer{};
  ASSERT_EQ(rknnopHostGetTensorBuffer(mid, VX_READ_ONLY, &buffer), VX_SUCCESS);
  EXPECT_EQ(buffer.size_in_bytes, 60U);
  vxReleaseNode(&n);
  vxReleaseTensor(&in);
  vxReleaseTensor(&mid);
  vxReleaseKernel(&k);
}

TEST_F(runtime_graph, failed_initializer_fails_verify_and_skips_its_deinit) {
  vx_kernel ok = add_two_tensor_kernel(ctx, "init_ok", copy_function, nullptr, nullptr, counting_deinit);
  vx_kernel bad = add_two_tensor_kernel(ctx, "init_fails", copy_function, nullptr, failing_init, counting_deinit);
  vx_tensor a = make_tensor({2});
  vx_tensor b = make_tensor({2});
  vx_tensor c = make_tensor({2});
  vx_node first = vxCreateGenericNode(graph, ok);
  vxSetParameterByIndex(first, 0, ref(a));
  vxSetParameterByIndex(first, 1, ref(b));
  vx_node second = vxCreateGenericNode(graph, bad);
  vxSetParameterByIndex(second, 0, ref(b));
  vxSetParameterByIndex(second, 1, ref(c));
  fail_init_deinit_calls = 0;
  EXPECT_EQ(vxVerifyGraph(graph), VX_ERROR_NO_RESOURCES);
  EXPECT_NE(last_log(ref(second)).find("initializer failed"), std::string::npos);
  // The driver leaves the verification at once: the first node (no initializer means success) stays
  // initialized; its deinitializer runs when the graph goes, the failed node's never.
  EXPECT_EQ(fail_init_deinit_calls, 0);
  ASSERT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  EXPECT_EQ(fail_init_deinit_calls, 1);
  vxReleaseNode(&first);
  vxReleaseNode(&second);
  vxReleaseTensor(&a);
  vxReleaseTensor(&b);
  vxReleaseTensor(&c);
  vxReleaseKernel(&ok);
  vxReleaseKernel(&bad);
}

TEST_F(runtime_graph, execution_parameter_validation) {
  vx_tensor in = make_tensor({2, 2});
  vx_tensor out = make_tensor({2, 2});
  vx_node n = add_node(in, out, 0, 1.0f, false);
  vx_kernel_execution_parameters_t p{};
  p.workDim = 2;
  p.globalWorkScale[0] = p.globalWorkScale[1] = 1;
  p.globalWorkSize[0] = 16;
  p.globalWorkSize[1] = 6;
  p.localWorkSize[0] = 8;
  p.localWorkSize[1] = 0;  // the driver chooses
  ASSERT_EQ(vxSetNodeAttribute(n, VX_NODE_ATTRIBUTE_KERNEL_EXECUTION_PARAMETERS, &p, sizeof p), VX_SUCCESS);
  vx_kernel_execution_parameters_t back{};
  vx_bool was_set = vx_false_e;
  ASSERT_EQ(rknnopHostGetExecutionParameters(n, &back, &was_set), VX_SUCCESS);
  EXPECT_EQ(was_set, vx_true_e);
  EXPECT_EQ(std::memcmp(&back, &p, sizeof p), 0);
  back = {};
  ASSERT_EQ(vxQueryNode(n, VX_NODE_ATTRIBUTE_KERNEL_EXECUTION_PARAMETERS, &back, sizeof back), VX_SUCCESS);
  EXPECT_EQ(back.globalWorkSize[0], 16U);
  EXPECT_EQ(vxQueryNode(n, VX_NODE_ATTRIBUTE_KERNEL_EXECUTION_PARAMETERS, &back, sizeof back - 4),
            VX_ERROR_INVALID_PARAMETERS);

  auto rejected = [&](vx_kernel_execution_parameters_t q, const char* needle) {
    EXPECT_EQ(vxSetNodeAttribute(n, VX_NODE_ATTRIBUTE_KERNEL_EXECUTION_PARAMETERS, &q, sizeof q),
              VX_ERROR_INVALID_PARAMETERS);
    EXPECT_NE(last_log(ref(n)).find(needle), std::string::npos) << last_log(ref(n));
  };
  auto q = p;
  q.workDim = 0;
  rejected(q, "workDim 0");
  q.workDim = 4;
  rejected(q, "workDim 4");
  q = p;
  q.globalWorkSize[1] = 0;
  rejected(q, "globalWorkSize[1] is 0");
  q = p;
  q.globalWorkSize[0] = 12;
  rejected(q, "not a multiple");
  q = p;
  q.workDim = 1;
  q.globalWorkSize[1] = 0;  // unused dimension: fine
  EXPECT_EQ(vxSetNodeAttribute(n, VX_NODE_ATTRIBUTE_KERNEL_EXECUTION_PARAMETERS, &q, sizeof q), VX_SUCCESS);
  EXPECT_EQ(vxSetNodeAttribute(n, VX_NODE_ATTRIBUTE_KERNEL_EXECUTION_PARAMETERS, &q, sizeof q - 4),
            VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxSetNodeAttribute(n, 0x12345, &q, sizeof q), VX_ERROR_NOT_SUPPORTED);
  // The rejected ones did not replace the stored parameters.
  ASSERT_EQ(rknnopHostGetExecutionParameters(n, &back, nullptr), VX_SUCCESS);
  EXPECT_EQ(back.workDim, 1U);
  vxReleaseNode(&n);
  vxReleaseTensor(&in);
  vxReleaseTensor(&out);
}

// --- shader kernels -----------------------------------------------------------------------------

struct executor_record {
  int calls = 0;
  std::string name;
  vx_uint32 num = 0;
  vx_uint32 work_dim = 0;
  vx_size global0 = 0;
  vx_enum param1_type = 0;
  vx_tensor param0 = nullptr;
};

vx_status VX_CALLBACK shader_init(vx_node node, const vx_reference*, vx_uint32) {
  vx_kernel_execution_parameters_t p{};
  p.workDim = 3;
  p.globalWorkScale[0] = 8;
  p.globalWorkScale[1] = p.globalWorkScale[2] = 1;
  p.globalWorkSize[0] = 8;
  p.globalWorkSize[1] = 4;
  p.globalWorkSize[2] = 1;
  vx_status status = vxSetNodeAttribute(node, VX_NODE_ATTRIBUTE_KERNEL_EXECUTION_PARAMETERS, &p, sizeof p);
  if (status != VX_SUCCESS) return status;
  vx_uint32 uni512[16];
  for (vx_uint32 i = 0; i < 16; ++i) uni512[i] = 0x100 + i;
  float scale = 0.25f;
  status = vxSetNodeUniform(node, "uniConvert_512", 1, uni512);
  if (status == VX_SUCCESS) status = vxSetNodeUniform(node, "scale", 1, &scale);
  return status;
}

vx_status shader_execute(void* user, vx_node, const rknnop_host_kernel_info* info, const vx_reference* params,
                         vx_uint32 num) {
  auto& record = *static_cast<executor_record*>(user);
  ++record.calls;
  record.name = info->name;
  record.num = num;
  if (info->execution_parameters != nullptr) {
    record.work_dim = info->execution_parameters->workDim;
    record.global0 = info->execution_parameters->globalWorkSize[0];
  }
  record.param1_type = info->params[1].direction == VX_OUTPUT ? info->params[1].data_type : 0;
  record.param0 = reinterpret_cast<vx_tensor>(params[0]);
  return VX_SUCCESS;
}

vx_size uniform_size(void*, vx_node, const vx_char* kernel_name, const vx_char* uniform_name, vx_size count) {
  // What a shader source parser would say: uni* are VXC_512Bits (64 bytes).
  if (std::string(kernel_name) == "shaderop" && std::strncmp(uniform_name, "uni", 3) == 0) return 64 * count;
  return 0;
}

TEST_F(runtime_graph, shader_kernel_without_executor_is_not_supported) {
  vx_kernel k = add_two_tensor_kernel(ctx, "shaderop", nullptr, nullptr, shader_init, nullptr);
  vx_tensor in = make_tensor({8, 4});
  vx_tensor out = make_tensor({8, 4});
  vx_node n = vxCreateGenericNode(graph, k);
  vxSetParameterByIndex(n, 0, ref(in));
  vxSetParameterByIndex(n, 1, ref(out));
  EXPECT_EQ(vxProcessGraph(graph), VX_ERROR_NOT_SUPPORTED);
  EXPECT_NE(last_log(ref(n)).find("failed with -3"), std::string::npos);
  std::vector<char> log(4096);
  ASSERT_EQ(rknnopHostGetLog(ctx, log.data(), log.size(), nullptr), VX_SUCCESS);
  EXPECT_NE(std::string(log.data()).find("'shaderop' is a shader kernel and no shader executor"), std::string::npos);
  // Without an executor's size callback a uniform is count * 4 bytes.
  vx_uint32 count = 0;
  ASSERT_EQ(rknnopHostGetNodeUniformCount(n, &count), VX_SUCCESS);
  ASSERT_EQ(count, 2U);
  vx_size size = 0;
  ASSERT_EQ(rknnopHostGetNodeUniform(n, 0, nullptr, nullptr, &size), VX_SUCCESS);
  EXPECT_EQ(size, 4U);
  vxReleaseNode(&n);
  vxReleaseTensor(&in);
  vxReleaseTensor(&out);
  vxReleaseKernel(&k);
}

TEST_F(runtime_graph, shader_kernel_runs_through_the_executor) {
  executor_record record;
  ASSERT_EQ(rknnopHostSetShaderExecutor(ctx, shader_execute, uniform_size, &record), VX_SUCCESS);
  vx_kernel k = add_two_tensor_kernel(ctx, "shaderop", nullptr, nullptr, shader_init, nullptr);
  vx_tensor in = make_tensor({8, 4});
  vx_tensor out = make_tensor({8, 4});
  vx_node n = vxCreateGenericNode(graph, k);
  vxSetParameterByIndex(n, 0, ref(in));
  vxSetParameterByIndex(n, 1, ref(out));
  ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS) << last_log(ref(ctx));
  EXPECT_EQ(record.calls, 1);
  EXPECT_EQ(record.name, "shaderop");
  EXPECT_EQ(record.num, 2U);
  EXPECT_EQ(record.work_dim, 3U);
  EXPECT_EQ(record.global0, 8U);
  EXPECT_EQ(record.param1_type, VX_TYPE_TENSOR);
  EXPECT_EQ(record.param0, in);

  vx_uint32 count = 0;
  ASSERT_EQ(rknnopHostGetNodeUniformCount(n, &count), VX_SUCCESS);
  ASSERT_EQ(count, 2U);
  const vx_char* name = nullptr;
  const void* data = nullptr;
  vx_size size = 0;
  ASSERT_EQ(rknnopHostGetNodeUniform(n, 0, &name, &data, &size), VX_SUCCESS);
  EXPECT_STREQ(name, "uniConvert_512");
  ASSERT_EQ(size, 64U);
  vx_uint32 words[16];
  std::memcpy(words, data, sizeof words);
  EXPECT_EQ(words[0], 0x100U);
  EXPECT_EQ(words[15], 0x10FU);
  ASSERT_EQ(rknnopHostGetNodeUniform(n, 1, &name, &data, &size), VX_SUCCESS);
  EXPECT_STREQ(name, "scale");
  ASSERT_EQ(size, 4U);
  float scale = 0;
  std::memcpy(&scale, data, sizeof scale);
  EXPECT_EQ(scale, 0.25f);
  EXPECT_EQ(rknnopHostGetNodeUniform(n, 2, &name, &data, &size), VX_ERROR_INVALID_PARAMETERS);

  // Setting a uniform again replaces it in place.
  float other = 2.0f;
  ASSERT_EQ(vxSetNodeUniform(n, "scale", 1, &other), VX_SUCCESS);
  ASSERT_EQ(rknnopHostGetNodeUniformCount(n, &count), VX_SUCCESS);
  EXPECT_EQ(count, 2U);
  ASSERT_EQ(rknnopHostGetNodeUniform(n, 1, &name, &data, &size), VX_SUCCESS);
  std::memcpy(&scale, data, sizeof scale);
  EXPECT_EQ(scale, 2.0f);
  EXPECT_EQ(vxSetNodeUniform(n, nullptr, 1, &other), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxSetNodeUniform(n, "x", 0, &other), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxSetNodeUniform(nullptr, "x", 1, &other), VX_ERROR_INVALID_REFERENCE);

  ASSERT_EQ(rknnopHostSetShaderExecutor(ctx, nullptr, nullptr, nullptr), VX_SUCCESS);
  EXPECT_EQ(vxProcessGraph(graph), VX_ERROR_NOT_SUPPORTED);
  vxReleaseNode(&n);
  vxReleaseTensor(&in);
  vxReleaseTensor(&out);
  vxReleaseKernel(&k);
}

}  // namespace

namespace {

TEST(runtime_teardown, releasing_the_context_deinitializes_live_graphs) {
  vx_context ctx = vxCreateContext();
  vx_kernel k = register_kernel_description(ctx, vx_kernel_ScaleBias_list[0]);
  vx_size dims[1] = {8};
  vx_tensor in = vxCreateTensor(ctx, 1, dims, VX_TYPE_FLOAT32, 0);
  vx_graph g = vxCreateGraph(ctx);
  vx_tensor out = vxCreateVirtualTensor(g, 0, nullptr, VX_TYPE_FLOAT32, 0);
  vx_node n = vxCreateGenericNode(g, k);
  vx_int32 bias = 0;
  vx_array a = vxCreateArray(ctx, VX_TYPE_INT32, 1);
  vxAddArrayItems(a, 1, &bias, sizeof bias);
  float scale = 1.0f;
  vx_scalar s = vxCreateScalar(ctx, VX_TYPE_FLOAT32, &scale);
  vx_bool no = vx_false_e;
  vx_scalar b = vxCreateScalar(ctx, VX_TYPE_BOOL, &no);
  const vx_reference params[5] = {ref(in), ref(out), ref(a), ref(s), ref(b)};
  for (vx_uint32 i = 0; i < 5; ++i) ASSERT_EQ(vxSetParameterByIndex(n, i, params[i]), VX_SUCCESS);
  ASSERT_EQ(vxProcessGraph(g), VX_SUCCESS) << last_log(ref(ctx));
  const int deinit_before = scale_bias_deinit_calls();
  // Nothing released by hand: the context takes everything with it (ASan/LSan check the rest).
  ASSERT_EQ(vxReleaseContext(&ctx), VX_SUCCESS);
  EXPECT_EQ(scale_bias_deinit_calls(), deinit_before + 1);
  EXPECT_EQ(vxGetStatus(ref(n)), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxGetStatus(ref(k)), VX_ERROR_INVALID_REFERENCE);
}

TEST(runtime_teardown, user_cannot_release_more_than_it_owns) {
  vx_context ctx = vxCreateContext();
  vx_size dims[1] = {2};
  vx_tensor t = vxCreateTensor(ctx, 1, dims, VX_TYPE_FLOAT32, 0);
  vx_reference extra = ref(t);
  ASSERT_EQ(vxRetainReference(extra), VX_SUCCESS);
  vx_tensor again = t;
  EXPECT_EQ(vxReleaseTensor(&t), VX_SUCCESS);
  EXPECT_EQ(vxReleaseTensor(&again), VX_SUCCESS);
  EXPECT_EQ(vxReleaseReference(&extra), VX_ERROR_INVALID_REFERENCE);  // already freed
  EXPECT_EQ(vxReleaseContext(&ctx), VX_SUCCESS);
}

}  // namespace

// SPDX-License-Identifier: MIT
// vxSetMetaFormatAttribute(VX_TENSOR_DIMS) as the boards' driver reads it (docs/runtime.md §9, from
// vxoMetaFormat_SetAttribute in Rockchip's libOpenVX.so.1.2 build 63175039): size / sizeof(vx_size)
// values of vx_size, at most 6, though vxQueryTensor answers uint32 dims. What the driver would
// garble (uint32 dims: a size that is not a multiple of 8 on 64-bit, two dims in one value, fewer
// values than VX_TENSOR_NUMBER_OF_DIMS) is refused with a log entry saying why.
#include "runtime_test_util.hpp"

#include <cstdint>
#include <cstring>
#include <vector>

using namespace rknnop_test;

namespace {

// The bytes the validator passes for VX_TENSOR_DIMS, and whether it sets VX_TENSOR_NUMBER_OF_DIMS first.
std::vector<unsigned char> dims_bytes;
bool set_rank_first = true;
vx_uint32 rank_to_set = 0;
vx_status dims_status = VX_FAILURE;

vx_status VX_CALLBACK nothing(vx_node, const vx_reference*, vx_uint32) { return VX_SUCCESS; }

vx_status VX_CALLBACK validator(vx_node, const vx_reference[], vx_uint32, vx_meta_format metas[]) {
  if (set_rank_first) {
    const vx_status s = vxSetMetaFormatAttribute(metas[1], VX_TENSOR_NUMBER_OF_DIMS, &rank_to_set, sizeof rank_to_set);
    if (s != VX_SUCCESS) return s;
  }
  alignas(8) unsigned char buffer[64] = {};
  std::memcpy(buffer, dims_bytes.data(), dims_bytes.size());
  dims_status = vxSetMetaFormatAttribute(metas[1], VX_TENSOR_DIMS, buffer, dims_bytes.size());
  if (dims_status != VX_SUCCESS) return dims_status;
  const vx_enum type = VX_TYPE_FLOAT16;
  return vxSetMetaFormatAttribute(metas[1], VX_TENSOR_DATA_TYPE, &type, sizeof type);
}

template <class T>
std::vector<unsigned char> bytes_of(std::vector<T> values) {
  std::vector<unsigned char> out(values.size() * sizeof(T));
  std::memcpy(out.data(), values.data(), out.size());
  return out;
}

class runtime_meta_dims : public context_test {
protected:
  void SetUp() override {
    context_test::SetUp();
    set_rank_first = true;
    dims_status = VX_FAILURE;
    vx_kernel k = vxAddUserKernel(ctx, "meta_dims", 0x7FF00320, nothing, 2, validator, nullptr, nullptr);
    ASSERT_EQ(vxAddParameterToKernel(k, 0, VX_INPUT, VX_TYPE_TENSOR, VX_PARAMETER_STATE_REQUIRED), VX_SUCCESS);
    ASSERT_EQ(vxAddParameterToKernel(k, 1, VX_OUTPUT, VX_TYPE_TENSOR, VX_PARAMETER_STATE_REQUIRED), VX_SUCCESS);
    ASSERT_EQ(vxFinalizeKernel(k), VX_SUCCESS);
    graph = vxCreateGraph(ctx);
    const vx_size in_dims[1] = {1};
    vx_tensor in = vxCreateTensor(ctx, 1, in_dims, VX_TYPE_FLOAT16, 0);
    out = vxCreateVirtualTensor(graph, 0, nullptr, VX_TYPE_INVALID, 0);
    node = vxCreateGenericNode(graph, k);
    ASSERT_EQ(vxSetParameterByIndex(node, 0, ref(in)), VX_SUCCESS);
    ASSERT_EQ(vxSetParameterByIndex(node, 1, ref(out)), VX_SUCCESS);
  }
  std::string whole_log() const {
    vx_size size = 0;
    if (rknnopHostGetLog(ctx, nullptr, 0, &size) != VX_SUCCESS || size == 0) return {};
    std::string text(size, '\0');
    rknnopHostGetLog(ctx, text.data(), size, nullptr);
    return text;
  }
  std::vector<vx_uint32> output_dims() {
    rknnop_host_tensor_buffer b{};
    if (rknnopHostGetTensorBuffer(out, VX_READ_ONLY, &b) != VX_SUCCESS) return {};
    return {b.dims, b.dims + b.num_dims};
  }
  vx_graph graph = nullptr;
  vx_node node = nullptr;
  vx_tensor out = nullptr;
};

TEST_F(runtime_meta_dims, vx_size_dims_give_the_output_its_shape) {
  rank_to_set = 4;
  dims_bytes = bytes_of(std::vector<vx_size>{3, 5, 7, 1});
  ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS) << last_log(ref(ctx));
  EXPECT_EQ(output_dims(), (std::vector<vx_uint32>{3, 5, 7, 1}));
}

TEST_F(runtime_meta_dims, vx_size_dims_without_rank_first) {
  set_rank_first = false;
  dims_bytes = bytes_of(std::vector<vx_size>{2, 9});
  ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS) << last_log(ref(ctx));
  EXPECT_EQ(output_dims(), (std::vector<vx_uint32>{2, 9}));
}

TEST_F(runtime_meta_dims, odd_rank_of_uint32_dims_is_refused) {
  rank_to_set = 3;
  dims_bytes = bytes_of(std::vector<vx_uint32>{3, 5, 7});
  if (sizeof(vx_size) == sizeof(vx_uint32)) GTEST_SKIP() << "vx_size is 4 bytes here: uint32 dims are vx_size dims";
  EXPECT_EQ(vxVerifyGraph(graph), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(dims_status, VX_ERROR_INVALID_PARAMETERS);
  EXPECT_NE(whole_log().find("vxSetMetaFormatAttribute(VX_TENSOR_DIMS, size 12): the driver reads size / 8 "
                             "values of vx_size (not vx_uint32); pass rank * sizeof(vx_size) bytes"),
            std::string::npos)
      << whole_log();
}

TEST_F(runtime_meta_dims, even_rank_of_uint32_dims_is_refused_not_garbled) {
  if (sizeof(vx_size) == sizeof(vx_uint32)) GTEST_SKIP() << "vx_size is 4 bytes here: uint32 dims are vx_size dims";
  // With the rank set: 16 bytes are 2 vx_size values, not 4 dims (the driver would keep 3 and 7).
  rank_to_set = 4;
  dims_bytes = bytes_of(std::vector<vx_uint32>{3, 5, 7, 1});
  EXPECT_EQ(vxVerifyGraph(graph), VX_ERROR_INVALID_DIMENSION);
  EXPECT_NE(whole_log().find("2 vx_size values but VX_TENSOR_NUMBER_OF_DIMS is 4"), std::string::npos) << whole_log();
  // Without it: the first value holds two dims.
  set_rank_first = false;
  EXPECT_EQ(vxVerifyGraph(graph), VX_ERROR_INVALID_DIMENSION);
  EXPECT_NE(whole_log().find("dim 0 is 21474836483, which the driver would keep as 3 (two vx_uint32 dims "
                             "in one vx_size?)"),
            std::string::npos)
      << whole_log();
}

TEST_F(runtime_meta_dims, more_than_six_dims_are_refused) {
  set_rank_first = false;
  dims_bytes = bytes_of(std::vector<vx_size>{1, 1, 1, 1, 1, 1, 1});
  EXPECT_EQ(vxVerifyGraph(graph), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_NE(whole_log().find("more than 6 dims"), std::string::npos) << whole_log();
}

TEST_F(runtime_meta_dims, khronos_mode_reads_dims_the_same_way) {
  ASSERT_EQ(rknnopHostSetKhronosMode(ctx, vx_true_e), VX_SUCCESS);
  set_rank_first = false;
  dims_bytes = bytes_of(std::vector<vx_size>{4, 6, 8});
  ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS) << last_log(ref(ctx));
  EXPECT_EQ(output_dims(), (std::vector<vx_uint32>{4, 6, 8}));
}

}  // namespace

// The context's tensor memory limit (rknnopHostSetTensorMemoryLimit) is checked when verification
// allocates a virtual output, before the memory is taken: a validator's huge shape is one log entry.
TEST_F(runtime_meta_dims, a_virtual_output_over_the_tensor_memory_limit_is_refused_at_verify) {
  rank_to_set = 4;
  dims_bytes = bytes_of(std::vector<vx_size>{3, 16384, 16384, 1});  // 1.5 GiB of FLOAT16
  ASSERT_EQ(rknnopHostSetTensorMemoryLimit(ctx, vx_size{64} << 20), VX_SUCCESS);
  EXPECT_EQ(vxVerifyGraph(graph), VX_ERROR_NO_MEMORY);
  const std::string log = whole_log();
  EXPECT_NE(log.find("kernel 'meta_dims' parameter 1: cannot allocate 1610612736 bytes for dims [3, 16384, 16384, 1] "
                     "of FLOAT16: over the context's tensor memory limit of 67108864 bytes"),
            std::string::npos)
      << log;
  EXPECT_TRUE(output_dims().empty());  // not allocated
  vx_size in_use = 0;
  ASSERT_EQ(rknnopHostGetTensorMemory(ctx, &in_use, nullptr), VX_SUCCESS);
  EXPECT_EQ(in_use, 2u);  // the one-element FLOAT16 input only
}

TEST_F(runtime_meta_dims, a_virtual_output_within_the_tensor_memory_limit_is_allocated) {
  rank_to_set = 4;
  dims_bytes = bytes_of(std::vector<vx_size>{3, 128, 128, 1});  // 96 KiB of FLOAT16
  ASSERT_EQ(rknnopHostSetTensorMemoryLimit(ctx, vx_size{96} << 10), VX_SUCCESS);
  EXPECT_EQ(vxVerifyGraph(graph), VX_ERROR_NO_MEMORY);  // with the 2-byte input: 2 bytes over
  EXPECT_NE(whole_log().find("its tensors hold 2)"), std::string::npos) << whole_log();
  ASSERT_EQ(rknnopHostSetTensorMemoryLimit(ctx, (vx_size{96} << 10) + 2), VX_SUCCESS);
  ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS) << whole_log();
  EXPECT_EQ(output_dims(), (std::vector<vx_uint32>{3, 128, 128, 1}));
  vx_size in_use = 0;
  ASSERT_EQ(rknnopHostGetTensorMemory(ctx, &in_use, nullptr), VX_SUCCESS);
  EXPECT_EQ(in_use, (vx_size{96} << 10) + 2);
}

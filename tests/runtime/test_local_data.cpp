// SPDX-License-Identifier: MIT
// Node local data (VX_NODE_LOCAL_DATA_SIZE / _PTR), with the rules of Khronos' sample implementation:
// set only from the node's initializer or deinitializer; a size without a pointer gets a zeroed block
// from the runtime; whatever pointer is still set when the node is deinitialized is freed by the
// runtime. (The ASan build checks the frees: a leak or a double free fails it.)
#include "runtime_test_util.hpp"

#include <cstdlib>
#include <cstring>

using namespace rknnop_test;

namespace {

// What the callbacks of the test kernels saw and did.
struct record {
  vx_status set_size = VX_FAILURE, set_ptr = VX_FAILURE, set_outside = VX_FAILURE, wrong_size = VX_FAILURE;
  void* seen_by_kernel = nullptr;
  vx_size size_seen_by_kernel = 0;
  unsigned char first_byte_seen = 0xFF;
  int inits = 0, deinits = 0;
};
record rec;

enum class mode { size_only, own_pointer, own_pointer_cleared };
mode current = mode::size_only;

vx_status VX_CALLBACK init(vx_node node, const vx_reference*, vx_uint32) {
  ++rec.inits;
  const vx_size size = 24;
  rec.set_size = vxSetNodeAttribute(node, VX_NODE_LOCAL_DATA_SIZE, &size, sizeof size);
  const unsigned char wrong[2] = {};
  rec.wrong_size = vxSetNodeAttribute(node, VX_NODE_LOCAL_DATA_SIZE, wrong, sizeof wrong);
  if (current != mode::size_only) {
    void* mine = std::malloc(size);
    std::memset(mine, 0x5A, size);
    rec.set_ptr = vxSetNodeAttribute(node, VX_NODE_LOCAL_DATA_PTR, &mine, sizeof mine);
  }
  return VX_SUCCESS;
}

vx_status VX_CALLBACK kernel(vx_node node, const vx_reference*, vx_uint32) {
  void* p = nullptr;
  vx_status s = vxQueryNode(node, VX_NODE_LOCAL_DATA_PTR, &p, sizeof p);
  if (s != VX_SUCCESS) return s;
  s = vxQueryNode(node, VX_NODE_LOCAL_DATA_SIZE, &rec.size_seen_by_kernel, sizeof rec.size_seen_by_kernel);
  if (s != VX_SUCCESS) return s;
  rec.seen_by_kernel = p;
  if (p != nullptr) std::memcpy(&rec.first_byte_seen, p, 1);
  void* other = nullptr;
  rec.set_outside = vxSetNodeAttribute(node, VX_NODE_LOCAL_DATA_PTR, &other, sizeof other);
  return VX_SUCCESS;
}

vx_status VX_CALLBACK deinit(vx_node node, const vx_reference*, vx_uint32) {
  ++rec.deinits;
  if (current != mode::own_pointer_cleared) return VX_SUCCESS;
  void* p = nullptr;
  if (vxQueryNode(node, VX_NODE_LOCAL_DATA_PTR, &p, sizeof p) != VX_SUCCESS) return VX_FAILURE;
  void* const none = nullptr;
  const vx_status s = vxSetNodeAttribute(node, VX_NODE_LOCAL_DATA_PTR, &none, sizeof none);
  if (s == VX_SUCCESS) std::free(p);
  return s;
}

class runtime_local_data : public context_test {
protected:
  void SetUp() override {
    context_test::SetUp();
    rec = record{};
    k = vxAddUserKernel(ctx, "local_data", 0x7FF00310, kernel, 0, nullptr, init, deinit);
    ASSERT_NE(k, nullptr);
    ASSERT_EQ(vxFinalizeKernel(k), VX_SUCCESS);
    g = vxCreateGraph(ctx);
    n = vxCreateGenericNode(g, k);
    ASSERT_NE(n, nullptr);
  }
  void TearDown() override {
    vxReleaseNode(&n);
    if (g != nullptr) vxReleaseGraph(&g);
    vxReleaseKernel(&k);
    context_test::TearDown();
  }
  vx_kernel k = nullptr;
  vx_graph g = nullptr;
  vx_node n = nullptr;
};

TEST_F(runtime_local_data, size_without_pointer_gets_a_zeroed_block) {
  current = mode::size_only;
  ASSERT_EQ(vxProcessGraph(g), VX_SUCCESS) << last_log(ref(n));
  EXPECT_EQ(rec.set_size, VX_SUCCESS);
  EXPECT_EQ(rec.wrong_size, VX_ERROR_INVALID_PARAMETERS);
  ASSERT_NE(rec.seen_by_kernel, nullptr);
  EXPECT_EQ(rec.size_seen_by_kernel, 24U);
  EXPECT_EQ(rec.first_byte_seen, 0U);
  // Outside the (de)initializer the local data is read-only.
  EXPECT_EQ(rec.set_outside, VX_ERROR_NOT_SUPPORTED);
  EXPECT_NE(last_log(ref(n)).find("only while the node's initializer or deinitializer runs"), std::string::npos);
  void* p = nullptr;
  EXPECT_EQ(vxSetNodeAttribute(n, VX_NODE_LOCAL_DATA_PTR, &p, sizeof p), VX_ERROR_NOT_SUPPORTED);
  EXPECT_EQ(vxQueryNode(n, VX_NODE_LOCAL_DATA_PTR, &p, 2), VX_ERROR_INVALID_PARAMETERS);
  ASSERT_EQ(vxQueryNode(n, VX_NODE_LOCAL_DATA_PTR, &p, sizeof p), VX_SUCCESS);
  EXPECT_EQ(p, rec.seen_by_kernel);
}

TEST_F(runtime_local_data, kernel_pointer_is_kept_and_freed_by_the_runtime) {
  current = mode::own_pointer;
  ASSERT_EQ(vxProcessGraph(g), VX_SUCCESS) << last_log(ref(n));
  EXPECT_EQ(rec.set_ptr, VX_SUCCESS);
  EXPECT_EQ(rec.first_byte_seen, 0x5AU);  // the kernel's own block, not a runtime one
  // Re-verifying deinitializes (the runtime frees the block still set) and initializes again.
  ASSERT_EQ(vxVerifyGraph(g), VX_SUCCESS);
  EXPECT_EQ(rec.deinits, 1);
  EXPECT_EQ(rec.inits, 2);
  ASSERT_EQ(vxReleaseGraph(&g), VX_SUCCESS);  // frees the second block
  EXPECT_EQ(rec.deinits, 2);
  void* p = reinterpret_cast<void*>(1);
  ASSERT_EQ(vxQueryNode(n, VX_NODE_LOCAL_DATA_PTR, &p, sizeof p), VX_SUCCESS);
  EXPECT_EQ(p, nullptr);
  vx_size size = 1;
  ASSERT_EQ(vxQueryNode(n, VX_NODE_LOCAL_DATA_SIZE, &size, sizeof size), VX_SUCCESS);
  EXPECT_EQ(size, 0U);
}

TEST_F(runtime_local_data, deinitializer_may_clear_and_free_its_block) {
  current = mode::own_pointer_cleared;
  ASSERT_EQ(vxProcessGraph(g), VX_SUCCESS) << last_log(ref(n));
  ASSERT_EQ(vxVerifyGraph(g), VX_SUCCESS);
  ASSERT_EQ(vxReleaseGraph(&g), VX_SUCCESS);
  EXPECT_EQ(rec.deinits, 2);  // each freed its block; a second free by the runtime would fail under ASan
}

}  // namespace

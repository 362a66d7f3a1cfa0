// SPDX-License-Identifier: MIT
// Node local data (VX_NODE_LOCAL_DATA_SIZE / _PTR) by the rules of the boards' driver (docs/runtime.md
// §9, read from Rockchip's libOpenVX.so.1.2 build 63175039): settable from the initializer while the
// size is still 0 and from the deinitializer unless the driver owns the block, never on a verified
// graph (else -3); the value is sizeof(vx_size) / sizeof(void*) bytes at a 4-byte aligned address
// (else -10); a size without a pointer gets a zeroed block of the driver's own that survives
// re-verification; node destruction frees whatever pointer is still set with that allocator, so a
// kernel's malloc'd block left there is reported (and not freed). The ASan build checks the frees.
#include "runtime_test_util.hpp"

#include <cstdlib>
#include <cstring>

using namespace rknnop_test;

namespace {

// What the callbacks of the test kernels saw and did.
struct record {
  vx_status set_size = VX_FAILURE, set_ptr = VX_FAILURE, set_outside = VX_FAILURE, wrong_size = VX_FAILURE;
  vx_status misaligned = VX_FAILURE, deinit_set = VX_FAILURE;
  void* seen_by_kernel = nullptr;
  void* kernel_block = nullptr;  // a malloc'd block the test frees itself when the runtime must not
  vx_size size_seen_by_kernel = 0;
  unsigned char first_byte_seen = 0xFF;
  int inits = 0, deinits = 0;
};
record rec;

enum class mode { size_only, own_pointer, own_pointer_cleared, own_pointer_failing_init };
mode current = mode::size_only;

vx_status VX_CALLBACK init(vx_node node, const vx_reference*, vx_uint32) {
  ++rec.inits;
  const vx_size size = 24;
  rec.set_size = vxSetNodeAttribute(node, VX_NODE_LOCAL_DATA_SIZE, &size, sizeof size);
  const unsigned char wrong[2] = {};
  rec.wrong_size = vxSetNodeAttribute(node, VX_NODE_LOCAL_DATA_SIZE, wrong, sizeof wrong);
  alignas(8) unsigned char bytes[16] = {};
  rec.misaligned = vxSetNodeAttribute(node, VX_NODE_LOCAL_DATA_SIZE, bytes + 2, sizeof(vx_size));
  if (current != mode::size_only) {
    void* mine = std::malloc(size);
    std::memset(mine, 0x5A, size);
    rec.set_ptr = vxSetNodeAttribute(node, VX_NODE_LOCAL_DATA_PTR, &mine, sizeof mine);
    if (rec.set_ptr == VX_SUCCESS)
      rec.kernel_block = mine;
    else
      std::free(mine);
  }
  return current == mode::own_pointer_failing_init ? VX_ERROR_NO_RESOURCES : VX_SUCCESS;
}

vx_status VX_CALLBACK kernel(vx_node node, const vx_reference*, vx_uint32) {
  void* p = nullptr;
  vx_status s = vxQueryNode(node, VX_NODE_LOCAL_DATA_PTR, &p, sizeof p);
  if (s != VX_SUCCESS) return s;
  s = vxQueryNode(node, VX_NODE_LOCAL_DATA_SIZE, &rec.size_seen_by_kernel, sizeof rec.size_seen_by_kernel);
  if (s != VX_SUCCESS) return s;
  rec.seen_by_kernel = p;
  if (p != nullptr) {
    std::memcpy(&rec.first_byte_seen, p, 1);
    static_cast<unsigned char*>(p)[0] = 0x77;  // seen again after a re-verification: the block stays
  }
  void* other = nullptr;
  rec.set_outside = vxSetNodeAttribute(node, VX_NODE_LOCAL_DATA_PTR, &other, sizeof other);
  return VX_SUCCESS;
}

vx_status VX_CALLBACK deinit(vx_node node, const vx_reference*, vx_uint32) {
  ++rec.deinits;
  const vx_size size = 24;
  rec.deinit_set = vxSetNodeAttribute(node, VX_NODE_LOCAL_DATA_SIZE, &size, sizeof size);
  if (current != mode::own_pointer_cleared) return VX_SUCCESS;
  void* p = nullptr;
  if (vxQueryNode(node, VX_NODE_LOCAL_DATA_PTR, &p, sizeof p) != VX_SUCCESS) return VX_FAILURE;
  if (p != rec.kernel_block) return VX_SUCCESS;  // the runtime's block: never the kernel's to free
  void* const none = nullptr;
  const vx_status s = vxSetNodeAttribute(node, VX_NODE_LOCAL_DATA_PTR, &none, sizeof none);
  if (s == VX_SUCCESS) {
    std::free(p);
    rec.kernel_block = nullptr;
  }
  return s;
}

class runtime_local_data : public context_test {
protected:
  void SetUp() override {
    context_test::SetUp();
    rec = record{};
    foreign_before = rknnopHostGetForeignLocalDataCount();
    k = vxAddUserKernel(ctx, "local_data", 0x7FF00310, kernel, 1, nullptr, init, deinit);
    ASSERT_NE(k, nullptr);
    ASSERT_EQ(vxAddParameterToKernel(k, 0, VX_INPUT, VX_TYPE_SCALAR, VX_PARAMETER_STATE_OPTIONAL), VX_SUCCESS);
    ASSERT_EQ(vxFinalizeKernel(k), VX_SUCCESS);
    g = vxCreateGraph(ctx);
    n = vxCreateGenericNode(g, k);
    ASSERT_NE(n, nullptr);
  }
  void TearDown() override {
    if (changed != nullptr) vxReleaseScalar(&changed);
    vxReleaseNode(&n);
    if (g != nullptr) vxReleaseGraph(&g);
    vxReleaseKernel(&k);
    context_test::TearDown();
    std::free(rec.kernel_block);  // only ever set while the runtime must not free it
  }
  std::string whole_log() const {
    vx_size size = 0;
    if (rknnopHostGetLog(ctx, nullptr, 0, &size) != VX_SUCCESS || size == 0) return {};
    std::string text(size, '\0');
    rknnopHostGetLog(ctx, text.data(), size, nullptr);
    return text;
  }
  // Node destructions since SetUp that found a pointer the runtime did not allocate.
  vx_uint32 foreign_blocks() const { return rknnopHostGetForeignLocalDataCount() - foreign_before; }
  // Sets the node's parameter: the driver re-verifies with a deinitializer pass first only then.
  void change_parameter() {
    if (changed != nullptr) vxReleaseScalar(&changed);
    const vx_int32 value = 1;
    changed = vxCreateScalar(ctx, VX_TYPE_INT32, &value);
    ASSERT_EQ(vxSetParameterByIndex(n, 0, ref(changed)), VX_SUCCESS);
  }
  vx_kernel k = nullptr;
  vx_graph g = nullptr;
  vx_node n = nullptr;
  vx_scalar changed = nullptr;
  vx_uint32 foreign_before = 0;
};

TEST_F(runtime_local_data, size_without_pointer_gets_a_zeroed_block_of_the_runtime) {
  current = mode::size_only;
  ASSERT_EQ(vxProcessGraph(g), VX_SUCCESS) << last_log(ref(n));
  EXPECT_EQ(rec.set_size, VX_SUCCESS);
  EXPECT_EQ(rec.wrong_size, VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(rec.misaligned, VX_ERROR_INVALID_PARAMETERS);
  ASSERT_NE(rec.seen_by_kernel, nullptr);
  EXPECT_EQ(rec.size_seen_by_kernel, 24U);
  EXPECT_EQ(rec.first_byte_seen, 0U);
  // Outside the (de)initializer, and on a verified graph, the local data is read-only.
  EXPECT_EQ(rec.set_outside, VX_ERROR_NOT_SUPPORTED);
  EXPECT_NE(last_log(ref(n)).find("the node's graph is verified"), std::string::npos) << last_log(ref(n));
  void* p = nullptr;
  EXPECT_EQ(vxSetNodeAttribute(n, VX_NODE_LOCAL_DATA_PTR, &p, sizeof p), VX_ERROR_NOT_SUPPORTED);
  EXPECT_EQ(vxQueryNode(n, VX_NODE_LOCAL_DATA_PTR, &p, 2), VX_ERROR_INVALID_PARAMETERS);
  ASSERT_EQ(vxQueryNode(n, VX_NODE_LOCAL_DATA_PTR, &p, sizeof p), VX_SUCCESS);
  EXPECT_EQ(p, rec.seen_by_kernel);
  ASSERT_EQ(vxReleaseGraph(&g), VX_SUCCESS);
  vxReleaseNode(&n);  // the runtime frees its own block
  EXPECT_EQ(foreign_blocks(), 0U);
}

TEST_F(runtime_local_data, block_of_the_runtime_survives_reverification_and_is_not_settable) {
  current = mode::size_only;
  ASSERT_EQ(vxProcessGraph(g), VX_SUCCESS) << last_log(ref(n));
  void* const block = rec.seen_by_kernel;
  change_parameter();
  ASSERT_EQ(vxVerifyGraph(g), VX_SUCCESS) << last_log(ref(n));
  // The deinitializer may not touch the runtime's block; the second initializer finds the size set.
  EXPECT_EQ(rec.deinits, 1);
  EXPECT_EQ(rec.deinit_set, VX_ERROR_NOT_SUPPORTED);
  EXPECT_EQ(rec.inits, 2);
  EXPECT_EQ(rec.set_size, VX_ERROR_NOT_SUPPORTED);
  EXPECT_NE(whole_log().find("VX_NODE_LOCAL_DATA_SIZE): local data can be set only while the node's initializer "
                             "runs and its size is still 0"),
            std::string::npos)
      << whole_log();
  ASSERT_EQ(vxProcessGraph(g), VX_SUCCESS) << last_log(ref(n));
  EXPECT_EQ(rec.seen_by_kernel, block);
  EXPECT_EQ(rec.first_byte_seen, 0x77U);  // what the first run wrote: not a new block
  // After a deinitializer the block is no longer marked the runtime's (as on the board): the
  // deinitializer of the release may set the size again; the block is still freed with the node.
  ASSERT_EQ(vxReleaseGraph(&g), VX_SUCCESS);
  EXPECT_EQ(rec.deinits, 2);
  EXPECT_EQ(rec.deinit_set, VX_SUCCESS);  // the release marks the graph unverified first
  vxReleaseNode(&n);
  EXPECT_EQ(foreign_blocks(), 0U);
}

TEST_F(runtime_local_data, kernel_pointer_left_set_is_reported_at_node_destruction_not_freed) {
  current = mode::own_pointer;
  ASSERT_EQ(vxProcessGraph(g), VX_SUCCESS) << last_log(ref(n));
  EXPECT_EQ(rec.set_ptr, VX_SUCCESS);
  EXPECT_EQ(rec.first_byte_seen, 0x5AU);  // the kernel's own block, not a runtime one
  ASSERT_EQ(vxReleaseGraph(&g), VX_SUCCESS);
  EXPECT_EQ(foreign_blocks(), 0U);  // the application still holds the node
  vxReleaseNode(&n);
  EXPECT_EQ(foreign_blocks(), 1U);  // the board's driver would free it with its own allocator
  EXPECT_NE(whole_log().find("kernel 'local_data': node destroyed with a local data pointer the runtime did not "
                             "allocate"),
            std::string::npos)
      << whole_log();
}

TEST_F(runtime_local_data, deinitializer_may_clear_and_free_its_own_block) {
  current = mode::own_pointer_cleared;
  ASSERT_EQ(vxProcessGraph(g), VX_SUCCESS) << last_log(ref(n));
  change_parameter();
  ASSERT_EQ(vxVerifyGraph(g), VX_SUCCESS);  // the first deinitializer clears and frees its block
  EXPECT_EQ(rec.deinits, 1);
  // The size stayed set: the second initializer may not set a pointer, the runtime gives a block.
  EXPECT_EQ(rec.inits, 2);
  EXPECT_EQ(rec.set_ptr, VX_ERROR_NOT_SUPPORTED);
  ASSERT_EQ(vxReleaseGraph(&g), VX_SUCCESS);
  EXPECT_EQ(rec.deinits, 2);
  vxReleaseNode(&n);
  EXPECT_EQ(foreign_blocks(), 0U);
}

TEST_F(runtime_local_data, failing_initializer_leaves_its_local_data_to_node_destruction) {
  current = mode::own_pointer_failing_init;
  EXPECT_EQ(vxVerifyGraph(g), VX_ERROR_NO_RESOURCES);
  EXPECT_EQ(rec.set_ptr, VX_SUCCESS);
  EXPECT_EQ(rec.deinits, 0);  // a node whose initializer failed is not deinitialized
  void* p = nullptr;
  ASSERT_EQ(vxQueryNode(n, VX_NODE_LOCAL_DATA_PTR, &p, sizeof p), VX_SUCCESS);
  EXPECT_EQ(p, rec.kernel_block);  // still set, as on the board
  ASSERT_EQ(vxReleaseGraph(&g), VX_SUCCESS);
  vxReleaseNode(&n);
  EXPECT_EQ(foreign_blocks(), 1U);
}

TEST_F(runtime_local_data, context_release_checks_the_blocks_of_live_nodes_too) {
  current = mode::own_pointer;
  ASSERT_EQ(vxProcessGraph(g), VX_SUCCESS) << last_log(ref(n));
  ASSERT_EQ(vxReleaseContext(&ctx), VX_SUCCESS);  // graph, node and kernel go with it
  g = nullptr;
  n = nullptr;
  k = nullptr;
  EXPECT_EQ(foreign_blocks(), 1U);
}

// The driver checks the window before the value: a wrong size outside the (de)initializer is -3, not -10.
TEST_F(runtime_local_data, outside_its_window_a_wrong_size_is_refused_for_the_window) {
  const unsigned char wrong[2] = {};
  EXPECT_EQ(vxSetNodeAttribute(n, VX_NODE_LOCAL_DATA_SIZE, wrong, sizeof wrong), VX_ERROR_NOT_SUPPORTED);
  const vx_size size = 24;
  EXPECT_EQ(vxSetNodeAttribute(n, VX_NODE_LOCAL_DATA_SIZE, &size, sizeof size), VX_ERROR_NOT_SUPPORTED);
}

}  // namespace

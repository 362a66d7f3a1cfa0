// SPDX-License-Identifier: MIT
// The CPU kernel keeps each node's tensor facts (rank, dims, dtype) as node local data, in a block the
// driver allocates for the size the initializer sets, and then asks the driver no tensor questions.
// The SDK must never hand the driver a pointer of its own (the board's driver frees any pointer still
// set at node destruction with its own allocator: docs/runtime.md §9), on any path: first
// verification, re-verification, a failing initializer, graph release. This program interposes
// vxQueryTensor, vxQueryNode and vxSetNodeAttribute (its own definitions win over libOpenVX's and
// forward to them), to count the kernel's questions and the pointers the SDK sets, and to play drivers
// that lack local data or hand back a block that is not the kernel's. Its own executable: the
// interposers would change every other test's driver.
#include <rknnop/op.hpp>

#include "vx_harness.hpp"

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <vector>

namespace {

enum class driver {
  full,           // the host runtime as it is
  no_local_data,  // refuses VX_NODE_LOCAL_DATA_SIZE and _PTR
  own_block,      // takes the size, refuses the pointer: allocates a zeroed block of its own
  foreign_block,  // answers every LOCAL_DATA_PTR query with `foreign`
};
driver current = driver::full;
void* foreign = nullptr;
int tensor_queries = 0;
int sdk_pointers = 0;  // non-NULL VX_NODE_LOCAL_DATA_PTR values set (the SDK must set none)

template <class F>
F next(const char* name) {
  return reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
}

}  // namespace

extern "C" vx_status vxQueryTensor(vx_tensor t, vx_enum attribute, void* ptr, vx_size size) {
  static const auto real = next<vx_status (*)(vx_tensor, vx_enum, void*, vx_size)>("vxQueryTensor");
  ++tensor_queries;
  return real(t, attribute, ptr, size);
}

extern "C" vx_status vxQueryNode(vx_node n, vx_enum attribute, void* ptr, vx_size size) {
  static const auto real = next<vx_status (*)(vx_node, vx_enum, void*, vx_size)>("vxQueryNode");
  if (current == driver::foreign_block && attribute == VX_NODE_LOCAL_DATA_PTR && size == sizeof(void*)) {
    std::memcpy(ptr, &foreign, sizeof foreign);
    return VX_SUCCESS;
  }
  return real(n, attribute, ptr, size);
}

extern "C" vx_status vxSetNodeAttribute(vx_node n, vx_enum attribute, const void* ptr, vx_size size) {
  static const auto real = next<vx_status (*)(vx_node, vx_enum, const void*, vx_size)>("vxSetNodeAttribute");
  const bool local = attribute == VX_NODE_LOCAL_DATA_SIZE || attribute == VX_NODE_LOCAL_DATA_PTR;
  if (attribute == VX_NODE_LOCAL_DATA_PTR && ptr != nullptr && size == sizeof(void*)) {
    void* value = nullptr;
    std::memcpy(&value, ptr, sizeof value);
    if (value != nullptr) ++sdk_pointers;
  }
  if (local && current == driver::no_local_data) return VX_ERROR_NOT_SUPPORTED;
  if (attribute == VX_NODE_LOCAL_DATA_PTR && current == driver::own_block) return VX_ERROR_NOT_SUPPORTED;
  return real(n, attribute, ptr, size);
}

// y = x * scale + offset, elementwise, any shape.
struct Affine {
  static constexpr std::string_view name = "Affine";
  struct inputs {
    rknnop::tensor<float, rknnop::float16> x;
  };
  struct outputs {
    rknnop::tensor<float, rknnop::float16> y;
  };
  struct params {
    float scale;
    float offset;
  };
  static constexpr auto infer = [](const inputs& in, outputs& out, const params&) {
    out.y.set_dims(in.x.dims());
    return rknnop::ok;
  };
  static constexpr auto cpu = [](const inputs& in, outputs& out, const params& p) {
    for (std::size_t i = 0; i < in.x.size(); ++i) out.y[i] = in.x[i] * p.scale + p.offset;
    return rknnop::ok;
  };
};
RKNNOP_EXPORT_OP(Affine);

namespace {

using rknnop::test::harness;

std::vector<float> ramp(std::size_t n) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = 0.5f * float(i) - 3.f;
  return v;
}

// One Affine node (scale 2, offset 1) on a float16 input of `n` elements, as on the board.
struct affine_node {
  harness h{vx_kernel_Affine_list.entries[0]};
  vx_tensor x, y;
  explicit affine_node(std::uint32_t n, bool with_failing_node = false)
      : x(h.tensor({n}, VX_TYPE_FLOAT16, rknnop::test::to_half(ramp(n)))), y(h.tensor<float>({n}, VX_TYPE_FLOAT16)) {
    if (with_failing_node) add_failing_node();
    const float scale = 2.f, offset = 1.f;
    run_status = h.run({reinterpret_cast<vx_reference>(x), reinterpret_cast<vx_reference>(y),
                        reinterpret_cast<vx_reference>(h.scalar(VX_TYPE_FLOAT32, &scale)),
                        reinterpret_cast<vx_reference>(h.scalar(VX_TYPE_FLOAT32, &offset))});
  }
  // Tensor questions the kernel asks in one vxProcessGraph of the verified graph.
  int questions_per_process() {
    tensor_queries = 0;
    EXPECT_EQ(vxProcessGraph(h.graph()), VX_SUCCESS) << h.last_log();
    return tensor_queries;
  }
  void expect_output(std::size_t n) {
    const std::vector<float> got = rknnop::test::to_float(harness::read<rknnop::float16>(y));
    ASSERT_EQ(got.size(), n);
    const std::vector<float> x_values = ramp(n);  // exact in float16: halves from -3
    for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(got[i], x_values[i] * 2.f + 1.f) << "element " << i;
  }
  // A second node, initialized after Affine's (created later, no data dependency), whose initializer fails.
  void add_failing_node() {
    const auto fail = [](vx_node, const vx_reference*, vx_uint32) -> vx_status { return VX_ERROR_NO_RESOURCES; };
    const auto nothing = [](vx_node, const vx_reference*, vx_uint32) -> vx_status { return VX_SUCCESS; };
    vx_kernel k = vxAddUserKernel(h.context(), "failing_init", 0x7FF00390, nothing, 0, nullptr, fail, nullptr);
    ASSERT_EQ(vxFinalizeKernel(k), VX_SUCCESS);
    ASSERT_NE(vxCreateGenericNode(h.graph(), k), nullptr);
  }
  // The node's local data as the driver holds it.
  void* local_data(vx_size* size = nullptr) const {
    void* p = nullptr;
    EXPECT_EQ(vxQueryNode(h.node(), VX_NODE_LOCAL_DATA_PTR, &p, sizeof p), VX_SUCCESS);
    if (size) {
      EXPECT_EQ(vxQueryNode(h.node(), VX_NODE_LOCAL_DATA_SIZE, size, sizeof *size), VX_SUCCESS);
    }
    return p;
  }
  vx_status run_status;
};

class NodeFacts : public ::testing::Test {
protected:
  void SetUp() override {
    sdk_pointers = 0;
    foreign_before = rknnopHostGetForeignLocalDataCount();
  }
  void TearDown() override {
    current = driver::full;
    EXPECT_EQ(sdk_pointers, 0) << "the SDK set a local data pointer of its own";
    EXPECT_EQ(rknnopHostGetForeignLocalDataCount(), foreign_before)
        << "a node was destroyed holding local data the runtime did not allocate";
  }
  vx_uint32 foreign_before = 0;
};

using facts_t = rknnop::detail::node_facts<Affine>;

// The kernel's questions without facts: rank, dims and dtype of each of its two tensors.
constexpr int questions_without_facts = 6;

// After a re-verification: the same block, marked stale, and the next run asks again and is right.
void expect_stale_facts_refilled(affine_node& a, void* block) {
  ASSERT_EQ(vxVerifyGraph(a.h.graph()), VX_SUCCESS) << a.h.last_log();
  EXPECT_EQ(a.local_data(), block);
  EXPECT_EQ(static_cast<const facts_t*>(block)->owner, nullptr);
  EXPECT_EQ(a.questions_per_process(), questions_without_facts);
  EXPECT_EQ(a.questions_per_process(), 0);
  a.expect_output(5);
}

// --- each path leaves only the driver's block (TearDown checks every test the same way) --------

TEST_F(NodeFacts, FirstVerificationReservesTheDriversBlock) {
  affine_node a(5);
  ASSERT_EQ(a.run_status, VX_SUCCESS) << a.h.last_log();
  vx_size size = 0;
  void* block = a.local_data(&size);
  EXPECT_NE(block, nullptr);
  EXPECT_EQ(size, sizeof(facts_t));
  EXPECT_EQ(static_cast<const facts_t*>(block)->owner, &facts_t::tag);  // filled by the first kernel call
  EXPECT_EQ(sdk_pointers, 0);
}

TEST_F(NodeFacts, ReVerificationKeepsTheBlockAndRefillsIt) {
  affine_node a(5);
  ASSERT_EQ(a.run_status, VX_SUCCESS) << a.h.last_log();
  void* const block = a.local_data();
  // A changed parameter (the same tensor again) makes the driver re-verify with a deinitializer pass.
  ASSERT_EQ(vxSetParameterByIndex(a.h.node(), 0, reinterpret_cast<vx_reference>(a.x)), VX_SUCCESS);
  // The deinitializer marks the facts stale; the size stays set, so the block is the same one.
  expect_stale_facts_refilled(a, block);
  EXPECT_EQ(sdk_pointers, 0);
}

// After vxSetGraphParameterByIndex the driver initializes again without a deinitializer first
// (docs/runtime.md §9): the initializer itself marks the facts stale, and the kernel asks again.
TEST_F(NodeFacts, InitializerWithoutADeinitializerBeforeItRefillsTheFacts) {
  affine_node a(5);
  ASSERT_EQ(a.run_status, VX_SUCCESS) << a.h.last_log();
  void* const block = a.local_data();
  ASSERT_EQ(static_cast<const facts_t*>(block)->owner, &facts_t::tag);
  vx_parameter p = vxGetParameterByIndex(a.h.node(), 0);
  ASSERT_EQ(vxAddParameterToGraph(a.h.graph(), p), VX_SUCCESS);
  vxReleaseParameter(&p);
  ASSERT_EQ(vxSetGraphParameterByIndex(a.h.graph(), 0, reinterpret_cast<vx_reference>(a.x)), VX_SUCCESS);
  expect_stale_facts_refilled(a, block);
}

TEST_F(NodeFacts, FailingInitializerOfTheGraphLeavesNoBlockOfTheSdk) {
  affine_node a(5, true);
  EXPECT_EQ(a.run_status, VX_ERROR_NO_RESOURCES);
  vx_size size = 0;
  const void* block = a.local_data(&size);  // Affine's initializer ran; a later one failing leaves it so
  EXPECT_EQ(size, sizeof(facts_t));
  EXPECT_NE(block, nullptr);  // the driver's: freed by the driver with the node (TearDown checks)
  EXPECT_EQ(sdk_pointers, 0);
}

TEST_F(NodeFacts, GraphReleaseLeavesTheBlockToTheDriver) {
  affine_node a(5);
  ASSERT_EQ(a.run_status, VX_SUCCESS) << a.h.last_log();
  vx_graph g = a.h.graph();
  vx_node n = a.h.node();
  ASSERT_EQ(vxRetainReference(reinterpret_cast<vx_reference>(n)), VX_SUCCESS);  // keep it to look at
  ASSERT_EQ(vxReleaseGraph(&g), VX_SUCCESS);
  EXPECT_NE(a.local_data(), nullptr);  // still the driver's until the node goes
  EXPECT_EQ(sdk_pointers, 0);
  ASSERT_EQ(vxReleaseNode(&n), VX_SUCCESS);
}

TEST_F(NodeFacts, KernelAsksNoTensorQuestionsOnceInitialized) {
  affine_node a(5);
  ASSERT_EQ(a.run_status, VX_SUCCESS) << a.h.last_log();
  a.expect_output(5);
  EXPECT_EQ(a.questions_per_process(), 0);
  EXPECT_EQ(a.questions_per_process(), 0);
  a.expect_output(5);
}

TEST_F(NodeFacts, NewTensorsAfterVerifyAreQueriedAgain) {
  affine_node a(5);
  ASSERT_EQ(a.run_status, VX_SUCCESS) << a.h.last_log();
  // Other tensors, another shape: setting them un-verifies the graph; processing re-verifies, which
  // deinitializes the node (its facts go stale) and initializes it; the first call refills the block.
  vx_tensor x = a.h.tensor({9}, VX_TYPE_FLOAT16, rknnop::test::to_half(ramp(9)));
  vx_tensor y = a.h.tensor<float>({9}, VX_TYPE_FLOAT16);
  ASSERT_EQ(vxSetParameterByIndex(a.h.node(), 0, reinterpret_cast<vx_reference>(x)), VX_SUCCESS);
  ASSERT_EQ(vxSetParameterByIndex(a.h.node(), 1, reinterpret_cast<vx_reference>(y)), VX_SUCCESS);
  ASSERT_EQ(vxProcessGraph(a.h.graph()), VX_SUCCESS) << a.h.last_log();
  a.y = y;
  a.expect_output(9);
  EXPECT_EQ(a.questions_per_process(), 0);
  a.expect_output(9);
}

TEST_F(NodeFacts, DriverWithoutLocalDataGetsTheQueries) {
  current = driver::no_local_data;
  affine_node a(7);
  ASSERT_EQ(a.run_status, VX_SUCCESS) << a.h.last_log();
  a.expect_output(7);
  EXPECT_EQ(a.questions_per_process(), questions_without_facts);
}

TEST_F(NodeFacts, DriverRefusingPointersStillGivesItsBlock) {
  affine_node warm(3);          // a block reserved once, so the kernel asks for local data from now on
  current = driver::own_block;  // takes the size, refuses any pointer: the SDK never sets one
  affine_node a(7);
  ASSERT_EQ(a.run_status, VX_SUCCESS) << a.h.last_log();
  EXPECT_NE(a.local_data(), nullptr);
  EXPECT_EQ(a.questions_per_process(), 0);
  a.expect_output(7);
}

TEST_F(NodeFacts, FactsOfAnotherNodeAreNotUsed) {
  affine_node a(5);
  ASSERT_EQ(a.run_status, VX_SUCCESS) << a.h.last_log();
  ASSERT_EQ(vxQueryNode(a.h.node(), VX_NODE_LOCAL_DATA_PTR, &foreign, sizeof foreign), VX_SUCCESS);
  ASSERT_NE(foreign, nullptr);
  affine_node b(11);
  ASSERT_EQ(b.run_status, VX_SUCCESS) << b.h.last_log();
  current = driver::foreign_block;  // b's kernel is handed a's facts (5 elements, a's tensors)
  EXPECT_EQ(b.questions_per_process(), questions_without_facts);
  b.expect_output(11);
  current = driver::full;  // a's deinitializer must find its own block again
}

TEST_F(NodeFacts, BlockNotFilledByThisOpIsNotUsedOrFreed) {
  affine_node a(5);
  ASSERT_EQ(a.run_status, VX_SUCCESS) << a.h.last_log();
  void* mine = nullptr;
  ASSERT_EQ(vxQueryNode(a.h.node(), VX_NODE_LOCAL_DATA_PTR, &mine, sizeof mine), VX_SUCCESS);
  ASSERT_NE(mine, nullptr);
  // The node's own tensors and facts, but not marked as this op's block.
  static facts_t copy;  // not from malloc: freeing it would fail under ASan
  std::memcpy(&copy, mine, sizeof copy);
  copy.owner = &copy;
  foreign = &copy;
  current = driver::foreign_block;
  EXPECT_EQ(a.questions_per_process(), questions_without_facts);
  a.expect_output(5);
  // `a` goes in this mode: its deinitializer sees the copy; the runtime frees the real block.
}

}  // namespace

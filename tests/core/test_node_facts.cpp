// SPDX-License-Identifier: MIT
// The CPU kernel's initializer keeps each node's tensor facts (rank, dims, dtype) as node local data,
// and the kernel then asks the driver no tensor questions. This program interposes vxQueryTensor,
// vxQueryNode and vxSetNodeAttribute (its own definitions win over libOpenVX's and forward to them),
// to count the kernel's questions and to play drivers that lack local data or hand back a block that
// is not the kernel's. Its own executable: the interposers would change every other test's driver.
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
    out.y.set_dims(in.x.dims(), in.x.rank());
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
  explicit affine_node(std::uint32_t n)
      : x(h.tensor({n}, VX_TYPE_FLOAT16, rknnop::test::to_half(ramp(n)))), y(h.tensor<float>({n}, VX_TYPE_FLOAT16)) {
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
  vx_status run_status;
};

class NodeFacts : public ::testing::Test {
protected:
  void TearDown() override { current = driver::full; }
};

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
  // deinitializes the node and initializes it with the new tensors' facts.
  vx_tensor x = a.h.tensor({9}, VX_TYPE_FLOAT16, rknnop::test::to_half(ramp(9)));
  vx_tensor y = a.h.tensor<float>({9}, VX_TYPE_FLOAT16);
  ASSERT_EQ(vxSetParameterByIndex(a.h.node(), 0, reinterpret_cast<vx_reference>(x)), VX_SUCCESS);
  ASSERT_EQ(vxSetParameterByIndex(a.h.node(), 1, reinterpret_cast<vx_reference>(y)), VX_SUCCESS);
  ASSERT_EQ(vxProcessGraph(a.h.graph()), VX_SUCCESS) << a.h.last_log();
  a.y = y;
  a.expect_output(9);
  EXPECT_EQ(a.questions_per_process(), 0);
}

// The kernel's questions without facts: rank, dims and dtype of each of its two tensors.
constexpr int questions_without_facts = 6;

TEST_F(NodeFacts, DriverWithoutLocalDataGetsTheQueries) {
  current = driver::no_local_data;
  affine_node a(7);
  ASSERT_EQ(a.run_status, VX_SUCCESS) << a.h.last_log();
  a.expect_output(7);
  EXPECT_EQ(a.questions_per_process(), questions_without_facts);
}

TEST_F(NodeFacts, BlockTheDriverAllocatedIsNotUsedOrFreed) {
  affine_node warm(3);  // facts stored once, so the kernel asks for local data from now on
  current = driver::own_block;
  affine_node a(7);
  ASSERT_EQ(a.run_status, VX_SUCCESS) << a.h.last_log();
  void* p = nullptr;
  ASSERT_EQ(vxQueryNode(a.h.node(), VX_NODE_LOCAL_DATA_PTR, &p, sizeof p), VX_SUCCESS);
  EXPECT_NE(p, nullptr);  // the runtime's zeroed block: the deinitializer leaves it to the runtime
  EXPECT_EQ(a.questions_per_process(), questions_without_facts);
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
  using facts_t = rknnop::detail::node_facts<Affine>;
  static facts_t copy;  // not from malloc: freeing it would fail under ASan
  std::memcpy(&copy, mine, sizeof copy);
  copy.owner = &copy;
  foreign = &copy;
  current = driver::foreign_block;
  EXPECT_EQ(a.questions_per_process(), questions_without_facts);
  a.expect_output(5);
  // `a` goes in this mode: its deinitializer sees the copy and leaves it; the runtime frees the real block.
}

}  // namespace

// SPDX-License-Identifier: MIT
// The board driver's graph lifecycle (docs/runtime.md §9, read from Rockchip's libOpenVX.so.1.2 build
// 63175039): a verified graph is not verified again; the deinitializer pass before a verification runs
// only when a parameter changed (vxSetParameterByIndex), not after vxSetGraphParameterByIndex nor after a
// failed verification; initializers run in node-table order; vxScheduleGraph runs the graph on the
// context's own thread and vxWaitGraph returns its status; the smaller answers (-17 for a meta-format
// attribute of another object type, -3 before -10 for local data outside its window).
#include "runtime_test_util.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

using namespace rknnop_test;

namespace {

// What the callbacks saw, in order: "init:<kernel>", "deinit:<kernel>", "kernel:<kernel>".
std::mutex events_mutex;
std::vector<std::string> events;
std::thread::id kernel_thread;
std::atomic<int> validator_failures_left{0};
vx_status meta_status = VX_SUCCESS;

void record(const char* what, vx_node) {
  std::lock_guard lock(events_mutex);
  events.emplace_back(what);
}

// A callback that records `What` and returns `Result` (initializers, deinitializers, kernels).
template <std::size_t N>
struct label {
  char text[N];
  constexpr label(const char (&s)[N]) { std::copy_n(s, N, text); }  // NOLINT(google-explicit-constructor)
};
template <label What, vx_status Result = VX_SUCCESS>
vx_status VX_CALLBACK recorded(vx_node node, const vx_reference*, vx_uint32) {
  record(What.text, node);
  return Result;
}
std::atomic<bool> gate_closed{false};  // run_a waits while it is

vx_status VX_CALLBACK run_a(vx_node node, const vx_reference*, vx_uint32) {
  while (gate_closed.load()) std::this_thread::yield();
  record("kernel:a", node);
  kernel_thread = std::this_thread::get_id();
  return VX_SUCCESS;
}
// Fails while validator_failures_left > 0; gives the output the input's shape.
vx_status VX_CALLBACK validate_copy(vx_node, const vx_reference* refs, vx_uint32, vx_meta_format metas[]) {
  if (validator_failures_left.load() > 0) {
    --validator_failures_left;
    return VX_ERROR_INVALID_PARAMETERS;
  }
  vx_uint32 rank = 0;
  vx_uint32 dims[6] = {};
  vx_enum type = 0;
  auto in = reinterpret_cast<vx_tensor>(refs[0]);
  if (vxQueryTensor(in, VX_TENSOR_NUMBER_OF_DIMS, &rank, sizeof rank) != VX_SUCCESS ||
      vxQueryTensor(in, VX_TENSOR_DIMS, dims, rank * sizeof(vx_uint32)) != VX_SUCCESS ||
      vxQueryTensor(in, VX_TENSOR_DATA_TYPE, &type, sizeof type) != VX_SUCCESS)
    return VX_FAILURE;
  vx_size wide[6] = {};
  for (vx_uint32 i = 0; i < rank; ++i) wide[i] = dims[i];
  vx_status s = vxSetMetaFormatAttribute(metas[1], VX_TENSOR_NUMBER_OF_DIMS, &rank, sizeof rank);
  if (s == VX_SUCCESS) s = vxSetMetaFormatAttribute(metas[1], VX_TENSOR_DIMS, wide, rank * sizeof(vx_size));
  if (s == VX_SUCCESS) s = vxSetMetaFormatAttribute(metas[1], VX_TENSOR_DATA_TYPE, &type, sizeof type);
  // A tensor attribute on the meta format of the scalar parameter: the driver refuses it (-17).
  if (s == VX_SUCCESS) meta_status = vxSetMetaFormatAttribute(metas[2], VX_TENSOR_DATA_TYPE, &type, sizeof type);
  return s;
}

vx_kernel add_kernel(vx_context ctx, const char* name, vx_enum id, vx_kernel_f run, vx_kernel_validate_f validate,
                     vx_kernel_initialize_f init, vx_kernel_deinitialize_f deinit) {
  vx_kernel k = vxAddUserKernel(ctx, name, id, run, 3, validate, init, deinit);
  if (k == nullptr) return nullptr;
  vxAddParameterToKernel(k, 0, VX_INPUT, VX_TYPE_TENSOR, VX_PARAMETER_STATE_REQUIRED);
  vxAddParameterToKernel(k, 1, VX_OUTPUT, VX_TYPE_TENSOR, VX_PARAMETER_STATE_REQUIRED);
  vxAddParameterToKernel(k, 2, VX_INPUT, VX_TYPE_SCALAR, VX_PARAMETER_STATE_OPTIONAL);
  vxFinalizeKernel(k);
  return k;
}

class runtime_lifecycle : public context_test {
protected:
  void SetUp() override {
    context_test::SetUp();
    {
      std::lock_guard lock(events_mutex);
      events.clear();
    }
    validator_failures_left = 0;
    meta_status = VX_SUCCESS;
    a = add_kernel(ctx, "life_a", 0x7FF00401, run_a, validate_copy, recorded<"init:a">, recorded<"deinit:a">);
    b = add_kernel(ctx, "life_b", 0x7FF00402, recorded<"kernel:b">, validate_copy, recorded<"init:b">,
                   recorded<"deinit:b">);
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    g = vxCreateGraph(ctx);
    const vx_size dims[2] = {4, 2};
    in = vxCreateTensor(ctx, 2, dims, VX_TYPE_FLOAT32, 0);
    other_in = vxCreateTensor(ctx, 2, dims, VX_TYPE_FLOAT32, 0);
    out = vxCreateTensor(ctx, 2, dims, VX_TYPE_FLOAT32, 0);
    mid = vxCreateVirtualTensor(g, 0, nullptr, VX_TYPE_FLOAT32, 0);
    const vx_int32 one = 1;
    scalar = vxCreateScalar(ctx, VX_TYPE_INT32, &one);
    // The consumer is created first: the node table's order is b, a; the data flow's is a, b.
    second = vxCreateGenericNode(g, b);
    first = vxCreateGenericNode(g, a);
    ASSERT_EQ(vxSetParameterByIndex(first, 0, ref(in)), VX_SUCCESS);
    ASSERT_EQ(vxSetParameterByIndex(first, 1, ref(mid)), VX_SUCCESS);
    ASSERT_EQ(vxSetParameterByIndex(second, 0, ref(mid)), VX_SUCCESS);
    ASSERT_EQ(vxSetParameterByIndex(second, 1, ref(out)), VX_SUCCESS);
  }
  void TearDown() override {
    release_objects();
    context_test::TearDown();
  }
  // Everything SetUp made, the context aside (released objects are null, and releasing null is refused quietly).
  void release_objects() {
    vxReleaseNode(&first);
    vxReleaseNode(&second);
    if (g != nullptr) vxReleaseGraph(&g);
    vxReleaseTensor(&in);
    vxReleaseTensor(&other_in);
    vxReleaseTensor(&out);
    vxReleaseTensor(&mid);
    vxReleaseScalar(&scalar);
    vxReleaseKernel(&a);
    vxReleaseKernel(&b);
  }
  std::vector<std::string> take_events() {
    std::lock_guard lock(events_mutex);
    return std::exchange(events, {});
  }
  vx_kernel a = nullptr, b = nullptr;
  vx_graph g = nullptr;
  vx_tensor in = nullptr, other_in = nullptr, out = nullptr, mid = nullptr;
  vx_scalar scalar = nullptr;
  vx_node first = nullptr, second = nullptr;
};

using list = std::vector<std::string>;

TEST_F(runtime_lifecycle, initializers_run_in_node_table_order_and_a_verified_graph_is_not_verified_again) {
  ASSERT_EQ(vxVerifyGraph(g), VX_SUCCESS) << last_log(ref(ctx));
  EXPECT_EQ(take_events(), (list{"init:b", "init:a"}));
  ASSERT_EQ(vxVerifyGraph(g), VX_SUCCESS);
  EXPECT_EQ(take_events(), list{});  // nothing: no deinitializer, no initializer
  ASSERT_EQ(vxProcessGraph(g), VX_SUCCESS);
  EXPECT_EQ(take_events(), (list{"kernel:a", "kernel:b"}));  // kernels in data-flow order
}

TEST_F(runtime_lifecycle, a_changed_parameter_brings_the_deinitializer_pass_first) {
  ASSERT_EQ(vxVerifyGraph(g), VX_SUCCESS) << last_log(ref(ctx));
  take_events();
  ASSERT_EQ(vxSetParameterByIndex(first, 2, ref(scalar)), VX_SUCCESS);
  ASSERT_EQ(vxVerifyGraph(g), VX_SUCCESS) << last_log(ref(ctx));
  EXPECT_EQ(take_events(), (list{"deinit:b", "deinit:a", "init:b", "init:a"}));
}

TEST_F(runtime_lifecycle, a_graph_parameter_reverifies_without_the_deinitializer_pass) {
  vx_parameter p = vxGetParameterByIndex(first, 0);
  ASSERT_NE(p, nullptr) << last_log(ref(first));
  ASSERT_EQ(vxAddParameterToGraph(g, p), VX_SUCCESS);
  ASSERT_EQ(vxReleaseParameter(&p), VX_SUCCESS);
  ASSERT_EQ(vxVerifyGraph(g), VX_SUCCESS) << last_log(ref(ctx));
  take_events();
  ASSERT_EQ(vxSetGraphParameterByIndex(g, 0, ref(other_in)), VX_SUCCESS);
  ASSERT_EQ(vxProcessGraph(g), VX_SUCCESS) << last_log(ref(ctx));
  // Unverified by the new value, but no "parameters changed" mark: initializers again, no deinitializer.
  EXPECT_EQ(take_events(), (list{"init:b", "init:a", "kernel:a", "kernel:b"}));
  EXPECT_EQ(vxSetGraphParameterByIndex(g, 1, ref(other_in)), VX_ERROR_INVALID_PARAMETERS);
}

TEST_F(runtime_lifecycle, a_failed_verification_clears_the_changed_mark) {
  ASSERT_EQ(vxVerifyGraph(g), VX_SUCCESS) << last_log(ref(ctx));
  ASSERT_EQ(vxSetParameterByIndex(first, 2, ref(scalar)), VX_SUCCESS);
  validator_failures_left = 1;
  take_events();
  EXPECT_EQ(vxVerifyGraph(g), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(take_events(), (list{"deinit:b", "deinit:a"}));  // the pass ran, the validator then failed
  ASSERT_EQ(vxVerifyGraph(g), VX_SUCCESS) << last_log(ref(ctx));
  EXPECT_EQ(take_events(), (list{"init:b", "init:a"}));  // no second pass
}

TEST_F(runtime_lifecycle, scheduled_graph_runs_on_the_contexts_thread) {
  kernel_thread = std::this_thread::get_id();
  gate_closed = true;  // the run stays in the first kernel until the second schedule is refused
  ASSERT_EQ(vxScheduleGraph(g), VX_SUCCESS) << last_log(ref(ctx));
  EXPECT_EQ(vxScheduleGraph(g), VX_ERROR_GRAPH_SCHEDULED);
  gate_closed = false;
  EXPECT_EQ(vxWaitGraph(g), VX_SUCCESS);
  EXPECT_NE(kernel_thread, std::this_thread::get_id());
  EXPECT_EQ(take_events(), (list{"init:b", "init:a", "kernel:a", "kernel:b"}));
  EXPECT_EQ(vxWaitGraph(g), VX_FAILURE);  // not scheduled since
  EXPECT_EQ(vxWaitGraph(nullptr), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxScheduleGraph(nullptr), VX_ERROR_INVALID_REFERENCE);
  // Again, and the graph released while it may still run: the scheduler holds it until the run ends.
  ASSERT_EQ(vxScheduleGraph(g), VX_SUCCESS);
  vx_graph copy = g;
  EXPECT_EQ(vxWaitGraph(copy), VX_SUCCESS);
}

TEST_F(runtime_lifecycle, wait_returns_the_failed_kernels_status) {
  vx_kernel failing = add_kernel(ctx, "life_failing", 0x7FF00403, recorded<"kernel:failing", VX_ERROR_INVALID_VALUE>,
                                 validate_copy, nullptr, nullptr);
  vx_graph other = vxCreateGraph(ctx);
  vx_node n = vxCreateGenericNode(other, failing);
  vx_tensor o = nullptr;
  const vx_size dims[2] = {4, 2};
  o = vxCreateTensor(ctx, 2, dims, VX_TYPE_FLOAT32, 0);
  vxSetParameterByIndex(n, 0, ref(in));
  vxSetParameterByIndex(n, 1, ref(o));
  ASSERT_EQ(vxScheduleGraph(other), VX_SUCCESS);
  EXPECT_EQ(vxWaitGraph(other), VX_ERROR_INVALID_VALUE);
  vxReleaseNode(&n);
  vxReleaseTensor(&o);
  vxReleaseGraph(&other);
  vxReleaseKernel(&failing);
}

TEST_F(runtime_lifecycle, context_release_finishes_a_scheduled_run_first) {
  ASSERT_EQ(vxScheduleGraph(g), VX_SUCCESS);
  release_objects();
  ASSERT_EQ(vxReleaseContext(&ctx), VX_SUCCESS);
  const list seen = take_events();
  ASSERT_EQ(seen.size(), 6U);  // init b, a; kernel a, b; then the release's deinitializers
  EXPECT_EQ(list(seen.begin(), seen.begin() + 4), (list{"init:b", "init:a", "kernel:a", "kernel:b"}));
}

TEST_F(runtime_lifecycle, a_tensor_attribute_on_a_scalars_meta_format_is_refused_with_minus_17) {
  ASSERT_EQ(vxSetParameterByIndex(first, 2, ref(scalar)), VX_SUCCESS);
  ASSERT_EQ(vxVerifyGraph(g), VX_SUCCESS) << last_log(ref(ctx));
  EXPECT_EQ(meta_status, VX_ERROR_INVALID_TYPE);
}

}  // namespace

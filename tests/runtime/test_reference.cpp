// SPDX-License-Identifier: MIT
// Contexts, handle validation, reference counts and the log.
#include "runtime_test_util.hpp"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

using namespace rknnop_test;

namespace {

using runtime_reference = context_test;

TEST(runtime_handles, get_status_of_null_is_no_resources) { EXPECT_EQ(vxGetStatus(nullptr), VX_ERROR_NO_RESOURCES); }

TEST(runtime_handles, garbage_pointer_is_invalid_reference) {
  std::uint64_t not_an_object[8] = {};
  auto bogus = reinterpret_cast<vx_reference>(&not_an_object);
  EXPECT_EQ(vxGetStatus(bogus), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxRetainReference(bogus), VX_ERROR_INVALID_REFERENCE);
  vx_uint32 count = 0;
  EXPECT_EQ(vxQueryReference(bogus, VX_REFERENCE_COUNT, &count, sizeof count), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxQueryTensor(reinterpret_cast<vx_tensor>(bogus), VX_TENSOR_DATA_TYPE, &count, 4),
            VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxGetContext(bogus), nullptr);
  vxAddLogEntry(bogus, VX_FAILURE, "ignored");  // must not crash
}

TEST(runtime_handles, null_handles_are_invalid_references) {
  EXPECT_EQ(vxReleaseContext(nullptr), VX_ERROR_INVALID_REFERENCE);
  vx_context none = nullptr;
  EXPECT_EQ(vxReleaseContext(&none), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxReleaseReference(nullptr), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxQueryScalar(nullptr, VX_SCALAR_TYPE, &none, 4), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxVerifyGraph(nullptr), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxProcessGraph(nullptr), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxCreateTensor(nullptr, 1, nullptr, VX_TYPE_FLOAT32, 0), nullptr);
  EXPECT_EQ(vxCreateGraph(nullptr), nullptr);
}

TEST(runtime_handles, released_context_is_invalid) {
  vx_context ctx = vxCreateContext();
  vx_context copy = ctx;
  ASSERT_EQ(vxReleaseContext(&ctx), VX_SUCCESS);
  EXPECT_EQ(ctx, nullptr);
  EXPECT_EQ(vxGetStatus(ref(copy)), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxReleaseContext(&copy), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxCreateGraph(copy), nullptr);
}

TEST_F(runtime_reference, released_object_is_invalid_and_handle_nulled) {
  vx_int32 v = 7;
  vx_scalar s = vxCreateScalar(ctx, VX_TYPE_INT32, &v);
  vx_scalar copy = s;
  ASSERT_EQ(vxReleaseScalar(&s), VX_SUCCESS);
  EXPECT_EQ(s, nullptr);
  EXPECT_EQ(vxGetStatus(ref(copy)), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxCopyScalar(copy, &v, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxReleaseScalar(&copy), VX_ERROR_INVALID_REFERENCE);
}

TEST_F(runtime_reference, release_through_wrong_type_is_refused) {
  vx_int32 v = 7;
  vx_scalar s = vxCreateScalar(ctx, VX_TYPE_INT32, &v);
  auto as_tensor = reinterpret_cast<vx_tensor>(s);
  EXPECT_EQ(vxReleaseTensor(&as_tensor), VX_ERROR_INVALID_REFERENCE);
  EXPECT_NE(as_tensor, nullptr);
  EXPECT_EQ(vxGetStatus(ref(s)), VX_SUCCESS);
  vx_reference r = ref(s);
  EXPECT_EQ(vxReleaseReference(&r), VX_SUCCESS);
  EXPECT_EQ(r, nullptr);
  EXPECT_EQ(vxGetStatus(ref(s)), VX_ERROR_INVALID_REFERENCE);
}

TEST_F(runtime_reference, retain_and_release_count) {
  vx_int32 v = 1;
  vx_scalar s = vxCreateScalar(ctx, VX_TYPE_INT32, &v);
  vx_uint32 count = 0;
  ASSERT_EQ(vxQueryReference(ref(s), VX_REFERENCE_COUNT, &count, sizeof count), VX_SUCCESS);
  EXPECT_EQ(count, 1U);
  ASSERT_EQ(vxRetainReference(ref(s)), VX_SUCCESS);
  ASSERT_EQ(vxQueryReference(ref(s), VX_REFERENCE_COUNT, &count, sizeof count), VX_SUCCESS);
  EXPECT_EQ(count, 2U);
  vx_scalar second = s;
  ASSERT_EQ(vxReleaseScalar(&second), VX_SUCCESS);
  EXPECT_EQ(vxGetStatus(ref(s)), VX_SUCCESS);  // one count left
  vx_enum type = 0;
  ASSERT_EQ(vxQueryReference(ref(s), VX_REFERENCE_TYPE, &type, sizeof type), VX_SUCCESS);
  EXPECT_EQ(type, VX_TYPE_SCALAR);
  EXPECT_EQ(vxQueryReference(ref(s), VX_REFERENCE_COUNT, &count, 8), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxQueryReference(ref(s), VX_REFERENCE_TYPE, &type, 2), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxQueryReference(ref(s), 0x7FFFF, &type, 4), VX_ERROR_NOT_SUPPORTED);
  ASSERT_EQ(vxReleaseScalar(&s), VX_SUCCESS);
}

TEST_F(runtime_reference, get_context) {
  vx_graph g = vxCreateGraph(ctx);
  EXPECT_EQ(vxGetContext(ref(g)), ctx);
  EXPECT_EQ(vxGetContext(ref(ctx)), ctx);
  EXPECT_EQ(vxReleaseGraph(&g), VX_SUCCESS);
}

TEST(runtime_handles, releasing_context_frees_everything_left_in_it) {
  // Leak checkers (ASan/LSan builds) verify that nothing stays allocated.
  vx_context ctx = vxCreateContext();
  vx_size dims[2] = {4, 4};
  vx_tensor t = vxCreateTensor(ctx, 2, dims, VX_TYPE_FLOAT32, 0);
  vx_graph g = vxCreateGraph(ctx);
  vx_tensor v = vxCreateVirtualTensor(g, 0, nullptr, VX_TYPE_FLOAT32, 0);
  vx_array a = vxCreateArray(ctx, VX_TYPE_INT32, 4);
  ASSERT_NE(t, nullptr);
  ASSERT_NE(v, nullptr);
  ASSERT_NE(a, nullptr);
  ASSERT_EQ(vxReleaseContext(&ctx), VX_SUCCESS);
  EXPECT_EQ(vxGetStatus(ref(t)), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxGetStatus(ref(g)), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxGetStatus(ref(v)), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxGetStatus(ref(a)), VX_ERROR_INVALID_REFERENCE);
}

TEST_F(runtime_reference, log_entries_per_reference) {
  vx_graph g = vxCreateGraph(ctx);
  vx_int32 v = 3;
  vx_scalar s = vxCreateScalar(ctx, VX_TYPE_INT32, &v);
  vxAddLogEntry(ref(g), VX_ERROR_INVALID_GRAPH, "graph says %d and %s", 42, "hello");
  vxAddLogEntry(ref(s), VX_FAILURE, "scalar %u", 7U);

  vx_status status = 0;
  EXPECT_EQ(last_log(ref(g), &status), "graph says 42 and hello");
  EXPECT_EQ(status, VX_ERROR_INVALID_GRAPH);
  EXPECT_EQ(last_log(ref(s), &status), "scalar 7");
  EXPECT_EQ(status, VX_FAILURE);
  EXPECT_EQ(last_log(ref(ctx)), "scalar 7");  // the context: last entry overall

  vx_uint32 count = 0;
  ASSERT_EQ(rknnopHostGetLogEntryCount(ctx, &count), VX_SUCCESS);
  EXPECT_EQ(count, 2U);

  vx_size required = 0;
  ASSERT_EQ(rknnopHostGetLog(ctx, nullptr, 0, &required), VX_SUCCESS);
  std::vector<char> text(required);
  ASSERT_EQ(rknnopHostGetLog(ctx, text.data(), text.size(), nullptr), VX_SUCCESS);
  EXPECT_EQ(std::string(text.data()), "[-18] graph says 42 and hello\n[-1] scalar 7\n");

  // Truncation keeps the NUL.
  char small[6];
  ASSERT_EQ(rknnopHostGetLastLogEntry(ref(g), nullptr, small, sizeof small), VX_SUCCESS);
  EXPECT_EQ(std::string(small), "graph");

  ASSERT_EQ(rknnopHostClearLog(ctx), VX_SUCCESS);
  ASSERT_EQ(rknnopHostGetLogEntryCount(ctx, &count), VX_SUCCESS);
  EXPECT_EQ(count, 0U);
  char message[16];
  EXPECT_EQ(rknnopHostGetLastLogEntry(ref(g), nullptr, message, sizeof message), VX_FAILURE);
  EXPECT_EQ(rknnopHostGetLog(nullptr, nullptr, 0, nullptr), VX_ERROR_INVALID_REFERENCE);

  vxReleaseScalar(&s);
  vxReleaseGraph(&g);
}

TEST_F(runtime_reference, failed_creation_returns_null_and_logs_why) {
  vx_size dims[1] = {4};
  EXPECT_EQ(vxCreateTensor(ctx, 1, dims, VX_TYPE_FLOAT64, 0), nullptr);
  vx_status status = 0;
  EXPECT_NE(last_log(ref(ctx), &status).find("0xb"), std::string::npos);
  EXPECT_EQ(status, VX_ERROR_INVALID_TYPE);
}

// Sizes come as vx_size (the boards' libOpenVX reads 8 bytes per size on aarch64); tensors hold 32-bit
// sizes, so a wider one is refused by name rather than truncated.
TEST_F(runtime_reference, a_size_wider_than_32_bits_is_refused_not_truncated) {
  if constexpr (sizeof(vx_size) > sizeof(vx_uint32)) {
    vx_size dims[2] = {3, vx_size{std::numeric_limits<vx_uint32>::max()} + 2};
    EXPECT_EQ(vxCreateTensor(ctx, 2, dims, VX_TYPE_UINT8, 0), nullptr);
    vx_status status = 0;
    EXPECT_EQ(last_log(ref(ctx), &status), "vxCreateTensor: size 4294967297 of dimension 1 does not fit in 32 bits");
    EXPECT_EQ(status, VX_ERROR_INVALID_PARAMETERS);
  } else {
    GTEST_SKIP() << "vx_size is 32 bits on this target: no size is wider than a tensor's";
  }
}

}  // namespace

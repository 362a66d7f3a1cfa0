// SPDX-License-Identifier: MIT
// Scalars of every type (exact copy sizes, 4-byte bool) and arrays (item types, ranges, capacity).
#include "runtime_test_util.hpp"

#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

using namespace rknnop_test;

namespace {

using runtime_scalar = context_test;
using runtime_array = context_test;

struct scalar_case {
  vx_enum type;
  std::size_t size;
};

TEST_F(runtime_scalar, every_type_copies_exactly_its_size) {
  const scalar_case cases[] = {{VX_TYPE_CHAR, 1},   {VX_TYPE_INT8, 1},    {VX_TYPE_UINT8, 1},   {VX_TYPE_INT16, 2},
                               {VX_TYPE_UINT16, 2}, {VX_TYPE_INT32, 4},   {VX_TYPE_UINT32, 4},  {VX_TYPE_INT64, 8},
                               {VX_TYPE_UINT64, 8}, {VX_TYPE_FLOAT16, 2}, {VX_TYPE_FLOAT32, 4}, {VX_TYPE_FLOAT64, 8},
                               {VX_TYPE_BOOL, 4},   {VX_TYPE_BOOL8, 1}};
  for (const scalar_case& c : cases) {
    SCOPED_TRACE(c.type);
    // An initial value whose bytes are all 0x01 is valid for every type, bool included... not
    // for a 4-byte bool (0x01010101), so bools start from 1.
    std::array<std::uint8_t, 16> init{};
    if (c.type == VX_TYPE_BOOL || c.type == VX_TYPE_BOOL8)
      init[0] = 1;
    else
      for (std::size_t i = 0; i < c.size; ++i) init[i] = static_cast<std::uint8_t>(0x11 * (i + 1));
    vx_scalar s = vxCreateScalar(ctx, c.type, init.data());
    ASSERT_EQ(vxGetStatus(ref(s)), VX_SUCCESS);

    vx_enum type = 0;
    ASSERT_EQ(vxQueryScalar(s, VX_SCALAR_TYPE, &type, sizeof type), VX_SUCCESS);
    EXPECT_EQ(type, c.type);
    std::uint64_t wide = 0;  // 8 bytes on every target (vx_size is 4 on armhf)
    EXPECT_EQ(vxQueryScalar(s, VX_SCALAR_TYPE, &wide, sizeof wide), VX_ERROR_INVALID_PARAMETERS);

    std::array<std::uint8_t, 16> out;
    out.fill(0xEE);
    ASSERT_EQ(vxCopyScalar(s, out.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
    EXPECT_EQ(std::memcmp(out.data(), init.data(), c.size), 0);
    EXPECT_EQ(out[c.size], 0xEE) << "wrote past the type's size";

    // Write then read back through a fresh buffer.
    std::array<std::uint8_t, 16> next{};
    if (c.type == VX_TYPE_BOOL || c.type == VX_TYPE_BOOL8)
      next[0] = 0;
    else
      for (std::size_t i = 0; i < c.size; ++i) next[i] = static_cast<std::uint8_t>(0xA0 + i);
    ASSERT_EQ(vxCopyScalar(s, next.data(), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
    out.fill(0xEE);
    ASSERT_EQ(vxCopyScalar(s, out.data(), VX_READ_ONLY, 0), VX_SUCCESS);
    EXPECT_EQ(std::memcmp(out.data(), next.data(), c.size), 0);
    EXPECT_EQ(out[c.size], 0xEE);
    EXPECT_EQ(vxReleaseScalar(&s), VX_SUCCESS);
  }
}

TEST_F(runtime_scalar, bool_is_four_bytes_and_zero_or_one) {
  vx_bool t = vx_true_e;
  vx_scalar s = vxCreateScalar(ctx, VX_TYPE_BOOL, &t);
  std::uint32_t word = 0xDEADBEEF;
  ASSERT_EQ(vxCopyScalar(s, &word, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(word, 1U);
  std::uint32_t two = 2;
  EXPECT_EQ(vxCopyScalar(s, &two, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_VALUE);
  EXPECT_EQ(vxCreateScalar(ctx, VX_TYPE_BOOL, &two), nullptr);
  std::uint32_t zero = 0;
  ASSERT_EQ(vxCopyScalar(s, &zero, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  vx_bool back = vx_true_e;
  ASSERT_EQ(vxCopyScalar(s, &back, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(back, vx_false_e);
  vxReleaseScalar(&s);
}

TEST_F(runtime_scalar, enum_and_size_cannot_be_created) {
  vx_size value = 3;
  EXPECT_EQ(vxCreateScalar(ctx, VX_TYPE_ENUM, &value), nullptr);
  EXPECT_EQ(vxCreateScalar(ctx, VX_TYPE_SIZE, &value), nullptr);
  EXPECT_EQ(vxCreateScalar(ctx, VX_TYPE_DF_IMAGE, &value), nullptr);
  EXPECT_EQ(vxCreateScalar(ctx, VX_TYPE_TENSOR, &value), nullptr);
  EXPECT_EQ(vxCreateScalar(ctx, VX_TYPE_INT32, nullptr), nullptr);
  vx_status status = 0;
  last_log(ref(ctx), &status);
  EXPECT_EQ(status, VX_ERROR_INVALID_PARAMETERS);
}

TEST_F(runtime_scalar, copy_argument_errors) {
  vx_int32 v = 5;
  vx_scalar s = vxCreateScalar(ctx, VX_TYPE_INT32, &v);
  EXPECT_EQ(vxCopyScalar(s, nullptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxCopyScalar(s, &v, VX_READ_AND_WRITE, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxCopyScalar(s, &v, VX_READ_ONLY, VX_MEMORY_TYPE_NONE), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxQueryScalar(s, 0x80D05, &v, 4), VX_ERROR_NOT_SUPPORTED);
  vxReleaseScalar(&s);
}

TEST_F(runtime_array, int32_array_queries_and_ranges) {
  vx_array a = vxCreateArray(ctx, VX_TYPE_INT32, 4);
  ASSERT_EQ(vxGetStatus(ref(a)), VX_SUCCESS);
  vx_enum type = 0;
  ASSERT_EQ(vxQueryArray(a, VX_ARRAY_ITEMTYPE, &type, 4), VX_SUCCESS);
  EXPECT_EQ(type, VX_TYPE_INT32);
  EXPECT_EQ(vxQueryArray(a, VX_ARRAY_ITEMTYPE, &type, 8), VX_ERROR_INVALID_PARAMETERS);
  vx_size value = 0;
  ASSERT_EQ(vxQueryArray(a, VX_ARRAY_ITEMSIZE, &value, sizeof(vx_size)), VX_SUCCESS);
  EXPECT_EQ(value, 4U);
  ASSERT_EQ(vxQueryArray(a, VX_ARRAY_CAPACITY, &value, sizeof(vx_size)), VX_SUCCESS);
  EXPECT_EQ(value, 4U);
  ASSERT_EQ(vxQueryArray(a, VX_ARRAY_NUMITEMS, &value, sizeof(vx_size)), VX_SUCCESS);
  EXPECT_EQ(value, 0U);
  std::uint16_t narrow = 0;  // smaller than vx_size on every target
  EXPECT_EQ(vxQueryArray(a, VX_ARRAY_NUMITEMS, &narrow, sizeof narrow), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxQueryArray(a, VX_ARRAY_ITEMSIZE, &narrow, sizeof narrow), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxQueryArray(a, VX_ARRAY_CAPACITY, &narrow, sizeof narrow), VX_ERROR_INVALID_PARAMETERS);

  // Items 64, 32 taken from a strided source (every other int).
  const std::int32_t source[4] = {64, -1, 32, -1};
  ASSERT_EQ(vxAddArrayItems(a, 2, source, 8), VX_SUCCESS);
  ASSERT_EQ(vxQueryArray(a, VX_ARRAY_NUMITEMS, &value, sizeof(vx_size)), VX_SUCCESS);
  EXPECT_EQ(value, 2U);
  std::int32_t out[2] = {};
  ASSERT_EQ(vxCopyArrayRange(a, 0, 2, sizeof(std::int32_t), out, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(out[0], 64);
  EXPECT_EQ(out[1], 32);

  // Capacity: 2 more fit, a third does not, and the failed add changes nothing.
  const std::int32_t more[3] = {1, 2, 3};
  EXPECT_EQ(vxAddArrayItems(a, 3, more, 4), VX_FAILURE);
  ASSERT_EQ(vxQueryArray(a, VX_ARRAY_NUMITEMS, &value, sizeof(vx_size)), VX_SUCCESS);
  EXPECT_EQ(value, 2U);
  EXPECT_EQ(vxAddArrayItems(a, 2, more, 4), VX_SUCCESS);
  EXPECT_EQ(vxAddArrayItems(a, 1, more, 4), VX_FAILURE);
  EXPECT_EQ(vxAddArrayItems(a, 1, more, 2), VX_ERROR_INVALID_PARAMETERS);  // stride < item size
  EXPECT_EQ(vxAddArrayItems(a, 1, nullptr, 4), VX_ERROR_INVALID_PARAMETERS);

  // Ranges: start < end <= numitems.
  std::int32_t four[4] = {};
  EXPECT_EQ(vxCopyArrayRange(a, 0, 4, 4, four, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(four[3], 2);
  EXPECT_EQ(vxCopyArrayRange(a, 0, 5, 4, four, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxCopyArrayRange(a, 2, 2, 4, four, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxCopyArrayRange(a, 3, 1, 4, four, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxCopyArrayRange(a, 0, 1, 2, four, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxCopyArrayRange(a, 0, 1, 4, four, VX_READ_ONLY, VX_MEMORY_TYPE_NONE), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxCopyArrayRange(a, 0, 1, 4, nullptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);

  // Strided write of items 1..2, then read back.
  const std::int32_t replacement[4] = {7, 0, 9, 0};
  ASSERT_EQ(vxCopyArrayRange(a, 1, 3, 8, const_cast<std::int32_t*>(replacement), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST),
            VX_SUCCESS);
  ASSERT_EQ(vxCopyArrayRange(a, 0, 4, 4, four, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(four[0], 64);
  EXPECT_EQ(four[1], 7);
  EXPECT_EQ(four[2], 9);
  EXPECT_EQ(four[3], 2);
  vxReleaseArray(&a);
}

TEST_F(runtime_array, item_types) {
  const std::pair<vx_enum, vx_size> types[] = {{VX_TYPE_INT8, 1},    {VX_TYPE_UINT8, 1},
                                               {VX_TYPE_INT16, 2},   {VX_TYPE_UINT16, 2},
                                               {VX_TYPE_INT32, 4},   {VX_TYPE_UINT32, 4},
                                               {VX_TYPE_INT64, 8},   {VX_TYPE_UINT64, 8},
                                               {VX_TYPE_FLOAT16, 2}, {VX_TYPE_FLOAT32, 4},
                                               {VX_TYPE_FLOAT64, 8}, {VX_TYPE_CHAR, 1},
                                               {VX_TYPE_ENUM, 4},    {VX_TYPE_SIZE, sizeof(vx_size)}};
  for (auto [type, size] : types) {
    vx_array a = vxCreateArray(ctx, type, 3);
    ASSERT_NE(a, nullptr) << type;
    vx_size item_size = 0;
    ASSERT_EQ(vxQueryArray(a, VX_ARRAY_ITEMSIZE, &item_size, sizeof item_size), VX_SUCCESS);
    EXPECT_EQ(item_size, size) << type;
    vxReleaseArray(&a);
  }
  EXPECT_EQ(vxCreateArray(ctx, VX_TYPE_TENSOR, 3), nullptr);
  EXPECT_EQ(vxCreateArray(ctx, VX_TYPE_INT32, 0), nullptr);
  EXPECT_EQ(vxCreateArray(ctx, VX_TYPE_INT64, SIZE_MAX / 4), nullptr);  // byte size overflows
  vx_array a = vxCreateArray(ctx, VX_TYPE_INT32, 1);
  vx_array copy = a;
  vxReleaseArray(&a);
  vx_size n = 0;
  EXPECT_EQ(vxQueryArray(copy, VX_ARRAY_NUMITEMS, &n, sizeof n), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxAddArrayItems(copy, 1, &n, 4), VX_ERROR_INVALID_REFERENCE);
}

}  // namespace

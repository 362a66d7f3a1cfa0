// SPDX-License-Identifier: MIT
// Tensors: creation rules, VSI and Khronos query sizes, patch copies with any strides.
#include "runtime_test_util.hpp"

#include <array>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

using namespace rknnop_test;

namespace {

using runtime_tensor = context_test;

TEST_F(runtime_tensor, creates_every_supported_type) {
  const vx_enum types[] = {VX_TYPE_FLOAT16, VX_TYPE_FLOAT32, VX_TYPE_INT8,  VX_TYPE_UINT8,
                           VX_TYPE_INT16,   VX_TYPE_UINT16,  VX_TYPE_INT32, VX_TYPE_UINT32};
  vx_size dims[3] = {2, 3, 4};
  for (vx_enum type : types) {
    vx_tensor t = vxCreateTensor(ctx, 3, dims, type, 0);
    ASSERT_EQ(vxGetStatus(ref(t)), VX_SUCCESS) << type;
    vx_enum got = 0;
    ASSERT_EQ(vxQueryTensor(t, VX_TENSOR_DATA_TYPE, &got, sizeof got), VX_SUCCESS);
    EXPECT_EQ(got, type);
    EXPECT_EQ(vxReleaseTensor(&t), VX_SUCCESS);
  }
}

TEST_F(runtime_tensor, rejects_unsupported_types_ranks_and_sizes) {
  vx_size dims[7] = {2, 2, 2, 2, 2, 2, 2};
  for (vx_enum type : {VX_TYPE_FLOAT64, VX_TYPE_INT64, VX_TYPE_BOOL, VX_TYPE_CHAR, VX_TYPE_INVALID, 0x7777})
    EXPECT_EQ(vxCreateTensor(ctx, 2, dims, type, 0), nullptr) << type;
  EXPECT_EQ(vxCreateTensor(ctx, 0, dims, VX_TYPE_FLOAT32, 0), nullptr);
  EXPECT_EQ(vxCreateTensor(ctx, 7, dims, VX_TYPE_FLOAT32, 0), nullptr);
  EXPECT_EQ(vxCreateTensor(ctx, 2, nullptr, VX_TYPE_FLOAT32, 0), nullptr);
  vx_size zero[2] = {4, 0};
  EXPECT_EQ(vxCreateTensor(ctx, 2, zero, VX_TYPE_FLOAT32, 0), nullptr);
  vx_tensor six = vxCreateTensor(ctx, 6, dims, VX_TYPE_FLOAT32, 0);
  EXPECT_NE(six, nullptr);
  vxReleaseTensor(&six);
}

TEST_F(runtime_tensor, byte_size_overflow_is_an_error) {
  vx_size huge[6] = {0xFFFFFFFFU, 0xFFFFFFFFU, 0xFFFFFFFFU, 2, 2, 2};
  EXPECT_EQ(vxCreateTensor(ctx, 6, huge, VX_TYPE_FLOAT32, 0), nullptr);
  vx_status status = 0;
  EXPECT_NE(last_log(ref(ctx), &status).find("overflow"), std::string::npos);
  EXPECT_EQ(status, VX_ERROR_NO_MEMORY);
  // Fits exactly in 64 bits times 4 bytes? 2^31 * 2^31 * 4 = 2^64: overflows by one bit.
  vx_size edge[3] = {0x80000000U, 0x80000000U, 1};
  EXPECT_EQ(vxCreateTensor(ctx, 3, edge, VX_TYPE_FLOAT32, 0), nullptr);
}

// rknnopHostSetTensorMemoryLimit: the context's tensors together, counted before allocating; a
// released tensor gives its bytes back; 0 removes the limit.
TEST_F(runtime_tensor, the_tensor_memory_limit_counts_the_contexts_tensors) {
  vx_size limit = 1;
  vx_size in_use = 1;
  ASSERT_EQ(rknnopHostGetTensorMemory(ctx, &in_use, &limit), VX_SUCCESS);
  EXPECT_EQ(limit, 0u);  // none by default
  EXPECT_EQ(in_use, 0u);
  ASSERT_EQ(rknnopHostSetTensorMemoryLimit(ctx, 4096), VX_SUCCESS);
  vx_size dims[2] = {256, 2};  // 2048 bytes of FLOAT32
  vx_tensor a = vxCreateTensor(ctx, 2, dims, VX_TYPE_FLOAT32, 0);
  vx_tensor b = vxCreateTensor(ctx, 2, dims, VX_TYPE_FLOAT32, 0);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  ASSERT_EQ(rknnopHostGetTensorMemory(ctx, &in_use, nullptr), VX_SUCCESS);
  EXPECT_EQ(in_use, 4096u);
  vx_size one[1] = {1};
  EXPECT_EQ(vxCreateTensor(ctx, 1, one, VX_TYPE_UINT8, 0), nullptr);  // the 4097th byte
  vx_status status = 0;
  EXPECT_EQ(last_log(ref(ctx), &status),
            "vxCreateTensor: cannot allocate 1 bytes for dims [1] of UINT8: over the context's tensor memory limit of "
            "4096 bytes (rknnopHostSetTensorMemoryLimit; its tensors hold 4096)");
  EXPECT_EQ(status, VX_ERROR_NO_MEMORY);
  ASSERT_EQ(vxReleaseTensor(&a), VX_SUCCESS);
  ASSERT_EQ(rknnopHostGetTensorMemory(ctx, &in_use, nullptr), VX_SUCCESS);
  EXPECT_EQ(in_use, 2048u);
  vx_tensor c = vxCreateTensor(ctx, 2, dims, VX_TYPE_FLOAT32, 0);
  EXPECT_NE(c, nullptr);
  // Far over the limit: refused by its size before any memory is taken (1 GiB; fits a 32-bit vx_size).
  vx_size huge[3] = {1u << 14, 1u << 14, 1};
  EXPECT_EQ(vxCreateTensor(ctx, 3, huge, VX_TYPE_FLOAT32, 0), nullptr);
  EXPECT_NE(last_log(ref(ctx)).find("over the context's tensor memory limit"), std::string::npos);
  ASSERT_EQ(rknnopHostSetTensorMemoryLimit(ctx, 0), VX_SUCCESS);
  vx_tensor d = vxCreateTensor(ctx, 1, one, VX_TYPE_UINT8, 0);
  EXPECT_NE(d, nullptr);
  EXPECT_EQ(rknnopHostSetTensorMemoryLimit(nullptr, 1), VX_ERROR_INVALID_REFERENCE);
  vxReleaseTensor(&b);
  vxReleaseTensor(&c);
  vxReleaseTensor(&d);
}

TEST_F(runtime_tensor, vsi_query_sizes) {
  vx_size dims[4] = {3, 5, 7, 1};
  vx_tensor t = vxCreateTensor(ctx, 4, dims, VX_TYPE_FLOAT16, -3);
  ASSERT_NE(t, nullptr);

  vx_uint32 ndims = 0;
  EXPECT_EQ(vxQueryTensor(t, VX_TENSOR_NUMBER_OF_DIMS, &ndims, 4), VX_SUCCESS);
  EXPECT_EQ(ndims, 4U);
  std::uint64_t wide = 0;  // 8 bytes on every target (vx_size is 4 on armhf)
  EXPECT_EQ(vxQueryTensor(t, VX_TENSOR_NUMBER_OF_DIMS, &wide, sizeof wide), VX_ERROR_INVALID_PARAMETERS);

  std::array<vx_uint32, 8> got{};
  EXPECT_EQ(vxQueryTensor(t, VX_TENSOR_DIMS, got.data(), 16), VX_SUCCESS);
  EXPECT_EQ((std::array<vx_uint32, 4>{got[0], got[1], got[2], got[3]}), (std::array<vx_uint32, 4>{3, 5, 7, 1}));
  got.fill(99);
  EXPECT_EQ(vxQueryTensor(t, VX_TENSOR_DIMS, got.data(), 24), VX_SUCCESS);
  EXPECT_EQ(got[3], 1U);
  EXPECT_EQ(got[4], 99U);  // only ndims values written
  EXPECT_EQ(vxQueryTensor(t, VX_TENSOR_DIMS, got.data(), 32), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxQueryTensor(t, VX_TENSOR_DIMS, got.data(), 12), VX_ERROR_INVALID_PARAMETERS);

  vx_enum type = 0;
  EXPECT_EQ(vxQueryTensor(t, VX_TENSOR_DATA_TYPE, &type, 4), VX_SUCCESS);
  EXPECT_EQ(type, VX_TYPE_FLOAT16);
  EXPECT_EQ(vxQueryTensor(t, VX_TENSOR_DATA_TYPE, &wide, 8), VX_ERROR_INVALID_PARAMETERS);

  vx_int8 fpp = 0;
  EXPECT_EQ(vxQueryTensor(t, VX_TENSOR_FIXED_POINT_POSITION, &fpp, 1), VX_SUCCESS);
  EXPECT_EQ(fpp, -3);
  EXPECT_EQ(vxQueryTensor(t, VX_TENSOR_FIXED_POINT_POSITION, &ndims, 4), VX_ERROR_INVALID_PARAMETERS);

  EXPECT_EQ(vxQueryTensor(t, VX_TENSOR_DATA_TYPE, nullptr, 4), VX_ERROR_INVALID_PARAMETERS);
  // An attribute the driver does not know: -10, as its vxQueryTensor answers (docs/runtime.md §9).
  EXPECT_EQ(vxQueryTensor(t, 0x781503 /* VSI rank, not implemented */, &ndims, 4), VX_ERROR_INVALID_PARAMETERS);
  vxReleaseTensor(&t);
}

TEST_F(runtime_tensor, khronos_mode_query_sizes) {
  ASSERT_EQ(rknnopHostSetKhronosMode(ctx, vx_true_e), VX_SUCCESS);
  vx_bool on = vx_false_e;
  ASSERT_EQ(rknnopHostGetKhronosMode(ctx, &on), VX_SUCCESS);
  EXPECT_EQ(on, vx_true_e);

  vx_size dims[3] = {4, 5, 6};
  vx_tensor t = vxCreateTensor(ctx, 3, dims, VX_TYPE_INT8, 0);
  vx_size ndims = 0;
  EXPECT_EQ(vxQueryTensor(t, VX_TENSOR_NUMBER_OF_DIMS, &ndims, sizeof ndims), VX_SUCCESS);
  EXPECT_EQ(ndims, 3U);
  vx_uint32 narrow = 0;
  if (sizeof(vx_size) != 4) {  // on 32-bit targets the two conventions have the same sizes
    EXPECT_EQ(vxQueryTensor(t, VX_TENSOR_NUMBER_OF_DIMS, &narrow, 4), VX_ERROR_INVALID_PARAMETERS);
  }
  vx_size got[6] = {};
  EXPECT_EQ(vxQueryTensor(t, VX_TENSOR_DIMS, got, sizeof got), VX_SUCCESS);  // >= is enough
  EXPECT_EQ(got[0], 4U);
  EXPECT_EQ(got[1], 5U);
  EXPECT_EQ(got[2], 6U);
  EXPECT_EQ(vxQueryTensor(t, VX_TENSOR_DIMS, got, 2 * sizeof(vx_size)), VX_ERROR_INVALID_PARAMETERS);

  ASSERT_EQ(rknnopHostSetKhronosMode(ctx, vx_false_e), VX_SUCCESS);
  EXPECT_EQ(vxQueryTensor(t, VX_TENSOR_NUMBER_OF_DIMS, &narrow, 4), VX_SUCCESS);
  vxReleaseTensor(&t);
}

// Fills a tensor with 0, 1, 2, ... through a dense copy.
std::vector<std::int16_t> fill_iota(vx_tensor t, const std::vector<vx_size>& dims) {
  std::vector<vx_size> start(dims.size(), 0), stride(dims.size());
  vx_size count = 1;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    stride[i] = i == 0 ? 2 : stride[i - 1] * dims[i - 1];
    count *= dims[i];
  }
  std::vector<std::int16_t> data(count);
  std::iota(data.begin(), data.end(), std::int16_t{0});
  EXPECT_EQ(vxCopyTensorPatch(t, dims.size(), start.data(), dims.data(), stride.data(), data.data(), VX_WRITE_ONLY,
                              VX_MEMORY_TYPE_HOST),
            VX_SUCCESS);
  return data;
}

TEST_F(runtime_tensor, dense_round_trip_and_written_flag) {
  vx_size dims[3] = {4, 3, 2};
  vx_tensor t = vxCreateTensor(ctx, 3, dims, VX_TYPE_INT16, 0);
  vx_bool written = vx_true_e;
  ASSERT_EQ(rknnopHostTensorWasWritten(t, &written), VX_SUCCESS);
  EXPECT_EQ(written, vx_false_e);

  const auto data = fill_iota(t, {4, 3, 2});
  ASSERT_EQ(rknnopHostTensorWasWritten(t, &written), VX_SUCCESS);
  EXPECT_EQ(written, vx_true_e);

  std::vector<std::int16_t> back(24, -1);
  vx_size start[3] = {0, 0, 0}, end[3] = {4, 3, 2}, stride[3] = {2, 8, 24};
  ASSERT_EQ(vxCopyTensorPatch(t, 3, start, end, stride, back.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(back, data);

  ASSERT_EQ(rknnopHostResetTensorWritten(t), VX_SUCCESS);
  ASSERT_EQ(rknnopHostTensorWasWritten(t, &written), VX_SUCCESS);
  EXPECT_EQ(written, vx_false_e);
  // Reading does not count as writing.
  ASSERT_EQ(vxCopyTensorPatch(t, 3, start, end, stride, back.data(), VX_READ_ONLY, 0), VX_SUCCESS);
  ASSERT_EQ(rknnopHostTensorWasWritten(t, &written), VX_SUCCESS);
  EXPECT_EQ(written, vx_false_e);

  rknnop_host_tensor_buffer buffer{};
  ASSERT_EQ(rknnopHostGetTensorBuffer(t, VX_READ_ONLY, &buffer), VX_SUCCESS);
  EXPECT_EQ(buffer.size_in_bytes, 48U);
  EXPECT_EQ(buffer.num_dims, 3U);
  EXPECT_EQ(buffer.dims[2], 2U);
  EXPECT_EQ(buffer.strides[0], 2U);
  EXPECT_EQ(buffer.strides[1], 8U);
  EXPECT_EQ(buffer.strides[2], 24U);
  EXPECT_EQ(buffer.data_type, VX_TYPE_INT16);
  EXPECT_EQ(std::memcmp(buffer.data, data.data(), 48), 0);
  ASSERT_EQ(rknnopHostTensorWasWritten(t, &written), VX_SUCCESS);
  EXPECT_EQ(written, vx_false_e);
  ASSERT_EQ(rknnopHostGetTensorBuffer(t, VX_READ_AND_WRITE, &buffer), VX_SUCCESS);
  ASSERT_EQ(rknnopHostTensorWasWritten(t, &written), VX_SUCCESS);
  EXPECT_EQ(written, vx_true_e);
  EXPECT_EQ(rknnopHostGetTensorBuffer(t, 0x1234, &buffer), VX_ERROR_INVALID_PARAMETERS);
  vxReleaseTensor(&t);
}

TEST_F(runtime_tensor, sub_view_with_padded_user_strides) {
  vx_size dims[3] = {4, 3, 2};
  vx_tensor t = vxCreateTensor(ctx, 3, dims, VX_TYPE_INT16, 0);
  fill_iota(t, {4, 3, 2});
  // View x 1..3, y 1..2, z 0..1 into a user buffer with rows of 5 elements and planes of 17.
  vx_size start[3] = {1, 1, 0}, end[3] = {3, 3, 2}, stride[3] = {2, 10, 34};
  std::vector<std::int16_t> user(34, -1);
  ASSERT_EQ(vxCopyTensorPatch(t, 3, start, end, stride, user.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  for (int z = 0; z < 2; ++z)
    for (int y = 0; y < 2; ++y)
      for (int x = 0; x < 2; ++x)
        EXPECT_EQ(user[static_cast<std::size_t>(z * 17 + y * 5 + x)],
                  static_cast<std::int16_t>(z * 12 + (y + 1) * 4 + (x + 1)));
  EXPECT_EQ(user[2], -1);  // padding untouched
}

TEST_F(runtime_tensor, element_strided_and_transposed_user_layouts) {
  vx_size dims[2] = {3, 2};
  vx_tensor t = vxCreateTensor(ctx, 2, dims, VX_TYPE_INT16, 0);
  fill_iota(t, {3, 2});  // t[y][x] = y * 3 + x
  vx_size start[2] = {0, 0}, end[2] = {3, 2};

  // Every element 3 slots apart (stride 6 bytes), rows 20 bytes apart.
  std::vector<std::int16_t> spaced(20, -1);
  vx_size spaced_stride[2] = {6, 20};
  ASSERT_EQ(vxCopyTensorPatch(t, 2, start, end, spaced_stride, spaced.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST),
            VX_SUCCESS);
  EXPECT_EQ(spaced[0], 0);
  EXPECT_EQ(spaced[3], 1);
  EXPECT_EQ(spaced[6], 2);
  EXPECT_EQ(spaced[10], 3);
  EXPECT_EQ(spaced[16], 5);
  EXPECT_EQ(spaced[1], -1);

  // Transposed: user[x][y], x outermost.
  std::vector<std::int16_t> transposed(6, -1);
  vx_size transposed_stride[2] = {4, 2};
  ASSERT_EQ(
      vxCopyTensorPatch(t, 2, start, end, transposed_stride, transposed.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST),
      VX_SUCCESS);
  EXPECT_EQ(transposed, (std::vector<std::int16_t>{0, 3, 1, 4, 2, 5}));

  // And back the other way: write transposed data, read dense.
  std::vector<std::int16_t> source{10, 13, 11, 14, 12, 15};
  ASSERT_EQ(vxCopyTensorPatch(t, 2, start, end, transposed_stride, source.data(), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST),
            VX_SUCCESS);
  std::vector<std::int16_t> dense(6);
  vx_size dense_stride[2] = {2, 6};
  ASSERT_EQ(vxCopyTensorPatch(t, 2, start, end, dense_stride, dense.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST),
            VX_SUCCESS);
  EXPECT_EQ(dense, (std::vector<std::int16_t>{10, 11, 12, 13, 14, 15}));
  vxReleaseTensor(&t);
}

// Random ranks, views and user layouts (dense, padded, element-strided, extent-1 dims) against an
// element-by-element copy written here: whole dense patches go out as one memmove, so this checks
// that dims are merged only where both memories are contiguous.
TEST_F(runtime_tensor, random_views_and_layouts_match_an_element_copy) {
  std::mt19937 rng(33);
  auto pick = [&rng](std::size_t lo, std::size_t hi) {
    return std::uniform_int_distribution<std::size_t>(lo, hi)(rng);
  };
  for (int trial = 0; trial < 400; ++trial) {
    const auto rank = static_cast<vx_uint32>(pick(1, 4));
    std::array<vx_size, 4> dims{};
    std::array<vx_size, 4> start{}, end{}, extent{}, stride{};
    std::size_t count = 1;
    for (vx_uint32 i = 0; i < rank; ++i) {
      dims[i] = pick(1, 5);
      const bool full = pick(0, 1) == 1;
      start[i] = full ? 0 : pick(0, dims[i] - 1);
      end[i] = full ? dims[i] : pick(start[i] + 1, dims[i]);
      extent[i] = end[i] - start[i];
      count *= dims[i];
    }
    // User strides in elements: dim 0 dense or spaced, each outer dim dense or padded.
    std::array<std::size_t, 4> user_stride{};
    user_stride[0] = pick(0, 3) == 0 ? 2 : 1;
    std::size_t user_size = user_stride[0] * extent[0];
    for (vx_uint32 i = 1; i < rank; ++i) {
      user_stride[i] = user_size + (pick(0, 2) == 0 ? pick(1, 3) : 0);
      user_size = user_stride[i] * extent[i];
    }
    for (vx_uint32 i = 0; i < rank; ++i) stride[i] = user_stride[i] * sizeof(std::int16_t);

    vx_tensor t = vxCreateTensor(ctx, rank, dims.data(), VX_TYPE_INT16, 0);
    std::vector<std::int16_t> tensor(count), expected(count);
    std::iota(tensor.begin(), tensor.end(), std::int16_t{1});
    vx_size all_start[4] = {}, all_end[4] = {}, dense[4] = {};
    for (vx_uint32 i = 0; i < rank; ++i) {
      all_end[i] = dims[i];
      dense[i] = i == 0 ? 2 : dense[i - 1] * dims[i - 1];
    }
    ASSERT_EQ(vxCopyTensorPatch(t, rank, all_start, all_end, dense, tensor.data(), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST),
              VX_SUCCESS);

    // Read the view into the user's layout; write it back negated; read the whole tensor.
    std::vector<std::int16_t> user(user_size, -1), expected_user(user_size, -1);
    expected = tensor;
    std::array<std::size_t, 4> index{};
    for (;;) {
      std::size_t t_at = 0, u_at = 0;
      for (vx_uint32 i = rank; i-- > 0;) {
        t_at = t_at * dims[i] + start[i] + index[i];
        u_at += index[i] * user_stride[i];
      }
      expected_user[u_at] = tensor[t_at];
      expected[t_at] = static_cast<std::int16_t>(-tensor[t_at]);
      vx_uint32 d = 0;
      while (d < rank && ++index[d] == extent[d]) index[d++] = 0;
      if (d == rank) break;
    }
    ASSERT_EQ(vxCopyTensorPatch(t, rank, start.data(), end.data(), stride.data(), user.data(), VX_READ_ONLY,
                                VX_MEMORY_TYPE_HOST),
              VX_SUCCESS);
    ASSERT_EQ(user, expected_user) << "trial " << trial;
    for (std::int16_t& v : user) v = static_cast<std::int16_t>(-v);
    ASSERT_EQ(vxCopyTensorPatch(t, rank, start.data(), end.data(), stride.data(), user.data(), VX_WRITE_ONLY,
                                VX_MEMORY_TYPE_HOST),
              VX_SUCCESS);
    std::vector<std::int16_t> back(count);
    ASSERT_EQ(vxCopyTensorPatch(t, rank, all_start, all_end, dense, back.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST),
              VX_SUCCESS);
    ASSERT_EQ(back, expected) << "trial " << trial;
    vxReleaseTensor(&t);
  }
}

TEST_F(runtime_tensor, copy_argument_errors) {
  vx_size dims[2] = {3, 2};
  vx_tensor t = vxCreateTensor(ctx, 2, dims, VX_TYPE_FLOAT32, 0);
  float data[6] = {};
  vx_size start[2] = {0, 0}, end[2] = {3, 2}, stride[2] = {4, 12};
  const auto copy = [&](vx_size n, const vx_size* s, const vx_size* e, const vx_size* st, void* p, vx_enum usage,
                        vx_enum mem) { return vxCopyTensorPatch(t, n, s, e, st, p, usage, mem); };
  // number_of_dims: 1..rank, as the driver takes it.
  EXPECT_EQ(copy(0, start, end, stride, data, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(copy(3, start, end, stride, data, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  vx_size too_far[2] = {4, 2};
  EXPECT_EQ(copy(2, start, too_far, stride, data, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  vx_size empty_start[2] = {1, 0}, empty_end[2] = {1, 2};
  EXPECT_EQ(copy(2, empty_start, empty_end, stride, data, VX_READ_ONLY, VX_MEMORY_TYPE_HOST),
            VX_ERROR_INVALID_PARAMETERS);
  vx_size small_stride[2] = {2, 12};
  EXPECT_EQ(copy(2, start, end, small_stride, data, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(copy(2, start, end, stride, data, VX_READ_AND_WRITE, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(copy(2, start, end, stride, data, VX_READ_ONLY, VX_MEMORY_TYPE_NONE), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(copy(2, start, end, stride, nullptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(copy(2, nullptr, end, stride, data, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(copy(2, start, end, nullptr, data, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(copy(2, start, end, stride, data, VX_READ_ONLY, 0), VX_SUCCESS);
  // A dimension of view extent 1 needs no meaningful stride.
  vx_size one_row_end[2] = {3, 1}, one_row_stride[2] = {4, 0};
  EXPECT_EQ(copy(2, start, one_row_end, one_row_stride, data, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  vx_bool written = vx_true_e;
  rknnopHostTensorWasWritten(t, &written);
  EXPECT_EQ(written, vx_false_e);  // failed writes do not count
  vxReleaseTensor(&t);
}

TEST_F(runtime_tensor, virtual_tensor_unknown_until_verify) {
  vx_graph g = vxCreateGraph(ctx);
  vx_tensor v = vxCreateVirtualTensor(g, 0, nullptr, VX_TYPE_FLOAT16, 0);
  ASSERT_EQ(vxGetStatus(ref(v)), VX_SUCCESS);
  vx_uint32 ndims = 99;
  ASSERT_EQ(vxQueryTensor(v, VX_TENSOR_NUMBER_OF_DIMS, &ndims, 4), VX_SUCCESS);
  EXPECT_EQ(ndims, 0U);
  vx_uint32 dims[6];
  EXPECT_EQ(vxQueryTensor(v, VX_TENSOR_DIMS, dims, sizeof dims), VX_SUCCESS);
  vx_size start[1] = {0}, end[1] = {1}, stride[1] = {2};
  std::int16_t value = 0;
  // Outside a kernel function a virtual tensor is not copied at all (-9, before any other check).
  EXPECT_EQ(vxCopyTensorPatch(v, 0, start, end, stride, &value, VX_READ_ONLY, VX_MEMORY_TYPE_HOST),
            VX_ERROR_OPTIMIZED_AWAY);
  rknnop_host_tensor_buffer buffer{};
  EXPECT_EQ(rknnopHostGetTensorBuffer(v, VX_READ_ONLY, &buffer), VX_ERROR_NOT_ALLOCATED);
  EXPECT_EQ(vxCreateVirtualTensor(nullptr, 0, nullptr, VX_TYPE_FLOAT16, 0), nullptr);
  EXPECT_EQ(vxCreateVirtualTensor(g, 0, nullptr, VX_TYPE_FLOAT64, 0), nullptr);
  vxReleaseTensor(&v);
  vxReleaseGraph(&g);
}

// Fewer dims than the rank, as the driver accepts: the dims past number_of_dims are not walked, so
// the patch lies in their first index.
TEST_F(runtime_tensor, copy_with_fewer_dims_than_the_rank_stays_in_the_first_index_of_the_rest) {
  vx_size dims[3] = {3, 2, 2};
  vx_tensor t = vxCreateTensor(ctx, 3, dims, VX_TYPE_FLOAT32, 0);
  float all[12];
  for (int i = 0; i < 12; ++i) all[i] = static_cast<float>(i);
  vx_size start[3] = {0, 0, 0}, end[3] = {3, 2, 2}, stride[3] = {4, 12, 24};
  ASSERT_EQ(vxCopyTensorPatch(t, 3, start, end, stride, all, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  float row[3] = {-1, -1, -1};
  vx_size row_start[1] = {0}, row_end[1] = {3}, row_stride[1] = {4};
  ASSERT_EQ(vxCopyTensorPatch(t, 1, row_start, row_end, row_stride, row, VX_READ_ONLY, VX_MEMORY_TYPE_HOST),
            VX_SUCCESS);
  EXPECT_EQ((std::vector<float>{row[0], row[1], row[2]}), (std::vector<float>{0, 1, 2}));
  float plane[6] = {};
  vx_size plane_end[2] = {3, 2};
  ASSERT_EQ(vxCopyTensorPatch(t, 2, start, plane_end, stride, plane, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(std::vector<float>(plane, plane + 6), (std::vector<float>{0, 1, 2, 3, 4, 5}));
  vxReleaseTensor(&t);
}

}  // namespace

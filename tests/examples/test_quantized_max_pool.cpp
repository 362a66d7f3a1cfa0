// SPDX-License-Identifier: MIT
// examples/quantized_max_pool through the host runtime: hand tables for VALID and SAME (odd and even
// padding), a padded-image reference on random inputs, the pass-through range outputs, float16 (the
// board's dtype), every param error, and quantized_max_pool.vx on POCL.
#include "quantized_max_pool/quantized_max_pool.cpp"

#include "example_test_util.hpp"

#include <algorithm>
#include <array>
#include <random>

namespace {

using rknnop::float16;
using rknnop::test::harness;
using rknnop::test::ref;

struct pool_args {
  std::array<std::int32_t, 4> ksize, strides;
  std::int32_t padding;  // 0 VALID, 1 SAME
  float min_input = -1.5f, max_input = 6.25f;
};

struct pool_result {
  vx_status status = VX_FAILURE;
  std::vector<std::uint8_t> output;
  std::vector<std::uint32_t> dims;
  std::vector<float> min_output, max_output;
  std::string log;
};

// NHWC input given as (n, h, w, c) sizes; uint8 tensors, float range outputs.
pool_result run_pool(std::array<std::uint32_t, 4> nhwc, const std::vector<std::uint8_t>& in, const pool_args& a) {
  harness h(vx_kernel_QuantizedMaxPool_list.entries[0]);
  vx_tensor out = h.virtual_tensor(VX_TYPE_UINT8), lo = h.virtual_tensor(VX_TYPE_FLOAT32),
            hi = h.virtual_tensor(VX_TYPE_FLOAT32);
  pool_result r;
  r.status = h.run({ref(h.tensor({nhwc[3], nhwc[2], nhwc[1], nhwc[0]}, VX_TYPE_UINT8, in)), ref(out), ref(lo), ref(hi),
                    ref(h.scalar(VX_TYPE_FLOAT32, &a.min_input)), ref(h.scalar(VX_TYPE_FLOAT32, &a.max_input)),
                    ref(h.array({a.ksize.begin(), a.ksize.end()})), ref(h.array({a.strides.begin(), a.strides.end()})),
                    ref(h.scalar(VX_TYPE_INT32, &a.padding))});
  r.log = h.last_log();
  if (r.status != VX_SUCCESS) return r;
  r.output = harness::read<std::uint8_t>(out);
  r.dims = harness::dims(out);
  r.min_output = harness::read<float>(lo);
  r.max_output = harness::read<float>(hi);
  return r;
}

TEST(ExampleQuantizedMaxPool, Valid2x2Stride2HandTable) {
  // 1x4x4x2: channel 0 counts 0..15 row by row, channel 1 is 100 - that.
  std::vector<std::uint8_t> in;
  for (int i = 0; i < 16; ++i) in.insert(in.end(), {std::uint8_t(i), std::uint8_t(100 - i)});
  const auto r = run_pool({1, 4, 4, 2}, in, {{1, 2, 2, 1}, {1, 2, 2, 1}, 0});
  ASSERT_EQ(r.status, VX_SUCCESS) << r.log;
  EXPECT_EQ(r.dims, (std::vector<std::uint32_t>{2, 2, 2, 1}));
  EXPECT_EQ(r.output, (std::vector<std::uint8_t>{5, 100, 7, 98, 13, 92, 15, 90}));
  EXPECT_EQ(r.min_output, std::vector<float>{-1.5f});  // max pooling keeps the quantization range
  EXPECT_EQ(r.max_output, std::vector<float>{6.25f});
}

TEST(ExampleQuantizedMaxPool, Same3x3Stride2PadsOneCellEachSide) {
  // 5x5 image of 10*row + col (except a 99 at row 4, col 0); SAME, 3x3, stride 2: output 3x3,
  // padding (3-1)*2 + 3 - 5 = 2 rows/cols, one before.
  std::vector<std::uint8_t> in;
  for (int y = 0; y < 5; ++y)
    for (int x = 0; x < 5; ++x) in.push_back(std::uint8_t(10 * y + x));
  in[20] = 99;
  const auto r = run_pool({1, 5, 5, 1}, in, {{1, 3, 3, 1}, {1, 2, 2, 1}, 1});
  ASSERT_EQ(r.status, VX_SUCCESS) << r.log;
  EXPECT_EQ(r.dims, (std::vector<std::uint32_t>{1, 3, 3, 1}));
  // Windows rows/cols {0,1}, {1,2,3}, {3,4}.
  EXPECT_EQ(r.output, (std::vector<std::uint8_t>{11, 13, 14, 31, 33, 34, 99, 43, 44}));
}

TEST(ExampleQuantizedMaxPool, SameWithOddPaddingPutsTheExtraCellAfter) {
  // 1x1x4x1, window 1x2, stride 1, SAME: padding 1 column, 0 before (TensorFlow's floor split).
  const auto r = run_pool({1, 1, 4, 1}, {9, 3, 7, 5}, {{1, 1, 2, 1}, {1, 1, 1, 1}, 1});
  ASSERT_EQ(r.status, VX_SUCCESS) << r.log;
  EXPECT_EQ(r.output, (std::vector<std::uint8_t>{9, 7, 7, 5}));
  const auto v = run_pool({1, 1, 4, 1}, {9, 3, 7, 5}, {{1, 1, 2, 1}, {1, 1, 1, 1}, 0});
  ASSERT_EQ(v.status, VX_SUCCESS) << v.log;
  EXPECT_EQ(v.output, (std::vector<std::uint8_t>{9, 7, 7}));
}

// Reference: build the padded image explicitly (padding cells hold -1, below every quint8), then
// take the max of every full window.
std::vector<std::uint8_t> reference(std::array<std::uint32_t, 4> s, const std::vector<std::uint8_t>& in,
                                    const pool_args& a, std::uint32_t& oh, std::uint32_t& ow) {
  const int H = int(s[1]), W = int(s[2]), C = int(s[3]), kh = a.ksize[1], kw = a.ksize[2], sh = a.strides[1],
            sw = a.strides[2];
  int ph = 0, pw = 0;
  if (a.padding) {
    oh = std::uint32_t((H + sh - 1) / sh), ow = std::uint32_t((W + sw - 1) / sw);
    ph = std::max((int(oh) - 1) * sh + kh - H, 0), pw = std::max((int(ow) - 1) * sw + kw - W, 0);
  } else {
    oh = std::uint32_t((H - kh) / sh + 1), ow = std::uint32_t((W - kw) / sw + 1);
  }
  const int PH = H + ph, PW = W + pw;
  std::vector<int> padded(static_cast<std::size_t>(s[0]) * std::size_t(PH * PW * C), -1);
  for (std::size_t n = 0; n < s[0]; ++n)
    for (int y = 0; y < H; ++y)
      for (int x = 0; x < W; ++x)
        for (int c = 0; c < C; ++c)
          padded[((n * std::size_t(PH) + std::size_t(y + ph / 2)) * std::size_t(PW) + std::size_t(x + pw / 2)) *
                     std::size_t(C) +
                 std::size_t(c)] =
              in[((n * std::size_t(H) + std::size_t(y)) * std::size_t(W) + std::size_t(x)) * std::size_t(C) +
                 std::size_t(c)];
  std::vector<std::uint8_t> out;
  for (std::size_t n = 0; n < s[0]; ++n)
    for (int oy = 0; oy < int(oh); ++oy)
      for (int ox = 0; ox < int(ow); ++ox)
        for (int c = 0; c < C; ++c) {
          int best = -1;
          for (int y = oy * sh; y < oy * sh + kh && y < PH; ++y)
            for (int x = ox * sw; x < ox * sw + kw && x < PW; ++x)
              best = std::max(
                  best,
                  padded[((n * std::size_t(PH) + std::size_t(y)) * std::size_t(PW) + std::size_t(x)) * std::size_t(C) +
                         std::size_t(c)]);
          out.push_back(std::uint8_t(best));
        }
  return out;
}

TEST(ExampleQuantizedMaxPool, RandomImagesMatchAPaddedImageReference) {
  std::mt19937 rng(7);
  const std::vector<std::pair<std::array<std::uint32_t, 4>, pool_args>> cases = {
      {{2, 7, 9, 3}, {{1, 3, 3, 1}, {1, 2, 2, 1}, 1}},  {{1, 7, 9, 3}, {{1, 3, 3, 1}, {1, 2, 2, 1}, 0}},
      {{1, 8, 6, 4}, {{1, 2, 3, 1}, {1, 3, 1, 1}, 1}},  {{3, 5, 5, 1}, {{1, 5, 5, 1}, {1, 1, 1, 1}, 1}},
      {{1, 6, 11, 2}, {{1, 1, 4, 1}, {1, 2, 3, 1}, 0}}, {{1, 4, 4, 5}, {{1, 4, 4, 1}, {1, 4, 4, 1}, 0}}};
  for (const auto& [shape, args] : cases) {
    std::vector<std::uint8_t> in(static_cast<std::size_t>(shape[0]) * shape[1] * shape[2] * shape[3]);
    for (auto& v : in) v = std::uint8_t(rng() % 256);
    std::uint32_t oh = 0, ow = 0;
    const auto expected = reference(shape, in, args, oh, ow);
    const auto r = run_pool(shape, in, args);
    ASSERT_EQ(r.status, VX_SUCCESS) << r.log;
    EXPECT_EQ(r.dims, (std::vector<std::uint32_t>{shape[3], ow, oh, shape[0]}));
    EXPECT_EQ(r.output, expected) << "k " << args.ksize[1] << "x" << args.ksize[2] << " padding " << args.padding;
  }
}

TEST(ExampleQuantizedMaxPool, Float16TensorsAsTheBoardDeliversThem) {
  harness h(vx_kernel_QuantizedMaxPool_list.entries[0]);
  const float lo_in = 0.f, hi_in = 1.f;
  const std::array<std::int32_t, 4> k = {1, 2, 2, 1};
  const std::int32_t valid = 0;
  vx_tensor out = h.virtual_tensor(VX_TYPE_FLOAT16), lo = h.virtual_tensor(VX_TYPE_FLOAT16),
            hi = h.virtual_tensor(VX_TYPE_FLOAT16);
  ASSERT_EQ(h.run({ref(h.tensor({1, 2, 2, 1}, VX_TYPE_FLOAT16, rknnop::test::to_half({3, 255, 17, 4}))), ref(out),
                   ref(lo), ref(hi), ref(h.scalar(VX_TYPE_FLOAT32, &lo_in)), ref(h.scalar(VX_TYPE_FLOAT32, &hi_in)),
                   ref(h.array({k.begin(), k.end()})), ref(h.array({k.begin(), k.end()})),
                   ref(h.scalar(VX_TYPE_INT32, &valid))}),
            VX_SUCCESS)
      << h.last_log();
  EXPECT_EQ(rknnop::test::to_float(harness::read<float16>(out)), std::vector<float>{255.f});
  EXPECT_EQ(rknnop::test::to_float(harness::read<float16>(lo)), std::vector<float>{0.f});
  EXPECT_EQ(rknnop::test::to_float(harness::read<float16>(hi)), std::vector<float>{1.f});
}

TEST(ExampleQuantizedMaxPool, ParamErrors) {
  const std::vector<std::uint8_t> in(16, 1);
  const std::string prefix = "rknnop: QuantizedMaxPool: shape inference (infer) failed: ";
  EXPECT_EQ(run_pool({1, 4, 4, 1}, in, {{2, 2, 2, 1}, {1, 2, 2, 1}, 0}).log,
            prefix + "pooling over the batch or depth dimension is not supported: ksize [2,2,2,1], strides [1,2,2,1]");
  EXPECT_EQ(run_pool({1, 4, 4, 1}, in, {{1, 2, 2, 1}, {1, 0, 2, 1}, 0}).log,
            prefix + "ksize and strides must be >= 1, got ksize [1,2,2,1], strides [1,0,2,1]");
  EXPECT_EQ(run_pool({1, 4, 4, 1}, in, {{1, 2, 2, 1}, {1, 2, 2, 1}, 2}).log,
            prefix + "padding must be 0 (VALID) or 1 (SAME), got 2");
  EXPECT_EQ(run_pool({1, 4, 4, 1}, in, {{1, 5, 2, 1}, {1, 1, 1, 1}, 0}).log,
            prefix + "VALID pooling of a 4x4 image with a 5x2 window gives no output");
  EXPECT_EQ(run_pool({1, 4, 4, 1}, in, {{1, 5, 2, 1}, {1, 1, 1, 1}, 1}).status, VX_SUCCESS);  // SAME always has output

  harness h(vx_kernel_QuantizedMaxPool_list.entries[0]);
  const float f = 0.f;
  const std::array<std::int32_t, 4> k = {1, 2, 2, 1};
  EXPECT_EQ(h.run({ref(h.tensor({1, 4, 4, 1}, VX_TYPE_UINT8, in)), ref(h.virtual_tensor(VX_TYPE_UINT8)),
                   ref(h.virtual_tensor(VX_TYPE_FLOAT32)), ref(h.virtual_tensor(VX_TYPE_FLOAT32)),
                   ref(h.scalar(VX_TYPE_FLOAT32, &f)), ref(h.scalar(VX_TYPE_FLOAT32, &f)),
                   ref(h.array({k.begin(), k.end()})), ref(h.array({1, 2, 2})), ref(h.scalar(VX_TYPE_FLOAT32, &f))}),
            VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(h.last_log(), "rknnop: QuantizedMaxPool: param 'strides': expected exactly 4 items, got 3");
}

TEST(ExampleQuantizedMaxPool, PaddingOfTheWrongScalarTypeIsRejectedByName) {
  harness h(vx_kernel_QuantizedMaxPool_list.entries[0]);
  const float f = 1.f;
  const std::array<std::int32_t, 4> k = {1, 2, 2, 1};
  EXPECT_EQ(h.run({ref(h.tensor({1, 4, 4, 1}, VX_TYPE_UINT8, std::vector<std::uint8_t>(16, 1))),
                   ref(h.virtual_tensor(VX_TYPE_UINT8)), ref(h.virtual_tensor(VX_TYPE_FLOAT32)),
                   ref(h.virtual_tensor(VX_TYPE_FLOAT32)), ref(h.scalar(VX_TYPE_FLOAT32, &f)),
                   ref(h.scalar(VX_TYPE_FLOAT32, &f)), ref(h.array({k.begin(), k.end()})),
                   ref(h.array({k.begin(), k.end()})), ref(h.scalar(VX_TYPE_FLOAT32, &f))}),
            VX_ERROR_INVALID_TYPE);
  EXPECT_EQ(h.last_log(),
            "rknnop: QuantizedMaxPool: param 'padding': expected a VX_TYPE_INT32 scalar, got VX_TYPE_FLOAT32");
}

TEST(ExampleQuantizedMaxPool, ShaderMatchesTheCpuKernel) {
  RKNNOP_SKIP_WITHOUT_OPENCL();
#if RKNNOP_EXAMPLES_HAVE_VXC
  const std::array<std::uint32_t, 4> shape = {1, 7, 9, 3};
  const std::vector<std::uint32_t> dims = {3, 9, 7, 1};
  std::mt19937 rng(11);
  std::vector<float> pixels(7 * 9 * 3);
  for (auto& v : pixels) v = float(rng() % 256);
  for (std::int32_t padding : {0, 1}) {
    const pool_args a{{1, 3, 2, 1}, {1, 2, 2, 1}, padding};
    std::vector<std::uint8_t> in8(pixels.begin(), pixels.end());
    const auto cpu = run_pool(shape, in8, a);
    ASSERT_EQ(cpu.status, VX_SUCCESS) << cpu.log;

    harness h(vx_kernel_QuantizedMaxPool_list.entries[1]);
    const auto x = rknnop::test::to_half(pixels);
    ASSERT_EQ(
        h.verify_only({ref(h.tensor(dims, VX_TYPE_FLOAT16, x)), ref(h.virtual_tensor(VX_TYPE_FLOAT16)),
                       ref(h.virtual_tensor(VX_TYPE_FLOAT16)), ref(h.virtual_tensor(VX_TYPE_FLOAT16)),
                       ref(h.scalar(VX_TYPE_FLOAT32, &a.min_input)), ref(h.scalar(VX_TYPE_FLOAT32, &a.max_input)),
                       ref(h.array({a.ksize.begin(), a.ksize.end()})),
                       ref(h.array({a.strides.begin(), a.strides.end()})), ref(h.scalar(VX_TYPE_INT32, &a.padding))}),
        VX_SUCCESS)
        << h.last_log();
    vx_kernel_execution_parameters_t p{};
    ASSERT_TRUE(rknnop::test::execution_parameters_of(h.node(), p));
    std::vector<std::uint16_t> in = rknnop::test::half_bits(x), out(cpu.output.size(), 0xFFFF), lo(1), hi(1);
    using namespace rknnop::vxc;
    using rknnop::vx_type;
    const auto r = rknnop::test::run_shader(
        "quantized_max_pool/quantized_max_pool.vx", "quantizedmaxpool", p,
        {rknnop::test::shader_tensor(dims, vx_type::float16, in),
         rknnop::test::shader_tensor(cpu.dims, vx_type::float16, out),
         rknnop::test::shader_tensor({1}, vx_type::float16, lo), rknnop::test::shader_tensor({1}, vx_type::float16, hi),
         scalar_arg::of(vx_type::float32, a.min_input), scalar_arg::of(vx_type::float32, a.max_input),
         array_arg{a.ksize}, array_arg{a.strides}, scalar_arg::of(vx_type::int32, a.padding)});
    ASSERT_TRUE(r.ok()) << r.message;
    std::vector<float> expected(cpu.output.begin(), cpu.output.end());
    EXPECT_EQ(rknnop::test::to_float(std::vector<float16>(reinterpret_cast<float16*>(out.data()),
                                                          reinterpret_cast<float16*>(out.data() + out.size()))),
              expected)
        << "padding " << padding;
    EXPECT_EQ(float(float16::from_bits(lo[0])), a.min_input);
    EXPECT_EQ(float(float16::from_bits(hi[0])), a.max_input);
  }
#endif
}

}  // namespace

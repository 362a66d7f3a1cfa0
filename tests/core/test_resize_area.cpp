// SPDX-License-Identifier: MIT
// Compile-time checks of what rknnop generates for ResizeArea, plus run-time reads of the same
// exported bytes (the list symbol, through the C types).
#include "resize_area/resize_area.cpp"  // the example op, compiled into this test program

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>
#include <algorithm>
#include <cmath>
#include <random>

namespace {

// --- static checks on field types and concepts ---------------------------------------------------
using rknnop::detail::int32_array_type;
using rknnop::detail::tensor_field;
using rknnop::detail::vx_scalar_type;
static_assert(vx_scalar_type<bool> && vx_scalar_type<char> && vx_scalar_type<std::int8_t> &&
              vx_scalar_type<std::uint64_t> && vx_scalar_type<rknnop::float16> && vx_scalar_type<double>);
static_assert(!vx_scalar_type<long double> && !vx_scalar_type<std::string> && !vx_scalar_type<int*> &&
              !vx_scalar_type<char32_t> && !vx_scalar_type<std::array<int, 2>>);
static_assert(int32_array_type<std::array<std::int32_t, 3>> && int32_array_type<rknnop::int_array<8>>);
static_assert(!int32_array_type<std::array<std::int64_t, 3>> && !int32_array_type<std::vector<std::int32_t>>);
static_assert(tensor_field<rknnop::tensor<float>> && !tensor_field<float>);

using rknnop::detail::scalar_vx_type;
static_assert(scalar_vx_type<bool>() == VX_TYPE_BOOL && scalar_vx_type<char>() == VX_TYPE_CHAR);
static_assert(scalar_vx_type<signed char>() == VX_TYPE_INT8 && scalar_vx_type<unsigned char>() == VX_TYPE_UINT8);
static_assert(scalar_vx_type<short>() == VX_TYPE_INT16 && scalar_vx_type<unsigned short>() == VX_TYPE_UINT16);
static_assert(scalar_vx_type<int>() == VX_TYPE_INT32 && scalar_vx_type<unsigned>() == VX_TYPE_UINT32);
static_assert(scalar_vx_type<long long>() == VX_TYPE_INT64 && scalar_vx_type<std::uint64_t>() == VX_TYPE_UINT64);
static_assert(scalar_vx_type<rknnop::float16>() == VX_TYPE_FLOAT16 && scalar_vx_type<float>() == VX_TYPE_FLOAT32 &&
              scalar_vx_type<double>() == VX_TYPE_FLOAT64);

struct not_an_op {};
static_assert(!rknnop::op_spec<not_an_op>);
static_assert(!rknnop::op_spec<int>);

// --- ResizeArea's description and tables ---------------------------------------------------------
using model = rknnop::detail::op_model<ResizeArea>;
static_assert(model::input_count == 1 && model::output_count == 1 && model::param_count == 2);
static_assert(model::table_size == 4 && model::has_vx);
static_assert(model::fields[0].name == "images" && model::fields[1].name == "output");
static_assert(model::fields[2].name == "size" && model::fields[3].name == "align_corners");
static_assert(model::fields[2].kind == rknnop::field_kind::array && model::fields[2].capacity == 2 &&
              model::fields[2].exact);
static_assert(model::fields[3].kind == rknnop::field_kind::scalar && model::fields[3].vx_type == VX_TYPE_BOOL);
static_assert(model::fields[0].vx_type == VX_TYPE_FLOAT32 && model::fields[0].accepted_count == 2 &&
              model::fields[0].required_rank == 4);

constexpr rknnop::detail::kernel_storage<ResizeArea> resize_area_storage{};
// The toolkit's ResizeArea table, byte for byte: (0,0x815,0x8000) (1,0x815,0x8000) (0,0x80E,0x8000) (0,0x80D,0x8000).
constexpr vx_param_description_t toolkit_table[] = {
    {0, 0x815, 0x8000}, {1, 0x815, 0x8000}, {0, 0x80E, 0x8000}, {0, 0x80D, 0x8000}};
static_assert([] {
  for (int i = 0; i < 4; ++i)
    if (resize_area_storage.table[i].direction != toolkit_table[i].direction ||
        resize_area_storage.table[i].data_type != toolkit_table[i].data_type ||
        resize_area_storage.table[i].state != toolkit_table[i].state)
      return false;
  return true;
}());
static_assert(resize_area_storage.cpu.numParams == 4 && resize_area_storage.vx.numParams == 4);
static_assert(resize_area_storage.cpu.name[0] == 'r' && resize_area_storage.cpu.name[13] == 'u' &&
              resize_area_storage.cpu.name[14] == '\0');

TEST(Static, ParamTableBytes) {
  EXPECT_EQ(0, std::memcmp(vx_kernel_ResizeArea_list.entries[0]->parameters, toolkit_table, sizeof toolkit_table));
  EXPECT_EQ(sizeof(toolkit_table), 48u);
}

TEST(Static, ExportedListShape) {
  vx_kernel_description_t** list = vx_kernel_ResizeArea_list.entries;
  ASSERT_NE(list[0], nullptr);
  ASSERT_NE(list[1], nullptr);
  EXPECT_EQ(list[2], nullptr);
  EXPECT_STREQ(list[0]->name, "resizearea_cpu");
  EXPECT_STREQ(list[1]->name, "resizearea");
  EXPECT_NE(list[0]->function, nullptr);
  EXPECT_EQ(list[1]->function, nullptr);  // shader kernels are built from the program, not called
  EXPECT_NE(list[0]->validate, nullptr);
  EXPECT_NE(list[0]->initialize, nullptr);  // keeps the tensors' facts as node local data
  EXPECT_NE(list[0]->deinitialize, nullptr);
  EXPECT_NE(list[1]->initialize, nullptr);
  EXPECT_NE(list[1]->deinitialize, nullptr);
  EXPECT_EQ(list[0]->input_validate, nullptr);
  EXPECT_EQ(list[0]->output_validate, nullptr);
  EXPECT_EQ(sizeof(vx_kernel_description_t*) * 3, sizeof(vx_kernel_ResizeArea_list));
}

TEST(Static, DescriptorsAreWritable) {
  // The board runtime writes `enumeration` of the descriptor it selects.
  vx_kernel_description_t* d = vx_kernel_ResizeArea_list.entries[0];
  const vx_enum before = d->enumeration;
  d->enumeration = static_cast<vx_enum>(0xFFF03080u);
  EXPECT_EQ(d->enumeration, static_cast<vx_enum>(0xFFF03080u));
  d->enumeration = before;
}

TEST(Static, FingerprintFollowsTheName) {
  const char* name = vx_kernel_ResizeArea_list.entries[0]->name;
  const std::string tail(name + std::strlen(name) + 1);
  char expected[32];
  std::snprintf(expected, sizeof expected, "rknnop-schema:%016llx",
                static_cast<unsigned long long>(model::fingerprint));
  EXPECT_EQ(tail, expected);
}

}  // namespace

extern "C" int rknnop_test_c_walk(void);

TEST(Static, CWalk) { EXPECT_EQ(rknnop_test_c_walk(), 2); }

// --- the kernel itself, called directly with views over local buffers ----------------------------
namespace {

struct image {
  std::vector<float> data;
  std::uint32_t n, h, w, c;
};

// Runs ResizeArea's shape inference and CPU kernel on an NHWC float image.
image run(const image& in, int out_h, int out_w, bool align) {
  ResizeArea::inputs inputs;
  ResizeArea::outputs outputs;
  ResizeArea::params params{{out_h, out_w}, align};
  const std::uint32_t in_dims[] = {in.c, in.w, in.h, in.n};
  inputs.images.bind(const_cast<float*>(in.data.data()), in_dims, 4, VX_TYPE_FLOAT32);
  rknnop::status s = ResizeArea::infer(inputs, outputs, params);
  EXPECT_TRUE(s.ok()) << s.message();
  image out{{}, outputs.output.n(), outputs.output.h(), outputs.output.w(), outputs.output.c()};
  out.data.assign(outputs.output.size(), -1.f);
  const std::uint32_t out_dims[] = {out.c, out.w, out.h, out.n};
  outputs.output.bind(out.data.data(), out_dims, 4, VX_TYPE_FLOAT32);
  ResizeArea::cpu(inputs, outputs, params);  // cannot fail: returns void
  return out;
}

// TensorFlow's own expected values (image_ops_test.py, ResizeImages tests, method AREA).
TEST(ResizeAreaKernel, TensorFlowUpscaleAlignCornersFalse) {
  const image in{{64, 32, 32, 64, 50, 100}, 1, 3, 2, 1};
  const std::vector<float> expected = {64, 64, 32, 32, 64, 64, 32,  32,  32, 32, 64,  64,
                                       32, 32, 64, 64, 50, 50, 100, 100, 50, 50, 100, 100};
  const image out = run(in, 6, 4, false);
  ASSERT_EQ(out.data.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_NEAR(out.data[i], expected[i], 1e-5) << i;
}

TEST(ResizeAreaKernel, TensorFlowUpscaleAlignCornersTrue) {
  const image in{{6, 3, 3, 6, 6, 9}, 1, 3, 2, 1};
  const std::vector<float> expected = {6, 6, 6, 3, 6, 6, 6, 3, 3, 3, 3, 6, 3, 3, 3, 6, 6, 6, 6, 9};
  const image out = run(in, 5, 4, true);
  ASSERT_EQ(out.data.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_NEAR(out.data[i], expected[i], 1e-5) << i;
}

TEST(ResizeAreaKernel, TensorFlowDownscale) {
  const image in{
      {127, 127, 64, 64, 127, 127, 64, 64, 64, 64, 127, 127, 64, 64, 127, 127, 50, 50, 100, 100, 50, 50, 100, 100},
      1,
      6,
      4,
      1};
  const std::vector<float> expected = {127, 64, 64, 127, 50, 100};
  const image out = run(in, 3, 2, false);
  ASSERT_EQ(out.data.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_NEAR(out.data[i], expected[i], 1e-5) << i;
}

// The quirks the reference describes: align_corners windows start at 0.
TEST(ResizeAreaKernel, AlignCornersQuirks) {
  const image in3{{1, 2, 4}, 1, 1, 3, 1};
  const image up = run(in3, 1, 7, true);
  const std::vector<float> expected_up = {1, 1, 1, 2, 2, 2, 4};
  ASSERT_EQ(up.data.size(), expected_up.size());
  for (std::size_t i = 0; i < 7; ++i) EXPECT_NEAR(up.data[i], expected_up[i], 1e-5) << i;
  const image in7{{1, 2, 3, 4, 5, 6, 7}, 1, 1, 7, 1};
  const image down = run(in7, 1, 3, true);
  ASSERT_EQ(down.data.size(), 3u);
  EXPECT_NEAR(down.data[0], 2.f, 1e-6);
  EXPECT_NEAR(down.data[1], 5.f, 1e-6);
  EXPECT_NEAR(down.data[2], 7.f, 1e-6);
  const image global = run(in7, 1, 1, true);  // out == 1 falls back to in/out: the global mean
  EXPECT_NEAR(global.data[0], 4.f, 1e-6);
}

// rknnop's documented decision: in == 1 with align_corners replicates instead of TensorFlow's NaN.
TEST(ResizeAreaKernel, SingleInputRowWithAlignCornersReplicates) {
  const image in{{3, 5}, 1, 1, 1, 2};
  const image out = run(in, 4, 3, true);
  for (std::size_t i = 0; i < out.data.size(); ++i) EXPECT_NEAR(out.data[i], i % 2 ? 5.f : 3.f, 1e-6) << i;
}

// An independent double-precision area integral for random shapes.
std::vector<double> reference(const image& in, int oh, int ow, bool align) {
  auto scale = [&](double i, double o) { return (align && o > 1) ? (i - 1) / (o - 1) : i / o; };
  double sh = scale(in.h, oh), sw = scale(in.w, ow);
  if (sh == 0) sh = double(in.h) / oh;
  if (sw == 0) sw = double(in.w) / ow;
  std::vector<double> out(std::size_t(in.n) * oh * ow * in.c);
  auto overlap = [](double a, double b, double i) { return std::max(0.0, std::min(b, i + 1) - std::max(a, i)); };
  for (std::uint32_t n = 0; n < in.n; ++n)
    for (int y = 0; y < oh; ++y)
      for (int x = 0; x < ow; ++x)
        for (std::uint32_t c = 0; c < in.c; ++c) {
          double total = 0;
          for (int i = int(std::floor(y * sh)); i < int(std::ceil((y + 1) * sh)); ++i)
            for (int j = int(std::floor(x * sw)); j < int(std::ceil((x + 1) * sw)); ++j) {
              const double wgt = overlap(y * sh, (y + 1) * sh, i) * overlap(x * sw, (x + 1) * sw, j);
              const int ci = std::clamp(i, 0, int(in.h) - 1), cj = std::clamp(j, 0, int(in.w) - 1);
              total += wgt * in.data[((std::size_t(n) * in.h + ci) * in.w + cj) * in.c + c];
            }
          out[((std::size_t(n) * oh + y) * ow + x) * in.c + c] = total / (sh * sw);
        }
  return out;
}

TEST(ResizeAreaKernel, MatchesAnIndependentAreaIntegral) {
  std::mt19937 rng(1234);
  for (int trial = 0; trial < 60; ++trial) {
    auto pick = [&](std::uint32_t m) { return 1u + static_cast<std::uint32_t>(rng() % m); };
    image in{{}, pick(2), pick(13), pick(13), pick(4)};
    in.data.resize(std::size_t(in.n) * in.h * in.w * in.c);
    for (float& v : in.data) v = float(rng() % 2001) / 10.f - 100.f;
    const int oh = 1 + int(rng() % 17), ow = 1 + int(rng() % 17);
    const bool align = rng() % 2;
    const image out = run(in, oh, ow, align);
    const std::vector<double> ref = reference(in, oh, ow, align);
    ASSERT_EQ(out.data.size(), ref.size());
    for (std::size_t i = 0; i < ref.size(); ++i)
      ASSERT_NEAR(out.data[i], ref[i], 1e-3 + 1e-4 * std::fabs(ref[i]))
          << "trial " << trial << " in " << in.h << "x" << in.w << " -> " << oh << "x" << ow << " align " << align;
  }
}

TEST(ResizeAreaKernel, Properties) {
  image constant{std::vector<float>(2 * 9 * 7 * 3, 4.25f), 2, 9, 7, 3};
  for (float v : run(constant, 4, 11, false).data) EXPECT_NEAR(v, 4.25f, 4.25f * 2e-6f);  // float weights: ~1 ulp
  image ramp{{}, 1, 4, 6, 2};
  for (int i = 0; i < 48; ++i) ramp.data.push_back(float(i * 7 % 23));
  EXPECT_EQ(run(ramp, 4, 6, false).data, ramp.data);  // same size: exact copy
  const image half = run(ramp, 2, 3, false);          // integer factor: block means
  for (std::uint32_t y = 0; y < 2; ++y)
    for (std::uint32_t x = 0; x < 3; ++x)
      for (std::uint32_t c = 0; c < 2; ++c) {
        float sum = 0;
        for (std::uint32_t dy = 0; dy < 2; ++dy)
          for (std::uint32_t dx = 0; dx < 2; ++dx) sum += ramp.data[((2 * y + dy) * 6 + 2 * x + dx) * 2 + c];
        EXPECT_FLOAT_EQ(half.data[(y * 3 + x) * 2 + c], sum / 4) << y << "," << x << "," << c;
      }
}

TEST(ResizeAreaKernel, RejectsNonPositiveSize) {
  ResizeArea::inputs inputs;
  ResizeArea::outputs outputs;
  const std::uint32_t dims[] = {1, 2, 2, 1};
  float data[4] = {};
  inputs.images.bind(data, dims, 4, VX_TYPE_FLOAT32);
  const rknnop::status s = ResizeArea::infer(inputs, outputs, ResizeArea::params{{0, 3}, false});
  EXPECT_FALSE(s.ok());
  EXPECT_STREQ(s.message(), "size must be > 0, got [0, 3]");
}

}  // namespace

// --- ResizeArea through the host OpenVX runtime, float16 tensors as on the board ------------------
#include "vx_harness.hpp"

namespace {

using rknnop::test::harness;
using rknnop::test::ref;

TEST(ResizeAreaRuntime, Float16TensorsGiveTheFloatKernelsResultRounded) {
  const image in{
      {127, 127, 64, 64, 127, 127, 64, 64, 64, 64, 127, 127, 64, 64, 127, 127, 50, 50, 100, 100, 50, 50, 100, 100},
      1,
      6,
      4,
      1};
  harness h(vx_kernel_ResizeArea_list.entries[0]);
  const vx_bool align = vx_false_e;
  vx_tensor x = h.tensor({1, 4, 6, 1}, VX_TYPE_FLOAT16, rknnop::test::to_half(in.data));
  vx_tensor y = h.virtual_tensor(VX_TYPE_FLOAT16);
  ASSERT_EQ(h.run({ref(x), ref(y), ref(h.array({3, 2})), ref(h.scalar(VX_TYPE_BOOL, &align))}), VX_SUCCESS)
      << h.last_log();
  EXPECT_EQ(harness::dims(y), (std::vector<std::uint32_t>{1, 2, 3, 1}));
  EXPECT_EQ(rknnop::test::to_float(harness::read<rknnop::float16>(y)), (std::vector<float>{127, 64, 64, 127, 50, 100}));
}

// librknn_runtime passes a BOOL param as a 1-byte VX_TYPE_UINT8 scalar (seen running Rockchip's runtime,
// docs/board-emulation.md §8): the op takes it, with the same result as a VX_TYPE_BOOL scalar.
TEST(ResizeAreaRuntime, AlignCornersArrivesAsTheBoardRuntimesUint8Scalar) {
  std::vector<float> pixels(5 * 7 * 2);
  for (std::size_t i = 0; i < pixels.size(); ++i) pixels[i] = float(i % 13) * 0.25f;
  std::vector<std::uint16_t> results[2];
  for (int as_uint8 = 0; as_uint8 < 2; ++as_uint8) {
    harness h(vx_kernel_ResizeArea_list.entries[0]);
    const vx_bool align = vx_true_e;
    const vx_uint8 byte = 1;
    vx_tensor x = h.tensor({2, 7, 5, 1}, VX_TYPE_FLOAT16, rknnop::test::to_half(pixels));
    vx_tensor y = h.virtual_tensor(VX_TYPE_FLOAT16);
    vx_scalar s = as_uint8 ? h.scalar(VX_TYPE_UINT8, &byte) : h.scalar(VX_TYPE_BOOL, &align);
    ASSERT_EQ(h.run({ref(x), ref(y), ref(h.array({3, 4})), ref(s)}), VX_SUCCESS) << h.last_log();
    for (const rknnop::float16 v : harness::read<rknnop::float16>(y)) results[as_uint8].push_back(v.bits());
  }
  EXPECT_EQ(results[0], results[1]);
  EXPECT_EQ(results[0].size(), 3U * 4U * 2U);
}

// The UINT8 form holds any byte: a model's 2 for a bool param is refused (read_scalar, every build) with
// the attribute backends' line (log.hpp's bool_value_failure); 0 and 1 are taken.
TEST(ResizeAreaRuntime, Uint8ScalarOtherThan0Or1IsRefusedForABoolParam) {
  for (const int value : {0, 1, 2, 255}) {
    const auto byte = static_cast<vx_uint8>(value);
    harness h(vx_kernel_ResizeArea_list.entries[0]);
    vx_tensor x = h.tensor({1, 4, 4, 1}, VX_TYPE_FLOAT16, std::vector<rknnop::float16>(16));
    vx_tensor y = h.virtual_tensor(VX_TYPE_FLOAT16);
    const vx_status s = h.run({ref(x), ref(y), ref(h.array({2, 2})), ref(h.scalar(VX_TYPE_UINT8, &byte))});
    if (value <= 1) {
      EXPECT_EQ(s, VX_SUCCESS) << h.last_log();
    } else {
      EXPECT_EQ(s, VX_ERROR_INVALID_VALUE);
      EXPECT_EQ(h.last_log(), "rknnop: ResizeArea: param 'align_corners': " + std::to_string(value) +
                                  " is not a bool value, expected 0 or 1");
    }
  }
}

TEST(ResizeAreaRuntime, RandomImagesMatchTheDirectKernel) {
  std::mt19937 rng(99);
  for (int trial = 0; trial < 10; ++trial) {
    auto pick = [&](std::uint32_t m) { return 1u + static_cast<std::uint32_t>(rng() % m); };
    image in{{}, 1, pick(20), pick(20), pick(5)};
    for (std::size_t i = 0; i < std::size_t(in.h) * in.w * in.c; ++i)
      in.data.push_back(static_cast<float>(rknnop::float16(float(rng() % 1000) / 7.f)));
    const int oh = int(pick(25)), ow = int(pick(25));
    const bool align = rng() % 2;
    const image direct = run(in, oh, ow, align);
    harness h(vx_kernel_ResizeArea_list.entries[0]);
    const vx_bool a = align ? vx_true_e : vx_false_e;
    vx_tensor x = h.tensor({in.c, in.w, in.h, 1}, VX_TYPE_FLOAT16, rknnop::test::to_half(in.data));
    vx_tensor y = h.virtual_tensor(VX_TYPE_FLOAT16);
    ASSERT_EQ(h.run({ref(x), ref(y), ref(h.array({oh, ow})), ref(h.scalar(VX_TYPE_BOOL, &a))}), VX_SUCCESS)
        << h.last_log();
    const std::vector<rknnop::float16> got = harness::read<rknnop::float16>(y);
    ASSERT_EQ(got.size(), direct.data.size());
    for (std::size_t i = 0; i < got.size(); ++i)
      ASSERT_EQ(got[i].bits(), rknnop::float16(direct.data[i]).bits()) << "trial " << trial << " element " << i;
  }
}

struct resize_case {
  std::vector<std::uint32_t> dims;
  vx_enum dtype;
  std::vector<std::int32_t> size;
  vx_enum align_type;
  std::vector<std::uint32_t> output_dims;  // empty: virtual
  vx_status status;
  std::string log;
};

void expect_resize_error(const resize_case& c) {
  harness h(vx_kernel_ResizeArea_list.entries[0]);
  std::size_t n = 1;
  for (auto d : c.dims) n *= d;
  vx_tensor x = c.dtype == VX_TYPE_FLOAT16 ? h.tensor(c.dims, c.dtype, std::vector<rknnop::float16>(n))
                                           : h.tensor(c.dims, c.dtype, std::vector<std::int8_t>(n));
  vx_tensor y = c.output_dims.empty() ? h.virtual_tensor(VX_TYPE_FLOAT16)
                                      : h.tensor<rknnop::float16>(c.output_dims, VX_TYPE_FLOAT16);
  const vx_int32 zero = 0;
  EXPECT_EQ(h.run({ref(x), ref(y), ref(h.array(c.size)), ref(h.scalar(c.align_type, &zero))}), c.status);
  EXPECT_EQ(h.last_log(), c.log);
}

TEST(ResizeAreaRuntime, ErrorsNameTheOpTheFieldExpectedAndActual) {
  expect_resize_error(
      {{3, 8, 8, 1},
       VX_TYPE_INT8,
       {4, 4},
       VX_TYPE_BOOL,
       {},
       VX_ERROR_INVALID_TYPE,
       "rknnop: ResizeArea: input 'images': expected dtype VX_TYPE_FLOAT32 or VX_TYPE_FLOAT16, got VX_TYPE_INT8"});
  expect_resize_error(
      {{3, 8, 8, 1, 2},
       VX_TYPE_FLOAT16,
       {4, 4},
       VX_TYPE_BOOL,
       {},
       VX_ERROR_INVALID_DIMENSION,
       "rknnop: ResizeArea: input 'images': expected rank 4 (NHWC; a lower rank is taken as batch 1), got "
       "rank 5 with dims [3,8,8,1,2]"});
  expect_resize_error({{3, 8, 8, 1},
                       VX_TYPE_FLOAT16,
                       {4, 4, 4},
                       VX_TYPE_BOOL,
                       {},
                       VX_ERROR_INVALID_PARAMETERS,
                       "rknnop: ResizeArea: param 'size': expected exactly 2 items, got 3"});
  expect_resize_error({{3, 8, 8, 1},
                       VX_TYPE_FLOAT16,
                       {4, 4},
                       VX_TYPE_INT32,
                       {},
                       VX_ERROR_INVALID_TYPE,
                       "rknnop: ResizeArea: param 'align_corners': expected a VX_TYPE_BOOL scalar, got VX_TYPE_INT32"});
  expect_resize_error({{3, 8, 8, 1},
                       VX_TYPE_FLOAT16,
                       {0, 4},
                       VX_TYPE_BOOL,
                       {},
                       VX_FAILURE,
                       "rknnop: ResizeArea: shape inference (infer) failed: size must be > 0, got [0, 4]"});
  expect_resize_error(
      {{3, 8, 8, 1},
       VX_TYPE_FLOAT16,
       {4, 4},
       VX_TYPE_BOOL,
       {3, 5, 4, 1},
       VX_ERROR_INVALID_DIMENSION,
       "rknnop: ResizeArea: output 'output': shape inference gives NumPy shape (1, 4, 4, 3), the output tensor has "
       "(1, 4, 5, 3) (dims innermost first [3,4,4,1] and [3,5,4,1])"});
}

}  // namespace

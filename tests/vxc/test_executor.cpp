// SPDX-License-Identifier: MIT
// VX shaders on POCL: lane semantics, VX work-item ids, float16 kernels, error reporting.
// Every test here skips (with the reason) when no OpenCL platform/device is present.
#include <rknnop/vxc/vxc.hpp>

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace vxc = rknnop::vxc;

namespace {

// IEEE binary16 conversions, round to nearest even (test reference only).
std::uint16_t to_half(float f) {
  const auto x = std::bit_cast<std::uint32_t>(f);
  const std::uint32_t sign = (x >> 16) & 0x8000U;
  const std::uint32_t abs = x & 0x7FFFFFFFU;
  if (abs >= 0x7F800000U) return static_cast<std::uint16_t>(sign | 0x7C00U | (abs > 0x7F800000U ? 0x200U : 0U));
  if (abs >= 0x477FF000U) return static_cast<std::uint16_t>(sign | 0x7C00U);  // rounds to infinity
  if (abs < 0x38800000U) {                                                    // subnormal or zero
    const float scaled = std::bit_cast<float>(abs) * 16777216.0F;             // * 2^24
    return static_cast<std::uint16_t>(sign | static_cast<std::uint32_t>(std::nearbyint(scaled)));
  }
  std::uint32_t mant = abs & 0x7FFFFFU;
  std::uint32_t exp = (abs >> 23) - 127 + 15;
  std::uint32_t h = (exp << 10) | (mant >> 13);
  const std::uint32_t rest = mant & 0x1FFFU;
  if (rest > 0x1000U || (rest == 0x1000U && (h & 1U) != 0)) ++h;
  return static_cast<std::uint16_t>(sign | h);
}

float from_half(std::uint16_t h) {
  const std::uint32_t sign = (h & 0x8000U) << 16;
  const std::uint32_t exp = (h >> 10) & 0x1FU;
  const std::uint32_t mant = h & 0x3FFU;
  if (exp == 0) {
    const float v = static_cast<float>(mant) / 16777216.0F;
    return sign != 0 ? -v : v;
  }
  if (exp == 31) return std::bit_cast<float>(sign | 0x7F800000U | (mant << 13));
  return std::bit_cast<float>(sign | ((exp + 112) << 23) | (mant << 13));
}

template <class T>
std::span<std::byte> bytes(std::vector<T>& v) {
  return std::as_writable_bytes(std::span(v));
}

vxc::tensor_arg tensor(std::vector<std::uint32_t> dims, rknnop::vx_type type, std::span<std::byte> data) {
  return vxc::tensor_arg{std::move(dims), type, data};
}

vxc::execution_parameters params(std::uint32_t dim, std::array<std::size_t, 3> global,
                                 std::array<std::size_t, 3> scale = {1, 1, 1},
                                 std::array<std::size_t, 3> offset = {0, 0, 0}) {
  vxc::execution_parameters p;
  p.work_dim = dim;
  p.global_work_size = global;
  p.global_work_scale = scale;
  p.global_work_offset = offset;
  return p;
}

class vxc_executor : public ::testing::Test {
protected:
  static vxc::executor& exec() {
    static vxc::executor e;  // one context and program cache for the whole suite
    return e;
  }
  void SetUp() override {
    if (!exec().available()) GTEST_SKIP() << exec().status();
  }
};

// ---- lane semantics ----------------------------------------------------------------------------
constexpr const char* lanes_shader = R"(#include "cl_viv_vx_ext.h"
__kernel void read_lanes(__read_only image2d_array_t input, __write_only image2d_array_t output,
                         int x, int y, int z, int offset, int info)
{
    vxc_short8 v = (vxc_short8)(-1);
    int4 coord = (int4)(x, y, z, 0);
    VXC_ReadImage2DArray(v, input, coord, offset, info);
    VXC_WriteImage2DArray(output, (int4)(0, 0, 0, 0), v, VXC_MODIFIER(0, 7, 0, VXC_RM_TowardZero, 0));
}
__kernel void write_lanes(__write_only image2d_array_t output, int x, int y, int z, int info)
{
    vxc_short8 v = (vxc_short8)(1, 2, 3, 4, 5, 6, 7, 8);
    VXC_WriteImage2DArray(output, (int4)(x, y, z, 0), v, info);
}
__kernel void read_2d(__read_only image2d_array_t input, __write_only image2d_array_t output)
{
    vxc_short4 v;
    VXC_ReadImage(v, input, (int2)(1, 1), VXC_5BITOFFSET_XY(-1, 1), VXC_MODIFIER(0, 3, 0, VXC_RM_TowardZero, 0));
    VXC_WriteImage(output, (int2)(0, 0), v, VXC_MODIFIER(0, 3, 0, VXC_RM_TowardZero, 0));
}
__kernel void wrong_lanes(__read_only image2d_array_t input)
{
    vxc_uchar16 v;
    VXC_ReadImage2DArray(v, input, (int4)(0, 0, 0, 0), 0, VXC_MODIFIER(0, 15, 0, VXC_RM_TowardZero, 0));
}
)";

constexpr int W = 16, H = 4, D = 3;
std::int16_t cell(int x, int y, int z) { return static_cast<std::int16_t>(z * 1000 + y * 100 + x + 1); }

struct read_case {
  int x, y, z, ox, oy, start, end, source;
};

// Reference: lanes start..end <- x + ox + source + i, y + oy, z clamped; outside x/y reads 0.
std::vector<std::int16_t> reference_read(const read_case& c) {
  std::vector<std::int16_t> lanes(8, -1);
  const int z = std::clamp(c.z, 0, D - 1);
  const int y = c.y + c.oy;
  for (int i = 0; i <= c.end - c.start; ++i) {
    const int x = c.x + c.ox + c.source + i;
    lanes[static_cast<std::size_t>(c.start + i)] = (x < 0 || x >= W || y < 0 || y >= H) ? 0 : cell(x, y, z);
  }
  return lanes;
}

}  // namespace

TEST_F(vxc_executor, ReadImage2DArrayLaneSemantics) {
  std::vector<std::int16_t> input;
  for (int z = 0; z < D; ++z)
    for (int y = 0; y < H; ++y)
      for (int x = 0; x < W; ++x) input.push_back(cell(x, y, z));
  const std::vector<read_case> cases{
      {0, 0, 0, 0, 0, 0, 7, 0},    // plain 8 lanes
      {3, 1, 1, 0, 0, 2, 5, 0},    // partial lanes, others untouched
      {3, 1, 1, 0, 0, 0, 3, 2},    // source bin shifts the x position
      {4, 2, 2, -3, -1, 0, 7, 0},  // negative offsets
      {12, 3, 0, 0, 0, 0, 7, 0},   // runs past the row end: zeros
      {0, 0, 5, 0, 0, 0, 7, 0},    // z clamped to depth - 1
      {0, 1, -2, 15, 1, 0, 7, 0},  // z clamped to 0, largest positive x offset
      {5, 0, 0, -16, 0, 0, 7, 0},  // most negative x offset
  };
  for (const auto& c : cases) {
    std::vector<std::int16_t> out(8, 0);
    const int off = static_cast<int>(vxc::offset_xy(c.ox, c.oy));
    const int info =
        static_cast<int>(vxc::modifier(static_cast<std::uint32_t>(c.start), static_cast<std::uint32_t>(c.end),
                                       static_cast<std::uint32_t>(c.source), vxc::rounding::toward_zero, 0));
    const std::vector<vxc::kernel_argument> args{
        tensor({W, H, D}, rknnop::vx_type::int16, bytes(input)), tensor({8}, rknnop::vx_type::int16, bytes(out)),
        vxc::scalar_arg::of(rknnop::vx_type::int32, c.x),        vxc::scalar_arg::of(rknnop::vx_type::int32, c.y),
        vxc::scalar_arg::of(rknnop::vx_type::int32, c.z),        vxc::scalar_arg::of(rknnop::vx_type::int32, off),
        vxc::scalar_arg::of(rknnop::vx_type::int32, info)};
    const auto r = exec().run(lanes_shader, "lanes.vx", "read_lanes", params(1, {1, 0, 0}), args);
    ASSERT_TRUE(r.ok()) << r.message;
    EXPECT_EQ(out, reference_read(c)) << "x=" << c.x << " y=" << c.y << " z=" << c.z << " off=(" << c.ox << "," << c.oy
                                      << ") bins " << c.start << ".." << c.end << " src " << c.source;
  }
}

TEST_F(vxc_executor, WriteImage2DArrayLaneSemantics) {
  struct write_case {
    int x, z, start, end, source;
  };
  for (const write_case c : {write_case{0, 0, 0, 7, 0}, write_case{2, 1, 1, 3, 0}, write_case{4, 1, 0, 2, 5},
                             write_case{12, 0, 0, 7, 0}, write_case{0, 9, 0, 3, 0}}) {
    std::vector<std::int16_t> out(W * 2, 0);
    const int info =
        static_cast<int>(vxc::modifier(static_cast<std::uint32_t>(c.start), static_cast<std::uint32_t>(c.end),
                                       static_cast<std::uint32_t>(c.source), vxc::rounding::toward_zero, 0));
    const std::vector<vxc::kernel_argument> args{
        tensor({W, 1, 2}, rknnop::vx_type::int16, bytes(out)), vxc::scalar_arg::of(rknnop::vx_type::int32, c.x),
        vxc::scalar_arg::of(rknnop::vx_type::int32, 0), vxc::scalar_arg::of(rknnop::vx_type::int32, c.z),
        vxc::scalar_arg::of(rknnop::vx_type::int32, info)};
    const auto r = exec().run(lanes_shader, "lanes.vx", "write_lanes", params(1, {1, 0, 0}), args);
    ASSERT_TRUE(r.ok()) << r.message;
    // Reference: elements x + start .. x + end <- lanes source, source + 1, ...; z clamped.
    std::vector<std::int16_t> expected(W * 2, 0);
    const int z = std::clamp(c.z, 0, 1);
    for (int i = 0; i <= c.end - c.start; ++i) {
      const int x = c.x + c.start + i;
      if (x < W) expected[static_cast<std::size_t>(z * W + x)] = static_cast<std::int16_t>(c.source + i + 1);
    }
    EXPECT_EQ(out, expected) << "x=" << c.x << " bins " << c.start << ".." << c.end << " src " << c.source;
  }
}

TEST_F(vxc_executor, ReadImage2DWithOffsets) {
  std::vector<std::int16_t> input;
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) input.push_back(cell(x, y, 0));
  std::vector<std::int16_t> out(4, 0);
  const std::vector<vxc::kernel_argument> args{tensor({W, H}, rknnop::vx_type::int16, bytes(input)),
                                               tensor({4}, rknnop::vx_type::int16, bytes(out))};
  const auto r = exec().run(lanes_shader, "lanes.vx", "read_2d", params(1, {1, 0, 0}), args);
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(out, (std::vector<std::int16_t>{cell(0, 2, 0), cell(1, 2, 0), cell(2, 2, 0), cell(3, 2, 0)}));
}

TEST_F(vxc_executor, LaneSizeMismatchIsAnError) {
  std::vector<std::int16_t> input(8, 0);
  const std::vector<vxc::kernel_argument> args{tensor({8}, rknnop::vx_type::float16, bytes(input))};
  const auto r = exec().run(lanes_shader, "lanes.vx", "wrong_lanes", params(1, {1, 0, 0}), args);
  EXPECT_EQ(r.status, vxc::run_status::error);
  EXPECT_EQ(r.message,
            "lanes.vx:24: rknnop: kernel 'wrong_lanes': VXC_ReadImage2DArray on argument 0 ('input'): the "
            "register has 1-byte lanes, the tensor's elements have 2 bytes");
}

// ---- get_global_id offset/scale ------------------------------------------------------------------
TEST_F(vxc_executor, GlobalIdFollowsVxOffsetAndScale) {
  constexpr const char* shader = R"(
__kernel void ids(__write_only image2d_array_t output)
{
    int x = get_global_id(0);
    int y = get_global_id(1);
    write_imagei(output, (int4)(x, y, get_global_id(2), 0), (int4)(x * 100 + y, 0, 0, 0));
}
)";
  std::vector<std::int32_t> out(12 * 6, -1);
  const std::vector<vxc::kernel_argument> args{tensor({12, 6}, rknnop::vx_type::int32, bytes(out))};
  auto p = params(2, {4, 2, 0}, {2, 3, 1}, {3, 1, 0});
  p.local_work_size = {2, 1, 0};
  const auto r = exec().run(shader, "ids.vx", "ids", p, args);
  ASSERT_TRUE(r.ok()) << r.message;
  std::vector<std::int32_t> expected(12 * 6, -1);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 2; ++j) {
      const int x = 3 + 2 * i, y = 1 + 3 * j;
      expected[static_cast<std::size_t>(y * 12 + x)] = x * 100 + y;
    }
  EXPECT_EQ(out, expected);
}

// ---- float16 kernels -----------------------------------------------------------------------------
TEST_F(vxc_executor, ExpOnFloat16WithImageBuiltins) {
  constexpr const char* shader = R"(#include "cl_viv_vx_ext.h"
__kernel void exp(__read_only image2d_array_t input, __write_only image2d_array_t output)
{
    int4 coord = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
    float4 v = read_imagef(input, coord);
    write_imagef(output, coord, exp(v));
}
)";
  const std::uint32_t w = 7, h = 3, c = 2;
  std::vector<std::uint16_t> in(w * h * c), out(w * h * c, 0);
  for (std::size_t i = 0; i < in.size(); ++i)
    in[i] = to_half(-3.0F + 0.2F * static_cast<float>(i));  // exp stays below the float16 maximum
  const std::vector<vxc::kernel_argument> args{tensor({w, h, c, 1}, rknnop::vx_type::float16, bytes(in)),
                                               tensor({w, h, c, 1}, rknnop::vx_type::float16, bytes(out))};
  const auto r = exec().run(shader, "exp.vx", "exp", params(3, {w, h, c}), args);
  ASSERT_TRUE(r.ok()) << r.message;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const float expected = from_half(to_half(std::exp(from_half(in[i]))));
    EXPECT_NEAR(from_half(out[i]), expected, 1e-3F * std::max(1.0F, std::fabs(expected))) << "element " << i;
  }
}

TEST_F(vxc_executor, ExpOnFloat16WithVxcLanesAndScale8) {
  // The usual VX pattern: one work-item handles 8 consecutive x positions (globalWorkScale 8).
  constexpr const char* shader = R"(#include "cl_viv_vx_ext.h"
__kernel void exp(__read_only image2d_array_t input, __write_only image2d_array_t output)
{
    int4 coord = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
    vxc_short8 bits;
    vxc_half8 h;
    VXC_ReadImage2DArray(bits, input, coord, VXC_5BITOFFSET_XY(0, 0), VXC_MODIFIER(0, 7, 0, VXC_RM_TowardZero, 0));
    _viv_asm(COPY, h, bits, 16);
    short r[8];
    for (int i = 0; i < 8; ++i) {
        float f = vload_half(i, (const __private half*)&h);
        vstore_half_rte(exp(f), i, (__private half*)r);
    }
    vxc_short8 result = vload8(0, r);
    VXC_WriteImage2DArray(output, coord, result, VXC_MODIFIER(0, 7, 0, VXC_RM_TowardZero, 0));
}
)";
  const std::uint32_t w = 20, h = 2;  // 20 is not a multiple of 8: the last access is clipped
  std::vector<std::uint16_t> in(w * h), out(w * h, 0);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = to_half(-2.0F + 0.11F * static_cast<float>(i));
  const std::vector<vxc::kernel_argument> args{tensor({w, h}, rknnop::vx_type::float16, bytes(in)),
                                               tensor({w, h}, rknnop::vx_type::float16, bytes(out))};
  const auto r = exec().run(shader, "exp8.vx", "exp", params(2, {3, h, 0}, {8, 1, 1}), args);
  ASSERT_TRUE(r.ok()) << r.message;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const float expected = from_half(to_half(std::exp(from_half(in[i]))));
    EXPECT_NEAR(from_half(out[i]), expected, 1e-3F * std::max(1.0F, std::fabs(expected))) << "element " << i;
  }
}

namespace {
// C++ twin of tests/vxc/data/resizearea_good.vx.
std::vector<float> reference_resize_area(const std::vector<float>& in, int in_w, int in_h, int ch, int out_w, int out_h,
                                         bool align_corners) {
  const float sx = (align_corners && out_w > 1) ? static_cast<float>(in_w - 1) / static_cast<float>(out_w - 1)
                                                : static_cast<float>(in_w) / static_cast<float>(out_w);
  const float sy = (align_corners && out_h > 1) ? static_cast<float>(in_h - 1) / static_cast<float>(out_h - 1)
                                                : static_cast<float>(in_h) / static_cast<float>(out_h);
  std::vector<float> out;
  for (int z = 0; z < ch; ++z)
    for (int oy = 0; oy < out_h; ++oy)
      for (int ox = 0; ox < out_w; ++ox) {
        const float x0 = static_cast<float>(ox) * sx, x1 = x0 + sx;
        const float y0 = static_cast<float>(oy) * sy, y1 = y0 + sy;
        float sum = 0.0F;
        for (int y = static_cast<int>(std::floor(y0)); y < static_cast<int>(std::ceil(y1)) && y < in_h; ++y) {
          const float wy = std::fmin(y1, static_cast<float>(y + 1)) - std::fmax(y0, static_cast<float>(y));
          for (int x = static_cast<int>(std::floor(x0)); x < static_cast<int>(std::ceil(x1)) && x < in_w; ++x) {
            const float wx = std::fmin(x1, static_cast<float>(x + 1)) - std::fmax(x0, static_cast<float>(x));
            sum += wx * wy * in[static_cast<std::size_t>((z * in_h + y) * in_w + x)];
          }
        }
        out.push_back(sum / (sx * sy));
      }
  return out;
}
}  // namespace

TEST_F(vxc_executor, ResizeAreaOnFloat16) {
  const int in_w = 6, in_h = 5, ch = 2, out_w = 4, out_h = 3;
  std::vector<std::uint16_t> in(in_w * in_h * ch), out(out_w * out_h * ch, 0);
  std::vector<float> in_f;
  for (std::size_t i = 0; i < in.size(); ++i) {
    in[i] = to_half(std::sin(static_cast<float>(i) * 0.7F) * 4.0F);
    in_f.push_back(from_half(in[i]));
  }
  std::string shader;
  {
    std::FILE* f = std::fopen(RKNNOP_VXC_TEST_DATA "/resizearea_good.vx", "rb");
    ASSERT_NE(f, nullptr);
    char buf[4096];
    std::size_t n = 0;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) shader.append(buf, n);
    std::fclose(f);
  }
  for (const bool align : {false, true}) {
    const std::vector<std::int32_t> size{out_w, out_h};
    const std::vector<vxc::kernel_argument> args{
        tensor({in_w, in_h, ch, 1}, rknnop::vx_type::float16, bytes(in)),
        tensor({out_w, out_h, ch, 1}, rknnop::vx_type::float16, bytes(out)), vxc::array_arg{size},
        vxc::scalar_arg::of(rknnop::vx_type::bool_, static_cast<std::int32_t>(align))};
    const auto r = exec().run(shader, "resizearea.vx", "resizearea", params(3, {out_w, out_h, ch}), args);
    ASSERT_TRUE(r.ok()) << r.message;
    const auto expected = reference_resize_area(in_f, in_w, in_h, ch, out_w, out_h, align);
    for (std::size_t i = 0; i < out.size(); ++i) {
      const float e = from_half(to_half(expected[i]));
      EXPECT_NEAR(from_half(out[i]), e, 2e-3F * std::max(1.0F, std::fabs(e))) << "element " << i << " align " << align;
    }
  }
}

TEST_F(vxc_executor, HalfAndBoolScalarsAndHelperFunctions) {
  // bool and half kernel arguments are not standard OpenCL C 1.2; image2d_array_t reaches helpers.
  constexpr const char* shader = R"vx(
float load(__read_only image2d_array_t img, int4 c) { return read_imagef(img, c).x; }
__kernel void scale(__read_only image2d_array_t input, __write_only image2d_array_t output,
                    half factor, bool negate)
{
    int4 coord = (int4)(get_global_id(0), 0, 0, 0);
    float v = load(input, coord) * factor;
    write_imagef(output, coord, (float4)(negate ? -v : v));
}
)vx";
  std::vector<std::uint16_t> in{to_half(1.0F), to_half(-2.5F), to_half(0.25F), to_half(3.0F)}, out(4, 0);
  for (const bool negate : {false, true}) {
    const std::vector<vxc::kernel_argument> args{
        tensor({4}, rknnop::vx_type::float16, bytes(in)), tensor({4}, rknnop::vx_type::float16, bytes(out)),
        vxc::scalar_arg::of(rknnop::vx_type::float16, to_half(1.5F)),
        vxc::scalar_arg::of(rknnop::vx_type::bool_, std::int32_t{negate ? 1 : 0})};
    const auto r = exec().run(shader, "scale.vx", "scale", params(1, {4, 0, 0}), args);
    ASSERT_TRUE(r.ok()) << r.message;
    const float sign = negate ? -1.0F : 1.0F;
    EXPECT_EQ(out, (std::vector<std::uint16_t>{to_half(sign * 1.5F), to_half(sign * -3.75F), to_half(sign * 0.375F),
                                               to_half(sign * 4.5F)}));
  }
}

// ---- errors ------------------------------------------------------------------------------------
TEST_F(vxc_executor, BadWorkSizesAreRejectedBeforeRunning) {
  std::vector<std::uint16_t> buf(8, 0);
  const std::vector<vxc::kernel_argument> args{tensor({8}, rknnop::vx_type::float16, bytes(buf))};
  auto p = params(1, {8, 0, 0});
  p.local_work_size = {3, 0, 0};
  const auto r = exec().run("__kernel void k(__read_only image2d_array_t i) {}", "k.vx", "k", p, args);
  EXPECT_EQ(r.status, vxc::run_status::error);
  EXPECT_EQ(
      r.message,
      "rknnop: kernel 'k': execution parameters: globalWorkSize[0] = 8 is not a multiple of localWorkSize[0] = 3");
  const auto r0 =
      exec().run("__kernel void k(__read_only image2d_array_t i) {}", "k.vx", "k", params(0, {8, 0, 0}), args);
  EXPECT_EQ(r0.message, "rknnop: kernel 'k': execution parameters: workDim is 0, expected 1, 2 or 3");
}

TEST_F(vxc_executor, SyntaxErrorGivesBuildLogWithShaderLine) {
  constexpr const char* shader =
      "#include \"cl_viv_vx_ext.h\"\n"
      "__kernel void k(__read_only image2d_array_t input)\n"
      "{\n"
      "    int4 coord = (int4)(0, 0, 0, 0)\n"
      "    undefined_function(coord);\n"
      "}\n";
  std::vector<std::uint16_t> buf(8, 0);
  const std::vector<vxc::kernel_argument> args{tensor({8}, rknnop::vx_type::float16, bytes(buf))};
  const auto r = exec().run(shader, "broken.vx", "k", params(1, {1, 0, 0}), args);
  EXPECT_EQ(r.status, vxc::run_status::error);
  EXPECT_EQ(r.message.rfind("rknnop: kernel 'k': the OpenCL C compiler rejected the shader 'broken.vx' "
                            "(CL_BUILD_PROGRAM_FAILURE):\n",
                            0),
            0U)
      << r.message;
  EXPECT_NE(r.message.find("broken.vx:4:"), std::string::npos) << r.message;
}

TEST_F(vxc_executor, UnsupportedConstructIsRefused) {
  constexpr const char* shader =
      "_viv_uniform VXC_512Bits uniFp16ToFp32;\n"
      "__kernel void k(__read_only image2d_array_t input) {}\n";
  std::vector<std::uint16_t> buf(8, 0);
  const std::vector<vxc::kernel_argument> args{tensor({8}, rknnop::vx_type::float16, bytes(buf))};
  const auto r = exec().run(shader, "dp.vx", "k", params(1, {1, 0, 0}), args);
  EXPECT_EQ(r.status, vxc::run_status::error);
  EXPECT_EQ(r.message.substr(0, r.message.find('\n')),
            "dp.vx:1: rknnop: '_viv_uniform' declares a uniform set by vxSetNodeUniform; uniforms are not emulated");
}

TEST_F(vxc_executor, ArgumentMismatchesAreReported) {
  constexpr const char* shader = "__kernel void k(__read_only image2d_array_t input, int n) {}\n";
  std::vector<std::uint16_t> buf(8, 0);
  const auto p = params(1, {1, 0, 0});
  std::vector<vxc::kernel_argument> args{tensor({8}, rknnop::vx_type::float16, bytes(buf)),
                                         vxc::scalar_arg::of(rknnop::vx_type::float32, 1.0F)};
  EXPECT_EQ(exec().run(shader, "k.vx", "k", p, args).message,
            "rknnop: kernel 'k': argument 1 ('n'): a VX_TYPE_FLOAT32 scalar was given, the shader declares 'int n'");
  args[1] = vxc::scalar_arg::of(rknnop::vx_type::int32, 1);
  args[0] = tensor({4, 1, 1, 2}, rknnop::vx_type::float16, bytes(buf));
  EXPECT_EQ(exec().run(shader, "k.vx", "k", p, args).message,
            "rknnop: kernel 'k': argument 0 ('input'): dims[3] (batch) is 2; the emulator maps x, y, z to dims[0], "
            "dims[1], dims[2] and needs dims[3] == 1");
  args[0] = tensor({9}, rknnop::vx_type::float16, bytes(buf));
  EXPECT_EQ(exec().run(shader, "k.vx", "k", p, args).message,
            "rknnop: kernel 'k': argument 0 ('input'): the host buffer has 16 bytes, the tensor needs 18 (9 x "
            "VX_TYPE_FLOAT16)");
  EXPECT_EQ(exec().run(shader, "k.vx", "other", p, args).message,
            "rknnop: kernel 'other': the shader 'k.vx' has no such __kernel (kernels found: k)");
}

// Run by CTest with OCL_ICD_VENDORS pointing at an empty directory (test vxc_no_opencl_is_reported).
TEST(vxc_no_opencl, ReportsUnavailable) {
  if (std::getenv("RKNNOP_VXC_EXPECT_NO_OPENCL") == nullptr) {
    GTEST_SKIP() << "only meaningful with no OpenCL ICD visible (see tests/vxc/CMakeLists.txt)";
  }
  vxc::executor e;
  EXPECT_FALSE(e.available());
  EXPECT_EQ(e.status().rfind("rknnop: no OpenCL platform found", 0), 0U) << e.status();
  const auto r = e.run("__kernel void k() {}", "k.vx", "k", params(1, {1, 0, 0}), {});
  EXPECT_EQ(r.status, vxc::run_status::no_opencl);
}

// SPDX-License-Identifier: MIT
// VXC packing, .vx -> OpenCL C translation and work-size validation (no OpenCL involved).
#include <rknnop/vxc/vxc.hpp>

#include <gtest/gtest.h>

#include <string>

namespace vxc = rknnop::vxc;

namespace {
vxc::execution_parameters one_dim(std::size_t global) {
  vxc::execution_parameters p;
  p.work_dim = 1;
  p.global_work_size = {global, 0, 0};
  return p;
}
}  // namespace

// The documented bit layouts: clamp<<22 | start<<12 | end<<8 | source<<4 | rounding<<2,
// offsets (y&0x1F)<<5 | (x&0x1F).
static_assert(vxc::modifier(0, 7, 0, vxc::rounding::toward_zero, 0) == 0x0700U);
static_assert(vxc::modifier(0, 15, 0, vxc::rounding::toward_zero, 0) == 0x0F00U);
static_assert(vxc::modifier(8, 15, 3, vxc::rounding::to_nearest_even, 1) ==
              ((1U << 22) | (8U << 12) | (15U << 8) | (3U << 4) | (2U << 2)));
static_assert(vxc::modifier(2, 5, 1, vxc::rounding::toward_inf, 0) == 0x2514U);
static_assert(vxc::offset_xy(0, 0) == 0U);
static_assert(vxc::offset_xy(-1, 0) == 0x1FU);
static_assert(vxc::offset_xy(0, -1) == 0x3E0U);
static_assert(vxc::offset_xy(-16, 15) == ((15U << 5) | 0x10U));
static_assert(vxc::offset_xy(3, -2) == ((0x1EU << 5) | 3U));

TEST(vxc_prelude, MacrosHaveTheDocumentedLayout) {
  const std::string_view prelude = vxc::compat_prelude();
  EXPECT_NE(prelude.find("#define VXC_MODIFIER(start, end, source, rounding, clamp)"), std::string_view::npos);
  EXPECT_NE(prelude.find("#define VXC_5BITOFFSET_XY(x, y)"), std::string_view::npos);
  EXPECT_NE(prelude.find("#define VXC_RM_ToNearestEven 2"), std::string_view::npos);
}

TEST(vxc_translate, RewritesKernelArgumentsWithoutMovingLines) {
  const std::string shader =
      "#include \"cl_viv_vx_ext.h\"\n"
      "__kernel void k(__read_only image2d_array_t in, __write_only image2d_array_t out,\n"
      "                vx_array_int size, bool flag, half h, __read_only float s)\n"
      "{\n"
      "  int x = get_global_id(0);\n"
      "}\n";
  const auto tr = vxc::translate_shader(shader, "k.vx", one_dim(1));
  ASSERT_TRUE(tr.errors.empty()) << tr.errors.front().to_string();
  ASSERT_EQ(tr.kernels.size(), 1U);
  EXPECT_EQ(tr.kernels[0].kinds, (std::vector<vxc::translated_arg_kind>{
                                     vxc::translated_arg_kind::image, vxc::translated_arg_kind::image,
                                     vxc::translated_arg_kind::array, vxc::translated_arg_kind::bool_scalar,
                                     vxc::translated_arg_kind::half_scalar, vxc::translated_arg_kind::scalar}));
  const std::string& src = tr.source;
  const auto body = src.substr(src.find("#line 1 \"k.vx\""));
  EXPECT_EQ(body.find("cl_viv_vx_ext.h"), std::string::npos);
  EXPECT_NE(body.find("__global uchar* rknnop_a0_data, int8 rknnop_a0_shape"), std::string::npos);
  EXPECT_NE(body.find("__global int* rknnop_a2_items, uint rknnop_a2_size, int rknnop_a3, ushort rknnop_a4, float s, "
                      "__global int* rknnop_status\n)"),
            std::string::npos);
  EXPECT_NE(body.find("bool flag = rknnop_a3 != 0;"), std::string::npos);
  // Line 5 of the shader is still line 5 after "#line 1".
  std::size_t pos = body.find('\n');
  for (int line = 1; line < 5; ++line) pos = body.find('\n', pos + 1);
  EXPECT_EQ(body.substr(pos + 1, 26), "  int x = get_global_id(0)");
}

TEST(vxc_translate, RefusesUniformsAndDotProducts) {
  const std::string shader =
      "_viv_uniform VXC_512Bits uniConvert;\n"
      "__kernel void k(__read_only image2d_array_t in) {\n"
      "  vxc_short8 a; float4 f;\n"
      "  VXC_DP4x4(f, a, a, VXC_MODIFIER(0, 3, 0, VXC_RM_TowardZero, 1), uniConvert);\n"
      "  _viv_asm(CONV, f, a);\n"
      "}\n";
  const auto tr = vxc::translate_shader(shader, "dp.vx", one_dim(1));
  std::vector<std::string> got;
  for (const auto& d : tr.errors) got.push_back(d.to_string());
  EXPECT_EQ(got,
            (std::vector<std::string>{
                "dp.vx:1: rknnop: '_viv_uniform' declares a uniform set by vxSetNodeUniform; uniforms are not "
                "emulated",
                "dp.vx:1: rknnop: 'VXC_512Bits' is a VXC construct rknnop's OpenCL emulation does not implement "
                "(emulated: VXC_ReadImage, VXC_WriteImage, VXC_ReadImage2DArray, VXC_WriteImage2DArray, "
                "VXC_MODIFIER, VXC_5BITOFFSET_XY, VXC_RM_*)",
                "dp.vx:4: rknnop: 'VXC_DP4x4' is a VXC dot-product instruction driven by uniforms; rknnop's "
                "OpenCL emulation does not implement it",
                "dp.vx:5: rknnop: '_viv_asm(CONV, ...)' is not emulated (only _viv_asm(COPY, dst, src, bytes) is)"}));
}

TEST(vxc_translate, RefusesSamplersAndOtherIncludes) {
  const std::string shader =
      "#include \"my_helpers.h\"\n"
      "#define READ(img, c) read_imagef(img, CLK_FILTER_NEAREST, c)\n"
      "__kernel void k(__read_only image2d_array_t in) {}\n";
  const auto tr = vxc::translate_shader(shader, "s.vx", one_dim(1));
  ASSERT_EQ(tr.errors.size(), 2U);
  EXPECT_EQ(tr.errors[0].to_string(),
            "s.vx:1: rknnop: '#include \"my_helpers.h\"': only cl_viv_vx_ext.h may be "
            "included (it is replaced by rknnop's VXC compatibility prelude)");
  EXPECT_EQ(tr.errors[1].to_string(),
            "s.vx:2: rknnop: 'CLK_FILTER_NEAREST': samplers are not emulated (read tensors "
            "with integer coordinates and no sampler)");
}

TEST(vxc_execution_parameters, RejectsImpossibleWorkSizes) {
  vxc::execution_parameters p = one_dim(16);
  EXPECT_EQ(vxc::validate_execution_parameters(p, "k"), std::nullopt);
  p.local_work_size = {4, 0, 0};
  EXPECT_EQ(vxc::validate_execution_parameters(p, "k"), std::nullopt);

  p.work_dim = 0;
  EXPECT_EQ(vxc::validate_execution_parameters(p, "k"),
            "rknnop: kernel 'k': execution parameters: workDim is 0, expected 1, 2 or 3");
  p.work_dim = 4;
  EXPECT_EQ(vxc::validate_execution_parameters(p, "k"),
            "rknnop: kernel 'k': execution parameters: workDim is 4, expected 1, 2 or 3");

  p = one_dim(16);
  p.local_work_size = {5, 0, 0};
  EXPECT_EQ(
      vxc::validate_execution_parameters(p, "k"),
      "rknnop: kernel 'k': execution parameters: globalWorkSize[0] = 16 is not a multiple of localWorkSize[0] = 5");

  p = one_dim(16);
  p.work_dim = 2;
  EXPECT_EQ(vxc::validate_execution_parameters(p, "k"),
            "rknnop: kernel 'k': execution parameters: globalWorkSize[1] is 0, expected at least 1 work-item in each "
            "of the 2 dimension(s) of workDim");

  p.global_work_size = {16, 2, 0};
  p.local_work_size = {4, 0, 0};
  EXPECT_EQ(vxc::validate_execution_parameters(p, "k"),
            "rknnop: kernel 'k': execution parameters: localWorkSize is {4, 0}: give every used dimension a local "
            "size, or none (all 0 lets the driver choose)");

  p = one_dim(16);
  p.global_work_scale = {0, 1, 1};
  EXPECT_EQ(vxc::validate_execution_parameters(p, "k"),
            "rknnop: kernel 'k': execution parameters: globalWorkScale[0] is 0, expected at least 1 "
            "(get_global_id(0) steps by it)");
}

namespace {
struct fake_vx_params {  // the field names of vx_kernel_execution_parameters_t
  unsigned workDim;
  std::size_t globalWorkOffset[3], globalWorkScale[3], localWorkSize[3], globalWorkSize[3];
};
}  // namespace

TEST(vxc_execution_parameters, FromVxStruct) {
  const fake_vx_params vx{2, {1, 2, 0}, {8, 1, 1}, {0, 0, 0}, {4, 3, 1}};
  const auto p = vxc::execution_parameters::from_vx(vx);
  EXPECT_EQ(p.work_dim, 2U);
  EXPECT_EQ(p.global_work_offset[1], 2U);
  EXPECT_EQ(p.global_work_scale[0], 8U);
  EXPECT_EQ(p.global_work_size[1], 3U);
}

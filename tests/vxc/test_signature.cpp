// SPDX-License-Identifier: MIT
// Signature check: .vx kernels against the op's parameter table (no OpenCL involved).
#include <rknnop/vxc/vxc.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace vxc = rknnop::vxc;

namespace {

vxc::op_signature resize_area() {
  vxc::op_signature sig;
  sig.name = "ResizeArea";
  sig.inputs = {"in0"};
  sig.outputs = {"out0"};
  sig.params = {{"size", rknnop::vx_type::array}, {"align_corners", rknnop::vx_type::bool_}};
  return sig;
}

std::vector<std::string> texts(const std::vector<vxc::diagnostic>& diags) {
  std::vector<std::string> out;
  for (const auto& d : diags) out.push_back(d.to_string());
  return out;
}

constexpr const char* good_shader = R"vx(#include "cl_viv_vx_ext.h"
// a comment mentioning __kernel void fake(int x)
/* and a block comment: __kernel void resizearea(float nope) */
__kernel __attribute__((reqd_work_group_size(1, 1, 1))) void helper_kernel(__global float* p) { p[0] = 1.0f; }

__kernel void resizearea(
    __read_only image2d_array_t input,
    __write_only image2d_array_t output,
    vx_array_int size,
    int align_corners)
{
    const char* s = "__kernel void resizearea()";
}
)vx";

}  // namespace

TEST(vxc_signature, MatchingKernelPasses) {
  EXPECT_TRUE(vxc::check_signature(resize_area(), good_shader, "k.vx").empty());
}

TEST(vxc_signature, ParsesAllKernelsAndArguments) {
  const auto parsed = vxc::parse_shader(good_shader, "k.vx");
  ASSERT_TRUE(parsed.errors.empty()) << parsed.errors.front().to_string();
  ASSERT_EQ(parsed.kernels.size(), 2U);
  EXPECT_EQ(parsed.kernels[0].name, "helper_kernel");
  const auto& k = parsed.kernels[1];
  EXPECT_EQ(k.name, "resizearea");
  EXPECT_EQ(k.line, 6U);
  ASSERT_EQ(k.arguments.size(), 4U);
  EXPECT_EQ(k.arguments[0].declaration, "__read_only image2d_array_t input");
  EXPECT_TRUE(k.arguments[1].is_write_only());
  EXPECT_EQ(k.arguments[2].type, "vx_array_int");
  EXPECT_EQ(k.arguments[3].line, 10U);
  EXPECT_EQ(parsed.kernels[0].arguments[0].declaration, "__global float* p");
}

TEST(vxc_signature, ScalarTypeMismatchNamesOpPositionExpectedAndActual) {
  const std::string shader = R"(__kernel void resizearea(__read_only image2d_array_t input,
    __write_only image2d_array_t output, vx_array_int size,
    float align_corners) {}
)";
  EXPECT_EQ(texts(vxc::check_signature(resize_area(), shader, "resize.vx")),
            std::vector<std::string>{
                "resize.vx:3: rknnop: op 'ResizeArea': shader argument 3 ('align_corners'): the parameter table "
                "expects a VX_TYPE_BOOL scalar (int), the shader declares 'float align_corners'"});
}

TEST(vxc_signature, BoolKernelArgumentIsAcceptedForBool) {
  const std::string shader =
      "__kernel void resizearea(image2d_array_t i, write_only image2d_array_t o, "
      "vx_array_int s, bool a) {}";
  EXPECT_TRUE(vxc::check_signature(resize_area(), shader, "k.vx").empty());
}

TEST(vxc_signature, TensorDirectionAndArrayKind) {
  const std::string shader = R"(__kernel void resizearea(__write_only image2d_array_t input,
    __read_only image2d_array_t output, __global int* size, int align_corners) {}
)";
  EXPECT_EQ(texts(vxc::check_signature(resize_area(), shader, "k.vx")),
            (std::vector<std::string>{
                "k.vx:1: rknnop: op 'ResizeArea': shader argument 0 ('in0'): the parameter table expects an input "
                "tensor (__read_only image2d_array_t), the shader declares '__write_only image2d_array_t input'",
                "k.vx:2: rknnop: op 'ResizeArea': shader argument 1 ('out0'): the parameter table expects an output "
                "tensor (__write_only image2d_array_t), the shader declares '__read_only image2d_array_t output'",
                "k.vx:2: rknnop: op 'ResizeArea': shader argument 2 ('size'): the parameter table expects a "
                "VX_TYPE_ARRAY (vx_array_int), the shader declares '__global int* size'"}));
}

TEST(vxc_signature, ArgumentCountMismatch) {
  const std::string shader =
      "\n__kernel void resizearea(__read_only image2d_array_t input,\n"
      "  __write_only image2d_array_t output, vx_array_int size) {}\n";
  EXPECT_EQ(texts(vxc::check_signature(resize_area(), shader, "k.vx")),
            std::vector<std::string>{"k.vx:2: rknnop: op 'ResizeArea': kernel 'resizearea' declares 3 arguments, "
                                     "the parameter table has 4 (inputs: in0; outputs: out0; params: size, "
                                     "align_corners)"});
}

TEST(vxc_signature, EveryScalarTypeMapsToItsOpenClType) {
  struct row {
    rknnop::vx_type type;
    const char* cl;
  };
  const std::vector<row> rows{
      {rknnop::vx_type::float32, "float"},       {rknnop::vx_type::float16, "half"},  {rknnop::vx_type::int32, "int"},
      {rknnop::vx_type::uint32, "unsigned int"}, {rknnop::vx_type::int8, "char"},     {rknnop::vx_type::uint8, "uchar"},
      {rknnop::vx_type::int16, "short"},         {rknnop::vx_type::uint16, "ushort"}, {rknnop::vx_type::int64, "long"},
      {rknnop::vx_type::uint64, "ulong"},        {rknnop::vx_type::bool_, "int"},     {rknnop::vx_type::char_, "char"},
      {rknnop::vx_type::float64, "double"}};
  for (const auto& r : rows) {
    vxc::op_signature sig;
    sig.name = "Scale";
    sig.params = {{"value", r.type}};
    const std::string ok = std::string("__kernel void scale(const ") + r.cl + " value) {}";
    EXPECT_TRUE(vxc::check_signature(sig, ok, "s.vx").empty()) << ok;
    const std::string bad = r.type == rknnop::vx_type::float64 ? "__kernel void scale(float value) {}"
                                                               : "__kernel void scale(double value) {}";
    EXPECT_EQ(vxc::check_signature(sig, bad, "s.vx").size(), 1U) << vxc::vx_type_name(r.type);
  }
}

TEST(vxc_signature, MissingKernelListsTheKernelsFound) {
  EXPECT_EQ(texts(vxc::check_signature(resize_area(),
                                       "__kernel void ResizeArea(int a) {}\n"
                                       "kernel void other(void) {}",
                                       "k.vx")),
            std::vector<std::string>{"k.vx: rknnop: op 'ResizeArea': the shader has no '__kernel void "
                                     "resizearea(...)' (the VX descriptor name); kernels found: ResizeArea, other "
                                     "(kernel names are case-sensitive)"});
  EXPECT_EQ(texts(vxc::check_signature(resize_area(), "int f(void) { return 1; }", "k.vx")),
            std::vector<std::string>{"k.vx: rknnop: op 'ResizeArea': the shader has no '__kernel void "
                                     "resizearea(...)' (the VX descriptor name); no __kernel found"});
}

TEST(vxc_signature, ExplicitKernelName) {
  const std::string shader =
      "__kernel void custom(__read_only image2d_array_t i, __write_only "
      "image2d_array_t o, vx_array_int s, int a) {}";
  EXPECT_TRUE(vxc::check_signature(resize_area(), shader, "k.vx", "custom").empty());
}

TEST(vxc_signature, DuplicateKernel) {
  const std::string shader =
      "__kernel void resizearea(image2d_array_t i, __write_only image2d_array_t o, "
      "vx_array_int s, int a) {}\n__kernel void resizearea(image2d_array_t i, __write_only "
      "image2d_array_t o, vx_array_int s, int a) {}\n";
  EXPECT_EQ(texts(vxc::check_signature(resize_area(), shader, "k.vx")),
            std::vector<std::string>{
                "k.vx:2: rknnop: op 'ResizeArea': __kernel 'resizearea' is defined more than once (first at line 1)"});
}

TEST(vxc_signature, SyntaxErrors) {
  EXPECT_EQ(texts(vxc::check_signature(resize_area(), "__kernel void resizearea(int a {\n}\n", "k.vx")),
            (std::vector<std::string>{"k.vx:1: rknnop: '(' is never closed",
                                      "k.vx:1: rknnop: kernel 'resizearea': the argument list is not closed by ')'"}));
  EXPECT_EQ(texts(vxc::check_signature(resize_area(), "/* open\n__kernel void resizearea() {}", "k.vx")),
            std::vector<std::string>{"k.vx:1: rknnop: unterminated /* comment"});
  EXPECT_EQ(texts(vxc::check_signature(resize_area(), "__kernel int resizearea() {}", "k.vx")),
            std::vector<std::string>{"k.vx:1: rknnop: expected 'void' after '__kernel', found 'int'"});
  EXPECT_EQ(
      texts(vxc::check_signature(resize_area(), "__kernel void resizearea(int) {} @", "k.vx")),
      (std::vector<std::string>{"k.vx:1: rknnop: unexpected character '@' in the shader",
                                "k.vx:1: rknnop: kernel 'resizearea': argument 0 ('int') needs a type and a name"}));
}

TEST(vxc_signature, MissingFile) {
  const auto d = vxc::check_signature_file(resize_area(), "/nonexistent/dir/k.vx");
  ASSERT_EQ(d.size(), 1U);
  EXPECT_EQ(d[0].to_string(),
            "/nonexistent/dir/k.vx: rknnop: op 'ResizeArea': cannot read the shader '/nonexistent/dir/k.vx': no "
            "such file");
}

// Shaders are bounded regular-file reads: a device would otherwise be read forever (/dev/zero).
TEST(vxc_signature, DevicesAndDirectoriesAreNotRead) {
  const auto device = vxc::check_signature_file(resize_area(), "/dev/zero");
  ASSERT_EQ(device.size(), 1U);
  EXPECT_NE(device[0].to_string().find("cannot read the shader '/dev/zero': not a regular file"), std::string::npos)
      << device[0].to_string();
  const auto directory = vxc::check_signature_file(resize_area(), RKNNOP_VXC_TEST_DATA);
  ASSERT_EQ(directory.size(), 1U);
  EXPECT_NE(directory[0].to_string().find("a directory, not a file"), std::string::npos) << directory[0].to_string();
#if RKNNOP_VXC_HAS_BRIDGE
  const auto text = vxc::shader_file("/dev/zero")("resizearea");  // rknnop-parity's reader
  EXPECT_TRUE(text.text.empty());
  EXPECT_NE(text.error.find("not a regular file"), std::string::npos) << text.error;
#endif
}

TEST(vxc_signature, ShaderFileFromDisk) {
  EXPECT_TRUE(vxc::check_signature_file(resize_area(), RKNNOP_VXC_TEST_DATA "/resizearea_good.vx").empty());
  const auto bad = vxc::check_signature_file(resize_area(), RKNNOP_VXC_TEST_DATA "/resizearea_bad.vx");
  ASSERT_EQ(bad.size(), 1U);
  EXPECT_EQ(bad[0].line, 10U);
}

TEST(vxc_signature, TypeNames) {
  EXPECT_EQ(vxc::vx_type_name(rknnop::vx_type::bool_), "VX_TYPE_BOOL");
  EXPECT_EQ(vxc::vx_type_from_name("VX_TYPE_FLOAT16"), rknnop::vx_type::float16);
  EXPECT_EQ(vxc::vx_type_from_name("VX_TYPE_NOPE"), std::nullopt);
  EXPECT_EQ(vxc::vx_type_size(rknnop::vx_type::bool_), 4U);
  EXPECT_EQ((vxc::op_signature{"ResizeArea", {}, {}, {}}.kernel_name()), "resizearea");
}

// SPDX-License-Identifier: MIT
// rknnop::vxc::shader_bridge through the host runtime, with a small two-input, two-output op that
// takes a FLOAT32 scalar and an array (the paths ResizeArea does not use), and the bridge's failures.
#include <rknnop/op.hpp>

#include "parity_test.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

// sum = a + alpha * b + offset[0], diff = a - b, elementwise on tensors of rank 1..3.
struct AxpyPair {
  static constexpr std::string_view name = "AxpyPair";
  using values = rknnop::tensor<float, rknnop::float16>;
  struct inputs {
    values a;
    values b;
  };
  struct outputs {
    values sum;
    values diff;
  };
  struct params {
    float alpha;
    std::array<std::int32_t, 1> offset;
  };
  static constexpr float parity_tolerance = 2e-3f;

  static constexpr auto infer = [](const inputs& in, outputs& out, const params&) {
    if (in.a.size() != in.b.size() || in.a.rank() > 3) return rknnop::error("a and b must match, rank <= 3");
    out.sum.set_dims(in.a.dims());
    out.diff.set_dims(in.a.dims());
    return rknnop::ok;
  };
  static constexpr auto cpu = [](const inputs& in, outputs& out, const params& p) {
    for (std::size_t i = 0; i < in.a.size(); ++i) {
      const float scaled = p.alpha * in.b[i];
      out.sum[i] = in.a[i] + scaled + static_cast<float>(p.offset[0]);
      out.diff[i] = in.a[i] - in.b[i];
    }
  };
  static constexpr auto vx = [](const inputs& in, const outputs&, const params&, rknnop::work_size& ws) {
    ws = rknnop::work_size::grid(in.a.dim(0), in.a.dim(1), in.a.dim(2));
  };
};
RKNNOP_EXPORT_OP(AxpyPair);

namespace {

using rknnop::vx_type;
using rknnop::parity::outcome;
namespace vxc = rknnop::vxc;

constexpr const char* axpy_shader = R"(#include "cl_viv_vx_ext.h"
#pragma OPENCL FP_CONTRACT OFF
__kernel void axpypair(__read_only image2d_array_t a, __read_only image2d_array_t b,
                       __write_only image2d_array_t sum, __write_only image2d_array_t diff,
                       float alpha, vx_array_int offset)
{
    int4 coord = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
    float x = read_imagef(a, coord).x;
    float y = read_imagef(b, coord).x;
    float scaled = alpha * y;
    write_imagef(sum, coord, (float4)(x + scaled + (float)offset.item[0], 0.0f, 0.0f, 0.0f));
    write_imagef(diff, coord, (float4)(x - y, 0.0f, 0.0f, 0.0f));
}
)";

static_assert(rknnop::parity::tolerance_of<AxpyPair>().abs == double(2e-3f));
struct no_tolerance {};
static_assert(rknnop::parity::tolerance_of<no_tolerance>().abs == 1e-3 &&
              rknnop::parity::tolerance_of<no_tolerance>().rel == 2e-3);

rknnop::parity::parity_case axpy_case(std::mt19937_64& rng, std::vector<std::uint32_t> dims, float alpha,
                                      std::int32_t offset, vx_type dtype = vx_type::float16) {
  rknnop::parity::parity_case c;
  c.inputs.push_back(rknnop::parity::random_tensor(dims, dtype, rng));
  c.inputs.push_back(rknnop::parity::random_tensor(dims, dtype, rng));
  c.params = {rknnop::parity::param_data::scalar("alpha", vx_type::float32, alpha),
              rknnop::parity::param_data::array("offset", {offset})};
  return c;
}

vx_kernel_description_t& axpy_vx() { return *vx_kernel_AxpyPair_list.entries[1]; }

// One test case per op: this is all a new op's parity test needs.
TEST(parity, AxpyPair) {
  rknnop::parity::checker check(rknnop::parity::op_info_of<AxpyPair>(), vx_kernel_AxpyPair_list.entries,
                                vxc::shader_text(axpy_shader, "axpypair.vx"));
  std::mt19937_64 rng(99);
  std::vector<rknnop::parity::parity_case> cases;
  for (const auto& dims : std::vector<std::vector<std::uint32_t>>{{7}, {5, 3}, {4, 6, 3}, {1, 1, 1}, {33, 2, 2}})
    for (float alpha : {0.0f, 0.5f, -3.25f}) {
      cases.push_back(axpy_case(rng, dims, alpha, static_cast<std::int32_t>(cases.size()) - 4));
      cases.push_back(axpy_case(rng, dims, alpha, 2, vx_type::float32));
    }
  rknnop::test::expect_parity(check, cases);
}

class bridge : public ::testing::Test {
protected:
  void SetUp() override {
    if (std::getenv("RKNNOP_PARITY_EXPECT_NO_OPENCL") != nullptr) GTEST_SKIP() << "run without OpenCL";
    vxc::shader_bridge probe(vxc::shader_text({}, {}));
    if (!probe.available()) GTEST_SKIP() << probe.status();
  }
  const rknnop::parity::op_info op = rknnop::parity::op_info_of<AxpyPair>();
  std::mt19937_64 rng{5};
};

TEST_F(bridge, MissingShaderFileFailsTheNode) {
  vxc::shader_bridge b(vxc::shader_file("/nonexistent/axpypair.vx"));
  const auto r = rknnop::parity::run_kernel(axpy_vx(), op, axpy_case(rng, {4}, 1.0f, 0), &b);
  EXPECT_EQ(r.result, outcome::error);
  EXPECT_NE(
      r.message.find("rknnop: kernel 'axpypair': cannot read the shader '/nonexistent/axpypair.vx': no such file"),
      std::string::npos)
      << r.message;
  EXPECT_EQ(b.last_result().status, vxc::run_status::error);
  EXPECT_EQ(b.nodes_run(), 0U);
}

TEST_F(bridge, NoExecutionParametersFailsTheNode) {
  vx_kernel_description_t copy = axpy_vx();  // same kernel without its VX initializer
  copy.initialize = nullptr;
  vxc::shader_bridge b(vxc::shader_text(axpy_shader, "axpypair.vx"));
  const auto r = rknnop::parity::run_kernel(copy, op, axpy_case(rng, {4}, 1.0f, 0), &b);
  EXPECT_EQ(r.result, outcome::error);
  EXPECT_NE(r.message.find("the VX initializer set no execution parameters"), std::string::npos) << r.message;
}

TEST_F(bridge, CompilerErrorsNameTheShaderLine) {
  std::string bad = axpy_shader;
  bad.replace(bad.find("float scaled = alpha * y;"), 25, "float scaled = alpha * z;");
  vxc::shader_bridge b(vxc::shader_text(bad, "axpypair.vx"));
  const auto r = rknnop::parity::run_kernel(axpy_vx(), op, axpy_case(rng, {4}, 1.0f, 0), &b);
  EXPECT_EQ(r.result, outcome::error);
  EXPECT_NE(r.message.find("axpypair.vx:10:"), std::string::npos) << r.message;
}

TEST_F(bridge, ShaderDirectoryFindsToolkitName) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("rknnop_bridge_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
                    std::to_string(reinterpret_cast<std::uintptr_t>(this)));
  std::filesystem::create_directories(dir);
  {
    vxc::shader_bridge b(vxc::shader_directory(dir));
    const auto r = rknnop::parity::run_kernel(axpy_vx(), op, axpy_case(rng, {4}, 1.0f, 0), &b);
    EXPECT_NE(
        r.message.find("no shader in '" + dir.string() + "' (looked for axpypair.vx and rknn_kernel_axpypair.vx)"),
        std::string::npos)
        << r.message;
  }
  std::ofstream(dir / "rknn_kernel_axpypair.vx") << axpy_shader;
  vxc::shader_bridge b(vxc::shader_directory(dir));
  const auto r = rknnop::parity::run_kernel(axpy_vx(), op, axpy_case(rng, {3, 2}, 2.0f, 1), &b);
  EXPECT_EQ(r.result, outcome::pass) << r.message;
  EXPECT_EQ(b.nodes_run(), 1U);
  std::filesystem::remove_all(dir);
}

TEST_F(bridge, CaseMustFitTheTable) {
  rknnop::parity::checker check(op, vx_kernel_AxpyPair_list.entries, vxc::shader_text(axpy_shader, "axpypair.vx"));
  auto c = axpy_case(rng, {4}, 1.0f, 0);
  std::swap(c.params[0], c.params[1]);
  const auto r = check.run(c);
  EXPECT_EQ(r.result, outcome::error);
  EXPECT_NE(r.message.find("param 0 of op 'AxpyPair' is 'alpha', the case gives 'offset'"), std::string::npos)
      << r.message;
}

// Run by CTest with OCL_ICD_VENDORS pointing at an empty directory (parity_no_opencl_is_reported):
// the node fails with VX_ERROR_NOT_SUPPORTED and a log entry, and the harness says no_opencl.
TEST(parity_no_opencl, ReportedNotPassed) {
  if (std::getenv("RKNNOP_PARITY_EXPECT_NO_OPENCL") == nullptr) {
    GTEST_SKIP() << "only meaningful with no OpenCL ICD visible (see tests/parity/CMakeLists.txt)";
  }
  const auto op = rknnop::parity::op_info_of<AxpyPair>();
  std::mt19937_64 rng(1);
  vxc::shader_bridge b(vxc::shader_text(axpy_shader, "axpypair.vx"));
  EXPECT_FALSE(b.available());
  const auto r = rknnop::parity::run_kernel(axpy_vx(), op, axpy_case(rng, {4}, 1.0f, 0), &b);
  EXPECT_EQ(r.result, outcome::no_opencl);
  EXPECT_NE(
      r.message.find("rknnop: kernel 'axpypair': cannot run the VX shader on the host: rknnop: no OpenCL platform"),
      std::string::npos)
      << r.message;
  EXPECT_EQ(b.last_result().status, vxc::run_status::no_opencl);

  rknnop::parity::checker check(op, vx_kernel_AxpyPair_list.entries, vxc::shader_text(axpy_shader, "axpypair.vx"));
  EXPECT_FALSE(check.opencl_available());
  EXPECT_EQ(check.run(axpy_case(rng, {4}, 1.0f, 0)).result, outcome::no_opencl);

  // Both kernels run elsewhere (rknnop-parity's node runners): no OpenCL here, the VX run is not started.
  bool vx_started = false;
  rknnop::parity::checker elsewhere(
      op,
      [&op](const rknnop::parity::parity_case& c) {
        return rknnop::parity::run_kernel(*vx_kernel_AxpyPair_list.entries[0], op, c, nullptr);
      },
      [&vx_started](const rknnop::parity::parity_case&) {
        vx_started = true;
        return rknnop::parity::kernel_run{};
      });
  EXPECT_FALSE(elsewhere.opencl_available());
  const auto er = elsewhere.run(axpy_case(rng, {4}, 1.0f, 0));
  EXPECT_EQ(er.result, outcome::no_opencl);
  EXPECT_NE(er.message.find("VX kernel: rknnop: op 'AxpyPair': cannot run the VX shader on the host: rknnop: no "
                            "OpenCL platform"),
            std::string::npos)
      << er.message;
  EXPECT_FALSE(vx_started);
}

}  // namespace

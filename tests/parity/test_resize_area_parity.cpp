// SPDX-License-Identifier: MIT
// ResizeArea: the CPU kernel (list index 0) against the VX kernel resize_area.vx (index 1), both
// through rknnop's host OpenVX runtime, on random images over down/up scaling, align_corners both
// ways, 1..4 channels, float16 (the board's type) and float32.
#include "resize_area/resize_area.cpp"  // the example op, compiled into this test program

#include "parity_test.hpp"

#include <cstdint>
#include <random>
#include <vector>

namespace {

using rknnop::vx_type;

struct resize_shape {
  std::uint32_t h, w, out_h, out_w;
};

// Integer and fractional factors, up and down, mixed, identity, 1-pixel in/out, and larger images.
constexpr resize_shape resize_shapes[] = {
    {16, 16, 4, 4}, {17, 13, 5, 4}, {9, 7, 4, 3}, {3, 5, 7, 11},    {2, 2, 5, 5},     {1, 1, 3, 2},  {8, 3, 3, 7},
    {6, 6, 6, 6},   {7, 5, 1, 1},   {1, 9, 4, 3}, {64, 48, 23, 31}, {20, 30, 45, 50}, {5, 40, 5, 3}, {33, 2, 32, 3},
};

rknnop::parity::parity_case resize_case(std::mt19937_64& rng, const resize_shape& s, std::uint32_t channels,
                                        bool align_corners, vx_type dtype) {
  rknnop::parity::parity_case c;
  // NHWC 1 x h x w x channels: dims innermost first.
  c.inputs.push_back(rknnop::parity::random_tensor({channels, s.w, s.h, 1}, dtype, rng, -8.0f, 8.0f));
  c.params.push_back(rknnop::parity::param_data::array(
      "size", {static_cast<std::int32_t>(s.out_h), static_cast<std::int32_t>(s.out_w)}));
  c.params.push_back(rknnop::parity::param_data::scalar("align_corners", vx_type::bool_, align_corners));
  return c;
}

std::vector<rknnop::parity::parity_case> resize_area_cases() {
  std::mt19937_64 rng(20240611);
  std::vector<rknnop::parity::parity_case> cases;
  for (const resize_shape& s : resize_shapes)
    for (bool align : {false, true}) {
      for (std::uint32_t channels = 1; channels <= 4; ++channels)
        cases.push_back(resize_case(rng, s, channels, align, vx_type::float16));
      cases.push_back(resize_case(rng, s, 3, align, vx_type::float32));
    }
  return cases;
}

rknnop::parity::checker resize_area_checker(const char* vx_file) {
  return rknnop::parity::checker(rknnop::parity::op_info_of<ResizeArea>(), vx_kernel_ResizeArea_list.entries,
                                 rknnop::vxc::shader_file(vx_file));
}

TEST(parity, ResizeArea) {
  auto check = resize_area_checker(RKNNOP_EXAMPLES_DIR "/resize_area/resize_area.vx");
  rknnop::test::parity_summary summary;
  rknnop::test::expect_parity(check, resize_area_cases(), &summary);
  if (!IsSkipped()) {
    EXPECT_EQ(summary.cases, std::size(resize_shapes) * 2 * 5);
  }
}

// The declared dtypes drive the cases above; keep them in sync with the op.
TEST(parity, ResizeAreaDescription) {
  const auto op = rknnop::parity::op_info_of<ResizeArea>();
  EXPECT_EQ(op.signature.name, "ResizeArea");
  EXPECT_EQ(op.signature.kernel_name(), "resizearea");
  ASSERT_EQ(op.signature.inputs, std::vector<std::string>{"images"});
  ASSERT_EQ(op.signature.outputs, std::vector<std::string>{"output"});
  ASSERT_EQ(op.signature.params.size(), 2U);
  EXPECT_EQ(op.signature.params[0].type, vx_type::array);
  EXPECT_EQ(op.signature.params[1].type, vx_type::bool_);
  EXPECT_EQ(op.input_dtypes.at(0), (std::vector<vx_type>{vx_type::float32, vx_type::float16}));
  EXPECT_DOUBLE_EQ(op.tol.abs, 1e-3);
  EXPECT_DOUBLE_EQ(op.tol.rel, 2e-3);
  // The shader matches the table (what rknnop-vxcheck checks).
  EXPECT_TRUE(
      rknnop::vxc::check_signature_file(op.signature, RKNNOP_EXAMPLES_DIR "/resize_area/resize_area.vx").empty());
}

// A plausible wrong shader (nearest neighbour) must fail, with the differences reported.
TEST(parity, CatchesNearestNeighbourShader) {
  auto check = resize_area_checker(RKNNOP_PARITY_TEST_DATA "/resizearea_nearest.vx");
  if (!check.opencl_available()) GTEST_SKIP() << check.opencl_status();
  std::mt19937_64 rng(7);
  const auto r = check.run(resize_case(rng, {9, 7, 4, 3}, 2, false, vx_type::float16));
  EXPECT_EQ(r.result, rknnop::parity::outcome::fail) << r.to_string();
  ASSERT_EQ(r.outputs.size(), 1U);
  EXPECT_GT(r.outputs[0].max_abs, 0.1);
  EXPECT_GT(r.outputs[0].mismatches, 0U);
  EXPECT_NE(r.to_string().find("output 'output' dims [2, 3, 4, 1]: max abs"), std::string::npos) << r.to_string();
}

// The VX kernel alone through the bridge: a hand-checked 2x2 -> 1x1 average per channel.
TEST(parity, ResizeAreaKnownValues) {
  rknnop::vxc::shader_bridge bridge(rknnop::vxc::shader_file(RKNNOP_EXAMPLES_DIR "/resize_area/resize_area.vx"));
  if (!bridge.available()) GTEST_SKIP() << bridge.status();
  const auto op = rknnop::parity::op_info_of<ResizeArea>();
  rknnop::parity::parity_case c;
  const float pixels[] = {1.0f, 2.0f, 3.0f, 4.0f, 0.5f, -0.5f, 0.25f, 8.0f};  // 2x2x2, channel innermost
  c.inputs.push_back(rknnop::parity::tensor_data::from_floats({2, 2, 2, 1}, vx_type::float16, pixels));
  c.params = {rknnop::parity::param_data::array("size", {1, 1}),
              rknnop::parity::param_data::scalar("align_corners", vx_type::bool_, 0)};
  const auto run = rknnop::parity::run_kernel(*vx_kernel_ResizeArea_list.entries[1], op, c, &bridge);
  ASSERT_EQ(run.result, rknnop::parity::outcome::pass) << run.message;
  ASSERT_EQ(run.outputs.size(), 1U);
  EXPECT_EQ(run.outputs[0].dims, (std::vector<std::uint32_t>{2, 1, 1, 1}));
  EXPECT_EQ(run.outputs[0].to_floats(),
            (std::vector<float>{(1.0f + 3.0f + 0.5f + 0.25f) / 4, (2.0f + 4.0f - 0.5f + 8.0f) / 4}));
  EXPECT_EQ(bridge.nodes_run(), 1U);
}

}  // namespace

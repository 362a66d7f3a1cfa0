// SPDX-License-Identifier: MIT
// Runs the ResizeArea example built as a variant (see resize_area_variant.cpp) through the host
// runtime: same numbers as the default build.
#include "../vx_harness.hpp"

#include <gtest/gtest.h>

extern "C" vx_kernel_description_t** rknnop_test_variant_list();

namespace {

using rknnop::test::harness;
using rknnop::test::ref;

vx_status run_downscale(bool khronos_context, std::vector<float>& out, std::string& log) {
  harness h(rknnop_test_variant_list()[0]);
  if (khronos_context) rknnopHostSetKhronosMode(h.context(), vx_true_e);
  const std::vector<float> in = {127, 127, 64,  64,  127, 127, 64,  64,  64, 64, 127, 127,
                                 64,  64,  127, 127, 50,  50,  100, 100, 50, 50, 100, 100};
  const vx_bool align = vx_false_e;
  vx_tensor y = h.virtual_tensor(VX_TYPE_FLOAT16);
  const vx_status s = h.run({ref(h.tensor({1, 4, 6, 1}, VX_TYPE_FLOAT16, rknnop::test::to_half(in))), ref(y),
                             ref(h.array({3, 2})), ref(h.scalar(VX_TYPE_BOOL, &align))});
  if (s == VX_SUCCESS) out = rknnop::test::to_float(harness::read<rknnop::float16>(y));
  log = h.last_log();
  return s;
}

TEST(Variant, RunsAndMatches) {
  std::vector<float> out;
  std::string log;
  ASSERT_EQ(run_downscale(RKNNOP_VX_KHRONOS_DIMS != 0, out, log), VX_SUCCESS) << log;
  EXPECT_EQ(out, (std::vector<float>{127, 64, 64, 127, 50, 100}));
}

#if RKNNOP_VX_KHRONOS_DIMS
// A kernel built for Khronos conventions on a VSI-mode runtime fails with a message, not garbage.
TEST(Variant, KhronosBuildOnAVsiRuntimeIsReported) {
  if (sizeof(vx_size) == sizeof(vx_uint32))
    GTEST_SKIP() << "vx_size is 4 bytes on this target: the Khronos and VSI dims conventions coincide";
  std::vector<float> out;
  std::string log;
  EXPECT_EQ(run_downscale(false, out, log), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(log,
            "rknnop: ResizeArea: input 'images': the driver refused the rank query's size (-10): this library "
            "uses vx_size dims (Khronos); for VSI drivers (RKNN boards) build it with RKNNOP_VX_KHRONOS_DIMS=0");
}
#endif

}  // namespace

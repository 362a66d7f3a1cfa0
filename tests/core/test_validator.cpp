// SPDX-License-Identifier: MIT
// The generated validator and tensor queries against what models and OpenVX implementations hand
// a kernel: NHWC tensors whose batch 1 the model left out (rank 3), virtual outputs whose dims and
// dtype are "to be inferred" (0s, VX_TYPE_INVALID), fixed-point positions, and a driver with the
// other dims convention (Khronos vx_size vs VSI uint32).
#include <rknnop/op.hpp>

#include "bad_infer_ops.hpp"
#include "vx_harness.hpp"

#include <gtest/gtest.h>

using rknnop::test::harness;

namespace {

// y = 2x through the NHWC view (n, h, w, c): wrong strides or a batch other than 1 show in the values.
struct NhwcDouble {
  static constexpr std::string_view name = "NhwcDouble";
  using image = rknnop::tensor<rknnop::layout::nhwc, float, rknnop::float16>;
  struct inputs {
    image x;
  };
  struct outputs {
    image y;
  };
  static constexpr auto infer = [](const inputs& in, outputs& out, const rknnop::no_params&) {
    out.y.set_shape(in.x.n(), in.x.h(), in.x.w(), in.x.c());
    return rknnop::ok;
  };
  static constexpr auto cpu = [](const inputs& in, outputs& out, const rknnop::no_params&) {
    if (in.x.rank() != 4 || in.x.n() != 1 || out.y.rank() != 4 || out.y.n() != 1)
      return rknnop::error("views must be rank 4, batch 1: got ranks {}/{}", in.x.rank(), out.y.rank());
    for (std::uint32_t h = 0; h < in.x.h(); ++h)
      for (std::uint32_t w = 0; w < in.x.w(); ++w)
        for (std::uint32_t c = 0; c < in.x.c(); ++c) out.y(0, h, w, c) = 2.f * in.x(0, h, w, c);
    return rknnop::ok;
  };
};

// Plain int16 copy.
struct Int16Copy {
  static constexpr std::string_view name = "Int16Copy";
  struct inputs {
    rknnop::tensor<std::int16_t> x;
  };
  struct outputs {
    rknnop::tensor<std::int16_t> y;
  };
  static constexpr auto infer = [](const inputs& in, outputs& out, const rknnop::no_params&) {
    out.y.set_dims(in.x.dims());
    return rknnop::ok;
  };
  static constexpr auto cpu = [](const inputs& in, outputs& out, const rknnop::no_params&) {
    for (std::size_t i = 0; i < in.x.size(); ++i) out.y[i] = in.x[i];
    return rknnop::ok;
  };
};

}  // namespace

RKNNOP_EXPORT_OP(NhwcDouble);
RKNNOP_EXPORT_OP(Int16Copy);
using rknnop::test::Int8Infer;
using rknnop::test::ZeroDimInfer;
RKNNOP_EXPORT_OP(ZeroDimInfer);
RKNNOP_EXPORT_OP(Int8Infer);

// The core's one `infer` check (detail/invoke/pipeline.hpp), through the OpenVX validator: the same
// lines as on RKNPU2 and MindSpore Lite (tests/rknpu2/test_plugin.cpp, tests/mindspore/).
TEST(CoreInferCheck, AZeroDimAndAnInt8ForAFloatOutputAreRefused) {
  harness h(vx_kernel_ZeroDimInfer_list.entries[0]);
  EXPECT_EQ(h.run({rknnop::test::ref(h.tensor<float>({3}, VX_TYPE_FLOAT32)),
                   rknnop::test::ref(h.tensor<float>({3}, VX_TYPE_FLOAT32))}),
            VX_ERROR_INVALID_DIMENSION);
  EXPECT_EQ(h.last_log(), std::string("rknnop: ZeroDimInfer: ") + rknnop::test::zero_dim_line);
  for (vx_enum out : {VX_TYPE_FLOAT32, VX_TYPE_FLOAT16}) {
    harness h2(vx_kernel_Int8Infer_list.entries[0]);
    EXPECT_EQ(h2.run({rknnop::test::ref(h2.tensor<float>({3}, VX_TYPE_FLOAT32)),
                      rknnop::test::ref(h2.tensor<float>({3}, out))}),
              VX_ERROR_INVALID_TYPE);
    EXPECT_EQ(h2.last_log(), std::string("rknnop: Int8Infer: ") + rknnop::test::int8_line);
  }
}

namespace {

using rknnop::test::ref;

std::vector<float> iota(std::size_t n) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<float>(i);
  return v;
}

TEST(Validator, NhwcTensorsWithoutTheirBatchAreBatchOne) {
  harness h(vx_kernel_NhwcDouble_list.entries[0]);
  // dims innermost first: C=3, W=4, H=5, the model's N=1 left out.
  vx_tensor x = h.tensor<float>({3, 4, 5}, VX_TYPE_FLOAT32, iota(60));
  vx_tensor y = h.tensor<float>({3, 4, 5}, VX_TYPE_FLOAT32);
  ASSERT_EQ(h.run({ref(x), ref(y)}), VX_SUCCESS) << h.last_log();
  const std::vector<float> out = harness::read<float>(y);
  ASSERT_EQ(out.size(), 60u);
  for (std::size_t i = 0; i < 60; ++i) EXPECT_EQ(out[i], 2.f * float(i)) << i;
  // A rank-4 output of the same tensor with a rank-3 input, and the other way round.
  harness h2(vx_kernel_NhwcDouble_list.entries[0]);
  vx_tensor x4 = h2.tensor<float>({3, 4, 5, 1}, VX_TYPE_FLOAT32, iota(60));
  vx_tensor y3 = h2.tensor<float>({3, 4, 5}, VX_TYPE_FLOAT32);
  ASSERT_EQ(h2.run({ref(x4), ref(y3)}), VX_SUCCESS) << h2.last_log();
  EXPECT_EQ(harness::read<float>(y3), harness::read<float>(y));
}

TEST(Validator, OtherRanksAndShapesStayErrors) {
  harness h(vx_kernel_NhwcDouble_list.entries[0]);
  EXPECT_EQ(h.run({ref(h.tensor<float>({3, 4, 5, 1, 1}, VX_TYPE_FLOAT32)), ref(h.virtual_tensor(VX_TYPE_FLOAT32))}),
            VX_ERROR_INVALID_DIMENSION);
  EXPECT_EQ(h.last_log(),
            "rknnop: NhwcDouble: input 'x': expected rank 4 (NHWC; a lower rank is taken as batch 1), "
            "got rank 5 with dims [3,4,5,1,1]");
  harness h2(vx_kernel_NhwcDouble_list.entries[0]);
  EXPECT_EQ(
      h2.run({ref(h2.tensor<float>({3, 4, 5}, VX_TYPE_FLOAT32)), ref(h2.tensor<float>({3, 5, 4}, VX_TYPE_FLOAT32))}),
      VX_ERROR_INVALID_DIMENSION);
  EXPECT_EQ(h2.last_log(),
            "rknnop: NhwcDouble: output 'y': shape inference gives NumPy shape (1, 5, 4, 3), the output tensor "
            "has (4, 5, 3) (dims innermost first [3,4,5,1] and [3,5,4])");
  harness h3(vx_kernel_NhwcDouble_list.entries[0]);  // an outer dim that is not 1 is not "batch left out"
  EXPECT_EQ(
      h3.run({ref(h3.tensor<float>({3, 4, 5, 2}, VX_TYPE_FLOAT32)), ref(h3.tensor<float>({3, 4, 5}, VX_TYPE_FLOAT32))}),
      VX_ERROR_INVALID_DIMENSION);
}

TEST(Validator, VirtualOutputWithZeroDimsAndInvalidTypeIsInferred) {
  harness h(vx_kernel_NhwcDouble_list.entries[0]);
  const vx_size unknown[4] = {0, 0, 0, 0};
  vx_tensor y = vxCreateVirtualTensor(h.graph(), 4, unknown, VX_TYPE_INVALID, 0);
  ASSERT_NE(y, nullptr);
  vx_tensor x = h.tensor<float>({3, 4, 5, 1}, VX_TYPE_FLOAT32, iota(60));
  ASSERT_EQ(h.run({ref(x), ref(y)}), VX_SUCCESS) << h.last_log();
  EXPECT_EQ(harness::dims(y), (std::vector<std::uint32_t>{3, 4, 5, 1}));
  vx_enum dtype = VX_TYPE_INVALID;
  ASSERT_EQ(vxQueryTensor(y, VX_TENSOR_DATA_TYPE, &dtype, sizeof dtype), VX_SUCCESS);
  EXPECT_EQ(dtype, VX_TYPE_FLOAT32);  // the first input's dtype, which the output accepts
  EXPECT_EQ(harness::read<float>(y)[59], 118.f);
}

TEST(Validator, FixedPointPositions) {
  // An output created as Q7.8 (as some implementations create INT16) is described as plain values.
  harness h(vx_kernel_Int16Copy_list.entries[0]);
  const vx_size dims[1] = {2};
  vx_tensor y = vxCreateVirtualTensor(h.graph(), 0, nullptr, VX_TYPE_INT16, 8);
  vx_tensor x = h.tensor<std::int16_t>({2}, VX_TYPE_INT16, {-5, 300});
  ASSERT_EQ(h.run({ref(x), ref(y)}), VX_SUCCESS) << h.last_log();
  vx_int8 position = -1;
  ASSERT_EQ(vxQueryTensor(y, VX_TENSOR_FIXED_POINT_POSITION, &position, sizeof position), VX_SUCCESS);
  EXPECT_EQ(position, 0);
  EXPECT_EQ(harness::read<std::int16_t>(y), (std::vector<std::int16_t>{-5, 300}));

  // Quantized input data is refused, never read as plain integers.
  harness q(vx_kernel_Int16Copy_list.entries[0]);
  vx_tensor quantized = vxCreateTensor(q.context(), 1, dims, VX_TYPE_INT16, 8);
  EXPECT_EQ(q.run({ref(quantized), ref(q.virtual_tensor(VX_TYPE_INT16))}), VX_ERROR_INVALID_FORMAT);
  EXPECT_EQ(q.last_log(),
            "rknnop: Int16Copy: input 'x': VX_TYPE_INT16 with fixed-point position 8 is quantized data "
            "(integer * 2^-8); rknnop passes plain values only: use fixed-point position 0 or a float "
            "tensor");
}

TEST(Validator, WrongDimsConventionNamesTheMacro) {
  if (sizeof(vx_size) == sizeof(vx_uint32))
    GTEST_SKIP() << "vx_size is 4 bytes on this target: the Khronos and VSI dims conventions coincide";
  harness h(vx_kernel_NhwcDouble_list.entries[0]);
  rknnopHostSetKhronosMode(h.context(), vx_true_e);  // vx_size dims, as Khronos implementations report them
  EXPECT_EQ(h.run({ref(h.tensor<float>({3, 4, 5, 1}, VX_TYPE_FLOAT32)), ref(h.virtual_tensor(VX_TYPE_FLOAT32))}),
            VX_ERROR_INVALID_PARAMETERS);
#if RKNNOP_VX_KHRONOS_DIMS
  GTEST_SKIP() << "this build uses Khronos dims";
#else
  EXPECT_EQ(h.last_log(),
            "rknnop: NhwcDouble: input 'x': the driver refused the rank query's size (-10): this library "
            "uses uint32 dims (VSI, RKNN boards); for Khronos OpenVX build it with "
            "RKNNOP_VX_KHRONOS_DIMS=1");
#endif
}

}  // namespace

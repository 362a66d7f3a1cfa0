// SPDX-License-Identifier: MIT
// Run-time tests of the generated callbacks through the host OpenVX runtime's C API: every scalar
// type, both array forms, every tensor dtype, and the error paths with their exact messages.
#include <rknnop/op.hpp>

#include "vx_harness.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>

using rknnop::test::harness;

// --- test ops ---------------------------------------------------------------------------------

// Writes every scalar param, converted to float, into its 13-element output.
struct ScalarZoo {
  static constexpr std::string_view name = "ScalarZoo";
  struct inputs {
    rknnop::tensor<float> x;
  };
  struct outputs {
    rknnop::tensor<float> y;
  };
  struct params {
    char c;
    std::int8_t i8;
    std::uint8_t u8;
    std::int16_t i16;
    std::uint16_t u16;
    std::int32_t i32;
    std::uint32_t u32;
    std::int64_t i64;
    std::uint64_t u64;
    rknnop::float16 h;
    float f;
    double d;
    bool b;
  };
  static constexpr auto infer = [](const inputs&, outputs& out, const params&) {
    out.y.set_dims({13});
    return rknnop::ok;
  };
  static constexpr auto cpu = [](const inputs&, outputs& out, const params& p) {
    const double v[] = {double(p.c),   double(p.i8),  double(p.u8),   double(p.i16), double(p.u16),
                        double(p.i32), double(p.u32), double(p.i64),  double(p.u64), double(static_cast<float>(p.h)),
                        double(p.f),   p.d,           p.b ? 1.0 : 0.0};
    for (std::size_t i = 0; i < 13; ++i) out.y[i] = static_cast<float>(v[i]);
    return rknnop::ok;
  };
};
RKNNOP_EXPORT_OP(ScalarZoo);

// Exact and bounded int32 arrays: writes [count of bounded, exact..., bounded...].
struct ArrayForms {
  static constexpr std::string_view name = "ArrayForms";
  struct inputs {
    rknnop::tensor<float> x;
  };
  struct outputs {
    rknnop::tensor<float> y;
  };
  struct params {
    std::array<std::int32_t, 3> exact;
    rknnop::int_array<5> bounded;
  };
  static constexpr auto infer = [](const inputs&, outputs& out, const params&) {
    out.y.set_dims({9});
    return rknnop::ok;
  };
  static constexpr auto cpu = [](const inputs&, outputs& out, const params& p) {
    for (std::size_t i = 0; i < 9; ++i) out.y[i] = -1.f;
    out.y[0] = float(p.bounded.size());
    for (std::size_t i = 0; i < 3; ++i) out.y[1 + i] = float(p.exact[i]);
    for (std::size_t i = 0; i < p.bounded.size(); ++i) out.y[4 + i] = float(p.bounded[i]);
    return rknnop::ok;
  };
};
RKNNOP_EXPORT_OP(ArrayForms);

// Any dtype in, the same dtype out, through a float kernel: checks every boundary conversion.
struct DtypeEcho {
  static constexpr std::string_view name = "DtypeEcho";
  using any =
      rknnop::tensor<float, rknnop::float16, std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, std::int32_t>;
  struct inputs {
    any x;
  };
  struct outputs {
    any y;
  };
  static constexpr auto infer = [](const inputs& in, outputs& out, const rknnop::no_params&) {
    out.y.set_dims(in.x.dims());
    out.y.set_dtype(in.x.dtype());
    return rknnop::ok;
  };
  static constexpr auto cpu = [](const inputs& in, outputs& out, const auto&) {
    for (std::size_t i = 0; i < in.x.size(); ++i) out.y[i] = in.x[i] * 2.f;
    return rknnop::ok;
  };
};
RKNNOP_EXPORT_OP(DtypeEcho);

// Ops whose kernels misbehave in each way the SDK must catch.
template <int Mode>
struct misbehaving_base {
  struct inputs {
    rknnop::tensor<float> x;
  };
  struct outputs {
    rknnop::tensor<float> y;
  };
  struct params {
    std::int32_t unused;
  };
  static constexpr auto infer = [](const inputs& in, outputs& out, const params&) {
    out.y.set_dims(in.x.dims());
    return rknnop::ok;
  };
  static constexpr auto cpu = [](const inputs&, outputs& out, const params&) -> rknnop::status {
    if constexpr (Mode == 0) return rknnop::error("bad thing {}", 42);
    if constexpr (Mode == 1) throw std::runtime_error("boom");
    if constexpr (Mode == 2) return rknnop::ok;  // writes nothing
    out.y[0] = 1.f;
    return rknnop::ok;
  };
};
struct Failing : misbehaving_base<0> {
  static constexpr std::string_view name = "Failing";
};
struct Throwing : misbehaving_base<1> {
  static constexpr std::string_view name = "Throwing";
};
struct Lazy : misbehaving_base<2> {
  static constexpr std::string_view name = "Lazy";
};
RKNNOP_EXPORT_OP(Failing);
RKNNOP_EXPORT_OP(Throwing);
RKNNOP_EXPORT_OP(Lazy);

// A VX kernel whose work size is impossible (global not a multiple of local).
struct BadWork {
  static constexpr std::string_view name = "BadWork";
  struct inputs {
    rknnop::tensor<float> x;
  };
  struct outputs {
    rknnop::tensor<float> y;
  };
  struct params {
    std::int32_t local;
  };
  static constexpr auto infer = [](const inputs& in, outputs& out, const params&) {
    out.y.set_dims(in.x.dims());
    return rknnop::ok;
  };
  static constexpr auto cpu = [](const inputs& in, outputs& out, const params&) {
    for (std::size_t i = 0; i < in.x.size(); ++i) out.y[i] = in.x[i];
    return rknnop::ok;
  };
  static constexpr auto vx = [](const inputs& in, const outputs&, const params& p, rknnop::work_size& ws) {
    ws = rknnop::work_size::grid(in.x.size());
    ws.local[0] = std::size_t(p.local);
    return rknnop::ok;
  };
};
RKNNOP_EXPORT_OP(BadWork);

namespace {

using rknnop::test::ref;

TEST(RuntimeOps, EveryScalarType) {
  harness h(vx_kernel_ScalarZoo_list.entries[0]);
  const vx_char c = 'A';
  const vx_int8 i8 = -7;
  const vx_uint8 u8 = 250;
  const vx_int16 i16 = -30000;
  const vx_uint16 u16 = 65000;
  const vx_int32 i32 = -2000000000;
  const vx_uint32 u32 = 4000000000u;
  const vx_int64 i64 = -(1ll << 40);
  const vx_uint64 u64 = 1ull << 50;
  const vx_uint16 hbits = rknnop::float16(0.375f).bits();
  const vx_float32 f = 2.5f;
  const vx_float64 d = -1e10;
  const vx_bool b = vx_true_e;
  vx_tensor x = h.tensor<float>({1}, VX_TYPE_FLOAT32, {0.f});
  vx_tensor y = h.virtual_tensor(VX_TYPE_FLOAT32);
  ASSERT_EQ(
      h.run({ref(x), ref(y), ref(h.scalar(VX_TYPE_CHAR, &c)), ref(h.scalar(VX_TYPE_INT8, &i8)),
             ref(h.scalar(VX_TYPE_UINT8, &u8)), ref(h.scalar(VX_TYPE_INT16, &i16)), ref(h.scalar(VX_TYPE_UINT16, &u16)),
             ref(h.scalar(VX_TYPE_INT32, &i32)), ref(h.scalar(VX_TYPE_UINT32, &u32)),
             ref(h.scalar(VX_TYPE_INT64, &i64)), ref(h.scalar(VX_TYPE_UINT64, &u64)),
             ref(h.scalar(VX_TYPE_FLOAT16, &hbits)), ref(h.scalar(VX_TYPE_FLOAT32, &f)),
             ref(h.scalar(VX_TYPE_FLOAT64, &d)), ref(h.scalar(VX_TYPE_BOOL, &b))}),
      VX_SUCCESS)
      << h.last_log();
  const std::vector<float> got = harness::read<float>(y);
  const std::vector<float> expected = {
      65.f,   -7.f, 250.f,  -30000.f, 65000.f, -2e9f, 4e9f, -1099511627776.f, 1125899906842624.f,
      0.375f, 2.5f, -1e10f, 1.f};
  EXPECT_EQ(got, expected);
}

TEST(RuntimeOps, ScalarOfTheWrongTypeIsRejectedByName) {
  harness h(vx_kernel_ScalarZoo_list.entries[0]);
  const vx_int32 zero = 0;
  std::vector<vx_reference> p = {ref(h.tensor<float>({1}, VX_TYPE_FLOAT32, {0.f})),
                                 ref(h.virtual_tensor(VX_TYPE_FLOAT32))};
  const vx_enum types[] = {VX_TYPE_CHAR,    VX_TYPE_INT8,    VX_TYPE_UINT8, VX_TYPE_INT16,  VX_TYPE_UINT16,
                           VX_TYPE_INT32,   VX_TYPE_UINT32,  VX_TYPE_INT64, VX_TYPE_UINT64, VX_TYPE_FLOAT16,
                           VX_TYPE_FLOAT32, VX_TYPE_FLOAT64, VX_TYPE_INT32 /* where a BOOL belongs */};
  const vx_uint64 storage = 0;
  for (vx_enum t : types)
    p.push_back(ref(h.scalar(t, t == VX_TYPE_INT32 ? static_cast<const void*>(&zero) : &storage)));
  EXPECT_EQ(h.run(p), VX_ERROR_INVALID_TYPE);
  EXPECT_EQ(h.last_log(), "rknnop: ScalarZoo: param 'b': expected a VX_TYPE_BOOL scalar, got VX_TYPE_INT32");
}

TEST(RuntimeOps, ArraysExactAndBounded) {
  harness h(vx_kernel_ArrayForms_list.entries[0]);
  vx_tensor y = h.virtual_tensor(VX_TYPE_FLOAT32);
  ASSERT_EQ(h.run({ref(h.tensor<float>({1}, VX_TYPE_FLOAT32, {0.f})), ref(y), ref(h.array({7, 8, 9})),
                   ref(h.array({-1, 2}))}),
            VX_SUCCESS)
      << h.last_log();
  EXPECT_EQ(harness::read<float>(y), (std::vector<float>{2, 7, 8, 9, -1, 2, -1, -1, -1}));
}

TEST(RuntimeOps, EmptyBoundedArray) {
  harness h(vx_kernel_ArrayForms_list.entries[0]);
  vx_tensor y = h.virtual_tensor(VX_TYPE_FLOAT32);
  ASSERT_EQ(
      h.run({ref(h.tensor<float>({1}, VX_TYPE_FLOAT32, {0.f})), ref(y), ref(h.array({1, 2, 3})), ref(h.array({}))}),
      VX_SUCCESS)
      << h.last_log();
  EXPECT_EQ(harness::read<float>(y)[0], 0.f);
}

TEST(RuntimeOps, ArrayErrors) {
  {
    harness h(vx_kernel_ArrayForms_list.entries[0]);
    EXPECT_EQ(h.run({ref(h.tensor<float>({1}, VX_TYPE_FLOAT32, {0.f})), ref(h.virtual_tensor(VX_TYPE_FLOAT32)),
                     ref(h.array({1, 2})), ref(h.array({}))}),
              VX_ERROR_INVALID_PARAMETERS);
    EXPECT_EQ(h.last_log(), "rknnop: ArrayForms: param 'exact': expected exactly 3 items, got 2");
  }
  {
    harness h(vx_kernel_ArrayForms_list.entries[0]);
    EXPECT_EQ(h.run({ref(h.tensor<float>({1}, VX_TYPE_FLOAT32, {0.f})), ref(h.virtual_tensor(VX_TYPE_FLOAT32)),
                     ref(h.array({1, 2, 3})), ref(h.array({1, 2, 3, 4, 5, 6}))}),
              VX_ERROR_INVALID_PARAMETERS);
    EXPECT_EQ(h.last_log(), "rknnop: ArrayForms: param 'bounded': expected at most 5 items, got 6");
  }
  {
    harness h(vx_kernel_ArrayForms_list.entries[0]);
    vx_array floats = vxCreateArray(h.context(), VX_TYPE_FLOAT32, 4);
    const float items[3] = {1, 2, 3};
    vxAddArrayItems(floats, 3, items, sizeof(float));
    EXPECT_EQ(h.run({ref(h.tensor<float>({1}, VX_TYPE_FLOAT32, {0.f})), ref(h.virtual_tensor(VX_TYPE_FLOAT32)),
                     ref(floats), ref(h.array({}))}),
              VX_ERROR_INVALID_TYPE);
    EXPECT_EQ(h.last_log(),
              "rknnop: ArrayForms: param 'exact': expected an array of VX_TYPE_INT32 items, got VX_TYPE_FLOAT32 items");
  }
}

// The CPU kernel trusts the validator's type checks (docs/runtime.md §3). What that rests on: a
// param replaced after verification un-verifies the graph, so the next vxProcessGraph runs the
// validator on the new object before the kernel sees it.
TEST(RuntimeOps, ParamReplacedAfterVerificationIsTypeCheckedAgain) {
  harness h(vx_kernel_ArrayForms_list.entries[0]);
  ASSERT_EQ(h.run({ref(h.tensor<float>({1}, VX_TYPE_FLOAT32, {0.f})), ref(h.virtual_tensor(VX_TYPE_FLOAT32)),
                   ref(h.array({1, 2, 3})), ref(h.array({}))}),
            VX_SUCCESS)
      << h.last_log();
  vx_array floats = vxCreateArray(h.context(), VX_TYPE_FLOAT32, 4);
  const float items[3] = {1, 2, 3};
  ASSERT_EQ(vxAddArrayItems(floats, 3, items, sizeof(float)), VX_SUCCESS);
  ASSERT_EQ(vxSetParameterByIndex(h.node(), 2, ref(floats)), VX_SUCCESS);
  EXPECT_EQ(vxProcessGraph(h.graph()), VX_ERROR_INVALID_TYPE);
  EXPECT_EQ(h.last_log(),
            "rknnop: ArrayForms: param 'exact': expected an array of VX_TYPE_INT32 items, got VX_TYPE_FLOAT32 items");
}

// An array's count is data, not type: it can change after verification without un-verifying the
// graph, so the kernel still checks it on every call.
TEST(RuntimeOps, ArrayGrownAfterVerificationIsRejectedByTheKernel) {
  harness h(vx_kernel_ArrayForms_list.entries[0]);
  vx_array exact = h.array({1, 2, 3});  // capacity 4
  ASSERT_EQ(h.run({ref(h.tensor<float>({1}, VX_TYPE_FLOAT32, {0.f})), ref(h.virtual_tensor(VX_TYPE_FLOAT32)),
                   ref(exact), ref(h.array({}))}),
            VX_SUCCESS)
      << h.last_log();
  const vx_int32 extra = 4;
  ASSERT_EQ(vxAddArrayItems(exact, 1, &extra, sizeof extra), VX_SUCCESS);
  EXPECT_EQ(vxProcessGraph(h.graph()), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(h.last_log(), "rknnop: ArrayForms: param 'exact': expected exactly 3 items, got 4");
}

template <class T>
void echo_roundtrip(vx_enum dtype, const std::vector<T>& values, const std::vector<T>& expected) {
  harness h(vx_kernel_DtypeEcho_list.entries[0]);
  vx_tensor x = h.tensor<T>({static_cast<std::uint32_t>(values.size())}, dtype, values);
  vx_tensor y = h.virtual_tensor(dtype);
  ASSERT_EQ(h.run({ref(x), ref(y)}), VX_SUCCESS) << h.last_log();
  const std::vector<T> got = harness::read<T>(y);
  ASSERT_EQ(got.size(), expected.size());
  for (std::size_t i = 0; i < got.size(); ++i)
    EXPECT_TRUE(got[i] == expected[i]) << rknnop::detail::vx_type_name(dtype) << " " << i;
}

TEST(RuntimeOps, EveryTensorDtypeRoundTripsThroughAFloatKernel) {
  echo_roundtrip<float>(VX_TYPE_FLOAT32, {1.5f, -2.f}, {3.f, -4.f});
  echo_roundtrip<rknnop::float16>(VX_TYPE_FLOAT16, {rknnop::float16(1.5f), rknnop::float16(-0.25f)},
                                  {rknnop::float16(3.f), rknnop::float16(-0.5f)});
  echo_roundtrip<std::int8_t>(VX_TYPE_INT8, {-100, 50, 3}, {-128, 100, 6});  // saturates, never wraps
  echo_roundtrip<std::uint8_t>(VX_TYPE_UINT8, {200, 7}, {255, 14});
  echo_roundtrip<std::int16_t>(VX_TYPE_INT16, {-20000, 1000}, {-32768, 2000});
  echo_roundtrip<std::uint16_t>(VX_TYPE_UINT16, {40000, 3}, {65535, 6});
  echo_roundtrip<std::int32_t>(VX_TYPE_INT32, {-1000000, 12345}, {-2000000, 24690});
}
}  // namespace

namespace {

std::string run_misbehaving(vx_kernel_description_t* d, vx_status expected) {
  harness h(d);
  const vx_int32 unused = 0;
  vx_tensor y = h.virtual_tensor(VX_TYPE_FLOAT32);
  EXPECT_EQ(
      h.run({ref(h.tensor<float>({2}, VX_TYPE_FLOAT32, {1.f, 2.f})), ref(y), ref(h.scalar(VX_TYPE_INT32, &unused))}),
      expected);
  vx_bool written = vx_true_e;
  rknnopHostTensorWasWritten(y, &written);
  EXPECT_EQ(written, vx_false_e) << "outputs must not be written back when the kernel failed";
  return h.last_log();
}

TEST(RuntimeOps, KernelReturningFailure) {
  EXPECT_EQ(run_misbehaving(vx_kernel_Failing_list.entries[0], VX_FAILURE),
            "rknnop: Failing: the CPU kernel failed: bad thing 42");
}

TEST(RuntimeOps, KernelThrowing) {
  EXPECT_EQ(run_misbehaving(vx_kernel_Throwing_list.entries[0], VX_FAILURE),
            "rknnop: Throwing: the CPU kernel threw: boom");
}

TEST(RuntimeOps, KernelWritingNothing) {
  EXPECT_EQ(run_misbehaving(vx_kernel_Lazy_list.entries[0], VX_FAILURE),
            RKNNOP_GUARD_BUFFERS  // the PC library checks every element, the boards' the markers
                ? "rknnop: Lazy: output 'y': the CPU kernel left 2 of 2 elements unwritten, the first at element 0 "
                  "(NumPy index [0]); `cpu` must write every output element"
                : "rknnop: Lazy: output 'y': the kernel wrote nothing (rknnop's unwritten markers are all still "
                  "there)");
}

TEST(RuntimeOps, WrongParameterCountCalledDirectly) {
  vx_kernel_description_t* d = vx_kernel_Failing_list.entries[0];
  rknnop::set_log_sink(nullptr);
  EXPECT_EQ(d->function(nullptr, nullptr, 2), VX_ERROR_INVALID_PARAMETERS);
  vx_reference none[3] = {};
  EXPECT_EQ(d->validate(nullptr, none, 3, nullptr), VX_ERROR_INVALID_REFERENCE);
  rknnop::set_log_sink(&rknnop::detail::stderr_sink);
}

TEST(RuntimeOps, VxInitializerSetsExecutionParameters) {
  harness h(vx_kernel_BadWork_list.entries[1]);
  const vx_int32 local = 4;
  vx_tensor y = h.virtual_tensor(VX_TYPE_FLOAT32);
  ASSERT_EQ(h.verify_only({ref(h.tensor<float>({8}, VX_TYPE_FLOAT32, std::vector<float>(8, 1.f))), ref(y),
                           ref(h.scalar(VX_TYPE_INT32, &local))}),
            VX_SUCCESS)
      << h.last_log();
  vx_kernel_execution_parameters_t p{};
  vx_bool set = vx_false_e;
  ASSERT_EQ(rknnopHostGetExecutionParameters(h.node(), &p, &set), VX_SUCCESS);
  EXPECT_EQ(set, vx_true_e);
  EXPECT_EQ(p.workDim, 1u);
  EXPECT_EQ(p.globalWorkSize[0], 8u);
  EXPECT_EQ(p.localWorkSize[0], 4u);
  EXPECT_EQ(p.globalWorkScale[0], 1u);
}

TEST(RuntimeOps, VxInitializerRejectsImpossibleWorkSizes) {
  harness h(vx_kernel_BadWork_list.entries[1]);
  const vx_int32 local = 3;
  EXPECT_NE(h.verify_only({ref(h.tensor<float>({8}, VX_TYPE_FLOAT32, std::vector<float>(8, 1.f))),
                           ref(h.virtual_tensor(VX_TYPE_FLOAT32)), ref(h.scalar(VX_TYPE_INT32, &local))}),
            VX_SUCCESS);
  EXPECT_EQ(h.last_log(), "rknnop: BadWork: work size: global[0] = 8 is not a multiple of local[0] = 3");
}

}  // namespace

// SPDX-License-Identifier: MIT
// The example ops through MindSpore Lite's own registry, MSTensor and Kernel code (built from the
// tree in RKNNOP_MINDSPORE_LITE_ROOT): RegisterKernelInterface::GetKernelInterface(...)->Infer,
// RegisterKernel::GetCreator, Prepare, Execute and Kernel::InferShape on real MSTensors, with the
// Custom node built as a real flatbuffers schema::Primitive. Every result is compared byte for byte
// with the same op run through rknnop's host OpenVX runtime on the same inputs.
//
// The whole program is compiled as MindSpore Lite is (-D_GLIBCXX_USE_CXX11_ABI=0 -fno-rtti).
#include "exp/exp.cpp"
#include "quantized_max_pool/quantized_max_pool.cpp"
#include "resize_area/resize_area.cpp"
#include "truncate_div/truncate_div.cpp"

#include "bad_infer_ops.hpp"  // tests/core
#include "vx_harness.hpp"     // tests/core

#include <rknnop/detail/mindspore/tensor.hpp>
#include <rknnop/mindspore_attrs.hpp>

#include "include/api/kernel.h"
#include "include/api/types.h"
#include "include/kernel_interface.h"
#include "include/registry/register_kernel.h"
#include "include/registry/register_kernel_interface.h"
#include "schema/model_generated.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>  // setenv
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace {

using bytes = std::vector<std::uint8_t>;
using ms_type = mindspore::DataType;
using rknnop::float16;
using rknnop::test::harness;

template <class T>
vx_reference ref(T* object) {
  return reinterpret_cast<vx_reference>(object);
}

std::string g_log;
void capture(const char* line, void*) noexcept { g_log += std::string(line) + "\n"; }
struct log_capture {
  log_capture() {
    g_log.clear();
    rknnop::set_log_sink(&capture);
  }
  ~log_capture() { rknnop::set_log_sink(nullptr); }
};

template <class T>
bytes as_bytes(const std::vector<T>& v) {
  bytes b(v.size() * sizeof(T));
  if (!b.empty()) std::memcpy(b.data(), v.data(), b.size());
  return b;
}

// A Custom node: flatbuffers bytes and the schema::Primitive inside them.
struct node {
  std::shared_ptr<flatbuffers::FlatBufferBuilder> fbb = std::make_shared<flatbuffers::FlatBufferBuilder>();
  const mindspore::schema::Primitive* primitive = nullptr;
};
node make_node(const std::string& type, const rknnop::mindspore::attr_map& attrs) {
  node n;
  std::vector<flatbuffers::Offset<mindspore::schema::Attribute>> items;
  for (const auto& [name, data] : attrs)
    items.push_back(mindspore::schema::CreateAttributeDirect(*n.fbb, name.c_str(), &data));
  const auto custom = mindspore::schema::CreateCustomDirect(*n.fbb, type.c_str(), &items);
  n.fbb->Finish(mindspore::schema::CreatePrimitive(*n.fbb, mindspore::schema::PrimitiveType_Custom, custom.Union()));
  n.primitive = flatbuffers::GetRoot<mindspore::schema::Primitive>(n.fbb->GetBufferPointer());
  return n;
}

struct input {
  ms_type type;
  std::vector<std::int64_t> shape;
  bytes data;
  mindspore::Format format = mindspore::NHWC;
};

mindspore::MSTensor make_tensor(const input& in) {
  mindspore::MSTensor t("in", in.type, in.shape, in.data.empty() ? nullptr : in.data.data(), in.data.size());
  t.SetShape(in.shape);  // MindSpore's deep-copy constructor gives an empty shape with data the shape {bytes}
  t.SetFormat(in.format);
  return t;
}

struct ms_result {
  mindspore::Status infer = mindspore::kLiteError;
  bool created = false;
  int prepare = -2, execute = -2, infer_shape = -2;
  std::vector<mindspore::MSTensor> outputs;
  std::string log;
};

// The runtime's sequence: Infer (Build), GetCreator, create, Prepare, Kernel::InferShape (Resize),
// Execute (Predict). Stops at the first failure. `output_shapes`: shapes the model gave the outputs.
ms_result run_ms(const std::string& type, const rknnop::mindspore::attr_map& attrs, const std::vector<input>& inputs,
                 std::size_t output_count, const std::string& provider = "rknnop", const std::string& arch = "CPU",
                 const std::vector<std::vector<std::int64_t>>& output_shapes = {}) {
  log_capture logs;
  ms_result r;
  const node n = make_node(type, attrs);
  std::vector<mindspore::MSTensor> in, out;
  for (const input& i : inputs) in.push_back(make_tensor(i));
  for (std::size_t i = 0; i < output_count; ++i) {
    out.emplace_back();  // no shape, no dtype: Infer sets them
    if (i < output_shapes.size()) out.back().SetShape(output_shapes[i]);
  }
  r.outputs = out;  // MSTensor copies alias: these see what the kernel writes
  const auto interface = mindspore::registry::RegisterKernelInterface::GetKernelInterface(provider, n.primitive);
  EXPECT_TRUE(interface) << type;
  if (!interface) return r;
  r.infer = interface->Infer(&in, &out, n.primitive, nullptr);
  r.log = g_log;
  if (r.infer != mindspore::kSuccess) return r;
  mindspore::registry::KernelDesc desc{inputs.at(0).type, mindspore::schema::PrimitiveType_Custom, arch, provider};
  const auto creator = mindspore::registry::RegisterKernel::GetCreator(n.primitive, &desc);
  EXPECT_TRUE(creator) << type;
  if (!creator) return r;
  const auto kernel = creator(in, out, n.primitive, nullptr);
  r.created = kernel != nullptr;
  if (!kernel) return r;
  r.prepare = kernel->Prepare();
  if (r.prepare == 0) r.infer_shape = kernel->InferShape();
  if (r.prepare == 0 && r.infer_shape == 0) r.execute = kernel->Execute();
  r.log = g_log;
  return r;
}

bytes data_of(const mindspore::MSTensor& t) {
  const auto p = t.Data();
  if (!p) return {};
  const auto* b = static_cast<const std::uint8_t*>(p.get());
  return bytes(b, b + t.DataSize());
}

// The same op through the host OpenVX runtime: outputs as virtual tensors of the given dtypes.
struct vx_result {
  vx_status status = VX_FAILURE;
  std::vector<bytes> outputs;
  std::vector<std::vector<std::uint32_t>> dims;
  std::string log;
};
struct vx_input {
  vx_enum type;
  std::vector<std::uint32_t> dims;  // innermost first
  bytes data;
};
template <class Params>
vx_result run_vx(vx_kernel_description_t* d, const std::vector<vx_input>& inputs, const std::vector<vx_enum>& outputs,
                 Params&& params) {
  harness h(d);
  std::vector<vx_reference> refs;
  for (const vx_input& i : inputs) refs.push_back(ref(h.tensor(i.dims, i.type, i.data)));
  std::vector<vx_tensor> outs;
  for (vx_enum t : outputs) {
    outs.push_back(h.virtual_tensor(t));
    refs.push_back(ref(outs.back()));
  }
  for (vx_reference p : params(h)) refs.push_back(p);
  vx_result r;
  r.status = h.run(refs);
  r.log = h.last_log();
  for (vx_tensor t : outs) {
    r.outputs.push_back(harness::read<std::uint8_t>(t));
    r.dims.push_back(harness::dims(t));
  }
  return r;
}

std::vector<std::uint32_t> vx_dims(const std::vector<std::int64_t>& shape) {
  std::vector<std::uint32_t> d;
  for (auto it = shape.rbegin(); it != shape.rend(); ++it) d.push_back(std::uint32_t(*it));
  return d;
}
vx_enum vx_type_of(ms_type t) { return rknnop::detail::mindspore::from_ms_dtype(t); }

// Both paths on the same inputs: MindSpore's outputs must equal the OpenVX path's, byte for byte,
// with the same shapes (MindSpore's outermost first); or both refuse the call with the same line
// (the core's output check: a lossy conversion is refused on every backend's checking build).
template <class Params>
void expect_same_as_openvx(const std::string& type, const rknnop::mindspore::attr_map& attrs,
                           const std::vector<input>& inputs, std::vector<ms_type> output_types,
                           vx_kernel_description_t* d, Params&& params) {
  const ms_result m = run_ms(type, attrs, inputs, output_types.size());
  ASSERT_EQ(m.infer, mindspore::kSuccess) << m.log;
  ASSERT_TRUE(m.created) << m.log;
  ASSERT_EQ(m.prepare, 0) << m.log;
  ASSERT_EQ(m.infer_shape, 0) << m.log;
  std::vector<vx_input> vin;
  for (const input& i : inputs) vin.push_back({vx_type_of(i.type), vx_dims(i.shape), i.data});
  std::vector<vx_enum> vout;
  for (ms_type t : output_types) vout.push_back(vx_type_of(t));
  const vx_result v = run_vx(d, vin, vout, params);
  if (v.status != VX_SUCCESS || m.execute != 0) {  // refused: by both, with the same line
    EXPECT_NE(v.status, VX_SUCCESS) << m.log;
    EXPECT_NE(m.execute, 0) << v.log;
    EXPECT_FALSE(v.log.empty());
    EXPECT_EQ(m.log, v.log + "\n");
    return;
  }
  for (std::size_t k = 0; k < output_types.size(); ++k) {
    EXPECT_EQ(m.outputs[k].DataType(), output_types[k]) << type << " output " << k;
    EXPECT_EQ(vx_dims(m.outputs[k].Shape()), v.dims[k]) << type << " output " << k;
    EXPECT_EQ(data_of(m.outputs[k]), v.outputs[k]) << type << " output " << k;
    EXPECT_FALSE(v.outputs[k].empty());
  }
}

// Deterministic values in [lo, hi).
std::vector<float> ramp(std::size_t n, float lo, float hi) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = lo + (hi - lo) * float((i * 7919) % 1000) / 1000.f;
  return v;
}
bytes f16_bytes(const std::vector<float>& v) { return as_bytes(rknnop::test::to_half(v)); }

// --- registration ----------------------------------------------------------------------------

TEST(MindSporeRegistry, OneCreatorPerDtypeOfTheFirstInput) {
  const struct {
    const char* type;
    std::vector<ms_type> accepted;
  } ops[] = {
      {"Exp", {ms_type::kNumberTypeFloat32, ms_type::kNumberTypeFloat16}},
      {"ResizeArea", {ms_type::kNumberTypeFloat32, ms_type::kNumberTypeFloat16}},
      {"QuantizedMaxPool", {ms_type::kNumberTypeUInt8, ms_type::kNumberTypeFloat16, ms_type::kNumberTypeFloat32}},
      {"TruncateDiv",
       {ms_type::kNumberTypeFloat32, ms_type::kNumberTypeFloat16, ms_type::kNumberTypeInt32, ms_type::kNumberTypeInt16,
        ms_type::kNumberTypeInt8, ms_type::kNumberTypeUInt16, ms_type::kNumberTypeUInt8}},
  };
  const ms_type all[] = {ms_type::kNumberTypeBool,    ms_type::kNumberTypeInt8,   ms_type::kNumberTypeInt16,
                         ms_type::kNumberTypeInt32,   ms_type::kNumberTypeInt64,  ms_type::kNumberTypeUInt8,
                         ms_type::kNumberTypeUInt16,  ms_type::kNumberTypeUInt32, ms_type::kNumberTypeFloat16,
                         ms_type::kNumberTypeFloat32, ms_type::kNumberTypeFloat64};
  for (const auto& op : ops) {
    const node n = make_node(op.type, {});
    for (ms_type t : all) {
      mindspore::registry::KernelDesc desc{t, mindspore::schema::PrimitiveType_Custom, "CPU", "rknnop"};
      const bool expected = std::find(op.accepted.begin(), op.accepted.end(), t) != op.accepted.end();
      EXPECT_EQ(bool(mindspore::registry::RegisterKernel::GetCreator(n.primitive, &desc)), expected)
          << op.type << " dtype " << int(t);
    }
    EXPECT_TRUE(mindspore::registry::RegisterKernelInterface::GetKernelInterface("rknnop", n.primitive)) << op.type;
  }
}

TEST(MindSporeRegistry, ProviderAndArchAreOverridable) {
  const node n = make_node("Exp", {});
  mindspore::registry::KernelDesc desc{ms_type::kNumberTypeFloat32, mindspore::schema::PrimitiveType_Custom,
                                       "RKNNOP_TEST_ARCH", "rknnop_test_provider"};
  EXPECT_TRUE(mindspore::registry::RegisterKernel::GetCreator(n.primitive, &desc));
  mindspore::registry::KernelDesc wrong{ms_type::kNumberTypeFloat32, mindspore::schema::PrimitiveType_Custom, "CPU",
                                        "rknnop_test_provider"};
  EXPECT_FALSE(mindspore::registry::RegisterKernel::GetCreator(n.primitive, &wrong));
  const ms_result m = run_ms("Exp", rknnop::mindspore::encode_attrs<Exp>(),
                             {{ms_type::kNumberTypeFloat32, {2}, as_bytes(std::vector<float>{0.f, 1.f})}}, 1,
                             "rknnop_test_provider", "RKNNOP_TEST_ARCH");
  ASSERT_EQ(m.execute, 0) << m.log;
  EXPECT_EQ(data_of(m.outputs[0]), as_bytes(std::vector<float>{1.f, std::exp(1.f)}));
}

TEST(MindSporeRegistry, UnknownTypeHasNoCreator) {
  const node n = make_node("NotAnOp", {});
  mindspore::registry::KernelDesc desc{ms_type::kNumberTypeFloat32, mindspore::schema::PrimitiveType_Custom, "CPU",
                                       "rknnop"};
  EXPECT_FALSE(mindspore::registry::RegisterKernel::GetCreator(n.primitive, &desc));
}

// --- numbers: equal to the OpenVX path --------------------------------------------------------

TEST(MindSporeParity, ResizeAreaFloat32AndFloat16) {
  for (bool align : {false, true})
    for (bool half : {false, true}) {
      const std::vector<float> x = ramp(1 * 5 * 7 * 3, -4.f, 4.f);
      const ms_type t = half ? ms_type::kNumberTypeFloat16 : ms_type::kNumberTypeFloat32;
      const ResizeArea::params p{{3, 4}, align};
      SCOPED_TRACE(std::string(half ? "float16" : "float32") + (align ? " align_corners" : ""));
      expect_same_as_openvx("ResizeArea", rknnop::mindspore::encode_attrs<ResizeArea>(p),
                            {{t, {1, 5, 7, 3}, half ? f16_bytes(x) : as_bytes(x)}}, {t},
                            vx_kernel_ResizeArea_list.entries[0], [&](harness& h) {
                              vx_bool a = align ? vx_true_e : vx_false_e;
                              return std::vector<vx_reference>{ref(h.array({3, 4})), ref(h.scalar(VX_TYPE_BOOL, &a))};
                            });
    }
}

TEST(MindSporeParity, ExpFloat32AndFloat16) {
  for (bool half : {false, true}) {
    const std::vector<float> x = ramp(2 * 3 * 5, -10.f, 10.f);
    const ms_type t = half ? ms_type::kNumberTypeFloat16 : ms_type::kNumberTypeFloat32;
    SCOPED_TRACE(half ? "float16" : "float32");
    expect_same_as_openvx("Exp", rknnop::mindspore::encode_attrs<Exp>(),
                          {{t, {2, 3, 5}, half ? f16_bytes(x) : as_bytes(x)}}, {t}, vx_kernel_Exp_list.entries[0],
                          [](harness&) { return std::vector<vx_reference>{}; });
  }
  // exp(-10) is a float16 subnormal: in this (checking) build both refuse the float16 output alike
  // (above), and with RKNNOP_ALLOW_LOSSY=1 (rknnop-run --allow-lossy) both return the same bits.
  if constexpr (rknnop::detail::check_every_element) {
    const std::vector<float> x = ramp(2 * 3 * 5, -10.f, 10.f);
    const ms_type t = ms_type::kNumberTypeFloat16;
    const ms_result m = run_ms("Exp", rknnop::mindspore::encode_attrs<Exp>(), {{t, {2, 3, 5}, f16_bytes(x)}}, 1);
    EXPECT_NE(m.execute, 0);
    EXPECT_NE(m.log.find("(subnormal: bits lost)"), std::string::npos) << m.log;
    ::setenv("RKNNOP_ALLOW_LOSSY", "1", 1);
    expect_same_as_openvx("Exp", rknnop::mindspore::encode_attrs<Exp>(), {{t, {2, 3, 5}, f16_bytes(x)}}, {t},
                          vx_kernel_Exp_list.entries[0], [](harness&) { return std::vector<vx_reference>{}; });
    ::unsetenv("RKNNOP_ALLOW_LOSSY");
  }
}

TEST(MindSporeParity, TruncateDivFloat32Float16Int32Int8) {
  const std::vector<float> a = ramp(4 * 6, -50.f, 50.f), b = ramp(4 * 6, 1.f, 7.f);
  std::vector<std::int32_t> ai, bi;
  std::vector<std::int8_t> a8, b8;
  for (std::size_t i = 0; i < a.size(); ++i) {
    ai.push_back(std::int32_t(a[i] * 1000));
    bi.push_back(std::int32_t(b[i]) * (i % 2 ? -1 : 1));
    a8.push_back(std::int8_t(a[i] * 2));
    b8.push_back(std::int8_t(b[i]));
  }
  const auto attrs = rknnop::mindspore::encode_attrs<TruncateDiv>();
  const auto none = [](harness&) { return std::vector<vx_reference>{}; };
  const auto t32 = ms_type::kNumberTypeFloat32, t16 = ms_type::kNumberTypeFloat16;
  expect_same_as_openvx("TruncateDiv", attrs, {{t32, {4, 6}, as_bytes(a)}, {t32, {4, 6}, as_bytes(b)}}, {t32},
                        vx_kernel_TruncateDiv_list.entries[0], none);
  expect_same_as_openvx("TruncateDiv", attrs, {{t16, {4, 6}, f16_bytes(a)}, {t16, {4, 6}, f16_bytes(b)}}, {t16},
                        vx_kernel_TruncateDiv_list.entries[0], none);
  expect_same_as_openvx(
      "TruncateDiv", attrs,
      {{ms_type::kNumberTypeInt32, {4, 6}, as_bytes(ai)}, {ms_type::kNumberTypeInt32, {4, 6}, as_bytes(bi)}},
      {ms_type::kNumberTypeInt32}, vx_kernel_TruncateDiv_list.entries[0], none);
  expect_same_as_openvx(
      "TruncateDiv", attrs,
      {{ms_type::kNumberTypeInt8, {24}, as_bytes(a8)}, {ms_type::kNumberTypeInt8, {24}, as_bytes(b8)}},
      {ms_type::kNumberTypeInt8}, vx_kernel_TruncateDiv_list.entries[0], none);
}

TEST(MindSporeParity, QuantizedMaxPoolUint8Float16Float32ThreeOutputs) {
  const std::vector<float> x = ramp(1 * 6 * 5 * 2, 0.f, 255.f);
  std::vector<std::uint8_t> x8;
  std::vector<float> xr;
  for (float v : x) {
    x8.push_back(std::uint8_t(v));
    xr.push_back(float(std::uint8_t(v)));
  }
  for (std::int32_t padding : {0, 1}) {
    QuantizedMaxPool::params p{-1.5f, 2.5f, {1, 2, 3, 1}, {1, 2, 2, 1}, padding};
    const auto attrs = rknnop::mindspore::encode_attrs<QuantizedMaxPool>(p);
    const auto params = [&](harness& h) {
      return std::vector<vx_reference>{
          ref(h.scalar(VX_TYPE_FLOAT32, &p.min_input)), ref(h.scalar(VX_TYPE_FLOAT32, &p.max_input)),
          ref(h.array({p.ksize.begin(), p.ksize.end()})), ref(h.array({p.strides.begin(), p.strides.end()})),
          ref(h.scalar(VX_TYPE_INT32, &p.padding))};
    };
    const auto f32 = ms_type::kNumberTypeFloat32, f16 = ms_type::kNumberTypeFloat16, u8 = ms_type::kNumberTypeUInt8;
    SCOPED_TRACE(padding ? "SAME" : "VALID");
    expect_same_as_openvx("QuantizedMaxPool", attrs, {{u8, {1, 6, 5, 2}, as_bytes(x8)}}, {u8, f32, f32},
                          vx_kernel_QuantizedMaxPool_list.entries[0], params);
    expect_same_as_openvx("QuantizedMaxPool", attrs, {{f16, {1, 6, 5, 2}, f16_bytes(xr)}}, {f16, f16, f16},
                          vx_kernel_QuantizedMaxPool_list.entries[0], params);
    expect_same_as_openvx("QuantizedMaxPool", attrs, {{f32, {1, 6, 5, 2}, as_bytes(xr)}}, {f32, f32, f32},
                          vx_kernel_QuantizedMaxPool_list.entries[0], params);
  }
}

// --- Infer and Kernel::InferShape -------------------------------------------------------------

TEST(MindSporeInfer, SetsShapeDtypeAndFormat) {
  const ms_result m = run_ms(
      "QuantizedMaxPool", rknnop::mindspore::encode_attrs<QuantizedMaxPool>({0.f, 1.f, {1, 2, 2, 1}, {1, 2, 2, 1}, 0}),
      {{ms_type::kNumberTypeUInt8, {2, 4, 6, 3}, bytes(2 * 4 * 6 * 3, 9)}}, 3);
  ASSERT_EQ(m.infer, mindspore::kSuccess) << m.log;
  EXPECT_EQ(m.outputs[0].Shape(), (std::vector<std::int64_t>{2, 2, 3, 3}));
  EXPECT_EQ(m.outputs[0].DataType(), ms_type::kNumberTypeUInt8);
  EXPECT_EQ(m.outputs[0].format(), mindspore::NHWC);
  EXPECT_EQ(m.outputs[1].Shape(), (std::vector<std::int64_t>{1}));
  EXPECT_EQ(m.outputs[1].DataType(), ms_type::kNumberTypeFloat32);  // min_output does not accept uint8
}

TEST(MindSporeInfer, RankZeroInputIsOneElement) {
  const ms_result m = run_ms("Exp", rknnop::mindspore::encode_attrs<Exp>(),
                             {{ms_type::kNumberTypeFloat32, {}, as_bytes(std::vector<float>{2.f})}}, 1);
  ASSERT_EQ(m.execute, 0) << m.log;
  EXPECT_EQ(m.outputs[0].Shape(), (std::vector<std::int64_t>{1}));
  EXPECT_EQ(data_of(m.outputs[0]), as_bytes(std::vector<float>{std::exp(2.f)}));
}

// NHWC tensors whose batch 1 the model left out (the toolkit's own ResizeArea model has a [h, w, c]
// output): rank-3 inputs and outputs give the numbers of rank 4, and an output the model shaped
// keeps its rank, as the OpenVX path keeps an output tensor's own rank.
TEST(MindSporeInfer, NhwcTensorsWithoutTheirBatchAreBatchOne) {
  const auto attrs = rknnop::mindspore::encode_attrs<ResizeArea>({{3, 4}, false});
  const auto f32 = ms_type::kNumberTypeFloat32;
  const bytes x = as_bytes(ramp(5 * 7 * 3, -4.f, 4.f));
  const ms_result batch = run_ms("ResizeArea", attrs, {{f32, {1, 5, 7, 3}, x}}, 1);
  ASSERT_EQ(batch.execute, 0) << batch.log;
  ASSERT_EQ(batch.outputs[0].Shape(), (std::vector<std::int64_t>{1, 3, 4, 3}));
  const struct {
    std::vector<std::int64_t> in, out, want;
  } cases[] = {
      {{5, 7, 3}, {}, {1, 3, 4, 3}},         // an output the model left unshaped: the inferred rank
      {{5, 7, 3}, {3, 4, 3}, {3, 4, 3}},     // the toolkit model's ranks
      {{1, 5, 7, 3}, {3, 4, 3}, {3, 4, 3}},  // a rank-4 input, the same output
      {{5, 7, 3}, {1, 3, 4, 3}, {1, 3, 4, 3}},
      {{5, 7, 3}, {9, 9, 1}, {3, 4, 3}},  // an older shape (before a resize): new dims, same rank
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(::testing::PrintToString(c.in) + " -> " + ::testing::PrintToString(c.out));
    const ms_result m = run_ms("ResizeArea", attrs, {{f32, c.in, x}}, 1, "rknnop", "CPU", {c.out});
    ASSERT_EQ(m.execute, 0) << m.log;
    EXPECT_EQ(m.outputs[0].Shape(), c.want);
    EXPECT_EQ(data_of(m.outputs[0]), data_of(batch.outputs[0]));
    EXPECT_EQ(m.log, "");
  }
}

TEST(MindSporeInfer, UnknownInputShapeDefersAndExecuteShapesTheOutputs) {
  log_capture logs;
  const node n = make_node("Exp", rknnop::mindspore::encode_attrs<Exp>());
  const std::vector<float> x = {0.f, 1.f, 2.f, 3.f, 4.f, 5.f};
  std::vector<mindspore::MSTensor> in{make_tensor({ms_type::kNumberTypeFloat32, {2, 3}, as_bytes(x)})};
  std::vector<mindspore::MSTensor> out{mindspore::MSTensor("y", ms_type::kNumberTypeFloat32, {}, nullptr, 0)};
  in[0].SetShape({-1, 3});
  const auto interface = mindspore::registry::RegisterKernelInterface::GetKernelInterface("rknnop", n.primitive);
  ASSERT_TRUE(interface);
  EXPECT_EQ(interface->Infer(&in, &out, n.primitive, nullptr), mindspore::kLiteInferInvalid);
  EXPECT_EQ(g_log, "");
  mindspore::registry::KernelDesc desc{ms_type::kNumberTypeFloat32, mindspore::schema::PrimitiveType_Custom, "CPU",
                                       "rknnop"};
  const auto kernel =
      mindspore::registry::RegisterKernel::GetCreator(n.primitive, &desc)(in, out, n.primitive, nullptr);
  ASSERT_TRUE(kernel);
  ASSERT_EQ(kernel->Prepare(), 0) << g_log;
  EXPECT_NE(kernel->InferShape(), 0);  // still deferred: Kernel::InferShape reports RET_INFER_INVALID
  EXPECT_EQ(out[0].Shape(), (std::vector<std::int64_t>{-1}));
  in[0].SetShape({2, 3});  // the shape arrives at run time
  ASSERT_EQ(kernel->Execute(), 0) << g_log;
  EXPECT_EQ(out[0].Shape(), (std::vector<std::int64_t>{2, 3}));
  std::vector<float> want;
  for (float v : x) want.push_back(std::exp(v));
  EXPECT_EQ(data_of(out[0]), as_bytes(want));
}

TEST(MindSporeInfer, ResizeThroughKernelInferShape) {
  log_capture logs;
  const node n = make_node("ResizeArea", rknnop::mindspore::encode_attrs<ResizeArea>({{2, 2}, false}));
  std::vector<mindspore::MSTensor> in{
      make_tensor({ms_type::kNumberTypeFloat32, {1, 4, 4, 1}, as_bytes(ramp(16, 0.f, 1.f))})};
  std::vector<mindspore::MSTensor> out{mindspore::MSTensor()};
  mindspore::registry::KernelDesc desc{ms_type::kNumberTypeFloat32, mindspore::schema::PrimitiveType_Custom, "CPU",
                                       "rknnop"};
  const auto kernel =
      mindspore::registry::RegisterKernel::GetCreator(n.primitive, &desc)(in, out, n.primitive, nullptr);
  ASSERT_TRUE(kernel);
  ASSERT_EQ(kernel->Prepare(), 0) << g_log;
  ASSERT_EQ(kernel->InferShape(), 0) << g_log;
  EXPECT_EQ(out[0].Shape(), (std::vector<std::int64_t>{1, 2, 2, 1}));
  ASSERT_EQ(kernel->ReSize(), 0) << g_log;
  ASSERT_EQ(kernel->Execute(), 0) << g_log;
  // Model::Resize: a bigger input, InferShape, ReSize, Execute again.
  const std::vector<float> big = ramp(1 * 8 * 6 * 1, 0.f, 1.f);
  mindspore::MSTensor resized = make_tensor({ms_type::kNumberTypeFloat32, {1, 8, 6, 1}, as_bytes(big)});
  kernel->set_input(resized, 0);
  ASSERT_EQ(kernel->InferShape(), 0) << g_log;
  EXPECT_EQ(kernel->outputs()[0].Shape(), (std::vector<std::int64_t>{1, 2, 2, 1}));
  ASSERT_EQ(kernel->ReSize(), 0) << g_log;
  ASSERT_EQ(kernel->Execute(), 0) << g_log;
  EXPECT_EQ(g_log, "");
}

// --- diagnostics: one line each, through rknnop's log sink ----------------------------------

struct diagnostic_case {
  const char* what;
  void (*edit)(rknnop::mindspore::attr_map&);
  const char* line;
};

TEST(MindSporeDiagnostics, EveryAttrErrorInInferAndPrepare) {
  const diagnostic_case cases[] = {
      {"missing size", [](auto& a) { a.erase("size"); },
       "rknnop: ResizeArea: param 'size': the node has no attribute 'size' and the param has no default (give the "
       "node the attribute, or the field a default member initializer)\n"},
      {"missing align_corners", [](auto& a) { a.erase("align_corners"); },
       "rknnop: ResizeArea: param 'align_corners': the node has no attribute 'align_corners' and the param has no "
       "default (give the node the attribute, or the field a default member initializer)\n"},
      {"bool as 4 bytes",
       [](auto& a) {
         a["align_corners"] = {0, 0, 0, 0};
       },
       "rknnop: ResizeArea: param 'align_corners': attr 'align_corners' has 4 bytes, expected 1 (a little-endian "
       "bool)\n"},
      {"size with 3 items", [](auto& a) { a["size"].resize(12); },
       "rknnop: ResizeArea: param 'size': expected exactly 2 items, got 3\n"},
      {"size of 6 bytes", [](auto& a) { a["size"].resize(6); },
       "rknnop: ResizeArea: param 'size': attr 'size' has 6 bytes, not a whole number of 4-byte int32 items\n"},
      {"size as ASCII",
       [](auto& a) {
         a["size"] = {'3', ',', '4'};
       },
       "rknnop: ResizeArea: param 'size': attr 'size' has 3 bytes, not a whole number of 4-byte int32 items\n"},
      {"no schema", [](auto& a) { a.erase("rknnop:schema"); },
       "rknnop: ResizeArea: the Custom node has no attr 'rknnop:schema' (write the node's attrs with "
       "rknnop::mindspore::encode_attrs)\n"},
  };
  const std::vector<input> in = {{ms_type::kNumberTypeFloat32, {1, 2, 2, 1}, as_bytes(std::vector<float>(4, 1.f))}};
  for (const diagnostic_case& c : cases) {
    auto attrs = rknnop::mindspore::encode_attrs<ResizeArea>({{3, 4}, false});
    c.edit(attrs);
    const ms_result m = run_ms("ResizeArea", attrs, in, 1);
    EXPECT_EQ(m.infer, mindspore::kLiteError) << c.what;
    EXPECT_EQ(m.log, c.line) << c.what;
    // The kernel refuses the same node in Prepare (the runtime may create it without Infer's verdict).
    log_capture logs;
    const node n = make_node("ResizeArea", attrs);
    std::vector<mindspore::MSTensor> tin{make_tensor(in[0])},
        tout{mindspore::MSTensor("y", ms_type::kNumberTypeFloat32, {}, nullptr, 0)};
    mindspore::registry::KernelDesc desc{ms_type::kNumberTypeFloat32, mindspore::schema::PrimitiveType_Custom, "CPU",
                                         "rknnop"};
    const auto kernel =
        mindspore::registry::RegisterKernel::GetCreator(n.primitive, &desc)(tin, tout, n.primitive, nullptr);
    ASSERT_TRUE(kernel);
    EXPECT_EQ(kernel->Prepare(), -1) << c.what;
    EXPECT_EQ(kernel->Execute(), -1) << c.what;
    EXPECT_EQ(g_log, std::string(c.line) + "rknnop: ResizeArea: Execute before a successful Prepare\n") << c.what;
  }
}

TEST(MindSporeDiagnostics, StaleModel) {
  auto attrs = rknnop::mindspore::encode_attrs<ResizeArea>({{3, 4}, false});
  attrs["rknnop:schema"][0] ^= 1;
  const ms_result m = run_ms("ResizeArea", attrs, {{ms_type::kNumberTypeFloat32, {1, 2, 2, 1}, bytes(16)}}, 1);
  EXPECT_EQ(m.infer, mindspore::kLiteError);
  EXPECT_EQ(
      m.log.rfind("rknnop: ResizeArea: the model's attrs were written for a different op struct (model schema ", 0), 0u)
      << m.log;
}

TEST(MindSporeDiagnostics, LayoutRankDtypeAndInferFailures) {
  const auto attrs = rknnop::mindspore::encode_attrs<ResizeArea>({{3, 4}, false});
  const auto f32 = ms_type::kNumberTypeFloat32;
  ms_result m = run_ms("ResizeArea", attrs, {{f32, {1, 1, 2, 2}, bytes(16), mindspore::NC4HW4}}, 1);
  EXPECT_EQ(m.infer, mindspore::kLiteError);
  EXPECT_EQ(m.log.rfind("rknnop: ResizeArea: input 'images': the op declares NHWC, the tensor's format is another "
                        "format (",
                        0),
            0u)
      << m.log;
  m = run_ms("ResizeArea", attrs, {{f32, {1, 1, 2, 2, 1}, bytes(16)}}, 1);
  EXPECT_EQ(m.infer, mindspore::kLiteError);
  EXPECT_EQ(m.log,
            "rknnop: ResizeArea: input 'images': expected rank 4 (NHWC; a lower rank is taken as batch 1), "
            "got rank 5 with dims [1,2,2,1,1]\n");
  // A rank-3 output is batch 1: batch 2 does not fit it (in Infer, and in Execute without Infer).
  m = run_ms("ResizeArea", attrs, {{f32, {2, 2, 2, 1}, bytes(32)}}, 1, "rknnop", "CPU", {{3, 4, 1}});
  EXPECT_EQ(m.infer, mindspore::kLiteError);
  EXPECT_EQ(m.log,
            "rknnop: ResizeArea: output 'output': shape inference gives NumPy shape (2, 3, 4, 1), the output "
            "tensor has (3, 4, 1) (dims innermost first [1,4,3,2] and [1,4,3])\n");
  {
    log_capture logs;
    const node n = make_node("ResizeArea", attrs);
    std::vector<mindspore::MSTensor> in{make_tensor({f32, {2, 2, 2, 1}, bytes(32)})}, out{mindspore::MSTensor()};
    out[0].SetShape({3, 4, 1});
    out[0].SetDataType(f32);
    mindspore::registry::KernelDesc desc{f32, mindspore::schema::PrimitiveType_Custom, "CPU", "rknnop"};
    const auto creator = mindspore::registry::RegisterKernel::GetCreator(n.primitive, &desc);
    const auto kernel = creator(in, out, n.primitive, nullptr);
    ASSERT_TRUE(kernel);
    ASSERT_EQ(kernel->Prepare(), 0) << g_log;
    EXPECT_EQ(kernel->Execute(), -1);
    EXPECT_EQ(g_log,
              "rknnop: ResizeArea: output 'output': shape inference gives NumPy shape (2, 3, 4, 1), the output "
              "tensor has (3, 4, 1) (dims innermost first [1,4,3,2] and [1,4,3])\n");
  }
  m = run_ms("ResizeArea", attrs, {{ms_type::kNumberTypeInt32, {1, 2, 2, 1}, bytes(16)}}, 1);
  EXPECT_EQ(
      m.log,
      "rknnop: ResizeArea: input 'images': expected dtype VX_TYPE_FLOAT32 or VX_TYPE_FLOAT16, got VX_TYPE_INT32\n");
  m = run_ms("ResizeArea", attrs, {{ms_type::kNumberTypeFloat64, {1, 2, 2, 1}, bytes(32)}}, 1);
  EXPECT_EQ(m.log.rfind("rknnop: ResizeArea: input 'images': MindSpore dtype 44 has no rknnop element type", 0), 0u)
      << m.log;
  m = run_ms("ResizeArea", rknnop::mindspore::encode_attrs<ResizeArea>({{0, 4}, false}),
             {{f32, {1, 2, 2, 1}, bytes(16)}}, 1);
  EXPECT_EQ(m.log, "rknnop: ResizeArea: shape inference (infer) failed: size must be > 0, got [0, 4]\n");
  m = run_ms("TruncateDiv", rknnop::mindspore::encode_attrs<TruncateDiv>(), {{f32, {2}, bytes(8)}}, 1);
  EXPECT_EQ(m.log, "rknnop: TruncateDiv: expected 2 input tensors, got 1\n");
  m = run_ms("ResizeArea", attrs, {{f32, {1, 0, 2, 1}, bytes()}}, 1);
  EXPECT_EQ(m.log, "rknnop: ResizeArea: input 'images': a dim is 0 (shape [1,0,2,1])\n");
}

TEST(MindSporeDiagnostics, ExecuteChecksTheOutputShapeAndDtype) {
  log_capture logs;
  const node n = make_node("Exp", rknnop::mindspore::encode_attrs<Exp>());
  std::vector<mindspore::MSTensor> in{make_tensor({ms_type::kNumberTypeFloat32, {3}, bytes(12)})};
  std::vector<mindspore::MSTensor> out{mindspore::MSTensor()};
  out[0].SetShape({4});
  out[0].SetDataType(ms_type::kNumberTypeFloat32);
  mindspore::registry::KernelDesc desc{ms_type::kNumberTypeFloat32, mindspore::schema::PrimitiveType_Custom, "CPU",
                                       "rknnop"};
  const auto kernel =
      mindspore::registry::RegisterKernel::GetCreator(n.primitive, &desc)(in, out, n.primitive, nullptr);
  ASSERT_EQ(kernel->Prepare(), 0);
  EXPECT_EQ(kernel->Execute(), -1);
  EXPECT_EQ(g_log,
            "rknnop: Exp: output 'y': shape inference gives NumPy shape (3,), the output tensor has (4,) (dims "
            "innermost first [3] and [4])\n");
  g_log.clear();
  out[0].SetShape({3});
  out[0].SetDataType(ms_type::kNumberTypeInt32);
  EXPECT_EQ(kernel->Execute(), -1);
  EXPECT_EQ(g_log, "rknnop: Exp: output 'y': expected dtype VX_TYPE_FLOAT32 or VX_TYPE_FLOAT16, got VX_TYPE_INT32\n");
}

TEST(MindSporeDiagnostics, NullOutputTensor) {
  log_capture logs;
  const node n = make_node("Exp", rknnop::mindspore::encode_attrs<Exp>());
  std::vector<mindspore::MSTensor> in{make_tensor({ms_type::kNumberTypeFloat32, {3}, bytes(12)})};
  std::vector<mindspore::MSTensor> out{mindspore::MSTensor(nullptr)};
  const auto interface = mindspore::registry::RegisterKernelInterface::GetKernelInterface("rknnop", n.primitive);
  ASSERT_TRUE(interface);
  EXPECT_EQ(interface->Infer(&in, &out, n.primitive, nullptr), mindspore::kLiteError);
  EXPECT_EQ(g_log, "rknnop: Exp: output 'y': the MSTensor is null\n");
  g_log.clear();
  mindspore::registry::KernelDesc desc{ms_type::kNumberTypeFloat32, mindspore::schema::PrimitiveType_Custom, "CPU",
                                       "rknnop"};
  const auto kernel =
      mindspore::registry::RegisterKernel::GetCreator(n.primitive, &desc)(in, out, n.primitive, nullptr);
  ASSERT_EQ(kernel->Prepare(), 0);
  EXPECT_EQ(kernel->Execute(), -1);
  EXPECT_EQ(g_log, "rknnop: Exp: output 'y': the MSTensor is null\n");
}

TEST(MindSporeDiagnostics, WrongCustomTypeIsRefused) {
  log_capture logs;
  const node n = make_node("ResizeArea", rknnop::mindspore::encode_attrs<Exp>());
  std::vector<mindspore::MSTensor> in{make_tensor({ms_type::kNumberTypeFloat32, {3}, bytes(12)})},
      out{mindspore::MSTensor()};
  // The Exp kernel handed a ResizeArea node (only possible by calling its creator directly).
  const node exp_node = make_node("Exp", {});
  mindspore::registry::KernelDesc desc{ms_type::kNumberTypeFloat32, mindspore::schema::PrimitiveType_Custom, "CPU",
                                       "rknnop"};
  const auto kernel =
      mindspore::registry::RegisterKernel::GetCreator(exp_node.primitive, &desc)(in, out, n.primitive, nullptr);
  ASSERT_TRUE(kernel);
  EXPECT_EQ(kernel->Prepare(), -1);
  EXPECT_EQ(g_log, "rknnop: Exp: the Custom node's type is 'ResizeArea', this kernel is 'Exp'\n");
}

}  // namespace

using rknnop::test::Int8Infer;  // registered by ms_ops.cpp
using rknnop::test::ZeroDimInfer;

namespace {
// The core's one `infer` check (detail/invoke/pipeline.hpp) in Infer and in Execute: the same lines
// as RKNN v1's validator and RKNPU2 (tests/core/test_validator.cpp, tests/rknpu2/test_plugin.cpp).
TEST(MindSporeDiagnostics, AZeroDimAndAnInt8ForAFloatOutputAreRefused) {
  const auto f32 = ms_type::kNumberTypeFloat32;
  ms_result m = run_ms("ZeroDimInfer", rknnop::mindspore::encode_attrs<ZeroDimInfer>(), {{f32, {3}, bytes(12)}}, 1);
  EXPECT_EQ(m.infer, mindspore::kLiteError);
  EXPECT_EQ(m.log, std::string("rknnop: ZeroDimInfer: ") + rknnop::test::zero_dim_line + "\n");
  for (const ms_type out : {f32, ms_type::kNumberTypeFloat16}) {
    m = run_ms("Int8Infer", rknnop::mindspore::encode_attrs<Int8Infer>(), {{f32, {3}, bytes(12)}}, 1);
    EXPECT_EQ(m.infer, mindspore::kLiteError);
    EXPECT_EQ(m.log, std::string("rknnop: Int8Infer: ") + rknnop::test::int8_line + "\n");
    // Execute without Infer (an output the model shaped and typed) runs the same check.
    log_capture logs;
    const node n = make_node("Int8Infer", rknnop::mindspore::encode_attrs<Int8Infer>());
    std::vector<mindspore::MSTensor> in{make_tensor({f32, {3}, bytes(12)})}, outs{mindspore::MSTensor()};
    outs[0].SetShape({3});
    outs[0].SetDataType(out);
    mindspore::registry::KernelDesc desc{f32, mindspore::schema::PrimitiveType_Custom, "CPU", "rknnop"};
    const auto kernel =
        mindspore::registry::RegisterKernel::GetCreator(n.primitive, &desc)(in, outs, n.primitive, nullptr);
    ASSERT_TRUE(kernel);
    ASSERT_EQ(kernel->Prepare(), 0) << g_log;
    EXPECT_EQ(kernel->Execute(), -1);
    EXPECT_EQ(g_log, std::string("rknnop: Int8Infer: ") + rknnop::test::int8_line + "\n");
  }
}
}  // namespace

namespace {
// The core's layout rule (docs/architecture.md §1): an NCHW MSTensor for ResizeArea's NHWC input is
// converted, as RKNPU2 converts it; the kernel sees NHWC and the output equals the NHWC run's.
TEST(MindSporeLayout, NchwInputOfAnNhwcOpIsConverted) {
  const auto attrs = rknnop::mindspore::encode_attrs<ResizeArea>({{3, 4}, false});
  const auto f32 = ms_type::kNumberTypeFloat32;
  const std::size_t n = 1, h = 5, w = 7, c = 3;
  const std::vector<float> nhwc = ramp(n * h * w * c, -4.f, 4.f);
  std::vector<float> nchw(nhwc.size());
  for (std::size_t y = 0; y < h; ++y)
    for (std::size_t x = 0; x < w; ++x)
      for (std::size_t k = 0; k < c; ++k) nchw[(k * h + y) * w + x] = nhwc[(y * w + x) * c + k];
  const ms_result a = run_ms("ResizeArea", attrs, {{f32, {1, 5, 7, 3}, as_bytes(nhwc), mindspore::NHWC}}, 1);
  const ms_result b = run_ms("ResizeArea", attrs, {{f32, {1, 3, 5, 7}, as_bytes(nchw), mindspore::NCHW}}, 1);
  ASSERT_EQ(a.execute, 0) << a.log;
  ASSERT_EQ(b.execute, 0) << b.log;
  EXPECT_EQ(b.outputs[0].format(), mindspore::NHWC);
  EXPECT_EQ(b.outputs[0].Shape(), (std::vector<std::int64_t>{1, 3, 4, 3}));
  EXPECT_EQ(data_of(b.outputs[0]), data_of(a.outputs[0]));
}
}  // namespace

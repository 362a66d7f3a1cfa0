// SPDX-License-Identifier: MIT
// Issue 12 item 4(c): a one-node .ms model through MindSpore Lite's full CPU runtime
// (libmindspore-lite.so in RKNNOP_MINDSPORE_LITE_RUNTIME). The model, written here with the
// flatbuffers builder API from the schema headers flatc generates from the tree's .fbs files, is
// input tensor -> Custom node (type "ResizeArea", attrs from encode_attrs) -> output tensor.
// mindspore::Model builds it from the buffer, predicts, resizes and predicts again. The kernel comes
// from libresizearea_mslite.so, built by rknnop_add_mindspore_library from the unchanged example and
// linked with --no-undefined against that runtime; every output is compared byte for byte with the
// same op run through rknnop's host OpenVX runtime.
//
// The whole program is compiled as MindSpore Lite is (-D_GLIBCXX_USE_CXX11_ABI=0 -fno-rtti).
#include "resize_area/resize_area.cpp"  // OpenVX build of the op: the reference

#include "vx_harness.hpp"  // tests/core

#include <rknnop/mindspore_attrs.hpp>

#include "include/api/context.h"
#include "include/api/model.h"
#include "include/api/status.h"
#include "include/api/types.h"
#include "schema/model_generated.h"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace {

using bytes = std::vector<std::uint8_t>;
using ms_type = mindspore::DataType;
using rknnop::test::harness;
namespace schema = mindspore::schema;

constexpr int node_type_parameter = 1;  // MindSpore Lite's NodeType_Parameter: a variable tensor
constexpr int node_type_cnode = 2;      // NodeType_CNode: an op's output

template <class T>
bytes as_bytes(const std::vector<T>& v) {
  bytes b(v.size() * sizeof(T));
  if (!b.empty()) std::memcpy(b.data(), v.data(), b.size());
  return b;
}

// Deterministic values in [lo, hi).
std::vector<float> ramp(std::size_t n, float lo, float hi) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = lo + (hi - lo) * float((i * 7919) % 1000) / 1000.f;
  return v;
}

std::size_t element_count(const std::vector<std::int64_t>& shape) {
  std::size_t n = 1;
  for (auto d : shape) n *= std::size_t(d);
  return n;
}

bytes input_bytes(const std::vector<std::int64_t>& shape, bool half, float lo, float hi) {
  const auto x = ramp(element_count(shape), lo, hi);
  return half ? as_bytes(rknnop::test::to_half(x)) : as_bytes(x);
}

// The .ms file: one NHWC input, one Custom ResizeArea node, one output; `output` the shape a
// converter would have inferred.
bytes one_node_model(const rknnop::mindspore::attr_map& attrs, ms_type dtype, const std::vector<std::int32_t>& input,
                     const std::vector<std::int32_t>& output) {
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<flatbuffers::Offset<schema::Attribute>> items;
  for (const auto& [name, data] : attrs) items.push_back(schema::CreateAttributeDirect(fbb, name.c_str(), &data));
  const auto custom = schema::CreateCustomDirect(fbb, "ResizeArea", &items);
  const auto primitive = schema::CreatePrimitive(fbb, schema::PrimitiveType_Custom, custom.Union());
  const std::vector<std::uint32_t> in_index{0}, out_index{1}, node_index{0}, tensor_index{0, 1};
  const std::vector<flatbuffers::Offset<schema::CNode>> nodes{
      schema::CreateCNodeDirect(fbb, "resize_area", primitive, &in_index, &out_index)};
  const std::vector<flatbuffers::Offset<schema::Tensor>> tensors{
      schema::CreateTensorDirect(fbb, node_type_parameter, int(dtype), &input, schema::Format_NHWC, 0, 0, nullptr,
                                 nullptr, nullptr, "images"),
      schema::CreateTensorDirect(fbb, node_type_cnode, int(dtype), &output, schema::Format_NHWC, 0, 0, nullptr, nullptr,
                                 nullptr, "output")};
  const std::vector<flatbuffers::Offset<schema::SubGraph>> graphs{
      schema::CreateSubGraphDirect(fbb, "main", &in_index, &out_index, &node_index, &tensor_index)};
  // The version: no later than any 2.x runtime (a later one only warns).
  const auto graph = schema::CreateMetaGraphDirect(fbb, "rknnop_resize_area", "MindSpore Lite 2.0.0", 0, &in_index,
                                                   &out_index, 0, &nodes, &tensors, &graphs);
  schema::FinishMetaGraphBuffer(fbb, graph);
  return bytes(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
}

// A CPU context; provider/arch empty: MindSpore Lite looks the Custom type up in every provider.
std::shared_ptr<mindspore::Context> cpu_context(const std::string& provider = "", const std::string& arch = "") {
  auto context = std::make_shared<mindspore::Context>();
  context->SetThreadNum(1);
  auto cpu = std::make_shared<mindspore::CPUDeviceInfo>();
  if (!provider.empty()) {
    cpu->SetProvider(provider);
    cpu->SetProviderDevice(arch);
  }
  context->MutableDeviceInfo().push_back(cpu);
  return context;
}

struct prediction {
  mindspore::Status status;
  std::vector<std::int64_t> shape;
  ms_type dtype = ms_type::kTypeUnknown;
  bytes data;
};

// Fills the model's one input and predicts.
prediction predict(mindspore::Model& model, const bytes& input) {
  prediction p;
  auto inputs = model.GetInputs();
  if (inputs.size() != 1 || inputs[0].DataSize() != input.size()) {
    p.status = mindspore::Status(mindspore::kLiteError,
                                 "the model's input does not take " + std::to_string(input.size()) + " bytes");
    return p;
  }
  std::memcpy(inputs[0].MutableData(), input.data(), input.size());
  std::vector<mindspore::MSTensor> outputs;
  p.status = model.Predict(inputs, &outputs);
  if (p.status != mindspore::kSuccess || outputs.size() != 1) return p;
  p.shape = outputs[0].Shape();
  p.dtype = outputs[0].DataType();
  const auto* data = static_cast<const std::uint8_t*>(outputs[0].Data().get());
  if (data) p.data.assign(data, data + outputs[0].DataSize());
  return p;
}

// The same op and input through the host OpenVX runtime: the output bytes and NHWC shape.
struct reference {
  vx_status status = VX_FAILURE;
  std::vector<std::int64_t> shape;
  bytes data;
  std::string log;
};
reference run_openvx(const ResizeArea::params& p, const std::vector<std::int64_t>& shape, bool half,
                     const bytes& input) {
  const vx_enum type = half ? VX_TYPE_FLOAT16 : VX_TYPE_FLOAT32;
  harness h(vx_kernel_ResizeArea_list.entries[0]);
  std::vector<std::uint32_t> dims;  // innermost first
  for (auto it = shape.rbegin(); it != shape.rend(); ++it) dims.push_back(std::uint32_t(*it));
  vx_tensor out = h.virtual_tensor(type);
  vx_bool align = p.align_corners ? vx_true_e : vx_false_e;
  reference r;
  r.status = h.run({reinterpret_cast<vx_reference>(h.tensor(dims, type, input)), reinterpret_cast<vx_reference>(out),
                    reinterpret_cast<vx_reference>(h.array({p.size[0], p.size[1]})),
                    reinterpret_cast<vx_reference>(h.scalar(VX_TYPE_BOOL, &align))});
  r.log = h.last_log();
  r.data = harness::read<std::uint8_t>(out);
  const auto out_dims = harness::dims(out);
  for (auto it = out_dims.rbegin(); it != out_dims.rend(); ++it) r.shape.push_back(*it);
  return r;
}

void expect_same_as_openvx(const prediction& m, const ResizeArea::params& p, const std::vector<std::int64_t>& shape,
                           bool half, const bytes& input) {
  ASSERT_EQ(m.status, mindspore::kSuccess) << m.status.ToString();
  const reference v = run_openvx(p, shape, half, input);
  ASSERT_EQ(v.status, VX_SUCCESS) << v.log;
  EXPECT_EQ(m.dtype, half ? ms_type::kNumberTypeFloat16 : ms_type::kNumberTypeFloat32);
  EXPECT_EQ(m.shape, v.shape);
  EXPECT_EQ(m.shape, (std::vector<std::int64_t>{shape[0], p.size[0], p.size[1], shape[3]}));
  EXPECT_FALSE(v.data.empty());
  EXPECT_EQ(m.data, v.data);
}

// Build from the buffer, Predict, Resize to `resized`, Predict again; both results equal the OpenVX path's.
void build_predict_resize(ms_type dtype, const std::shared_ptr<mindspore::Context>& context) {
  const bool half = dtype == ms_type::kNumberTypeFloat16;
  for (bool align : {false, true}) {
    SCOPED_TRACE(align ? "align_corners" : "no align_corners");
    const ResizeArea::params p{{3, 4}, align};
    const std::vector<std::int64_t> first{1, 5, 7, 3}, resized{1, 9, 6, 2};
    const bytes model_file =
        one_node_model(rknnop::mindspore::encode_attrs<ResizeArea>(p), dtype, {1, 5, 7, 3}, {1, 3, 4, 3});
    mindspore::Model model;
    const auto built = model.Build(model_file.data(), model_file.size(), mindspore::kMindIR_Lite, context);
    ASSERT_EQ(built, mindspore::kSuccess) << built.ToString();
    const bytes x = input_bytes(first, half, -4.f, 4.f);
    expect_same_as_openvx(predict(model, x), p, first, half, x);

    const auto resize = model.Resize(model.GetInputs(), {resized});
    ASSERT_EQ(resize, mindspore::kSuccess) << resize.ToString();
    const bytes y = input_bytes(resized, half, -9.f, 3.f);
    expect_same_as_openvx(predict(model, y), p, resized, half, y);
  }
}

TEST(MindSporeFullRuntime, Float32BuildPredictResizePredict) {
  build_predict_resize(ms_type::kNumberTypeFloat32, cpu_context("rknnop", "CPU"));  // libresizearea_mslite.so
}

// rknnop registers under arch "CPU". MindSpore Lite schedules a float16 kernel of arch "CPU" into its
// FP16 CPU subgraph, which only FP16 builds (ARM) have: on this x86 runtime, Build fails there. A
// kernel registered under any other arch string runs in the custom-kernel subgraph: float16 runs
// end to end that way (full_runtime_ops.cpp registers ResizeArea under "rknnop_custom_arch"/"RKNNOP").
TEST(MindSporeFullRuntime, Float16UnderACustomArch) {
  build_predict_resize(ms_type::kNumberTypeFloat16, cpu_context("rknnop_custom_arch", "RKNNOP"));
}

TEST(MindSporeFullRuntime, Float16UnderArchCpu) {
  const ResizeArea::params p{{3, 4}, false};
  const bytes model_file = one_node_model(rknnop::mindspore::encode_attrs<ResizeArea>(p), ms_type::kNumberTypeFloat16,
                                          {1, 5, 7, 3}, {1, 3, 4, 3});
  mindspore::Model model;
  const auto built =
      model.Build(model_file.data(), model_file.size(), mindspore::kMindIR_Lite, cpu_context("rknnop", "CPU"));
  if (built != mindspore::kSuccess) {
    // An x86 runtime without FP16 (MSLITE_ENABLE_FP16=off): the limitation docs/limitations.md §1 states.
    GTEST_SKIP() << "float16 under arch \"CPU\" does not build on this runtime (no FP16 CPU subgraph): "
                 << built.ToString();
  }
  const std::vector<std::int64_t> shape{1, 5, 7, 3};
  const bytes x = input_bytes(shape, true, -4.f, 4.f);
  expect_same_as_openvx(predict(model, x), p, shape, true, x);
}

// A model whose Custom node's attrs are stale or incomplete: Build fails (the runtime runs Infer),
// and the kernel library's one-line diagnostic is on its log sink (the default: stderr).
TEST(MindSporeFullRuntime, StaleOrMissingAttrsFailBuildWithTheDiagnostic) {
  const struct {
    const char* what;
    void (*edit)(rknnop::mindspore::attr_map&);
    const char* line;
  } cases[] = {
      {"stale fingerprint", [](auto& a) { a["rknnop:schema"][0] ^= 1; },
       "rknnop: ResizeArea: the model's attrs were written for a different op struct (model schema "},
      {"no fingerprint", [](auto& a) { a.erase("rknnop:schema"); },
       "rknnop: ResizeArea: the Custom node has no attr 'rknnop:schema' (write the node's attrs with "
       "rknnop::mindspore::encode_attrs)\n"},
      {"no size", [](auto& a) { a.erase("size"); },
       "rknnop: ResizeArea: param 'size': the node has no attribute 'size' and the param has no default (give the "
       "node the attribute, or the field a default member initializer)\n"},
  };
  for (const auto& c : cases) {
    auto attrs = rknnop::mindspore::encode_attrs<ResizeArea>({{3, 4}, false});
    c.edit(attrs);
    const bytes model_file = one_node_model(attrs, ms_type::kNumberTypeFloat32, {1, 5, 7, 3}, {1, 3, 4, 3});
    mindspore::Model model;
    testing::internal::CaptureStderr();
    const auto built = model.Build(model_file.data(), model_file.size(), mindspore::kMindIR_Lite, cpu_context());
    const std::string log = testing::internal::GetCapturedStderr();
    EXPECT_NE(built, mindspore::kSuccess) << c.what;
    EXPECT_NE(log.find(c.line), std::string::npos) << c.what << ": " << log;
    // A model that did not build does not predict.
    std::vector<mindspore::MSTensor> outputs;
    EXPECT_NE(model.Predict(model.GetInputs(), &outputs), mindspore::kSuccess) << c.what;
  }
}

}  // namespace

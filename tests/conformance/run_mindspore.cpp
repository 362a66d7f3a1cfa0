// SPDX-License-Identifier: MIT
// Conformance driver (e): MindSpore Lite's own registry, MSTensor and Kernel code (built from
// RKNNOP_MINDSPORE_LITE_ROOT, tests/mindspore) running the ops registered by mindspore_ops.cpp, in the
// runtime's order (tests/mindspore/test_mindspore_lite.cpp): the kernel interface's Infer, the creator,
// Prepare, Kernel::InferShape, Execute, on a Custom node whose attrs are rknnop::mindspore::encode_attrs'
// with the row's params written over them. Prints one result line per row (cases.hpp).
//
// Compiled as MindSpore Lite is (-D_GLIBCXX_USE_CXX11_ABI=0 -fno-rtti).
#include "dual_residual/dual_residual.cpp"
#include "exp/exp.cpp"
#include "leaky_relu/leaky_relu.cpp"
#include "mirror_pad/mirror_pad.cpp"
#include "quantized_max_pool/quantized_max_pool.cpp"
#include "resize_area/resize_area.cpp"
#include "truncate_div/truncate_div.cpp"

#include "cases.hpp"
#include "test_ops.hpp"

#include <rknnop/mindspore_attrs.hpp>

#include "include/api/kernel.h"
#include "include/api/types.h"
#include "include/kernel_interface.h"
#include "include/registry/register_kernel.h"
#include "include/registry/register_kernel_interface.h"
#include "schema/model_generated.h"

#include <map>
#include <memory>

namespace {

using namespace conformance;
using ms_type = mindspore::DataType;

const std::pair<element, ms_type> ms_types[] = {
    {element::float32, ms_type::kNumberTypeFloat32}, {element::float16, ms_type::kNumberTypeFloat16},
    {element::int32, ms_type::kNumberTypeInt32},     {element::int8, ms_type::kNumberTypeInt8},
    {element::uint8, ms_type::kNumberTypeUInt8},
};
ms_type ms_type_of(element e) {
  for (const auto& [el, ms] : ms_types)
    if (el == e) return ms;
  return ms_type::kTypeUnknown;
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

template <class T>
void append_le(std::vector<std::uint8_t>& out, T value) {
  std::uint8_t b[sizeof(T)];
  std::memcpy(b, &value, sizeof(T));
  out.insert(out.end(), b, b + sizeof(T));
}

template <class Op>
void run_row(const row& rw) {
  rknnop::mindspore::attr_map attrs = rknnop::mindspore::encode_attrs<Op>();
  for (const param_case& p : rw.params) {
    if (!p.given) {
      attrs.erase(p.name);
      continue;
    }
    std::vector<std::uint8_t> bytes;
    for (double v : p.values) {
      switch (p.kind) {
        case param_kind::f32: append_le(bytes, float(v)); break;
        case param_kind::i32:
        case param_kind::enumeration:
        case param_kind::i32_array: append_le(bytes, param_integer<std::int32_t>(v)); break;
        case param_kind::i8:
          // An attr holds the param's own type: a value int8 cannot hold cannot be written.
          if (v < -128 || v > 127) return print_na(rw, "mindspore-typed-attr");
          append_le(bytes, param_integer<std::int8_t>(v));
          break;
        case param_kind::boolean: append_le(bytes, param_integer<std::uint8_t>(v)); break;
      }
    }
    attrs[p.name] = bytes;
  }
  const node n = make_node(rw.op, attrs);
  std::vector<mindspore::MSTensor> in, out;
  for (const tensor_case& t : rw.inputs) {
    const std::vector<std::int64_t> shape(t.shape.begin(), t.shape.end());
    mindspore::MSTensor m("in", ms_type_of(t.type), shape, t.bytes.empty() ? nullptr : t.bytes.data(), t.bytes.size());
    m.SetShape(shape);  // MindSpore's deep-copy constructor gives an empty shape with data the shape {bytes}
    m.SetFormat(mindspore::NHWC);
    in.push_back(m);
  }
  // Without fixed shapes the outputs have no shape and no dtype: Infer sets them. Infer also sets a shape
  // the model gave, so a model's own output shape reaches the kernel only when the runtime creates the
  // kernel without Infer (tests/mindspore: "Execute after a deferred or external shape").
  for (const output_case& o : rw.outputs) {
    out.emplace_back();
    if (rw.fixed_output_shapes) {
      out.back().SetShape(std::vector<std::int64_t>(o.shape.begin(), o.shape.end()));
      out.back().SetDataType(ms_type_of(o.type));
    }
  }
  log_lines().clear();
  const auto refuse = [&](const char* step) {
    print_refused(rw, first_line_or(std::string("(no rknnop line) ") + step + " failed"));
  };
  const auto interface = mindspore::registry::RegisterKernelInterface::GetKernelInterface("rknnop", n.primitive);
  if (!interface) return refuse("GetKernelInterface");
  if (!rw.fixed_output_shapes && interface->Infer(&in, &out, n.primitive, nullptr) != mindspore::kSuccess)
    return refuse("Infer");
  mindspore::registry::KernelDesc desc{ms_type_of(rw.inputs.at(0).type), mindspore::schema::PrimitiveType_Custom, "CPU",
                                       "rknnop"};
  const auto creator = mindspore::registry::RegisterKernel::GetCreator(n.primitive, &desc);
  if (!creator) return refuse("GetCreator");
  const auto kernel = creator(in, out, n.primitive, nullptr);
  if (!kernel) return refuse("the creator");
  if (kernel->Prepare() != 0) return refuse("Prepare");
  if (!rw.fixed_output_shapes && kernel->InferShape() != 0) return refuse("InferShape");
  if (kernel->Execute() != 0) return refuse("Execute");
  digest dg;
  for (const mindspore::MSTensor& t : out) {
    element type = element::float32;
    bool known = false;
    for (const auto& [el, ms] : ms_types)
      if (ms == t.DataType()) type = el, known = true;
    if (!known)
      return print_refused(rw, "(no rknnop line) an output of MindSpore dtype " + std::to_string(int(t.DataType())));
    std::vector<std::uint32_t> shape;
    for (std::int64_t d : t.Shape()) shape.push_back(std::uint32_t(d));
    const auto data = t.Data();
    dg.add_output(type, shape, data.get(), data ? t.DataSize() : 0);
  }
  print_ok(rw, dg);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && !std::freopen(argv[1], "w", stdout)) return 2;  // the results file
  rknnop::set_log_sink(&capture_line);
  const std::map<std::string, void (*)(const row&)> ops = {
      {"DualResidual", &run_row<DualResidual>},
      {"Exp", &run_row<Exp>},
      {"LeakyRelu", &run_row<LeakyRelu>},
      {"MirrorPad", &run_row<MirrorPad>},
      {"QuantizedMaxPool", &run_row<QuantizedMaxPool>},
      {"ResizeArea", &run_row<ResizeArea>},
      {"TruncateDiv", &run_row<TruncateDiv>},
      {"ConfZeroDim", &run_row<ConfZeroDim>},
      {"ConfInt8Output", &run_row<ConfInt8Output>},
      {"ConfUnwritten", &run_row<ConfUnwritten>},
      {"ConfRanged", &run_row<ConfRanged>},
  };
  for (const row& rw : rows())
    if (!answered_without_running(rw)) ops.at(rw.op)(rw);
  return 0;
}

// SPDX-License-Identifier: MIT
// The lib<op>_mslite.so libraries rknnop_add_mindspore_library built from the unchanged example
// sources (linked with --no-undefined against MindSpore Lite's own registry/tensor/kernel code):
// loading them registers their ops, and a kernel created from the registry runs.
#include <rknnop/mindspore_attrs.hpp>

// struct Exp for encode_attrs<Exp> only: this program neither exports nor registers an op itself.
#include <rknnop/op.hpp>
#undef RKNNOP_EXPORT_OP
#define RKNNOP_EXPORT_OP(Name) static_assert(true, "")
#include "exp/exp.cpp"

#include "include/api/kernel.h"
#include "include/registry/register_kernel.h"
#include "include/registry/register_kernel_interface.h"
#include "schema/model_generated.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

namespace {

using ms_type = mindspore::DataType;

const mindspore::schema::Primitive* custom_node(flatbuffers::FlatBufferBuilder& fbb, const char* type,
                                                const rknnop::mindspore::attr_map& attrs) {
  std::vector<flatbuffers::Offset<mindspore::schema::Attribute>> items;
  for (const auto& [name, data] : attrs)
    items.push_back(mindspore::schema::CreateAttributeDirect(fbb, name.c_str(), &data));
  const auto custom = mindspore::schema::CreateCustomDirect(fbb, type, &items);
  fbb.Finish(mindspore::schema::CreatePrimitive(fbb, mindspore::schema::PrimitiveType_Custom, custom.Union()));
  return flatbuffers::GetRoot<mindspore::schema::Primitive>(fbb.GetBufferPointer());
}

TEST(MindSporeLibraries, EveryExampleLibraryRegisteredItsOp) {
  const struct {
    const char* type;
    ms_type first;
  } ops[] = {{"Exp", ms_type::kNumberTypeFloat16},
             {"ResizeArea", ms_type::kNumberTypeFloat32},
             {"TruncateDiv", ms_type::kNumberTypeInt8},
             {"QuantizedMaxPool", ms_type::kNumberTypeUInt8}};
  for (const auto& op : ops) {
    flatbuffers::FlatBufferBuilder fbb;
    const auto* node = custom_node(fbb, op.type, {});
    mindspore::registry::KernelDesc desc{op.first, mindspore::schema::PrimitiveType_Custom, "CPU", "rknnop"};
    EXPECT_TRUE(mindspore::registry::RegisterKernel::GetCreator(node, &desc)) << op.type;
    EXPECT_TRUE(mindspore::registry::RegisterKernelInterface::GetKernelInterface("rknnop", node)) << op.type;
  }
}

TEST(MindSporeLibraries, ExpRunsFromItsLibrary) {
  flatbuffers::FlatBufferBuilder fbb;
  const auto* node = custom_node(fbb, "Exp", rknnop::mindspore::encode_attrs<Exp>());
  const std::vector<float> x = {-1.f, 0.f, 0.5f, 3.f};
  std::vector<mindspore::MSTensor> in{mindspore::MSTensor("x", ms_type::kNumberTypeFloat32, {4}, x.data(), 16)};
  std::vector<mindspore::MSTensor> out{mindspore::MSTensor()};
  const auto interface = mindspore::registry::RegisterKernelInterface::GetKernelInterface("rknnop", node);
  ASSERT_TRUE(interface);
  ASSERT_EQ(interface->Infer(&in, &out, node, nullptr), mindspore::kSuccess);
  mindspore::registry::KernelDesc desc{ms_type::kNumberTypeFloat32, mindspore::schema::PrimitiveType_Custom, "CPU",
                                       "rknnop"};
  const auto kernel = mindspore::registry::RegisterKernel::GetCreator(node, &desc)(in, out, node, nullptr);
  ASSERT_TRUE(kernel);
  ASSERT_EQ(kernel->Prepare(), 0);
  ASSERT_EQ(kernel->Execute(), 0);
  ASSERT_EQ(out[0].DataSize(), 16u);
  const auto* y = static_cast<const float*>(out[0].Data().get());
  for (std::size_t i = 0; i < x.size(); ++i) EXPECT_EQ(y[i], std::exp(x[i])) << "x = " << x[i];
}

}  // namespace

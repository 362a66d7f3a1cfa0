// SPDX-License-Identifier: MIT
#include "op_yml_writer.hpp"

#include <rknnop/host/error.hpp>
#include <rknnop/vx_type.hpp>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <string_view>
#include <vector>

namespace rknnop_test {

std::string yaml_op_yml(const rknnop::host::op_yml& op) {
  using rknnop::host::op_yml_entry;
  YAML::Emitter out;
  out << YAML::BeginMap;
  out << YAML::Key << "name" << YAML::Value << op.name;
  if (op.framework) out << YAML::Key << "framework" << YAML::Value << *op.framework;
  if (op.target_platform) out << YAML::Key << "target_platform" << YAML::Value << *op.target_platform;
  const auto entries = [&](std::string_view key, const std::vector<op_yml_entry>& list) {
    out << YAML::Key << std::string(key) << YAML::Value << YAML::BeginMap;
    for (const op_yml_entry& e : list) {
      out << YAML::Key << e.name << YAML::Value << YAML::BeginMap;
      out << YAML::Key << "type" << YAML::Value << std::string(rknnop::vx_type_name(e.type));
      out << YAML::EndMap;
    }
    out << YAML::EndMap;
  };
  entries("inputs", op.inputs);
  entries("outputs", op.outputs);
  if (!op.params.empty()) entries("params", op.params);
  if (op.op_version) out << YAML::Key << "op_version" << YAML::Value << *op.op_version;
  if (op.out_binary) out << YAML::Key << "out_binary" << YAML::Value << *op.out_binary;
  if (op.op_py_file) out << YAML::Key << "op_py_file" << YAML::Value << *op.op_py_file;
  if (op.vx_file) out << YAML::Key << "vx_file" << YAML::Value << *op.vx_file;
  if (op.kernel_index) out << YAML::Key << "kernel_index" << YAML::Value << *op.kernel_index;
  out << YAML::EndMap;
  if (!out.good())
    throw rknnop::host::error(fmt::format("cannot write op.yml for '{}': {}", op.name, out.GetLastError()));
  const std::string schema = op.schema_fingerprint ? "# rknnop-schema: " + *op.schema_fingerprint + "\n" : "";
  return schema + out.c_str() + "\n";
}

}  // namespace rknnop_test

// SPDX-License-Identifier: MIT
// Writing models: an op's blobs replaced in a model, a model built from sections, an op wrapped as a
// one-node model, and any model JSON re-emitted the way the toolkit writes it.
#include "rknnop/host/rknn_model.hpp"

#include "rknnop/host/error.hpp"
#include <rknnop/vx_type.hpp>

#include <algorithm>
#include <map>
#include <utility>

#include <fmt/format.h>

#include "rknn/rknn_json.hpp"

namespace rknnop::host {

using namespace rknn_json;

namespace {

// librknn_runtime reads op_lib_armhf_offset/_len only when the op description's "op_version" is
// above 1 (it defaults to 1: aarch64 0x50724, docs/board-emulation.md §8); without it the armhf
// runtimes write an empty library and crash. An op carrying an armhf library says version 2 at least.
void mark_armhf_op_version(json& op) {
  if (!op.contains(std::string(model_blob_key(model_blob_kind::lib_armhf)) + "_offset")) return;
  const auto it = op.find("op_version");
  if (it != op.end() && it->is_number_integer() && it->get<std::int64_t>() >= 2) return;
  op["op_version"] = 2;
}

// The names of an enum param's values beside its "type" (the model reader's `rknnop_enum`).
void name_enum_values(json& params, std::span<const op_yml_entry> named) {
  if (!params.is_object()) return;
  for (const op_yml_entry& e : named) {
    const auto it = params.find(e.name);
    if (e.enumerators.empty() || it == params.end() || !it->is_object()) continue;
    json names = json::object();
    for (const op_yml_enumerator& v : e.enumerators) names[v.name] = v.value;
    (*it)[std::string(model_enum_key)] = std::move(names);
  }
}

}  // namespace

model_file replace_op_blobs(const model& m, std::string_view op_name,
                            const std::vector<std::pair<model_blob_kind, std::vector<std::uint8_t>>>& blobs,
                            std::span<const op_yml_entry> named_params) {
  std::size_t target = m.ops.size();
  for (std::size_t i = 0; i < m.ops.size(); ++i)
    if (m.ops[i].name == op_name) target = i;
  if (target == m.ops.size()) throw error(fmt::format("{}: the model has no custom op '{}'", m.source, op_name));

  // Every blob in file order; gaps between them are kept as they are.
  struct region {
    std::size_t op;
    model_blob_kind kind;
    std::uint64_t offset, size;
  };
  std::vector<region> regions;
  for (std::size_t i = 0; i < m.ops.size(); ++i)
    for (const model_blob& b : m.ops[i].blobs) regions.push_back({i, b.kind, b.offset, b.size});
  std::stable_sort(regions.begin(), regions.end(),
                   [](const region& a, const region& b) { return a.offset < b.offset; });
  for (std::size_t i = 1; i < regions.size(); ++i)
    if (regions[i].offset < regions[i - 1].offset + regions[i - 1].size)
      throw error(
          fmt::format("{}: the {} of op '{}' overlaps the {} of op '{}'; rknnop rewrites only models whose "
                      "blobs do not share bytes",
                      m.source, model_blob_description(regions[i].kind), m.ops[regions[i].op].name,
                      model_blob_description(regions[i - 1].kind), m.ops[regions[i - 1].op].name));

  const auto replacement = [&](model_blob_kind kind) -> const std::vector<std::uint8_t>* {
    for (const auto& [k, bytes] : blobs)
      if (k == kind) return &bytes;
    return nullptr;
  };
  const auto& old = m.file.custom_op_data;
  std::vector<std::uint8_t> data;
  std::map<std::pair<std::size_t, model_blob_kind>, std::pair<std::uint64_t, std::uint64_t>> placed;
  std::uint64_t cursor = 0;
  for (const region& r : regions) {
    data.insert(data.end(), old.begin() + static_cast<std::ptrdiff_t>(cursor),
                old.begin() + static_cast<std::ptrdiff_t>(std::max(cursor, r.offset)));
    cursor = std::max(cursor, r.offset + r.size);
    const std::vector<std::uint8_t>* fresh = r.op == target ? replacement(r.kind) : nullptr;
    if (r.op == target && fresh == nullptr) {  // not in the new set: kept as it was
      placed[{r.op, r.kind}] = {data.size(), r.size};
      data.insert(data.end(), old.begin() + static_cast<std::ptrdiff_t>(r.offset),
                  old.begin() + static_cast<std::ptrdiff_t>(r.offset + r.size));
      continue;
    }
    if (fresh != nullptr) {
      if (fresh->empty()) continue;  // dropped
      placed[{r.op, r.kind}] = {data.size(), fresh->size()};
      data.insert(data.end(), fresh->begin(), fresh->end());
      continue;
    }
    placed[{r.op, r.kind}] = {data.size(), r.size};
    data.insert(data.end(), old.begin() + static_cast<std::ptrdiff_t>(r.offset),
                old.begin() + static_cast<std::ptrdiff_t>(r.offset + r.size));
  }
  data.insert(data.end(), old.begin() + static_cast<std::ptrdiff_t>(std::min<std::uint64_t>(cursor, old.size())),
              old.end());
  for (const auto& [kind, bytes] : blobs) {
    if (m.ops[target].find_blob(kind) != nullptr || bytes.empty()) continue;
    placed[{target, kind}] = {data.size(), bytes.size()};
    data.insert(data.end(), bytes.begin(), bytes.end());
  }

  json ops = parse_json(m.file.custom_op_config, m.source + ": custom_op_config section");
  for (std::size_t i = 0; i < m.ops.size(); ++i) {
    json& op = ops[i];
    for (const model_blob_kind kind : all_model_blob_kinds) {
      const std::string key(model_blob_key(kind));
      const auto it = placed.find({i, kind});
      if (it == placed.end()) {
        op.erase(key + "_offset");
        op.erase(key + "_len");
        continue;
      }
      op[key + "_offset"] = it->second.first;
      op[key + "_len"] = it->second.second;
    }
    mark_armhf_op_version(op);
    if (i == target && op.contains("params")) name_enum_values(op["params"], named_params);
  }
  model_file out = m.file;
  out.custom_op_config = python_json(ops);
  out.custom_op_data = std::move(data);
  return out;
}

model_file build_model_file(std::string graph_json, std::string_view ops_json, const std::vector<model_op_blobs>& blobs,
                            std::uint64_t version) {
  model_file file;
  file.version = version;
  file.config = std::move(graph_json);
  if (version < 2) {
    if (!ops_json.empty() || !blobs.empty()) throw error("a version-1 model has no custom-op sections");
    return file;
  }
  json ops = parse_json(ops_json, "model writer: op descriptions");
  if (!ops.is_array() || ops.size() != blobs.size())
    throw error(fmt::format("model writer: expected a JSON array of {} op descriptions", blobs.size()));
  for (std::size_t i = 0; i < blobs.size(); ++i) {
    for (const model_blob_kind kind : all_model_blob_kinds) {
      for (const auto& [k, bytes] : blobs[i].blobs) {
        if (k != kind) continue;
        const std::string key(model_blob_key(kind));
        ops[i][key + "_offset"] = file.custom_op_data.size();
        ops[i][key + "_len"] = bytes.size();
        file.custom_op_data.insert(file.custom_op_data.end(), bytes.begin(), bytes.end());
      }
    }
    mark_armhf_op_version(ops[i]);
  }
  file.custom_op_config = python_json(ops);
  return file;
}

model_file wrap_op_as_model(const op_yml& op,
                            const std::vector<std::pair<model_blob_kind, std::vector<std::uint8_t>>>& blobs,
                            const std::vector<std::vector<std::uint32_t>>& input_dims,
                            const std::vector<std::vector<std::uint32_t>>& output_dims,
                            const std::vector<decoded_param>& params) {
  if (input_dims.size() != op.inputs.size() || output_dims.size() != op.outputs.size())
    throw error(fmt::format("op '{}': {} input and {} output shape(s) given, the op has {} and {}", op.name,
                            input_dims.size(), output_dims.size(), op.inputs.size(), op.outputs.size()));
  const std::string lower_name = lower(op.name);
  // The op description, in toolkit 1.3.0's member order.
  json description = json::object();
  description["name"] = op.name;
  const auto entries = [](const std::vector<op_yml_entry>& list) {
    json map = json::object();
    for (const op_yml_entry& e : list) map[e.name] = json{{"type", std::string(vx_type_name(e.type))}};
    return map;
  };
  description["params"] = entries(op.params);
  name_enum_values(description["params"], op.params);
  description["inputs"] = entries(op.inputs);
  description["outputs"] = entries(op.outputs);
  description["kernel_index"] = op.kernel_index.value_or(0);
  // The node's params, as JSON values.
  json node_params = json::object();
  for (const op_yml_entry& e : op.params) {
    const auto it =
        std::find_if(params.begin(), params.end(), [&](const decoded_param& p) { return p.name == e.name; });
    if (it == params.end()) throw error(fmt::format("op '{}': no value for param '{}'", op.name, e.name));
    check_param_value(e, it->value);  // an enum holds one of its values, an array its item count
    if (it->value.is_array())
      node_params[e.name] = it->value.items;
    else if (it->value.type == vx_type::bool_)
      node_params[e.name] = it->value.to_string() == "true" ? 1 : 0;
    else if (vx_type_is_floating(e.type))
      node_params[e.name] = json::parse(it->value.to_string()).get<double>();  // 2.0, as Python writes a float
    else
      node_params[e.name] = json::parse(it->value.to_string());
  }
  // Tensors: outputs first, then inputs (the demo model's numbering), all float16 unquantized.
  json tensors = json::array();
  json connection = json::array();
  json graph_ports = json::array();
  const auto add_tensor = [&](const std::vector<std::uint32_t>& dims, std::string_view direction, std::size_t port) {
    const std::size_t id = tensors.size();
    json t = json::object();
    t["tensor_id"] = id;
    t["size"] = dims;
    t["dim_num"] = dims.size();
    t["dtype"] = json{{"qnt_type", "VSI_NN_QNT_TYPE_NONE"}, {"vx_type", "VSI_NN_TYPE_FLOAT16"}};
    tensors.push_back(std::move(t));
    json c = json::object();
    c["node_id"] = 0;
    c["left"] = direction;
    c["left_tensor_id"] = port;
    c["right_tensor"] = json{{"type", "norm_tensor"}, {"tensor_id", id}};
    connection.push_back(std::move(c));
    json g = json::object();
    g["left"] = direction;
    g["left_tensor_id"] = port;
    g["right"] = "norm_tensor";
    g["right_tensor_id"] = id;
    graph_ports.push_back(std::move(g));
  };
  for (std::size_t i = 0; i < output_dims.size(); ++i) add_tensor(output_dims[i], "output", i);
  for (std::size_t i = 0; i < input_dims.size(); ++i) add_tensor(input_dims[i], "input", i);
  json node = json::object();
  node["lid"] = lower_name + "_0";
  node["name"] = lower_name + "_0";
  node["op"] = upper(op.name);
  node["uid"] = 0;
  node["input_num"] = op.inputs.size();
  node["output_num"] = op.outputs.size();
  node["nn"] = json{{lower_name, node_params}};
  json graph = json::object();
  graph["name"] = op.name + "Model";
  graph["version"] = "1.3.0";
  graph["node_num"] = 1;
  graph["norm_tensor_num"] = tensors.size();
  graph["const_tensor_num"] = 0;
  graph["virtual_tensor_num"] = 0;
  // The toolkit's per-input normalisation, (x - mean) / scale: a mean of 0 per innermost channel and a
  // scale of 1 for each input, as its demo model has. librknn_runtime reads it when rknn_inputs_set
  // converts an input (pass_through 0): without `mean_value` it dereferences NULL there
  // (docs/board-emulation.md §8 item 4).
  json mean_value = json::array();
  json mean_value_chns = json::array();
  for (const std::vector<std::uint32_t>& dims : input_dims) {
    const std::uint32_t channels = dims.empty() ? 1 : dims.front();
    for (std::uint32_t c = 0; c < channels; ++c) mean_value.push_back(0);
    mean_value.push_back(1.0);
    mean_value_chns.push_back(channels + 1);
  }
  graph["mean_value"] = std::move(mean_value);
  graph["mean_value_chns"] = std::move(mean_value_chns);
  graph["input_num"] = op.inputs.size();
  graph["output_num"] = op.outputs.size();
  graph["nodes"] = json::array({node});
  graph["norm_tensor"] = tensors;
  graph["const_tensor"] = json::array();
  graph["virtual_tensor"] = json::array();
  graph["connection"] = connection;
  graph["graph"] = graph_ports;
  return build_model_file(python_json(graph), python_json(json::array({description})), {{blobs}});
}

std::string to_python_json(std::string_view json_text, std::string_view source) {
  return python_json(parse_json(json_text, std::string(source)));
}

}  // namespace rknnop::host

// SPDX-License-Identifier: MIT
// The model's meaning: its custom-op descriptions (custom_op_config) and its graph (config), read
// into rknnop::host::model, and a node's params decoded against its op.
#include "rknnop/host/rknn_model.hpp"

#include "rknnop/host/error.hpp"
#include <rknnop/board_abi.hpp>
#include <rknnop/vx_type.hpp>

#include <algorithm>
#include <limits>
#include <map>
#include <span>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include <fmt/format.h>

#include "rknn/rknn_json.hpp"

namespace rknnop::host {

using namespace rknn_json;

namespace {

// --- op descriptions -----------------------------------------------------------------------------

std::vector<op_yml_entry> parse_entries(const json& op, std::string_view key, const std::string& where, bool ports) {
  std::vector<op_yml_entry> entries;
  const json* map = member(op, key);
  if (map == nullptr) {
    if (key == "params") return entries;
    throw error(fmt::format("{}: no '{}' member", where, key));
  }
  if (!map->is_object()) throw error(fmt::format("{}: '{}' must be an object, found {}", where, key, found(*map)));
  for (const auto& [name, value] : map->items()) {
    const std::string at = fmt::format("{} {} '{}'", where, key, name);
    if (!is_identifier(name)) throw error(fmt::format("{}: the name is not an identifier", at));
    if (!value.is_object()) throw error(fmt::format("{}: expected {{\"type\": ...}}, found {}", at, found(value)));
    const json* type = member(value, "type");
    if (type == nullptr || !type->is_string()) throw error(fmt::format("{}: no 'type' string", at));
    const auto& type_name = type->get_ref<const std::string&>();
    const std::optional<std::int32_t> t = vx_type_from_name(type_name);
    if (!t) throw error(fmt::format("{}: type {} is not a VX type name", at, quote(type_name)));
    if (ports && *t != vx_type::tensor)
      throw error(fmt::format("{}: type {}, expected VX_TYPE_TENSOR", at, quote(type_name)));
    if (!ports && *t != vx_type::array && !is_param_scalar_type(*t))
      throw error(fmt::format("{}: type {} is neither VX_TYPE_ARRAY nor a scalar type the board runtime can create", at,
                              quote(type_name)));
    op_yml_entry entry{name, *t};
    if (const json* names = ports ? nullptr : member(value, model_enum_key)) {
      const std::string enum_at = fmt::format("{}: '{}'", at, model_enum_key);
      if (!names->is_object() || names->empty())
        throw error(fmt::format("{}: expected an object of value names, found {}", enum_at, found(*names)));
      if (*t != vx_type::int32)
        throw error(fmt::format("{}: names values of a {} param; only VX_TYPE_INT32 params are enums", enum_at,
                                vx_type_name(*t)));
      for (const auto& [value_name, number] : names->items()) {
        const bool int32 = number.is_number_unsigned()
                               ? number.get<std::uint64_t>() <= std::numeric_limits<std::int32_t>::max()
                               : number.is_number_integer() &&
                                     number.get<std::int64_t>() >= std::numeric_limits<std::int32_t>::min() &&
                                     number.get<std::int64_t>() <= std::numeric_limits<std::int32_t>::max();
        if (!is_identifier(value_name) || !int32)
          throw error(fmt::format("{}: {} = {} is not an identifier with an int32 value", enum_at, quote(value_name),
                                  found(number)));
        entry.enumerators.push_back({value_name, static_cast<std::int32_t>(number.get<std::int64_t>())});
      }
    }
    entries.push_back(std::move(entry));
  }
  return entries;
}

model_op parse_op(const json& j, std::size_t index, std::size_t data_size, const std::string& source) {
  const std::string where = fmt::format("{}: custom-op description {}", source, index);
  if (!j.is_object()) throw error(fmt::format("{}: expected an object, found {}", where, found(j)));
  model_op op;
  const json* name = member(j, "name");
  if (name == nullptr || !name->is_string()) throw error(fmt::format("{}: no 'name' string", where));
  op.name = name->get<std::string>();
  if (!is_identifier(op.name)) throw error(fmt::format("{}: name {} is not an identifier", where, quote(op.name)));
  const std::string at = fmt::format("{}: op '{}'", source, op.name);
  op.inputs = parse_entries(j, "inputs", at, true);
  op.outputs = parse_entries(j, "outputs", at, true);
  op.params = parse_entries(j, "params", at, false);
  if (const json* k = member(j, "kernel_index")) {
    const auto v = as_unsigned(*k);
    if (!v || *v > std::numeric_limits<std::uint32_t>::max())
      throw error(fmt::format("{}: kernel_index must be a whole number in [0, 2^32), found {}", at, found(*k)));
    op.kernel_index = static_cast<std::uint32_t>(*v);
  }
  for (const model_blob_kind kind : all_model_blob_kinds) {
    const std::string key(model_blob_key(kind));
    const json* offset = member(j, key + "_offset");
    const json* length = member(j, key + "_len");
    if (offset == nullptr && length == nullptr) continue;
    if (offset == nullptr || length == nullptr)
      throw error(fmt::format("{}: has {}_{} but no {}_{}", at, key, offset ? "offset" : "len", key,
                              offset ? "len" : "offset"));
    const auto o = as_unsigned(*offset);
    const auto n = as_unsigned(*length);
    if (!o) throw error(fmt::format("{}: {}_offset must be a whole number >= 0, found {}", at, key, found(*offset)));
    if (!n) throw error(fmt::format("{}: {}_len must be a whole number >= 0, found {}", at, key, found(*length)));
    if (*o > data_size || *n > data_size - *o)
      throw error(fmt::format("{}: {} at offset {} length {} runs past the end of the {}-byte custom_op_data section",
                              at, model_blob_description(kind), *o, *n, data_size));
    op.blobs.push_back({kind, *o, *n});
  }
  return op;
}

// --- graph ---------------------------------------------------------------------------------------

constexpr std::string_view tensor_arrays[] = {"norm_tensor", "const_tensor", "virtual_tensor"};

struct graph_index {
  const json* graph = nullptr;
  std::map<std::pair<std::string, std::int64_t>, const json*, std::less<>> tensors;
};

model_tensor parse_tensor(const json& t, std::string_view kind, std::int64_t id, const std::string& source) {
  const std::string where = fmt::format("{}: {} {}", source, kind, id);
  model_tensor tensor;
  tensor.kind = std::string(kind);
  tensor.id = id;
  const json* size = member(t, "size");
  if (size == nullptr || !size->is_array())
    throw error(fmt::format("{}: 'size' must be an array of dims, found {}", where,
                            size ? found(*size) : std::string("nothing")));
  if (size->size() > 8) throw error(fmt::format("{}: {} dims; OpenVX tensors have at most 6", where, size->size()));
  for (const json& d : *size) {
    const auto v = as_unsigned(d);
    if (!v || *v > std::numeric_limits<std::uint32_t>::max())
      throw error(fmt::format("{}: a dim must be a whole number in [0, 2^32), found {}", where, found(d)));
    tensor.dims.push_back(static_cast<std::uint32_t>(*v));
  }
  if (const json* dtype = member(t, "dtype")) {
    if (!dtype->is_object()) throw error(fmt::format("{}: 'dtype' must be an object, found {}", where, found(*dtype)));
    tensor.dtype_json = python_json(*dtype);
    for (const auto& [key, field] : {std::pair{"vx_type", &tensor.vx_type}, std::pair{"qnt_type", &tensor.qnt_type}}) {
      if (const json* v = member(*dtype, key)) {
        if (!v->is_string()) throw error(fmt::format("{}: dtype.{} must be a string, found {}", where, key, found(*v)));
        *field = v->get<std::string>();
      }
    }
  }
  return tensor;
}

model_port parse_port(const json& c, std::size_t index, const graph_index& g, const std::string& where,
                      std::size_t node_count, const std::string& source) {
  model_port port;
  const json* port_id = member(c, "left_tensor_id");
  const auto p = port_id ? as_unsigned(*port_id) : std::nullopt;
  if (!p || *p > 1024)
    throw error(fmt::format("{}: connection {}: left_tensor_id must be a port number in [0, 1024], found {}", where,
                            index, port_id ? found(*port_id) : std::string("nothing")));
  port.index = *p;
  const json* right_tensor = member(c, "right_tensor");
  const json* right_node = member(c, "right_node");
  if (right_tensor != nullptr) {
    if (!right_tensor->is_object())
      throw error(fmt::format("{}: connection {}: right_tensor must be an object", where, index));
    const json* type = member(*right_tensor, "type");
    const json* id = member(*right_tensor, "tensor_id");
    if (type == nullptr || !type->is_string())
      throw error(fmt::format("{}: connection {}: right_tensor has no 'type' string", where, index));
    const auto tid = id ? as_signed(*id) : std::nullopt;
    if (!tid)
      throw error(fmt::format("{}: connection {}: right_tensor.tensor_id must be an integer, found {}", where, index,
                              id ? found(*id) : std::string("nothing")));
    const auto& kind = type->get_ref<const std::string&>();
    const auto it = g.tensors.find(std::pair{kind, *tid});
    if (it == g.tensors.end())
      throw error(
          fmt::format("{}: port {} names {} {}, which the model does not have", where, port.index, quote(kind), *tid));
    port.tensor = parse_tensor(*it->second, kind, *tid, source);
  } else if (right_node != nullptr) {
    if (!right_node->is_object())
      throw error(fmt::format("{}: connection {}: right_node must be an object", where, index));
    const json* n = member(*right_node, "node_id");
    const json* t = member(*right_node, "tensor_id");
    const std::uint64_t nid = n != nullptr && as_unsigned(*n) ? *as_unsigned(*n) : node_count;
    if (nid >= node_count)
      throw error(fmt::format("{}: port {}: right_node.node_id must name one of the {} nodes, found {}", where,
                              port.index, node_count, n ? found(*n) : std::string("nothing")));
    if (t == nullptr || !as_unsigned(*t))
      throw error(fmt::format("{}: port {}: right_node.tensor_id must be a whole number, found {}", where, port.index,
                              t ? found(*t) : std::string("nothing")));
    const std::uint64_t tid = *as_unsigned(*t);
    port.from_node = static_cast<std::int64_t>(nid);
    port.from_port = static_cast<std::int64_t>(tid);
  } else {
    throw error(fmt::format("{}: connection {}: neither right_tensor nor right_node", where, index));
  }
  return port;
}

void sort_ports(std::vector<model_port>& ports, std::string_view direction, const std::string& where) {
  std::sort(ports.begin(), ports.end(), [](const model_port& a, const model_port& b) { return a.index < b.index; });
  for (std::size_t i = 0; i < ports.size(); ++i) {
    if (ports[i].index == i) continue;
    if (ports[i].index < i)
      throw error(fmt::format("{}: {} port {} is connected twice", where, direction, ports[i].index));
    throw error(fmt::format("{}: {} port {} is connected but port {} is not", where, direction, ports[i].index, i));
  }
}

// The graph's tensors by (array, tensor_id), each id once per array.
graph_index index_tensors(const json& g, const std::string& where) {
  graph_index index;
  for (const std::string_view kind : tensor_arrays) {
    const json* array = member(g, kind);
    if (array == nullptr) continue;
    if (!array->is_array()) throw error(fmt::format("{}: '{}' must be an array, found {}", where, kind, found(*array)));
    std::size_t position = 0;
    for (const json& t : *array) {
      const json* id = t.is_object() ? member(t, "tensor_id") : nullptr;
      const auto v = id ? as_signed(*id) : std::nullopt;
      if (!v) throw error(fmt::format("{}: {}[{}] has no integer tensor_id", where, kind, position));
      if (!index.tensors.emplace(std::pair{std::string(kind), *v}, &t).second)
        throw error(fmt::format("{}: {} tensor_id {} appears twice", where, kind, *v));
      ++position;
    }
  }
  return index;
}

// The counts beside the arrays may disagree with them (toolkit 1.3.2 writes virtual_tensor_num 1
// with an empty virtual_tensor array): the arrays win; the difference is noted.
void note_count_mismatches(model& m, const json& g) {
  for (const auto& [count_key, array_key] :
       {std::pair{"node_num", "nodes"}, std::pair{"norm_tensor_num", "norm_tensor"},
        std::pair{"const_tensor_num", "const_tensor"}, std::pair{"virtual_tensor_num", "virtual_tensor"}}) {
    const json* count = member(g, count_key);
    const json* array = member(g, array_key);
    const std::size_t actual = array && array->is_array() ? array->size() : 0;
    if (count != nullptr && (!as_unsigned(*count) || *as_unsigned(*count) != actual))
      m.notes.push_back(fmt::format("{} is {} but the {} array holds {}; rknnop uses the array", count_key,
                                    python_json(*count), array_key, actual));
  }
}

// Each node's op, name and lid, and which of the model's custom ops it runs.
void read_nodes(model& m, const json& nodes) {
  std::unordered_map<std::string, std::size_t> ops_by_node_op;  // a node's op is its custom op's name upper-cased
  for (std::size_t i = 0; i < m.ops.size(); ++i) ops_by_node_op.emplace(upper(m.ops[i].name), i);
  std::size_t position = 0;
  for (const json& n : nodes) {
    const std::string at = fmt::format("{}: node {}", m.source, position);
    if (!n.is_object()) throw error(fmt::format("{}: expected an object, found {}", at, found(n)));
    model_node node;
    node.index = position++;
    const json* op = member(n, "op");
    if (op == nullptr || !op->is_string()) throw error(fmt::format("{}: no 'op' string", at));
    node.op = op->get<std::string>();
    if (const json* v = member(n, "name"); v && v->is_string()) node.name = v->get<std::string>();
    if (const json* v = member(n, "lid"); v && v->is_string()) node.lid = v->get<std::string>();
    if (const auto it = ops_by_node_op.find(node.op); it != ops_by_node_op.end()) node.custom_op = it->second;
    m.nodes.push_back(std::move(node));
  }
}

// A custom-op node's params: its nn.<lower op name> object, as the model's JSON text of each value.
void read_node_params(model_node& node, const model_op& op, const json& n, const std::string& at) {
  const std::string params_key = lower(op.name);
  const json* nn = member(n, "nn");
  const json* params = nn && nn->is_object() ? member(*nn, params_key) : nullptr;
  if (nn != nullptr && !nn->is_object())
    throw error(fmt::format("{}: 'nn' must be an object, found {}", at, found(*nn)));
  if (params != nullptr) {
    if (!params->is_object())
      throw error(fmt::format("{}: nn.{} must be an object, found {}", at, params_key, found(*params)));
    for (const auto& [key, value] : params->items()) node.params.push_back({key, python_json(value)});
  } else if (!op.params.empty()) {
    throw error(
        fmt::format("{}: no nn.{} object, but op '{}' has {} param(s)", at, params_key, op.name, op.params.size()));
  }
}

// Connection entry `entry` (an object, else an error): its node_id member (null when absent) and
// that member's value when it is an unsigned integer.
std::pair<const json*, std::optional<std::uint64_t>> connection_node(const json& c, std::size_t entry,
                                                                     const std::string& where) {
  if (!c.is_object()) throw error(fmt::format("{}: connection {} is {}, expected an object", where, entry, found(c)));
  const json* id = member(c, "node_id");
  return {id, id ? as_unsigned(*id) : std::nullopt};
}

// A custom-op node's input and output ports from the connection entries naming it, in port order.
void read_node_ports(model_node& node, const model& m, const json& connection, std::span<const std::size_t> entries,
                     const graph_index& index, const std::string& at) {
  for (const std::size_t entry : entries) {
    const json& c = connection[entry];
    const json* left = member(c, "left");
    if (left == nullptr || !left->is_string())
      throw error(fmt::format("{}: connection {}: no 'left' string (\"input\" or \"output\")", at, entry));
    const auto& direction = left->get_ref<const std::string&>();
    if (direction != "input" && direction != "output")
      throw error(
          fmt::format("{}: connection {}: left is {}, expected \"input\" or \"output\"", at, entry, quote(direction)));
    model_port port = parse_port(c, entry, index, at, m.nodes.size(), m.source);
    (direction == "input" ? node.inputs : node.outputs).push_back(std::move(port));
  }
  sort_ports(node.inputs, "input", at);
  sort_ports(node.outputs, "output", at);
}

// The connection entries of each node, in file order: one pass, so that finding a node's ports does
// not read the whole list again for every node.
std::vector<std::vector<std::size_t>> connections_by_node(const model& m, const json& connection,
                                                          const std::string& where) {
  std::vector<std::vector<std::size_t>> by_node(m.nodes.size());
  for (std::size_t entry = 0; entry < connection.size(); ++entry) {
    const auto v = connection_node(connection[entry], entry, where).second;
    if (v && *v < m.nodes.size()) by_node[static_cast<std::size_t>(*v)].push_back(entry);
  }
  return by_node;
}

// Every connection entry, not only those of custom-op nodes, names one of the nodes.
void check_connections(const model& m, const json& connection, const std::string& where) {
  for (std::size_t entry = 0; entry < connection.size(); ++entry) {
    const auto [id, v] = connection_node(connection[entry], entry, where);
    if (!v || *v >= m.nodes.size())
      throw error(fmt::format("{}: connection {}: node_id must name one of the {} nodes, found {}", where, entry,
                              m.nodes.size(), id ? found(*id) : std::string("nothing")));
  }
}

void parse_graph(model& m, const json& g) {
  const std::string where = m.source + ": graph JSON";
  if (!g.is_object()) throw error(fmt::format("{}: expected an object, found {}", where, found(g)));
  if (const json* n = member(g, "name"); n && n->is_string()) m.name = n->get<std::string>();
  if (const json* v = member(g, "version"); v && v->is_string()) m.graph_version = v->get<std::string>();
  const json* nodes = member(g, "nodes");
  if (nodes == nullptr || !nodes->is_array())
    throw error(
        fmt::format("{}: 'nodes' must be an array, found {}", where, nodes ? found(*nodes) : std::string("nothing")));
  const graph_index index = index_tensors(g, where);
  note_count_mismatches(m, g);
  read_nodes(m, *nodes);

  const json* connection = member(g, "connection");
  if (connection != nullptr && !connection->is_array())
    throw error(fmt::format("{}: 'connection' must be an array, found {}", where, found(*connection)));
  std::vector<std::vector<std::size_t>> by_node;
  for (model_node& node : m.nodes) {
    if (!node.custom_op) continue;
    const model_op& op = m.ops[*node.custom_op];
    const std::string at = fmt::format("{}: node '{}' (op {})", m.source, node.name, node.op);
    read_node_params(node, op, (*nodes)[node.index], at);
    if (connection == nullptr) continue;
    if (by_node.empty()) by_node = connections_by_node(m, *connection, where);
    read_node_ports(node, m, *connection, by_node[node.index], index, at);
  }
  if (connection != nullptr) check_connections(m, *connection, where);
}

}  // namespace

const model_blob* model_op::find_blob(model_blob_kind kind) const noexcept {
  for (const model_blob& b : blobs)
    if (b.kind == kind) return &b;
  return nullptr;
}

op_yml model_op::to_op_yml() const {
  op_yml op;
  op.name = name;
  op.inputs = inputs;
  op.outputs = outputs;
  op.params = params;
  op.kernel_index = kernel_index;
  op.port_order_source = "the model's op description";
  return op;
}

std::string model_op::op_yml_text() const {
  // Names were checked to be identifiers and types to be VX type names by the reader.
  std::string text = fmt::format("name: {}\n", name);
  const auto block = [&](std::string_view key, const std::vector<op_yml_entry>& entries) {
    if (entries.empty()) return;
    text += fmt::format("{}:\n", key);
    for (const op_yml_entry& e : entries) text += fmt::format("  {}: {{type: {}}}\n", e.name, vx_type_name(e.type));
  };
  block("inputs", inputs);
  block("outputs", outputs);
  block("params", params);
  if (kernel_index) text += fmt::format("kernel_index: {}\n", *kernel_index);
  return text;
}

std::vector<std::size_t> model_tensor::shape() const { return {dims.rbegin(), dims.rend()}; }

std::optional<std::int32_t> model_tensor::vx_tensor_type() const noexcept {
  constexpr std::string_view prefix = "VSI_NN_TYPE_";
  if (!std::string_view(vx_type).starts_with(prefix)) return std::nullopt;
  const std::string name = "VX_TYPE_" + vx_type.substr(prefix.size());
  const auto t = vx_type_from_name(name);
  if (!t || *t == vx_type::array || *t == vx_type::scalar || *t == vx_type::tensor) return std::nullopt;
  return t;
}

bool model_tensor::quantized() const noexcept { return !qnt_type.empty() && qnt_type != "VSI_NN_QNT_TYPE_NONE"; }

model model::parse(std::span<const std::uint8_t> bytes, std::string_view source) {
  model m;
  m.source = std::string(source);
  m.file = model_file::parse(bytes, source);
  // The toolkit writes both custom-op sections for version 2 even without custom ops, as two zero
  // lengths (docs/rknn-model.md §1): an empty op config is no op, not broken JSON.
  if (m.file.version >= 2 && !m.file.custom_op_config.empty()) {
    const json ops = parse_json(m.file.custom_op_config, m.source + ": custom_op_config section");
    if (!ops.is_array())
      throw error(fmt::format("{}: custom_op_config section: expected a JSON array of op descriptions, found {}",
                              m.source, found(ops)));
    std::unordered_set<std::string> names;  // upper-cased: a node names its op upper-cased
    for (std::size_t i = 0; i < ops.size(); ++i) {
      model_op op = parse_op(ops[i], i, m.file.custom_op_data.size(), m.source);
      if (!names.insert(upper(op.name)).second)
        throw error(fmt::format("{}: two custom-op descriptions for op '{}'", m.source, op.name));
      m.ops.push_back(std::move(op));
    }
  }
  parse_graph(m, parse_json(m.file.config, m.source + ": config section (graph JSON)"));
  return m;
}

model model::read(const std::filesystem::path& path) { return parse(read_model_bytes(path), path.string()); }

const model_op* model::find_op(std::string_view op_name) const noexcept {
  for (const model_op& op : ops)
    if (op.name == op_name) return &op;
  return nullptr;
}

const model_node* model::find_node(std::string_view node_name) const noexcept {
  for (const model_node& node : nodes)
    if (node.name == node_name) return &node;
  return nullptr;
}

std::vector<std::size_t> model::custom_nodes() const {
  std::vector<std::size_t> out;
  for (const model_node& node : nodes)
    if (node.custom_op) out.push_back(node.index);
  return out;
}

std::span<const std::uint8_t> model::blob(const model_op& op, model_blob_kind kind) const noexcept {
  const model_blob* b = op.find_blob(kind);
  if (b == nullptr) return {};
  return std::span(file.custom_op_data).subspan(static_cast<std::size_t>(b->offset), static_cast<std::size_t>(b->size));
}

std::vector<decoded_param> decode_node_params(const model& m, const model_node& node) {
  if (!node.custom_op)
    throw error(fmt::format("{}: node '{}' (op {}) is not a custom-op node", m.source, node.name, node.op));
  const model_op& op = m.ops[*node.custom_op];
  const std::string at = fmt::format("{}: node '{}' (op {})", m.source, node.name, op.name);
  std::unordered_map<std::string_view, const model_param*> given;
  std::unordered_set<std::string_view> known;
  for (const op_yml_entry& e : op.params) known.insert(e.name);
  for (const model_param& p : node.params) {
    given.emplace(p.name, &p);
    if (!known.contains(p.name)) {
      std::string names;
      for (const op_yml_entry& e : op.params) names += (names.empty() ? "" : ", ") + e.name;
      throw error(fmt::format("{}: param '{}' is not a param of op '{}' ({})", at, p.name, op.name,
                              names.empty() ? std::string("it has none") : names));
    }
  }
  std::vector<decoded_param> out;
  for (const op_yml_entry& e : op.params) {
    const auto found_param = given.find(e.name);
    const model_param* it = found_param == given.end() ? nullptr : found_param->second;
    const std::string_view type = vx_type_name(e.type);
    if (!board_abi::is_v1_model_scalar_type(e.type))
      throw error(
          fmt::format("{}: param '{}' is a {} scalar: librknn_runtime creates none from an RKNN v1 model "
                      "(rknn_init -6); make it float",
                      at, e.name, type));
    if (it == nullptr)
      throw error(fmt::format("{}: param '{}' ({}) is missing from nn.{}", at, e.name, type, lower(op.name)));
    const json value = parse_json(it->json, at);
    const auto wrong = [&](std::string_view expected) {
      return error(fmt::format("{}: param '{}' expected {}, found {}", at, e.name, expected, found(value)));
    };
    try {
      if (e.type == vx_type::array) {
        if (!value.is_array()) throw wrong("VX_TYPE_ARRAY (a list of int32)");
        std::vector<std::int32_t> items;
        for (const json& item : value) {
          const auto v = as_signed(item);
          if (!v || *v < std::numeric_limits<std::int32_t>::min() || *v > std::numeric_limits<std::int32_t>::max() ||
              (item.is_number_unsigned() && item.get<std::uint64_t>() > std::numeric_limits<std::int32_t>::max()))
            throw error(fmt::format("{}: param '{}' item {} expected an int32, found {}", at, e.name, items.size(),
                                    found(item)));
          items.push_back(static_cast<std::int32_t>(*v));
        }
        out.push_back({e.name, make_param_value(e.name, e.type, std::span<const std::int32_t>(items))});
      } else if (e.type == vx_type::bool_) {
        if (value.is_boolean())
          out.push_back({e.name, make_param_value(e.name, e.type, value.get<bool>())});
        else if (value.is_number_integer() && (value.get<std::int64_t>() == 0 || value.get<std::int64_t>() == 1))
          out.push_back({e.name, make_param_value(e.name, e.type, value.get<std::int64_t>() == 1)});
        else
          throw wrong("VX_TYPE_BOOL (true/false or 0/1)");
      } else if (vx_type_is_floating(e.type)) {
        if (!value.is_number()) throw wrong(fmt::format("{} (a number)", type));
        out.push_back({e.name, make_param_value(e.name, e.type, value.get<double>())});
      } else if (value.is_number_unsigned()) {
        out.push_back({e.name, make_param_value(e.name, e.type, value.get<std::uint64_t>())});
      } else if (value.is_number_integer()) {
        out.push_back({e.name, make_param_value(e.name, e.type, value.get<std::int64_t>())});
      } else {
        throw wrong(fmt::format("{} (a whole number)", type));
      }
      check_param_value(e, out.back().value);
    } catch (const error& ex) {
      if (ex.detail().starts_with(at)) throw;
      throw error(fmt::format("{}: {}", at, ex.detail()));
    }
  }
  return out;
}

}  // namespace rknnop::host

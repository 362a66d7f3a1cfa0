// SPDX-License-Identifier: MIT
#include "rknnop/host/rknn_model.hpp"

#include "rknnop/host/error.hpp"
#include <rknnop/vx_type.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "byte_io.hpp"

// The layout (docs/rknn-model.md, from the toolkit's own reader and its demo models): magic, u64 LE
// version, then `u64 LE length + bytes` sections back to back: export_data, config (graph JSON) and,
// for version 2, custom_op_config (JSON array) and custom_op_data (the op blobs). No padding.

namespace rknnop::host {

namespace {

using json = nlohmann::ordered_json;

constexpr std::size_t max_json_depth = 64;  // the toolkit's JSON nests 4 deep

std::string quote(std::string_view text) {
  constexpr std::size_t max_quoted = 60;
  return text.size() <= max_quoted ? fmt::format("'{}'", text) : fmt::format("'{}...'", text.substr(0, max_quoted));
}

// --- JSON ----------------------------------------------------------------------------------------

json parse_json(std::string_view text, const std::string& where) {
  // Depth is bounded while parsing, so neither the parser nor the writers below recurse without limit.
  const json::parser_callback_t limit_depth = [&](int depth, json::parse_event_t, json&) {
    if (static_cast<std::size_t>(depth) > max_json_depth)
      throw error(fmt::format("{}: JSON nested deeper than {} levels", where, max_json_depth));
    return true;
  };
  try {
    return json::parse(text.begin(), text.end(), limit_depth);
  } catch (const json::exception& e) {
    std::string_view what = e.what();
    if (const auto bracket = what.find("] "); what.starts_with("[json.exception") && bracket != std::string_view::npos)
      what.remove_prefix(bracket + 2);
    throw error(fmt::format("{}: invalid JSON: {}", where, what));
  }
}

std::string_view json_kind(const json& j) {
  switch (j.type()) {
    case json::value_t::null: return "null";
    case json::value_t::object: return "an object";
    case json::value_t::array: return "an array";
    case json::value_t::string: return "a string";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned: return "an integer";
    case json::value_t::number_float: return "a number with a fraction or exponent";
    default: return "binary data";
  }
}

void append_python_string(std::string& out, std::string_view s) {
  out += '"';
  constexpr char hex[] = "0123456789abcdef";
  const auto u_escape = [&](unsigned cp) {
    out += "\\u";
    for (int shift = 12; shift >= 0; shift -= 4) out += hex[(cp >> shift) & 0xF];
  };
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        default:
          if (c < 0x20)
            u_escape(c);
          else
            out += static_cast<char>(c);
      }
      ++i;
      continue;
    }
    // nlohmann's parser accepts only well-formed UTF-8, so the sequence is complete.
    const std::size_t n = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : 4;
    unsigned cp = c & (0xFFu >> (n + 1));
    for (std::size_t k = 1; k < n && i + k < s.size(); ++k)
      cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3Fu);
    i += n;
    if (cp >= 0x10000) {
      cp -= 0x10000;
      u_escape(0xD800 + (cp >> 10));
      u_escape(0xDC00 + (cp & 0x3FF));
    } else {
      u_escape(cp);
    }
  }
  out += '"';
}

// Python's repr of a float: the shortest digits that round-trip, fixed notation for exponents in
// [-4, 16), scientific otherwise ("1e-05", "1e+16"), and ".0" on whole numbers.
void append_python_float(std::string& out, double value) {
  if (std::isnan(value)) {
    out += "NaN";
    return;
  }
  if (std::isinf(value)) {
    out += value < 0 ? "-Infinity" : "Infinity";
    return;
  }
  std::array<char, 64> buffer{};
  const auto done = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value, std::chars_format::scientific);
  std::string_view sci(buffer.data(), static_cast<std::size_t>(done.ptr - buffer.data()));
  const bool negative = sci.starts_with('-');
  if (negative) sci.remove_prefix(1);
  const auto e = sci.find('e');
  std::string digits;
  for (const char ch : sci.substr(0, e))
    if (ch != '.') digits += ch;
  int exponent = 0;
  std::from_chars(sci.data() + e + 1 + (sci[e + 1] == '+' ? 1 : 0), sci.data() + sci.size(), exponent);
  if (negative) out += '-';
  if (exponent >= -4 && exponent < 16) {
    if (exponent < 0) {
      out += "0.";
      out.append(static_cast<std::size_t>(-exponent - 1), '0');
      out += digits;
    } else if (static_cast<std::size_t>(exponent) + 1 >= digits.size()) {
      out += digits;
      out.append(static_cast<std::size_t>(exponent) + 1 - digits.size(), '0');
      out += ".0";
    } else {
      out += digits.substr(0, static_cast<std::size_t>(exponent) + 1);
      out += '.';
      out += digits.substr(static_cast<std::size_t>(exponent) + 1);
    }
    return;
  }
  out += digits.substr(0, 1);
  if (digits.size() > 1) {
    out += '.';
    out += digits.substr(1);
  }
  out += fmt::format("e{}{:02}", exponent < 0 ? '-' : '+', exponent < 0 ? -exponent : exponent);
}

void append_python_json(std::string& out, const json& j) {
  switch (j.type()) {
    case json::value_t::object: {
      out += '{';
      bool first = true;
      for (const auto& [key, value] : j.items()) {
        if (!first) out += ", ";
        first = false;
        append_python_string(out, key);
        out += ": ";
        append_python_json(out, value);
      }
      out += '}';
      break;
    }
    case json::value_t::array: {
      out += '[';
      bool first = true;
      for (const json& value : j) {
        if (!first) out += ", ";
        first = false;
        append_python_json(out, value);
      }
      out += ']';
      break;
    }
    case json::value_t::string: append_python_string(out, j.get_ref<const std::string&>()); break;
    case json::value_t::boolean: out += j.get<bool>() ? "true" : "false"; break;
    case json::value_t::number_integer: out += fmt::format("{}", j.get<std::int64_t>()); break;
    case json::value_t::number_unsigned: out += fmt::format("{}", j.get<std::uint64_t>()); break;
    case json::value_t::number_float: append_python_float(out, j.get<double>()); break;
    default: out += "null"; break;
  }
}

std::string python_json(const json& j) {
  std::string out;
  append_python_json(out, j);
  return out;
}

// A whole number >= 0 (Python writes ints without a fraction); nullopt for anything else.
std::optional<std::uint64_t> as_unsigned(const json& j) {
  if (j.is_number_unsigned()) return j.get<std::uint64_t>();
  if (j.is_number_integer() && j.get<std::int64_t>() >= 0) return static_cast<std::uint64_t>(j.get<std::int64_t>());
  return std::nullopt;
}

std::optional<std::int64_t> as_signed(const json& j) {
  if (j.is_number_integer()) return j.get<std::int64_t>();  // number_unsigned is also "integer"
  return std::nullopt;
}

std::string found(const json& j) {
  if (j.is_primitive()) return fmt::format("{} {}", json_kind(j), quote(python_json(j)));
  return std::string(json_kind(j));
}

const json* member(const json& object, std::string_view key) {
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

bool is_identifier(std::string_view s) {
  if (s.empty() || s.size() > 255 || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// --- sections ------------------------------------------------------------------------------------

struct section_reader {
  std::span<const std::uint8_t> bytes;
  std::string_view source;
  std::size_t at = 0;

  std::span<const std::uint8_t> next(std::string_view what) {
    if (bytes.size() - at < 8)
      throw error(fmt::format("{}: truncated: the {} section's length field needs 8 bytes at offset {}, {} remain",
                              source, what, at, bytes.size() - at));
    const auto length = byte_io::load_le<std::uint64_t>(bytes.data() + at);
    at += 8;
    if (length > bytes.size() - at)
      throw error(fmt::format("{}: the {} section at offset {} says {} bytes but only {} remain", source, what, at,
                              length, bytes.size() - at));
    const auto data = bytes.subspan(at, static_cast<std::size_t>(length));
    at += static_cast<std::size_t>(length);
    return data;
  }
};

std::string text_of(std::span<const std::uint8_t> bytes) { return {bytes.begin(), bytes.end()}; }

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
    entries.push_back({name, *t});
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
    for (std::size_t i = 0; i < m.ops.size(); ++i)
      if (upper(m.ops[i].name) == node.op) node.custom_op = i;
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
void read_node_ports(model_node& node, const model& m, const json& connection, const graph_index& index,
                     const std::string& where, const std::string& at) {
  for (std::size_t entry = 0; entry < connection.size(); ++entry) {
    const json& c = connection[entry];
    const auto v = connection_node(c, entry, where).second;
    if (!v) continue;  // checked by check_connections for every entry
    if (*v != node.index) continue;
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
  for (model_node& node : m.nodes) {
    if (!node.custom_op) continue;
    const model_op& op = m.ops[*node.custom_op];
    const std::string at = fmt::format("{}: node '{}' (op {})", m.source, node.name, node.op);
    read_node_params(node, op, (*nodes)[node.index], at);
    if (connection != nullptr) read_node_ports(node, m, *connection, index, where, at);
  }
  if (connection != nullptr) check_connections(m, *connection, where);
}

}  // namespace

// --- public --------------------------------------------------------------------------------------

bool is_rknn_model_file(const std::filesystem::path& path) noexcept {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return false;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!file) return false;
  std::array<std::uint8_t, 24> head{};
  if (std::fread(head.data(), 1, head.size(), file.get()) < 8) return false;
  const std::string_view magic(reinterpret_cast<const char*>(head.data()), 8);
  if (magic == rknn_encrypted_magic) return true;
  if (magic != rknn_model_magic) return false;
  // The config section (a model's JSON) sits where a .rknnop keeps its x86-64 library (ELF): a
  // non-empty section starting with '{'. (A container's empty x86-64 section is no JSON either.)
  const auto export_size = byte_io::load_le<std::uint64_t>(head.data() + 16);
  const auto seek_limit = static_cast<std::uint64_t>(std::numeric_limits<long>::max()) - 64;
  if (export_size > std::min(rknn_model_max_file_size, seek_limit) ||
      std::fseek(file.get(), static_cast<long>(24 + export_size), SEEK_SET) != 0)
    return false;
  std::array<std::uint8_t, 9> config{};  // the length field and the first byte
  if (std::fread(config.data(), 1, config.size(), file.get()) != config.size()) return false;
  return byte_io::load_le<std::uint64_t>(config.data()) > 0 && config[8] == '{';
}

std::string_view model_blob_key(model_blob_kind kind) noexcept {
  switch (kind) {
    case model_blob_kind::shader: return "vx_kernel_bin";
    case model_blob_kind::lib_x86_64: return "op_lib_x86";
    case model_blob_kind::lib_aarch64: return "op_lib_aarch64";
    case model_blob_kind::lib_armhf: break;
  }
  return "op_lib_armhf";
}

std::string_view model_blob_description(model_blob_kind kind) noexcept {
  switch (kind) {
    case model_blob_kind::shader: return "shader";
    case model_blob_kind::lib_x86_64: return "x86-64 library";
    case model_blob_kind::lib_aarch64: return "aarch64 library";
    case model_blob_kind::lib_armhf: break;
  }
  return "armhf library";
}

model_file model_file::parse(std::span<const std::uint8_t> bytes, std::string_view source) {
  if (bytes.size() < 8)
    throw error(
        fmt::format("{}: not an .rknn model: {} bytes, a model starts with the 8-byte magic \"RKNN\\0\\0\\0\\0\"",
                    source, bytes.size()));
  const std::string_view head(reinterpret_cast<const char*>(bytes.data()), 8);
  if (head == rknn_encrypted_magic)
    throw error(
        fmt::format("{}: an encrypted model (starts with \"CYPTRKNN\"): the toolkit encrypted it and neither "
                    "its own reader nor rknnop can open it; use the model from before encryption",
                    source));
  if (head != rknn_model_magic)
    throw error(fmt::format("{}: not an .rknn model: starts with {}, expected \"RKNN\\0\\0\\0\\0\"", source,
                            byte_io::hex_bytes(bytes.first(8))));
  if (bytes.size() < 16)
    throw error(fmt::format("{}: truncated: the format version needs 8 bytes at offset 8, {} remain", source,
                            bytes.size() - 8));
  model_file file;
  file.version = byte_io::load_le<std::uint64_t>(bytes.data() + 8);
  if (file.version != 1 && file.version != 2)
    throw error(
        fmt::format("{}: format version {}, rknnop reads versions 1 and 2 (RKNN-Toolkit v1)", source, file.version));
  section_reader reader{bytes, source, 16};
  const auto export_data = reader.next("export_data");
  file.export_data.assign(export_data.begin(), export_data.end());
  file.config = text_of(reader.next("config (graph JSON)"));
  if (file.version >= 2) {
    file.custom_op_config = text_of(reader.next("custom_op_config (op descriptions)"));
    const auto data = reader.next("custom_op_data (op blobs)");
    file.custom_op_data.assign(data.begin(), data.end());
  }
  file.trailing.assign(bytes.begin() + static_cast<std::ptrdiff_t>(reader.at), bytes.end());
  return file;
}

std::vector<std::uint8_t> model_file::serialize() const {
  if (version != 1 && version != 2) throw error(fmt::format("model format version {}: expected 1 or 2", version));
  if (version == 1 && (!custom_op_config.empty() || !custom_op_data.empty()))
    throw error("a version-1 model has no custom-op sections; use version 2");
  std::vector<std::uint8_t> out(rknn_model_magic.begin(), rknn_model_magic.end());
  byte_io::append_le<std::uint64_t>(out, version);
  const auto section = [&](std::span<const std::uint8_t> data) {
    byte_io::append_le<std::uint64_t>(out, data.size());
    out.insert(out.end(), data.begin(), data.end());
  };
  const auto text = [](const std::string& s) {
    return std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
  };
  section(export_data);
  section(text(config));
  if (version >= 2) {
    section(text(custom_op_config));
    section(custom_op_data);
  }
  out.insert(out.end(), trailing.begin(), trailing.end());
  return out;
}

std::vector<std::uint8_t> read_model_bytes(const std::filesystem::path& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec) throw error(fmt::format("cannot open '{}': {}", path.string(), ec.message()));
  if (!std::filesystem::is_regular_file(status)) throw error(fmt::format("'{}' is not a regular file", path.string()));
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.string().c_str(), "rb"), &std::fclose);
  if (!file) throw error(fmt::format("cannot open '{}': {}", path.string(), std::strerror(errno)));
  std::vector<std::uint8_t> bytes;
  std::array<std::uint8_t, 1 << 16> chunk{};
  for (;;) {
    const std::size_t got = std::fread(chunk.data(), 1, chunk.size(), file.get());
    if (bytes.size() + got > rknn_model_max_file_size)
      throw error(fmt::format("'{}': larger than {} bytes, the most rknnop reads as a model", path.string(),
                              rknn_model_max_file_size));
    bytes.insert(bytes.end(), chunk.begin(), chunk.begin() + static_cast<std::ptrdiff_t>(got));
    if (got < chunk.size()) break;
  }
  if (std::ferror(file.get()) != 0) throw error(fmt::format("cannot read '{}'", path.string()));
  return bytes;
}

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
    for (std::size_t i = 0; i < ops.size(); ++i) {
      model_op op = parse_op(ops[i], i, m.file.custom_op_data.size(), m.source);
      for (const model_op& other : m.ops)
        if (upper(other.name) == upper(op.name))
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
  for (const model_param& p : node.params)
    if (std::none_of(op.params.begin(), op.params.end(), [&](const op_yml_entry& e) { return e.name == p.name; })) {
      std::string names;
      for (const op_yml_entry& e : op.params) names += (names.empty() ? "" : ", ") + e.name;
      throw error(fmt::format("{}: param '{}' is not a param of op '{}' ({})", at, p.name, op.name,
                              names.empty() ? std::string("it has none") : names));
    }
  std::vector<decoded_param> out;
  for (const op_yml_entry& e : op.params) {
    const auto it =
        std::find_if(node.params.begin(), node.params.end(), [&](const model_param& p) { return p.name == e.name; });
    const std::string_view type = vx_type_name(e.type);
    if (it == node.params.end())
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
      } else if (e.type == vx_type::float16 || e.type == vx_type::float32 || e.type == vx_type::float64) {
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

// --- writer --------------------------------------------------------------------------------------

model_file replace_op_blobs(const model& m, std::string_view op_name,
                            const std::vector<std::pair<model_blob_kind, std::vector<std::uint8_t>>>& blobs) {
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
    else if (e.type == vx_type::float16 || e.type == vx_type::float32 || e.type == vx_type::float64)
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

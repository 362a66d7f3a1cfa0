// SPDX-License-Identifier: MIT
#include "rknnop/host/op_yml.hpp"

#include "rknnop/host/error.hpp"
#include "rknnop/host/file_io.hpp"
#include <rknnop/board_abi.hpp>
#include <rknnop/vx_type.hpp>

#include <rknnop/schema_marker.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <map>
#include <unordered_map>
#include <optional>
#include <variant>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <yaml-cpp/yaml.h>

namespace rknnop::host {

namespace {

constexpr std::array<std::string_view, 11> known_keys{"name",       "framework", "target_platform", "inputs",
                                                      "outputs",    "params",    "op_version",      "out_binary",
                                                      "op_py_file", "vx_file",   "kernel_index"};

std::string where(std::string_view source, const YAML::Node& node) {
  const YAML::Mark mark = node.Mark();
  if (mark.is_null()) return std::string(source);
  return fmt::format("{}:{}", source, mark.line + 1);
}

std::string scalar_text(std::string_view source, const YAML::Node& node, std::string_view key) {
  if (!node.IsScalar())
    throw error(fmt::format("{}: '{}' must be a plain value (a string), got a {}", where(source, node), key,
                            node.IsMap()        ? "mapping"
                            : node.IsSequence() ? "sequence"
                                                : "null"));
  // YAML (and the toolkit's PyYAML) refuses control characters and bytes that are not UTF-8, and
  // such a value would not survive being written back: refuse it here, naming the byte.
  const std::string& text = node.Scalar();
  if (const std::string escaped = escape_nonprintable(text); escaped != text)
    throw error(
        fmt::format("{}: '{}' holds a control character or a byte that is not UTF-8 ('{}'); op.yml "
                    "values must be printable UTF-8",
                    where(source, node), key, escaped));
  return text;
}

template <class Int>
Int integer(std::string_view source, const YAML::Node& node, std::string_view key) {
  const std::string text = scalar_text(source, node, key);
  Int value{};
  if (!YAML::convert<Int>::decode(node, value))
    throw error(fmt::format("{}: '{}' must be an integer{}, got '{}'", where(source, node), key,
                            std::is_unsigned_v<Int> ? " >= 0" : "", text));
  return value;
}

bool is_identifier(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s.front()))) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// Reads `inputs:`/`outputs:`/`params:` keeping the file's order and rejecting duplicates.
std::vector<op_yml_entry> read_entries(std::string_view source, const YAML::Node& node, std::string_view section,
                                       bool is_param, std::map<std::string, std::string>& seen) {
  std::vector<op_yml_entry> entries;
  if (node.IsNull()) return entries;
  if (!node.IsMap())
    throw error(fmt::format("{}: '{}' must be a mapping of name -> {{type: ...}}", where(source, node), section));
  for (auto it = node.begin(); it != node.end(); ++it) {
    op_yml_entry entry;
    entry.name = scalar_text(source, it->first, section);
    if (entry.name.empty()) throw error(fmt::format("{}: empty name in '{}'", where(source, it->first), section));
    if (const auto previous = seen.find(entry.name); previous != seen.end())
      throw error(
          fmt::format("{}: duplicate name '{}' in '{}' (already used in '{}'); inputs, "
                      "outputs and params need distinct names",
                      where(source, it->first), entry.name, section, previous->second));
    seen.emplace(entry.name, std::string(section));
    // A copy: yaml-cpp's iterator operator-> returns a temporary proxy, so a reference would dangle.
    const YAML::Node body = it->second;
    if (!body.IsMap())
      throw error(
          fmt::format("{}: {} '{}' must be a mapping with a 'type' key", where(source, body), section, entry.name));
    std::optional<YAML::Node> type_node;
    for (auto field = body.begin(); field != body.end(); ++field) {
      const std::string key = scalar_text(source, field->first, "key");
      if (key != "type")
        throw error(fmt::format("{}: unknown key '{}' in {} '{}' (only 'type' is allowed)", where(source, field->first),
                                key, section, entry.name));
      if (type_node)
        throw error(
            fmt::format("{}: duplicate key 'type' in {} '{}'", where(source, field->first), section, entry.name));
      type_node = field->second;
    }
    if (!type_node) throw error(fmt::format("{}: {} '{}' has no 'type'", where(source, body), section, entry.name));
    const std::string type_name = scalar_text(source, *type_node, "type");
    const auto type = vx_type_from_name(type_name);
    if (!type)
      throw error(fmt::format(
          "{}: unknown type '{}' for {} '{}': expected {}", where(source, *type_node), type_name, section, entry.name,
          is_param ? "VX_TYPE_ARRAY or a scalar type (VX_TYPE_BOOL, VX_TYPE_INT32, ...)" : "VX_TYPE_TENSOR"));
    if (is_param) {
      if (*type == vx_type::enum_ || *type == vx_type::size)
        throw error(
            fmt::format("{}: param '{}' has type {}, which the board runtime cannot create; "
                        "use VX_TYPE_INT32 or VX_TYPE_UINT32",
                        where(source, *type_node), entry.name, type_name));
      if (*type != vx_type::array && !is_param_scalar_type(*type))
        throw error(fmt::format("{}: param '{}' has type {}: expected VX_TYPE_ARRAY or a scalar type",
                                where(source, *type_node), entry.name, type_name));
    } else if (*type != vx_type::tensor) {
      throw error(fmt::format("{}: {} '{}' has type {}: inputs and outputs must be VX_TYPE_TENSOR",
                              where(source, *type_node), section, entry.name, type_name));
    }
    entry.type = *type;
    entries.push_back(std::move(entry));
  }
  return entries;
}

}  // namespace

std::string op_yml::lower_name() const {
  std::string lower = name;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); });
  return lower;
}

const op_yml_entry* op_yml::find_param(std::string_view param_name) const noexcept {
  const auto it =
      std::find_if(params.begin(), params.end(), [&](const op_yml_entry& p) { return p.name == param_name; });
  return it == params.end() ? nullptr : &*it;
}

namespace {
// Whether `name` ("float16" from op.yml's dtypes, or a model's "VSI_NN_TYPE_FLOAT16"/"VX_TYPE_FLOAT16")
// names one of RKNN v1's graph-edge types (<rknnop/board_abi.hpp>), through the VX type table's names.
bool names_v1_graph_edge_type(std::string_view name) noexcept {
  for (const std::string_view prefix : {"VSI_NN_TYPE_", "VX_TYPE_"})
    if (name.starts_with(prefix)) name.remove_prefix(prefix.size());
  for (const std::int32_t t : board_abi::v1_graph_edge_types) {
    std::string_view table = vx_type_table_name(t);
    table.remove_prefix(std::string_view("VX_TYPE_").size());
    if (table.size() == name.size() && std::equal(table.begin(), table.end(), name.begin(), [](char a, char b) {
          return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
        }))
      return true;
  }
  return false;
}
}  // namespace

std::vector<std::string> v1_graph_edge_problems(const op_yml& op) {
  std::vector<std::string> lines;
  for (const auto& [entries, output] : {std::pair{&op.inputs, false}, std::pair{&op.outputs, true}}) {
    for (const op_yml_entry& e : *entries) {
      if (e.dtypes.empty() || std::any_of(e.dtypes.begin(), e.dtypes.end(),
                                          [](const std::string& d) { return names_v1_graph_edge_type(d); }))
        continue;
      lines.push_back(fmt::format("{} '{}' is {} only: {} on RKNN v1 boards; add rknnop::float16 to its dtypes",
                                  output ? "output" : "input", e.name, fmt::join(e.dtypes, "|"),
                                  output ? "rknn_outputs_get cannot return it" : "rknn_inputs_set cannot take it"));
    }
  }
  return lines;
}

std::vector<std::string> v1_param_problems(const op_yml& op) {
  std::vector<std::string> lines;
  for (const op_yml_entry& e : op.params)
    if (!board_abi::is_v1_model_scalar_type(e.type))
      lines.push_back(
          fmt::format("param '{}' is a {} scalar: librknn_runtime creates none from an RKNN v1 model "
                      "(rknn_init -6); make it float",
                      e.name, vx_type_name(e.type)));
  return lines;
}

bool v1_graph_edge_type(std::string_view type_name) noexcept { return names_v1_graph_edge_type(type_name); }

// The fingerprint comment rknnop writes into generated op.yml files (invisible to the toolkit).
static std::optional<std::string> schema_comment(std::string_view text) {
  const std::string marker = "# " + std::string(schema_marker);
  for (std::size_t at = text.find(marker); at != std::string_view::npos; at = text.find(marker, at + 1)) {
    if (at != 0 && text[at - 1] != '\n') continue;
    std::string_view rest = text.substr(at + marker.size());
    rest = rest.substr(0, rest.find('\n'));
    while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t')) rest.remove_prefix(1);
    while (!rest.empty() && (rest.back() == ' ' || rest.back() == '\r' || rest.back() == '\t')) rest.remove_suffix(1);
    return std::string(rest);
  }
  return std::nullopt;
}

// "# rknnop-field: <name> <role> key=value ...": what rknnop's emitter knows beyond the toolkit's keys
// (docs/op-yml.md §6). Read line by line (YAML parsers drop comments); strict like the keys.
static void read_field_comments(op_yml& op, std::string_view text, std::string_view source) {
  constexpr std::string_view marker = "# rknnop-field:";
  // Each entry by (list, name), made once: a line per field would otherwise search its list again.
  const auto hash = [](const std::pair<const void*, std::string_view>& k) {
    return std::hash<std::string_view>{}(k.second) ^ std::hash<const void*>{}(k.first);
  };
  std::unordered_map<std::pair<const void*, std::string_view>, op_yml_entry*, decltype(hash)> by_name(0, hash);
  for (std::vector<op_yml_entry>* list : {&op.inputs, &op.outputs, &op.params})
    for (op_yml_entry& e : *list)
      by_name.emplace(std::pair{static_cast<const void*>(list), std::string_view(e.name)}, &e);
  std::size_t line_number = 0;
  for (std::size_t at = 0; at < text.size();) {
    ++line_number;
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(at, end - at);
    at = end + 1;
    if (!line.starts_with(marker)) continue;
    line.remove_prefix(marker.size());
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    std::vector<std::string_view> words;
    for (std::size_t w = 0; w < line.size();) {
      while (w < line.size() && line[w] == ' ') ++w;
      const std::size_t stop = std::min(line.find(' ', w), line.size());
      if (stop > w) words.push_back(line.substr(w, stop - w));
      w = stop;
    }
    const std::string where_text = fmt::format("{}:{}", source, line_number);
    if (words.size() < 2) throw error(fmt::format("{}: '# rknnop-field:' needs a field name and its role", where_text));
    const std::string name(words[0]);
    std::vector<op_yml_entry>* list = words[1] == "input"    ? &op.inputs
                                      : words[1] == "output" ? &op.outputs
                                      : words[1] == "param"  ? &op.params
                                                             : nullptr;
    if (list == nullptr)
      throw error(
          fmt::format("{}: '# rknnop-field: {}': role '{}' is not input, output or param", where_text, name, words[1]));
    const auto found = by_name.find(std::pair{list, std::string_view(name)});
    op_yml_entry* const entry = found == by_name.end() ? nullptr : found->second;
    if (entry == nullptr)
      throw error(fmt::format("{}: '# rknnop-field: {}': op.yml has no {} '{}'", where_text, name, words[1], name));
    for (std::size_t k = 2; k < words.size(); ++k) {
      const std::string_view word = words[k];
      const std::size_t eq = word.find('=');
      const std::string_view key = word.substr(0, eq == std::string_view::npos ? word.size() : eq);
      const std::string_view value = eq == std::string_view::npos ? std::string_view() : word.substr(eq + 1);
      const auto bad = [&](std::string_view why) {
        return error(fmt::format("{}: '# rknnop-field: {}': '{}' {}", where_text, name, word, why));
      };
      if (eq == std::string_view::npos) throw bad("is not key=value");
      if (key == "dtypes" && list != &op.params) {
        for (std::size_t p = 0; p <= value.size();) {
          const std::size_t comma = std::min(value.find(',', p), value.size());
          entry->dtypes.emplace_back(value.substr(p, comma - p));
          p = comma + 1;
        }
      } else if (key == "layout" && list != &op.params) {
        if (value != "NHWC" && value != "NCHW") throw bad("is not NHWC or NCHW");
        entry->layout = std::string(value);
      } else if ((key == "items" || key == "items<") && entry->type == vx_type::array) {
        const bool at_most = key == "items<";
        const std::string_view digits = at_most ? value.substr(value.starts_with('=') ? 1 : 0) : value;
        std::size_t n = 0;
        const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
        if (ec != std::errc() || ptr != digits.data() + digits.size() || digits.empty() || n == 0 || n > 4096)
          throw bad("is not an item count in 1..4096");
        entry->items = n;
        entry->items_exact = !at_most;
      } else if (key == "enum" && entry->type == vx_type::int32) {
        for (std::size_t p = 0; p < value.size();) {
          const std::size_t comma = std::min(value.find(',', p), value.size());
          const std::string_view item = value.substr(p, comma - p);
          const std::size_t colon = item.find(':');
          std::int32_t number = 0;
          const std::string_view digits = colon == std::string_view::npos ? std::string_view() : item.substr(colon + 1);
          const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), number);
          if (colon == std::string_view::npos || !is_identifier(item.substr(0, colon)) || digits.empty() ||
              ec != std::errc() || ptr != digits.data() + digits.size())
            throw bad("is not enum=NAME:int32,...");
          entry->enumerators.push_back(op_yml_enumerator{std::string(item.substr(0, colon)), number});
          p = comma + 1;
        }
        if (entry->enumerators.empty()) throw bad("names no enumerator");
      } else if (key == "default" && list == &op.params) {
        entry->default_text = std::string(value);
      } else {
        throw bad(fmt::format("is not a key rknnop writes for {} {} '{}'", words[1],
                              vx_type_name(entry->type).empty() ? "?" : std::string(vx_type_name(entry->type)), name));
      }
    }
  }
}

// Refuses, with the line and the byte shown, what yaml-cpp would only call "bad file" or recurse on:
// NUL bytes, and brackets nested deeper than any op.yml needs (a recursion guard).
static void check_yaml_text(std::string_view text, std::string_view source) {
  constexpr std::size_t max_depth = 64;
  std::size_t line = 1, depth = 0;
  char quote = 0;
  bool comment = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\0') {
      const std::size_t begin = text.rfind('\n', i) == std::string_view::npos ? 0 : text.rfind('\n', i) + 1;
      const std::size_t end = std::min(text.find('\n', i), text.size());
      throw error(fmt::format("{}:{}: a NUL byte at byte {} (in '{}'); op.yml is text", source, line, i,
                              text.substr(begin, std::min<std::size_t>(end - begin, 120))));
    }
    if (c == '\n') {
      ++line;
      comment = false;
      if (quote == 0) continue;
    }
    if (comment) continue;
    if (quote != 0) {
      if (c == quote) quote = 0;
      continue;
    }
    if (c == '#' && (i == 0 || text[i - 1] == ' ' || text[i - 1] == '\t' || text[i - 1] == '\n'))
      comment = true;
    else if (c == '"' || c == '\'')
      quote = c;
    else if (c == '[' || c == '{') {
      if (++depth > max_depth)
        throw error(
            fmt::format("{}:{}: brackets nested more than {} deep; an op.yml needs two", source, line, max_depth));
    } else if ((c == ']' || c == '}') && depth > 0)
      --depth;
  }
}

op_yml parse_op_yml(std::string_view text, std::string_view source) {
  check_yaml_text(text, source);
  YAML::Node root;
  try {
    root = YAML::Load(std::string(text));
  } catch (const YAML::Exception& e) {
    throw error(fmt::format("{}:{}: invalid YAML: {}", source, e.mark.line + 1, e.msg));
  }
  if (!root.IsMap())
    throw error(fmt::format("{}: op.yml must be a mapping with name, inputs, outputs, params", source));

  op_yml op;
  std::map<std::string, YAML::Node> top;
  for (auto it = root.begin(); it != root.end(); ++it) {
    const std::string key = scalar_text(source, it->first, "key");
    if (std::find(known_keys.begin(), known_keys.end(), key) == known_keys.end())
      throw error(
          fmt::format("{}: unknown key '{}' (known: name, framework, target_platform, inputs, "
                      "outputs, params, op_version, out_binary, op_py_file, vx_file, "
                      "kernel_index)",
                      where(source, it->first), key));
    if (!top.emplace(key, it->second).second)
      throw error(fmt::format("{}: duplicate key '{}'", where(source, it->first), key));
  }
  for (const std::string_view required : {"name", "inputs", "outputs"})
    if (!top.contains(std::string(required))) throw error(fmt::format("{}: missing key '{}'", source, required));

  op.name = scalar_text(source, top["name"], "name");
  if (!is_identifier(op.name))
    throw error(fmt::format("{}: op name '{}' is not a C identifier (it becomes vx_kernel_{}_list)",
                            where(source, top["name"]), op.name, op.name));
  const auto optional_text = [&](std::string_view key) -> std::optional<std::string> {
    const auto it = top.find(std::string(key));
    if (it == top.end()) return std::nullopt;
    return scalar_text(source, it->second, key);
  };
  op.framework = optional_text("framework");
  op.target_platform = optional_text("target_platform");
  op.out_binary = optional_text("out_binary");
  op.op_py_file = optional_text("op_py_file");
  op.vx_file = optional_text("vx_file");
  // These become paths beside the op (unpack writes op_py_file, rknnop-run reads vx_file).
  for (const std::string_view key : {"out_binary", "op_py_file", "vx_file"})
    if (const auto it = top.find(std::string(key)); it != top.end())
      check_plain_file_name(scalar_text(source, it->second, key), key, where(source, it->second));
  if (const auto it = top.find("op_version"); it != top.end())
    op.op_version = integer<std::int64_t>(source, it->second, "op_version");
  if (const auto it = top.find("kernel_index"); it != top.end())
    op.kernel_index = integer<std::uint32_t>(source, it->second, "kernel_index");

  std::map<std::string, std::string> seen;
  op.inputs = read_entries(source, top["inputs"], "inputs", false, seen);
  op.outputs = read_entries(source, top["outputs"], "outputs", false, seen);
  if (const auto it = top.find("params"); it != top.end())
    op.params = read_entries(source, it->second, "params", true, seen);
  if (op.inputs.empty())
    throw error(fmt::format("{}: op '{}' has no inputs; declare at least one VX_TYPE_TENSOR input", source, op.name));
  if (op.outputs.empty())
    throw error(fmt::format("{}: op '{}' has no outputs; declare at least one VX_TYPE_TENSOR output", source, op.name));
  op.schema_fingerprint = schema_comment(text);
  read_field_comments(op, text, source);
  return op;
}

op_yml read_op_yml_file(const std::filesystem::path& path) {
  const auto bytes = read_file(path, max_op_yml_file_size);
  return parse_op_yml(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), path.string());
}

namespace {

struct io_map {
  std::string label;    ///< IoMap's first argument ('in0')
  std::string comment;  ///< the field name rknnop writes after it ("# images"), or empty
};

// The IoMap(...) entries of `def_input = [...]` (or def_output) in a Python class body; nullopt when
// the list is absent. A plain scan: the toolkit's generator writes these lists literally.
std::optional<std::vector<io_map>> io_maps(std::string_view py, std::string_view list_name) {
  std::size_t at = 0;
  while ((at = py.find(list_name, at)) != std::string_view::npos) {
    const bool word_start = at == 0 || !(std::isalnum(static_cast<unsigned char>(py[at - 1])) || py[at - 1] == '_');
    std::size_t i = at + list_name.size();
    at = i;
    if (!word_start) continue;
    while (i < py.size() && (py[i] == ' ' || py[i] == '\t')) ++i;
    if (i >= py.size() || py[i] != '=') continue;
    ++i;
    while (i < py.size() && std::isspace(static_cast<unsigned char>(py[i]))) ++i;
    if (i >= py.size() || py[i] != '[') continue;
    const std::size_t close = py.find(']', i);
    if (close == std::string_view::npos) return std::nullopt;
    const std::string_view body = py.substr(i + 1, close - i - 1);
    std::vector<io_map> maps;
    std::size_t pos = 0;
    while ((pos = body.find("IoMap(", pos)) != std::string_view::npos) {
      pos += 6;
      while (pos < body.size() && std::isspace(static_cast<unsigned char>(body[pos]))) ++pos;
      if (pos >= body.size() || (body[pos] != '\'' && body[pos] != '"')) return std::nullopt;
      const char quote = body[pos];
      const std::size_t end = body.find(quote, pos + 1);
      if (end == std::string_view::npos) return std::nullopt;
      io_map m{std::string(body.substr(pos + 1, end - pos - 1)), {}};
      // rknnop's own .py: "IoMap('in0', 'in', 'input port 0'),  # images" (the comment ends the line).
      const std::size_t line_end = std::min(body.find('\n', end), body.size());
      const std::size_t next = body.find("IoMap(", end);
      const std::size_t hash = body.find('#', end);
      if (hash < line_end && hash < next) {
        std::string_view c = body.substr(hash + 1, line_end - hash - 1);
        while (!c.empty() && std::isspace(static_cast<unsigned char>(c.front()))) c.remove_prefix(1);
        while (!c.empty() && std::isspace(static_cast<unsigned char>(c.back()))) c.remove_suffix(1);
        if (is_identifier(c)) m.comment = std::string(c);
      }
      maps.push_back(std::move(m));
      pos = end;
    }
    return maps;
  }
  return std::nullopt;
}

// The number a name ends with ("input1" -> 1), or nullopt.
std::optional<std::size_t> trailing_number(std::string_view name) {
  std::size_t start = name.size();
  while (start > 0 && std::isdigit(static_cast<unsigned char>(name[start - 1]))) --start;
  if (start == name.size() || name.size() - start > 6) return std::nullopt;
  std::size_t value = 0;
  for (char c : name.substr(start)) value = value * 10 + std::size_t(c - '0');
  return value;
}

// op.yml's entries in the IoMaps' order, or an explanation of why they cannot be matched. One port
// matches trivially: there is no order to get wrong (the toolkit's TruncateDiv names its one output
// 'out0' in the .py and 'output' in op.yml).
std::variant<std::vector<op_yml_entry>, std::string> match_ports(const std::vector<op_yml_entry>& entries,
                                                                 const std::vector<io_map>& maps,
                                                                 std::string_view list_name) {
  if (maps.size() != entries.size())
    return fmt::format("{} has {} IoMap entries, op.yml {}", list_name, maps.size(), entries.size());
  if (entries.size() == 1) return entries;
  const auto by_name = [&](std::string_view name) -> const op_yml_entry* {
    const auto it = std::find_if(entries.begin(), entries.end(), [&](const op_yml_entry& e) { return e.name == name; });
    return it == entries.end() ? nullptr : &*it;
  };
  const auto by_number = [&](std::size_t k) -> const op_yml_entry* {
    const op_yml_entry* found = nullptr;
    for (const op_yml_entry& e : entries)
      if (trailing_number(e.name) == k) {
        if (found) return nullptr;  // ambiguous
        found = &e;
      }
    return found;
  };
  std::vector<op_yml_entry> ordered;
  for (std::size_t k = 0; k < maps.size(); ++k) {
    const op_yml_entry* e = nullptr;
    if (!maps[k].comment.empty()) e = by_name(maps[k].comment);
    if (!e) e = by_name(maps[k].label);
    if (!e && trailing_number(maps[k].label) == k) e = by_number(k);
    if (!e)
      return fmt::format("{}'s IoMap '{}' (port {}) names no op.yml entry and no entry ends in {}", list_name,
                         maps[k].label, k, k);
    if (std::any_of(ordered.begin(), ordered.end(), [&](const op_yml_entry& o) { return o.name == e->name; }))
      return fmt::format("{} matches op.yml's '{}' twice", list_name, e->name);
    ordered.push_back(*e);
  }
  return ordered;
}

std::string names(const std::vector<op_yml_entry>& entries) {
  std::string out;
  for (const op_yml_entry& e : entries) out += (out.empty() ? "" : ", ") + e.name;
  return out;
}

}  // namespace

// Inputs and outputs are matched independently: an output list that cannot be matched says nothing
// about the inputs' order (and the other way round).
void apply_python_port_order(op_yml& op, std::string_view python_text, std::string_view source) {
  const auto inputs = io_maps(python_text, "def_input");
  const auto outputs = io_maps(python_text, "def_output");
  if (!inputs || !outputs) {
    op.port_order_source = fmt::format("op.yml ({} has no def_input/def_output lists)", source);
    return;
  }
  auto in = match_ports(op.inputs, *inputs, "def_input");
  auto out = match_ports(op.outputs, *outputs, "def_output");
  const std::string* in_failed = std::get_if<std::string>(&in);
  const std::string* out_failed = std::get_if<std::string>(&out);
  if (in_failed && out_failed) {
    op.port_order_source = fmt::format("op.yml ({}: {}; {})", source, *in_failed, *out_failed);
    return;
  }
  if (in_failed)
    op.port_order_source = fmt::format("inputs: op.yml ({}: {}); outputs: {} (def_output)", source, *in_failed, source);
  else if (out_failed)
    op.port_order_source = fmt::format("inputs: {} (def_input); outputs: op.yml ({}: {})", source, source, *out_failed);
  else
    op.port_order_source = fmt::format("{} (def_input/def_output)", source);
  std::string changed;
  if (!in_failed && std::get<0>(in) != op.inputs)
    changed = fmt::format("inputs ({}) but the op's definition has ({})", names(op.inputs), names(std::get<0>(in)));
  if (!out_failed && std::get<0>(out) != op.outputs)
    changed += fmt::format("{}outputs ({}) but the op's definition has ({})", changed.empty() ? "" : "; ",
                           names(op.outputs), names(std::get<0>(out)));
  if (!changed.empty())
    op.port_order_warning = fmt::format(
        "op '{}': op.yml lists {}; using the order of {}'s def_input/def_output, "
        "the kernel's parameter order",
        op.name, changed, source);
  if (!in_failed) op.inputs = std::move(std::get<0>(in));
  if (!out_failed) op.outputs = std::move(std::get<0>(out));
}

const op_yml_entry& find_op_entry(const op_yml& op, op_entry_kind kind, std::string_view name) {
  const auto list_of = [&](op_entry_kind k) -> const std::vector<op_yml_entry>& {
    return k == op_entry_kind::input ? op.inputs : k == op_entry_kind::output ? op.outputs : op.params;
  };
  const auto kind_name = [](op_entry_kind k) -> std::string_view {
    return k == op_entry_kind::input ? "input" : k == op_entry_kind::output ? "output" : "param";
  };
  const auto find = [&](op_entry_kind k) -> const op_yml_entry* {
    for (const op_yml_entry& e : list_of(k))
      if (e.name == name) return &e;
    return nullptr;
  };
  if (const op_yml_entry* e = find(kind)) return *e;
  std::string hint;  // the first other kind that has the name, in op.yml's order
  for (const op_entry_kind other : {op_entry_kind::input, op_entry_kind::output, op_entry_kind::param})
    if (hint.empty() && other != kind && find(other))
      hint = fmt::format("; '{}' is {} {}", name, other == op_entry_kind::param ? "a" : "an", kind_name(other));
  std::vector<std::string> names;
  for (const op_yml_entry& e : list_of(kind)) names.push_back(e.name);
  throw error(fmt::format("op '{}' has no {} '{}' ({}s: {}){}", op.name, kind_name(kind), name, kind_name(kind),
                          names.empty() ? std::string("none") : fmt::format("{}", fmt::join(names, ", ")), hint));
}

}  // namespace rknnop::host

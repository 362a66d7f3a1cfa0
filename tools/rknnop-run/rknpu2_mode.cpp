// SPDX-License-Identifier: MIT
// rknnop-run's RKNPU2 mode (rknpu2_mode.hpp): the command line read here, the plugin described and
// run in the node runner (rknnop/host/rknpu2_run.hpp). Tensors as librknnrt hands a CPU op: NCHW
// arrays as the ONNX model holds them, FLOAT32 unless --tensor-type says otherwise; attributes as the
// ONNX node carries them (FLOAT as FLOAT32, INT as INT64, FLOATS and INTS as arrays of those), the
// same syntax as the generated toolkit2 class's command line. The plugin's refusal is its own line.
#include "rknpu2_mode.hpp"

#include "cli.hpp"              // tools/common: parse_or_exit, parse_assignments, terminal_text, usage_error
#include "record_manifest.hpp"  // --replay: the manifests, the build-id
#include <rknnop/host/elf.hpp>
#include <rknnop/host/error.hpp>
#include <rknnop/host/file_io.hpp>
#include <rknnop/host/npy.hpp>
#include <rknnop/host/rknpu2_run.hpp>
#include <rknnop/rknpu2_plugin.h>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

namespace {

using namespace rknnop::host;
using rknnop::tools::terminal_lines;
using rknnop::tools::terminal_text;
using rknnop::tools::usage_error;
using rknnop_run::build_ids_of;  // record_manifest.hpp: shared with the RKNN v1 replay
using rknnop_run::manifest;
using rknnop_run::record_manifests;

// --- the RKNN tensor types ------------------------------------------------------------------------

struct tensor_type_row {
  std::int32_t type;
  std::string_view name;
  std::optional<npy_dtype> npy;  // the .npy dtype of that type (none: no .npy holds it)
};
constexpr std::array<tensor_type_row, 12> tensor_types = {{
    {RKNNOP_RKNPU2_FLOAT32, "FLOAT32", npy_dtype::float32},
    {RKNNOP_RKNPU2_FLOAT16, "FLOAT16", npy_dtype::float16},
    {RKNNOP_RKNPU2_INT8, "INT8", npy_dtype::int8},
    {RKNNOP_RKNPU2_UINT8, "UINT8", npy_dtype::uint8},
    {RKNNOP_RKNPU2_INT16, "INT16", npy_dtype::int16},
    {RKNNOP_RKNPU2_UINT16, "UINT16", npy_dtype::uint16},
    {RKNNOP_RKNPU2_INT32, "INT32", npy_dtype::int32},
    {RKNNOP_RKNPU2_UINT32, "UINT32", std::nullopt},
    {RKNNOP_RKNPU2_INT64, "INT64", std::nullopt},
    {RKNNOP_RKNPU2_BOOL, "BOOL", std::nullopt},
    {RKNNOP_RKNPU2_INT4, "INT4", std::nullopt},
    {RKNNOP_RKNPU2_BFLOAT16, "BFLOAT16", std::nullopt},  // from float .npy files, rounded to nearest even
}};

const tensor_type_row* find_type(std::int32_t type) {
  for (const tensor_type_row& row : tensor_types)
    if (row.type == type) return &row;
  return nullptr;
}
const tensor_type_row* find_type(std::string_view name) {
  for (const tensor_type_row& row : tensor_types)
    if (row.name == name) return &row;
  return nullptr;
}

std::string type_name(std::int32_t type) {
  const tensor_type_row* row = find_type(type);
  return row ? std::string(row->name) : fmt::format("rknn_tensor_type {}", type);
}

// --tensor-type: FLOAT16 or RKNN_TENSOR_FLOAT16, any case.
std::int32_t parse_tensor_type(const std::string& text) {
  if (text.empty()) return RKNNOP_RKNPU2_FLOAT32;
  std::string name;
  for (const char c : text) name += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (name.starts_with("RKNN_TENSOR_")) name.erase(0, 12);
  for (const tensor_type_row& row : tensor_types)
    if (row.name == name) {
      if (row.type == RKNNOP_RKNPU2_INT4 || row.type == RKNNOP_RKNPU2_UINT32 || row.type == RKNNOP_RKNPU2_INT64 ||
          row.type == RKNNOP_RKNPU2_BOOL)
        throw usage_error(
            fmt::format("--tensor-type {}: rknnop-run reads no .npy as {} (it takes FLOAT32, FLOAT16, "
                        "BFLOAT16, INT8, UINT8, INT16, UINT16 and INT32)",
                        text, row.name));
      return row.type;
    }
  throw usage_error(fmt::format(
      "--tensor-type '{}': not an RKNN tensor type (FLOAT32, FLOAT16, BFLOAT16, INT8, UINT8, INT16, UINT16, INT32)",
      text));
}

// A float's bfloat16 bits, rounded to nearest even (NaN kept a NaN).
std::uint16_t bfloat16_bits(float value) {
  std::uint32_t bits = 0;
  std::memcpy(&bits, &value, 4);
  if (std::isnan(value)) return static_cast<std::uint16_t>((bits >> 16) | 0x40);
  bits += 0x7FFF + ((bits >> 16) & 1);
  return static_cast<std::uint16_t>(bits >> 16);
}

// An input .npy as a tensor of `type`: floats converted (FLOAT32 exactly; FLOAT16 and BFLOAT16
// rounded to nearest even, a value they cannot hold refused), integers only from their own dtype.
rknpu2_tensor input_tensor(const std::string& name, const std::string& file, std::int32_t type) {
  npy_array array = read_npy_file(file);
  rknpu2_tensor t;
  t.type = type;
  for (const std::size_t d : array.shape) {
    if (d > 0xFFFFFFFFu) throw error(fmt::format("input '{}' ('{}'): a dimension of {} does not fit", name, file, d));
    t.dims.push_back(static_cast<std::uint32_t>(d));
  }
  const tensor_type_row& row = *find_type(type);
  const bool is_float_array = array.dtype == npy_dtype::float32 || array.dtype == npy_dtype::float16;
  if (type == RKNNOP_RKNPU2_FLOAT32 || type == RKNNOP_RKNPU2_FLOAT16) {
    if (array.dtype == *row.npy) {
      t.data = std::move(array.data);
      return t;
    }
    if (!is_float_array && type == RKNNOP_RKNPU2_FLOAT16)
      throw usage_error(
          fmt::format("--input {}: '{}' is {}; FLOAT16 tensors are made from float16 or float32 .npy files", name, file,
                      npy_descr(array.dtype)));
    conversion_report report;
    npy_array converted = convert_to_float(array, *row.npy, report);
    if (report.lossy != 0)
      throw error(fmt::format("input '{}' ('{}'): {} of its values do not fit {} (the first, {}, becomes {})", name,
                              file, report.lossy, row.name, report.first_lossy_value, report.first_lossy_result));
    if (report.rounded != 0)
      fmt::print(stderr,
                 "rknnop-run: note: input '{}': {} of {} values rounded to {} (largest relative change {:.3g})\n",
                 terminal_text(name), report.rounded, report.count, row.name, report.largest_relative);
    t.data = std::move(converted.data);
    return t;
  }
  if (type == RKNNOP_RKNPU2_BFLOAT16) {
    if (!is_float_array)
      throw usage_error(fmt::format("--input {}: '{}' is {}; BFLOAT16 tensors are made from float .npy files", name,
                                    file, npy_descr(array.dtype)));
    const std::vector<float> values = array.to_floats();
    t.data.resize(values.size() * 2);
    for (std::size_t i = 0; i < values.size(); ++i) {
      const std::uint16_t bits = bfloat16_bits(values[i]);
      std::memcpy(t.data.data() + 2 * i, &bits, 2);
    }
    return t;
  }
  if (array.dtype != *row.npy)
    throw usage_error(fmt::format("--input {}: --tensor-type {} takes a {} .npy; '{}' is {}", name, row.name,
                                  npy_descr(*row.npy), file, npy_descr(array.dtype)));
  t.data = std::move(array.data);
  return t;
}

// --- attributes: ONNX's types, the toolkit2 class's syntax ------------------------------------------

constexpr std::array<std::string_view, 5> attr_types = {"float", "int64", "floats", "ints", "string"};

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::optional<std::int64_t> parse_integer(std::string_view text) {
  const std::string s(trim(text));
  if (s.empty()) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  const long long value = std::strtoll(s.c_str(), &end, 0);
  if (errno != 0 || end != s.c_str() + s.size()) return std::nullopt;
  return value;
}

std::optional<double> parse_number(std::string_view text) {
  const std::string s(trim(text));
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size()) return std::nullopt;
  return value;
}

// One value as ONNX's FLOAT carries it (float32): a finite number that float32 cannot hold is refused.
float to_float32(const std::string& name, double value, std::string_view text) {
  const auto f = static_cast<float>(value);
  if (std::isfinite(value) && (std::isinf(f) || (value != 0 && f == 0)))
    throw usage_error(
        fmt::format("--attr {}: {} does not fit FLOAT32 (ONNX's FLOAT attribute)", name, std::string(trim(text))));
  return f;
}

template <class T>
void put_items(rknpu2_attr& a, const std::vector<T>& items) {
  a.n_elems = static_cast<std::uint32_t>(items.size());
  a.data.resize(items.size() * sizeof(T));
  if (!items.empty()) std::memcpy(a.data.data(), items.data(), a.data.size());
}

// --attr NAME=VALUE or NAME=TYPE:VALUE, TYPE one of ONNX's float, int64, floats, ints, string; lists
// as [1,2] or 1,2 (float:[..] and int64:[..] are FLOATS and INTS). Untyped: an integer is INT, another
// number FLOAT, a list INTS or FLOATS (FLOATS when any item is not an integer).
rknpu2_attr parse_attr(const std::string& text) {
  const std::size_t eq = text.find('=');
  const std::string name(trim(eq == std::string::npos ? std::string_view() : std::string_view(text).substr(0, eq)));
  if (eq == std::string::npos || name.empty())
    throw usage_error(fmt::format("--attr '{}': expected NAME=VALUE or NAME=TYPE:VALUE (TYPE: {})", text,
                                  fmt::join(attr_types, ", ")));
  if (name.size() >= RKNNOP_RKNPU2_MAX_NAME_LEN)
    throw usage_error(fmt::format("--attr '{}': a name of at most {} bytes", name, RKNNOP_RKNPU2_MAX_NAME_LEN - 1));
  std::string_view value = std::string_view(text).substr(eq + 1);
  std::string kind;
  if (const std::size_t colon = value.find(':'); colon != std::string_view::npos) {
    const std::string prefix(trim(value.substr(0, colon)));
    const bool alpha = !prefix.empty() && std::all_of(prefix.begin(), prefix.end(), [](char c) {
      return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '6' || c == '4';
    });
    if (std::find(attr_types.begin(), attr_types.end(), prefix) != attr_types.end()) {
      kind = prefix;
      value = value.substr(colon + 1);
    } else if (alpha) {
      throw usage_error(
          fmt::format("--attr {}: unknown type '{}' (expected {})", name, prefix, fmt::join(attr_types, ", ")));
    }
  }
  if (kind == "string")
    throw error(
        fmt::format("--attr {}: a string attribute ('{}'): an rknnop plugin's params take numbers and lists "
                    "of numbers (an enum param takes its value; --describe lists them)",
                    name, std::string(value)));
  std::string_view body = trim(value);
  const bool bracketed = body.size() >= 2 && body.front() == '[' && body.back() == ']';
  if (bracketed) body = trim(body.substr(1, body.size() - 2));
  const bool is_list = kind == "floats" || kind == "ints" || bracketed || body.find(',') != std::string_view::npos;
  rknpu2_attr a;
  a.name = name;
  const bool want_int = kind == "int64" || kind == "ints";
  const bool want_float = kind == "float" || kind == "floats";
  const auto not_a = [&](std::string_view item) {
    return usage_error(
        fmt::format("--attr {}: '{}' is not {}", name, std::string(trim(item)), want_int ? "an integer" : "a number"));
  };
  if (!is_list) {
    if (!want_float)
      if (const std::optional<std::int64_t> i = parse_integer(body)) {
        a.dtype = RKNNOP_RKNPU2_INT64;
        put_items(a, std::vector<std::int64_t>{*i});
        return a;
      }
    const std::optional<double> d = want_int ? std::nullopt : parse_number(body);
    if (!d) throw not_a(body);
    a.dtype = RKNNOP_RKNPU2_FLOAT32;
    put_items(a, std::vector<float>{to_float32(name, *d, body)});
    return a;
  }
  if (body.empty())
    throw usage_error(fmt::format("--attr {}: an empty list; leave the attribute out to take the op's default", name));
  std::vector<std::string_view> items;
  for (std::size_t at = 0;;) {
    const std::size_t comma = body.find(',', at);
    items.push_back(body.substr(at, comma == std::string_view::npos ? std::string_view::npos : comma - at));
    if (comma == std::string_view::npos) break;
    at = comma + 1;
  }
  std::vector<std::int64_t> ints;
  bool all_int = !want_float;
  for (const std::string_view item : items) {
    const std::optional<std::int64_t> i = all_int ? parse_integer(item) : std::nullopt;
    if (!i) {
      all_int = false;
      break;
    }
    ints.push_back(*i);
  }
  if (all_int) {
    a.dtype = RKNNOP_RKNPU2_INT64;
    put_items(a, ints);
    return a;
  }
  if (want_int)
    for (const std::string_view item : items)
      if (!parse_integer(item)) throw not_a(item);
  std::vector<float> floats;
  for (const std::string_view item : items) {
    const std::optional<double> d = parse_number(item);
    if (!d) throw not_a(item);
    floats.push_back(to_float32(name, *d, item));
  }
  a.dtype = RKNNOP_RKNPU2_FLOAT32;
  put_items(a, floats);
  return a;
}

// --- the plugin's description -----------------------------------------------------------------------

struct described_op {
  std::vector<std::string> inputs, outputs, attributes;
};

// The names in rknnop_rknpu2_describe's lines ("input x: ...", "output y: ...", "attribute alpha: ...").
described_op names_of(const std::string& text) {
  described_op op;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    const std::string_view line = std::string_view(text).substr(at, end - at);
    at = end + 1;
    const std::size_t space = line.find(' ');
    const std::size_t colon = line.find(':');
    if (space == std::string_view::npos || colon == std::string_view::npos || colon < space) continue;
    const std::string word(line.substr(0, space));
    std::string name(line.substr(space + 1, colon - space - 1));
    if (word == "input")
      op.inputs.push_back(std::move(name));
    else if (word == "output")
      op.outputs.push_back(std::move(name));
    else if (word == "attribute")
      op.attributes.push_back(std::move(name));
  }
  return op;
}

// A tensor named on the command line: by its name or its position.
std::size_t find_tensor(const std::vector<std::string>& names, const std::string& option, const std::string& name,
                        const std::string& what, const std::string& op) {
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == name || std::to_string(i) == name) return i;
  throw usage_error(fmt::format("{} '{}': op '{}' has no {} '{}' ({}s: {})", option, name, op, what, name, what,
                                names.empty() ? "(none)" : fmt::format("{}", fmt::join(names, ", "))));
}

struct plugin_options {
  std::string plugin;
  std::vector<std::string> inputs, outputs, attrs;
  std::string tensor_type;
  std::string replay;
  bool describe = false;
};

// --- --replay: a plugin's own record (RKNNOP_RECORD=<dir>, detail/rknpu2/record.hpp) run again --------

// A tensor of the record: the .npy beside the manifest (named by the recorder's pattern, never by
// the manifest), checked against the manifest's dtype, layout and shape.
rknpu2_tensor record_tensor(const manifest& m, const std::string& stem, const std::string& role, std::size_t k) {
  const std::string prefix = fmt::format("{}.{}.", role, k);
  const tensor_type_row* row = find_type(std::string_view(m.get(prefix + "dtype")));
  if (row == nullptr) throw m.bad(prefix + "dtype", "an RKNN tensor type (FLOAT32, FLOAT16, INT8, ...)");
  if (!row->npy)
    throw m.bad(prefix + "dtype", "a type rknnop-run replays (FLOAT32, FLOAT16, INT8, UINT8, INT16, UINT16, INT32)");
  rknpu2_tensor t;
  t.type = row->type;
  const std::string& layout = m.get(prefix + "layout");
  if (layout == "NCHW")
    t.fmt = RKNNOP_RKNPU2_NCHW;
  else if (layout == "NHWC")
    t.fmt = RKNNOP_RKNPU2_NHWC;
  else if (layout == "UNDEFINED")
    t.fmt = RKNNOP_RKNPU2_UNDEFINED;
  else
    throw m.bad(prefix + "layout", "NCHW, NHWC or UNDEFINED");
  const std::string& shape = m.get(prefix + "shape");
  for (std::size_t at = 0; !shape.empty() && at <= shape.size();) {
    std::size_t comma = shape.find(',', at);
    if (comma == std::string::npos) comma = shape.size();
    const std::string item = shape.substr(at, comma - at);
    if (item.empty() || item.size() > 10 ||
        !std::all_of(item.begin(), item.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
        std::stoull(item) > 0xFFFFFFFFu || t.dims.size() >= RKNNOP_RKNPU2_MAX_DIMS)
      throw m.bad(prefix + "shape", "at most 16 comma-separated dims of at most 4294967295");
    t.dims.push_back(static_cast<std::uint32_t>(std::stoull(item)));
    at = comma + 1;
  }
  npy_array array = rknnop_run::read_record_npy(m, stem, role, k, *row->npy, row->name);
  if (!std::equal(array.shape.begin(), array.shape.end(), t.dims.begin(), t.dims.end()))
    throw error(fmt::format("--replay: {}: shape ({}), but {}shape in {} says ({})",
                            rknnop_run::record_npy_path(m, stem, role, k).string(), fmt::join(array.shape, ", "),
                            prefix, m.path.filename().string(), fmt::join(t.dims, ", ")));
  t.data = std::move(array.data);
  return t;
}

// A node attribute of the record: attr.<k>.name, .dtype, .count and .data (its bytes in hex).
rknpu2_attr record_attr(const manifest& m, std::size_t k) {
  const std::string prefix = fmt::format("attr.{}.", k);
  rknpu2_attr a;
  a.name = m.get(prefix + "name");
  if (a.name.empty() || a.name.size() >= RKNNOP_RKNPU2_MAX_NAME_LEN ||
      !std::all_of(a.name.begin(), a.name.end(), [](char c) { return c > 0x20 && c < 0x7F; }))
    throw m.bad(prefix + "name", "an attribute name (printable, 1..255 bytes)");
  // An attribute's types: the ONNX node's (no INT4, no BFLOAT16); an element's size as the runner allocates it.
  const tensor_type_row* row = find_type(std::string_view(m.get(prefix + "dtype")));
  const std::uint32_t size = row ? rknpu2_element_size(row->type) : 0;
  if (size == 0 || row->type == RKNNOP_RKNPU2_BFLOAT16)
    throw m.bad(prefix + "dtype", "FLOAT32, FLOAT16, INT8, UINT8, INT16, UINT16, INT32, UINT32, INT64 or BOOL");
  a.dtype = row->type;
  a.n_elems = static_cast<std::uint32_t>(m.number(prefix + "count", 65536 / size));
  a.data = m.hex(prefix + "data", a.n_elems, size);
  return a;
}

int replay_record(const plugin_options& o) {
  if (!o.inputs.empty() || !o.outputs.empty() || !o.attrs.empty() || !o.tensor_type.empty() || o.describe)
    throw usage_error(
        "--replay takes the record's tensors and attributes: no --input, --output, --attr, "
        "--tensor-type or --describe");
  const std::filesystem::path dir = o.replay;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec))
    throw usage_error(
        fmt::format("--replay {}: not a folder (RKNNOP_RECORD's folder, copied from the board)", o.replay));
  const std::vector<std::filesystem::path> manifests = record_manifests(o.replay);

  rknpu2_plugin_runner plugin(o.plugin);
  const rknpu2_plugin_description d = plugin.describe();
  // This build's plugins: the one given and, as rknnop_add_op lays them out (<out>/rknpu2/<arch>/), its
  // siblings for the boards: a record made by the board's plugin of the same build is that build's.
  const std::filesystem::path given(o.plugin);
  std::vector<std::filesystem::path> candidates{given};
  for (const char* arch : {"aarch64", "armhf", "x86_64"})
    if (given.has_parent_path() && given.parent_path().filename() != arch)
      candidates.push_back(given.parent_path().parent_path() / arch / given.filename());
  const described_op names = names_of(d.text);
  rknnop_run::replay_target t;
  t.dir = o.replay;
  t.op_type = d.op_type;
  t.given = o.plugin;
  t.whose = "this plugin's";
  t.build_of = "the plugin";
  t.builds = "plugins";
  t.none_found = o.plugin;
  t.known = build_ids_of(candidates);
  std::vector<rknpu2_tensor> expected, got;  // the call's, compared after `run` returns
  const auto run = [&](const manifest& m, const std::string& stem, bool board_ok) {
    const std::uint64_t n_inputs = m.number("inputs", 256);
    const std::uint64_t n_outputs = m.number("outputs", 256);
    const std::uint64_t n_attrs = m.number("attrs", 4096);
    if (board_ok && n_outputs != names.outputs.size())  // before any .npy is read
      throw m.bad("outputs",
                  fmt::format("{} (the op's outputs: {})", names.outputs.size(), fmt::join(names.outputs, ", ")));
    std::vector<rknpu2_tensor> inputs;
    expected.clear();
    got.clear();
    for (std::size_t k = 0; k < n_inputs; ++k) inputs.push_back(record_tensor(m, stem, "input", k));
    for (std::size_t k = 0; k < n_outputs; ++k) expected.push_back(record_tensor(m, stem, "output", k));
    std::vector<rknpu2_attr> attrs;
    for (std::size_t k = 0; k < n_attrs; ++k) attrs.push_back(record_attr(m, k));
    const std::string* node = m.find("node");
    rknnop_run::replayed_call c;
    // the call is digits (checked by replay_calls), the node goes through terminal_text
    c.label = fmt::format("call {} (node {})", m.get("call"), node ? terminal_text(node->substr(0, 12)) : "?");
    try {
      if (board_ok)
        got = plugin.run(attrs, inputs, static_cast<std::uint32_t>(n_outputs), nullptr, &expected);
      else  // the board's compute failed: it must fail on the PC too
        (void)plugin.run(attrs, inputs, static_cast<std::uint32_t>(names.outputs.size()));
    } catch (const error& e) {
      c.failure = e.detail();
      return c;
    }
    const auto output = [](const rknpu2_tensor& tensor, const rknpu2_tensor& like) {
      const tensor_type_row* row = find_type(tensor.type);
      // A type without a .npy differs from the record's by its name: its dtype is never read.
      const npy_dtype dtype = row && row->npy ? *row->npy : *find_type(like.type)->npy;
      return rknnop_run::replay_output{type_name(tensor.type), dtype,
                                       std::vector<std::size_t>(tensor.dims.begin(), tensor.dims.end()), &tensor.data};
    };
    if (board_ok && got.size() != n_outputs)
      throw error(fmt::format("{}: the node runner returned {} outputs for {}", o.plugin, got.size(), n_outputs));
    for (std::size_t k = 0; k < got.size(); ++k) {
      c.names.push_back(terminal_text(k < names.outputs.size() ? names.outputs[k] : std::to_string(k)));
      c.recorded.push_back(output(expected[k], expected[k]));
      c.pc.push_back(output(got[k], expected[k]));
    }
    return c;
  };
  return rknnop_run::replay_calls(
      t, manifests, [](const manifest&) {}, run);
}

int run_plugin(const plugin_options& o) {
  const std::int32_t type = parse_tensor_type(o.tensor_type);
  const auto input_list = rknnop::tools::parse_assignments("--input", o.inputs, "FILE.npy");
  const auto output_list = rknnop::tools::parse_assignments("--output", o.outputs, "FILE.npy");
  std::vector<rknpu2_attr> attrs;
  for (const std::string& text : o.attrs) {
    rknpu2_attr a = parse_attr(text);
    for (const rknpu2_attr& given : attrs)
      if (given.name == a.name) throw usage_error(fmt::format("--attr '{}' given twice", a.name));
    attrs.push_back(std::move(a));
  }
  for (const auto& [name, file] : output_list) check_output_path(file, fmt::format("--output {}", name));

  rknpu2_plugin_runner plugin(o.plugin);
  const rknpu2_plugin_description d = plugin.describe();
  const std::string op = d.op_type;
  if (o.describe) {
    if (!d.text.empty())
      fmt::print("{}", terminal_lines(d.text));
    else
      fmt::print(
          "op type '{}' (get_rknn_custom_op); the plugin does not describe its tensors and attributes (it "
          "has no rknnop_rknpu2_describe: not built by rknnop, or by rknnop 0.1.0)\n",
          terminal_text(op));
    return 0;
  }
  if (d.text.empty() || !d.has_infer)
    throw error(
        fmt::format("{}: op type '{}': rknnop-run runs plugins built by rknnop (it needs their "
                    "rknnop_rknpu2_describe and rknnop_rknpu2_infer for the tensors' names and the outputs' "
                    "shapes); this plugin lacks {}",
                    o.plugin, op, d.text.empty() ? "rknnop_rknpu2_describe" : "rknnop_rknpu2_infer"));
  const described_op names = names_of(d.text);
  for (const rknpu2_attr& a : attrs)
    if (std::find(names.attributes.begin(), names.attributes.end(), a.name) == names.attributes.end())
      throw usage_error(
          fmt::format("--attr {}: op '{}' has no attribute '{}' (its attributes: {})", a.name, op, a.name,
                      names.attributes.empty() ? "(none)" : fmt::format("{}", fmt::join(names.attributes, ", "))));
  std::vector<std::optional<rknpu2_tensor>> inputs(names.inputs.size());
  for (const auto& [name, file] : input_list) {
    const std::size_t i = find_tensor(names.inputs, "--input", name, "input", op);
    if (inputs[i]) throw usage_error(fmt::format("--input '{}' given twice", names.inputs[i]));
    inputs[i] = input_tensor(names.inputs[i], file, type);
  }
  std::vector<rknpu2_tensor> given;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs[i])
      throw usage_error(fmt::format("--input {}=FILE.npy is missing: op '{}' takes {}", names.inputs[i], op,
                                    fmt::join(names.inputs, ", ")));
    given.push_back(std::move(*inputs[i]));
  }
  std::vector<std::size_t> output_index;
  for (const auto& [name, file] : output_list)
    output_index.push_back(find_tensor(names.outputs, "--output", name, "output", op));

  std::string said;
  const std::vector<rknpu2_tensor> outputs =
      plugin.run(attrs, given, static_cast<std::uint32_t>(names.outputs.size()), &said);
  // What the plugin wrote on stderr (RKNNOP_PROFILE=1's lines), as it would inside librknnrt.
  if (!said.empty()) fmt::print(stderr, "{}", terminal_lines(said));
  fmt::print("{} (RKNPU2 plugin '{}'): init, compute, destroy as librknnrt calls them; inputs {}\n", terminal_text(op),
             terminal_text(o.plugin), type_name(type));
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const rknpu2_tensor& t = outputs[i];
    std::string written;
    for (std::size_t k = 0; k < output_list.size(); ++k) {
      if (output_index[k] != i) continue;
      const tensor_type_row* row = find_type(t.type);
      if (row == nullptr || !row->npy)
        throw error(fmt::format("output '{}' is {}, which no .npy file rknnop writes holds", names.outputs[i],
                                type_name(t.type)));
      npy_array array;
      array.dtype = *row->npy;
      array.shape.assign(t.dims.begin(), t.dims.end());
      array.data = t.data;
      if (array.data.size() != array.element_count() * npy_item_size(array.dtype))
        throw error(fmt::format("output '{}': {} bytes for a {} tensor of shape ({})", names.outputs[i],
                                array.data.size(), row->name, fmt::join(t.dims, ", ")));
      write_npy_file(array, output_list[k].value);
      written += " -> " + output_list[k].value;
    }
    fmt::print("  output '{}': shape ({}) {}{}\n", terminal_text(names.outputs[i]), fmt::join(t.dims, ", "),
               type_name(t.type), terminal_text(written));
  }
  return 0;
}

}  // namespace

namespace rknnop_run {

bool names_rknpu2_plugin(int argc, char** argv) noexcept {
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string_view arg = argv[i];
      if (arg.empty() || arg.front() == '-') continue;
      // Four bytes first: only an ELF file is read whole.
      const int fd = ::open(argv[i], O_RDONLY | O_CLOEXEC | O_NONBLOCK);
      if (fd < 0) continue;
      unsigned char magic[4] = {};
      const bool elf = ::read(fd, magic, 4) == 4 && looks_like_elf(magic);
      ::close(fd);
      if (!elf) continue;
      const std::vector<std::uint8_t> bytes = read_file(argv[i]);
      if (inspect_elf(bytes, argv[i]).find_export("get_rknn_custom_op") != nullptr) return true;
    }
  } catch (...) {}
  return false;
}

int rknpu2_main(int argc, char** argv) {
  CLI::App app{"Run an RKNPU2 custom-op plugin (librkcst_<op>.so) on .npy files the way librknnrt runs a CPU op",
               "rknnop-run"};
  plugin_options o;
  app.add_option("plugin", o.plugin, "The RKNPU2 plugin, librkcst_<op>.so (an ELF exporting get_rknn_custom_op)")
      ->required();
  app.add_option("-i,--input", o.inputs, "NAME=FILE.npy for each input (NCHW, as the ONNX model holds it)");
  app.add_option("-o,--output", o.outputs, "NAME=FILE.npy: write this output");
  app.add_option("--attr", o.attrs,
                 "NAME=[TYPE:]VALUE: a node attribute, TYPE one of ONNX's float, int64, floats, ints (lists as [1,2] "
                 "or 1,2); untyped, an integer is INT, another number FLOAT. Left out: the op's default");
  app.add_option("--tensor-type", o.tensor_type,
                 "The inputs' rknn_tensor_type: FLOAT32 (default, as librknnrt hands a CPU op), FLOAT16, BFLOAT16, "
                 "INT8, UINT8, INT16, UINT16, INT32");
  app.add_option("--replay", o.replay,
                 "DIR: run every call the plugin recorded on the board (RKNNOP_RECORD=DIR) again and compare the "
                 "outputs bit for bit");
  app.add_flag("--describe", o.describe,
               "Print the op type, its tensors and its attributes with their types and defaults");
  rknnop::tools::add_memory_limit_option(app);
  if (const auto status = rknnop::tools::parse_or_exit(app, argc, argv)) return *status;
  std::string stage = "running the RKNPU2 plugin";
  try {
    if (!o.replay.empty()) {
      stage = "replaying the record";
      return replay_record(o);
    }
    return run_plugin(o);
  } catch (const usage_error&) {
    return rknnop::tools::tool_failure("rknnop-run", stage);
  } catch (const error& e) {
    // The plugin's own line, as it prints it inside librknnrt.
    if (e.detail().starts_with("rknnop: ")) {
      (void)std::fflush(stdout);
      fmt::print(stderr, "{}\n", terminal_text(e.detail()));
      return rknnop::tools::exit_failure;
    }
    return rknnop::tools::tool_failure("rknnop-run", stage);
  } catch (...) {
    return rknnop::tools::tool_failure("rknnop-run", stage);
  }
}

}  // namespace rknnop_run

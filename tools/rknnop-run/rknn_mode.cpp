// SPDX-License-Identifier: MIT
// rknnop-run MODEL.rknn --describe | --check | [--node NAME] --input PORT=in.npy ... --output PORT=out.npy
//            [--random-inputs SEED]: the model mode, after main.cpp's one parser.
#include "rknn_mode.hpp"

#include "cli.hpp"  // tools/common: parse_or_exit, tool_failure, usage_error
#include <rknnop/container_format.hpp>
#include <rknnop/host/elf.hpp>
#include <rknnop/host/error.hpp>
#include <rknnop/host/file_io.hpp>
#include <rknnop/host/rknn_session.hpp>
#include <rknnop/host/npy.hpp>
#include <rknnop/host/rknn_model.hpp>
#include <rknnop/vx_type.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <array>
#include <cstdio>
#include <cstdlib>  // setenv (RKNNOP_ALLOW_LOSSY)
#include <filesystem>
#include <random>
#include <string>
#include <vector>

namespace rknnop_run {

namespace {

using namespace rknnop::host;
using namespace rknnop::tools;  // tools/common: usage_error, parse_assignments, ...
using rknnop::vx_type;          // and its queries: <rknnop/vx_type.hpp>
using rknnop::vx_type_name;

std::string shape_text(const std::vector<std::size_t>& shape) {
  return shape.size() == 1 ? fmt::format("({},)", shape[0]) : fmt::format("({})", fmt::join(shape, ", "));
}

std::string tensor_text(const model_port& port, const model& m) {
  if (!port.tensor) {
    const model_node& from = m.nodes.at(static_cast<std::size_t>(*port.from_node));
    return fmt::format("virtual tensor from node {} '{}' output {} (dims not stored in the model)", *port.from_node,
                       from.name, port.from_port);
  }
  const model_tensor& t = *port.tensor;
  return fmt::format("{} {}, dims [{}] (NumPy shape {}), {}, {}{}", t.kind, t.id, fmt::join(t.dims, ", "),
                     shape_text(t.shape()), t.vx_type.empty() ? "no vx_type" : t.vx_type,
                     t.qnt_type.empty() ? "no qnt_type" : t.qnt_type,
                     t.dtype_json.empty() ? "" : ", dtype " + t.dtype_json);
}

// One embedded section: what it holds, for --describe.
std::string blob_text(const model& m, const model_op& op, model_blob_kind kind) {
  const model_blob* b = op.find_blob(kind);
  if (b == nullptr) {
    if (kind == model_blob_kind::lib_armhf)
      return "absent (the format has room for it: the board runtime reads op_lib_armhf_offset/_len for "
             "RV1109/RV1126; the toolkit's demo models carry none; rknnop-pack update adds it)";
    return "absent";
  }
  const auto bytes = m.blob(op, kind);
  std::string where = fmt::format("offset {:>7} size {:>7}  ", b->offset, b->size);
  if (bytes.empty()) return where + "empty";
  if (kind == model_blob_kind::shader)
    return where + (rknnop::container_format::starts_with(bytes, rknnop::container_format::shader_magic)
                        ? "Vivante shader binary (SHDR)"
                        : "unknown data (no SHDR magic)");
  try {
    const elf_info info =
        inspect_elf(bytes, fmt::format("{} op '{}' {}", m.source, op.name, model_blob_description(kind)));
    std::string text = where + info.summary();
    const std::string symbol = kernel_list_symbol(op.name);
    text += info.exports_kernel_list(op.name) ? fmt::format(", exports {}", symbol)
                                              : fmt::format(", does NOT export {}", symbol);
    std::vector<std::string> needs;
    for (const std::string* v : {&info.max_glibc, &info.max_glibcxx, &info.max_cxxabi})
      if (!v->empty()) needs.push_back(*v);
    text += needs.empty() ? std::string(", needs no versioned glibc/libstdc++ symbols")
                          : fmt::format(", needs {}", fmt::join(needs, " "));
    return text;
  } catch (const error& e) {
    return where + "not a usable ELF: " + e.detail();
  }
}

std::string entries_text(const std::vector<op_yml_entry>& entries) {
  if (entries.empty()) return "none";
  std::vector<std::string> parts;
  for (const op_yml_entry& e : entries) {
    std::vector<std::string> names;
    for (const op_yml_enumerator& n : e.enumerators) names.push_back(fmt::format("{}={}", n.name, n.value));
    parts.push_back(fmt::format("{} {}{}", e.name, vx_type_name(e.type),
                                names.empty() ? std::string() : fmt::format(" {{{}}}", fmt::join(names, ", "))));
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

int describe(const model& m) {
  const std::optional<model_blob_kind> host = host_library_blob();
  fmt::print("{}: .rknn model format {}, graph '{}' version {}, {} node(s), {} custom op(s)\n", terminal_text(m.source),
             m.file.version, terminal_text(m.name), m.graph_version.empty() ? "?" : terminal_text(m.graph_version),
             m.nodes.size(), m.ops.size());
  // terminal: sizes only
  fmt::print("  sections: export_data {} B, config {} B", m.file.export_data.size(), m.file.config.size());
  if (m.file.version >= 2)
    // terminal: sizes only
    fmt::print(", custom_op_config {} B, custom_op_data {} B", m.file.custom_op_config.size(),
               m.file.custom_op_data.size());
  // terminal: a size only
  fmt::print("{}\n",
             m.file.trailing.empty() ? std::string() : fmt::format(", {} trailing byte(s)", m.file.trailing.size()));
  for (const std::string& note : m.notes) fmt::print("  note: {}\n", terminal_text(note));
  for (const model_op& op : m.ops) {
    fmt::print("custom op '{}': kernel_index {}\n", terminal_text(op.name),
               op.kernel_index ? fmt::format("{}", *op.kernel_index) : std::string("absent (0)"));
    fmt::print("  inputs:  {}\n  outputs: {}\n  params:  {}\n", terminal_text(entries_text(op.inputs)),
               terminal_text(entries_text(op.outputs)), terminal_text(entries_text(op.params)));
    for (const model_blob_kind kind : all_model_blob_kinds)
      fmt::print("  {:<16} {}\n", model_blob_description(kind), terminal_text(blob_text(m, op, kind)));
    if (host)
      // terminal: the tool's own words
      fmt::print("  library for this host ({}): {}\n", model_blob_description(*host),
                 m.blob(op, *host).empty() ? "MISSING" : "present");
    else
      // terminal: the tool's own words
      fmt::print("  library for this host: none (this host is {})\n", machine_name(host_machine()));
  }
  for (const model_node& node : m.nodes) {
    if (!node.custom_op) {
      fmt::print("node {} '{}' ({}): built-in\n", node.index, terminal_text(node.name), terminal_text(node.op));
      continue;
    }
    const model_op& op = m.ops[*node.custom_op];
    fmt::print("node {} '{}' ({}, custom op {})\n", node.index, terminal_text(node.name), terminal_text(node.op),
               terminal_text(op.name));
    for (const model_param& p : node.params) {
      const auto e = std::find_if(op.params.begin(), op.params.end(),
                                  [&](const op_yml_entry& entry) { return entry.name == p.name; });
      std::string value = p.json;  // an enum's value with its name, when the op description names them
      if (e != op.params.end())
        for (const op_yml_enumerator& n : e->enumerators)
          if (p.json == std::to_string(n.value)) value = fmt::format("{} ({})", n.name, n.value);
      fmt::print("  param {} = {} ({})\n", terminal_text(p.name), terminal_text(value),
                 e != op.params.end() ? vx_type_name(e->type) : "not in the op description");
    }
    for (const auto& [direction, ports, entries] :
         {std::tuple{"input", &node.inputs, &op.inputs}, std::tuple{"output", &node.outputs, &op.outputs}})
      for (const model_port& port : *ports)
        fmt::print("  {} {} '{}': {}\n", direction, port.index,
                   terminal_text(port.index < entries->size() ? (*entries)[port.index].name : std::string("?")),
                   terminal_text(tensor_text(port, m)));
  }
  return 0;
}

// A built-in node's op is a VSI_NN_OP_* name (docs/rknn-model.md §2); a node of any other op that
// the model describes no custom op for has lost its op's description (custom_op_config emptied) or
// names an op the model carries no library for: --check fails, it does not skip the node.
bool is_builtin_op(std::string_view op) { return op.starts_with("VSI_NN_OP_"); }

std::string unknown_op_line(const model& m, const std::vector<std::size_t>& unknown) {
  const model_node& first = m.nodes[unknown.front()];
  std::vector<std::string> described;
  for (const model_op& op : m.ops) described.push_back(fmt::format("'{}'", op.name));
  const std::string others =
      unknown.size() > 1 ? fmt::format(" (and {} more such node(s))", unknown.size() - 1) : std::string();
  return fmt::format(
      "{}: --check failed: node {} '{}' runs op '{}', neither a built-in op (VSI_NN_OP_*) nor a custom op the "
      "model describes{}: {}",
      m.source, first.index, first.name, first.op, others,
      described.empty() ? std::string("custom_op_config describes no op (the custom-op description is gone)")
                        : fmt::format("custom_op_config describes only {}, and the model carries no library for it",
                                      fmt::join(described, ", ")));
}

int check(const model& m) {
  const auto custom = m.custom_nodes();
  std::vector<std::size_t> unknown;
  for (const model_node& node : m.nodes)
    if (!node.custom_op && !is_builtin_op(node.op)) unknown.push_back(node.index);
  if (custom.empty() && unknown.empty()) {
    fmt::print("{}: no custom-op nodes (every node's op is a built-in VSI_NN_OP_*), nothing to check\n",
               terminal_text(m.source));
    return 0;
  }
  std::size_t failed = 0;
  for (const std::size_t i : custom) {
    const model_node_check r = check_model_node(m, m.nodes[i]);
    fmt::print("{}\n", terminal_text(r.line));
    failed += r.passed ? 0 : 1;
  }
  std::fflush(stdout);
  if (!unknown.empty()) {
    fmt::print(stderr, "rknnop-run: {}{}\n", terminal_text(unknown_op_line(m, unknown)),
               failed == 0 ? std::string()
                           : fmt::format("; {} of {} custom-op node(s) failed the check too", failed, custom.size()));
    return 1;
  }
  if (failed == 0) {
    fmt::print("{}: {} custom-op node(s) checked, all pass\n", terminal_text(m.source), custom.size());
    return 0;
  }
  fmt::print(stderr, "rknnop-run: {}: {} of {} custom-op node(s) failed the check\n", terminal_text(m.source), failed,
             custom.size());
  return 1;
}

const model_node& select_node(const model& m, const std::string& name) {
  const auto custom = m.custom_nodes();
  std::vector<std::string> names;
  for (const std::size_t i : custom) names.push_back(fmt::format("'{}'", m.nodes[i].name));
  if (!name.empty()) {
    // A node's index in the graph (as --describe prints it) tells apart nodes of one name.
    std::size_t index = 0;
    const auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), index);
    if (ec == std::errc() && end == name.data() + name.size()) {
      if (index < m.nodes.size() && m.nodes[index].custom_op) return m.nodes[index];
      throw error(fmt::format("{}: --node {}: no custom-op node has that index (custom-op nodes: {})", m.source, name,
                              fmt::join(custom, ", ")));
    }
    const model_node* match = nullptr;
    for (const std::size_t i : custom) {
      if (m.nodes[i].name != name) continue;
      if (match != nullptr)
        throw error(fmt::format("{}: --node '{}': nodes {} and {} have that name; give the index", m.source, name,
                                match->index, i));
      match = &m.nodes[i];
    }
    if (match != nullptr) return *match;
    throw error(fmt::format("{}: --node '{}': no custom-op node of that name (custom-op nodes: {})", m.source, name,
                            names.empty() ? std::string("none") : fmt::format("{}", fmt::join(names, ", "))));
  }
  if (custom.size() == 1) return m.nodes[custom[0]];
  throw error(custom.empty() ? fmt::format("{}: the model has no custom-op node to run", m.source)
                             : fmt::format("{}: {} custom-op nodes ({}); choose one with --node NAME or INDEX",
                                           m.source, custom.size(), fmt::join(names, ", ")));
}

// The port a --input/--output names: its op name or its number.
std::size_t port_index(const std::string& text, const std::vector<op_yml_entry>& entries, std::string_view option,
                       std::string_view op_name) {
  for (std::size_t i = 0; i < entries.size(); ++i)
    if (entries[i].name == text || fmt::format("{}", i) == text) return i;
  std::vector<std::string> names;
  for (std::size_t i = 0; i < entries.size(); ++i) names.push_back(fmt::format("{} ({})", entries[i].name, i));
  throw usage_error(
      fmt::format("{} '{}': op '{}' has no such port (ports: {})", option, text, op_name, fmt::join(names, ", ")));
}

npy_array random_input(std::uint64_t seed, std::size_t port, const model_tensor& t) {
  std::mt19937_64 engine(seed * 1000003u + port);
  npy_array a;
  a.shape = t.shape();
  const std::int32_t type = *t.vx_tensor_type();
  if (type == vx_type::float16 || type == vx_type::float32) {
    std::vector<float> values(a.element_count());
    for (float& v : values) v = static_cast<float>(static_cast<double>(engine() >> 11) * 0x1p-52 - 1.0);  // [-1, 1)
    return npy_array::from_floats(values, a.shape, type == vx_type::float16 ? npy_dtype::float16 : npy_dtype::float32);
  }
  // Integer tensors: small non-negative values (0..15) in the low byte, little-endian.
  // npy_dtype's values are the VX types of the same name (the tensor element types of the one table).
  if (rknnop::vx_type_npy_descr(type).empty())
    throw error(fmt::format("--random-inputs: tensor type {} is not supported", t.vx_type));
  a.dtype = static_cast<npy_dtype>(type);
  const std::size_t size = npy_item_size(a.dtype);
  a.data.resize(a.element_count() * size);
  for (std::size_t i = 0; i < a.element_count(); ++i) a.data[i * size] = static_cast<std::uint8_t>(engine() % 16);
  return a;
}

int run(const model& m, const std::string& node_name, const std::vector<std::string>& input_texts,
        const std::vector<std::string>& output_texts, std::optional<std::uint64_t> seed, std::uint32_t repeat) {
  const auto inputs = parse_assignments("--input", input_texts, "FILE.npy");
  const auto outputs = parse_assignments("--output", output_texts, "FILE.npy");
  const model_node& node = select_node(m, node_name);
  const model_op& op = m.ops[*node.custom_op];
  std::vector<std::optional<std::string>> files(op.inputs.size());
  for (const auto& [port, file] : inputs) files[port_index(port, op.inputs, "--input", op.name)] = file;
  std::vector<std::pair<std::size_t, std::string>> writes;
  for (const auto& [port, file] : outputs) {
    writes.emplace_back(port_index(port, op.outputs, "--output", op.name), file);
    check_output_path(file, fmt::format("--output {}", port));  // before anything runs (docs/container.md §5)
  }

  session s = load_model_op(m, op, std::nullopt, node.name);
  const std::vector<std::int32_t> input_types = prepare_model_node(s, m, node);
  for (std::size_t i = 0; i < op.inputs.size(); ++i) {
    const model_tensor& t = *node.inputs[i].tensor;
    if (!files[i] && !seed)
      throw usage_error(
          fmt::format("node '{}': input {} ('{}') needs --input {}=FILE.npy (NumPy shape {}) or "
                      "--random-inputs SEED",
                      node.name, i, op.inputs[i].name, op.inputs[i].name, shape_text(t.shape())));
    const npy_array data = files[i] ? read_npy_file(*files[i]) : random_input(*seed, i, t);
    if (data.shape != t.shape())
      throw error(fmt::format("node '{}': input {} ('{}'): {} has NumPy shape {}, the model's tensor is {} (dims [{}])",
                              node.name, i, op.inputs[i].name, files[i] ? *files[i] : std::string("the random input"),
                              shape_text(data.shape), shape_text(t.shape()), fmt::join(t.dims, ", ")));
    s.set_input(op.inputs[i].name, data, static_cast<vx_type>(input_types[i]));
  }
  const run_report report = s.run();
  fmt::print("{}: node '{}' (op {}, kernel '{}', kernel_index {})\n", terminal_text(m.source), terminal_text(node.name),
             terminal_text(op.name), terminal_text(s.kernel().name), s.kernel().kernel_index);
  for (const step_report& step : report.steps) {
    if (!step.called)
      fmt::print("  {:<13} not called (no callback)\n", terminal_text(step.step));
    else
      fmt::print("  {:<13} {}{}{}\n", terminal_text(step.step), vx_status_text(step.status),
                 step.log.empty() ? "" : "  log: ", terminal_text(fmt::format("{}", fmt::join(step.log, "; "))));
  }
  if (repeat != 0) print_timing(s, repeat);
  for (const auto& [port, file] : writes) {
    const tensor_result& r = s.output(op.outputs[port].name);
    write_npy_file(r.array, file);
    fmt::print("  output {} '{}': shape {} {} -> {}\n", port, terminal_text(op.outputs[port].name), shape_text(r.shape),
               vx_type_name(r.vx_type), terminal_text(file));
  }
  return 0;
}

}  // namespace

namespace {

// True when the file starts like what the op mode reads: a .rknnop container, whose 8-byte magic is
// the .rknn model's too (rknn_model_magic; is_rknn_model_file, asked first, tells the two apart by the
// section after the header), or a kernel library (an ELF header).
bool starts_like_an_op(const char* path) noexcept {
  std::array<char, 8> head{};
  std::FILE* file = std::fopen(path, "rb");
  if (file == nullptr) return false;
  const std::size_t got = std::fread(head.data(), 1, head.size(), file);
  std::fclose(file);
  const std::string_view bytes(head.data(), got);
  return bytes == rknn_model_magic || bytes.starts_with(
                                          "\x7f"
                                          "ELF");
}

}  // namespace

bool is_model_path(const std::string& path) noexcept {
  // By the bytes. A file named .rknn that is neither a container nor a library (missing, empty,
  // truncated, another format) is a model too, for the model reader's message.
  if (path.empty()) return false;
  if (is_rknn_model_file(path)) return true;
  return path.ends_with(".rknn") && !starts_like_an_op(path.c_str());
}

int model_main(const rknnop::tools::shared_options& shared, const model_options& options) {
  // Read by the PC kernel library when it converts an output (docs/running.md §1).
  if (shared.allow_lossy) setenv("RKNNOP_ALLOW_LOSSY", "1", 1);
  try {
    if (shared.describe && options.check) throw usage_error("--describe and --check: give one of them");
    if ((shared.describe || options.check) &&
        (!shared.inputs.empty() || !shared.outputs.empty() || options.random_inputs || shared.repeat != 0))
      throw usage_error(
          "--input/--output/--random-inputs/--repeat run a node; they do not go with --describe or --check");
    const model m = model::read(shared.op);
    if (shared.describe) return describe(m);
    if (options.check) return check(m);
    return run(m, options.node, shared.inputs, shared.outputs, options.random_inputs, shared.repeat);
  } catch (...) {
    return rknnop::tools::tool_failure("rknnop-run");
  }
}

}  // namespace rknnop_run

// SPDX-License-Identifier: MIT
#include "rknn_update.hpp"

#include "cli.hpp"  // tools/common: parse_or_exit, tool_failure, usage_error
#include <rknnop/host/container.hpp>
#include <rknnop/host/npy.hpp>
#include <rknnop/host/param_value.hpp>
#include <rknnop/host/elf.hpp>
#include <rknnop/host/error.hpp>
#include <rknnop/host/file_io.hpp>
#include <rknnop/host/memory_budget.hpp>
#include <rknnop/host/rknn_container.hpp>
#include <rknnop/host/op_yml.hpp>
#include <rknnop/host/rknn_model.hpp>
#include <rknnop/host/validate.hpp>
#include <rknnop/vx_type.hpp>
#if RKNNOP_HOST_HAS_SESSION
#include <rknnop/host/rknn_session.hpp>
#endif

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdlib>  // setenv (RKNNOP_ALLOW_LOSSY)
#include <filesystem>
#include <initializer_list>
#include <optional>
#include <tuple>
#include <vector>

namespace rknnop_pack {

namespace {

using namespace rknnop::host;
using namespace rknnop::tools;  // tools/common: usage_error, parse_assignments, ...

#if RKNNOP_HOST_HAS_SESSION
constexpr bool can_infer_shapes = true;  // wrap runs the op's shape inference for outputs not given
#else
constexpr bool can_infer_shapes = false;
#endif

std::string_view text_of(const std::vector<std::uint8_t>& bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

std::string entries_text(const std::vector<op_yml_entry>& entries) {
  std::vector<std::string> parts;
  for (const op_yml_entry& e : entries) parts.push_back(fmt::format("{} {}", e.name, rknnop::vx_type_name(e.type)));
  return parts.empty() ? std::string("none") : fmt::format("{}", fmt::join(parts, ", "));
}

const model_op& select_op(const model& m, const std::string& name, std::string_view hint) {
  if (!name.empty()) {
    if (const model_op* op = m.find_op(name)) return *op;
  } else if (m.ops.size() == 1) {
    return m.ops[0];
  }
  std::vector<std::string> names;
  for (const model_op& op : m.ops) names.push_back(op.name);
  throw error(fmt::format(
      "{}: {} (custom ops in the model: {})", m.source,
      name.empty() ? fmt::format("{} custom ops; {}", m.ops.size(), hint) : fmt::format("no custom op '{}'", name),
      names.empty() ? std::string("none") : fmt::format("{}", fmt::join(names, ", "))));
}

// The container's op.yml must describe the op as the model does: the model keeps its description and
// its nodes' params (bound by name), so params must agree in name, type and order. Ports are bound by
// position (docs/runtime.md: the graph's connection list), so only their count and types must agree;
// other port names are reported. Returns the notes to print.
std::vector<std::string> check_same_op(const model& m, const model_op& op, const op_yml& yml,
                                       const std::string& container) {
  const std::string head = fmt::format("{}: refusing to update op '{}' from {}", m.source, op.name, container);
  if (yml.name != op.name) throw error(fmt::format("{}: the container's op is '{}'", head, yml.name));
  // The op.yml's rknnop-field extras (defaults, accepted dtypes: docs/op-yml.md §6) are not in a model's
  // description: names, types and order are what the nodes' params are bound by.
  const auto same_name_and_type = [](const op_yml_entry& a, const op_yml_entry& b) {
    return a.name == b.name && a.type == b.type;
  };
  if (op.params.size() != yml.params.size() ||
      !std::equal(op.params.begin(), op.params.end(), yml.params.begin(), same_name_and_type))
    throw error(fmt::format("{}: params differ: the model's op description has {}, the container's op.yml {}", head,
                            entries_text(op.params), entries_text(yml.params)));
  std::vector<std::string> notes;
  for (const auto& [what, mine, theirs] :
       {std::tuple{"inputs", &op.inputs, &yml.inputs}, std::tuple{"outputs", &op.outputs, &yml.outputs}}) {
    const bool same_types = mine->size() == theirs->size() &&
                            std::equal(mine->begin(), mine->end(), theirs->begin(),
                                       [](const op_yml_entry& a, const op_yml_entry& b) { return a.type == b.type; });
    if (!same_types)
      throw error(fmt::format("{}: {} differ: the model's op description has {}, the container's op.yml {}", head, what,
                              entries_text(*mine), entries_text(*theirs)));
    if (!std::equal(mine->begin(), mine->end(), theirs->begin(), same_name_and_type))
      notes.push_back(
          fmt::format("{} are named {} in the model and {} in the container; the board binds them by "
                      "position, the model's names are kept",
                      what, entries_text(*mine), entries_text(*theirs)));
  }
  if (yml.kernel_index.value_or(0) != op.kernel_index.value_or(0))
    throw error(fmt::format("{}: kernel_index differs: the model's op description has {}, the container's op.yml {}",
                            head, op.kernel_index.value_or(0), yml.kernel_index.value_or(0)));
  return notes;
}

int run_update(const std::string& model_path, const std::string& container_path, const std::string& out,
               const std::string& op_name) {
  const std::vector<std::uint8_t> original = read_model_bytes(model_path);
  const model m = model::parse(original, model_path);
  const container c = read_container_file(container_path);
  op_yml yml = parse_op_yml(text_of(c.op_yml), container_path + " (op.yml section)");
  if (!c.op_py.empty()) apply_python_port_order(yml, text_of(c.op_py), "the .py section");
  // What pack and `inspect --verify` refuse in a library, update refuses to write into a model: the
  // same checks of every library the container holds, one line per problem.
  if (const std::vector<std::string> problems = library_problems(c, yml, container_path); !problems.empty()) {
    for (const std::string& p : problems)
      fmt::print(stderr, "rknnop-pack: update: refusing to update op '{}' in {}: {}\n", terminal_text(yml.name),
                 terminal_text(model_path), terminal_text(p));
    return 1;
  }
  const model_op& op = select_op(m, op_name.empty() ? yml.name : op_name, "name one with --op");
  std::vector<std::string> notes = check_same_op(m, op, yml, container_path);

  std::vector<std::pair<model_blob_kind, std::vector<std::uint8_t>>> blobs;
  const auto take = [&](model_blob_kind kind, const std::vector<std::uint8_t>& fresh) {
    const bool model_has = !m.blob(op, kind).empty();
    if (!fresh.empty() && kind != model_blob_kind::shader) {  // a library for the wrong machine would not load
      const std::uint16_t machine = kind == model_blob_kind::lib_x86_64    ? elf_machine::x86_64
                                    : kind == model_blob_kind::lib_aarch64 ? elf_machine::aarch64
                                                                           : elf_machine::arm;
      const elf_info info = inspect_elf(fresh, fmt::format("{} ({})", container_path, model_blob_description(kind)));
      if (info.machine != machine || !info.is_shared_object())
        throw error(
            fmt::format("{}: refusing to update op '{}': the container's {} is an {}, expected a shared object "
                        "for {}",
                        m.source, op.name, model_blob_description(kind), info.summary(), machine_name(machine)));
    }
    if (!fresh.empty()) {
      blobs.emplace_back(kind, fresh);
      return;
    }
    if (!model_has) return;
    if (kind == model_blob_kind::shader && op.kernel_index.value_or(0) == 0) {
      notes.emplace_back("kept the model's shader: the container has none, and kernel_index 0 never reads it");
      return;
    }
    throw error(
        fmt::format("{}: refusing to update op '{}': {} has no {} but the model's op has one ({} bytes); "
                    "an update would drop it",
                    m.source, op.name, container_path, model_blob_description(kind), m.blob(op, kind).size()));
  };
  take(model_blob_kind::shader, c.shader);
  take(model_blob_kind::lib_x86_64, c.lib_x86_64);
  take(model_blob_kind::lib_aarch64, c.lib_aarch64);
  take(model_blob_kind::lib_armhf, c.lib_armhf);

  const model_file updated = replace_op_blobs(m, op.name, blobs, yml.params);
  const std::vector<std::uint8_t> bytes = updated.serialize();
  const model written = model::parse(bytes, out);  // what we write must read back
#if RKNNOP_HOST_HAS_SESSION
  // The new library must fit every node of the op: its table, the params, the model's dims.
  std::size_t nodes = 0;
  for (const model_node& node : written.nodes) {
    if (!node.custom_op || written.ops[*node.custom_op].name != op.name) continue;
    const model_node_check r = check_model_node(written, node);
    if (!r.passed)
      throw error(fmt::format("{}: refusing to update op '{}' from {}: {}", m.source, op.name, container_path, r.line));
    ++nodes;
  }
  if (nodes == 0)
    throw error(
        fmt::format("{}: refusing to update op '{}' from {}: no node of the model runs it, so nothing "
                    "checks the new library against a node's params and dims",
                    m.source, op.name, container_path));
#else
  const std::size_t nodes = 0;
#endif
  write_file_atomically(out, bytes);
  fmt::print("{}: op '{}' updated from {} ({} node(s) checked against its library): {} bytes{}\n", terminal_text(out),
             terminal_text(op.name), terminal_text(container_path), nodes, bytes.size(),
             bytes == original ? ", identical to the input" : "");
  for (const std::string& note : notes) fmt::print("  note: {}\n", terminal_text(note));
  return 0;
}

int run_extract(const std::string& model_path, const std::string& out, const std::string& op_name) {
  check_output_is_not_input(out, {&model_path});
  const model m = model::read(model_path);
  const model_op& op = select_op(m, op_name, "name one with --op");
  write_container_file(model_op_container(m, op), out);
  fmt::print("{}: op '{}' from {} (the model carries no .py; op.yml made from its op description)\n",
             terminal_text(out), terminal_text(op.name), terminal_text(model_path));
  return 0;
}

// A one-node model around the container's op; output dims from the op's own shape inference
// unless given.
int run_wrap(const std::string& container_path, const std::string& out, const std::vector<std::string>& input_texts,
             const std::vector<std::string>& output_texts, const std::vector<std::string>& param_texts) {
  check_output_is_not_input(out, {&container_path});
  const container c = read_container_file(container_path);
  op_yml yml = parse_op_yml(text_of(c.op_yml), container_path + " (op.yml section)");
  if (!c.op_py.empty()) apply_python_port_order(yml, text_of(c.op_py), "the .py section");
  // A model is for an RKNN v1 board, whose rknn_outputs_get cannot return such an output.
  if (const std::vector<std::string> problems = v1_graph_edge_problems(yml); !problems.empty())
    throw error(fmt::format("op '{}': {}", yml.name, problems.front()));
  // A float16 param: the model is still written (the param's type is the op's), and runs and --check
  // refuse its node, as the board's rknn_init does.
  for (const std::string& line : v1_param_problems(yml))
    fmt::print(stderr, "rknnop-pack: warning: op '{}': {}\n", terminal_text(yml.name), terminal_text(line));
  const auto shapes = [&](std::string_view option, const std::vector<std::string>& texts, op_entry_kind kind,
                          bool required) {
    const std::vector<op_yml_entry>& ports = kind == op_entry_kind::input ? yml.inputs : yml.outputs;
    std::vector<std::optional<std::vector<std::size_t>>> by_port(ports.size());
    for (const auto& [name, text] : parse_assignments(option, texts, "1,32,32,3")) {
      const op_yml_entry& port = find_option_entry(yml, kind, option, name);
      by_port[static_cast<std::size_t>(&port - ports.data())] = parse_numpy_shape(option, name, text, "1,32,32,3");
    }
    for (std::size_t i = 0; required && i < ports.size(); ++i)
      if (!by_port[i])
        throw usage_error(fmt::format("{} {}=1,32,32,3 is needed for port '{}'", option, ports[i].name, ports[i].name));
    return by_port;
  };
  const auto inputs = shapes("--input-shape", input_texts, op_entry_kind::input, true);
  auto outputs = shapes("--output-shape", output_texts, op_entry_kind::output, !can_infer_shapes);
  // The shape inference runs the op on zeros: the float16 inputs, the run's tensors of them and of the
  // outputs it infers (4.7 GB for a 1x16384x16384x1 input before this check: about 16 bytes an element).
  constexpr std::uint64_t wrap_bytes_per_element = 16;
  std::uint64_t run_bytes = 0;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    std::uint64_t elements = 1;
    for (const std::size_t d : *inputs[i])
      elements = d != 0 && elements > (std::uint64_t{1} << 62) / d ? std::uint64_t{1} << 62 : elements * d;
    run_bytes = std::min<std::uint64_t>(run_bytes + wrap_bytes_per_element * elements, std::uint64_t{1} << 62);
    check_memory(run_bytes, fmt::format("wrap: --input-shape {}={}", yml.inputs[i].name, fmt::join(*inputs[i], ",")));
  }
  std::vector<decoded_param> params;
  for (const auto& [name, text] : parse_assignments("--param", param_texts, "VALUE")) {
    const op_yml_entry& e = find_option_entry(yml, op_entry_kind::param, "--param", name);
    params.push_back({name, parse_param_value(e, text)});  // as rknnop-run and the session read it
  }
  for (const op_yml_entry& e : yml.params)
    if (std::none_of(params.begin(), params.end(), [&](const decoded_param& p) { return p.name == e.name; })) {
      auto value = default_param_value(e);
      if (!value)
        throw usage_error(fmt::format("--param {}=VALUE is needed ({}, the op gives no default)", e.name,
                                      rknnop::vx_type_name(e.type)));
      params.push_back({e.name, *std::move(value)});
    }
#if RKNNOP_HOST_HAS_SESSION
  if (std::any_of(outputs.begin(), outputs.end(), [](const auto& o) { return !o; })) {
    // Only the outputs' shapes are read: the PC library's precision rule for outputs (docs/running.md
    // §1) is for their values, which wrap does not keep; it reads this when it runs the node.
    setenv("RKNNOP_ALLOW_LOSSY", "1", 1);
    session s = session::load(container_path);
    for (std::size_t i = 0; i < yml.inputs.size(); ++i) {
      npy_array zeros;
      zeros.dtype = npy_dtype::float16;
      zeros.shape = *inputs[i];
      zeros.data.assign(zeros.element_count() * npy_item_size(zeros.dtype), 0);
      s.set_input(yml.inputs[i].name, zeros);
    }
    for (const decoded_param& p : params) s.set_param(p.name, p.value);
    (void)s.run();
    for (std::size_t i = 0; i < outputs.size(); ++i)
      if (!outputs[i]) outputs[i] = s.output(yml.outputs[i].name).shape;
  }
#endif
  std::vector<std::vector<std::uint32_t>> input_dims, output_dims;
  for (const auto& shape : inputs) input_dims.push_back(to_openvx_dims(*shape));
  for (const auto& shape : outputs) output_dims.push_back(to_openvx_dims(*shape));
  std::vector<std::pair<model_blob_kind, std::vector<std::uint8_t>>> blobs;
  for (const auto& [kind, bytes] :
       {std::pair{model_blob_kind::shader, &c.shader}, std::pair{model_blob_kind::lib_x86_64, &c.lib_x86_64},
        std::pair{model_blob_kind::lib_aarch64, &c.lib_aarch64}, std::pair{model_blob_kind::lib_armhf, &c.lib_armhf}})
    if (!bytes->empty() || kind == model_blob_kind::shader)
      blobs.emplace_back(kind, *bytes);  // as the toolkit: always a shader pair
  const std::vector<std::uint8_t> bytes = wrap_op_as_model(yml, blobs, input_dims, output_dims, params).serialize();
  (void)model::parse(bytes, out);  // what we write must read back
  write_file_atomically(out, bytes);
  fmt::print("{}: a one-node model around op '{}' from {} ({} bytes)\n", terminal_text(out), terminal_text(yml.name),
             terminal_text(container_path), bytes.size());
  return 0;
}

}  // namespace

void check_output_is_not_input(const std::string& out, std::initializer_list<const std::string*> inputs) {
  for (const std::string* in : inputs) {
    if (in->empty()) continue;
    std::error_code ec;
    if (out == *in || std::filesystem::equivalent(out, *in, ec))
      throw error(fmt::format("--output '{}' is the input '{}'; write to another file", out, *in));
  }
}

model_commands::model_commands(CLI::App& app) {
  update_ = app.add_subcommand("update", "Replace a custom op's shader and libraries inside a .rknn model");
  update_->add_option("model", model_, ".rknn model")->required();
  update_->add_option("container", container_, "The rebuilt op's .rknnop")->required();
  update_->add_option("-o,--output", output_, "The new .rknn model")->required();
  update_->add_option("--op", op_, "The op to replace (default: the container's op name)");
  extract_ = app.add_subcommand("extract", "Write a custom op embedded in a .rknn model as a .rknnop");
  extract_->add_option("model", model_, ".rknn model")->required();
  extract_->add_option("-o,--output", output_, "The .rknnop to write")->required();
  extract_->add_option("--op", op_, "The op (default: the only one)");
  wrap_ = app.add_subcommand("wrap", "Write a one-node .rknn model around a .rknnop's op (to try --check)");
  wrap_->add_option("container", container_, "The op's .rknnop")->required();
  wrap_->add_option("-o,--output", output_, "The .rknn model to write")->required();
  wrap_->add_option("--input-shape", input_shapes_, "NAME=1,32,32,3: each input's NumPy shape")->required();
  wrap_->add_option("--output-shape", output_shapes_, "NAME=1,64,64,3 (default: the op's shape inference)");
  wrap_->add_option("-p,--param", params_, "NAME=VALUE for each param (arrays as 64,64)");
}

bool model_commands::parsed() const { return update_->parsed() || extract_->parsed() || wrap_->parsed(); }

int model_commands::run() const {
  if (update_->parsed()) return run_update(model_, container_, output_, op_);
  if (wrap_->parsed()) return run_wrap(container_, output_, input_shapes_, output_shapes_, params_);
  return run_extract(model_, output_, op_);
}

}  // namespace rknnop_pack

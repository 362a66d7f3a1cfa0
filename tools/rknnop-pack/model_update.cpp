// SPDX-License-Identifier: MIT
#include "model_update.hpp"

#include <rknnop/host/container.hpp>
#include <rknnop/host/elf.hpp>
#include <rknnop/host/error.hpp>
#include <rknnop/host/file_io.hpp>
#include <rknnop/host/op_yml.hpp>
#include <rknnop/host/rknn_model.hpp>
#include <rknnop/host/vx_type.hpp>
#if RKNNOP_HOST_HAS_SESSION
#include <rknnop/host/model_session.hpp>
#endif

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <tuple>
#include <vector>

namespace rknnop_pack {

namespace {

using namespace rknnop::host;

std::string_view text_of(const std::vector<std::uint8_t>& bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

std::string entries_text(const std::vector<op_yml_entry>& entries) {
  std::vector<std::string> parts;
  for (const op_yml_entry& e : entries) parts.push_back(fmt::format("{} {}", e.name, vx_type_name(e.type)));
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
  if (op.params != yml.params)
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
    if (*mine != *theirs)
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

  const model_file updated = replace_op_blobs(m, op.name, blobs);
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
#else
  const std::size_t nodes = 0;
#endif
  write_file_atomically(out, bytes);
  fmt::print("{}: op '{}' updated from {} ({} node(s) checked against its library): {} bytes{}\n", out, op.name,
             container_path, nodes, bytes.size(), bytes == original ? ", identical to the input" : "");
  for (const std::string& note : notes) fmt::print("  note: {}\n", note);
  return 0;
}

int run_extract(const std::string& model_path, const std::string& out, const std::string& op_name) {
  const model m = model::read(model_path);
  const model_op& op = select_op(m, op_name, "name one with --op");
  container c;
  c.version = 2;
  const auto copy = [&](model_blob_kind kind, std::vector<std::uint8_t>& to) {
    const auto bytes = m.blob(op, kind);
    to.assign(bytes.begin(), bytes.end());
  };
  copy(model_blob_kind::shader, c.shader);
  copy(model_blob_kind::lib_x86_64, c.lib_x86_64);
  copy(model_blob_kind::lib_aarch64, c.lib_aarch64);
  copy(model_blob_kind::lib_armhf, c.lib_armhf);
  const std::string yml = op.op_yml_text();
  c.op_yml.assign(yml.begin(), yml.end());
  write_container_file(c, out);
  fmt::print("{}: op '{}' from {} (the model carries no .py; op.yml made from its op description)\n", out, op.name,
             model_path);
  return 0;
}

}  // namespace

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
}

bool model_commands::parsed() const { return update_->parsed() || extract_->parsed(); }

int model_commands::run() const {
  if (update_->parsed()) return run_update(model_, container_, output_, op_);
  return run_extract(model_, output_, op_);
}

}  // namespace rknnop_pack

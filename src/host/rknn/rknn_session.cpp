// SPDX-License-Identifier: MIT
#include "rknnop/host/rknn_session.hpp"

#include "rknnop/host/container.hpp"
#include "rknnop/host/elf.hpp"
#include "rknnop/host/error.hpp"
#include "rknnop/host/file_io.hpp"
#include "rknnop/host/memory_budget.hpp"
#include "rknnop/host/rknn_container.hpp"
#include <rknnop/vx_type.hpp>

#include <cstdlib>
#include <cstring>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace rknnop::host {

namespace {

constexpr std::uint64_t max_tensor_elements = std::uint64_t{1} << 28;  // 512 MiB of float16

// The npy dtype of each tensor type the session creates (as session.cpp maps them): npy_dtype's values
// are the VX types of the same name, the tensor element types of the one table.
std::optional<npy_dtype> npy_dtype_for_vx(std::int32_t vx) {
  if (vx_type_npy_descr(vx).empty()) return std::nullopt;
  return static_cast<npy_dtype>(vx);
}

std::string dims_text(const std::vector<std::uint32_t>& dims) {
  return fmt::format("[{}] (rank {})", fmt::join(dims, ", "), dims.size());
}

const model_tensor& port_tensor(const model& m, const model_node& node, std::string_view direction,
                                const model_port& port, const op_yml_entry& entry) {
  if (!port.tensor)
    throw error(
        fmt::format("{}: node '{}': {} {} ('{}') comes from node {}'s output {} (a virtual tensor): the model "
                    "does not store its dims",
                    m.source, node.name, direction, port.index, entry.name, *port.from_node, port.from_port));
  const model_tensor& t = *port.tensor;
  if (t.quantized())
    throw error(
        fmt::format("{}: node '{}': {} {} ('{}') is quantized ({}); rknnop runs custom-op tensors unquantized, "
                    "as the toolkit makes them",
                    m.source, node.name, direction, port.index, entry.name, t.qnt_type));
  // The model's dims size the buffers made here: refuse what no PC run needs before allocating it.
  std::uint64_t elements = 1;
  for (const std::uint32_t d : t.dims)
    elements = d == 0 || elements <= max_tensor_elements / d ? elements * d : max_tensor_elements + 1;
  if (elements > max_tensor_elements)
    throw error(fmt::format(
        "{}: node '{}': {} {} ('{}') has dims [{}]: more than the {} elements rknnop runs on the PC", m.source,
        node.name, direction, port.index, entry.name, fmt::join(t.dims, ", "), max_tensor_elements));
  if (!t.vx_tensor_type() || !npy_dtype_for_vx(*t.vx_tensor_type()))
    throw error(fmt::format("{}: node '{}': {} {} ('{}') has dtype.vx_type '{}', which rknnop cannot create", m.source,
                            node.name, direction, port.index, entry.name, t.vx_type));
  // A port's model tensor (not a virtual one) is a graph input or output, which RKNN v1's runtime
  // takes and returns only in rknn_api.h's types (docs/rknn-model.md §8, docs/board-rules.md).
  if (!v1_graph_edge_type(t.vx_type))
    throw error(
        fmt::format("{}: node '{}': {} {} ('{}') is a {} graph {}: {} on RKNN v1 boards; add rknnop::float16 "
                    "to its dtypes",
                    m.source, node.name, direction, port.index, entry.name, t.vx_type, direction,
                    direction == "output" ? "rknn_outputs_get cannot return it" : "rknn_inputs_set cannot take it"));
  // The run's tensors together are the engine's to count; one alone already over the budget is
  // refused here, before the zeros or the copies of it are made.
  check_memory(elements * vx_tensor_element_size(*t.vx_tensor_type()),
               fmt::format("{}: node '{}': {} {} ('{}') of dims [{}] {}", m.source, node.name, direction, port.index,
                           entry.name, fmt::join(t.dims, ", "), t.vx_type));
  return t;
}

void check_port_counts(const model& m, const model_node& node, const model_op& op) {
  for (const auto& [direction, ports, entries] :
       {std::tuple{"input", &node.inputs, &op.inputs}, std::tuple{"output", &node.outputs, &op.outputs}}) {
    if (ports->size() != entries->size()) {
      std::vector<std::string> names;
      for (const op_yml_entry& e : *entries) names.push_back(e.name);
      throw error(fmt::format("{}: node '{}': {} {} port(s) connected, op '{}' declares {} ({})", m.source, node.name,
                              ports->size(), direction, op.name, entries->size(), fmt::join(names, ", ")));
    }
  }
}

}  // namespace

std::optional<model_blob_kind> host_library_blob() noexcept {
  switch (host_machine()) {
    case elf_machine::x86_64: return model_blob_kind::lib_x86_64;
    case elf_machine::aarch64: return model_blob_kind::lib_aarch64;
    case elf_machine::arm: return model_blob_kind::lib_armhf;
    default: return std::nullopt;
  }
}

session load_model_op(const model& m, const model_op& op, std::optional<std::uint32_t> kernel_index,
                      std::string_view node_name) {
  const std::string label = fmt::format("{}: op '{}'", m.source, op.name);
  const std::optional<model_blob_kind> kind = host_library_blob();
  if (!kind)
    throw error(fmt::format("{}: a model holds libraries for x86-64, aarch64 and armhf only; this host is {}", label,
                            machine_name(host_machine())));
  if (m.blob(op, *kind).empty())
    throw error(fmt::format("{}: the model has no {} for this host ({}_offset/_len {})", label,
                            model_blob_description(*kind), model_blob_key(*kind),
                            op.find_blob(*kind) ? "give 0 bytes" : "absent"));
  load_options options;
  options.kernel_index = kernel_index;
  options.origin = fmt::format("{}model {}, {} section", node_name.empty() ? "" : fmt::format("node '{}', ", node_name),
                               m.source, model_blob_description(*kind));
  // The op's container, made in memory and labelled with the model and the op: the loader's one door.
  return session::load(op_source{serialize_container(model_op_container(m, op)), label, std::nullopt}, options);
}

std::vector<std::int32_t> prepare_model_node(session& s, const model& m, const model_node& node) {
  const model_op& op = m.ops.at(*node.custom_op);
  check_port_counts(m, node, op);
  std::vector<std::int32_t> input_types;
  for (std::size_t i = 0; i < node.inputs.size(); ++i)
    input_types.push_back(*port_tensor(m, node, "input", node.inputs[i], op.inputs[i]).vx_tensor_type());
  for (std::size_t i = 0; i < node.outputs.size(); ++i) {
    const model_tensor& t = port_tensor(m, node, "output", node.outputs[i], op.outputs[i]);
    s.set_output_shape(op.outputs[i].name, t.shape(), static_cast<vx_type>(*t.vx_tensor_type()));
  }
  for (const decoded_param& p : decode_node_params(m, node)) s.set_param(p.name, p.value);
  return input_types;
}

model_node_check check_model_node(const model& m, const model_node& node) {
  model_node_check result;
  const std::string head =
      fmt::format("node '{}' ({})", node.name, node.custom_op ? m.ops[*node.custom_op].name : node.op);
  try {
    if (!node.custom_op) throw error(fmt::format("op {} is not a custom op of this model", node.op));
    const model_op& op = m.ops[*node.custom_op];
    check_port_counts(m, node, op);
    std::vector<const model_tensor*> inputs, outputs;
    for (std::size_t i = 0; i < node.inputs.size(); ++i)
      inputs.push_back(&port_tensor(m, node, "input", node.inputs[i], op.inputs[i]));
    for (std::size_t i = 0; i < node.outputs.size(); ++i)
      outputs.push_back(&port_tensor(m, node, "output", node.outputs[i], op.outputs[i]));
    const std::vector<decoded_param> params = decode_node_params(m, node);

    // The table of the kernel the board selects; a shader kernel cannot run here, so its node is
    // validated through the CPU kernel (index 0) of the same list, as the line says.
    const session selected = load_model_op(m, op, std::nullopt, node.name);
    const bool shader = selected.kernel().is_shader;
    const std::optional<std::uint32_t> run_index = shader ? std::optional<std::uint32_t>(0) : std::nullopt;
    const auto set_inputs_and_params = [&](session& s) {
      for (std::size_t i = 0; i < inputs.size(); ++i) {
        npy_array zeros;
        zeros.dtype = *npy_dtype_for_vx(*inputs[i]->vx_tensor_type());
        zeros.shape = inputs[i]->shape();
        zeros.data.assign(zeros.element_count() * npy_item_size(zeros.dtype), 0);
        s.set_input(op.inputs[i].name, zeros, static_cast<vx_type>(*inputs[i]->vx_tensor_type()));
      }
      for (const decoded_param& p : params) s.set_param(p.name, p.value);
    };
    // First the op's own shape inference (virtual outputs), compared with the model's dims.
    bool inferred = true;
    std::optional<error> other_dims;  // the first output whose inferred dims are not the model's
    {
      session s = load_model_op(m, op, run_index, node.name);
      set_inputs_and_params(s);
      try {
        (void)s.run();
      } catch (const error& e) {
        if (e.detail().find("virtual tensor of unknown shape or type") == std::string::npos) throw;
        inferred = false;  // the validator sets no output meta: the board's tensors keep the model's dims
      }
      for (std::size_t i = 0; inferred && i < outputs.size(); ++i) {
        const tensor_result& r = s.output(op.outputs[i].name);
        if (r.dims != outputs[i]->dims && !other_dims)
          other_dims = error(fmt::format("output {} ('{}'): the op's shape inference gives dims {}, the model has {}",
                                         i, op.outputs[i].name, dims_text(r.dims), dims_text(outputs[i]->dims)));
        if (r.vx_type != *outputs[i]->vx_tensor_type())
          throw error(fmt::format("output {} ('{}'): the op's validator gives type {}, the model has {}", i,
                                  op.outputs[i].name, vx_type_name(r.vx_type), outputs[i]->vx_type));
      }
    }
    // Other dims may be the same tensor by the SDK's one rank rule (a rank-3 [h, w, c] is NHWC with
    // batch 1 for a layout-tagged tensor): the op's own validator, given the model's dims as the board
    // gives them, decides, exactly as it does on the board.
    bool same_by_rank_rule = false;
    if (other_dims) {
      try {
        session s = load_model_op(m, op, run_index);
        (void)prepare_model_node(s, m, node);
        set_inputs_and_params(s);
        (void)s.run();
      } catch (const error&) {
        throw *other_dims;
      }
      same_by_rank_rule = true;
    }
    // Without shape inference, run it as the board does: outputs are tensors of the model's dims.
    if (!inferred) {
      session s = load_model_op(m, op, run_index, node.name);
      (void)prepare_model_node(s, m, node);
      set_inputs_and_params(s);
      (void)s.run();
    }
    std::vector<std::string> param_text, input_text, output_text;
    for (const decoded_param& p : params) {  // an enum's value with its name, when the model names them
      const auto e =
          std::find_if(op.params.begin(), op.params.end(), [&](const op_yml_entry& x) { return x.name == p.name; });
      param_text.push_back(
          fmt::format("{}={}", p.name, e != op.params.end() ? param_value_text(*e, p.value) : p.value.to_string()));
    }
    for (const model_tensor* t : inputs) input_text.push_back(fmt::format("[{}]", fmt::join(t->dims, ",")));
    for (const model_tensor* t : outputs) output_text.push_back(fmt::format("[{}]", fmt::join(t->dims, ",")));
    result.passed = true;
    result.line = fmt::format(
        "{}: OK: kernel '{}' (index {}, table of {} matches the op description), params {}, inputs {} accepted, "
        "outputs {} {}{}",
        head, selected.kernel().name, selected.kernel().kernel_index, selected.kernel().num_params,
        param_text.empty() ? std::string("none") : fmt::format("{}", fmt::join(param_text, ", ")),
        fmt::join(input_text, " "), fmt::join(output_text, " "),
        same_by_rank_rule ? "accepted by the op's validator (the same tensors as its shape inference gives, "
                            "outer dims of 1 left out)"
        : inferred        ? "as the op's shape inference gives"
                   : "accepted (the validator infers no output shape; the board's tensors have the model's dims)",
        shader ? " (a shader kernel: validated through the CPU kernel 0)" : "");
  } catch (const error& e) {
    std::string detail = e.detail();
    if (const std::string prefix = m.source + ": "; detail.starts_with(prefix)) detail.erase(0, prefix.size());
    result.line = fmt::format("{}: FAILED: {}", head, detail);
  }
  return result;
}

}  // namespace rknnop::host

// SPDX-License-Identifier: MIT
// The one engine that runs a node through the host OpenVX runtime (see engine.hpp).
#include "rknnop/host/engine.hpp"

#include "rknnop/host/error.hpp"
#include "rknnop/host/loader.hpp"         // vx_status_text
#include "rknnop/host/memory_budget.hpp"  // the tensors' share of the one budget
#include "rknnop/host/npy.hpp"            // from_openvx_dims: shapes as the user gives them
#include <rknnop/vx_type.hpp>

#include <rknnop/host/openvx_host.h>
#include <rknnop/openvx.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "formats/type_text.hpp"

namespace rknnop::host {

namespace {

// vxCreateTensor takes its sizes as vx_size (Khronos 1.2, the boards' libOpenVX).
vx_tensor create_tensor(vx_context context, const std::vector<std::uint32_t>& dims, vx_enum type) {
  const std::vector<vx_size> sizes(dims.begin(), dims.end());
  return vxCreateTensor(context, sizes.size(), sizes.data(), type, 0);
}

// Splits the runtime's "[status] message\n" log text into messages (continuation lines joined).
std::vector<std::string> log_messages(const std::string& text, bool prefixed) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at < text.size()) {
    auto end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(at, end - at);
    at = end + 1;
    if (!prefixed) {
      out.push_back(std::move(line));
      continue;
    }
    if (line.starts_with('[')) {
      if (const auto close = line.find("] "); close != std::string::npos) {
        out.push_back(line.substr(close + 2));
        continue;
      }
    }
    if (!out.empty())
      out.back() += " " + line;  // continuation of a multi-line message
    else
      out.push_back(line);
  }
  return out;
}

// Takes (and clears) every log entry of the context.
std::vector<std::string> drain_log(vx_context ctx) {
  vx_size required = 0;
  if (rknnopHostGetLog(ctx, nullptr, 0, &required) != VX_SUCCESS || required <= 1) {
    (void)rknnopHostClearLog(ctx);
    return {};
  }
  std::string text(required, '\0');
  if (rknnopHostGetLog(ctx, text.data(), text.size(), nullptr) != VX_SUCCESS) return {};
  (void)rknnopHostClearLog(ctx);
  text.resize(std::strlen(text.c_str()));
  return log_messages(text, true);
}

// The runtime's record of one callback step of the node.
step_report step_record(vx_node node, std::string name, rknnop_host_step_e step) {
  step_report r;
  r.step = std::move(name);
  vx_bool called = vx_false_e;
  vx_status status = VX_SUCCESS;
  if (rknnopHostGetNodeStep(node, step, &called, &status) != VX_SUCCESS) return r;
  r.called = called == vx_true_e;
  r.status = status;
  vx_size required = 0;
  if (rknnopHostGetNodeStepLog(node, step, nullptr, 0, &required) == VX_SUCCESS && required > 1) {
    std::string text(required, '\0');
    if (rknnopHostGetNodeStepLog(node, step, text.data(), text.size(), nullptr) == VX_SUCCESS) {
      text.resize(std::strlen(text.c_str()));
      r.log = log_messages(text, false);
    }
  }
  return r;
}

template <class Handle, vx_status (*Release)(Handle*)>
struct vx_owned {
  Handle handle = nullptr;
  vx_owned() = default;
  explicit vx_owned(Handle h) : handle(h) {}
  vx_owned(const vx_owned&) = delete;
  vx_owned& operator=(const vx_owned&) = delete;
  vx_owned(vx_owned&& other) noexcept : handle(std::exchange(other.handle, nullptr)) {}
  vx_owned& operator=(vx_owned&& other) noexcept {
    reset();
    handle = std::exchange(other.handle, nullptr);
    return *this;
  }
  ~vx_owned() { reset(); }
  void reset() noexcept {
    if (handle != nullptr) (void)Release(&handle);
    handle = nullptr;
  }
};

using owned_context = vx_owned<vx_context, vxReleaseContext>;
using owned_graph = vx_owned<vx_graph, vxReleaseGraph>;
using owned_node = vx_owned<vx_node, vxReleaseNode>;
using owned_kernel = vx_owned<vx_kernel, vxReleaseKernel>;
using owned_reference = vx_owned<vx_reference, vxReleaseReference>;

// One run of one node. The OpenVX handles are declared context, kernel, graph, node, objects: members
// are destroyed in the reverse order, so they are released objects, node, graph, kernel, context.
class node_run {
public:
  explicit node_run(const node_spec& spec)
      : spec_(spec), descriptor_(static_cast<const vx_kernel_description_t*>(spec.descriptor)) {}

  node_result run() {
    create_context_and_kernel();
    create_node();
    bind_inputs();
    std::vector<vx_tensor> outputs = bind_outputs();
    bind_params();
    (void)drain_log(ctx_.handle);
    verify(outputs);
    process(outputs);
    node_result result;
    result.outputs = read_back(outputs);
    deinitialize();
    result.report = std::move(report_);
    return result;
  }

private:
  error fail(std::string_view what, vx_status status) {
    const std::vector<std::string> log = drain_log(ctx_.handle);
    return error(fmt::format("{}: {} failed with {}{}{}", spec_.label, what, vx_status_text(status),
                             log.empty() ? "" : ": ", fmt::join(log, "; ")));
  }

  // The failing step's own log, then what the runtime logged around it, parameters named.
  error step_failure(std::string_view step, vx_status status, const std::vector<std::string>& step_log) {
    std::vector<std::string> log = step_log;
    std::vector<std::string> claimed;  // lines some callback step logged (already in a step report)
    for (const step_report& s : report_.steps) claimed.insert(claimed.end(), s.log.begin(), s.log.end());
    for (std::string& line : drain_log(ctx_.handle)) {
      if (const auto it = std::find(claimed.begin(), claimed.end(), line); it != claimed.end()) {
        claimed.erase(it);
        continue;
      }
      // The runtime restates the callback's status ("kernel 'x': validator failed with -17"); skip that.
      if (line.starts_with(fmt::format("kernel '{}'", descriptor_->name)) &&
          line.find(" failed with ") != std::string::npos)
        continue;
      log.push_back(std::move(line));
    }
    for (std::string& line : log)  // "kernel 'x' parameter 1: ..." -> "... parameter 1 (output 'y'): ..."
      for (std::size_t i = 0; i < labels_.size(); ++i) {
        const std::string tag = fmt::format("' parameter {}:", i);
        if (const auto at = line.find(tag); at != std::string::npos)
          line.replace(at, tag.size(), fmt::format("' parameter {} ({}):", i, labels_[i]));
      }
    return error(fmt::format("{}: {} failed with {}{}{}", spec_.label, step, vx_status_text(status),
                             log.empty() ? "" : ": ", fmt::join(log, "; ")));
  }

  // Counts a tensor's bytes against the memory budget (docs/memory-budget.md) before it is created,
  // or (a virtual output) once verification gave it its shape; throws naming it when the node's
  // tensors would pass the budget. The runtime's limit on the context is the same number.
  void take_budget(std::string_view what, const std::vector<std::uint32_t>& dims, std::int32_t type) {
    std::uint64_t bytes = vx_tensor_element_size(type);
    for (const std::uint32_t d : dims)
      bytes = d == 0 || bytes <= std::numeric_limits<std::uint64_t>::max() / d
                  ? bytes * d
                  : std::numeric_limits<std::uint64_t>::max();
    held_ = bytes <= std::numeric_limits<std::uint64_t>::max() - held_ ? held_ + bytes
                                                                       : std::numeric_limits<std::uint64_t>::max();
    if (held_ <= budget_) return;
    const std::vector<std::size_t> shape = from_openvx_dims(dims);
    throw error(fmt::format(
        "{}: {} of shape ({}{}) {} needs {}{}, over the memory budget of {} (raise it with --memory-limit or "
        "RKNNOP_MEMORY_LIMIT)",
        spec_.label, what, fmt::join(shape, ", "), shape.size() == 1 ? "," : "", type_text(type),
        memory_size_text(bytes),
        bytes <= budget_ ? fmt::format(" ({} with the node's other tensors)", memory_size_text(held_)) : std::string(),
        memory_size_text(budget_)));
  }

  // Registers the kernel as the board runtime does, unless the context already knows the name.
  void create_context_and_kernel() {
    budget_ = memory_budget();
    ctx_ = owned_context(vxCreateContext());
    if (ctx_.handle == nullptr || vxGetStatus(reinterpret_cast<vx_reference>(ctx_.handle)) != VX_SUCCESS)
      throw error(fmt::format("{}: vxCreateContext failed", spec_.label));
    // The runtime refuses a tensor that would pass the budget before taking its memory.
    (void)rknnopHostSetTensorMemoryLimit(
        ctx_.handle, static_cast<vx_size>(std::min<std::uint64_t>(budget_, std::numeric_limits<vx_size>::max())));
    const vx_kernel_description_t& d = *descriptor_;
    kernel_ = owned_kernel(vxGetKernelByName(ctx_.handle, d.name));
    if (kernel_.handle == nullptr) {
      kernel_ = owned_kernel(vxAddUserKernel(ctx_.handle, d.name, d.enumeration, d.function, d.numParams, d.validate,
                                             d.initialize, d.deinitialize));
      if (kernel_.handle == nullptr) throw fail("vxAddUserKernel", VX_FAILURE);
      for (vx_uint32 i = 0; i < d.numParams; ++i) {
        const vx_param_description_t& p = d.parameters[i];
        const vx_status status = vxAddParameterToKernel(kernel_.handle, i, p.direction, p.data_type, p.state);
        if (status != VX_SUCCESS) throw fail(fmt::format("vxAddParameterToKernel({})", i), status);
      }
      if (const vx_status status = vxFinalizeKernel(kernel_.handle); status != VX_SUCCESS)
        throw fail("vxFinalizeKernel", status);
    }
    if (spec_.on_context) spec_.on_context(ctx_.handle);
  }

  void create_node() {
    graph_ = owned_graph(vxCreateGraph(ctx_.handle));
    if (graph_.handle == nullptr) throw fail("vxCreateGraph", VX_FAILURE);
    node_ = owned_node(vxCreateGenericNode(graph_.handle, kernel_.handle));
    if (node_.handle == nullptr) throw fail("vxCreateGenericNode", VX_FAILURE);
  }

  // Takes ownership of `ref` and sets it as the node's next parameter.
  void bind(vx_reference ref, std::string_view role, std::string_view name) {
    const auto index = static_cast<vx_uint32>(labels_.size());
    objects_.emplace_back(ref);
    const vx_status status = vxSetParameterByIndex(node_.handle, index, ref);
    if (status != VX_SUCCESS)
      throw fail(fmt::format("vxSetParameterByIndex({}) for {} '{}'", index, role, name), status);
    labels_.push_back(fmt::format("{} '{}'", role, name));
  }

  void bind_inputs() {
    for (const node_input& in : spec_.inputs) {
      take_budget(fmt::format("input '{}'", in.name), in.dims, in.type);
      vx_tensor t = create_tensor(ctx_.handle, in.dims, in.type);
      if (t == nullptr) throw fail(fmt::format("vxCreateTensor for input '{}'", in.name), VX_FAILURE);
      bind(reinterpret_cast<vx_reference>(t), "input", in.name);
      rknnop_host_tensor_buffer b{};
      const vx_status status = rknnopHostGetTensorBuffer(t, VX_WRITE_ONLY, &b);
      if (status != VX_SUCCESS) throw fail(fmt::format("writing input '{}'", in.name), status);
      if (b.size_in_bytes != in.bytes.size())
        throw error(fmt::format("{}: input '{}': {} bytes for dims [{}] of {}, the tensor holds {}", spec_.label,
                                in.name, in.bytes.size(), fmt::join(in.dims, ", "), type_text(in.type),
                                b.size_in_bytes));
      if (!in.bytes.empty()) std::memcpy(b.data, in.bytes.data(), in.bytes.size());
    }
  }

  std::vector<vx_tensor> bind_outputs() {
    std::vector<vx_tensor> outputs;
    for (const node_output_request& o : spec_.outputs) {
      if (o.dims) take_budget(fmt::format("output '{}'", o.name), *o.dims, o.type);
      vx_tensor t = o.dims ? create_tensor(ctx_.handle, *o.dims, o.type)
                           : vxCreateVirtualTensor(graph_.handle, 0, nullptr, VX_TYPE_INVALID, 0);
      if (t == nullptr) throw fail(fmt::format("creating output '{}'", o.name), VX_FAILURE);
      bind(reinterpret_cast<vx_reference>(t), "output", o.name);
      outputs.push_back(t);
    }
    return outputs;
  }

  void bind_params() {
    for (const node_param& p : spec_.params) {
      const param_value& v = p.value;
      if (v.is_array()) {
        // The board runtime creates every array param as an INT32 array holding the model's values.
        vx_array a = vxCreateArray(ctx_.handle, VX_TYPE_INT32, std::max<vx_size>(v.items.size(), 1));
        if (a == nullptr) throw fail(fmt::format("vxCreateArray for param '{}'", p.name), VX_FAILURE);
        bind(reinterpret_cast<vx_reference>(a), "param", p.name);
        if (!v.items.empty()) {
          const vx_status status = vxAddArrayItems(a, v.items.size(), v.items.data(), sizeof(std::int32_t));
          if (status != VX_SUCCESS) throw fail(fmt::format("vxAddArrayItems for param '{}'", p.name), status);
        }
      } else if (v.type == VX_TYPE_BOOL) {
        // The board runtime creates a BOOL param as a 1-byte UINT8 scalar (librknn_runtime, aarch64
        // 0x5e3a0: docs/board-emulation.md); a kernel must read it so on the PC too.
        vx_bool b = vx_false_e;
        std::memcpy(&b, v.scalar_data(), sizeof b);
        const vx_uint8 byte = b != vx_false_e ? 1 : 0;
        vx_scalar s = vxCreateScalar(ctx_.handle, VX_TYPE_UINT8, &byte);
        if (s == nullptr) throw fail(fmt::format("vxCreateScalar(VX_TYPE_UINT8) for param '{}'", p.name), VX_FAILURE);
        bind(reinterpret_cast<vx_reference>(s), "param", p.name);
      } else {
        vx_scalar s = vxCreateScalar(ctx_.handle, v.type, v.scalar_data());
        if (s == nullptr)
          throw fail(fmt::format("vxCreateScalar({}) for param '{}'", type_text(v.type), p.name), VX_FAILURE);
        bind(reinterpret_cast<vx_reference>(s), "param", p.name);
      }
    }
  }

  void verify(const std::vector<vx_tensor>& outputs) {  // validate + initialize
    const vx_status verified = vxVerifyGraph(graph_.handle);
    report_.steps.push_back(step_record(node_.handle, "validate", RKNNOP_HOST_STEP_VALIDATE));
    report_.steps.push_back(step_record(node_.handle, "initialize", RKNNOP_HOST_STEP_INITIALIZE));
    for (const step_report& s : report_.steps)
      if (s.called && s.status != VX_SUCCESS) throw step_failure(s.step, s.status, s.log);
    // The validator's shapes were too big for the budget: said as the user sees the output.
    if (verified == VX_ERROR_NO_MEMORY) check_virtual_outputs(outputs);
    if (verified != VX_SUCCESS) throw step_failure("graph verification", verified, {});
    (void)drain_log(ctx_.handle);
  }

  // The virtual outputs in allocation order (the runtime's), with the shape and type verification gave them.
  void check_virtual_outputs(const std::vector<vx_tensor>& outputs) {
    for (std::size_t i = 0; i < outputs.size(); ++i) {
      if (spec_.outputs[i].dims) continue;  // counted when created
      vx_uint32 rank = 0;
      std::array<vx_uint32, 6> dims{};
      vx_enum type = VX_TYPE_INVALID;
      if (vxQueryTensor(outputs[i], VX_TENSOR_NUMBER_OF_DIMS, &rank, sizeof rank) != VX_SUCCESS || rank == 0 ||
          rank > dims.size() ||
          vxQueryTensor(outputs[i], VX_TENSOR_DIMS, dims.data(), rank * sizeof(vx_uint32)) != VX_SUCCESS ||
          vxQueryTensor(outputs[i], VX_TENSOR_DATA_TYPE, &type, sizeof type) != VX_SUCCESS)
        return;
      take_budget(fmt::format("output '{}'", spec_.outputs[i].name),
                  std::vector<std::uint32_t>(dims.begin(), dims.begin() + rank), type);
    }
  }

  void process(const std::vector<vx_tensor>& outputs) {
    if (spec_.on_buffer)
      for (std::size_t i = 0; i < objects_.size(); ++i) {
        vx_enum type = VX_TYPE_INVALID;
        const vx_reference ref = objects_[i].handle;
        if (vxQueryReference(ref, VX_REFERENCE_TYPE, &type, sizeof type) != VX_SUCCESS || type != VX_TYPE_TENSOR)
          continue;
        rknnop_host_tensor_buffer b{};
        if (rknnopHostGetTensorBuffer(reinterpret_cast<vx_tensor>(ref), VX_READ_ONLY, &b) == VX_SUCCESS)
          spec_.on_buffer(labels_[i], b.data, b.size_in_bytes);
      }
    for (vx_tensor t : outputs) (void)rknnopHostResetTensorWritten(t);
    // As librknn_runtime's rknn_run: the graph runs on the driver's own thread (docs/runtime.md §9).
    vx_status processed = vxScheduleGraph(graph_.handle);
    if (processed == VX_SUCCESS) processed = vxWaitGraph(graph_.handle);
    const bool shader = descriptor_->function == nullptr;  // the runtime's shader executor ran the .vx
    report_.steps.push_back(step_record(node_.handle, shader ? "shader kernel" : "kernel", RKNNOP_HOST_STEP_KERNEL));
    const step_report& k = report_.steps.back();
    if (!shader && k.called && k.status != VX_SUCCESS) throw step_failure("kernel", k.status, k.log);
    // A shader's cause is in the log: the executor's message (no .vx, a refused construct, no OpenCL,
    // a build error) or the runtime's "no shader executor is set".
    if (processed != VX_SUCCESS)
      throw step_failure(shader ? "shader kernel" : "graph processing", processed,
                         shader ? k.log : std::vector<std::string>{});
    (void)drain_log(ctx_.handle);
  }

  std::vector<node_output> read_back(const std::vector<vx_tensor>& outputs) {
    std::vector<node_output> out;
    for (std::size_t i = 0; i < outputs.size(); ++i) {
      const std::string& name = spec_.outputs[i].name;
      vx_bool written = vx_false_e;
      if (rknnopHostTensorWasWritten(outputs[i], &written) == VX_SUCCESS && written != vx_true_e)
        throw error(fmt::format("{}: the kernel returned VX_SUCCESS but never wrote output '{}'", spec_.label, name));
      rknnop_host_tensor_buffer b{};
      const vx_status status = rknnopHostGetTensorBuffer(outputs[i], VX_READ_ONLY, &b);
      if (status != VX_SUCCESS) throw fail(fmt::format("reading output '{}'", name), status);
      node_output o;
      o.name = name;
      o.dims.assign(b.dims, b.dims + b.num_dims);
      o.type = b.data_type;
      const auto* p = static_cast<const std::byte*>(b.data);
      o.bytes.assign(p, p + b.size_in_bytes);
      out.push_back(std::move(o));
    }
    return out;
  }

  // Releasing the graph runs the deinitializer; the node (still held) keeps the record.
  void deinitialize() {
    objects_.clear();
    graph_.reset();
    report_.steps.push_back(step_record(node_.handle, "deinitialize", RKNNOP_HOST_STEP_DEINITIALIZE));
    const step_report& s = report_.steps.back();
    if (s.called && s.status != VX_SUCCESS) throw step_failure("deinitialize", s.status, s.log);
  }

  const node_spec& spec_;
  const vx_kernel_description_t* descriptor_;
  std::uint64_t budget_ = 0;  // memory_budget() for this run
  std::uint64_t held_ = 0;    // the bytes of the node's tensors counted so far
  run_report report_;
  std::vector<std::string> labels_;  // "output 'output'", by parameter index
  owned_context ctx_;
  owned_kernel kernel_;
  owned_graph graph_;
  owned_node node_;
  std::vector<owned_reference> objects_;
};

}  // namespace

node_result run_node(const node_spec& spec) {
  if (spec.descriptor == nullptr) throw error(fmt::format("{}: no kernel descriptor", spec.label));
  return node_run(spec).run();
}

}  // namespace rknnop::host

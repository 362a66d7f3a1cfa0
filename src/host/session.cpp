// SPDX-License-Identifier: MIT
#include "rknnop/host/session.hpp"

#include "rknnop/host/error.hpp"
#include "rknnop/host/vx_type.hpp"

#include <rknnop/host/openvx_host.h>
#include <rknnop/openvx.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "byte_io.hpp"

namespace rknnop::host {

namespace {

constexpr std::size_t max_tensor_rank = 6; // the VSI driver's limit

// --- tensor types ---------------------------------------------------------------------------

std::optional<npy_dtype> npy_dtype_for(std::int32_t vx) {
  switch (vx) {
  case VX_TYPE_FLOAT16: return npy_dtype::float16;
  case VX_TYPE_FLOAT32: return npy_dtype::float32;
  case VX_TYPE_INT32: return npy_dtype::int32;
  case VX_TYPE_INT8: return npy_dtype::int8;
  case VX_TYPE_UINT8: return npy_dtype::uint8;
  case VX_TYPE_INT16: return npy_dtype::int16;
  case VX_TYPE_UINT16: return npy_dtype::uint16;
  default: return std::nullopt;
  }
}

std::string type_text(std::int32_t t) {
  const std::string_view name = vx_type_name(t);
  return name.empty() ? fmt::format("type 0x{:x}", t) : std::string(name);
}

void check_tensor_type(std::string_view what, std::string_view name, std::int32_t type) {
  if (!npy_dtype_for(type))
    throw error(fmt::format("{} '{}': tensor type {} is not supported; use VX_TYPE_FLOAT16, FLOAT32, INT8, "
                            "UINT8, INT16, UINT16 or INT32",
                            what, name, type_text(type)));
}

void check_shape(std::string_view what, std::string_view name, std::string_view source,
                 const std::vector<std::size_t> &shape) {
  const std::string from = source.empty() ? std::string() : fmt::format(" ({})", source);
  if (shape.empty() || shape.size() > max_tensor_rank)
    throw error(fmt::format("{} '{}'{}: rank {} is not supported: OpenVX tensors have 1 to {} dims", what, name,
                            from, shape.size(), max_tensor_rank));
  for (const std::size_t d : shape)
    if (d == 0)
      throw error(fmt::format("{} '{}'{}: shape ({}) has a zero dimension", what, name, from, fmt::join(shape, ", ")));
}

// --- the host runtime's log -------------------------------------------------------------------

// Takes (and clears) every log entry of the context: "[status] message" lines -> messages.
std::vector<std::string> drain_log(vx_context ctx) {
  std::vector<std::string> out;
  vx_size required = 0;
  if (rknnopHostGetLog(ctx, nullptr, 0, &required) != VX_SUCCESS || required <= 1) {
    rknnopHostClearLog(ctx);
    return out;
  }
  std::string text(required, '\0');
  if (rknnopHostGetLog(ctx, text.data(), text.size(), nullptr) != VX_SUCCESS) return out;
  rknnopHostClearLog(ctx);
  text.resize(std::strlen(text.c_str()));
  std::size_t at = 0;
  while (at < text.size()) {
    auto end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(at, end - at);
    at = end + 1;
    if (line.starts_with('[')) {
      if (const auto close = line.find("] "); close != std::string::npos) {
        out.push_back(line.substr(close + 2));
        continue;
      }
    }
    if (!out.empty()) out.back() += " " + line; // continuation of a multi-line message
    else out.push_back(line);
  }
  return out;
}

// --- per-node probes: record each callback's status and log --------------------------------

struct step_probe {
  bool called = false;
  vx_status status = VX_SUCCESS;
  std::vector<std::string> log;
};

struct node_probe {
  vx_kernel_description_t *descriptor = nullptr;
  vx_context context = nullptr;
  step_probe validate, initialize, kernel, deinitialize;
  std::vector<std::string> runtime_log; // entries the runtime added between callbacks
};

std::mutex probes_mutex;
std::map<vx_node, node_probe *> probes;

node_probe *probe_for(vx_node node) noexcept {
  std::lock_guard lock(probes_mutex);
  const auto it = probes.find(node);
  return it == probes.end() ? nullptr : it->second;
}

// Runs one callback of the library, recording its status and the log entries it added.
template <class Call> vx_status record(node_probe &p, step_probe &step, Call &&call) noexcept {
  try {
    auto before = drain_log(p.context);
    p.runtime_log.insert(p.runtime_log.end(), before.begin(), before.end());
  } catch (...) {
  }
  step.called = true;
  step.status = call();
  try {
    auto added = drain_log(p.context);
    step.log.insert(step.log.end(), added.begin(), added.end());
  } catch (...) {
  }
  return step.status;
}

vx_status VX_CALLBACK probe_validate(vx_node node, const vx_reference parameters[], vx_uint32 num,
                                     vx_meta_format metas[]) noexcept {
  node_probe *p = probe_for(node);
  if (p == nullptr) return VX_ERROR_INVALID_NODE;
  return record(*p, p->validate, [&] { return p->descriptor->validate(node, parameters, num, metas); });
}
vx_status VX_CALLBACK probe_initialize(vx_node node, const vx_reference *parameters, vx_uint32 num) noexcept {
  node_probe *p = probe_for(node);
  if (p == nullptr) return VX_ERROR_INVALID_NODE;
  return record(*p, p->initialize, [&] { return p->descriptor->initialize(node, parameters, num); });
}
vx_status VX_CALLBACK probe_kernel(vx_node node, const vx_reference *parameters, vx_uint32 num) noexcept {
  node_probe *p = probe_for(node);
  if (p == nullptr) return VX_ERROR_INVALID_NODE;
  return record(*p, p->kernel, [&] { return p->descriptor->function(node, parameters, num); });
}
vx_status VX_CALLBACK probe_deinitialize(vx_node node, const vx_reference *parameters, vx_uint32 num) noexcept {
  node_probe *p = probe_for(node);
  if (p == nullptr) return VX_ERROR_INVALID_NODE;
  return record(*p, p->deinitialize, [&] { return p->descriptor->deinitialize(node, parameters, num); });
}

struct probe_registration {
  vx_node node = nullptr;
  probe_registration() = default;
  probe_registration(const probe_registration &) = delete;
  probe_registration &operator=(const probe_registration &) = delete;
  void add(vx_node n, node_probe *p) {
    std::lock_guard lock(probes_mutex);
    probes[n] = p;
    node = n;
  }
  ~probe_registration() {
    if (node == nullptr) return;
    std::lock_guard lock(probes_mutex);
    probes.erase(node);
  }
};

// --- RAII for OpenVX handles ------------------------------------------------------------------

template <class Handle, vx_status (*Release)(Handle *)> struct vx_owned {
  Handle handle = nullptr;
  vx_owned() = default;
  explicit vx_owned(Handle h) : handle(h) {}
  vx_owned(const vx_owned &) = delete;
  vx_owned &operator=(const vx_owned &) = delete;
  vx_owned(vx_owned &&other) noexcept : handle(std::exchange(other.handle, nullptr)) {}
  vx_owned &operator=(vx_owned &&other) noexcept {
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
using owned_tensor = vx_owned<vx_tensor, vxReleaseTensor>;
using owned_scalar = vx_owned<vx_scalar, vxReleaseScalar>;
using owned_array = vx_owned<vx_array, vxReleaseArray>;

std::vector<vx_size> dense_strides(const std::vector<std::uint32_t> &dims, std::size_t element) {
  std::vector<vx_size> strides(dims.size());
  for (std::size_t i = 0; i < dims.size(); ++i) strides[i] = i == 0 ? element : strides[i - 1] * dims[i - 1];
  return strides;
}

std::string joined(const std::vector<std::string> &lines) { return fmt::format("{}", fmt::join(lines, "; ")); }

} // namespace

// --- session ------------------------------------------------------------------------------------

struct session::state {
  struct input_data {
    std::int32_t type = VX_TYPE_FLOAT16;
    std::vector<std::uint32_t> dims;
    std::vector<std::uint8_t> bytes;
  };
  struct output_request {
    std::vector<std::uint32_t> dims;
    std::int32_t type = VX_TYPE_FLOAT16;
  };

  op_library library;
  std::map<std::string, input_data, std::less<>> inputs;
  std::map<std::string, output_request, std::less<>> output_shapes;
  std::map<std::string, param_value, std::less<>> params;
  std::map<std::string, tensor_result, std::less<>> results;
  std::function<void(void *)> hook;

  explicit state(op_library lib) : library(std::move(lib)) {}

  [[nodiscard]] std::string op_label() const {
    return fmt::format("op '{}' (kernel '{}')", library.op().name, library.kernel().name);
  }

  // Throws "op 'X' has no input 'foo' (inputs: a, b)" with a hint when it is another kind of name.
  [[noreturn]] void unknown_name(std::string_view kind, std::string_view name) const {
    const op_yml &op = library.op();
    const auto names = [](const std::vector<op_yml_entry> &list) {
      std::vector<std::string> out;
      for (const op_yml_entry &e : list) out.push_back(e.name);
      return out.empty() ? std::string("none") : fmt::format("{}", fmt::join(out, ", "));
    };
    const auto has = [&](const std::vector<op_yml_entry> &list) {
      return std::any_of(list.begin(), list.end(), [&](const op_yml_entry &e) { return e.name == name; });
    };
    std::string hint;
    if (kind != "input" && has(op.inputs)) hint = fmt::format("; '{}' is an input", name);
    else if (kind != "output" && has(op.outputs)) hint = fmt::format("; '{}' is an output", name);
    else if (kind != "param" && has(op.params)) hint = fmt::format("; '{}' is a param", name);
    const std::vector<op_yml_entry> &list = kind == "input" ? op.inputs : kind == "output" ? op.outputs : op.params;
    throw error(fmt::format("op '{}' has no {} '{}' ({}s: {}){}", op.name, kind, name, kind, names(list), hint));
  }

  const op_yml_entry &entry(std::string_view kind, std::string_view name) const {
    const op_yml &op = library.op();
    const std::vector<op_yml_entry> &list = kind == "input" ? op.inputs : kind == "output" ? op.outputs : op.params;
    for (const op_yml_entry &e : list)
      if (e.name == name) return e;
    unknown_name(kind, name);
  }

  void set_input(std::string_view name, const npy_array &data, std::optional<std::int32_t> tensor_type,
                 std::string_view source) {
    (void)entry("input", name);
    const std::int32_t type = tensor_type.value_or(VX_TYPE_FLOAT16);
    check_tensor_type("input", name, type);
    check_shape("input", name, source, data.shape);
    const std::string from = source.empty() ? std::string() : fmt::format(" ({})", source);
    if (data.data.size() != data.element_count() * npy_item_size(data.dtype))
      throw error(fmt::format("input '{}'{}: shape ({}) of {} needs {} bytes, the array holds {}", name, from,
                              fmt::join(data.shape, ", "), npy_descr(data.dtype),
                              data.element_count() * npy_item_size(data.dtype), data.data.size()));
    input_data in;
    in.type = type;
    in.dims = to_openvx_dims(data.shape);
    const npy_dtype wanted = *npy_dtype_for(type);
    if (wanted == data.dtype) {
      in.bytes = data.data;
    } else if (type == VX_TYPE_FLOAT16 || type == VX_TYPE_FLOAT32) {
      const std::vector<float> values = data.to_floats();
      in.bytes = npy_array::from_floats(values, data.shape, wanted).data;
    } else {
      throw error(fmt::format("input '{}'{}: cannot store {} data in a {} tensor; save the array as {}", name, from,
                              npy_descr(data.dtype), type_text(type), npy_descr(wanted)));
    }
    inputs.insert_or_assign(std::string(name), std::move(in));
  }

  void set_param(std::string_view name, param_value value) {
    const op_yml_entry &e = entry("param", name);
    if (value.type != e.type)
      throw error(fmt::format("param '{}': expected {} (op.yml), got a {} value", name, type_text(e.type),
                              type_text(value.type)));
    params.insert_or_assign(std::string(name), std::move(value));
  }

  run_report run();
};

session::session(std::unique_ptr<state> s) noexcept : state_(std::move(s)) {}
session::session(session &&) noexcept = default;
session &session::operator=(session &&) noexcept = default;
session::~session() = default;

session session::load(const std::filesystem::path &op, const load_options &options) {
  return session(std::make_unique<state>(op_library::open(op, options)));
}

const op_yml &session::op() const noexcept { return state_->library.op(); }
const kernel_descriptor_info &session::kernel() const noexcept { return state_->library.kernel(); }

std::string session::describe() const {
  const op_yml &op = state_->library.op();
  const kernel_descriptor_info &k = state_->library.kernel();
  std::string out = fmt::format(
      "op {}: kernel_index {} of {} in {}: '{}' ({} kernel), enumeration 0x{:08x}, numParams {}\n", op.name,
      k.kernel_index, k.list_size, k.list_symbol, k.name, k.is_shader ? "VX shader" : "CPU",
      static_cast<std::uint32_t>(k.enumeration), k.num_params);
  out += fmt::format("  parameter order: {}\n", op.port_order_source);
  if (op.port_order_warning) out += fmt::format("  warning: {}\n", *op.port_order_warning);
  std::size_t index = 0;
  const auto row = [&](std::string_view role, const op_yml_entry &e) {
    const kernel_parameter &p = k.parameters.at(index);
    out += fmt::format("  {} {:<6} {:<20} {:<16} descriptor {{{}, {}, {}}}\n", index, role, e.name,
                       type_text(e.type), p.direction == VX_INPUT ? "VX_INPUT" : "VX_OUTPUT", type_text(p.data_type),
                       p.state == VX_PARAMETER_STATE_REQUIRED ? "REQUIRED" : "OPTIONAL");
    ++index;
  };
  for (const op_yml_entry &e : op.inputs) row("input", e);
  for (const op_yml_entry &e : op.outputs) row("output", e);
  for (const op_yml_entry &e : op.params) row("param", e);
  return out;
}

void session::set_input(std::string_view name, const npy_array &data, std::optional<std::int32_t> tensor_type) {
  state_->set_input(name, data, tensor_type, {});
}

void session::set_input(std::string_view name, const std::filesystem::path &npy_file,
                        std::optional<std::int32_t> tensor_type) {
  (void)state_->entry("input", name); // name errors before file errors
  state_->set_input(name, read_npy_file(npy_file), tensor_type, npy_file.string());
}

void session::set_input(std::string_view name, std::span<const float> values, std::vector<std::size_t> shape,
                        std::optional<std::int32_t> tensor_type) {
  (void)state_->entry("input", name);
  check_shape("input", name, {}, shape);
  npy_array a;
  a.shape = shape;
  if (a.element_count() != values.size())
    throw error(fmt::format("input '{}': shape ({}) needs {} values, got {}", name, fmt::join(shape, ", "),
                            a.element_count(), values.size()));
  state_->set_input(name, npy_array::from_floats(values, std::move(shape)), tensor_type, {});
}

void session::set_output_shape(std::string_view name, std::vector<std::size_t> shape, std::int32_t tensor_type) {
  (void)state_->entry("output", name);
  check_tensor_type("output", name, tensor_type);
  check_shape("output", name, {}, shape);
  state_->output_shapes.insert_or_assign(std::string(name), state::output_request{to_openvx_dims(shape), tensor_type});
}

void session::set_param(std::string_view name, const param_value &value) { state_->set_param(name, value); }

void session::set_param(std::string_view name, std::string_view text) {
  const op_yml_entry &e = state_->entry("param", name);
  state_->set_param(name, parse_param_value(name, e.type, text));
}

void session::set_param(std::string_view name, bool value) {
  state_->set_param(name, make_param_value(name, state_->entry("param", name).type, value));
}
void session::set_param_integer(std::string_view name, std::int64_t value) {
  state_->set_param(name, make_param_value(name, state_->entry("param", name).type, value));
}
void session::set_param_unsigned(std::string_view name, std::uint64_t value) {
  state_->set_param(name, make_param_value(name, state_->entry("param", name).type, value));
}
void session::set_param_float(std::string_view name, double value) {
  state_->set_param(name, make_param_value(name, state_->entry("param", name).type, value));
}
void session::set_param(std::string_view name, std::span<const std::int32_t> items) {
  state_->set_param(name, make_param_value(name, state_->entry("param", name).type, items));
}

void session::on_context(std::function<void(void *)> hook) { state_->hook = std::move(hook); }

run_report session::run() { return state_->run(); }

const tensor_result &session::output(std::string_view name) const {
  (void)state_->entry("output", name);
  const auto it = state_->results.find(name);
  if (it == state_->results.end())
    throw error(fmt::format("output '{}' of op '{}' is not available: run() has not completed", name,
                            state_->library.op().name));
  return it->second;
}

run_report session::state::run() {
  const op_yml &op = library.op();
  const kernel_descriptor_info &k = library.kernel();
  auto *descriptor = static_cast<vx_kernel_description_t *>(library.descriptor());
  const std::string label = op_label();

  // Everything must be set before anything is created.
  std::vector<std::string> missing;
  for (const op_yml_entry &e : op.inputs)
    if (!inputs.contains(e.name)) missing.push_back("input '" + e.name + "'");
  for (const op_yml_entry &e : op.params)
    if (!params.contains(e.name)) missing.push_back("param '" + e.name + "'");
  if (!missing.empty())
    throw error(fmt::format("{}: not set: {}", label, fmt::join(missing, ", ")));
  results.clear();

  node_probe probe;
  probe.descriptor = descriptor;
  probe_registration registration;
  owned_context ctx(vxCreateContext());
  if (ctx.handle == nullptr || vxGetStatus(reinterpret_cast<vx_reference>(ctx.handle)) != VX_SUCCESS)
    throw error(fmt::format("{}: vxCreateContext failed", label));
  probe.context = ctx.handle;
  const auto fail = [&](std::string_view what, vx_status status) -> error {
    std::vector<std::string> log = drain_log(ctx.handle);
    return error(fmt::format("{}: {} failed with {}{}{}", label, what, vx_status_text(status), log.empty() ? "" : ": ",
                             joined(log)));
  };

  // Register the kernel as the board runtime does, unless the context already knows the name.
  owned_kernel kernel(vxGetKernelByName(ctx.handle, descriptor->name));
  if (kernel.handle == nullptr) {
    kernel = owned_kernel(vxAddUserKernel(ctx.handle, descriptor->name, descriptor->enumeration,
                                          descriptor->function ? probe_kernel : nullptr, descriptor->numParams,
                                          descriptor->validate ? probe_validate : nullptr,
                                          descriptor->initialize ? probe_initialize : nullptr,
                                          descriptor->deinitialize ? probe_deinitialize : nullptr));
    if (kernel.handle == nullptr) throw fail("vxAddUserKernel", VX_FAILURE);
    for (vx_uint32 i = 0; i < descriptor->numParams; ++i) {
      const vx_param_description_t &p = descriptor->parameters[i];
      const vx_status status = vxAddParameterToKernel(kernel.handle, i, p.direction, p.data_type, p.state);
      if (status != VX_SUCCESS) throw fail(fmt::format("vxAddParameterToKernel({})", i), status);
    }
    if (const vx_status status = vxFinalizeKernel(kernel.handle); status != VX_SUCCESS)
      throw fail("vxFinalizeKernel", status);
  }
  if (hook) hook(ctx.handle);

  owned_graph graph(vxCreateGraph(ctx.handle));
  if (graph.handle == nullptr) throw fail("vxCreateGraph", VX_FAILURE);
  owned_node node(vxCreateGenericNode(graph.handle, kernel.handle));
  if (node.handle == nullptr) throw fail("vxCreateGenericNode", VX_FAILURE);
  registration.add(node.handle, &probe);

  std::vector<owned_tensor> tensors;
  std::vector<owned_scalar> scalars;
  std::vector<owned_array> arrays;
  tensors.reserve(op.inputs.size() + op.outputs.size());
  vx_uint32 index = 0;
  std::vector<std::string> parameter_labels;  // "output 'output'", by parameter index
  const auto bind = [&](vx_reference ref, std::string_view role, std::string_view name) {
    const vx_status status = vxSetParameterByIndex(node.handle, index, ref);
    if (status != VX_SUCCESS) throw fail(fmt::format("vxSetParameterByIndex({}) for {} '{}'", index, role, name), status);
    parameter_labels.push_back(fmt::format("{} '{}'", role, name));
    ++index;
  };

  for (const op_yml_entry &e : op.inputs) {
    const input_data &in = inputs.find(e.name)->second;
    owned_tensor t(vxCreateTensor(ctx.handle, static_cast<vx_uint32>(in.dims.size()), in.dims.data(), in.type, 0));
    if (t.handle == nullptr) throw fail(fmt::format("vxCreateTensor for input '{}'", e.name), VX_FAILURE);
    const std::size_t element = npy_item_size(*npy_dtype_for(in.type));
    std::vector<vx_size> start(in.dims.size(), 0), end(in.dims.begin(), in.dims.end());
    const std::vector<vx_size> strides = dense_strides(in.dims, element);
    const vx_status status = vxCopyTensorPatch(t.handle, in.dims.size(), start.data(), end.data(), strides.data(),
                                               const_cast<std::uint8_t *>(in.bytes.data()), VX_WRITE_ONLY,
                                               VX_MEMORY_TYPE_HOST);
    if (status != VX_SUCCESS) throw fail(fmt::format("writing input '{}'", e.name), status);
    bind(reinterpret_cast<vx_reference>(t.handle), "input", e.name);
    tensors.push_back(std::move(t));
  }
  std::vector<vx_tensor> output_tensors;
  for (const op_yml_entry &e : op.outputs) {
    owned_tensor t;
    if (const auto it = output_shapes.find(e.name); it != output_shapes.end())
      t = owned_tensor(vxCreateTensor(ctx.handle, static_cast<vx_uint32>(it->second.dims.size()),
                                      it->second.dims.data(), it->second.type, 0));
    else
      t = owned_tensor(vxCreateVirtualTensor(graph.handle, 0, nullptr, VX_TYPE_INVALID, 0));
    if (t.handle == nullptr) throw fail(fmt::format("creating output '{}'", e.name), VX_FAILURE);
    bind(reinterpret_cast<vx_reference>(t.handle), "output", e.name);
    output_tensors.push_back(t.handle);
    tensors.push_back(std::move(t));
  }
  for (const op_yml_entry &e : op.params) {
    const param_value &v = params.find(e.name)->second;
    if (v.is_array()) {
      // The board runtime creates every array param as an INT32 array holding the model's values.
      owned_array a(vxCreateArray(ctx.handle, VX_TYPE_INT32, std::max<vx_size>(v.items.size(), 1)));
      if (a.handle == nullptr) throw fail(fmt::format("vxCreateArray for param '{}'", e.name), VX_FAILURE);
      if (!v.items.empty()) {
        const vx_status status = vxAddArrayItems(a.handle, v.items.size(), v.items.data(), sizeof(std::int32_t));
        if (status != VX_SUCCESS) throw fail(fmt::format("vxAddArrayItems for param '{}'", e.name), status);
      }
      bind(reinterpret_cast<vx_reference>(a.handle), "param", e.name);
      arrays.push_back(std::move(a));
    } else {
      owned_scalar s(vxCreateScalar(ctx.handle, v.type, v.scalar_data()));
      if (s.handle == nullptr)
        throw fail(fmt::format("vxCreateScalar({}) for param '{}'", type_text(v.type), e.name), VX_FAILURE);
      bind(reinterpret_cast<vx_reference>(s.handle), "param", e.name);
      scalars.push_back(std::move(s));
    }
  }
  (void)drain_log(ctx.handle);

  run_report report;
  const auto step_failure = [&](std::string_view step, const step_probe &s) -> error {
    std::vector<std::string> log = s.log;
    for (std::string &line : drain_log(ctx.handle)) probe.runtime_log.push_back(std::move(line));
    // The runtime restates the callback's status ("kernel 'x': validator failed with -17"); skip that.
    for (const std::string &line : probe.runtime_log)
      if (!(line.starts_with("kernel '" + k.name + "'") && line.find(" failed with ") != std::string::npos))
        log.push_back(line);
    // The runtime numbers parameters ("kernel 'x' parameter 1: cannot allocate ..."): add op.yml's names.
    for (std::string &line : log)
      for (std::size_t i = 0; i < parameter_labels.size(); ++i) {
        const std::string tag = fmt::format("' parameter {}:", i);
        if (const auto at = line.find(tag); at != std::string::npos)
          line.replace(at, tag.size(), fmt::format("' parameter {} ({}):", i, parameter_labels[i]));
      }
    return error(fmt::format("{}: {} failed with {}{}{}", label, step, vx_status_text(s.status), log.empty() ? "" : ": ",
                             joined(log)));
  };
  const auto add_step = [&](std::string_view step, const step_probe &s) {
    report.steps.push_back(step_report{std::string(step), s.called, s.status, s.log});
  };

  // validate + initialize
  const vx_status verified = vxVerifyGraph(graph.handle);
  add_step("validate", probe.validate);
  add_step("initialize", probe.initialize);
  if (probe.validate.called && probe.validate.status != VX_SUCCESS) throw step_failure("validate", probe.validate);
  if (probe.initialize.called && probe.initialize.status != VX_SUCCESS)
    throw step_failure("initialize", probe.initialize);
  if (verified != VX_SUCCESS) {
    step_probe graph_step;
    graph_step.status = verified;
    throw step_failure("graph verification", graph_step);
  }
  (void)drain_log(ctx.handle);
  probe.runtime_log.clear();

  // kernel
  for (vx_tensor t : output_tensors) (void)rknnopHostResetTensorWritten(t);
  const vx_status processed = vxProcessGraph(graph.handle);
  if (k.is_shader) {  // no C callback: the runtime's shader executor ran the .vx kernel
    probe.kernel.called = true;
    probe.kernel.status = processed;
  }
  add_step(k.is_shader ? "shader kernel" : "kernel", probe.kernel);
  if (!k.is_shader && probe.kernel.called && probe.kernel.status != VX_SUCCESS)
    throw step_failure("kernel", probe.kernel);
  if (processed != VX_SUCCESS) {
    step_probe graph_step;
    graph_step.status = processed;
    // The cause is in the log: the shader executor's own message (no .vx, a refused construct, no
    // OpenCL, a build error) or the runtime's "no shader executor is set".
    throw step_failure(k.is_shader ? "shader kernel" : "graph processing", graph_step);
  }
  probe.runtime_log.clear();
  (void)drain_log(ctx.handle);

  // Read the outputs back (virtual tensors live as long as the graph).
  for (std::size_t i = 0; i < op.outputs.size(); ++i) {
    const std::string &name = op.outputs[i].name;
    vx_tensor t = output_tensors[i];
    vx_bool written = vx_false_e;
    if (rknnopHostTensorWasWritten(t, &written) == VX_SUCCESS && written != vx_true_e)
      throw error(fmt::format("{}: the kernel returned VX_SUCCESS but never wrote output '{}'", label, name));
    vx_uint32 ndims = 0;
    vx_enum type = 0;
    vx_status status = vxQueryTensor(t, VX_TENSOR_NUMBER_OF_DIMS, &ndims, sizeof ndims);
    if (status != VX_SUCCESS || ndims == 0 || ndims > max_tensor_rank)
      throw fail(fmt::format("querying the rank of output '{}'", name), status);
    std::vector<std::uint32_t> dims(ndims);
    status = vxQueryTensor(t, VX_TENSOR_DIMS, dims.data(), sizeof(vx_uint32) * ndims);
    if (status != VX_SUCCESS) throw fail(fmt::format("querying the dims of output '{}'", name), status);
    status = vxQueryTensor(t, VX_TENSOR_DATA_TYPE, &type, sizeof type);
    if (status != VX_SUCCESS) throw fail(fmt::format("querying the data type of output '{}'", name), status);
    const auto dtype = npy_dtype_for(type);
    if (!dtype)
      throw error(fmt::format("{}: output '{}' has tensor type {}, which rknnop cannot read back", label, name,
                              type_text(type)));
    tensor_result result;
    result.dims = dims;
    result.shape = from_openvx_dims(dims);
    result.vx_type = type;
    result.array.dtype = *dtype;
    result.array.shape = result.shape;
    result.array.data.resize(result.array.element_count() * npy_item_size(*dtype));
    std::vector<vx_size> start(ndims, 0), end(dims.begin(), dims.end());
    const std::vector<vx_size> strides = dense_strides(dims, npy_item_size(*dtype));
    status = vxCopyTensorPatch(t, ndims, start.data(), end.data(), strides.data(), result.array.data.data(),
                               VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
    if (status != VX_SUCCESS) throw fail(fmt::format("reading output '{}'", name), status);
    result.values = result.array.to_floats();
    results.insert_or_assign(name, std::move(result));
  }

  // deinitialize: releasing the graph runs the deinitializer.
  node.reset();
  graph.reset();
  add_step("deinitialize", probe.deinitialize);
  if (probe.deinitialize.called && probe.deinitialize.status != VX_SUCCESS) {
    results.clear();
    throw step_failure("deinitialize", probe.deinitialize);
  }
  return report;
}

} // namespace rknnop::host

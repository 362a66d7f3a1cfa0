// SPDX-License-Identifier: MIT
#include "rknnop/host/session.hpp"

#include "rknnop/host/engine.hpp"

#include "rknnop/host/error.hpp"
#include <rknnop/vx_type.hpp>

#include <rknnop/host/openvx_host.h>
#include <rknnop/openvx.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "formats/byte_io.hpp"
#include "isolate/node_child.hpp"
#include "formats/type_text.hpp"

namespace rknnop::host {

namespace {

constexpr std::size_t max_tensor_rank = vx_max_tensor_rank;  // <rknnop/vx_type.hpp>

// --- tensor types ---------------------------------------------------------------------------

// npy_dtype's values are the VX types of the same name: the tensor element types of the one table.
std::optional<npy_dtype> npy_dtype_for(std::int32_t vx) {
  if (vx_type_npy_descr(vx).empty()) return std::nullopt;
  return static_cast<npy_dtype>(vx);
}

std::int32_t vx_type_for(npy_dtype d) { return static_cast<std::int32_t>(d); }

void check_tensor_type(std::string_view what, std::string_view name, std::int32_t type) {
  if (!npy_dtype_for(type))
    throw error(
        fmt::format("{} '{}': tensor type {} is not supported; use VX_TYPE_FLOAT16, FLOAT32, INT8, "
                    "UINT8, INT16, UINT16 or INT32",
                    what, name, type_text(type)));
}

void check_shape(std::string_view what, std::string_view name, std::string_view source,
                 const std::vector<std::size_t>& shape) {
  const std::string from = source.empty() ? std::string() : fmt::format(" ({})", source);
  if (shape.empty() || shape.size() > max_tensor_rank)
    throw error(fmt::format("{} '{}'{}: rank {} is not supported: OpenVX tensors have 1 to {} dims", what, name, from,
                            shape.size(), max_tensor_rank));
  for (const std::size_t d : shape)
    if (d == 0)
      throw error(fmt::format("{} '{}'{}: shape ({}) has a zero dimension", what, name, from, fmt::join(shape, ", ")));
}

// What rknnop's op.yml comments add to a row of describe(): accepted dtypes, array limits, enum names,
// the default (or "required").
std::string field_details(const op_yml_entry& e, bool written_by_rknnop) {
  std::vector<std::string> parts;
  if (!e.dtypes.empty()) parts.push_back(fmt::format("dtypes {}", fmt::join(e.dtypes, "|")));
  if (!e.layout.empty()) parts.push_back(fmt::format("layout {}", e.layout));
  if (e.items) parts.push_back(fmt::format("{} {} int32 items", e.items_exact ? "exactly" : "at most", *e.items));
  if (!e.enumerators.empty()) {
    std::vector<std::string> names;
    for (const op_yml_enumerator& n : e.enumerators) names.push_back(fmt::format("{}={}", n.name, n.value));
    parts.push_back(fmt::format("enum {}", fmt::join(names, ", ")));
  }
  if (e.default_text)
    parts.push_back(fmt::format("default {}", e.default_text->empty() ? "(empty)" : *e.default_text));
  else if (e.type != VX_TYPE_TENSOR && written_by_rknnop)
    parts.emplace_back("required");
  return parts.empty() ? std::string() : fmt::format("  {}", fmt::join(parts, "; "));
}

}  // namespace

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

  std::optional<op_library> library;             // in_process: loaded here
  std::optional<child_io::child_library> child;  // child: loaded and run by rknnop-node
  child_io::runner_slot runner;                  // child: the runner that loaded it, kept for the runs
  op_yml child_op;
  kernel_descriptor_info child_kernel;
  std::map<std::string, input_data, std::less<>> inputs;
  std::map<std::string, output_request, std::less<>> output_shapes;
  std::map<std::string, param_value, std::less<>> params;
  std::map<std::string, tensor_result, std::less<>> results;
  std::function<void(void*)> hook;
  std::optional<node_shader> shader;  // child: sent with each run
  bool allow_lossy = false;
  std::vector<std::string> notes;

  explicit state(op_library lib) : library(std::move(lib)) {}
  explicit state(child_io::child_library lib, child_io::runner_slot started, op_yml op, kernel_descriptor_info kernel)
      : child(std::move(lib)), runner(std::move(started)), child_op(std::move(op)), child_kernel(std::move(kernel)) {}

  [[nodiscard]] const op_yml& op() const noexcept { return library ? library->op() : child_op; }
  [[nodiscard]] const kernel_descriptor_info& kernel() const noexcept {
    return library ? library->kernel() : child_kernel;
  }

  [[nodiscard]] std::string op_label() const { return fmt::format("op '{}' (kernel '{}')", op().name, kernel().name); }

  const op_yml_entry& entry(op_entry_kind kind, std::string_view name) const { return find_op_entry(op(), kind, name); }

  void set_input(std::string_view name, const npy_array& data, std::optional<vx_type> tensor_type,
                 std::string_view source) {
    (void)entry(op_entry_kind::input, name);
    const std::int32_t type = tensor_type ? std::int32_t{*tensor_type} : vx_type_for(data.dtype);
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
      conversion_report r;
      in.bytes = convert_to_float(data, wanted, r).data;
      note_conversion(name, from, data, type, r);
    } else {
      throw error(fmt::format("input '{}'{}: cannot store {} data in a {} tensor; save the array as {}", name, from,
                              npy_descr(data.dtype), type_text(type), npy_descr(wanted)));
    }
    inputs.insert_or_assign(std::string(name), std::move(in));
  }

  // The precision rule of set_input: losses are errors unless allowed, rounding is a note.
  void note_conversion(std::string_view name, std::string_view from, const npy_array& data, std::int32_t type,
                       const conversion_report& r) {
    const std::string what = fmt::format("converting {} to {}", npy_descr(data.dtype), type_text(type));
    // The original value as its own dtype prints it: 1e-08 for a float32, not its double expansion.
    const auto shown = [&](double v) {
      return data.dtype == npy_dtype::float32 || data.dtype == npy_dtype::float16
                 ? fmt::format("{}", static_cast<float>(v))
                 : fmt::format("{}", v);
    };
    if (r.first_lossy && !allow_lossy)
      throw error(fmt::format(
          "input '{}'{}: element {} (index {}) = {} {} {}; keep the data's dtype (rknnop-run --tensor-type npy) or "
          "accept it (--allow-lossy, session::allow_lossy)",
          name, from, *r.first_lossy, numpy_index(data.shape, *r.first_lossy), shown(r.first_lossy_value),
          std::isinf(r.first_lossy_result)   ? "overflows to inf"
          : std::isnan(r.first_lossy_result) ? "becomes NaN"
                                             : "is flushed to zero",
          what));
    if (r.rounded == 0 && r.lossy == 0) return;
    std::string line = fmt::format("input '{}'{}: {} of {} values rounded {} (largest relative change {:.3g})", name,
                                   from, r.rounded, r.count, what, r.largest_relative);
    if (r.lossy != 0)
      line +=
          fmt::format("; {} lost (overflow, NaN or flushed to zero), allowed: the first, element {} = {}, became {}",
                      r.lossy, *r.first_lossy, shown(r.first_lossy_value), r.first_lossy_result);
    notes.push_back(std::move(line));
  }

  void set_param(std::string_view name, param_value value) {
    const op_yml_entry& e = entry(op_entry_kind::param, name);
    check_param_value(e, value);  // type, enum values, item count: the rule of every tool
    params.insert_or_assign(std::string(name), std::move(value));
  }

  run_report run();
};

session::session(std::unique_ptr<state> s) noexcept : state_(std::move(s)) {}
session::session(session&&) noexcept = default;
session& session::operator=(session&&) noexcept = default;
session::~session() = default;

session session::load(const std::filesystem::path& op, const load_options& options) {
  return load(op_source::read(op), options);
}

session session::load(op_source op, const load_options& options) {
  if (options.execution.value_or(default_node_execution()) == node_execution::in_process)
    return session(std::make_unique<state>(op_library::open(std::move(op), options)));
  // Nothing of the library runs here: checked here, loaded in a child (isolation.hpp).
  child_io::child_library child;
  child.label = op.label;
  library_inspection inspected = op_library::inspect(std::move(op), options);
  child.origin = options.origin;
  if (child.origin.empty()) {  // "F.rknnop (x86-64 library section)" -> "F.rknnop, x86-64 library section"
    child.origin = inspected.label;
    if (const auto open = child.origin.rfind(" ("); open != std::string::npos && child.origin.ends_with(" section)"))
      child.origin =
          child.origin.substr(0, open) + ", " + child.origin.substr(open + 2, child.origin.size() - open - 3);
  }
  child.file = std::move(inspected.file);
  child.options = options;
  child.options.op_yml = inspected.op_yml_path;
  child.op_name = inspected.op.name;
  child_io::runner_slot runner;
  kernel_descriptor_info kernel = child_io::load_in_child(child, runner);
  // The runner's loader checked the table against op.yml; a reply that says otherwise was forged.
  if (kernel.num_params != inspected.op.parameter_count())
    throw error(
        fmt::format("{} ({}): the node runner's reply is forged: kernel '{}' has numParams {}, op.yml "
                    "declares {}",
                    child.op_name, child.origin, kernel.name, kernel.num_params, inspected.op.parameter_count()));
  return session(
      std::make_unique<state>(std::move(child), std::move(runner), std::move(inspected.op), std::move(kernel)));
}

const op_yml& session::op() const noexcept { return state_->op(); }
const kernel_descriptor_info& session::kernel() const noexcept { return state_->kernel(); }

std::string session::describe() const {
  const op_yml& op = state_->op();
  const kernel_descriptor_info& k = state_->kernel();
  std::string out =
      fmt::format("op {}: kernel_index {} of {} in {}: '{}' ({} kernel), enumeration 0x{:08x}, numParams {}\n", op.name,
                  k.kernel_index, k.list_size, k.list_symbol, k.name, k.is_shader ? "VX shader" : "CPU",
                  static_cast<std::uint32_t>(k.enumeration), k.num_params);
  out += fmt::format("  parameter order: {}\n", op.port_order_source);
  if (op.port_order_warning) out += fmt::format("  warning: {}\n", *op.port_order_warning);
  for (const std::string& line : v1_graph_edge_problems(op)) out += fmt::format("  warning: {}\n", line);
  for (const std::string& line : v1_param_problems(op)) out += fmt::format("  warning: {}\n", line);
  out += "  inputs are created as VX_TYPE_FLOAT16 tensors (as on the board) unless a tensor type is given\n";
  std::size_t index = 0;
  const auto row = [&](std::string_view role, const op_yml_entry& e) {
    const kernel_parameter& p = k.parameters.at(index);
    out += fmt::format("  {} {:<6} {:<20} {:<16} descriptor {{{}, {}, {}}}{}\n", index, role, e.name, type_text(e.type),
                       p.direction == VX_INPUT ? "VX_INPUT" : "VX_OUTPUT", type_text(p.data_type),
                       p.state == VX_PARAMETER_STATE_REQUIRED ? "REQUIRED" : "OPTIONAL",
                       field_details(e, op.schema_fingerprint.has_value()));
    ++index;
  };
  for (const op_yml_entry& e : op.inputs) row("input", e);
  for (const op_yml_entry& e : op.outputs) row("output", e);
  for (const op_yml_entry& e : op.params) row("param", e);
  return out;
}

void session::set_input(std::string_view name, const npy_array& data, std::optional<vx_type> tensor_type) {
  state_->set_input(name, data, tensor_type, {});
}

void session::set_input(std::string_view name, const std::filesystem::path& npy_file,
                        std::optional<vx_type> tensor_type) {
  (void)state_->entry(op_entry_kind::input, name);  // name errors before file errors
  state_->set_input(name, read_npy_file(npy_file), tensor_type, npy_file.string());
}

void session::set_input(std::string_view name, std::span<const float> values, std::vector<std::size_t> shape,
                        std::optional<vx_type> tensor_type) {
  (void)state_->entry(op_entry_kind::input, name);
  check_shape("input", name, {}, shape);
  npy_array a;
  a.shape = shape;
  if (a.element_count() != values.size())
    throw error(fmt::format("input '{}': shape ({}) needs {} values, got {}", name, fmt::join(shape, ", "),
                            a.element_count(), values.size()));
  state_->set_input(name, npy_array::from_floats(values, std::move(shape)), tensor_type, {});
}

void session::set_output_shape(std::string_view name, std::vector<std::size_t> shape, vx_type tensor_type) {
  (void)state_->entry(op_entry_kind::output, name);
  check_tensor_type("output", name, tensor_type);
  check_shape("output", name, {}, shape);
  state_->output_shapes.insert_or_assign(std::string(name), state::output_request{to_openvx_dims(shape), tensor_type});
}

void session::set_param(std::string_view name, const param_value& value) { state_->set_param(name, value); }

void session::set_param(std::string_view name, std::string_view text) {
  const op_yml_entry& e = state_->entry(op_entry_kind::param, name);
  state_->set_param(name, parse_param_value(e, text));
}

void session::set_param(std::string_view name, bool value) {
  state_->set_param(name, make_param_value(name, state_->entry(op_entry_kind::param, name).type, value));
}
void session::set_param_integer(std::string_view name, std::int64_t value) {
  state_->set_param(name, make_param_value(name, state_->entry(op_entry_kind::param, name).type, value));
}
void session::set_param_unsigned(std::string_view name, std::uint64_t value) {
  state_->set_param(name, make_param_value(name, state_->entry(op_entry_kind::param, name).type, value));
}
void session::set_param_float(std::string_view name, double value) {
  state_->set_param(name, make_param_value(name, state_->entry(op_entry_kind::param, name).type, value));
}
void session::set_param(std::string_view name, std::span<const std::int32_t> items) {
  state_->set_param(name, make_param_value(name, state_->entry(op_entry_kind::param, name).type, items));
}

void session::allow_lossy(bool allow) noexcept { state_->allow_lossy = allow; }
const std::vector<std::string>& session::conversion_notes() const noexcept { return state_->notes; }

void session::on_context(std::function<void(void*)> hook) { state_->hook = std::move(hook); }
void session::set_shader(node_shader shader) { state_->shader = std::move(shader); }

run_report session::run() { return state_->run(); }

const tensor_result& session::output(std::string_view name) const {
  (void)state_->entry(op_entry_kind::output, name);
  const auto it = state_->results.find(name);
  if (it == state_->results.end())
    throw error(
        fmt::format("output '{}' of op '{}' is not available: run() has not completed", name, state_->op().name));
  return it->second;
}

run_report session::state::run() {
  const op_yml& op = this->op();
  // Everything must be set before anything is created.
  std::vector<std::string> missing;
  for (const op_yml_entry& e : op.inputs)
    if (!inputs.contains(e.name)) missing.push_back("input '" + e.name + "'");
  for (const op_yml_entry& e : op.params)
    if (!params.contains(e.name)) {
      if (auto value = default_param_value(e))  // the op struct's default (op.yml's rknnop-field comment)
        set_param(e.name, *std::move(value));
      else
        missing.push_back("param '" + e.name + "'");
    }
  if (!missing.empty()) throw error(fmt::format("{}: not set: {}", op_label(), fmt::join(missing, ", ")));
  results.clear();

  node_spec spec;
  spec.descriptor = library ? library->descriptor() : nullptr;
  spec.label = op_label();
  spec.on_context = hook;
  if (child) spec.shader = shader;
  for (const op_yml_entry& e : op.inputs) {
    const input_data& in = inputs.find(e.name)->second;
    spec.inputs.push_back(node_input{e.name, in.type, in.dims, std::as_bytes(std::span(in.bytes))});
  }
  for (const op_yml_entry& e : op.outputs) {
    node_output_request o{e.name, std::nullopt, 0};
    if (const auto it = output_shapes.find(e.name); it != output_shapes.end()) {
      o.dims = it->second.dims;
      o.type = it->second.type;
    }
    spec.outputs.push_back(std::move(o));
  }
  for (const op_yml_entry& e : op.params) spec.params.push_back(node_param{e.name, params.find(e.name)->second});

  node_result ran = library ? run_node(spec) : child_io::run_in_child(*child, runner, spec);
  std::map<std::string, tensor_result, std::less<>> read;
  for (node_output& o : ran.outputs) {
    const auto dtype = npy_dtype_for(o.type);
    if (!dtype)
      throw error(fmt::format("{}: output '{}' has tensor type {}, which rknnop cannot read back", spec.label, o.name,
                              type_text(o.type)));
    tensor_result result;
    result.dims = o.dims;
    result.shape = from_openvx_dims(o.dims);
    result.vx_type = static_cast<vx_type>(o.type);
    result.array.dtype = *dtype;
    result.array.shape = result.shape;
    result.array.data.resize(o.bytes.size());
    if (!o.bytes.empty()) std::memcpy(result.array.data.data(), o.bytes.data(), o.bytes.size());
    result.values = result.array.to_floats();
    read.insert_or_assign(o.name, std::move(result));
  }
  results = std::move(read);
  return std::move(ran.report);
}

}  // namespace rknnop::host

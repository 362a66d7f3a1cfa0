// SPDX-License-Identifier: MIT
// rknnop::parity: CPU kernel vs VX kernel through rknnop's host OpenVX runtime.
#include <rknnop/parity/parity.hpp>
#include <rknnop/host/engine.hpp>
#include <rknnop/host/error.hpp>
#include <rknnop/host/openvx_host.h>
#include <rknnop/float16.hpp>
#include <rknnop/vx_type.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <sstream>
#include <type_traits>
#include <utility>

namespace rknnop::parity {

namespace {

std::string join_dims(const std::vector<std::uint32_t>& dims) {
  std::string s = "[";
  for (std::size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
  return s + "]";
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

template <class T>
T saturate(float v) {
  const float r = std::nearbyint(v);
  if (std::isnan(r)) return T{0};
  if (r <= static_cast<float>(std::numeric_limits<T>::min())) return std::numeric_limits<T>::min();
  if (r >= static_cast<float>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
  return static_cast<T>(r);
}

template <class T>
void store(std::byte* p, T v) {
  std::memcpy(p, &v, sizeof v);
}
template <class T>
T load(const std::byte* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

std::string auto_label(const op_info& op, const parity_case& c) {
  std::string s;
  for (std::size_t i = 0; i < c.inputs.size(); ++i) {
    const std::string name = i < op.signature.inputs.size() ? op.signature.inputs[i] : "?";
    s += (i ? " " : "") + name + join_dims(c.inputs[i].dims) + " " + vxc::vx_type_name(c.inputs[i].dtype).substr(8);
  }
  for (const param_data& p : c.params) {  // appended: GCC 12's -Wrestrict misfires on " " + std::string at -O3
    s += ' ';
    s += p.to_string();
  }
  return s;
}

// Checks the case against the op's table before anything is created.
std::string check_case(const op_info& op, const parity_case& c) {
  const vxc::op_signature& sig = op.signature;
  if (c.inputs.size() != sig.inputs.size()) {
    return "rknnop: op '" + sig.name + "' has " + std::to_string(sig.inputs.size()) + " input(s), the case gives " +
           std::to_string(c.inputs.size());
  }
  for (std::size_t i = 0; i < c.inputs.size(); ++i) {
    const tensor_data& t = c.inputs[i];
    const std::size_t esize = element_size(t.dtype);
    if (esize == 0)
      return "rknnop: input '" + sig.inputs[i] + "': tensor type " + vxc::vx_type_name(t.dtype) + " is not supported";
    if (t.dims.empty() || t.dims.size() > 6) return "rknnop: input '" + sig.inputs[i] + "': rank must be 1..6";
    if (t.bytes.size() != t.element_count() * esize) {
      return "rknnop: input '" + sig.inputs[i] + "': " + std::to_string(t.bytes.size()) + " bytes for dims " +
             join_dims(t.dims) + " of " + vxc::vx_type_name(t.dtype);
    }
  }
  if (c.params.size() != sig.params.size()) {
    return "rknnop: op '" + sig.name + "' has " + std::to_string(sig.params.size()) + " param(s), the case gives " +
           std::to_string(c.params.size());
  }
  for (std::size_t i = 0; i < c.params.size(); ++i) {
    const vxc::op_param& want = sig.params[i];
    const param_data& got = c.params[i];
    if (got.name != want.name) {
      return "rknnop: param " + std::to_string(i) + " of op '" + sig.name + "' is '" + want.name +
             "', the case gives '" + got.name + "'";
    }
    const bool is_array = std::holds_alternative<std::vector<std::int32_t>>(got.value);
    if (is_array != (want.type == vx_type::array) ||
        (!is_array && std::get<vxc::scalar_arg>(got.value).type != want.type)) {
      return "rknnop: param '" + want.name + "' is " + vxc::vx_type_name(want.type) + ", the case gives " +
             (is_array ? std::string("an array") : "a " + vxc::vx_type_name(std::get<vxc::scalar_arg>(got.value).type));
    }
  }
  return {};
}

}  // namespace

// ------------------------------------------------------------------------------------------------
std::size_t element_size(vx_type dtype) noexcept { return vxc::tensor_element_size(dtype); }

std::size_t tensor_data::element_count() const noexcept {
  std::size_t n = 1;
  for (std::uint32_t d : dims) n *= d;
  return n;
}

tensor_data tensor_data::from_floats(std::vector<std::uint32_t> dims, vx_type dtype, std::span<const float> values) {
  tensor_data t;
  t.dims = std::move(dims);
  t.dtype = dtype;
  const std::size_t esize = element_size(dtype);
  t.bytes.resize(values.size() * esize);
  // The element type dispatched once, from the one table (<rknnop/vx_type.hpp>); other types stay zero.
  visit_tensor_element_type(dtype, [&]<class T>(std::type_identity<T>) {
    for (std::size_t i = 0; i < values.size(); ++i) {
      std::byte* p = t.bytes.data() + i * esize;
      if constexpr (std::is_same_v<T, float16>)
        store(p, float16(values[i]).bits());
      else if constexpr (std::is_same_v<T, float>)
        store(p, values[i]);
      else
        store(p, saturate<T>(values[i]));
    }
  });
  return t;
}

std::vector<float> tensor_data::to_floats() const {
  const std::size_t esize = element_size(dtype);
  if (esize == 0) return {};
  std::vector<float> out(bytes.size() / esize);
  visit_tensor_element_type(dtype, [&]<class T>(std::type_identity<T>) {
    for (std::size_t i = 0; i < out.size(); ++i) {
      const std::byte* p = bytes.data() + i * esize;
      if constexpr (std::is_same_v<T, float16>)
        out[i] = static_cast<float>(float16::from_bits(load<std::uint16_t>(p)));
      else
        out[i] = static_cast<float>(load<T>(p));
    }
  });
  return out;
}

tensor_data random_tensor(std::vector<std::uint32_t> dims, vx_type dtype, std::mt19937_64& rng, float low, float high) {
  std::size_t count = 1;
  for (std::uint32_t d : dims) count *= d;
  const bool integral = dtype != vx_type::float16 && dtype != vx_type::float32;
  std::vector<float> values(count);
  // Own mapping of the 64-bit stream (distributions are implementation-defined): same data everywhere.
  for (float& v : values) {
    const double unit = static_cast<double>(rng() >> 11) * 0x1.0p-53;
    const double x = static_cast<double>(low) + unit * (static_cast<double>(high) - static_cast<double>(low));
    v = static_cast<float>(integral ? std::floor(x + 0.5) : x);
  }
  return tensor_data::from_floats(std::move(dims), dtype, values);
}

// The scalar's C++ type is the one table's (visit_scalar_type: CHAR a signed byte, BOOL a 4-byte vx_bool).
vxc::scalar_arg param_data::make_scalar(vx_type type, double value) {
  vxc::scalar_arg arg{type, {}, 0};
  if (type == vx_type::bool_) return vxc::scalar_arg::of(type, static_cast<std::int32_t>(value != 0.0 ? 1 : 0));
  visit_scalar_type(type, [&]<class T>(std::type_identity<T>) {
    if constexpr (std::is_same_v<T, float16>)
      arg = vxc::scalar_arg::of(type, float16(static_cast<float>(value)).bits());
    else
      arg = vxc::scalar_arg::of(type, static_cast<T>(value));
  });
  return arg;
}

std::string param_data::to_string() const {
  if (const auto* items = std::get_if<std::vector<std::int32_t>>(&value)) {
    std::string s = name + "=[";
    for (std::size_t i = 0; i < items->size(); ++i) s += (i ? ", " : "") + std::to_string((*items)[i]);
    return s + "]";
  }
  const vxc::scalar_arg& s = std::get<vxc::scalar_arg>(value);
  const std::byte* p = s.bytes.data();
  std::string v = "?";
  visit_scalar_type(s.type, [&]<class T>(std::type_identity<T>) {
    if constexpr (std::is_same_v<T, float16>)
      v = number(static_cast<float>(float16::from_bits(load<std::uint16_t>(p))));
    else if constexpr (std::is_floating_point_v<T>)
      v = number(load<T>(p));
    else
      v = std::to_string(load<T>(p));  // BOOL: its int32
  });
  return name + "=" + v;
}

std::string_view outcome_name(outcome o) noexcept {
  switch (o) {
    case outcome::pass: return "PASS";
    case outcome::fail: return "FAIL";
    case outcome::no_opencl: return "NO-OPENCL";
    case outcome::error: return "ERROR";
  }
  return "?";
}

std::string case_report::to_string() const {
  std::string s = "case '" + label + "': " + std::string(outcome_name(result));
  if (!message.empty()) s += ": " + message;
  for (const output_diff& d : outputs) {
    s += "\n  output '" + d.name + "' dims " + join_dims(d.dims) + ": max abs " + number(d.max_abs) + ", max rel " +
         number(d.max_rel) + "; " + std::to_string(d.mismatches) + " of " + std::to_string(d.elements) +
         " outside abs " + number(tol.abs) + " + rel " + number(tol.rel);
    if (d.elements != 0) {
      // The element's coordinates, innermost first like the dims.
      std::vector<std::uint32_t> at;
      std::size_t rest = d.worst;
      for (std::uint32_t extent : d.dims) {
        at.push_back(extent != 0 ? static_cast<std::uint32_t>(rest % extent) : 0U);
        rest = extent != 0 ? rest / extent : 0;
      }
      s += " (worst at " + join_dims(at) + ": cpu " + number(d.worst_cpu) + ", vx " + number(d.worst_vx) + ")";
    }
  }
  return s;
}

// ------------------------------------------------------------------------------------------------
namespace {

// The case's param as the engine takes it (host::param_value: arrays as INT32 items, scalars as bytes).
host::param_value engine_param(const param_data& p) {
  host::param_value v;
  if (const auto* items = std::get_if<std::vector<std::int32_t>>(&p.value)) {
    v.type = static_cast<std::int32_t>(vx_type::array);
    v.items = *items;
    return v;
  }
  const vxc::scalar_arg& s = std::get<vxc::scalar_arg>(p.value);
  v.type = static_cast<std::int32_t>(s.type);
  std::memcpy(v.scalar.data(), s.bytes.data(), v.scalar.size());
  return v;
}

}  // namespace

kernel_run run_kernel(const vx_kernel_description_t& d, const op_info& op, const parity_case& c,
                      vxc::shader_bridge* bridge) {
  kernel_run out;
  const vxc::op_signature& sig = op.signature;
  const std::string who = "kernel '" + std::string(d.name) + "'";
  if (std::string problem = check_case(op, c); !problem.empty()) {
    out.message = std::move(problem);
    return out;
  }
  const std::size_t table = sig.inputs.size() + sig.outputs.size() + sig.params.size();
  if (d.numParams != table) {
    out.message = "rknnop: " + who + " has numParams " + std::to_string(d.numParams) + ", op '" + sig.name + "' has " +
                  std::to_string(table) + " inputs, outputs and params";
    return out;
  }
  const bool shader = d.function == nullptr;
  if (shader && bridge == nullptr) {
    out.message = "rknnop: " + who + " is a shader kernel and no shader bridge was given";
    return out;
  }

  host::node_spec spec;
  spec.descriptor = &d;
  spec.label = who;
  for (std::size_t i = 0; i < c.inputs.size(); ++i) {
    const tensor_data& in = c.inputs[i];
    spec.inputs.push_back(host::node_input{sig.inputs[i], static_cast<std::int32_t>(in.dtype), in.dims, in.bytes});
  }
  for (const std::string& name : sig.outputs) spec.outputs.push_back(host::node_output_request{name, std::nullopt, 0});
  for (const param_data& p : c.params) spec.params.push_back(host::node_param{p.name, engine_param(p)});
  if (shader) {
    spec.on_context = [&](void* ctx) {
      if (bridge->attach(static_cast<vx_context>(ctx)) != VX_SUCCESS)
        throw host::error(who + ": attaching the shader bridge failed");
    };
  }
  try {
    host::node_result ran = host::run_node(spec);
    for (host::node_output& o : ran.outputs)
      out.outputs.push_back(tensor_data{std::move(o.dims), static_cast<vx_type>(o.type), std::move(o.bytes)});
    out.result = outcome::pass;
  } catch (const host::error& e) {
    // A shader that could not run for want of OpenCL is not an error of the op.
    const bool no_opencl = shader && bridge->last_result().status == vxc::run_status::no_opencl;
    out.result = no_opencl ? outcome::no_opencl : outcome::error;
    out.message = e.what();
  }
  return out;
}

void compare_outputs(const op_info& op, const std::vector<tensor_data>& cpu, const std::vector<tensor_data>& vx,
                     case_report& report) {
  report.tol = op.tol;
  report.outputs.clear();
  report.result = outcome::pass;
  const auto note = [&](const std::string& m) {
    report.result = outcome::fail;
    report.message += (report.message.empty() ? "" : "; ") + m;
  };
  if (cpu.size() != vx.size() || cpu.size() != op.signature.outputs.size()) {
    report.result = outcome::error;
    report.message = "rknnop: output counts differ (op " + std::to_string(op.signature.outputs.size()) + ", cpu " +
                     std::to_string(cpu.size()) + ", vx " + std::to_string(vx.size()) + ")";
    return;
  }
  for (std::size_t o = 0; o < cpu.size(); ++o) {
    output_diff d;
    d.name = op.signature.outputs[o];
    d.dims = cpu[o].dims;
    d.dtype = cpu[o].dtype;
    if (cpu[o].dims != vx[o].dims || cpu[o].dtype != vx[o].dtype) {
      note("output '" + d.name + "': the CPU kernel gives " + join_dims(cpu[o].dims) + " " +
           vxc::vx_type_name(cpu[o].dtype) + ", the VX kernel " + join_dims(vx[o].dims) + " " +
           vxc::vx_type_name(vx[o].dtype));
      d.within = false;
      report.outputs.push_back(std::move(d));
      continue;
    }
    const std::vector<float> a = cpu[o].to_floats();
    const std::vector<float> b = vx[o].to_floats();
    d.elements = a.size();
    double worst_excess = -std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < a.size(); ++i) {
      const double x = a[i], y = b[i];
      double diff = 0.0;
      if (std::isnan(x) || std::isnan(y))
        diff = std::isnan(x) && std::isnan(y) ? 0.0 : HUGE_VAL;
      else if (x != y)
        diff = std::fabs(x - y);  // equal infinities: 0, not NaN
      const double limit = op.tol.abs + op.tol.rel * (std::isfinite(x) ? std::fabs(x) : 0.0);
      const double rel = diff / std::max(std::isfinite(x) ? std::fabs(x) : 1.0, op.tol.abs);
      d.max_abs = std::max(d.max_abs, diff);
      d.max_rel = std::max(d.max_rel, rel);
      if (diff > limit) ++d.mismatches;
      if (diff - limit > worst_excess) {
        worst_excess = diff - limit;
        d.worst = i;
        d.worst_cpu = a[i];
        d.worst_vx = b[i];
      }
    }
    d.within = d.mismatches == 0;
    if (!d.within) {
      note("output '" + d.name + "': " + std::to_string(d.mismatches) + " of " + std::to_string(d.elements) +
           " elements outside the tolerance");
    }
    report.outputs.push_back(std::move(d));
  }
}

// ------------------------------------------------------------------------------------------------
struct checker::impl {
  op_info op;
  const vx_kernel_description_t* cpu = nullptr;
  kernel_runner cpu_run;  // set: the CPU side runs there, not through `cpu`
  const vx_kernel_description_t* vx = nullptr;
  kernel_runner vx_run;  // set: the VX side runs there (with its shader), not through `vx` and the bridge
  vxc::shader_bridge bridge;

  impl(op_info o, const vx_kernel_description_t* c, const vx_kernel_description_t* v,
       vxc::shader_source_provider shader)
      : op(std::move(o)), cpu(c), vx(v), bridge(std::move(shader)) {}

  // The VX side through vx_run. No OpenCL here is none where it runs either: no_opencl, as this
  // process's bridge would report it, without starting the run.
  kernel_run run_vx_elsewhere(const parity_case& c) const {
    if (bridge.available()) return vx_run(c);
    kernel_run out;
    out.result = outcome::no_opencl;
    out.message = "rknnop: op '" + op.signature.name + "': cannot run the VX shader on the host: " + bridge.status();
    return out;
  }
};

checker::checker(op_info op, const vx_kernel_description_t* cpu, const vx_kernel_description_t* vx,
                 vxc::shader_source_provider shader)
    : impl_(std::make_unique<impl>(std::move(op), cpu, vx, std::move(shader))) {}

checker::checker(op_info op, cpu_runner cpu, const vx_kernel_description_t* vx, vxc::shader_source_provider shader)
    : impl_(std::make_unique<impl>(std::move(op), nullptr, vx, std::move(shader))) {
  impl_->cpu_run = std::move(cpu);
}

checker::checker(op_info op, kernel_runner cpu, kernel_runner vx)
    : impl_(std::make_unique<impl>(std::move(op), nullptr, nullptr, vxc::shader_source_provider{})) {
  impl_->cpu_run = std::move(cpu);
  impl_->vx_run = std::move(vx);
}

checker::checker(op_info op, vx_kernel_description_t* const* list, vxc::shader_source_provider shader)
    : checker(std::move(op), list != nullptr ? list[0] : nullptr,
              list != nullptr && list[0] != nullptr ? list[1] : nullptr, std::move(shader)) {}

checker::~checker() = default;
checker::checker(checker&&) noexcept = default;
checker& checker::operator=(checker&&) noexcept = default;

const op_info& checker::op() const noexcept { return impl_->op; }
bool checker::opencl_available() const noexcept { return impl_->bridge.available(); }
const std::string& checker::opencl_status() const noexcept { return impl_->bridge.status(); }

case_report checker::run(const parity_case& c) {
  case_report report;
  report.tol = impl_->op.tol;
  report.label = c.label.empty() ? auto_label(impl_->op, c) : c.label;
  if ((impl_->cpu == nullptr && !impl_->cpu_run) || (impl_->vx == nullptr && !impl_->vx_run)) {
    report.message = "rknnop: op '";  // appended: GCC 12's -Wrestrict misfires on "..." + std::string at -O3
    report.message += impl_->op.signature.name;
    report.message += "': the descriptor list needs a CPU kernel (index 0) and a VX kernel (index 1)";
    return report;
  }
  if ((impl_->cpu != nullptr && impl_->cpu->function == nullptr) ||
      (impl_->vx != nullptr && impl_->vx->function != nullptr)) {
    report.message = "rknnop: op '" + impl_->op.signature.name +
                     "': index 0 must be a CPU kernel (function set) and index 1 a VX kernel (function NULL)";
    return report;
  }
  if (std::string problem = check_case(impl_->op, c); !problem.empty()) {
    report.message = "CPU kernel: " + problem;
    return report;
  }
  kernel_run cpu = impl_->cpu_run ? impl_->cpu_run(c) : run_kernel(*impl_->cpu, impl_->op, c, nullptr);
  if (cpu.result != outcome::pass) {
    report.result = cpu.result;
    report.message = "CPU kernel: " + cpu.message;
    return report;
  }
  kernel_run vx = impl_->vx_run ? impl_->run_vx_elsewhere(c) : run_kernel(*impl_->vx, impl_->op, c, &impl_->bridge);
  if (vx.result != outcome::pass) {
    report.result = vx.result;
    report.message = "VX kernel: " + vx.message;
    return report;
  }
  compare_outputs(impl_->op, cpu.outputs, vx.outputs, report);
  return report;
}

}  // namespace rknnop::parity

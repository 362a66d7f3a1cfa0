// SPDX-License-Identifier: MIT
// rknnop-parity: runs an op's CPU kernel (list index 0) and VX kernel (index 1, its .vx on POCL) on
// the same inputs through rknnop's host OpenVX runtime and compares their outputs.
//   rknnop-parity OP.rknnop|lib<op>.so [--op-yml op.yml] [--vx file.vx]
//                 [--input NAME=FILE.npy ...] [--shape NAME=1,8,8,3 ...] [--param NAME=VALUE ...]
//                 [--random N] [--seed S] [--range LOW,HIGH] [--tensor-type VX_TYPE_FLOAT16]
//                 [--abs-tol X] [--rel-tol Y]
// Prints one report per case and the largest differences per output. Exit status: 0 every case
// within tolerance; 1 a difference beyond tolerance or a kernel failure; 2 a usage error;
// 77 no OpenCL device (the VX kernel could not run: not a pass).

#include "cli.hpp"  // tools/common: parse_or_exit, tool_failure, usage_error
#include <rknnop/host/error.hpp>
#include <rknnop/host/isolation.hpp>
#include <rknnop/host/loader.hpp>
#include <rknnop/host/npy.hpp>
#include <rknnop/host/param_value.hpp>
#include <rknnop/host/session.hpp>
#include <rknnop/parity/parity.hpp>
#include <rknnop/vx_type.hpp>
#include <rknnop/vxc/signature_of.hpp>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>  // setenv
#include <cstring>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace {

namespace host = rknnop::host;
namespace parity = rknnop::parity;
using rknnop::vx_type;

using rknnop::tools::exit_failure;  // tools/common: every tool's exit statuses
constexpr int exit_no_opencl = 77;

using rknnop::tools::usage_error;

// NAME=VALUE options (each NAME at most once) by name.
std::map<std::string, std::string> assignments(std::string_view option, const std::vector<std::string>& texts,
                                               std::string_view hint) {
  std::map<std::string, std::string> out;
  for (rknnop::tools::assignment& a : rknnop::tools::parse_assignments(option, texts, hint))
    out.emplace(std::move(a.name), std::move(a.value));
  return out;
}

std::pair<float, float> parse_range(std::string_view text) {
  const auto comma = text.find(',');
  float low = 0.0f;
  float high = 0.0f;
  bool ok = comma != std::string_view::npos;
  if (ok) {
    const std::string a(text.substr(0, comma));
    const std::string b(text.substr(comma + 1));
    char* end = nullptr;
    low = std::strtof(a.c_str(), &end);
    ok = !a.empty() && *end == '\0';
    high = std::strtof(b.c_str(), &end);
    ok = ok && !b.empty() && *end == '\0' && low <= high;
  }
  if (!ok) throw usage_error("--range '" + std::string(text) + "': expected LOW,HIGH with LOW <= HIGH");
  return {low, high};
}

// npy_dtype's values are the VX types of the same name (the tensor element types of the one table).
std::optional<vx_type> tensor_type_for(host::npy_dtype d) {
  const auto type = static_cast<std::int32_t>(d);
  if (rknnop::vx_type_npy_descr(type).empty()) return std::nullopt;
  return static_cast<vx_type>(type);
}

// An .npy input as the board would see it: float data in `float_type` (FLOAT16 by default),
// integer data in its own type.
// Float data converts under the rule of rknnop-run (session::set_input): a lost value (inf, NaN,
// flushed to zero) is an error unless --allow-lossy, rounding is a note.
parity::tensor_data tensor_from_npy(const host::npy_array& a, vx_type float_type, const std::string& name,
                                    const std::string& file, bool allow_lossy) {
  parity::tensor_data t;
  t.dims = host::to_openvx_dims(a.shape);
  if (t.dims.empty()) t.dims = {1};
  const bool is_float = a.dtype == host::npy_dtype::float16 || a.dtype == host::npy_dtype::float32;
  if (is_float) {
    const host::npy_dtype to = float_type == vx_type::float16 ? host::npy_dtype::float16 : host::npy_dtype::float32;
    host::conversion_report r;
    const host::npy_array converted = host::convert_to_float(a, to, r);
    const std::string what = "input '" + name + "' (" + file + "): ";
    if (r.first_lossy && !allow_lossy)
      throw host::error(fmt::format(
          "{}element {} (index {}) = {} {} converting {} to {}; use --tensor-type "
          "VX_TYPE_FLOAT32 or accept it with --allow-lossy",
          what, *r.first_lossy, host::numpy_index(a.shape, *r.first_lossy), static_cast<float>(r.first_lossy_value),
          std::isinf(r.first_lossy_result)   ? "overflows to inf"
          : std::isnan(r.first_lossy_result) ? "becomes NaN"
                                             : "is flushed to zero",
          host::npy_descr(a.dtype), host::npy_descr(to)));
    if (r.rounded != 0 || r.lossy != 0)
      fmt::print(stderr,
                 "rknnop-parity: note: {}{} of {} values rounded, {} lost converting {} to {} (largest relative "
                 "change {:.3g})\n",
                 rknnop::tools::terminal_text(what), r.rounded, r.count, r.lossy, host::npy_descr(a.dtype),
                 host::npy_descr(to), r.largest_relative);
    t.dtype = float_type;
    t.bytes.resize(converted.data.size());
    std::memcpy(t.bytes.data(), converted.data.data(), converted.data.size());
    return t;
  }
  t.dtype = *tensor_type_for(a.dtype);
  t.bytes.resize(a.data.size());
  std::memcpy(t.bytes.data(), a.data.data(), a.data.size());
  return t;
}

parity::param_data param_from(const std::string& name, const host::param_value& v) {
  if (v.is_array()) return parity::param_data::array(name, v.items);
  rknnop::vxc::scalar_arg s;
  s.type = static_cast<vx_type>(v.type);
  s.size = v.scalar_size();
  std::memcpy(s.bytes.data(), v.scalar.data(), std::min(s.size, s.bytes.size()));
  return parity::param_data{name, s};
}

// Everything the command line says, as given.
// The shared options (tools/common: op, --op-yml, --vx, --input, --param, --tensor-type, --allow-lossy)
// and parity's own.
struct options {
  rknnop::tools::shared_options shared;
  std::string range_text = "-4,4";
  std::vector<std::string> shapes;
  std::size_t random_cases = 0;
  std::uint64_t seed = 1;
  std::optional<double> abs_tol, rel_tol;
};

void add_options(CLI::App& app, options& o) {
  using rknnop::tools::add_shared_option;
  using rknnop::tools::shared_option;
  add_shared_option(app, shared_option::op, o.shared);
  add_shared_option(app, shared_option::op_yml, o.shared);
  add_shared_option(app, shared_option::vx, o.shared,
                    "The VX kernel's .vx shader (default: op.yml's vx_file, else <kernel>.vx or "
                    "rknn_kernel_<kernel>.vx, beside op.yml)");
  add_shared_option(app, shared_option::input, o.shared, "NAME=FILE.npy: this input's data (first case)");
  app.add_option("--shape", o.shapes, "NAME=1,8,8,3: NumPy shape of this input for random cases");
  add_shared_option(app, shared_option::param, o.shared);
  app.add_option("--random", o.random_cases, "Number of cases with random inputs (shapes from --shape or --input)");
  app.add_option("--seed", o.seed, "Seed of the random inputs (default 1)");
  app.add_option("--range", o.range_text, "LOW,HIGH of the random values (default -4,4)");
  add_shared_option(app, shared_option::tensor_type, o.shared,
                    "VX type of float inputs: VX_TYPE_FLOAT16 (default, as on the board) or VX_TYPE_FLOAT32");
  add_shared_option(app, shared_option::allow_lossy, o.shared,
                    "Accept float inputs whose conversion to the tensor type overflows to inf, gives NaN or flushes a "
                    "nonzero value to zero (an error otherwise)");
  app.add_option("--abs-tol", o.abs_tol, "Absolute tolerance (default 1e-3)");
  app.add_option("--rel-tol", o.rel_tol, "Relative tolerance (default 2e-3): pass when |vx-cpu| <= abs + rel*|cpu|");
}

vx_type float_tensor_type(const std::string& name) {
  if (name.empty()) return vx_type::float16;
  const auto t = rknnop::vxc::vx_type_from_name(name);
  if (!t || (*t != vx_type::float16 && *t != vx_type::float32))
    throw usage_error("--tensor-type '" + name + "': expected VX_TYPE_FLOAT16 or VX_TYPE_FLOAT32");
  return *t;
}

// Both kernels through the loader, each checked against op.yml as the board runtime would, and the VX
// kernel's shader (docs/runtime.md §8). Both run in the node runner (rknnop-node), as rknnop-run runs
// them: nothing of the library (constructors, callbacks, kernels, shader) runs in this tool.
struct op_kernels {
  host::session cpu;
  host::session vx;
  std::string vx_path;
};

op_kernels load_kernels(const options& o) {
  host::load_options load = rknnop::tools::load_options_of(o.shared, 0);
  load.execution = host::node_execution::child;
  // Read once: both kernels load the same bytes, named by the path given.
  const host::op_source source = host::op_source::read(o.shared.op);
  host::session cpu = host::session::load(source, load);
  load.kernel_index = 1;
  host::session vx = host::session::load(source, load);
  const host::op_yml& yml = cpu.op();
  if (cpu.kernel().is_shader || !vx.kernel().is_shader) {
    throw host::error("op '" + yml.name + "': list index 0 must be a CPU kernel and index 1 a VX kernel (got '" +
                      cpu.kernel().name + "' and '" + vx.kernel().name + "')");
  }
  const rknnop::vxc::shader_location shader =
      rknnop::vxc::find_op_shader(o.shared.op, o.shared.op_yml, yml.vx_file, vx.kernel().name, o.shared.vx_file);
  if (!shader.error.empty()) throw usage_error(shader.error.substr(std::string_view("rknnop: ").size()));
  return {std::move(cpu), std::move(vx), shader.path.string()};
}

// A case's param as the session takes it: param_from's inverse (arrays as INT32 items, scalars as bytes).
host::param_value session_param(const parity::param_data& p) {
  host::param_value v;
  if (const auto* items = std::get_if<std::vector<std::int32_t>>(&p.value)) {
    v.type = static_cast<std::int32_t>(vx_type::array);
    v.items = *items;
    return v;
  }
  const rknnop::vxc::scalar_arg& s = std::get<rknnop::vxc::scalar_arg>(p.value);
  v.type = static_cast<std::int32_t>(s.type);
  std::memcpy(v.scalar.data(), s.bytes.data(), std::min(v.scalar.size(), s.bytes.size()));
  return v;
}

// A kernel's run of a case through its session, in the node runner: a crash, hang or runaway allocation
// of the op's code is the case's one-line error, not the end of this tool. A VX kernel's session carries
// its .vx, read here as each case runs (edits are picked up, as vxc::shader_file does).
parity::kernel_run run_in_runner(host::session& kernel, const parity::op_info& op, const parity::parity_case& c,
                                 const rknnop::vxc::shader_source_provider& shader = {}) {
  parity::kernel_run out;
  try {
    for (std::size_t i = 0; i < c.inputs.size(); ++i) {
      const parity::tensor_data& t = c.inputs[i];
      host::npy_array a;
      if (!rknnop::vx_type_npy_descr(t.dtype).empty()) a.dtype = static_cast<host::npy_dtype>(t.dtype);
      a.shape = host::from_openvx_dims(t.dims);
      const auto* bytes = reinterpret_cast<const std::uint8_t*>(t.bytes.data());
      a.data.assign(bytes, bytes + t.bytes.size());
      kernel.set_input(op.signature.inputs[i], a, t.dtype);
    }
    for (const parity::param_data& p : c.params) kernel.set_param(p.name, session_param(p));
    if (shader) {
      rknnop::vxc::shader_source source = shader(kernel.kernel().name);
      kernel.set_shader(
          host::node_shader{std::move(source.text), std::move(source.file_name), std::move(source.error)});
    }
    (void)kernel.run();
    for (const std::string& name : op.signature.outputs) {
      const host::tensor_result& r = kernel.output(name);
      const auto* bytes = reinterpret_cast<const std::byte*>(r.array.data.data());
      out.outputs.push_back(
          parity::tensor_data{r.dims, r.vx_type, std::vector<std::byte>(bytes, bytes + r.array.data.size())});
    }
    out.result = parity::outcome::pass;
  } catch (const host::error& e) {
    out.result = parity::outcome::error;
    out.message = e.what();
  }
  return out;
}

// Each NAME given to `option` must be one of the op's entries of `kind` (the session's own check).
void check_names(const host::op_yml& op, std::string_view option, const std::map<std::string, std::string>& given,
                 host::op_entry_kind kind) {
  for (const auto& [name, value] : given) (void)rknnop::tools::find_option_entry(op, kind, option, name);
}

// Each param as given, else the op struct's default (op.yml's rknnop-field comment); enum params by name.
std::vector<parity::param_data> param_values(const host::op_yml& yml,
                                             const std::map<std::string, std::string>& param_texts) {
  std::vector<parity::param_data> values;
  for (const auto& e : yml.params) {
    const auto it = param_texts.find(e.name);
    std::optional<host::param_value> value =
        it != param_texts.end() ? host::parse_param_value(e, it->second) : host::default_param_value(e);
    if (!value)  // the words of rknnop-pack wrap
      throw usage_error(fmt::format("--param {}=VALUE is needed ({}, the op gives no default)", e.name,
                                    rknnop::vx_type_name(e.type)));
    values.push_back(param_from(e.name, *value));
  }
  return values;
}

// Case 0 from the files; random cases shaped by --shape, else by the file.
std::vector<parity::parity_case> make_cases(const host::op_yml& yml, const options& o, vx_type float_type,
                                            std::pair<float, float> range,
                                            const std::map<std::string, std::string>& input_files,
                                            const std::map<std::string, std::string>& shape_texts,
                                            const std::vector<parity::param_data>& params) {
  const auto [low, high] = range;
  std::vector<parity::parity_case> cases;
  std::vector<std::vector<std::uint32_t>> random_dims;
  std::vector<vx_type> random_types;
  const bool have_files = !input_files.empty();
  parity::parity_case from_files;
  for (const auto& e : yml.inputs) {
    const auto file = input_files.find(e.name);
    const auto shape = shape_texts.find(e.name);
    if (file != input_files.end()) {
      const host::npy_array a = host::read_npy_file(file->second);
      from_files.inputs.push_back(tensor_from_npy(a, float_type, e.name, file->second, o.shared.allow_lossy));
    } else if (have_files) {
      throw usage_error("--input " + e.name + "=FILE.npy is missing (every input needs a file, or none)");
    }
    if (shape != shape_texts.end()) {
      const auto dims = rknnop::tools::parse_numpy_shape("--shape", e.name, shape->second, "1,8,8,3");
      random_dims.push_back(host::to_openvx_dims(dims));
      random_types.push_back(float_type);
    } else if (have_files) {
      random_dims.push_back(from_files.inputs.back().dims);
      const vx_type t = from_files.inputs.back().dtype;
      random_types.push_back(t);
    } else if (o.random_cases != 0) {
      throw usage_error("input '" + e.name + "': give --shape " + e.name + "=1,8,8,3 (or --input) for random cases");
    }
  }
  if (have_files) {
    from_files.params = params;
    from_files.label = "inputs from files";
    cases.push_back(std::move(from_files));
  }
  std::mt19937_64 rng(o.seed);
  for (std::size_t n = 0; n < o.random_cases; ++n) {
    parity::parity_case c;
    for (std::size_t i = 0; i < random_dims.size(); ++i)
      c.inputs.push_back(parity::random_tensor(random_dims[i], random_types[i], rng, low, high));
    c.params = params;
    c.label = "random " + std::to_string(n + 1) + "/" + std::to_string(o.random_cases) + " (seed " +
              std::to_string(o.seed) + ")";
    cases.push_back(std::move(c));
  }
  if (cases.empty()) throw usage_error("nothing to compare: give --input NAME=FILE.npy, or --random N with --shape");
  return cases;
}

// Runs every case, prints its report and the largest differences per output; the exit status.
int run_cases(parity::checker& check, const std::vector<parity::parity_case>& cases, const parity::op_info& op) {
  struct totals {
    double max_abs = 0.0, max_rel = 0.0;
    std::size_t mismatches = 0, elements = 0;
  };
  std::map<std::string, totals> per_output;
  std::size_t failed = 0;
  for (const parity::parity_case& c : cases) {
    const parity::case_report r = check.run(c);
    std::printf("%s\n", rknnop::tools::terminal_lines(r.to_string()).c_str());
    if (r.result == parity::outcome::no_opencl) return exit_no_opencl;
    if (!r.passed()) ++failed;
    for (const parity::output_diff& d : r.outputs) {
      totals& t = per_output[d.name];
      t.max_abs = std::max(t.max_abs, d.max_abs);
      t.max_rel = std::max(t.max_rel, d.max_rel);
      t.mismatches += d.mismatches;
      t.elements += d.elements;
    }
  }
  for (const auto& name : op.signature.outputs) {
    const totals& t = per_output[name];
    std::printf("output '%s': max abs diff %.3g, max rel diff %.3g, %zu of %zu elements outside abs %.3g + rel %.3g\n",
                rknnop::tools::terminal_text(name).c_str(), t.max_abs, t.max_rel, t.mismatches, t.elements, op.tol.abs,
                op.tol.rel);
  }
  // terminal: counts only
  std::printf("%s: %zu of %zu case(s) within tolerance\n", failed == 0 ? "PASS" : "FAIL", cases.size() - failed,
              cases.size());
  return failed == 0 ? 0 : exit_failure;
}

// Everything after the command line's syntax: check it against the op, build the cases, compare.
int compare(options& o) {
  const vx_type float_type = float_tensor_type(o.shared.tensor_type);
  const std::pair<float, float> range = parse_range(o.range_text);
  const auto input_files = assignments("--input", o.shared.inputs, "FILE.npy");
  const auto shape_texts = assignments("--shape", o.shapes, "1,8,8,3");
  const auto param_texts = assignments("--param", o.shared.params, "VALUE");

  op_kernels kernels = load_kernels(o);
  const host::op_yml& yml = kernels.cpu.op();
  parity::op_info op;
  op.signature = rknnop::vxc::signature_of(yml);
  if (o.abs_tol) op.tol.abs = *o.abs_tol;
  if (o.rel_tol) op.tol.rel = *o.rel_tol;

  check_names(yml, "--input", input_files, host::op_entry_kind::input);
  check_names(yml, "--shape", shape_texts, host::op_entry_kind::input);
  check_names(yml, "--param", param_texts, host::op_entry_kind::param);
  const std::vector<parity::parity_case> cases =
      make_cases(yml, o, float_type, range, input_files, shape_texts, param_values(yml, param_texts));

  const rknnop::vxc::shader_source_provider shader = rknnop::vxc::shader_file(kernels.vx_path);
  parity::checker check(
      op, [&kernels, &op](const parity::parity_case& c) { return run_in_runner(kernels.cpu, op, c); },
      [&kernels, &op, &shader](const parity::parity_case& c) { return run_in_runner(kernels.vx, op, c, shader); });
  std::printf(
      "%s: CPU kernel '%s' vs VX kernel '%s' (%s) on %s\n", rknnop::tools::terminal_text(yml.name).c_str(),
      rknnop::tools::terminal_text(kernels.cpu.kernel().name).c_str(),
      rknnop::tools::terminal_text(kernels.vx.kernel().name).c_str(),
      rknnop::tools::terminal_text(kernels.vx_path).c_str(),
      check.opencl_available() ? rknnop::tools::terminal_text(check.opencl_status()).c_str() : "no OpenCL device");
  if (!check.opencl_available()) {
    std::fflush(stdout);
    std::fprintf(stderr, "rknnop-parity: the VX kernel cannot run: %s\n",
                 rknnop::tools::terminal_text(check.opencl_status()).c_str());
    return exit_no_opencl;
  }
  return run_cases(check, cases, op);
}

}  // namespace

int main(int argc, char** argv) try {
  // Kernel libraries' messages reach the user once, in this tool's report, not also on their own stderr.
  setenv("RKNNOP_LOG", "off", 0);
  CLI::App app{"Compare an op's CPU kernel with its VX kernel (run on POCL) through rknnop's host OpenVX runtime",
               "rknnop-parity"};
  options o;
  add_options(app, o);
  if (const auto status = rknnop::tools::parse_or_exit(app, argc, argv)) return *status;

  return compare(o);
} catch (...) {
  return rknnop::tools::tool_failure("rknnop-parity");
}

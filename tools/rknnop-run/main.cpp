// SPDX-License-Identifier: MIT
// rknnop-run: runs one custom op on the PC the way the RKNN v1 board runtime runs it, or describes,
// checks or runs the custom-op nodes of a .rknn model (rknn_mode.cpp):
//   rknnop-run OP.rknnop|libop.so [--op-yml op.yml] --input NAME=FILE.npy ... --param NAME=VALUE ...
//              --output NAME=FILE.npy ... [--output-shape NAME=1,32,32,3] [--kernel-index N]
//              [--tensor-type VX_TYPE_FLOAT16|npy] [--allow-lossy] [--describe] [--repeat N] [--vx file.vx]
//   rknnop-run MODEL.rknn --describe | --check | [--node NAME] --input PORT=in.npy ... --output PORT=out.npy
//              [--random-inputs SEED] [--allow-lossy] [--repeat N]
//   rknnop-run librkcst_<op>.so [--describe] --input NAME=in.npy ... --output NAME=out.npy
//              [--attr NAME=[TYPE:]VALUE ...] [--tensor-type FLOAT16]   (rknpu2_mode.cpp)
// One parser for both (the shared options are tools/common's); the first file's bytes choose the mode,
// and an option of the other mode is a usage error. The op's code runs in rknnop-node, never in this
// tool (isolation.hpp). Every failure is one line "rknnop-run: ..." and a non-zero exit status.

#include "cli.hpp"  // tools/common: parse_or_exit, tool_failure, usage_error
#include <rknnop/host/error.hpp>
#include <rknnop/host/file_io.hpp>
#include <rknnop/host/npy.hpp>
#include <rknnop/host/session.hpp>
#include <rknnop/parallel.hpp>  // thread_count(): the rule the kernel libraries use
#include <rknnop/vx_type.hpp>
#if RKNNOP_HOST_HAS_MODEL
#include "rknn_mode.hpp"  // rknnop-run MODEL.rknn --describe | --check | run a node
#endif
#include "rknpu2_mode.hpp"  // rknnop-run librkcst_<op>.so: an RKNPU2 plugin as librknnrt runs it
#include "vx_replay.hpp"    // rknnop-run --replay DIR OP: an instrumented board library's record
#if RKNNOP_VXC_HAS_BRIDGE
#include <rknnop/vxc/vxc.hpp>  // find_op_shader: a VX kernel's .vx (run on POCL in rknnop-node)
#endif

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <span>
#include <new>
#include <cstdio>
#include <cstdlib>  // setenv
#include <string>
#include <vector>

namespace {

using namespace rknnop::host;
using namespace rknnop::tools;  // tools/common: parse_assignments, parse_numpy_shape, ...
using rknnop::vx_type;
using rknnop::vx_type_from_name;  // <rknnop/vx_type.hpp>
using rknnop::vx_type_name;

struct failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string status_line(const step_report& s) {
  if (!s.called) return fmt::format("{:<13} not called (no callback)", s.step);
  return fmt::format("{:<13} {}{}{}", s.step, vx_status_text(s.status),
                     s.log.empty() ? "" : "  log: ", fmt::join(s.log, "; "));
}

// Everything the command line says, as given: the shared options (tools/common) and rknnop-run's own.
struct options {
  shared_options shared;
  std::vector<std::string> output_shapes;
  std::optional<std::uint32_t> kernel_index;
  std::string replay;
#if RKNNOP_HOST_HAS_MODEL
  rknnop_run::model_options model;
#endif
};

// The options of one mode only: given in the other, a usage error naming the option.
constexpr const char* op_mode_options[] = {"--op-yml",      "--param", "--output-shape", "--kernel-index",
                                           "--tensor-type", "--vx",    "--replay"};
constexpr const char* model_mode_options[] = {"--check", "--node", "--random-inputs"};

// The one option table of both modes, top to bottom like the --help text.
void add_options(CLI::App& app, options& o) {
  shared_options& s = o.shared;
  add_shared_option(app, shared_option::op, s,
                    "The op: a .rknnop container or a kernel library lib<op>.so; or a .rknn model (its custom-op "
                    "nodes)");
  add_shared_option(app, shared_option::op_yml, s);
  add_shared_option(app, shared_option::input, s,
                    "NAME=FILE.npy for each input (a model's node: PORT=FILE.npy, the port's name or number)");
  add_shared_option(app, shared_option::param, s);
  add_shared_option(app, shared_option::output, s, "NAME=FILE.npy: write this output (a model's node: PORT=FILE.npy)");
  app.add_option("--output-shape", o.output_shapes,
                 "NAME=1,32,32,3: give the output this NumPy shape instead of a virtual tensor");
  app.add_option("--replay", o.replay,
                 "DIR: the calls an instrumented board library recorded (RKNNOP_RECORD=DIR on the board), run "
                 "on the PC and compared bit for bit (docs/running.md §3)");
  app.add_option("--kernel-index", o.kernel_index, "Kernel of vx_kernel_<Name>_list to run (default: op.yml's)");
  add_shared_option(app, shared_option::tensor_type, s);
  add_shared_option(app, shared_option::allow_lossy, s);
  add_shared_option(app, shared_option::describe, s,
                    "Print inputs, outputs and params with their VX types and exit; for a model, every custom op "
                    "and node: params, tensors, embedded sections");
#if RKNNOP_HOST_HAS_MODEL
  app.add_flag("--check", o.model.check,
               "A model: check every custom node against the library for this host; exit 0 only if all pass");
  app.add_option("--node", o.model.node,
                 "A model: the custom-op node to run, by name or index (default: the only one)");
  app.add_option("--random-inputs", o.model.random_inputs,
                 "A model: run the node with random inputs of the model's shapes from this seed");
#endif
  add_memory_limit_option(app);
  add_shared_option(app, shared_option::repeat, s);
#if RKNNOP_VXC_HAS_BRIDGE
  add_shared_option(app, shared_option::vx, s);
#endif
}

// Refuses the options of the mode the file does not select, naming the first one given.
void check_mode_options(const CLI::App& app, const std::string& file, bool model) {
  for (const char* name :
       model ? std::span<const char* const>(op_mode_options) : std::span<const char* const>(model_mode_options)) {
    const CLI::Option* option = app.get_option_no_throw(name);
    if (option != nullptr && option->count() != 0)
      throw usage_error(fmt::format("{} is for {}; '{}' is {}", name,
                                    model ? "an op (a .rknnop container or a kernel library)" : "a .rknn model", file,
                                    model ? "a model" : "not a model"));
  }
}

// --tensor-type: a VX type name, npy (tensor_type_of_data), or none given (the session's default).
std::optional<vx_type> input_tensor_type(const std::string& name) {
  if (name == "npy") return tensor_type_of_data;
  if (name.empty()) return default_input_type;
  const std::optional<vx_type> type = vx_type_from_name(name);
  if (!type) throw failure(fmt::format("--tensor-type '{}': not a VX type name (or npy: each .npy's own dtype)", name));
  return type;
}

#if RKNNOP_VXC_HAS_BRIDGE
// A VX kernel's .vx, read here through the bounded reader (a regular file under the size limit, never
// /dev/zero or a FIFO); the run's request carries it and the runner's shader bridge runs it
// (session::set_shader): nothing of the op runs in this tool.
void set_shader(session& s, const options& o) {
  if (!s.kernel().is_shader) return;
  const rknnop::vxc::shader_location vx =
      rknnop::vxc::find_op_shader(o.shared.op, o.shared.op_yml, s.op().vx_file, s.kernel().name, o.shared.vx_file);
  if (!vx.error.empty()) throw failure(vx.error.substr(std::string_view("rknnop: ").size()));
  node_shader shader;
  shader.file_name = vx.path.filename().string();
  try {
    const std::vector<std::uint8_t> bytes = read_file(vx.path);
    shader.text.assign(bytes.begin(), bytes.end());
  } catch (const error& e) {
    shader.error = fmt::format("rknnop: kernel '{}': cannot read the shader '{}': {}", s.kernel().name,
                               vx.path.string(), e.detail());
  }
  s.set_shader(std::move(shader));
}
#endif

// Loads the op, gives it the inputs and params, runs it and writes the outputs; `stage` says what it is doing.
int run_op(const options& o, std::string& stage) {
  const load_options load = load_options_of(o.shared, o.kernel_index);
  if (!o.replay.empty()) {
    if (!o.shared.inputs.empty() || !o.shared.params.empty() || !o.shared.outputs.empty() || !o.output_shapes.empty() ||
        !o.shared.tensor_type.empty() || o.shared.describe)
      throw usage_error(
          "--replay takes the record's tensors and params: no --input, --param, --output, --output-shape, "
          "--tensor-type or --describe");
    stage = fmt::format("replaying the record in '{}'", o.replay);
    return rknnop_run::vx_replay(o.replay, o.shared.op, load);
  }
  const std::optional<vx_type> tensor_type = input_tensor_type(o.shared.tensor_type);
  // Parse the command line fully before loading, so syntax errors come first.
  const auto input_list = parse_assignments("--input", o.shared.inputs, "FILE.npy");
  const auto param_list = parse_assignments("--param", o.shared.params, "VALUE");
  const auto output_list = parse_assignments("--output", o.shared.outputs, "FILE.npy");
  const auto shape_list = parse_assignments("--output-shape", o.output_shapes, "1,32,32,3");
  // Output paths are checked before anything runs: a device, FIFO, symbolic link or missing folder
  // is refused here, not after the kernel (docs/container.md §5, "Hostile files").
  for (const auto& [name, file] : output_list) check_output_path(file, fmt::format("--output {}", name));

  // Outputs: the PC kernel library checks its conversions itself (docs/running.md §1); it reads the
  // environment, which the isolated runner started at load inherits.
  if (o.shared.allow_lossy) setenv("RKNNOP_ALLOW_LOSSY", "1", 1);
  stage = fmt::format("loading '{}'", o.shared.op);
  session s = session::load(o.shared.op, load);
  if (s.op().port_order_warning)
    fmt::print(stderr, "rknnop-run: warning: {}\n", terminal_text(*s.op().port_order_warning));
  if (o.shared.describe) {
    fmt::print("{}", terminal_lines(s.describe()));
    return 0;
  }
#if RKNNOP_VXC_HAS_BRIDGE
  set_shader(s, o);  // a VX kernel's .vx runs in rknnop-node with the rest of the op
#endif
  s.allow_lossy(o.shared.allow_lossy);
  // Names first, as usage errors (exit status 2) naming the option, like every tool's.
  for (const auto& [name, file] : input_list) (void)find_option_entry(s.op(), op_entry_kind::input, "--input", name);
  for (const auto& [name, value] : param_list) (void)find_option_entry(s.op(), op_entry_kind::param, "--param", name);
  for (const auto& [name, file] : input_list) {
    stage = fmt::format("reading input '{}' from '{}'", name, file);
    s.set_input(name, std::filesystem::path(file), tensor_type);
  }
  for (const std::string& note : s.conversion_notes())
    fmt::print(stderr, "rknnop-run: note: {}\n", terminal_text(note));
  stage = "setting the params";
  for (const auto& [name, value] : param_list) s.set_param(name, std::string_view(value));
  for (const auto& [name, text] : shape_list)
    s.set_output_shape(name, parse_numpy_shape("--output-shape", name, text, "1,32,32,3", zero_dims::allowed));
  for (const auto& [name, file] : output_list) (void)find_option_entry(s.op(), op_entry_kind::output, "--output", name);

  stage = fmt::format("running op '{}' (kernel '{}')", s.op().name, s.kernel().name);
  const run_report report = s.run();
  fmt::print("{} (kernel '{}', kernel_index {})\n", terminal_text(s.op().name), terminal_text(s.kernel().name),
             s.kernel().kernel_index);
  for (const step_report& step : report.steps) fmt::print("  {}\n", terminal_text(status_line(step)));
  if (o.shared.repeat != 0) {
    stage = fmt::format("timing op '{}' ({} runs)", s.op().name, o.shared.repeat);
    rknnop_run::print_timing(s, o.shared.repeat);
  }
  for (const auto& [name, file] : output_list) {
    stage = fmt::format("writing output '{}' to '{}'", name, file);
    const tensor_result& r = s.output(name);
    write_npy_file(r.array, file);
    fmt::print("  output '{}': shape ({}) {} -> {}\n", terminal_text(name), fmt::join(r.shape, ", "),
               vx_type_name(r.vx_type), terminal_text(file));
  }
  return 0;
}

}  // namespace

// --repeat N: N more runs of the node (after the first, which warmed caches and started the workers),
// each timed from graph creation to the outputs read back, as session::run does it.
void rknnop_run::print_timing(rknnop::host::session& s, std::uint32_t runs) {
  std::vector<double> ms;
  ms.reserve(runs);
  for (std::uint32_t i = 0; i < runs; ++i) {
    const auto start = std::chrono::steady_clock::now();
    (void)s.run();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(ms.begin(), ms.end());
  const double median = ms.size() % 2 ? ms[ms.size() / 2] : (ms[ms.size() / 2 - 1] + ms[ms.size() / 2]) / 2;
  const char* env = std::getenv("RKNNOP_THREADS");
  // rknnop::thread_count() reads RKNNOP_THREADS and the online cores as the kernel library does.
  // terminal: numbers and the user's own RKNNOP_THREADS
  fmt::print(
      "  timing        {} run(s): median {:.3f} ms, min {:.3f} ms per run (graph, kernel, outputs read back); "
      "{} thread(s) ({})\n",
      runs, median, ms.front(), rknnop::thread_count(),
      env ? fmt::format("RKNNOP_THREADS={}", env) : std::string("the online cores; set RKNNOP_THREADS=1 to compare"));
}

int main(int argc, char** argv) try {
  install_interrupt_cleanup();  // SIGINT/SIGTERM remove the temporary file of an output being written
  // Kernel libraries' messages reach the user once, in this tool's error line (from the node's log),
  // not also on their own stderr (docs/first-op.md §9). A user's RKNNOP_LOG wins.
  setenv("RKNNOP_LOG", "off", 0);
  // The op's code (constructors, callbacks, kernel) runs in rknnop-node, not here (isolation.hpp).
  set_default_node_execution(node_execution::child);
  if (rknnop_run::names_rknpu2_plugin(argc, argv)) return rknnop_run::rknpu2_main(argc, argv);  // its own options
  CLI::App app{
      "Run an RKNN-Toolkit v1 custom op, or the custom-op nodes of a model (.rknn), on the PC through rknnop's host "
      "OpenVX runtime; given an RKNPU2 plugin (librkcst_<op>.so), run it as librknnrt does (rknnop-run PLUGIN --help)",
      "rknnop-run"};
  options o;
  add_options(app, o);
  if (const auto status = rknnop::tools::parse_or_exit(app, argc, argv)) return *status;

  // What the tool is doing, for the one line an exhausted memory gets ("out of memory while ...").
  std::string stage = "reading the command line";
  try {
#if RKNNOP_HOST_HAS_MODEL
    const bool model = rknnop_run::is_model_path(o.shared.op);
#else
    const bool model = false;
#endif
    check_mode_options(app, o.shared.op, model);
#if RKNNOP_HOST_HAS_MODEL
    if (model) return rknnop_run::model_main(o.shared, o.model);
#endif
    return run_op(o, stage);
  } catch (...) {
    return rknnop::tools::tool_failure("rknnop-run", stage);
  }
} catch (...) {
  return rknnop::tools::tool_failure("rknnop-run");
}

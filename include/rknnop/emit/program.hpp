// SPDX-License-Identifier: MIT
#pragma once

// Layer 5 of emit/ (docs/architecture.md §1): the generator program. --describe's table, the
// command line (see <rknnop/emit.hpp>), --pack, and run_emitter, which the generated main of
// rknnop_add_op calls with the schema RKNNOP_EXPORT_OP defines under RKNNOP_EMITTER.

#include <rknnop/board_abi.hpp>  // the v1 graph-edge types
#include <rknnop/config.hpp>
#include <rknnop/container_format.hpp>
#include <rknnop/detail/field_desc.hpp>
#include <rknnop/detail/schema.hpp>
#include <rknnop/emit/op_yml.hpp>
#include <rknnop/emit/options.hpp>
#include <rknnop/emit/python.hpp>
#include <rknnop/emit/toolkit2.hpp>
#include <rknnop/files.hpp>  // install_interrupt_cleanup, check_output_path
#include <rknnop/schema_marker.hpp>

#include <algorithm>    // std::copy (the shape probe)
#include <array>        // option tables
#include <charconv>     // std::from_chars
#include <cstddef>      // std::size_t
#include <cstdint>      // std::uint32_t, std::uint64_t
#include <cstdio>       // stdout, stderr
#include <exception>    // std::exception, caught at the program boundary
#include <iterator>     // std::back_inserter
#include <optional>     // options given or not
#include <string>       // generated text
#include <string_view>  // names
#include <utility>      // std::pair
#include <vector>       // file contents

RKNNOP_DETAIL_BEGIN_HIDDEN  // see config.hpp: nothing of the SDK is exported

namespace rknnop {
// --- --describe --------------------------------------------------------------------------------

/// The op's table for people: kernels, fields with their VX types, what the Python class does.
inline std::string emit_description(const op_schema& op, const emit_options& options = {}) {
  std::string out;
  auto it = std::back_inserter(out);
  const std::string lower = lower_name(op.name);
  fmt::format_to(it, "{}  ({} {:016x})\n", op.name, schema_marker_name, op.fingerprint);
  fmt::format_to(it, "  kernels: 0 = CPU \"{}_cpu\"{}\n", lower,
                 op.has_vx ? fmt::format(", 1 = VX \"{}\" ({})", lower, shader_file_name(op.name)) : std::string());
  fmt::format_to(it, "  op.yml: target_platform {}, kernel_index {}; files {}, {}\n", options.target_platform,
                 options.kernel_index, container_file_name(op.name), python_file_name(op.name));
  std::size_t width = 4;
  for (const field_desc& f : op.fields) width = f.name.size() > width ? f.name.size() : width;
  fmt::format_to(it, "  {:>2}  {:<6}  {:<{}}  {:<15}  {}\n", "#", "role", "name", width, "op.yml type", "details");
  for (std::size_t i = 0; i < op.fields.size(); ++i) {
    const field_desc& f = op.fields[i];
    std::string details;
    if (f.kind == field_kind::input || f.kind == field_kind::output) {
      std::string accepted;
      for (std::uint32_t k = 0; k < f.accepted_count; ++k)
        accepted += fmt::format("{}{}", k ? "|" : "", detail::dtype_name(f.accepted[k]));
      details = fmt::format("{}, kernel sees {}, {}", accepted, detail::dtype_name(f.vx_type),
                            f.required_rank ? fmt::format("rank {}", f.required_rank) : std::string("rank 1..6"));
    } else if (f.kind == field_kind::array) {
      details = fmt::format("int32[{}{}]", f.exact ? "" : "<=", f.capacity);
    } else {
      details = "scalar";
    }
    fmt::format_to(it, "  {:>2}  {:<6}  {:<{}}  {:<15}  {}\n", i, detail::role_name(f.kind), f.name, width,
                   detail::yml_type(f), details);
  }
  fmt::format_to(it, "  python: output shape {}; outputs {}\n",
                 op.python_output_shape ? "from python_output_shape" : "= input 0's shape (no python_output_shape)",
                 op.python_compute ? "from python_compute" : "not computed (no python_compute)");
  return out;
}

template <class Op>
std::string emit_description(const emit_options& options = {}) {
  return emit_description(schema_of<Op>(), options);
}

// --- the generator program ---------------------------------------------------------------------

namespace detail {

inline container_format::bytes_view bytes_of_text(std::string_view text) noexcept {
  return {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()};
}

// A kernel library must be a shared object for the section's machine: catches swapped arguments
// before the board does.
inline emit_result check_library(const std::vector<std::uint8_t>& bytes, const std::string& file,
                                 container_format::section kind) {
  struct expected {
    std::uint8_t elf_class;
    std::uint16_t machine;
    std::string_view what;
  };
  const expected e = kind == container_format::section::lib_x86_64    ? expected{2, 62, "ELF64 x86-64"}
                     : kind == container_format::section::lib_aarch64 ? expected{2, 183, "ELF64 aarch64"}
                                                                      : expected{1, 40, "ELF32 ARM"};
  if (bytes.size() < 20 || bytes[0] != 0x7F || bytes[1] != 'E' || bytes[2] != 'L' || bytes[3] != 'F')
    return {fmt::format("'{}' ({}) is not an ELF file", file, container_format::description(kind))};
  const auto machine = static_cast<std::uint16_t>(bytes[18] | (bytes[19] << 8));  // e_machine, LE
  if (bytes[4] != e.elf_class || bytes[5] != 1 || machine != e.machine)
    return {fmt::format("'{}' is an ELF{} file for machine {}, but the {} section needs {}", file,
                        bytes[4] == 2 ? 64 : 32, machine, container_format::description(kind), e.what)};
  return {};
}

struct emitter_args {
  bool help = false, describe = false;
  std::optional<std::string> yml, py, toolkit2_py, pack, shader, toolkit_rknnop, x86, aarch64, armhf, py_file,
      rknpu2_support;
  std::uint64_t version = container_format::latest_version;
  emit_options options;
};

// Parses the command line; returns the usage error, if any.
inline emit_result parse_emitter_args(int argc, char** argv, emitter_args& a) {
  struct text_option {
    std::string_view flag;
    std::optional<std::string> emitter_args::*target;
  };
  const std::array<text_option, 11> text_options{{{"--yml", &emitter_args::yml},
                                                  {"--py", &emitter_args::py},
                                                  {"--toolkit2-py", &emitter_args::toolkit2_py},
                                                  {"--rknpu2-support", &emitter_args::rknpu2_support},
                                                  {"--pack", &emitter_args::pack},
                                                  {"--shader", &emitter_args::shader},
                                                  {"--toolkit-rknnop", &emitter_args::toolkit_rknnop},
                                                  {"--x86", &emitter_args::x86},
                                                  {"--aarch64", &emitter_args::aarch64},
                                                  {"--armhf", &emitter_args::armhf},
                                                  {"--py-file", &emitter_args::py_file}}};
  bool seen_platform = false, seen_index = false, seen_version = false;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    std::optional<std::string_view> inline_value;
    if (const auto eq = arg.find('='); arg.starts_with("--") && eq != std::string_view::npos) {
      inline_value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
    }
    if (arg == "--help" || arg == "-h") {
      a.help = true;
      continue;
    }
    if (arg == "--describe") {
      a.describe = true;
      continue;
    }
    std::string_view value;
    const auto take_value = [&]() -> bool {
      if (inline_value) {
        value = *inline_value;
        return true;
      }
      if (i + 1 >= argc) return false;
      value = argv[++i];
      return true;
    };
    bool matched = false;
    for (const text_option& o : text_options) {
      if (arg != o.flag) continue;
      matched = true;
      if (a.*o.target) return {fmt::format("{} given twice", arg)};
      if (!take_value() || value.empty()) return {fmt::format("{} needs a file name", arg)};
      a.*o.target = std::string(value);
    }
    if (matched) continue;
    if (arg == "--target-platform") {
      if (seen_platform) return {fmt::format("{} given twice", arg)};
      if (!take_value()) return {fmt::format("{} needs a platform name", arg)};
      a.options.target_platform = std::string(value);
      seen_platform = true;
    } else if (arg == "--kernel-index" || arg == "--version") {
      bool& seen = arg == "--version" ? seen_version : seen_index;
      if (seen) return {fmt::format("{} given twice", arg)};
      if (!take_value()) return {fmt::format("{} needs a number", arg)};
      std::uint64_t n = 0;
      const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
      if (ec != std::errc{} || end != value.data() + value.size() || n > 0xFFFFFFFFu)
        return {fmt::format("{} needs a number, got '{}'", arg, value)};
      if (arg == "--version") {
        if (container_format::layout(n).empty())
          return {fmt::format("--version {}: the .rknnop format has versions 2 (toolkit >= 1.3.2) and 1", n)};
        a.version = n;
      } else {
        a.options.kernel_index = static_cast<std::uint32_t>(n);
      }
      seen = true;
    } else {
      return {fmt::format("unknown option '{}' (see --help)", argv[i])};
    }
  }
  if (!a.pack) {
    for (const text_option& o : text_options)
      if (o.flag != "--yml" && o.flag != "--py" && o.flag != "--toolkit2-py" && o.flag != "--pack" &&
          o.flag != "--rknpu2-support" && (a.*o.target).has_value())
        return {fmt::format("{} only applies to --pack", o.flag)};
    if (seen_version) return {"--version only applies to --pack"};
  }
  if (a.shader && a.toolkit_rknnop)
    return {"give --shader or --toolkit-rknnop, not both (both supply the shader section)"};
  if (!a.help && !a.describe && !a.yml && !a.py && !a.toolkit2_py && !a.pack && !a.rknpu2_support)
    return {"nothing to do: give --describe, --yml, --py, --toolkit2-py, --pack or --rknpu2-support (see --help)"};
  return {};
}

inline std::string emitter_usage(std::string_view name) {
  return fmt::format(
      "usage: <generator of {0}> [--describe] [--yml FILE] [--py FILE] [--toolkit2-py FILE]\n"
      "           [--target-platform RK1806|RK1808|RK3399Pro|RV1109|RV1126] [--kernel-index 0|1]\n"
      "           [--pack {0}.rknnop [--shader F | --toolkit-rknnop F] [--x86 F] [--aarch64 F] [--armhf F]\n"
      "                  [--version 2|1] [--py-file F]] [--rknpu2-support FILE]\n"
      "Writes the op.yml, Python op class ({1}) and .rknnop container of {0} from its C++ op struct;\n"
      "--toolkit2-py writes the RKNN-Toolkit2 class ({2}), which calls the RKNPU2 plugin;\n"
      "--rknpu2-support writes \"ok\", or the one line saying why {0} cannot be an RKNPU2 plugin.\n"
      "--pack embeds the op.yml and .py generated with the same options (or --py-file's .py);\n"
      "the shader section is --shader's compiled shader or the one in --toolkit-rknnop's container\n"
      "(a .rknnop the toolkit built); an omitted --shader/--x86/--aarch64/--armhf leaves that section empty.\n",
      name, python_file_name(name), toolkit2_python_file_name(name));
}

// Reads and checks the files of --pack and writes the container.
inline emit_result pack(const op_schema& op, const emitter_args& a, const std::string& yml, const std::string& py) {
  using container_format::section;
  if (a.version == 1 && a.armhf) return {"--armhf given with --version 1: version 1 containers have no armhf section"};
  if (a.options.kernel_index != 0 && !a.shader && !a.toolkit_rknnop)
    return {
        fmt::format("kernel_index {} selects the VX kernel, whose shader binary comes from --shader; "
                    "give --shader (or --toolkit-rknnop) or use --kernel-index 0",
                    a.options.kernel_index)};
  std::array<std::vector<std::uint8_t>, container_format::section_count> files{};
  const std::array<std::pair<const std::optional<std::string>*, section>, 4> inputs{{{&a.shader, section::shader},
                                                                                     {&a.x86, section::lib_x86_64},
                                                                                     {&a.aarch64, section::lib_aarch64},
                                                                                     {&a.armhf, section::lib_armhf}}};
  container_format::contents c;
  c.version = a.version;
  for (const auto& [file, kind] : inputs) {
    if (!*file) continue;
    auto& bytes = files[static_cast<std::size_t>(kind)];
    if (emit_result r = container_format::read_file(**file, bytes); !r) return r;
    if (kind == section::shader) {
      if (!container_format::starts_with(bytes, container_format::shader_magic))
        return {
            fmt::format("'{}' is not a compiled Vivante shader (no SHDR magic); --shader takes the binary the "
                        "toolkit's VX compiler makes from {}, not the source",
                        **file, shader_file_name(op.name))};
    } else if (emit_result r = check_library(bytes, **file, kind); !r) {
      return r;
    }
    c[kind] = bytes;
  }
  if (a.toolkit_rknnop) {  // the toolkit's own container: its shader section, parsed by the one reader
    auto& bytes = files[static_cast<std::size_t>(section::shader)];
    if (emit_result r = container_format::read_file(*a.toolkit_rknnop, bytes); !r) return r;
    const std::string source = fmt::format("'{}' (--toolkit-rknnop)", *a.toolkit_rknnop);
    if (emit_result r = container_format::shader_section(bytes, source, c[section::shader]); !r) return r;
  }
  c[section::op_yml] = bytes_of_text(yml);
  c[section::op_py] = bytes_of_text(py);
  return container_format::write_file(*a.pack, c);
}

// "ok", or why op cannot be an RKNPU2 plugin: librknnrt hands a CPU custom op FLOAT32 tensors on its
// non-native path (FLOAT16 where the model keeps it), so every input and output must accept one of
// the two (the same rule <rknnop/rknpu2.hpp> asserts when the plugin compiles).
inline std::string rknpu2_support(const op_schema& op) {
  for (const field_desc& f : op.fields) {
    if (f.kind != field_kind::input && f.kind != field_kind::output) continue;
    bool feedable = false;
    std::string types;
    for (std::uint32_t i = 0; i < f.accepted_count; ++i) {
      feedable = feedable || f.accepted[i] == VX_TYPE_FLOAT32 || f.accepted[i] == VX_TYPE_FLOAT16;
      types += fmt::format("{}{}", i ? ", " : "", dtype_vx_name(static_cast<dtype>(f.accepted[i])));
    }
    if (!feedable)
      return fmt::format(
          "no RKNPU2 plugin: {} '{}' accepts only {}, and librknnrt hands a CPU custom op float32 (or float16) "
          "tensors",
          role_name(f.kind), f.name, types);
  }
  return "ok";
}

// The one-line check that a user's .py defines the op class the toolkit looks up by name.
inline bool defines_class(std::string_view py, std::string_view name) {
  std::size_t at = 0;
  while (at < py.size()) {
    std::size_t end = py.find('\n', at);
    if (end == std::string_view::npos) end = py.size();
    const std::string_view line = py.substr(at, end - at);
    if (line.starts_with("class ") && line.substr(6).starts_with(name) && line.size() > 6 + name.size() &&
        (line[6 + name.size()] == '(' || line[6 + name.size()] == ':' || line[6 + name.size()] == ' '))
      return true;
    at = end + 1;
  }
  return false;
}

// RKNN v1's runtime takes and returns graph inputs and outputs only in rknn_api.h's tensor types
// (<rknnop/board_abi.hpp>): a port accepting none of them fails on a v1 board as a graph input or output
// ("Convert2RKNNTensorDataType: Unknow data type:6"; docs/rknn-model.md §8). A warning, not an error: the
// op may be used only mid-graph, and the RKNPU2 plugin has its own rules (--rknpu2-support). The host
// tools refuse the model itself.
inline void warn_v1_model(const op_schema& op) {
  for (const field_desc& f : op.fields) {
    if (f.kind != field_kind::output && f.kind != field_kind::input) continue;
    bool edge = false;
    std::string names;
    for (std::uint32_t k = 0; k < f.accepted_count; ++k) {
      edge = edge || board_abi::is_v1_graph_edge_type(f.accepted[k]);
      names += fmt::format("{}{}", k ? "|" : "", dtype_name(f.accepted[k]));
    }
    if (!edge)
      fmt::print(stderr,
                 "rknnop: {}: warning: {} '{}' is {} only: {} on RKNN v1 boards (a graph {}); add "
                 "rknnop::float16 to its dtypes\n",
                 op.name, detail::role_name(f.kind), f.name, names,
                 f.kind == field_kind::output ? "rknn_outputs_get cannot return it" : "rknn_inputs_set cannot take it",
                 detail::role_name(f.kind));
  }
  for (const field_desc& f : op.fields)
    if (f.kind == field_kind::scalar && !board_abi::is_v1_model_scalar_type(f.vx_type))
      fmt::print(stderr,
                 "rknnop: {}: warning: param '{}' is a {} scalar: librknn_runtime creates none from an RKNN v1 "
                 "model (rknn_init -6); make it float\n",
                 op.name, f.name, detail::vx_type_name(f.vx_type));
}

// The generated Python class gives every output input 0's shape unless the struct has
// python_output_shape (python.hpp): warn when `infer` says otherwise on a probe (rank 4, distinct dims,
// as NHWC or NCHW), naming the output and both dims. Silent when infer cannot run on the probe.
inline void warn_python_output_shape(const op_schema& op) {
  if (op.python_output_shape || op.probe_shapes == nullptr) return;
  for (const std::array<std::uint32_t, 4>& dims :
       {std::array<std::uint32_t, 4>{8, 6, 4, 1}, std::array<std::uint32_t, 4>{4, 6, 8, 1}}) {
    shape_probe probe;
    std::copy(dims.begin(), dims.end(), probe.input_dims);
    probe.input_rank = 4;
    op.probe_shapes(probe);
    if (!probe.ran) continue;
    if (probe.differs) {
      const auto dims_text = [](const std::uint32_t* d, std::uint32_t rank) {
        std::string text;
        for (std::uint32_t k = 0; k < rank; ++k) text += fmt::format("{}{}", k ? "," : "", d[k]);
        return text;
      };
      const field_desc& f = op.fields[op.input_count + probe.output];
      fmt::print(stderr,
                 "rknnop: {}: warning: output '{}': infer gives dims [{}] for inputs of dims [{}], but the generated "
                 "Python class gives it input 0's shape (the struct has no python_output_shape); declare "
                 "python_output_shape\n",
                 op.name, f.name, dims_text(probe.output_dims, probe.output_rank),
                 dims_text(probe.input_dims, probe.input_rank));
    }
    return;
  }
}

inline emit_result run_emitter_checked(const op_schema& op, const emitter_args& a) {
  if (is_python_keyword(op.name))
    return {fmt::format("'{}' is a Python keyword, so the toolkit's Python class cannot have the op's name", op.name)};
  if (emit_result r = check_options(op, a.options); !r) return r;
  // Every output is checked before anything is read or written (no half-made set of files).
  for (const auto& [file, option] : {std::pair{&a.yml, "--yml"}, std::pair{&a.py, "--py"},
                                     std::pair{&a.toolkit2_py, "--toolkit2-py"}, std::pair{&a.pack, "--pack"}})
    if (*file)
      if (emit_result r = {files::check_output_path(**file, option).error}; !r) return r;
  if (a.describe) std::fputs(emit_description(op, a.options).c_str(), stdout);
  if (a.rknpu2_support)
    if (emit_result r =
            container_format::write_file_atomically(*a.rknpu2_support, bytes_of_text(rknpu2_support(op) + "\n"));
        !r)
      return r;
  const std::string yml = emit_op_yml(op, a.options);
  std::string py;
  if (a.py_file) {
    std::vector<std::uint8_t> bytes;
    if (emit_result r = container_format::read_file(*a.py_file, bytes); !r) return r;
    py.assign(bytes.begin(), bytes.end());
    if (!defines_class(py, op.name))
      return {
          fmt::format("'{}' has no line 'class {}(...)': the toolkit finds the op's Python class by the op "
                      "name",
                      *a.py_file, op.name)};
  } else {
    py = emit_python(op);
  }
  if (a.yml) {
    if (emit_result r = container_format::write_file_atomically(*a.yml, bytes_of_text(yml)); !r) return r;
    warn_v1_model(op);  // with the v1 op.yml: said once per build of the op
    if (!a.py_file) warn_python_output_shape(op);
  }
  if (a.py)
    if (emit_result r = container_format::write_file_atomically(*a.py, bytes_of_text(py)); !r) return r;
  if (a.toolkit2_py)
    if (emit_result r =
            container_format::write_file_atomically(*a.toolkit2_py, bytes_of_text(emit_toolkit2_python(op)));
        !r)
      return r;
  if (a.pack) return pack(op, a, yml, py);
  return {};
}

}  // namespace detail

/// The generator program's main: see the command line at the top of this header. Returns 0, 1 on
/// failure, 2 on a usage error.
inline int run_emitter(const op_schema& op, int argc, char** argv) {
  const auto fail = [&](const std::string& message, int code) {
    std::fflush(stdout);
    fmt::print(stderr, "rknnop: {}: {}\n", op.name, message);
    return code;
  };
#if RKNNOP_HAS_EXCEPTIONS
  try {
#endif
    files::install_interrupt_cleanup();  // SIGINT/SIGTERM remove the temporary file of an output being written
    detail::emitter_args args;
    if (emit_result r = detail::parse_emitter_args(argc, argv, args); !r) return fail(r.error, 2);
    if (args.help) {
      std::fputs(detail::emitter_usage(op.name).c_str(), stdout);
      return 0;
    }
    if (emit_result r = detail::run_emitter_checked(op, args); !r) return fail(r.error, 1);
    return 0;
#if RKNNOP_HAS_EXCEPTIONS
  } catch (const std::exception& e) {
    return fail(e.what(), 1);
  }
#endif
}

template <class Op>
int emit_main(int argc, char** argv) {
  return run_emitter(schema_of<Op>(), argc, argv);
}

}  // namespace rknnop

RKNNOP_DETAIL_END_HIDDEN

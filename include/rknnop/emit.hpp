// SPDX-License-Identifier: MIT
#pragma once

// Host-side generation from an op struct: the toolkit's op.yml, its Python op class
// (rknn_op_<lower>.py) and the .rknnop container, all from op_model<Op>, so that none of them
// can drift from the kernel library. Never part of a kernel library (it uses {fmt} and the heap).
//
//   std::string yml = rknnop::emit_op_yml<ResizeArea>({.target_platform = "RV1126"});
//   std::string py  = rknnop::emit_python<ResizeArea>();
//
// The Python class needs two things C++ cannot give it; an op struct may provide them as Python
// source text (both optional):
//
//   // Python expression over `inputs_shape` (list of NHWC shape lists) and `params` (dict):
//   // the list of output shapes. Without it every output has input 0's shape.
//   static constexpr std::string_view python_output_shape = "[[...]]";
//   // Python expression over `inputs_tensor`, `params` and `tf`: the list of output tensors
//   // (used by the toolkit for quantization). Without it compute_output_tensor raises.
//   static constexpr std::string_view python_compute = "[tf.image.resize_area(inputs_tensor[0], **params)]";
//
// The command line of the generator program rknnop_add_op builds (main() calls
// rknnop_emit_<Name>, which RKNNOP_EXPORT_OP defines when RKNNOP_EMITTER is set):
//
//   --describe                  print the op's parameter table
//   --yml FILE  --py FILE       write op.yml / rknn_op_<lower>.py
//   --target-platform P         RK1806 RK1808 (default) RK3399Pro RV1109 RV1126
//   --kernel-index N            0 = CPU kernel (default), 1 = VX kernel (needs `vx` and --shader)
//   --pack FILE.rknnop          write the container; its op.yml and .py are generated with the
//                               options above, unless --py-file gives the .py
//     --shader F --x86 F --aarch64 F --armhf F   section contents; an omitted one is empty
//     --version 2|1  --py-file F
//
// Files are written through a temporary file and a rename. Every failure is one line
// "rknnop: <Name>: ..." on stderr and a non-zero exit status (2 for a usage error).

#include <rknnop/config.hpp>
#include <rknnop/container.hpp>
#include <rknnop/detail/model.hpp>
#include <rknnop/detail/vx_api.hpp>

#include <fmt/format.h>  // the one rknnop header that includes {fmt}

#include <array>        // option tables
#include <charconv>     // std::from_chars
#include <cstddef>      // std::size_t
#include <cstdint>      // std::uint32_t, std::uint64_t
#include <cstdio>       // stdout, stderr
#include <exception>    // std::exception, caught at the program boundary
#include <filesystem>   // output paths
#include <iterator>     // std::back_inserter
#include <optional>     // optional Python members
#include <span>         // the field table
#include <string>       // generated text
#include <string_view>  // names
#include <vector>       // file contents

RKNNOP_DETAIL_BEGIN_HIDDEN  // see config.hpp: nothing of the SDK is exported

namespace rknnop {

/// The keys of op.yml that are not derived from the op struct.
struct emit_options {
  std::string target_platform = "RK1808";  ///< RK1806, RK1808, RK3399Pro, RV1109 or RV1126
  std::uint32_t kernel_index = 0;          ///< 0: CPU kernel; 1: VX kernel (needs `vx`)
};

/// Everything emission reads off an op struct; built by schema_of<Op>() so that the generators
/// below are plain functions, compiled once.
struct op_schema {
  std::string_view name;
  std::span<const detail::field_desc> fields;  ///< inputs, outputs, params, in declaration order
  std::size_t input_count = 0;
  std::size_t output_count = 0;
  std::size_t param_count = 0;
  std::uint64_t fingerprint = 0;
  bool has_vx = false;
  std::optional<std::string_view> python_output_shape;
  std::optional<std::string_view> python_compute;
};

namespace detail {
template <class Op>
concept has_python_output_shape = requires {
  { std::string_view(Op::python_output_shape) };
};
template <class Op>
concept has_python_compute = requires {
  { std::string_view(Op::python_compute) };
};
}  // namespace detail

template <class Op>
constexpr op_schema schema_of() noexcept {
  static_assert(detail::check_op<Op>(), "rknnop: emission needs a valid op struct (see above)");
  using model = detail::op_model<Op>;
  op_schema s;
  s.name = model::name;
  s.fields = model::fields;
  s.input_count = model::input_count;
  s.output_count = model::output_count;
  s.param_count = model::param_count;
  s.fingerprint = model::fingerprint;
  s.has_vx = model::has_vx;
  if constexpr (detail::has_python_output_shape<Op>) s.python_output_shape = std::string_view(Op::python_output_shape);
  if constexpr (detail::has_python_compute<Op>) s.python_compute = std::string_view(Op::python_compute);
  return s;
}

// --- names -----------------------------------------------------------------------------------

/// The op name lower-cased, as in the toolkit's file and kernel names.
inline std::string lower_name(std::string_view name) {
  std::string lower(name);
  for (char& c : lower) c = detail::to_lower(c);
  return lower;
}
inline std::string container_file_name(std::string_view name) { return fmt::format("{}.rknnop", name); }
inline std::string python_file_name(std::string_view name) { return fmt::format("rknn_op_{}.py", lower_name(name)); }
inline std::string shader_file_name(std::string_view name) { return fmt::format("rknn_kernel_{}.vx", lower_name(name)); }

/// The platforms the toolkit's target_platform accepts (docs/op-yml.md §2).
inline constexpr std::array<std::string_view, 5> target_platforms{"RK1806", "RK1808", "RK3399Pro", "RV1109",
                                                                  "RV1126"};

/// Result of a check: ok, or one line without the "rknnop: <Name>: " prefix.
using emit_result = container_format::result;

/// Whether the options make sense for this op (a known platform; a kernel index the op has).
inline emit_result check_options(const op_schema& op, const emit_options& options) {
  bool known = false;
  for (std::string_view p : target_platforms) known = known || p == options.target_platform;
  if (!known)
    return {fmt::format("unknown target_platform '{}' (expected one of: {} {} {} {} {})", options.target_platform,
                        target_platforms[0], target_platforms[1], target_platforms[2], target_platforms[3],
                        target_platforms[4])};
  const std::uint32_t kernels = op.has_vx ? 2u : 1u;
  if (options.kernel_index >= kernels)
    return {op.has_vx ? fmt::format("kernel_index {} does not exist: 0 is the CPU kernel, 1 the VX kernel",
                                    options.kernel_index)
                      : fmt::format("kernel_index {} selects a VX kernel, but the op has no `vx` member; "
                                    "its only kernel is 0 (CPU)",
                                    options.kernel_index)};
  return {};
}

namespace detail {

// Words PyYAML (YAML 1.1, what the toolkit reads op.yml with) turns into booleans or None; names
// are C identifiers, so these are the only ones that need quotes.
inline std::string yaml_key(std::string_view name) {
  static constexpr std::array<std::string_view, 7> reserved{"yes", "no", "true", "false", "on", "off", "null"};
  const std::string lower = lower_name(name);
  for (std::string_view word : reserved)
    if (lower == word) return fmt::format("'{}'", name);
  return std::string(name);
}

// "float16": the dtype spelling of a tensor element type in op.yml's details; "?" for others.
constexpr std::string_view dtype_name(vx_enum type) noexcept {
  const vx_type_info* row = find_vx_type(type);
  return row != nullptr && row->dtype() != nullptr ? std::string_view(row->dtype()) : std::string_view("?");
}

// The type written in op.yml for a field.
inline std::string_view yml_type(const field_desc& f) noexcept {
  switch (f.kind) {
    case field_kind::input:
    case field_kind::output: return "VX_TYPE_TENSOR";
    case field_kind::array: return "VX_TYPE_ARRAY";
    case field_kind::scalar: break;
  }
  return vx_type_name(f.vx_type);
}

// How the Python class reads a scalar param: the converter and, for integers, the value range.
struct python_scalar {
  std::string_view convert;
  std::string_view low, high;  // empty: no range check
};

constexpr python_scalar python_scalar_of(vx_enum type) noexcept {
  switch (type) {
    case VX_TYPE_BOOL: return {"bool", "", ""};
    case VX_TYPE_CHAR: return {"int", "-128", "255"};
    case VX_TYPE_INT8: return {"int", "-128", "127"};
    case VX_TYPE_UINT8: return {"int", "0", "255"};
    case VX_TYPE_INT16: return {"int", "-32768", "32767"};
    case VX_TYPE_UINT16: return {"int", "0", "65535"};
    case VX_TYPE_INT32: return {"int", "-2147483648", "2147483647"};
    case VX_TYPE_UINT32: return {"int", "0", "4294967295"};
    case VX_TYPE_INT64: return {"int", "-9223372036854775808", "9223372036854775807"};
    case VX_TYPE_UINT64: return {"int", "0", "18446744073709551615"};
    default: return {"float", "", ""};  // FLOAT16, FLOAT32, FLOAT64
  }
}

inline bool is_python_keyword(std::string_view name) noexcept {
  static constexpr std::array<std::string_view, 35> keywords{
      "False", "None",   "True",    "and",      "as",     "assert", "async", "await",  "break",
      "class", "continue", "def",   "del",      "elif",   "else",   "except", "finally", "for",
      "from",  "global", "if",      "import",   "in",     "is",     "lambda", "nonlocal", "not",
      "or",    "pass",   "raise",   "return",   "try",    "while",  "with",  "yield"};
  for (std::string_view k : keywords)
    if (k == name) return true;
  return false;
}

// The Python expression text, indented under `indent` (multi-line expressions keep their shape).
inline std::string indent_python(std::string_view text, std::string_view indent) {
  std::string out;
  std::size_t at = 0;
  while (at <= text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(at, end - at);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!line.empty()) fmt::format_to(std::back_inserter(out), "{}{}", indent, line);
    out += '\n';
    at = end + 1;
  }
  return out;
}

inline std::string_view trim(std::string_view s) noexcept {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\n' || s.front() == '\t' || s.front() == '\r'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\n' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

}  // namespace detail

// --- op.yml ----------------------------------------------------------------------------------

/// op.yml as `custom_op --action create` leaves it, plus a comment carrying the schema
/// fingerprint (the library stores the same value after its descriptor name's NUL; rknnop's
/// loader compares them). Assumes check_options(op, options) passed.
inline std::string emit_op_yml(const op_schema& op, const emit_options& options = {}) {
  std::string out;
  auto it = std::back_inserter(out);
  fmt::format_to(it,
                 "# op.yml of the custom op {}, generated by rknnop from its C++ op struct.\n"
                 "# rknnop-schema: {:016x}\n"
                 "name: {}\n"
                 "framework: tensorflow\n"
                 "target_platform: {}\n",
                 op.name, op.fingerprint, detail::yaml_key(op.name), options.target_platform);
  const auto section = [&](std::string_view key, std::size_t first, std::size_t count) {
    if (count == 0) {
      fmt::format_to(it, "{}: {{}}\n", key);  // an empty mapping, not null
      return;
    }
    fmt::format_to(it, "{}:\n", key);
    for (std::size_t i = first; i < first + count; ++i)
      fmt::format_to(it, "  {}:\n    type: {}\n", detail::yaml_key(op.fields[i].name), detail::yml_type(op.fields[i]));
  };
  section("inputs", 0, op.input_count);
  section("outputs", op.input_count, op.output_count);
  section("params", op.input_count + op.output_count, op.param_count);
  fmt::format_to(it,
                 "op_version: 2\n"
                 "out_binary: {}\n"
                 "op_py_file: {}\n"
                 "vx_file: {}\n"
                 "kernel_index: {}\n",
                 container_file_name(op.name), python_file_name(op.name), shader_file_name(op.name),
                 options.kernel_index);
  return out;
}

// --- the Python op class -----------------------------------------------------------------------

namespace detail {

inline constexpr std::string_view python_scalar_helper = R"py(

def _rknnop_scalar(op, node_def, consts, name, convert, low=None, high=None):
    """Scalar param `name`: the NodeDef's attr of that name, else the node's next constant input."""
    if name in node_def.attr:
        attr = node_def.attr[name]
        field = attr.WhichOneof('value')
        fields = {bool: ('b', 'i'), int: ('i', 'b'), float: ('f', 'i')}[convert]
        if field not in fields:
            raise ValueError("rknnop: %s: attr '%s' holds a '%s' value, expected one of %s"
                             % (op, name, field, fields))
        value = convert(getattr(attr, field))
    else:
        items = np.asarray(_rknnop_next_const(op, consts, name)).reshape(-1)
        if items.size != 1:
            raise ValueError("rknnop: %s: param '%s' is a scalar but its constant input has %d values"
                             % (op, name, items.size))
        value = convert(items[0].item())
    if low is not None and not low <= value <= high:
        raise ValueError("rknnop: %s: param '%s' = %s is outside [%d, %d]" % (op, name, value, low, high))
    return value
)py";

inline constexpr std::string_view python_array_helper = R"py(

def _rknnop_array(op, node_def, consts, name, exactly=None, at_most=None):
    """int32 array param `name`: the NodeDef's list attr of that name, else the node's next
    constant input."""
    attr = node_def.attr[name] if name in node_def.attr else None
    if attr is not None and attr.WhichOneof('value') == 'list':
        values = [int(v) for v in attr.list.i]
    else:
        values = [int(v) for v in np.asarray(_rknnop_next_const(op, consts, name)).reshape(-1).tolist()]
    if exactly is not None and len(values) != exactly:
        raise ValueError("rknnop: %s: param '%s' needs exactly %d int32 values, got %d"
                         % (op, name, exactly, len(values)))
    if at_most is not None and len(values) > at_most:
        raise ValueError("rknnop: %s: param '%s' holds at most %d int32 values, got %d"
                         % (op, name, at_most, len(values)))
    for v in values:
        if not -2147483648 <= v <= 2147483647:
            raise ValueError("rknnop: %s: param '%s' value %d does not fit in int32" % (op, name, v))
    return values
)py";

inline constexpr std::string_view python_const_helper = R"py(

def _rknnop_next_const(op, consts, name):
    value = next(consts, None)
    if value is None:
        raise ValueError("rknnop: %s: param '%s' is neither an attr of the TensorFlow node nor one of its "
                         "remaining constant inputs; write load_params_from_tf yourself (PYTHON file.py "
                         "in rknnop_add_op)" % (op, name))
    return value
)py";

inline constexpr std::string_view python_shapes_helper = R"py(

def _rknnop_output_shapes(op, count, shapes):
    shapes = list(shapes)
    if len(shapes) != count:
        raise ValueError("rknnop: %s: python_output_shape gave %d shapes for %d outputs" % (op, len(shapes), count))
    outputs_shape = [Shape() for _ in range(count)]
    for output, shape in zip(outputs_shape, shapes):
        output.set_shape(shape=list(shape), fmt='nhwc')
    return outputs_shape
)py";

}  // namespace detail

/// rknn_op_<lower>.py: the toolkit's RKNNCustomOP subclass for the op. Deterministic text.
inline std::string emit_python(const op_schema& op) {
  std::string out;
  auto it = std::back_inserter(out);
  const std::size_t first_param = op.input_count + op.output_count;
  bool any_scalar = false, any_array = false;
  for (std::size_t i = first_param; i < op.fields.size(); ++i) {
    any_scalar = any_scalar || op.fields[i].kind == detail::field_kind::scalar;
    any_array = any_array || op.fields[i].kind == detail::field_kind::array;
  }

  fmt::format_to(it,
                 "# {}: the RKNN-Toolkit v1 Python class of the custom op {}.\n"
                 "# Generated by rknnop from the C++ op struct {}; change the struct, not this file.\n"
                 "# rknnop-schema: {:016x}\n"
                 "import numpy as np\n"
                 "import tensorflow as tf\n"
                 "\n"
                 "from rknn.api import RKNNCustomOP, IoMap, Shape\n",
                 python_file_name(op.name), op.name, op.name, op.fingerprint);
  if (any_scalar || any_array) out += detail::python_const_helper;
  if (any_scalar) out += detail::python_scalar_helper;
  if (any_array) out += detail::python_array_helper;
  out += detail::python_shapes_helper;

  fmt::format_to(it, "\n\nclass {}(RKNNCustomOP):\n\n    op = '{}'\n\n    def_input = [\n", op.name, op.name);
  for (std::size_t i = 0; i < op.input_count; ++i)
    fmt::format_to(it, "        IoMap('in{}', 'in', 'input port {}'),  # {}\n", i, i, op.fields[i].name);
  out += "    ]\n\n    def_output = [\n";
  for (std::size_t i = 0; i < op.output_count; ++i)
    fmt::format_to(it, "        IoMap('out{}', 'out', 'output port {}'),  # {}\n", i, i,
                   op.fields[op.input_count + i].name);
  out += "    ]\n";

  out +=
      "\n    def load_params_from_tf(self, node_def, tensor_data_map):\n"
      "        \"\"\"The op struct's params by name: each from the NodeDef's attr of that name or, when\n"
      "        there is none, from the node's next constant input (in tensor_data_map's order).\"\"\"\n";
  if (any_scalar || any_array) out += "        consts = iter(list(tensor_data_map.values()))\n";
  out += "        p = dict()\n";
  for (std::size_t i = first_param; i < op.fields.size(); ++i) {
    const detail::field_desc& f = op.fields[i];
    if (f.kind == detail::field_kind::array) {
      fmt::format_to(it, "        p['{}'] = _rknnop_array(self.op, node_def, consts, '{}', {}={})\n", f.name, f.name,
                     f.exact ? "exactly" : "at_most", f.capacity);
    } else {
      const detail::python_scalar s = detail::python_scalar_of(f.vx_type);
      fmt::format_to(it, "        p['{}'] = _rknnop_scalar(self.op, node_def, consts, '{}', {}", f.name, f.name,
                     s.convert);
      if (!s.low.empty()) fmt::format_to(it, ", {}, {}", s.low, s.high);
      fmt::format_to(it, ")  # {}\n", detail::vx_type_name(f.vx_type));
    }
  }
  out += "        return p\n";

  // The toolkit may hand params back as JSON numbers (bool as 0/1): give the Python expressions the
  // struct's types.
  const bool typed_params = op.param_count != 0 && (op.python_output_shape || op.python_compute);
  if (typed_params) {
    out +=
        "\n    def _rknnop_typed_params(self, params):\n"
        "        p = dict(params)\n";
    for (std::size_t i = first_param; i < op.fields.size(); ++i) {
      const detail::field_desc& f = op.fields[i];
      if (f.kind == detail::field_kind::array)
        fmt::format_to(it, "        p['{}'] = [int(v) for v in p['{}']]\n", f.name, f.name);
      else
        fmt::format_to(it, "        p['{}'] = {}(p['{}'])\n", f.name, detail::python_scalar_of(f.vx_type).convert,
                       f.name);
    }
    out += "        return p\n";
  }

  out +=
      "\n    def compute_output_shape(self, inputs_shape, params):\n"
      "        inputs_shape = [list(s.format('nhwc')) for s in inputs_shape]\n";
  if (op.python_output_shape) {
    if (typed_params) out += "        params = self._rknnop_typed_params(params)\n";
    out += "        # python_output_shape of the C++ op struct:\n        shapes = (\n";
    out += detail::indent_python(detail::trim(*op.python_output_shape), "            ");
    out += "        )\n";
  } else {
    out +=
        "        # The C++ op struct has no python_output_shape: every output gets input 0's shape.\n"
        "        shapes = [inputs_shape[0] for _ in self.def_output]\n";
  }
  out += "        return _rknnop_output_shapes(self.op, len(self.def_output), shapes)\n";

  out += "\n    def compute_output_tensor(self, const_tensor, inputs_tensor, params):\n";
  if (op.python_compute) {
    if (typed_params) out += "        params = self._rknnop_typed_params(params)\n";
    out += "        # python_compute of the C++ op struct:\n        outputs_tensor = list(\n";
    out += detail::indent_python(detail::trim(*op.python_compute), "            ");
    out +=
        "        )\n"
        "        if len(outputs_tensor) != len(self.def_output):\n"
        "            raise ValueError(\"rknnop: %s: python_compute gave %d tensors for %d outputs\"\n"
        "                             % (self.op, len(outputs_tensor), len(self.def_output)))\n"
        "        return outputs_tensor\n";
  } else {
    fmt::format_to(it,
                   "        raise NotImplementedError(\n"
                   "            \"rknnop: {}: no Python computation of the outputs; add `static constexpr \"\n"
                   "            \"std::string_view python_compute = \\\"...\\\";` (a Python expression over inputs_tensor, \"\n"
                   "            \"params and tf giving the list of output tensors) to the op struct, or pass \"\n"
                   "            \"PYTHON file.py to rknnop_add_op\")\n",
                   op.name);
  }
  return out;
}

// --- --describe --------------------------------------------------------------------------------

/// The op's table for people: kernels, fields with their VX types, what the Python class does.
inline std::string emit_description(const op_schema& op, const emit_options& options = {}) {
  std::string out;
  auto it = std::back_inserter(out);
  const std::string lower = lower_name(op.name);
  fmt::format_to(it, "{}  (rknnop-schema {:016x})\n", op.name, op.fingerprint);
  fmt::format_to(it, "  kernels: 0 = CPU \"{}_cpu\"{}\n", lower,
                 op.has_vx ? fmt::format(", 1 = VX \"{}\" ({})", lower, shader_file_name(op.name)) : std::string());
  fmt::format_to(it, "  op.yml: target_platform {}, kernel_index {}; files {}, {}\n", options.target_platform,
                 options.kernel_index, container_file_name(op.name), python_file_name(op.name));
  std::size_t width = 4;
  for (const detail::field_desc& f : op.fields) width = f.name.size() > width ? f.name.size() : width;
  fmt::format_to(it, "  {:>2}  {:<6}  {:<{}}  {:<15}  {}\n", "#", "role", "name", width, "op.yml type", "details");
  for (std::size_t i = 0; i < op.fields.size(); ++i) {
    const detail::field_desc& f = op.fields[i];
    std::string details;
    if (f.kind == detail::field_kind::input || f.kind == detail::field_kind::output) {
      std::string accepted;
      for (std::uint32_t k = 0; k < f.accepted_count; ++k)
        accepted += fmt::format("{}{}", k ? "|" : "", detail::dtype_name(f.accepted[k]));
      details = fmt::format("{}, kernel sees {}, {}", accepted, detail::dtype_name(f.vx_type),
                            f.required_rank ? fmt::format("rank {}", f.required_rank) : std::string("rank 1..6"));
    } else if (f.kind == detail::field_kind::array) {
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
std::string emit_op_yml(const emit_options& options = {}) {
  return emit_op_yml(schema_of<Op>(), options);
}
template <class Op>
std::string emit_python() {
  return emit_python(schema_of<Op>());
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
  std::optional<std::string> yml, py, pack, shader, x86, aarch64, armhf, py_file;
  std::uint64_t version = container_format::latest_version;
  emit_options options;
};

// Parses the command line; returns the usage error, if any.
inline emit_result parse_emitter_args(int argc, char** argv, emitter_args& a) {
  struct text_option {
    std::string_view flag;
    std::optional<std::string> emitter_args::*target;
  };
  const std::array<text_option, 8> text_options{{{"--yml", &emitter_args::yml},
                                                 {"--py", &emitter_args::py},
                                                 {"--pack", &emitter_args::pack},
                                                 {"--shader", &emitter_args::shader},
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
      if (o.flag != "--yml" && o.flag != "--py" && o.flag != "--pack" && (a.*o.target).has_value())
        return {fmt::format("{} only applies to --pack", o.flag)};
    if (seen_version) return {"--version only applies to --pack"};
  }
  if (!a.help && !a.describe && !a.yml && !a.py && !a.pack)
    return {"nothing to do: give --describe, --yml, --py or --pack (see --help)"};
  return {};
}

inline std::string emitter_usage(std::string_view name) {
  return fmt::format(
      "usage: <generator of {0}> [--describe] [--yml FILE] [--py FILE]\n"
      "           [--target-platform RK1806|RK1808|RK3399Pro|RV1109|RV1126] [--kernel-index 0|1]\n"
      "           [--pack {0}.rknnop [--shader F] [--x86 F] [--aarch64 F] [--armhf F] [--version 2|1]\n"
      "                  [--py-file F]]\n"
      "Writes the op.yml, Python op class ({1}) and .rknnop container of {0} from its C++ op struct.\n"
      "--pack embeds the op.yml and .py generated with the same options (or --py-file's .py);\n"
      "an omitted --shader/--x86/--aarch64/--armhf leaves that section empty.\n",
      name, python_file_name(name));
}

// Reads and checks the files of --pack and writes the container.
inline emit_result pack(const op_schema& op, const emitter_args& a, const std::string& yml, const std::string& py) {
  using container_format::section;
  if (a.version == 1 && a.armhf)
    return {"--armhf given with --version 1: version 1 containers have no armhf section"};
  if (a.options.kernel_index != 0 && !a.shader)
    return {fmt::format("kernel_index {} selects the VX kernel, whose shader binary comes from --shader; "
                        "give --shader or use --kernel-index 0",
                        a.options.kernel_index)};
  std::array<std::vector<std::uint8_t>, container_format::section_count> files{};
  const std::array<std::pair<const std::optional<std::string>*, section>, 4> inputs{
      {{&a.shader, section::shader},
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
      if (bytes.size() < 4 || bytes[0] != 'S' || bytes[1] != 'H' || bytes[2] != 'D' || bytes[3] != 'R')
        return {fmt::format("'{}' is not a compiled Vivante shader (no SHDR magic); --shader takes the binary the "
                            "toolkit's VX compiler makes from {}, not the source",
                            **file, shader_file_name(op.name))};
    } else if (emit_result r = check_library(bytes, **file, kind); !r) {
      return r;
    }
    c[kind] = bytes;
  }
  c[section::op_yml] = bytes_of_text(yml);
  c[section::op_py] = bytes_of_text(py);
  return container_format::write_file(*a.pack, c);
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

inline emit_result run_emitter_checked(const op_schema& op, const emitter_args& a) {
  if (is_python_keyword(op.name))
    return {fmt::format("'{}' is a Python keyword, so the toolkit's Python class cannot have the op's name",
                        op.name)};
  if (emit_result r = check_options(op, a.options); !r) return r;
  if (a.describe) std::fputs(emit_description(op, a.options).c_str(), stdout);
  const std::string yml = emit_op_yml(op, a.options);
  std::string py;
  if (a.py_file) {
    std::vector<std::uint8_t> bytes;
    if (emit_result r = container_format::read_file(*a.py_file, bytes); !r) return r;
    py.assign(bytes.begin(), bytes.end());
    if (!defines_class(py, op.name))
      return {fmt::format("'{}' has no line 'class {}(...)': the toolkit finds the op's Python class by the op "
                          "name",
                          *a.py_file, op.name)};
  } else {
    py = emit_python(op);
  }
  if (a.yml)
    if (emit_result r = container_format::write_file_atomically(*a.yml, bytes_of_text(yml)); !r) return r;
  if (a.py)
    if (emit_result r = container_format::write_file_atomically(*a.py, bytes_of_text(py)); !r) return r;
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

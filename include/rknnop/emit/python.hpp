// SPDX-License-Identifier: MIT
#pragma once

// Layer 3 of emit/ (docs/architecture.md §1): the toolkit's Python op class (rknn_op_<lower>.py),
// from an op_schema and the struct's optional python_output_shape / python_compute text.

#include <rknnop/detail/field_desc.hpp>
#include <rknnop/detail/schema.hpp>
#include <rknnop/detail/vx_api.hpp>
#include <rknnop/emit/op_yml.hpp>  // default_text
#include <rknnop/emit/options.hpp>
#include <rknnop/schema_marker.hpp>
#include <rknnop/vx_type.hpp>  // vx_type_integer_range, vx_type_is_floating

#include <array>        // Python keywords
#include <cstddef>      // std::size_t
#include <iterator>     // std::back_inserter
#include <optional>     // python_scalar::range
#include <string>       // generated text
#include <string_view>  // names

RKNNOP_DETAIL_BEGIN_HIDDEN  // see config.hpp: nothing of the SDK is exported

namespace rknnop {
namespace detail {

// How the Python class reads a scalar param: the converter and, for integers, the value range (the
// one table's, vx_type_integer_range).
struct python_scalar {
  std::string_view convert;
  std::optional<vx_integer_range> range;  // nullopt: no range check
};

constexpr python_scalar python_scalar_of(vx_enum type) noexcept {
  if (type == VX_TYPE_BOOL) return {"bool", std::nullopt};
  std::optional<vx_integer_range> range = vx_type_integer_range(type);
  if (!range) return {"float", std::nullopt};  // FLOAT16, FLOAT32, FLOAT64
  // A CHAR is read as a signed or an unsigned byte: TensorFlow's attr may be either.
  if (type == VX_TYPE_CHAR) range->max = vx_type_integer_range(VX_TYPE_UINT8)->max;
  return {"int", range};
}

inline bool is_python_keyword(std::string_view name) noexcept {
  static constexpr std::array<std::string_view, 35> keywords{
      "False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
      "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
      "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
      "or",    "pass",     "raise", "return", "try",  "while",  "with",   "yield"};
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

inline constexpr std::string_view python_scalar_helper = R"py(

def _rknnop_scalar(op, node_def, consts, name, convert, low=None, high=None, default=None):
    """Scalar param `name`: the NodeDef's attr of that name, else its default (the C++ default member
    initializer), else the node's next constant input."""
    if name not in node_def.attr and default is not None:
        value = default
    elif name in node_def.attr:
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

def _rknnop_array(op, node_def, consts, name, exactly=None, at_most=None, default=None):
    """int32 array param `name`: the NodeDef's list attr of that name, else its default (the C++
    default member initializer), else the node's next constant input."""
    attr = node_def.attr[name] if name in node_def.attr else None
    if attr is None and default is not None:
        values = list(default)
    elif attr is not None and attr.WhichOneof('value') == 'list':
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

inline constexpr std::string_view python_enum_helper = R"py(

def _rknnop_enum(op, node_def, name, names, default=None):
    """Enum param `name`: the NodeDef's string attr of that name (or its default) mapped to the C++
    enum's value by the op's name table."""
    if name in node_def.attr:
        attr = node_def.attr[name]
        if attr.WhichOneof('value') != 's':
            raise ValueError("rknnop: %s: attr '%s' holds a '%s' value, expected a string, one of %s"
                             % (op, name, attr.WhichOneof('value'), ', '.join(names)))
        text = attr.s.decode('utf-8') if isinstance(attr.s, bytes) else str(attr.s)
    elif default is not None:
        text = default
    else:
        raise ValueError("rknnop: %s: the TensorFlow node has no attr '%s' (one of %s) and the param has no "
                         "default" % (op, name, ', '.join(names)))
    if text not in names:
        raise ValueError("rknnop: %s: attr '%s' = '%s' is not one of %s" % (op, name, text, ', '.join(names)))
    return names[text]
)py";

// A default as a Python literal.
inline std::string python_default(const field_desc& f, const param_extra& e) {
  if (f.kind == field_kind::array) {
    std::string out = "[";
    for (std::size_t k = 0; k < e.items_default_count; ++k)
      fmt::format_to(std::back_inserter(out), "{}{}", k ? ", " : "", e.items_default[k]);
    return out + "]";
  }
  if (f.vx_type == VX_TYPE_BOOL) return e.int_default != 0 ? "True" : "False";
  const std::string text = default_text(f, e);
  if (vx_type_is_floating(f.vx_type))
    return text.find_first_of(".en") == std::string::npos ? text + ".0" : text;  // "1" -> "1.0"
  return text;
}

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
  bool any_scalar = false, any_array = false, any_enum = false;
  const auto extra = [&](std::size_t i) -> param_extra {
    return i - first_param < op.param_extras.size() ? op.param_extras[i - first_param] : param_extra{};
  };
  for (std::size_t i = first_param; i < op.fields.size(); ++i) {
    const bool is_enum = extra(i).enumerator_count != 0;
    any_enum = any_enum || is_enum;
    any_scalar = any_scalar || (op.fields[i].kind == field_kind::scalar && !is_enum);
    any_array = any_array || op.fields[i].kind == field_kind::array;
  }

  fmt::format_to(it,
                 "# {}: the RKNN-Toolkit v1 Python class of the custom op {}.\n"
                 "# Generated by rknnop from the C++ op struct {}; change the struct, not this file.\n"
                 "# {} {:016x}\n"
                 "import numpy as np\n"
                 "import tensorflow as tf\n"
                 "\n"
                 "from rknn.api import RKNNCustomOP, IoMap, Shape\n",
                 python_file_name(op.name), op.name, op.name, schema_marker, op.fingerprint);
  if (any_scalar || any_array) out += detail::python_const_helper;
  if (any_scalar) out += detail::python_scalar_helper;
  if (any_array) out += detail::python_array_helper;
  if (any_enum) out += detail::python_enum_helper;
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
      "        there is none, from its default (the C++ default member initializer) if it has one, else\n"
      "        from the node's next constant input (in tensor_data_map's order).\"\"\"\n";
  if (any_scalar || any_array) out += "        consts = iter(list(tensor_data_map.values()))\n";
  out += "        p = dict()\n";
  for (std::size_t i = first_param; i < op.fields.size(); ++i) {
    const field_desc& f = op.fields[i];
    const param_extra e = extra(i);
    const std::string default_arg =
        e.has_default
            ? fmt::format(", default={}", e.enumerator_count != 0 ? fmt::format("'{}'", detail::default_text(f, e))
                                                                  : detail::python_default(f, e))
            : std::string();
    if (e.enumerator_count != 0) {
      fmt::format_to(it, "        p['{}'] = _rknnop_enum(self.op, node_def, '{}', {{", f.name, f.name);
      for (std::size_t k = 0; k < e.enumerator_count; ++k)
        fmt::format_to(it, "{}'{}': {}", k ? ", " : "", e.enumerators[k].name, e.enumerators[k].value);
      fmt::format_to(it, "}}{})  # enum, VX_TYPE_INT32\n", default_arg);
    } else if (f.kind == field_kind::array) {
      fmt::format_to(it, "        p['{}'] = _rknnop_array(self.op, node_def, consts, '{}', {}={}{})\n", f.name, f.name,
                     f.exact ? "exactly" : "at_most", f.capacity, default_arg);
    } else {
      const detail::python_scalar s = detail::python_scalar_of(f.vx_type);
      fmt::format_to(it, "        p['{}'] = _rknnop_scalar(self.op, node_def, consts, '{}', {}", f.name, f.name,
                     s.convert);
      if (s.range) fmt::format_to(it, ", {}, {}", s.range->min, s.range->max);
      fmt::format_to(it, "{})  # {}\n", default_arg, detail::vx_type_name(f.vx_type));
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
      const field_desc& f = op.fields[i];
      if (f.kind == field_kind::array)
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
    fmt::format_to(
        it,
        "        raise NotImplementedError(\n"
        "            \"rknnop: {}: no Python computation of the outputs; add `static constexpr \"\n"
        "            \"std::string_view python_compute = \\\"...\\\";` (a Python expression over inputs_tensor, \"\n"
        "            \"params and tf giving the list of output tensors) to the op struct, or pass \"\n"
        "            \"PYTHON file.py to rknnop_add_op\")\n",
        op.name);
  }
  return out;
}

template <class Op>
std::string emit_python() {
  return emit_python(schema_of<Op>());
}

}  // namespace rknnop

RKNNOP_DETAIL_END_HIDDEN

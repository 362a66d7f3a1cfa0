// SPDX-License-Identifier: MIT
#pragma once

// Layer 4 of emit/ (docs/architecture.md §1): the RKNN-Toolkit2 Python op class
// (rknn_op_<lower>_toolkit2.py, docs/rknpu2-toolkit2.md). Its shape_infer and compute call the op's own
// C++ through the C entries of the RKNPU2 plugin (librkcst_<lower>.so) with ctypes, so the Python
// holds no second implementation of the op; only the param table and the ONNX snippet are per op.

#include <rknnop/detail/field_desc.hpp>
#include <rknnop/detail/schema.hpp>
#include <rknnop/detail/vx_api.hpp>
#include <rknnop/emit/op_yml.hpp>  // default_text
#include <rknnop/emit/options.hpp>
#include <rknnop/emit/python.hpp>  // python_default, is_python_keyword
#include <rknnop/schema_marker.hpp>

#include <cstddef>      // std::size_t
#include <iterator>     // std::back_inserter
#include <string>       // generated text
#include <string_view>  // names

RKNNOP_DETAIL_BEGIN_HIDDEN  // see config.hpp: nothing of the SDK is exported

namespace rknnop {
/// The generated toolkit2 class's file: rknn_op_<lower>_toolkit2.py (rknnop_add_op writes it to <out>/rknpu2/).
inline std::string toolkit2_python_file_name(std::string_view name) {
  return fmt::format("rknn_op_{}_toolkit2.py", lower_name(name));
}
/// The RKNPU2 plugin the class loads: <arch>/librkcst_<lower>.so beside the .py.
inline std::string toolkit2_plugin_file_name(std::string_view name) {
  return fmt::format("librkcst_{}.so", lower_name(name));
}

namespace detail {
// Everything of the generated module that does not depend on the op: the C structs of rknn_api.h and
// rknn_custom_op.h as ctypes declarations, the plugin loader, and the calls of the two C entries.
inline constexpr std::string_view toolkit2_common = R"py(
import ctypes
import os
import platform
import sys

import numpy as np

# rknn_tensor_type values (rknn_api.h) and the NumPy dtypes they stand for.
_NUMPY_OF_RKNN_TYPE = {0: np.float32, 1: np.float16, 2: np.int8, 3: np.uint8, 4: np.int16, 5: np.uint16,
                       6: np.int32, 7: np.uint32, 8: np.int64}
_RKNN_TYPE_OF_NUMPY = dict((np.dtype(t), k) for k, t in _NUMPY_OF_RKNN_TYPE.items())
_RKNN_TENSOR_NCHW = 0
_RKNN_MAX_DIMS = 16
_RKNN_MAX_NAME_LEN = 256
_ERROR_SIZE = 1024
# platform.machine() -> the plugin's folder beside this file (rknnop_add_op builds all three).
_PLUGIN_FOLDERS = {'x86_64': 'x86_64', 'amd64': 'x86_64', 'aarch64': 'aarch64', 'arm64': 'aarch64',
                   'armv7l': 'armhf', 'armv8l': 'armhf'}


class _TensorAttr(ctypes.Structure):  # rknn_tensor_attr
    _fields_ = [('index', ctypes.c_uint32), ('n_dims', ctypes.c_uint32),
                ('dims', ctypes.c_uint32 * _RKNN_MAX_DIMS), ('name', ctypes.c_char * _RKNN_MAX_NAME_LEN),
                ('n_elems', ctypes.c_uint32), ('size', ctypes.c_uint32), ('fmt', ctypes.c_int),
                ('type', ctypes.c_int), ('qnt_type', ctypes.c_int), ('fl', ctypes.c_int8), ('zp', ctypes.c_int32),
                ('scale', ctypes.c_float), ('w_stride', ctypes.c_uint32), ('size_with_stride', ctypes.c_uint32),
                ('pass_through', ctypes.c_uint8), ('h_stride', ctypes.c_uint32)]


class _TensorMem(ctypes.Structure):  # rknn_tensor_mem
    _fields_ = [('virt_addr', ctypes.c_void_p), ('phys_addr', ctypes.c_uint64), ('fd', ctypes.c_int32),
                ('offset', ctypes.c_int32), ('size', ctypes.c_uint32), ('flags', ctypes.c_uint32),
                ('priv_data', ctypes.c_void_p)]


class _OpTensor(ctypes.Structure):  # rknn_custom_op_tensor
    _fields_ = [('attr', _TensorAttr), ('mem', _TensorMem)]


class _OpAttr(ctypes.Structure):  # rknn_custom_op_attr
    _fields_ = [('name', ctypes.c_char * _RKNN_MAX_NAME_LEN), ('dtype', ctypes.c_int), ('n_elems', ctypes.c_uint32),
                ('data', ctypes.c_void_p)]


class _OpHead(ctypes.Structure):  # the start of rknn_custom_op: enough to read op_type
    _fields_ = [('version', ctypes.c_uint32), ('target', ctypes.c_int), ('op_type', ctypes.c_char * _RKNN_MAX_NAME_LEN)]


_plugins = {}


def _one_line(text):
    return ' '.join(str(text).split())


def _plugin_path(op):
    path = os.environ.get('RKNNOP_TOOLKIT2_PLUGIN')
    if path:
        return path, 'RKNNOP_TOOLKIT2_PLUGIN'
    machine = platform.machine().lower()
    if machine not in _PLUGIN_FOLDERS:
        raise RuntimeError("rknnop: %s: no RKNPU2 plugin folder for this machine ('%s'); set "
                           "RKNNOP_TOOLKIT2_PLUGIN to the %s built for it" % (op, machine, _PLUGIN_FILE))
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.join(here, _PLUGIN_FOLDERS[machine], _PLUGIN_FILE), 'the default location'


def _plugin(op, op_type):
    """The plugin's two C entries, loaded once per path."""
    path, source = _plugin_path(op)
    if path in _plugins:
        return _plugins[path]
    if not os.path.isfile(path):
        raise RuntimeError("rknnop: %s: the RKNPU2 plugin %s (%s) does not exist; build the op with "
                           "rknnop_add_op or set RKNNOP_TOOLKIT2_PLUGIN to its %s" % (op, path, source, _PLUGIN_FILE))
    try:
        lib = ctypes.CDLL(os.path.abspath(path))
    except OSError as e:
        raise RuntimeError("rknnop: %s: cannot load the RKNPU2 plugin %s: %s" % (op, path, _one_line(e))) from None
    try:
        infer, compute, describe = lib.rknnop_rknpu2_infer, lib.rknnop_rknpu2_compute, lib.get_rknn_custom_op
    except AttributeError:
        raise RuntimeError("rknnop: %s: %s exports no rknnop_rknpu2_infer, rknnop_rknpu2_compute and "
                           "get_rknn_custom_op: it is not an rknnop RKNPU2 plugin" % (op, path)) from None
    describe.restype, describe.argtypes = ctypes.POINTER(_OpHead), []
    head = describe()
    found = head.contents.op_type.decode('utf-8', 'replace') if head else '(none)'
    if found != op_type:
        raise RuntimeError("rknnop: %s: %s is the plugin of op type '%s', not '%s'" % (op, path, found, op_type))
    infer.restype = compute.restype = ctypes.c_int
    infer.argtypes = [ctypes.POINTER(_OpAttr), ctypes.c_uint32, ctypes.POINTER(_TensorAttr), ctypes.c_uint32,
                      ctypes.POINTER(_TensorAttr), ctypes.c_uint32, ctypes.c_char_p, ctypes.c_uint32]
    compute.argtypes = [ctypes.POINTER(_OpAttr), ctypes.c_uint32, ctypes.POINTER(_OpTensor), ctypes.c_uint32,
                        ctypes.POINTER(_OpTensor), ctypes.c_uint32, ctypes.c_char_p, ctypes.c_uint32]
    _plugins[path] = (lib, infer, compute)
    return _plugins[path]


def _attr_values(op, name, value):
    """One node attribute as the runtime hands it to the plugin: ONNX's INT as INT64, FLOAT as
    FLOAT32, INTS and FLOATS as arrays of those."""
    try:
        if isinstance(value, (np.ndarray, np.generic, list, tuple)):
            values = np.asarray(value)
            if values.dtype == np.bool_:
                values = values.astype(np.int64)
            elif values.dtype == np.float64:
                values = values.astype(np.float32)
            elif values.size == 0:
                values = values.astype(np.int64)
        elif isinstance(value, (bool, int)):
            values = np.asarray(int(value), dtype=np.int64)
        elif isinstance(value, float):
            values = np.asarray(value, dtype=np.float32)
        else:
            values = None
    except OverflowError:
        raise ValueError("rknnop: %s: attribute '%s' = %s does not fit in int64" % (op, name, value)) from None
    if values is None or values.dtype not in _RKNN_TYPE_OF_NUMPY:
        raise ValueError("rknnop: %s: attribute '%s' holds %s %r; expected a number or a list of numbers"
                         % (op, name, type(value).__name__ if values is None else values.dtype, value))
    return np.ascontiguousarray(values.reshape(-1))


def _node_attr(op, node, name):
    """The node's attribute `name`, None when absent. A dict {name: value} (the command line below, or
    any caller without the toolkit) is read as it is; anything else is the toolkit's ONNX node, read
    with rknn.api.custom_op.get_node_attr, imported only here: the module loads without the wheel."""
    if isinstance(node, dict):
        return node.get(name)
    try:
        from rknn.api.custom_op import get_node_attr
    except ImportError as e:
        raise RuntimeError("rknnop: %s: reading an ONNX node's attributes needs rknn-toolkit2 "
                           "(rknn.api.custom_op: %s); without it pass the attributes as a dict {name: value}"
                           % (op, _one_line(e))) from None
    return get_node_attr(node, name)


def _attrs(op, params, node):
    """The node's attributes for the plugin (rknn_custom_op_attr). An absent attribute is left out, as
    the runtime leaves it out on the board: the plugin then takes the struct's default (the one in
    `params`; a double default such as 1e-300 has no exact FLOAT32 to send). A dict naming an attribute
    that is no param is refused. Returns the ctypes array, its length and the arrays it points into
    (to keep them alive)."""
    if isinstance(node, dict):
        known = [name for name, _ in params]
        for name in node:
            if name not in known:
                raise ValueError("rknnop: %s: unknown attribute '%s'; the op's attributes are %s"
                                 % (op, name, ', '.join(known) if known else '(none)'))
    values = []
    for name, default in params:
        value = _node_attr(op, node, name)
        if value is None:
            if default is None:
                raise ValueError("rknnop: %s: the node has no attribute '%s' and the op struct gives that param "
                                 "no default" % (op, name))
            continue
        values.append((name, _attr_values(op, name, value)))
    attrs = (_OpAttr * max(1, len(values)))()
    for attr, (name, array) in zip(attrs, values):
        attr.name = name.encode('utf-8')
        attr.dtype = _RKNN_TYPE_OF_NUMPY[array.dtype]
        attr.n_elems = array.size
        attr.data = array.ctypes.data if array.size else None
    return attrs, len(values), [array for _, array in values]


def _rknn_type(op, what, dtype):
    try:
        dtype = np.dtype(dtype)
    except TypeError:
        dtype = None
    if dtype not in _RKNN_TYPE_OF_NUMPY:
        raise ValueError("rknnop: %s: %s has dtype %s, which no rknn_tensor_type stands for" % (op, what, dtype))
    return _RKNN_TYPE_OF_NUMPY[dtype]


def _tensor_attr(op, what, index, name, shape, dtype):
    """rknn_tensor_attr of an ONNX (NCHW) tensor."""
    dims = [int(d) for d in shape]
    if len(dims) > _RKNN_MAX_DIMS or any(d <= 0 for d in dims):
        raise ValueError("rknnop: %s: %s has shape %s; the plugin takes 0..%d known, positive dims"
                         % (op, what, list(shape), _RKNN_MAX_DIMS))
    attr = _TensorAttr()
    attr.index, attr.n_dims = index, len(dims)
    for k, d in enumerate(dims):
        attr.dims[k] = d
    attr.name = name.encode('utf-8')
    attr.n_elems = int(np.prod(dims, dtype=np.int64))
    attr.type = _rknn_type(op, what, dtype)
    attr.size = attr.n_elems * np.dtype(_NUMPY_OF_RKNN_TYPE[attr.type]).itemsize
    attr.fmt = _RKNN_TENSOR_NCHW
    attr.size_with_stride = attr.size
    return attr


def _check(op, entry, status, error):
    if status != 0:
        text = _one_line(error.value.decode('utf-8', 'replace'))
        if not text:
            text = "rknnop: %s: %s failed (status %d) without a message" % (op, entry, status)
        elif not text.startswith('rknnop:'):
            text = "rknnop: %s: %s" % (op, text)
        raise RuntimeError(text)


def _infer(op, op_type, params, node, inputs, outputs, in_shapes, in_dtypes):
    """Output shapes and rknn_tensor_types from the op's own infer (rknnop_rknpu2_infer)."""
    if len(in_shapes) != len(inputs) or len(in_dtypes) != len(inputs):
        raise ValueError("rknnop: %s: the op takes %d inputs (%s), got %d shapes and %d dtypes"
                         % (op, len(inputs), ', '.join(inputs), len(in_shapes), len(in_dtypes)))
    _, infer, _ = _plugin(op, op_type)
    attrs, n_attrs, keep = _attrs(op, params, node)
    ins = (_TensorAttr * len(inputs))(*[_tensor_attr(op, "input %d '%s'" % (k, name), k, name, shape, dtype)
                                        for k, (name, shape, dtype) in enumerate(zip(inputs, in_shapes, in_dtypes))])
    outs = (_TensorAttr * len(outputs))()
    for k, name in enumerate(outputs):
        outs[k].index, outs[k].name, outs[k].fmt = k, name.encode('utf-8'), _RKNN_TENSOR_NCHW
    error = ctypes.create_string_buffer(_ERROR_SIZE)
    _check(op, 'rknnop_rknpu2_infer', infer(attrs, n_attrs, ins, len(inputs), outs, len(outputs), error, _ERROR_SIZE),
           error)
    del keep
    for k, out in enumerate(outs):
        if out.type not in _NUMPY_OF_RKNN_TYPE:
            raise RuntimeError("rknnop: %s: the plugin gave output %d '%s' the rknn_tensor_type %d, which has no "
                               "NumPy dtype" % (op, k, outputs[k], out.type))
    return [list(out.dims[:out.n_dims]) for out in outs], [np.dtype(_NUMPY_OF_RKNN_TYPE[out.type]) for out in outs]


def _shape_infer(op, op_type, params, node, inputs, outputs, in_shapes, in_dtypes):
    shapes, dtypes = _infer(op, op_type, params, node, inputs, outputs, list(in_shapes), list(in_dtypes))
    if len(in_dtypes) and isinstance(list(in_dtypes)[0], str):  # answer in the caller's kind of dtype
        dtypes = [d.name for d in dtypes]
    return shapes, dtypes


def _op_tensor(attr, array):
    tensor = _OpTensor()
    tensor.attr = attr
    tensor.mem.virt_addr = array.ctypes.data
    tensor.mem.offset = 0
    tensor.mem.size = array.nbytes
    return tensor


def _compute(op, op_type, params, node, inputs, outputs, values):
    """The outputs of the op's own cpu kernel (rknnop_rknpu2_compute) on NCHW arrays."""
    arrays = []
    for k, value in enumerate(values):
        array = np.asarray(value)
        if array.dtype == np.float64:  # NumPy's default: the plugin takes FLOAT32 (or FLOAT16)
            array = array.astype(np.float32)
        arrays.append(np.ascontiguousarray(array))
    if len(arrays) != len(inputs):
        raise ValueError("rknnop: %s: the op takes %d inputs (%s), got %d arrays"
                         % (op, len(inputs), ', '.join(inputs), len(arrays)))
    shapes, dtypes = _infer(op, op_type, params, node, inputs, outputs, [a.shape for a in arrays],
                            [a.dtype for a in arrays])
    results = [np.empty(shape, dtype=dtype) for shape, dtype in zip(shapes, dtypes)]
    _, _, compute = _plugin(op, op_type)
    attrs, n_attrs, keep = _attrs(op, params, node)
    ins = (_OpTensor * len(inputs))(*[_op_tensor(_tensor_attr(op, "input %d '%s'" % (k, name), k, name, a.shape,
                                                              a.dtype), a)
                                      for k, (name, a) in enumerate(zip(inputs, arrays))])
    outs = (_OpTensor * len(outputs))(*[_op_tensor(_tensor_attr(op, "output %d '%s'" % (k, name), k, name, r.shape,
                                                                r.dtype), r)
                                        for k, (name, r) in enumerate(zip(outputs, results))])
    error = ctypes.create_string_buffer(_ERROR_SIZE)
    _check(op, 'rknnop_rknpu2_compute',
           compute(attrs, n_attrs, ins, len(inputs), outs, len(outputs), error, _ERROR_SIZE), error)
    del keep, arrays
    return results


# --- the command line: the op on .npy files, on the PC, without rknn-toolkit2 ----------------------
_ATTR_TYPES = ('float', 'int64', 'floats', 'ints', 'string')


class _UsageError(Exception):
    pass


def _number(op, name, kind, text):
    text = text.strip()
    try:
        if kind in ('int64', 'ints'):
            return int(text, 0)
        if kind in ('float', 'floats'):
            return float(text)
        try:
            return int(text, 0)
        except ValueError:
            return float(text)
    except ValueError:
        raise _UsageError("attribute '%s': '%s' is not %s" % (
            name, text, 'an integer' if kind in ('int64', 'ints') else 'a number')) from None


def _parse_attr(op, text):
    """--attr NAME=VALUE or NAME=TYPE:VALUE, TYPE one of ONNX's float, int64, floats, ints, string;
    lists as [1,2] or 1,2 (float:[..] and int64:[..] are FLOATS and INTS). Untyped: an integer is INT,
    another number FLOAT, a list INTS or FLOATS."""
    name, sep, value = text.partition('=')
    name = name.strip()
    if not sep or not name:
        raise _UsageError("--attr '%s': expected NAME=VALUE or NAME=TYPE:VALUE (TYPE: %s)"
                          % (text, ', '.join(_ATTR_TYPES)))
    kind, colon, rest = value.partition(':')
    if colon and kind.strip() in _ATTR_TYPES:
        kind, value = kind.strip(), rest
    elif colon and kind.strip().isalpha() and kind.strip().lower() not in ('nan', 'inf', 'infinity'):
        raise _UsageError("attribute '%s': unknown type '%s' (expected %s)" % (name, kind, ', '.join(_ATTR_TYPES)))
    else:
        kind = None
    if kind == 'string':
        return name, value
    body = value.strip()
    bracketed = body.startswith('[') and body.endswith(']')
    if bracketed:
        body = body[1:-1]
    # float:[..] and int64:[..] are lists of that element type, as ONNX's FLOATS and INTS.
    is_list = kind in ('floats', 'ints') or bracketed or ',' in body
    if not is_list:
        return name, _number(op, name, kind, body)
    items = [t for t in body.split(',')]
    if not body.strip():
        raise _UsageError("attribute '%s': an empty list; leave the attribute out to take the op's default" % name)
    numbers = [_number(op, name, kind, t) for t in items]
    if kind == 'floats' or (kind is None and any(isinstance(n, float) for n in numbers)):
        numbers = [float(n) for n in numbers]
    return name, numbers


def _pairs(option, texts, names, what):
    """--input/--output NAME=FILE, each NAME one of `names` and given once."""
    pairs = {}
    for text in texts:
        name, sep, path = text.partition('=')
        if not sep or not name or not path:
            raise _UsageError("%s '%s': expected NAME=FILE.npy" % (option, text))
        if name not in names:
            raise _UsageError("%s '%s': the op has no %s '%s' (its %ss: %s)"
                              % (option, text, what, name, what, ', '.join(names)))
        if name in pairs:
            raise _UsageError("%s: %s '%s' given twice" % (option, what, name))
        pairs[name] = path
    return pairs


def _describe(cls):
    lines = ['%s: RKNPU2 op type \'%s\'' % (cls.__name__, cls.op_type),
             'inputs:  ' + ', '.join(cls.inputs) + '  (NCHW as the model holds them, float32 or float16)',
             'outputs: ' + ', '.join(cls.outputs), 'attributes:' if cls.params else 'attributes: (none)']
    for name, default in cls.params:
        lines.append('  %-16s %-28s %s' % (name, cls.param_kinds.get(name, ''),
                                           'required' if default is None else 'default %r' % (default,)))
    path, source = _plugin_path(cls.__name__)
    lines.append('plugin: %s (%s)' % (path, source))
    return '\n'.join(lines)


_USAGE = """usage: python3 %(file)s --input NAME=FILE.npy ... [--output NAME=FILE.npy ...]
                 [--attr NAME=[TYPE:]VALUE ...] [--plugin librkcst_X.so]
       python3 %(file)s --describe [--plugin librkcst_X.so]

Runs the op's own C++ (its RKNPU2 plugin) on .npy files, as the class's compute does inside
rknn-toolkit2, which is not needed here (NumPy is). Inputs are NCHW arrays as the ONNX model holds them
(float64 is taken as float32). Attributes as the ONNX node gives them: TYPE one of float, int64, floats,
ints, string (float:[..] and int64:[..] are lists); without TYPE an integer is INT, another number
FLOAT, a list ([1,2] or 1,2) INTS or FLOATS. An attribute left out takes the op struct's default. Without --output the outputs' shapes and
dtypes are printed. Errors: one line 'rknnop: <Op>: ...' and exit status 1 (2 for usage)."""


def _main(cls, argv):
    op = cls.__name__
    usage = _USAGE % {'file': os.path.basename(__file__)}
    options = {'--input': [], '--output': [], '--attr': []}
    plugin, describe, k = None, False, 0
    try:
        while k < len(argv):
            arg = argv[k]
            if arg in ('-h', '--help'):
                print(usage)
                return 0
            if arg == '--describe':
                describe, k = True, k + 1
                continue
            name, eq, value = arg.partition('=')
            short = {'-i': '--input', '-o': '--output', '-a': '--attr'}.get(name, name)
            if short in options or short == '--plugin':
                if not eq:
                    if k + 1 >= len(argv):
                        raise _UsageError('%s needs a value' % arg)
                    value, k = argv[k + 1], k + 2
                else:
                    k += 1
                if short == '--plugin':
                    plugin = value
                else:
                    options[short].append(value)
                continue
            raise _UsageError("unknown argument '%s' (--help lists the options)" % arg)
        if plugin:
            os.environ['RKNNOP_TOOLKIT2_PLUGIN'] = plugin
        if describe:
            print(_describe(cls))
            return 0
        inputs = _pairs('--input', options['--input'], cls.inputs, 'input')
        outputs = _pairs('--output', options['--output'], cls.outputs, 'output')
        missing = [name for name in cls.inputs if name not in inputs]
        if missing:
            raise _UsageError("input '%s' is not given (--input %s=FILE.npy); the op's inputs: %s"
                              % (missing[0], missing[0], ', '.join(cls.inputs)))
        attrs = {}
        for text in options['--attr']:
            name, value = _parse_attr(op, text)
            if name in attrs:
                raise _UsageError("attribute '%s' given twice" % name)
            attrs[name] = value
    except _UsageError as e:
        print('rknnop: %s: %s' % (op, e), file=sys.stderr)
        return 2
    try:
        arrays = []
        for name in cls.inputs:
            try:
                array = np.load(inputs[name], allow_pickle=False)
            except (OSError, ValueError, EOFError) as e:
                raise ValueError("rknnop: %s: input '%s': cannot read %s as a .npy file: %s"
                                 % (op, name, inputs[name], _one_line(e))) from None
            if not isinstance(array, np.ndarray):
                raise ValueError("rknnop: %s: input '%s': %s is not a .npy array (an .npz archive?)"
                                 % (op, name, inputs[name]))
            arrays.append(array)
        results = cls().compute(attrs, arrays)
        for name, result in zip(cls.outputs, results):
            if name in outputs:
                try:
                    np.save(outputs[name], result, allow_pickle=False)
                except OSError as e:
                    raise RuntimeError("rknnop: %s: output '%s': cannot write %s: %s"
                                       % (op, name, outputs[name], _one_line(e))) from None
                print('%s: %s %s -> %s' % (name, result.dtype, list(result.shape), outputs[name]))
            else:
                print('%s: %s %s' % (name, result.dtype, list(result.shape)))
    except (ValueError, RuntimeError) as e:
        print(_one_line(e), file=sys.stderr)
        return 1
    return 0
)py";

// A param's default as a Python literal, as the node attribute would carry it (bool and enum as ints).
inline std::string toolkit2_default(const field_desc& f, const param_extra& e) {
  if (e.enumerator_count != 0) return fmt::format("{}", e.int_default);
  if (f.vx_type == VX_TYPE_BOOL) return e.int_default != 0 ? "1" : "0";
  return python_default(f, e);
}

// A placeholder for a param without a default in the ONNX snippet.
inline std::string toolkit2_placeholder(const field_desc& f, const param_extra& e) {
  if (e.enumerator_count != 0) return fmt::format("{}", e.enumerators[0].value);
  if (f.kind == field_kind::array) {
    std::string out = "[";
    for (std::size_t k = 0; k < (f.exact ? f.capacity : 1); ++k) out += k ? ", 1" : "1";
    return out + "]";
  }
  const std::string_view convert = python_scalar_of(f.vx_type).convert;
  return convert == "float" ? "1.0" : convert == "bool" ? "0" : "1";
}

// What the attribute holds, for the snippet's comment.
inline std::string toolkit2_attr_kind(const field_desc& f, const param_extra& e) {
  if (e.enumerator_count != 0) {
    std::string out = "int, enum:";
    for (std::size_t k = 0; k < e.enumerator_count; ++k)
      fmt::format_to(std::back_inserter(out), "{} {} = {}", k ? "," : "", e.enumerators[k].value,
                     e.enumerators[k].name);
    return out;
  }
  if (f.kind == field_kind::array) return fmt::format("ints, {} {}", f.exact ? "exactly" : "at most", f.capacity);
  const std::string_view convert = python_scalar_of(f.vx_type).convert;
  return convert == "bool" ? "int, 0 or 1" : std::string(convert);
}
}  // namespace detail

/// rknn_op_<lower>_toolkit2.py: the RKNN-Toolkit2 custom-op class of the op. Deterministic text.
inline std::string emit_toolkit2_python(const op_schema& op) {
  std::string out;
  auto it = std::back_inserter(out);
  const std::size_t first_param = op.input_count + op.output_count;
  const auto extra = [&](std::size_t i) -> param_extra {
    return i - first_param < op.param_extras.size() ? op.param_extras[i - first_param] : param_extra{};
  };
  const auto names = [&](std::size_t begin, std::size_t count) {
    std::string list;
    for (std::size_t i = begin; i < begin + count; ++i)
      fmt::format_to(std::back_inserter(list), "{}'{}'", i != begin ? ", " : "", op.fields[i].name);
    return list;
  };
  const std::string file = toolkit2_python_file_name(op.name);
  const std::string plugin = toolkit2_plugin_file_name(op.name);

  fmt::format_to(it,
                 "# {}: the RKNN-Toolkit2 Python class of the custom op {} (RKNPU2 op type '{}').\n"
                 "# Generated by rknnop from the C++ op struct {}; change the struct, not this file.\n"
                 "# {} {:016x}\n",
                 file, op.name, op.rknpu2_type, op.name, schema_marker, op.fingerprint);
  fmt::format_to(it,
                 "\"\"\"RKNN-Toolkit2 custom op {0} (op type '{1}'), computed by the op's own C++.\n"
                 "\n"
                 "Register the class before loading the ONNX model:\n"
                 "\n"
                 "    from rknn.api import RKNN\n"
                 "    from {2} import {0}\n"
                 "\n"
                 "    rknn = RKNN()\n"
                 "    rknn.config(target_platform='rk3588')\n"
                 "    rknn.reg_custom_op({0}())\n"
                 "    rknn.load_onnx(model='model.onnx')\n"
                 "\n"
                 "The op in an ONNX model: a node of type '{1}' with the op struct's tensors and params\n"
                 "(NCHW tensors, float32 or float16):\n"
                 "\n"
                 "    import onnx.helper\n"
                 "    node = onnx.helper.make_node(\n"
                 "        '{1}',\n"
                 "        inputs=[{3}],\n"
                 "        outputs=[{4}],\n",
                 op.name, op.rknpu2_type, file.substr(0, file.size() - 3), names(0, op.input_count),
                 names(op.input_count, op.output_count));
  for (std::size_t i = first_param; i < op.fields.size(); ++i) {
    const field_desc& f = op.fields[i];
    const param_extra e = extra(i);
    const std::string value = e.has_default ? detail::toolkit2_default(f, e) : detail::toolkit2_placeholder(f, e);
    const std::string comment = fmt::format("{}{}", detail::toolkit2_attr_kind(f, e),
                                            e.has_default ? "; the default" : "; required (no default): set it");
    if (detail::is_python_keyword(f.name))
      fmt::format_to(it, "        **{{'{}': {}}},  # {}\n", f.name, value, comment);
    else
      fmt::format_to(it, "        {}={},  # {}\n", f.name, value, comment);
  }
  fmt::format_to(it,
                 "    )\n"
                 "\n"
                 "shape_infer and compute call the op's infer and cpu kernel in the RKNPU2 plugin {0}:\n"
                 "<folder of this file>/<x86_64|aarch64|armhf>/{0} by the machine, or the file the\n"
                 "environment variable RKNNOP_TOOLKIT2_PLUGIN names. Errors are one line starting with\n"
                 "'rknnop: {1}:' (ValueError for the node's attributes or tensors, RuntimeError from the plugin).\n"
                 "rknn-toolkit2 is imported only to read an ONNX node's attributes: `node` may also be a dict\n"
                 "{{name: value}}. On the PC, without the toolkit (NumPy only), on .npy files:\n"
                 "\n"
                 "    python3 {2} --describe\n"
                 "    python3 {2} --input {3}=x.npy --output {4}=y.npy [--attr NAME=[TYPE:]VALUE ...]\n"
                 "\"\"\"\n",
                 plugin, op.name, file, op.input_count ? op.fields[0].name : "x",
                 op.output_count ? op.fields[op.input_count].name : "y");
  out += detail::toolkit2_common;
  fmt::format_to(it, "\n\n_PLUGIN_FILE = '{}'\n", plugin);

  fmt::format_to(it,
                 "\n\nclass {0}:\n"
                 "    op_type = '{1}'\n"
                 "    inputs = ({2}{3})\n"
                 "    outputs = ({4}{5})\n"
                 "    # The op struct's params: (attribute name, default or None when the node must give it).\n"
                 "    params = (\n",
                 op.name, op.rknpu2_type, names(0, op.input_count), op.input_count == 1 ? "," : "",
                 names(op.input_count, op.output_count), op.output_count == 1 ? "," : "");
  for (std::size_t i = first_param; i < op.fields.size(); ++i) {
    const field_desc& f = op.fields[i];
    const param_extra e = extra(i);
    fmt::format_to(it, "        ('{}', {}),  # {}\n", f.name, e.has_default ? detail::toolkit2_default(f, e) : "None",
                   detail::toolkit2_attr_kind(f, e));
  }
  fmt::format_to(it,
                 "    )\n"
                 "    # What each attribute holds (ONNX's INT, FLOAT, INTS or FLOATS), for --describe.\n"
                 "    param_kinds = {{");
  for (std::size_t i = first_param; i < op.fields.size(); ++i)
    fmt::format_to(it, "{}'{}': '{}'", i != first_param ? ", " : "", op.fields[i].name,
                   detail::toolkit2_attr_kind(op.fields[i], extra(i)));
  fmt::format_to(it,
                 "}}\n"
                 "\n"
                 "    def shape_infer(self, node, in_shapes, in_dtypes):\n"
                 "        return _shape_infer('{0}', self.op_type, self.params, node, self.inputs, self.outputs, "
                 "in_shapes,\n"
                 "                            in_dtypes)\n"
                 "\n"
                 "    def compute(self, node, inputs):\n"
                 "        return _compute('{0}', self.op_type, self.params, node, self.inputs, self.outputs, inputs)\n"
                 "\n"
                 "\n"
                 "if __name__ == '__main__':\n"
                 "    sys.exit(_main({0}, sys.argv[1:]))\n",
                 op.name);
  return out;
}

template <class Op>
std::string emit_toolkit2_python() {
  return emit_toolkit2_python(schema_of<Op>());
}

}  // namespace rknnop

RKNNOP_DETAIL_END_HIDDEN

# SPDX-License-Identifier: MIT
"""Checks the Python op classes rknnop generated into DIR (by emit_python_samples).

Every rknn_op_*.py must compile. The classes are then run against small stand-ins for the
toolkit's rknn.api, TensorFlow and NumPy (a build machine has none of them), exercising the param
readers, the length and range checks, the shape function and the compute function. With PyYAML
present, the op.yml files are also read the way the toolkit reads them (YAML 1.1).
Usage: check_python.py DIR
"""
import glob
import os
import sys
import types


# --- stand-ins -----------------------------------------------------------------------------------
class IoMap(object):
    def __init__(self, name, direction, description):
        self.name, self.direction, self.description = name, direction, description


class Shape(object):
    def __init__(self, shape=None):
        self.shape, self.fmt = shape, None

    def set_shape(self, shape, fmt):
        self.shape, self.fmt = list(shape), fmt

    def format(self, fmt):
        assert fmt == 'nhwc'
        return list(self.shape)


class RKNNCustomOP(object):
    pass


class FakeArray(object):
    def __init__(self, values):
        self.values = list(values) if isinstance(values, (list, tuple)) else [values]
        self.size = len(self.values)

    def reshape(self, *shape):
        assert shape == (-1,)
        return self

    def tolist(self):
        return list(self.values)

    def __getitem__(self, i):
        return FakeScalar(self.values[i])


class FakeScalar(object):
    def __init__(self, value):
        self.value = value

    def item(self):
        return self.value


def flatten(x):
    if isinstance(x, (list, tuple)):
        return [v for item in x for v in flatten(item)]
    return [x]


calls = []


def resize_area(images, size, align_corners=False, name=None):
    calls.append(('resize_area', images, size, align_corners))
    return ('resized', images, tuple(size), align_corners)


def install_stand_ins():
    rknn = types.ModuleType('rknn')
    api = types.ModuleType('rknn.api')
    api.RKNNCustomOP, api.IoMap, api.Shape = RKNNCustomOP, IoMap, Shape
    rknn.api = api
    tf = types.ModuleType('tensorflow')
    tf.image = types.SimpleNamespace(resize_area=resize_area)
    tf.float32 = 'float32'
    tf.cast = lambda x, dtype: x
    np = types.ModuleType('numpy')
    np.asarray = lambda x: FakeArray(flatten(x))
    sys.modules.update({'rknn': rknn, 'rknn.api': api, 'tensorflow': tf, 'numpy': np})


class Attr(object):
    """tf.AttrValue: one field of the `value` oneof is set."""
    def __init__(self, **field):
        (self.kind, value), = field.items()
        if self.kind == 'list':
            self.list = types.SimpleNamespace(i=list(value))
        else:
            setattr(self, self.kind, value)

    def WhichOneof(self, oneof):
        assert oneof == 'value'
        return self.kind


class NodeDef(object):
    def __init__(self, **attrs):
        self.attr = attrs


def load(directory, file_name):
    path = os.path.join(directory, file_name)
    module = types.ModuleType(file_name[:-3])
    with open(path) as f:
        exec(compile(f.read(), path, 'exec'), module.__dict__)
    return module


def expect_error(kind, fragment, f, *args):
    try:
        f(*args)
    except kind as e:
        assert fragment in str(e), 'expected %r in %r' % (fragment, str(e))
        return
    raise AssertionError('no %s containing %r' % (kind.__name__, fragment))


# --- the checks -----------------------------------------------------------------------------------
def check_resize_area(m):
    op = m.ResizeArea()
    assert op.op == 'ResizeArea' and isinstance(op, RKNNCustomOP)
    assert [(p.name, p.direction) for p in op.def_input] == [('in0', 'in')]
    assert [(p.name, p.direction) for p in op.def_output] == [('out0', 'out')]
    node = NodeDef(align_corners=Attr(b=True), T=Attr(type=1))
    params = op.load_params_from_tf(node, {'C:out0': [64, 48]})
    assert params == {'size': [64, 48], 'align_corners': True}, params
    assert type(params['align_corners']) is bool
    expect_error(ValueError, "'size' needs exactly 2 int32 values, got 3", op.load_params_from_tf, node,
                 {'C:out0': [1, 2, 3]})
    expect_error(ValueError, "'size' is neither an attr", op.load_params_from_tf, node, {})
    expect_error(ValueError, "does not fit in int32", op.load_params_from_tf, node, {'C:out0': [1, 2 ** 31]})
    expect_error(ValueError, "attr 'align_corners' holds a 'f' value", op.load_params_from_tf,
                 NodeDef(align_corners=Attr(f=1.0)), {'C:out0': [1, 2]})
    # Output shapes from python_output_shape; params as the toolkit may hand them back (JSON numbers).
    shapes = op.compute_output_shape([Shape([1, 32, 30, 3])], {'size': [64, 48], 'align_corners': 0})
    assert [(s.shape, s.fmt) for s in shapes] == [([1, 64, 48, 3], 'nhwc')], [s.shape for s in shapes]
    out = op.compute_output_tensor({}, ['image'], {'size': [64, 48], 'align_corners': 0})
    assert out == [('resized', 'image', (64, 48), False)], out
    assert type(calls[-1][3]) is bool


def check_all_types(m):
    op = m.AllTypes()
    attrs = dict(flag=Attr(b=False), letter=Attr(i=65), i8=Attr(i=-5), u8=Attr(i=255), i16=Attr(i=-300),
                 u16=Attr(i=60000), i32=Attr(i=-70000), u32=Attr(i=4000000000), i64=Attr(i=-2 ** 40),
                 u64=Attr(i=2 ** 63), half=Attr(f=0.5), single=Attr(i=2), twice=Attr(f=0.25),
                 upto4=Attr(list=[1, 2, 3]))
    params = op.load_params_from_tf(NodeDef(**attrs), {'c': [[7], [8], [9]]})
    assert params['exact3'] == [7, 8, 9] and params['upto4'] == [1, 2, 3], params
    assert params['single'] == 2.0 and type(params['single']) is float
    assert params['u64'] == 2 ** 63 and params['flag'] is False and params['letter'] == 65
    assert list(params) == ['flag', 'letter', 'i8', 'u8', 'i16', 'u16', 'i32', 'u32', 'i64', 'u64', 'half',
                            'single', 'twice', 'exact3', 'upto4'], list(params)
    too_big = dict(attrs, i8=Attr(i=200))
    expect_error(ValueError, "'i8' = 200 is outside [-128, 127]", op.load_params_from_tf, NodeDef(**too_big),
                 {'c': [7, 8, 9]})
    too_long = dict(attrs, upto4=Attr(list=[1, 2, 3, 4, 5]))
    expect_error(ValueError, "'upto4' holds at most 4 int32 values, got 5", op.load_params_from_tf,
                 NodeDef(**too_long), {'c': [7, 8, 9]})
    # A scalar missing from the attrs is read from the next constant input.
    from_const = dict(attrs)
    del from_const['twice']
    params = op.load_params_from_tf(NodeDef(**from_const), {'t': 1.5, 'c': [7, 8, 9]})
    assert params['twice'] == 1.5 and params['exact3'] == [7, 8, 9], params
    # Without python_output_shape / python_compute.
    shapes = op.compute_output_shape([Shape([2, 5, 6, 7])], params)
    assert [s.shape for s in shapes] == [[2, 5, 6, 7]]
    expect_error(NotImplementedError, 'python_compute', op.compute_output_tensor, {}, ['x'], params)


def check_two_by_two(m):
    op = m.TwoByTwo()
    assert [p.name for p in op.def_input] == ['in0', 'in1']
    assert [p.name for p in op.def_output] == ['out0', 'out1']
    assert op.load_params_from_tf(NodeDef(), {}) == {}
    shapes = op.compute_output_shape([Shape([1, 2, 3, 4]), Shape([1, 2, 3, 1])], {})
    assert [s.shape for s in shapes] == [[1, 2, 3, 4], [1, 2, 3, 4]]
    assert op.compute_output_tensor({}, [2.0, 3], {}) == [6.0, 2.0]


def check_defaults(m):
    op = m.Defaults()
    required = dict(required=Attr(f=0.5), half_required=Attr(f=2.0), mode_required=Attr(s=b'REFLECT'))
    consts = {'s': [3, 4], 'p': [9]}
    params = op.load_params_from_tf(NodeDef(**required), consts)
    assert params == {'alpha': 0.2, 'required': 0.5, 'flag': True, 'count': -3, 'small': 200, 'half': 1.5,
                      'half_required': 2.0, 'twice': 1e-300, 'size': [64, 48], 'size_required': [3, 4],
                      'pads': [1, 2], 'pads_empty': [], 'pads_required': [9], 'mode': 1, 'mode_required': 0,
                      'which': 7}, params
    assert type(params['alpha']) is float and type(params['flag']) is bool
    # An attr the node has wins over the default; TensorFlow's string attr maps to the enum's value.
    given = dict(required, alpha=Attr(f=0.1), mode=Attr(s=b'REFLECT'), which=Attr(s=b'FIRST'),
                 size=Attr(list=[1, 2]))
    params = op.load_params_from_tf(NodeDef(**given), consts)
    assert params['alpha'] == 0.1 and params['mode'] == 0 and params['which'] == 3 and params['size'] == [1, 2]
    expect_error(ValueError, "attr 'mode' = 'EDGE' is not one of REFLECT, SYMMETRIC", op.load_params_from_tf,
                 NodeDef(**dict(required, mode=Attr(s=b'EDGE'))), consts)
    expect_error(ValueError, "attr 'mode' holds a 'i' value, expected a string, one of REFLECT, SYMMETRIC",
                 op.load_params_from_tf, NodeDef(**dict(required, mode=Attr(i=1))), consts)
    no_mode = dict(required)
    del no_mode['mode_required']
    expect_error(ValueError, "no attr 'mode_required' (one of REFLECT, SYMMETRIC) and the param has no default",
                 op.load_params_from_tf, NodeDef(**no_mode), consts)
    # Without a default, a missing scalar still comes from the next constant input.
    no_required = dict(required)
    del no_required['required']
    params = op.load_params_from_tf(NodeDef(**no_required), {'r': 4.0, 's': [3, 4], 'p': [9]})
    assert params['required'] == 4.0 and params['size_required'] == [3, 4], params


def check_yaml(directory):
    try:
        import yaml
    except ImportError:
        print('PyYAML not installed: op.yml files not read')
        return
    keys = ['name', 'framework', 'target_platform', 'inputs', 'outputs', 'params', 'op_version', 'out_binary',
            'op_py_file', 'vx_file', 'kernel_index']
    for path in sorted(glob.glob(os.path.join(directory, '*.yml'))):
        with open(path) as f:
            doc = yaml.safe_load(f)
        assert list(doc) == keys, (path, list(doc))
        assert all(isinstance(k, str) for k in doc['params']), (path, list(doc['params']))
    with open(os.path.join(directory, 'reserved.yml')) as f:
        assert list(yaml.safe_load(f)['params']) == ['on', 'no', 'Null', 'yes_please']
    with open(os.path.join(directory, 'twobytwo.yml')) as f:
        doc = yaml.safe_load(f)
    assert doc['params'] == {} and doc['kernel_index'] == 1 and doc['target_platform'] == 'RV1126', doc


def main(directory):
    files = sorted(os.path.basename(p) for p in glob.glob(os.path.join(directory, 'rknn_op_*.py')))
    assert files == ['rknn_op_alltypes.py', 'rknn_op_defaults.py', 'rknn_op_reserved.py', 'rknn_op_resizearea.py',
                     'rknn_op_twobytwo.py'], files
    install_stand_ins()
    modules = dict((f, load(directory, f)) for f in files)
    check_resize_area(modules['rknn_op_resizearea.py'])
    check_all_types(modules['rknn_op_alltypes.py'])
    check_two_by_two(modules['rknn_op_twobytwo.py'])
    check_defaults(modules['rknn_op_defaults.py'])
    check_yaml(directory)
    print('generated Python and op.yml: OK (%d files)' % len(files))


if __name__ == '__main__':
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])

# SPDX-License-Identifier: MIT
"""Checks one generated RKNN-Toolkit2 class (rknn_op_<lower>_toolkit2.py) against an independent NumPy
reference of its op and against rknnop-run (the op's kernel library through the host OpenVX runtime).

The class runs under stand-ins for rknn.api.custom_op and onnx.helper (stand_in/, test-only): the
toolkit2 wheel is not available here. The references below are written from the ops' definitions
(TensorFlow / ONNX semantics), not from rknnop's code.

Usage: check_toolkit2.py --op NAME --py FILE --library LIB.so --op-yml op.yml --run rknnop-run --work DIR
Exit status 0: passed; 77: skipped (the reason is printed); anything else: failed.
"""
import argparse
import importlib.util
import os
import subprocess
import sys
import textwrap

HERE = os.path.dirname(os.path.abspath(__file__))
SKIP = 77

try:
    import numpy as np
except ImportError:
    print('SKIP: NumPy is not installed for %s; the toolkit2 class needs it' % sys.executable)
    sys.exit(SKIP)

sys.path.insert(0, os.path.join(HERE, 'stand_in'))
from rknn.api.custom_op import FakeNode  # noqa: E402  (the stand-in)
import onnx.helper  # noqa: E402  (the stand-in)

failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print('FAIL: ' + what)


# --- independent references (NCHW arrays, as an ONNX model holds them) ---------------------------
def leaky_relu(inputs, attrs):
    x = inputs[0]
    return [np.where(x >= 0, x, np.float32(attrs.get('alpha', 0.2)) * x)]


def exp(inputs, attrs):
    return [np.exp(inputs[0])]


def truncate_div(inputs, attrs):
    return [np.trunc(inputs[0] / inputs[1])]


def mirror_pad(inputs, attrs):
    pads = np.reshape(attrs['paddings'], (-1, 2))
    return [np.pad(inputs[0], pads, mode=['reflect', 'symmetric'][attrs.get('mode', 0)])]


def dual_residual(inputs, attrs):
    x, y = inputs
    alpha = np.float32(attrs['alpha'])
    return [x * alpha - y, y * alpha - x]


def area_weights(size_in, size_out, align_corners):
    """TensorFlow's ResizeArea along one axis: weights[o, i] of input cell i in output o, and the scale."""
    if align_corners and size_out > 1:
        scale = np.float32(size_in - 1) / np.float32(size_out - 1)
    else:
        scale = np.float32(size_in) / np.float32(size_out)
    weights = np.zeros((size_out, size_in), dtype=np.float64)
    for o in range(size_out):
        a, b = o * float(scale), (o + 1) * float(scale)
        for i in range(int(np.floor(a)), int(np.ceil(b))):
            overlap = min(b, i + 1.0) - max(a, float(i))  # the cell [i, i+1) against the window [a, b)
            weights[o, min(max(i, 0), size_in - 1)] += overlap
    return weights, float(scale)


def resize_area(inputs, attrs):
    nhwc = np.transpose(inputs[0], (0, 2, 3, 1)).astype(np.float64)
    (new_h, new_w), align = attrs['size'], bool(attrs.get('align_corners', 0))
    wh, sh = area_weights(nhwc.shape[1], new_h, align)
    ww, sw = area_weights(nhwc.shape[2], new_w, align)
    out = np.einsum('oh,nhwc,pw->nopc', wh, nhwc, ww) / (sh * sw)
    return [np.transpose(out, (0, 3, 1, 2)).astype(np.float32)]


rng = np.random.default_rng(20240607)


def uniform(shape, low, high):
    return rng.uniform(low, high, size=shape).astype(np.float32)


def away_from_zero(shape):
    return (uniform(shape, 0.25, 3.0) * rng.choice([-1.0, 1.0], size=shape)).astype(np.float32)


# Per op: the reference, the tolerance (None: exact), the cases (attrs, inputs), the error cases
# (attrs, inputs, the text the one-line error must contain), and the params for rknnop-run.
OPS = {
    'LeakyRelu': dict(
        reference=leaky_relu, tolerance=None,
        cases=[({}, [uniform((2, 3, 4, 5), -4, 4)]),
               ({'alpha': 0.01}, [uniform((1, 16, 7, 3), -100, 100)]),
               ({'alpha': 1.5}, [np.array([-1.0, -0.0, 0.0, 2.5, -3e-38], dtype=np.float32)])],
        errors=[({'alpha': [1.0, 2.0]}, [uniform((1, 2), -1, 1)], "'alpha'"),
                ({'alpha': b'0.1'}, [uniform((1, 2), -1, 1)], "attribute 'alpha' holds bytes")],
        run_params=lambda a: ['alpha=%r' % float(np.float32(a.get('alpha', 0.2)))]),
    'Exp': dict(
        reference=exp, tolerance=2.0 ** -22,  # relative: std::exp in float against NumPy's float32 exp
        cases=[({}, [uniform((1, 3, 8, 8), -10, 10)]), ({}, [uniform((4, 5), -80, 80)])],
        errors=[({}, [uniform((1, 2), -1, 1), uniform((1, 2), -1, 1)], 'takes 1 inputs')],
        run_params=lambda a: []),
    'TruncateDiv': dict(
        reference=truncate_div, tolerance=None,
        cases=[({}, [uniform((2, 3, 4, 5), -10, 10), away_from_zero((2, 3, 4, 5))]),
               ({}, [uniform((2, 3, 4, 5), -100, 100), away_from_zero((1, 3, 1, 5))])],
        errors=[({}, [uniform((2, 3), -1, 1), away_from_zero((4,))], 'Incompatible shapes')],
        run_params=lambda a: []),
    'MirrorPad': dict(
        reference=mirror_pad, tolerance=None,
        cases=[({'paddings': [0, 0, 0, 1, 2, 1, 3, 4]}, [uniform((1, 2, 4, 5), -1, 1)]),
               ({'paddings': [0, 0, 1, 0, 4, 4, 5, 5], 'mode': 1}, [uniform((1, 2, 4, 5), -1, 1)]),
               ({'paddings': [1, 2, 2, 1], 'mode': 0}, [uniform((3, 4), -1, 1)])],
        errors=[({'paddings': [0, 0, 1, 1], 'mode': 0.5}, [uniform((2, 3), -1, 1)], "'mode'"),
                ({'paddings': [0.5, 1.0, 1.0, 1.0]}, [uniform((2, 3), -1, 1)], "'paddings'"),
                ({}, [uniform((2, 3), -1, 1)], "no attribute 'paddings'")],
        run_params=lambda a: ['paddings=' + ','.join(str(v) for v in a['paddings']),
                              'mode=' + ['REFLECT', 'SYMMETRIC'][a.get('mode', 0)]]),
    'ResizeArea': dict(
        reference=resize_area, tolerance=2e-6,  # absolute, on values in [-1, 1]: float32 sums in the kernel
        nhwc_for_run=True,
        cases=[({'size': [3, 4], 'align_corners': 0}, [uniform((1, 3, 7, 9), -1, 1)]),
               ({'size': [10, 5], 'align_corners': 1}, [uniform((2, 2, 3, 7), -1, 1)]),
               ({'size': [5, 5], 'align_corners': 0}, [uniform((1, 4, 5, 5), -1, 1)])],
        errors=[({'size': [3, 4], 'align_corners': 2}, [uniform((1, 1, 2, 2), -1, 1)], "'align_corners'"),
                ({'size': [3], 'align_corners': 0}, [uniform((1, 1, 2, 2), -1, 1)], "'size'")],
        run_params=lambda a: ['size=%d,%d' % tuple(a['size']),
                              'align_corners=' + ('true' if a.get('align_corners') else 'false')]),
    'DualResidual': dict(
        reference=dual_residual, tolerance=None,
        cases=[({'alpha': 0.5}, [uniform((1, 3, 4, 4), -2, 2), uniform((1, 3, 4, 4), -2, 2)]),
               ({'alpha': -1.25}, [uniform((2, 8), -2, 2), uniform((2, 8), -2, 2)])],
        errors=[({'alpha': 'x'}, [uniform((1, 2), -1, 1), uniform((1, 2), -1, 1)], "attribute 'alpha' holds str")],
        run_params=lambda a: ['alpha=%r' % float(np.float32(a['alpha']))]),
}


def max_difference(got, want, relative=False):
    """The largest |got - want| (relative: divided by |want|)."""
    if got.shape != want.shape:
        return float('inf')
    if got.size == 0:
        return 0.0
    difference = np.abs(got.astype(np.float64) - want.astype(np.float64))
    if relative:
        difference = difference / np.maximum(np.abs(want.astype(np.float64)), np.finfo(np.float64).tiny)
    return float(np.max(difference))


def within(got, want, tolerance, relative):
    if got.shape != want.shape:
        return False
    if tolerance is None:
        return np.array_equal(got, want) and np.array_equal(np.signbit(got), np.signbit(want))
    scale = np.maximum(np.abs(want.astype(np.float64)), 1.0 if not relative else 0.0)
    return bool(np.all(np.abs(got.astype(np.float64) - want.astype(np.float64)) <= tolerance * scale))


def run_rknnop_run(args, op, spec, cls, attrs, inputs, case):
    """The outputs of the op's kernel library on the same inputs, through rknnop-run."""
    nhwc = spec.get('nhwc_for_run', False)
    command = [args.run, args.library, '--op-yml', args.op_yml, '--tensor-type', 'VX_TYPE_FLOAT32']
    for name, x in zip(cls.inputs, inputs):
        path = os.path.join(args.work, '%s_case%d_%s.npy' % (op, case, name))
        np.save(path, np.transpose(x, (0, 2, 3, 1)) if nhwc else x)
        command += ['--input', '%s=%s' % (name, path)]
    for p in spec['run_params'](attrs):
        command += ['--param', p]
    outputs = []
    for name in cls.outputs:
        path = os.path.join(args.work, '%s_case%d_%s_out.npy' % (op, case, name))
        if os.path.exists(path):
            os.remove(path)
        command += ['--output', '%s=%s' % (name, path)]
        outputs.append(path)
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    if result.returncode != 0:
        check(False, '%s case %d: rknnop-run failed: %s\n  %s' % (op, case, ' '.join(command), result.stdout))
        return None
    values = [np.load(p) for p in outputs]
    return [np.transpose(v, (0, 3, 1, 2)) for v in values] if nhwc else values


def expect_error(op, what, call, text):
    try:
        call()
    except (ValueError, RuntimeError) as e:
        message = str(e)
        one_line = '\n' not in message and message.startswith('rknnop: %s: ' % op)
        check(one_line and text in message, '%s: %s: want one line "rknnop: %s: ...%s...", got %s: %r'
              % (op, what, op, text, type(e).__name__, message))
        print('  %s -> %s: %s' % (what, type(e).__name__, message))
        return
    check(False, '%s: %s: no error' % (op, what))


def check_onnx_snippet(op, module, cls):
    """The docstring's make_node snippet runs and names the class's op type, tensors and params."""
    doc = module.__doc__
    start = doc.index('    import onnx.helper')
    end = doc.index('\n    )\n', start) + len('\n    )\n')
    scope = {}
    exec(textwrap.dedent(doc[start:end]), scope)
    node = scope['node']
    check(node.op_type == cls.op_type, '%s: snippet op type %r' % (op, node.op_type))
    check(node.input == list(cls.inputs) and node.output == list(cls.outputs),
          '%s: snippet tensors %r %r' % (op, node.input, node.output))
    check(sorted(node.attributes) == sorted(name for name, _ in cls.params),
          '%s: snippet attributes %r' % (op, sorted(node.attributes)))
    for name, default in cls.params:
        if default is not None:
            check(node.attributes[name] == default, '%s: snippet %s=%r, default %r'
                  % (op, name, node.attributes[name], default))


def main():
    parser = argparse.ArgumentParser()
    for option in ('--op', '--py', '--library', '--op-yml', '--run', '--work'):
        parser.add_argument(option, required=True)
    args = parser.parse_args()
    op, spec = args.op, OPS[args.op]
    os.makedirs(args.work, exist_ok=True)

    module_spec = importlib.util.spec_from_file_location('rknn_op_toolkit2_under_test', args.py)
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    cls = getattr(module, op)
    check_onnx_snippet(op, module, cls)

    # The references against rknnop-run first: they need no plugin.
    relative = op == 'Exp'
    runs, worst_run_reference = [], 0.0
    for case, (attrs, inputs) in enumerate(spec['cases']):
        want = [np.asarray(w, dtype=np.float32) for w in spec['reference'](inputs, attrs)]
        ran = run_rknnop_run(args, op, spec, cls, attrs, inputs, case)
        runs.append(ran)
        for k, (r, w) in enumerate(zip(ran or [], want)):
            worst_run_reference = max(worst_run_reference, max_difference(r, w, relative))
            check(within(r.astype(np.float32), w, spec['tolerance'], relative),
                  '%s case %d output %d: max |rknnop-run - reference| = %g (tolerance %s)'
                  % (op, case, k, max_difference(r, w), spec['tolerance'] or 'exact'))

    plugin = os.environ.get('RKNNOP_TOOLKIT2_PLUGIN') or os.path.join(
        os.path.dirname(os.path.abspath(args.py)), 'x86_64', module._PLUGIN_FILE)
    print('%s: %d cases, max %s|rknnop-run - reference| = %g' % (op, len(spec['cases']), 'relative ' * relative,
                                                                 worst_run_reference))
    if not os.path.isfile(plugin):  # rknnop_add_op builds it beside the class: its absence is a failure
        print('FAIL: %s: the RKNPU2 plugin %s is missing (rknnop_add_op builds it beside the class)' % (op, plugin))
        return 1

    saved = os.environ.get('RKNNOP_TOOLKIT2_PLUGIN')
    os.environ['RKNNOP_TOOLKIT2_PLUGIN'] = os.path.join(args.work, 'no_such_plugin.so')
    n_inputs = len(cls.inputs)
    expect_error(op, 'missing plugin',
                 lambda: cls().shape_infer(FakeNode(cls.op_type, {}), [[1, 2]] * n_inputs, ['float32'] * n_inputs),
                 'does not exist')
    if saved is None:
        del os.environ['RKNNOP_TOOLKIT2_PLUGIN']
    else:
        os.environ['RKNNOP_TOOLKIT2_PLUGIN'] = saved

    instance = cls()
    worst_reference, worst_run = 0.0, 0.0
    for case, (attrs, inputs) in enumerate(spec['cases']):
        node = FakeNode(cls.op_type, attrs)
        want = [np.asarray(w, dtype=np.float32) for w in spec['reference'](inputs, attrs)]
        shapes, dtypes = instance.shape_infer(node, [list(x.shape) for x in inputs], ['float32'] * len(inputs))
        check(shapes == [list(w.shape) for w in want], '%s case %d: shape_infer gave %s, reference %s'
              % (op, case, shapes, [list(w.shape) for w in want]))
        check(dtypes == ['float32'] * len(want), '%s case %d: shape_infer dtypes %s' % (op, case, dtypes))
        got = instance.compute(node, inputs)
        check(len(got) == len(want), '%s case %d: compute gave %d outputs' % (op, case, len(got)))
        for k, (g, w) in enumerate(zip(got, want)):
            d = max_difference(g, w, relative)
            worst_reference = max(worst_reference, d)
            check(g.dtype == np.float32, '%s case %d output %d: dtype %s' % (op, case, k, g.dtype))
            check(within(g, w, spec['tolerance'], relative), '%s case %d output %d: max |compute - reference| = %g '
                  '(tolerance %s)' % (op, case, k, d, spec['tolerance'] or 'exact'))
        ran = runs[case]
        if ran is not None:
            for k, (g, r) in enumerate(zip(got, ran)):
                d = max_difference(g, r.astype(np.float32))
                worst_run = max(worst_run, d)
                check(np.array_equal(g, r), '%s case %d output %d: compute and rknnop-run differ by %g'
                      % (op, case, k, d))
        print('%s case %d: attrs %s, inputs %s -> outputs %s' % (op, case, attrs, [list(x.shape) for x in inputs],
                                                                 shapes))
    for attrs, inputs, text in spec['errors']:
        node = FakeNode(cls.op_type, attrs)
        expect_error(op, 'attrs %s' % attrs, lambda: instance.compute(node, inputs), text)
    print('%s: %d cases, max %s|compute - reference| = %g (%s), max |compute - rknnop-run| = %g; %d error cases'
          % (op, len(spec['cases']), 'relative ' * relative, worst_reference,
             'exact required' if spec['tolerance'] is None else 'tolerance %g' % spec['tolerance'], worst_run,
             len(spec['errors'])))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())

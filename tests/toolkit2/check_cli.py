# SPDX-License-Identifier: MIT
"""The generated toolkit2 class without rknn-toolkit2: imported, and run as a program on .npy files
(`python3 rknn_op_<lower>_toolkit2.py --input ... --output ... --attr ...`), against independent NumPy
references written from the ops' definitions, with its one-line errors.

An `rknn` package that refuses to be imported is put first on PYTHONPATH: the module must neither
import it at load time nor when the attributes come as a dict (the command line's way), whether or not
a real rknn-toolkit2 is installed on this machine.

Usage: check_cli.py --op NAME --py FILE --library LIB.so --work DIR
Exit status 0: passed; 77: skipped (the reason is printed); anything else: failed.
"""
import argparse
import os
import shutil
import subprocess
import sys

SKIP = 77
try:
    import numpy as np
except ImportError:
    print('SKIP: NumPy is not installed for %s; the toolkit2 class needs it' % sys.executable)
    sys.exit(SKIP)

failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print('FAIL: ' + what)


rng = np.random.default_rng(48)


def uniform(shape, low, high, dtype=np.float32):
    return rng.uniform(low, high, size=shape).astype(dtype)


def leaky_relu(inputs, attrs):
    x = inputs[0].astype(np.float32)
    y = np.where(x >= 0, x, np.float32(attrs.get('alpha', 0.2)) * x)
    return [y.astype(inputs[0].dtype)]


def mirror_pad(inputs, attrs):
    pads = np.reshape(attrs['paddings'], (-1, 2))
    return [np.pad(inputs[0], pads, mode=['reflect', 'symmetric'][attrs.get('mode', 0)])]


def dual_residual(inputs, attrs):
    x, y = inputs
    alpha = np.float32(attrs['alpha'])
    return [x * alpha - y, y * alpha - x]


# Per op: runs (command-line attrs, the attrs as the reference reads them, inputs) and error cases
# (extra arguments, the exit status, the text the one line must hold).
OPS = {
    'LeakyRelu': dict(
        reference=leaky_relu, inputs=['features'], outputs=['activations'],
        describe=["LeakyRelu: RKNPU2 op type 'LeakyRelu'", 'inputs:  features', 'outputs: activations',
                  'alpha', 'float', 'default 0.2'],
        runs=[(['alpha=0.5'], {'alpha': 0.5}, [uniform((1, 3, 4, 5), -4, 4)]),
              (['alpha=float:0.01'], {'alpha': 0.01}, [uniform((2, 2, 3, 3), -100, 100)]),
              ([], {}, [uniform((1, 1, 2, 7), -4, 4)]),  # the struct's default, 0.2f
              (['alpha=0.25'], {'alpha': 0.25}, [uniform((1, 2, 3, 4), -8, 8, np.float16)])],
        errors=[(['--attr', 'beta=1'], 1, "rknnop: LeakyRelu: unknown attribute 'beta'; the op's attributes are alpha"),
                (['--attr', 'alpha=ints:[1,2]'], 1, "rknnop: LeakyRelu"),
                (['--attr', 'alpha=-0.5'], 1, 'alpha must be >= 0, got -0.5'),
                (['--attr', 'alpha=double:1'], 2, "rknnop: LeakyRelu: attribute 'alpha': unknown type 'double'"),
                (['--attr', 'alpha=int64:0.5'], 2, "rknnop: LeakyRelu: attribute 'alpha': '0.5' is not an integer"),
                (['--attr', 'alpha=[]'], 2, "attribute 'alpha': an empty list; leave the attribute out"),
                (['--attr', 'alpha'], 2, "rknnop: LeakyRelu: --attr 'alpha': expected NAME=VALUE"),
                (['--output', 'y=o.npy'], 2, "rknnop: LeakyRelu: --output 'y=o.npy': the op has no output 'y'"),
                (['--bogus'], 2, "rknnop: LeakyRelu: unknown argument '--bogus'")]),
    'MirrorPad': dict(
        reference=mirror_pad, inputs=['input'], outputs=['output'],
        describe=['paddings', 'required', 'mode', 'int, enum: 0 = REFLECT, 1 = SYMMETRIC', 'default 0'],
        runs=[(['paddings=[0,0,0,1,2,1,3,4]', 'mode=int64:1'], {'paddings': [0, 0, 0, 1, 2, 1, 3, 4], 'mode': 1},
               [uniform((1, 2, 4, 5), -1, 1)]),
              (['paddings=ints:1,2,2,1'], {'paddings': [1, 2, 2, 1]}, [uniform((3, 4), -1, 1)]),
              (['paddings=int64:[1,0,0,2]', 'mode=1'], {'paddings': [1, 0, 0, 2], 'mode': 1},
               [uniform((2, 3), -1, 1)])],
        errors=[([], 1, "rknnop: MirrorPad: the node has no attribute 'paddings' and the op struct gives that param no default"),
                (['--attr', 'paddings=[0,0,1,1]', '--attr', 'mode=0.5'], 1, "'mode'"),
                (['--attr', 'paddings=floats:[0.5,1,1,1]'], 1, "'paddings'"),
                (['--attr', 'paddings=int64:[0,0,1,x]'], 2, "attribute 'paddings': 'x' is not an integer"),
                (['--attr', 'paddings=[0,0,1,1]', '--attr', 'mode=string:SYMMETRIC'], 1,
                 "attribute 'mode' holds str 'SYMMETRIC'")]),
    'DualResidual': dict(
        reference=dual_residual, inputs=['x', 'y'], outputs=['out0', 'out1'],
        describe=["DualResidual: RKNPU2 op type 'cstDualResidual'", 'alpha'],
        runs=[(['alpha=0.5'], {'alpha': 0.5}, [uniform((1, 3, 4, 4), -2, 2), uniform((1, 3, 4, 4), -2, 2)]),
              (['alpha=-1.25'], {'alpha': -1.25}, [uniform((2, 8), -2, 2), uniform((2, 8), -2, 2)])],
        errors=[([], 1, "rknnop: DualResidual: the node has no attribute 'alpha' and the op struct gives")]),
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--op', required=True)
    parser.add_argument('--py', required=True)
    parser.add_argument('--library', required=True)
    parser.add_argument('--work', required=True)
    args = parser.parse_args()
    spec = OPS[args.op]
    if not os.path.isfile(args.library):
        print('SKIP: %s: the RKNPU2 plugin %s is not built' % (args.op, args.library))
        return SKIP
    work = os.path.join(args.work, 'cli-' + args.op)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, 'refusing', 'rknn'))
    with open(os.path.join(work, 'refusing', 'rknn', '__init__.py'), 'w') as f:
        f.write("raise ImportError('check_cli: rknn must not be imported here')\n")
    env = dict(os.environ, PYTHONPATH=os.path.join(work, 'refusing'), RKNNOP_TOOLKIT2_PLUGIN=args.library)

    def run(arguments):
        return subprocess.run([sys.executable, args.py] + arguments, cwd=work, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, universal_newlines=True, timeout=120)

    # Imported, and computing on a dict of attributes, with rknn refusing.
    probe = subprocess.run([sys.executable, '-c', (
        'import importlib.util, sys, numpy as np\n'
        'spec = importlib.util.spec_from_file_location("m", %r)\n'
        'm = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)\n'
        'assert "rknn" not in sys.modules and "rknn.api" not in sys.modules\n'
        'print("imported", m.%s.op_type)\n') % (args.py, args.op)], env=env, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, universal_newlines=True, timeout=120)
    check(probe.returncode == 0 and 'imported ' in probe.stdout, '%s: import without rknn: %s' % (args.op, probe.stdout))

    described = run(['--describe'])
    check(described.returncode == 0, '%s --describe: status %d: %s' % (args.op, described.returncode, described.stderr))
    for text in spec['describe']:
        check(text in described.stdout, '%s --describe lacks %r:\n%s' % (args.op, text, described.stdout))

    # The runs: outputs written to .npy, equal to the reference bit for bit.
    first_inputs = None
    for case, (attr_args, attrs, inputs) in enumerate(spec['runs']):
        command = []
        for name, array in zip(spec['inputs'], inputs):
            path = '%s-%d.npy' % (name, case)
            np.save(os.path.join(work, path), array)
            command += ['--input', '%s=%s' % (name, path)]
        for name in spec['outputs']:
            command += ['-o', '%s=out-%s-%d.npy' % (name, name, case)]
        for a in attr_args:
            command += ['--attr', a]
        result = run(command)
        if first_inputs is None:
            first_inputs = command[:2 * len(spec['inputs'])]
        check(result.returncode == 0 and not result.stderr,
              '%s run %d (%s): status %d: %s' % (args.op, case, ' '.join(command), result.returncode, result.stderr))
        if result.returncode != 0:
            continue
        for name, want in zip(spec['outputs'], spec['reference'](inputs, attrs)):
            got = np.load(os.path.join(work, 'out-%s-%d.npy' % (name, case)))
            check(got.dtype == want.dtype and got.shape == want.shape and np.array_equal(got, want)
                  and np.array_equal(np.signbit(got), np.signbit(want)),
                  '%s run %d output %s: %s %s differs from the reference %s %s (max |d| %s)'
                  % (args.op, case, name, got.dtype, got.shape, want.dtype, want.shape,
                     np.max(np.abs(got.astype(np.float64) - want.astype(np.float64))) if got.shape == want.shape
                     else 'n/a'))
            check('%s: %s %s -> out-%s-%d.npy' % (name, want.dtype, list(want.shape), name, case) in result.stdout,
                  '%s run %d: stdout %r' % (args.op, case, result.stdout))

    # One line each, starting "rknnop: <Op>", with the status.
    for extra, status, text in spec['errors']:
        result = run(first_inputs + extra)
        lines = result.stderr.strip().splitlines()
        check(result.returncode == status and len(lines) == 1 and lines[0].startswith('rknnop: ') and text in lines[0],
              '%s %s: status %d (expected %d), stderr %r (expected one line with %r)'
              % (args.op, ' '.join(extra), result.returncode, status, result.stderr, text))

    # Inputs: missing, and hostile files (not .npy; a pickled object array).
    missing = run([])
    check(missing.returncode == 2 and "rknnop: %s: input '%s' is not given" % (args.op, spec['inputs'][0])
          in missing.stderr, '%s without inputs: %d %r' % (args.op, missing.returncode, missing.stderr))
    with open(os.path.join(work, 'garbage.npy'), 'wb') as f:
        f.write(b'\x93NUMPY\x01\x00\xff\xff' + b'{' * 64)
    np.save(os.path.join(work, 'objects.npy'), np.array([{'a': 1}], dtype=object), allow_pickle=True)
    for bad in ('garbage.npy', 'objects.npy', 'absent.npy'):
        command = []
        for name in spec['inputs']:
            command += ['--input', '%s=%s' % (name, bad)]
        result = run(command + ['--attr', spec['runs'][0][0][0]])
        check(result.returncode == 1 and result.stderr.count('\n') == 1 and
              ("rknnop: %s: input '%s': cannot read %s as a .npy file" % (args.op, spec['inputs'][0], bad))
              in result.stderr, '%s with %s: %d %r' % (args.op, bad, result.returncode, result.stderr))

    if failures:
        print('%s: %d checks failed' % (args.op, len(failures)))
        return 1
    print('%s: the toolkit2 class without rknn-toolkit2: imported, --describe, %d runs equal to the reference, '
          '%d error lines' % (args.op, len(spec['runs']), len(spec['errors']) + 4))
    return 0


if __name__ == '__main__':
    sys.exit(main())

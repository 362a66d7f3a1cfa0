# SPDX-License-Identifier: MIT
"""rknnop-run on RKNPU2 plugins (tools/rknnop-run/rknpu2_mode.cpp), one case per ctest test:

  run_plugin.py CASE --run rknnop-run --work DIR [--leaky-relu SO] [--attr-mix SO] [--aarch64 SO] [--hostile SO]

Expected values are worked out here with NumPy from the ops' definitions (LeakyRelu: x >= 0 ? x : alpha * x;
AttrMix: scale * x + shift + sum(weights)), never by the plugin; expected messages are written out."""
import argparse
import os
import shutil
import subprocess
import sys

try:
    import numpy as np
except ImportError as e:
    print('skipped: NumPy is missing (%s)' % e)
    sys.exit(77)

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print('FAIL: ' + what)


# setpriv's arguments that run a command as nobody (uid and gid 65534, no supplementary groups).
AS_NOBODY = ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups']


def run(args, *argv, cwd=None, as_user=()):
    p = subprocess.run([*as_user, args.run, *argv], capture_output=True, text=True, cwd=cwd or args.work, timeout=60)
    return p.returncode, p.stdout, p.stderr


def save(args, name, array):
    path = os.path.join(args.work, name)
    np.save(path, array)
    return path


def out(args, name):
    return os.path.join(args.work, name)


def case_leaky_relu(args):
    x = np.random.default_rng(48).standard_normal((1, 3, 4, 5)).astype(np.float32)
    x.flat[0] = 0.0
    a = save(args, 'x.npy', x)
    rc, stdout, stderr = run(args, args.leaky_relu, '-i', 'features=' + a, '-o', 'activations=' + out(args, 'y.npy'),
                             '--attr', 'alpha=0.25')
    check(rc == 0, 'LeakyRelu FLOAT32: exit %d, %s' % (rc, stderr))
    y = np.load(out(args, 'y.npy'))
    expected = np.where(x >= 0, x, np.float32(0.25) * x)
    check(y.dtype == np.float32 and y.shape == x.shape, 'LeakyRelu FLOAT32: %s %s' % (y.dtype, y.shape))
    check(np.array_equal(y, expected), 'LeakyRelu FLOAT32: values differ from x >= 0 ? x : 0.25 x')
    check("output 'activations': shape (1, 3, 4, 5) FLOAT32" in stdout, 'LeakyRelu stdout: ' + stdout)
    # The default alpha (0.2) when the attribute is left out; inputs and outputs by position too.
    rc, _, stderr = run(args, args.leaky_relu, '-i', '0=' + a, '-o', '0=' + out(args, 'y.npy'))
    check(rc == 0 and np.array_equal(np.load(out(args, 'y.npy')), np.where(x >= 0, x, np.float32(0.2) * x)),
          'LeakyRelu default alpha: exit %d %s' % (rc, stderr))
    # FLOAT16 tensors: the input rounded to float16, the kernel in float, the output rounded to float16.
    rc, _, stderr = run(args, args.leaky_relu, '-i', 'features=' + a, '-o', 'activations=' + out(args, 'y16.npy'),
                        '--attr', 'alpha=float:0.5', '--tensor-type', 'FLOAT16')
    check(rc == 0, 'LeakyRelu FLOAT16: exit %d, %s' % (rc, stderr))
    y16 = np.load(out(args, 'y16.npy'))
    x16 = x.astype(np.float16).astype(np.float32)
    check(y16.dtype == np.float16 and np.array_equal(y16, np.where(x16 >= 0, x16, 0.5 * x16).astype(np.float16)),
          'LeakyRelu FLOAT16: %s values differ' % y16.dtype)


def case_attr_mix(args):
    x = (np.arange(2 * 3 * 2 * 2, dtype=np.float32).reshape(2, 3, 2, 2) - 7) / 4
    a = save(args, 'x.npy', x)
    # float, int64 and ints given: 1.5 x + (-3) + (4 + 5 + 6)
    rc, stdout, stderr = run(args, args.attr_mix, '-i', 'x=' + a, '-o', 'y=' + out(args, 'y.npy'), '--attr',
                             'scale=1.5', '--attr', 'shift=int64:-3', '--attr', 'weights=[4,5,6]')
    check(rc == 0, 'AttrMix: exit %d, %s' % (rc, stderr))
    check(np.array_equal(np.load(out(args, 'y.npy')), np.float32(1.5) * x + np.float32(-3 + 15)),
          'AttrMix all given: values differ')
    # Defaults: scale 0.5, weights [1, 2]; ints typed explicitly, one item.
    rc, _, stderr = run(args, args.attr_mix, '-i', 'x=' + a, '-o', 'y=' + out(args, 'y.npy'), '--attr', 'shift=7',
                        '--attr', 'weights=ints:10')
    check(rc == 0 and np.array_equal(np.load(out(args, 'y.npy')), np.float32(0.5) * x + np.float32(7 + 10)),
          'AttrMix one weight: exit %d %s' % (rc, stderr))
    rc, _, stderr = run(args, args.attr_mix, '-i', 'x=' + a, '-o', 'y=' + out(args, 'y.npy'), '--attr', 'shift=2')
    check(rc == 0 and np.array_equal(np.load(out(args, 'y.npy')), np.float32(0.5) * x + np.float32(2 + 3)),
          'AttrMix defaults: exit %d %s' % (rc, stderr))


def case_describe(args):
    rc, stdout, stderr = run(args, args.attr_mix, '--describe')
    check(rc == 0, 'describe: exit %d %s' % (rc, stderr))
    expected = ("op AttrMix (RKNPU2 op type 'AttrMix')\n"
                "input x: FLOAT32 or FLOAT16\n"
                "output y: FLOAT32 or FLOAT16\n"
                "attribute scale: float, default 0.5\n"
                "attribute shift: int64, required\n"
                "attribute weights: ints (at most 4 items), default [1, 2]\n")
    check(stdout == expected, 'describe printed:\n' + stdout)


def refused(args, plugin, expected, *argv, status=1):
    rc, stdout, stderr = run(args, plugin, *argv)
    check(rc == status, '%s: exit %d (expected %d): %s' % (' '.join(argv), rc, status, stderr))
    check(stderr == expected + '\n', '%s: stderr %r, expected %r' % (' '.join(argv), stderr, expected + '\n'))


def case_refusals(args):
    x = save(args, 'x.npy', np.ones((1, 2, 2, 2), dtype=np.float32))
    x8 = save(args, 'x8.npy', np.ones((1, 2, 2, 2), dtype=np.int8))
    x7 = save(args, 'x7.npy', np.ones((1, 1, 1, 1, 1, 1, 2), dtype=np.float32))
    y = out(args, 'y.npy')
    ints = 'INT64, INT32, INT16, INT8, UINT32, UINT16, UINT8 or BOOL'
    # The plugin's own lines, as inside librknnrt: exit status 1.
    refused(args, args.attr_mix, "rknnop: AttrMix: param 'shift': the node's attribute 'shift' is FLOAT32 with 1 item, "
            "expected one integer (%s)" % ints, '-i', 'x=' + x, '-o', 'y=' + y, '--attr', 'shift=0.5')
    refused(args, args.attr_mix, "rknnop: AttrMix: param 'shift': the node has no attribute 'shift' and the param has "
            "no default (give the node the attribute, or the field a default member initializer)", '-i', 'x=' + x, '-o',
            'y=' + y)
    refused(args, args.attr_mix, "rknnop: AttrMix: param 'weights': the node's attribute 'weights' is INT64 with 5 "
            "items, expected an integer array (%s) of at most 4 items" % ints, '-i', 'x=' + x, '--attr', 'shift=1',
            '--attr', 'weights=[1,2,3,4,5]')
    refused(args, args.attr_mix, "rknnop: AttrMix: input 'x': expected dtype VX_TYPE_FLOAT32 or VX_TYPE_FLOAT16, got "
            "VX_TYPE_INT8", '-i', 'x=' + x8, '--attr', 'shift=1', '--tensor-type', 'INT8')
    refused(args, args.attr_mix, "rknnop: AttrMix: input 'x': rknnop has no element type for this dtype (the "
            "runtime's tensor: BFLOAT16 NCHW [1,2,2,2])", '-i', 'x=' + x, '--attr', 'shift=1', '--tensor-type',
            'BFLOAT16')
    refused(args, args.attr_mix, "rknnop: AttrMix: input 'x': rknnop tensors have rank 1..6 (the runtime's tensor: "
            "FLOAT32 NCHW [1,1,1,1,1,1,2])", '-i', 'x=' + x7, '--attr', 'shift=1')
    check(not os.path.exists(y), 'a refused run wrote its output')
    # The command line's own mistakes: exit status 2.
    refused(args, args.attr_mix, "rknnop-run: --attr shift: unknown type 'int' (expected float, int64, floats, ints, "
            "string)", '-i', 'x=' + x, '--attr', 'shift=int:1', status=2)
    refused(args, args.attr_mix, "rknnop-run: --attr bias: op 'AttrMix' has no attribute 'bias' (its attributes: "
            "scale, shift, weights)", '-i', 'x=' + x, '--attr', 'bias=1', status=2)
    refused(args, args.attr_mix, "rknnop-run: --tensor-type 'DOUBLE': not an RKNN tensor type (FLOAT32, FLOAT16, "
            "BFLOAT16, INT8, UINT8, INT16, UINT16, INT32)", '-i', 'x=' + x, '--tensor-type', 'DOUBLE', status=2)


def case_profile(args):
    import re
    x = save(args, 'x.npy', np.linspace(-1, 1, 16 * 64 * 64, dtype=np.float32).reshape(1, 16, 64, 64))
    line = re.compile(r'rknnop: profile: LeakyRelu: compute call 1: inputs (\d+\.\d{3}) ms \(conversion, layout\), '
                      r'kernel (\d+\.\d{3}) ms, outputs (\d+\.\d{3}) ms \(conversion, layout\), '
                      r'threads (\d+)$')
    env = dict(os.environ, RKNNOP_PROFILE='1', RKNNOP_THREADS='3')
    p = subprocess.run([args.run, args.leaky_relu, '-i', '0=' + x, '-o', '0=' + out(args, 'y.npy')], env=env,
                       capture_output=True, text=True, cwd=args.work, timeout=60)
    lines = [t for t in p.stderr.splitlines() if t.startswith('rknnop: profile:')]
    check(p.returncode == 0 and len(lines) == 1, 'RKNNOP_PROFILE=1: exit %d, %d line(s): %s'
          % (p.returncode, len(lines), p.stderr))
    m = line.match(lines[0]) if lines else None
    check(m is not None, 'the profile line: %r' % (lines[:1],))
    if m:  # LeakyRelu's kernel is a parallel_for: on the 3 threads RKNNOP_THREADS allows (2 on 2 cores)
        check(int(m.group(4)) == min(3, os.cpu_count() or 1), 'RKNNOP_THREADS=3: the line says threads %s on %s '
              'cores' % (m.group(4), os.cpu_count()))
    y = np.load(out(args, 'y.npy'))
    x_values = np.load(x)
    check(np.array_equal(y, np.where(x_values >= 0, x_values, np.float32(0.2) * x_values)),
          'RKNNOP_PROFILE=1 changed the output')
    # Unset, or anything but 1: no line.
    for value in (None, '0', 'yes'):
        env = dict(os.environ)
        env.pop('RKNNOP_PROFILE', None)
        if value is not None:
            env['RKNNOP_PROFILE'] = value
        p = subprocess.run([args.run, args.leaky_relu, '-i', '0=' + x], env=env, capture_output=True, text=True,
                           cwd=args.work, timeout=60)
        check(p.returncode == 0 and 'profile' not in p.stderr, 'RKNNOP_PROFILE=%s: %s' % (value, p.stderr))


def case_other_machine(args):
    rc, _, stderr = run(args, args.aarch64, '--describe')
    check(rc == 1 and 'is for aarch64' in stderr and 'this host is x86-64' in stderr,
          'aarch64 plugin: exit %d %s' % (rc, stderr))


def hostile_checks(args, as_user=()):
    x = save(args, 'x.npy', np.arange(8, dtype=np.float32).reshape(1, 2, 2, 2))
    y = out(args, 'y.npy')
    here = os.path.join(args.work, 'cwd')
    os.makedirs(here, exist_ok=True)
    if as_user:  # the run's folder and input are the user's
        for path in (args.work, x, here):
            os.chown(path, 65534, 65534)
    rc, _, stderr = run(args, args.hostile, '-i', 'x=' + x, '-o', 'y=' + y, '--attr', 'mode=0', as_user=as_user)
    check(rc == 0 and np.array_equal(np.load(y), np.arange(8, dtype=np.float32).reshape(1, 2, 2, 2)),
          'hostile mode 0: exit %d %s' % (rc, stderr))
    rc, _, stderr = run(args, args.hostile, '-i', 'x=' + x, '--attr', 'mode=1', as_user=as_user)
    check(rc == 1 and 'rknnop-run: Hostile (RKNPU2 plugin ' in stderr and 'crashed with SIGSEGV' in stderr and
          'the runner reports: in the CPU kernel, a null pointer was used' in stderr,
          'hostile null pointer: exit %d %s' % (rc, stderr))
    rc, _, stderr = run(args, args.hostile, '-i', 'x=' + x, '--attr', 'mode=5', as_user=as_user)
    check(rc == 1 and 'crashed with SIGSEGV' in stderr and 'past its end' in stderr and 'output 0' in stderr,
          'hostile overrun: exit %d %s' % (rc, stderr))
    # A file created in the current folder (a folder the user may write to): the sandbox stops the runner,
    # no file.
    rc, _, stderr = run(args, args.hostile, '-i', 'x=' + x, '--attr', 'mode=27', cwd=here, as_user=as_user)
    check(not os.path.exists(os.path.join(here, 'hostile-was-here')), 'hostile mode 27 created its file')
    check(rc == 1 and "rknnop-run: Hostile (RKNPU2 plugin " in stderr and
          "was stopped by the node runner's sandbox (SIGSYS); the runner reports: in the CPU kernel, it tried "
          "open (a file to write), which the sandbox refuses" in stderr,
          'hostile mode 27: exit %d %s' % (rc, stderr))


def case_hostile(args):
    hostile_checks(args)


# The same checks with rknnop-run run as nobody (setpriv: this case needs root, and skips without it).
def case_hostile_nobody(args):
    if os.geteuid() != 0:
        print('skipped: setpriv to nobody needs root')
        sys.exit(77)
    hostile_checks(args, AS_NOBODY)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('case')
    parser.add_argument('--run', required=True)
    parser.add_argument('--work', required=True)
    for name in ('leaky-relu', 'attr-mix', 'aarch64', 'hostile'):
        parser.add_argument('--' + name)
    args = parser.parse_args()
    args.work = os.path.join(args.work, args.case)
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    globals()['case_' + args.case](args)
    if failures:
        print('%d check(s) failed' % len(failures))
        return 1
    print('rknnop-run %s: all checks hold' % args.case)
    return 0


if __name__ == '__main__':
    sys.exit(main())

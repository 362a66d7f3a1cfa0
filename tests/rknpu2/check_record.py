#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks what scripts/rknpu2-run.sh --record wrote for one custom op (tests/rknpu2/run-demo-model.sh).

Always: at least one call was recorded; every recorded input is finite and not all zero (the stand-in's
fill pattern reached the op through the NPU layers); each model output (--outputs, in the model's order)
equals the op's output of the same index in the last call, rounded to the model output's stored type
(--output-type float16: the demo models' output tensors are FLOAT16) and back: bitwise.
--dual-residual-alpha A: out0 == x*A - y and out1 == y*A - x in float32, bitwise, for every call.
--same-as DIR: every recorded file equals DIR's file of the same name, bitwise (a plugin against another).
Prints one summary line; each failure is one line starting "check_record.py:"; exit 1 on a failure."""
import argparse
import pathlib
import re
import sys

import numpy as np


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("record", type=pathlib.Path)
    parser.add_argument("--op", required=True, help="the op type, e.g. cstDualResidual")
    parser.add_argument("--outputs", nargs="*", default=[], type=pathlib.Path)
    parser.add_argument("--output-type", choices=["float16", "float32"], default="float16")
    parser.add_argument("--dual-residual-alpha", type=np.float32)
    parser.add_argument("--same-as", type=pathlib.Path)
    args = parser.parse_args()

    failures = []
    pattern = re.compile(re.escape(args.op) + r"-(\d+)\.(\d+)\.(in|out)(\d+)\.npy$")
    calls = {}
    for path in sorted(args.record.iterdir()):
        match = pattern.match(path.name)
        if match:
            node, call, kind, index = int(match[1]), int(match[2]), match[3], int(match[4])
            calls.setdefault((node, call), {})[(kind, index)] = np.load(path)
    if not calls:
        print(f"check_record.py: {args.record}: no call of {args.op} recorded", file=sys.stderr)
        return 1

    for (node, call), tensors in sorted(calls.items()):
        name = f"{args.op}-{node}.{call}"
        for (kind, index), array in sorted(tensors.items()):
            if kind == "in" and not np.isfinite(array).all():
                failures.append(f"{name}.in{index}: not finite")
            if kind == "in" and not array.any():
                failures.append(f"{name}.in{index}: all zero")
        if args.dual_residual_alpha is not None:
            alpha = args.dual_residual_alpha
            x, y = tensors.get(("in", 0)), tensors.get(("in", 1))
            out0, out1 = tensors.get(("out", 0)), tensors.get(("out", 1))
            if any(t is None or t.dtype != np.float32 for t in (x, y, out0, out1)):
                failures.append(f"{name}: expected float32 in0, in1, out0, out1")
                continue
            expected0, expected1 = x * alpha - y, y * alpha - x
            for index, (got, want) in enumerate(((out0, expected0), (out1, expected1))):
                if got.shape != want.shape or got.tobytes() != want.tobytes():
                    failures.append(f"{name}.out{index}: differs from the float32 formula with alpha {alpha}")

    last = calls[max(calls)]
    max_diff = 0.0
    for index, path in enumerate(args.outputs):
        returned = np.load(path)
        recorded = last.get(("out", index))
        if recorded is None:
            failures.append(f"{path}: no recorded out{index}")
            continue
        stored = recorded.astype(args.output_type).astype(np.float32)
        if returned.shape != stored.shape or returned.tobytes() != stored.tobytes():
            failures.append(f"{path}: differs from the recorded out{index} rounded to {args.output_type}")
        else:
            max_diff = max(max_diff, float(np.abs(returned - recorded).max()))

    compared = 0
    if args.same_as is not None:
        for path in sorted(args.record.glob("*.npy")):
            other = args.same_as / path.name
            if not other.exists():
                failures.append(f"{path.name}: not in {args.same_as}")
            elif np.load(other).tobytes() != np.load(path).tobytes():
                failures.append(f"{path.name}: differs from {other}")
            compared += 1

    for failure in failures:
        print(f"check_record.py: {failure}", file=sys.stderr)
    inputs = sum(kind == "in" for tensors in calls.values() for kind, _ in tensors)
    print(f"check_record.py: {args.op}: {len(calls)} call(s) recorded, {inputs} inputs finite and non-zero"
          f"{', formula bitwise equal' if args.dual_residual_alpha is not None else ''}; "
          f"{len(args.outputs)} model outputs equal the recorded outputs as {args.output_type} "
          f"(max abs diff to the float32 outputs {max_diff:g})"
          f"{f'; {compared} recorded files compared with {args.same_as}' if args.same_as is not None else ''}"
          f": {'FAILED' if failures else 'ok'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

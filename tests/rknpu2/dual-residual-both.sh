#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# rknnop's DualResidual plugin on Rockchip's own dual_residual_custom.rknn for one SoC, through
# librknnrt under qemu-arm (run-demo-model.sh), against two independent answers:
#   1. Rockchip's own implementation of the op (the demo's callback, built at test time): the op's
#      recorded call must be the same, bit for bit (inputs, outputs) and the formula exactly;
#   2. rknnop-run of the same op (the .rknnop, the host runtime) on the recorded inputs: its outputs
#      must equal what the plugin returned to librknnrt, bit for bit.
#   RKNNOP_RKNPU2_RUNTIME=<runtime> RKNNOP_RKNPU2_SAMPLES=<sdk> tests/rknpu2/dual-residual-both.sh \
#       --soc SOC --plugin <armhf librkcst_dualresidual.so> --rknnop-run <rknnop-run> --container DualResidual.rknnop
# Exit: 0 passed, 1 failed, 2 usage, 77 skipped (run-demo-model.sh's reasons).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
soc= plugin= run= container=
while [[ $# -gt 0 ]]; do
  case $1 in
    --soc|--plugin|--rknnop-run|--container)
      [[ $# -ge 2 ]] || { echo "dual-residual-both.sh: $1 needs a value" >&2; exit 2; }
      case $1 in --soc) soc=$2 ;; --plugin) plugin=$2 ;; --rknnop-run) run=$2 ;; --container) container=$2 ;; esac
      shift 2 ;;
    *) echo "dual-residual-both.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[[ -n $soc && -n $plugin && -n $run && -n $container ]] ||
  { echo "dual-residual-both.sh: --soc, --plugin, --rknnop-run and --container are required" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/rknnop-rknpu2-both.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Rockchip's kernel first, then rknnop's on the same (seeded) inputs: same record, bit for bit.
bash "$here/run-demo-model.sh" --soc "$soc" --demo-plugin --expect-dual-residual 0.5 --keep "$work/demo"
bash "$here/run-demo-model.sh" --soc "$soc" --plugin "$plugin" --expect-dual-residual 0.5 --same-as "$work/demo" \
  --keep "$work/rknnop"

# rknnop-run on the inputs the plugin was handed (FLOAT32 NCHW, as recorded), alpha as the model says.
record=$work/rknnop/record
in0=$(ls "$record"/*.0.in0.npy) in1=$(ls "$record"/*.0.in1.npy)
"$run" "$container" --input "x=$in0" --input "y=$in1" --param alpha=0.5 --tensor-type npy \
  --output "out0=$work/run0.npy" --output "out1=$work/run1.npy"
python=${RKNNOP_PYTHON:-/usr/bin/python3}
"$python" - "$record" "$work" <<'PY'
import glob, os, sys
import numpy as np
record, work = sys.argv[1], sys.argv[2]
calls = sorted(glob.glob(os.path.join(record, "*.in0.npy")))
worst = 0.0
for k in (0, 1):
    plugin = np.load(glob.glob(os.path.join(record, f"*.0.out{k}.npy"))[0])
    run = np.load(os.path.join(work, f"run{k}.npy"))
    if plugin.dtype != run.dtype or plugin.shape != run.shape:
        sys.exit(f"dual-residual-both.sh: out{k}: plugin {plugin.dtype}{plugin.shape}, rknnop-run {run.dtype}{run.shape}")
    if plugin.tobytes() != run.tobytes():
        diff = np.abs(plugin.astype(np.float64) - run.astype(np.float64))
        sys.exit(f"dual-residual-both.sh: out{k}: plugin and rknnop-run differ at {int(np.argmax(diff))} (max {diff.max()})")
    worst = max(worst, float(np.abs(plugin.astype(np.float64) - run.astype(np.float64)).max()))
print(f"dual-residual-both.sh: calls recorded {len(calls)}; plugin = Rockchip's kernel = rknnop-run, bit for bit "
      f"(max abs difference {worst})")
PY

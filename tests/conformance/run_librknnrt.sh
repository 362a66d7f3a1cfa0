#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Conformance driver (c''): the RKNPU2 plugin inside Rockchip's librknnrt 1.6.0 under qemu-arm. The one
# model the PC has, Rockchip's dual_residual_custom.rknn (RK3588), runs once with rknnop's armhf
# DualResidual plugin recording its call (tests/rknpu2/run-demo-model.sh, RKNNOP_RECORD); the inputs
# librknnrt handed the plugin go to INPUTS/DualResidual.in_librknnrt.in<k>.npy, where every other
# driver reads them for that row (cases.hpp), and the driver's --librknnrt mode prints the column's
# lines: that row's digest of what the plugin returned to librknnrt, n/a for the others.
#
#   RKNNOP_RKNPU2_RUNTIME=<runtime> RKNNOP_RKNPU2_SAMPLES=<sdk> tests/conformance/run_librknnrt.sh \
#       --plugin <armhf librkcst_dualresidual.so> --driver <conformance_rknpu2> --inputs DIR RESULTS.tsv
#
# When run-demo-model.sh skips (runtime, samples, qemu-arm, the cross compiler or numpy absent), writes
# RESULTS's .skip with the reason and prints "skipped: <reason>". Exit: 0 ran or skipped, 1 failed, 2 usage.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
die() { echo "run_librknnrt.sh: $*" >&2; exit 2; }
plugin='' driver='' inputs='' results=''
while [[ $# -gt 0 ]]; do
  case $1 in
    --plugin|--driver|--inputs)
      [[ $# -ge 2 ]] || die "$1 needs a value"
      case $1 in --plugin) plugin=$2 ;; --driver) driver=$2 ;; --inputs) inputs=$2 ;; esac
      shift 2 ;;
    -*) die "unknown argument $1" ;;
    *) [[ -z $results ]] || die "one results file"; results=$1; shift ;;
  esac
done
[[ -n $plugin && -n $driver && -n $inputs && -n $results ]] ||
  die "--plugin, --driver, --inputs and the results file are required"
row=DualResidual.in_librknnrt
skip_file=${results%.tsv}.skip
# (nothing of an earlier run may stand in for this one's)
rm -f "$results" "$skip_file" "$inputs/$row".in*.npy
mkdir -p "$inputs"
work=$(mktemp -d "${TMPDIR:-/tmp}/rknnop-conformance-librknnrt.XXXXXX")
trap 'rm -rf "$work"' EXIT

status=0
bash "$here/../rknpu2/run-demo-model.sh" --soc RK3588 --plugin "$plugin" --expect-dual-residual 0.5 \
  --keep "$work/kept" 2>"$work/stderr" || status=$?
cat "$work/stderr" >&2
if [[ $status == 77 ]]; then
  why=$(sed -n 's/^[A-Za-z0-9_.-]*: skipped: //p' "$work/stderr" | head -n 1)  # (the first skipping script's reason)
  echo "librknnrt 1.6.0 under qemu-arm: ${why:-run-demo-model.sh skipped}" >"$skip_file"
  echo "skipped: $(cat "$skip_file")"
  exit 0
fi
[[ $status == 0 ]] || { echo "run_librknnrt.sh: the model's run failed (exit $status)" >&2; exit 1; }

# The plugin's one call (cstDualResidual-<node>.<call>.(in|out)<k>.npy): its inputs for every driver,
# its outputs for this column's digest.
for k in 0 1; do
  for side in in out; do
    found=("$work"/kept/record/*.0."$side$k".npy)
    [[ ${#found[@]} == 1 && -f ${found[0]} ]] ||
      { echo "run_librknnrt.sh: the record has no single call 0 $side$k" >&2; exit 1; }
    to=$work/$row.out$k.npy
    [[ $side == in ]] && to=$inputs/$row.in$k.npy
    cp "${found[0]}" "$to"
  done
done
RKNNOP_CONFORMANCE_INPUTS=$inputs "$driver" --librknnrt "$work" "$results"

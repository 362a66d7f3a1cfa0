#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Conformance driver (c''): the RKNPU2 plugin inside Rockchip's librknnrt 1.6.0 under qemu-arm. The one
# model the PC has, Rockchip's dual_residual_custom.rknn (RK3588), runs once with rknnop's armhf
# DualResidual plugin (tests/rknpu2/run-demo-model.sh), the runner recording the op's calls (its --record:
# scripts/rknpu2-run.sh, record_call in board/rknpu2/rknpu2_run.c). Every input and output file of the
# op's first call goes to INPUTS/<Op>.in_librknnrt.(in|out)<k>.npy (<Op>: the op type without its "cst"
# prefix), where every other driver reads them for that row (cases.hpp: recorded_row), and the driver's
# --librknnrt mode prints the column's lines: that row's digest of what the plugin returned to
# librknnrt, n/a for the others. When the run fails, INPUTS/librknnrt.failed holds the reason, which
# every driver gives for the row, the column's lines are still written, and the exit status is 1.
#
#   RKNNOP_RKNPU2_RUNTIME=<runtime> RKNNOP_RKNPU2_SAMPLES=<sdk> tests/conformance/run_librknnrt.sh \
#       --plugin <armhf librkcst_dualresidual.so> --driver <conformance_rknpu2> --inputs INPUTS RESULTS.tsv
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
skip_file=${results%.tsv}.skip
failed_file=$inputs/librknnrt.failed
# (nothing of an earlier run may stand in for this one's)
rm -f "$results" "$skip_file" "$failed_file" "$inputs"/*.in_librknnrt.*.npy
mkdir -p "$inputs"
work=$(mktemp -d "${TMPDIR:-/tmp}/rknnop-conformance-librknnrt.XXXXXX")
trap 'rm -rf "$work"' EXIT
# The column's lines without a record: the reason for every driver, the driver's lines, exit 1.
failed() {
  echo "run_librknnrt.sh: $*" >&2
  echo "the librknnrt column's run failed: $*" >"$failed_file"
  RKNNOP_CONFORMANCE_INPUTS=$inputs "$driver" --librknnrt "$inputs" "$results" || true
  exit 1
}

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
[[ $status == 0 ]] || failed "the model's run failed (run-demo-model.sh exit $status; conformance.run.librknnrt shows its stderr)"

# The op's first call: <op type>-<node>.0.(in|out)<k>.npy (the runner's --record names).
shopt -s nullglob
files=("$work"/kept/record/*.0.in[0-9]*.npy "$work"/kept/record/*.0.out[0-9]*.npy)
[[ ${#files[@]} -gt 0 ]] || failed "the record holds no call 0"
op_type=''
for file in "${files[@]}"; do
  name=$(basename "$file")
  type=${name%%-*}
  [[ -z $op_type || $type == "$op_type" ]] || failed "the record holds two op types ($op_type, $type): one expected"
  op_type=$type
  side=${name##*.0.}  # in0.npy, out1.npy, ...
  cp "$file" "$inputs/${op_type#cst}.in_librknnrt.$side"
done
[[ -f $inputs/${op_type#cst}.in_librknnrt.in0.npy && -f $inputs/${op_type#cst}.in_librknnrt.out0.npy ]] ||
  failed "the record's call 0 has no in0 or no out0"
RKNNOP_CONFORMANCE_INPUTS=$inputs "$driver" --librknnrt "$inputs" "$results"

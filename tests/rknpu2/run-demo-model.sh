#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs the cstDualResidual model of RKNPU2's custom-op demo for one SoC through scripts/rknpu2-run.sh
# (Rockchip's librknnrt under qemu-arm) with the given plugins, recording the op's calls, and checks
# the record with check_record.py. Docs: docs/rknpu2-emulation.md.
#
#   RKNNOP_RKNPU2_RUNTIME=<runtime> RKNNOP_RKNPU2_SAMPLES=<sdk> tests/rknpu2/run-demo-model.sh --soc SOC \
#       [--plugin librkcst_X.so ...] [--demo-plugin] [--expect-dual-residual ALPHA] [--same-as DIR] [--keep DIR]
#
# --demo-plugin: build librkcst_demo_dual_residual.so (armhf) here from Rockchip's demo source in
#   RKNNOP_RKNPU2_SAMPLES (its compute_custom_dual_residual_float32, extracted at test time, never kept)
#   and demo_plugin_wrapper.cpp, and use it.
# --expect-dual-residual ALPHA: the recorded outputs must equal x*ALPHA - y and y*ALPHA - x (float32, bitwise).
# --same-as DIR: the record must equal DIR's (another plugin's --keep), bitwise.
# --keep DIR: copy the record and the model's outputs (output0.npy, ...) to DIR.
# RKNNOP_RKNPU2_RUNNER: the runner to use instead of scripts/rknpu2-run.sh (an installed rknnop-rknpu2-run).
# Without plugins the runtime has no implementation of the op (rknn_run fails: a pinned test).
# Always: recorded inputs finite and non-zero; the model's outputs equal the recorded outputs as float16.
# Exit: 0 passed, 1 failed, 2 usage, 77 skipped (reason printed: runtime, samples, tools or numpy absent).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
skip() { echo "run-demo-model.sh: skipped: $*" >&2; exit 77; }
die() { echo "run-demo-model.sh: $*" >&2; exit 2; }
absolute() { [[ $1 == /* ]] && echo "$1" || echo "$PWD/$1"; }

soc= demo=0 alpha= same_as= keep=
plugins=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --soc) [[ $# -ge 2 ]] || die "--soc needs a value"; soc=$2; shift 2 ;;
    --plugin) [[ $# -ge 2 ]] || die "--plugin needs a library"; plugins+=("$(absolute "$2")"); shift 2 ;;
    --demo-plugin) demo=1; shift ;;
    --expect-dual-residual) [[ $# -ge 2 ]] || die "--expect-dual-residual needs alpha"; alpha=$2; shift 2 ;;
    --same-as) [[ $# -ge 2 ]] || die "--same-as needs a folder"; same_as=$(absolute "$2"); shift 2 ;;
    --keep) [[ $# -ge 2 ]] || die "--keep needs a folder"; keep=$(absolute "$2"); shift 2 ;;
    *) die "unknown argument $1" ;;
  esac
done
[[ -n $soc ]] || die "--soc is required"

runtime=${RKNNOP_RKNPU2_RUNTIME:-}
samples=${RKNNOP_RKNPU2_SAMPLES:-}
[[ -n $runtime ]] || skip "set RKNNOP_RKNPU2_RUNTIME to a librknnrt folder (armhf/librknnrt.so, include/)"
[[ -n $samples ]] || skip "set RKNNOP_RKNPU2_SAMPLES to RKNPU2's SDK folder (rknn_custom_op_demo/)"
demo_dir=$samples/rknn_custom_op_demo/rknn_custom_pytorch_op_demo
model=$demo_dir/model/$soc/dual_residual_custom.rknn
[[ -f $model ]] || skip "RKNNOP_RKNPU2_SAMPLES=$samples has no rknn_custom_op_demo/rknn_custom_pytorch_op_demo/model/$soc/dual_residual_custom.rknn"
python=
for candidate in ${RKNNOP_PYTHON:-} python3 /usr/bin/python3; do
  if command -v "$candidate" >/dev/null && "$candidate" -c 'import numpy' 2>/dev/null; then
    python=$candidate
    break
  fi
done
[[ -n $python ]] || skip "no python3 with numpy (set RKNNOP_PYTHON)"

work=$(mktemp -d "${TMPDIR:-/tmp}/rknnop-rknpu2-demo.XXXXXX")
trap 'rm -rf "$work"' EXIT

if [[ $demo == 1 ]]; then
  cxx=arm-linux-gnueabihf-g++
  command -v "$cxx" >/dev/null || skip "$cxx not found (the armhf C++ cross compiler)"
  source_file=$demo_dir/src/rknn_api_test_custom_pytorch_op.cpp
  [[ -f $source_file ]] || skip "RKNNOP_RKNPU2_SAMPLES=$samples has no ${source_file#"$samples"/}"
  # The function, from its signature's line to the first closing brace in column 0.
  awk '/^int compute_custom_dual_residual_float32\(/ { inside = 1 } inside { print } inside && /^}/ { exit }' \
    "$source_file" >"$work/demo_kernel.inc"
  grep -q '^}' "$work/demo_kernel.inc" ||
    { echo "run-demo-model.sh: compute_custom_dual_residual_float32 not found in $source_file" >&2; exit 1; }
  # -Wno-unused-parameter: Rockchip's function does not read n_inputs and n_outputs.
  "$cxx" -std=c++17 -O2 -Wall -Wextra -Wno-unused-parameter -Werror -fPIC -shared -I"$runtime/include" \
    -DRKNNOP_DEMO_KERNEL="\"$work/demo_kernel.inc\"" -o "$work/librkcst_demo_dual_residual.so" \
    "$here/demo_plugin_wrapper.cpp"
  plugins+=("$work/librkcst_demo_dual_residual.so")
fi

plugin_args=()
for plugin in "${plugins[@]}"; do plugin_args+=(--plugin "$plugin"); done
started=$(date +%s.%N)
status=0
"${RKNNOP_RKNPU2_RUNNER:-$root/scripts/rknpu2-run.sh}" --soc "$soc" "${plugin_args[@]}" "$model" \
  -i "0=$demo_dir/model/dual_residual_input_0_nhwc.npy" -i "1=$demo_dir/model/dual_residual_input_1_nhwc.npy" \
  -o "0=$work/output0.npy" -o "1=$work/output1.npy" --record "$work/record" || status=$?
finished=$(date +%s.%N)
echo "run-demo-model.sh: $soc: scripts/rknpu2-run.sh took $("$python" -c "print(f'{$finished - $started:.2f}')") s, exit $status"
[[ $status == 0 ]] || exit "$status"

check=("$python" "$here/check_record.py" "$work/record" --op cstDualResidual --outputs "$work/output0.npy"
       "$work/output1.npy")
[[ -n $alpha ]] && check+=(--dual-residual-alpha "$alpha")
[[ -n $same_as ]] && check+=(--same-as "$same_as/record")
status=0
"${check[@]}" || status=$?
if [[ -n $keep ]]; then
  mkdir -p "$keep/record"
  cp "$work"/record/*.npy "$keep/record/"
  cp "$work"/output*.npy "$keep/"
fi
exit $status

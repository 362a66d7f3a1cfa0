#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# One op through Rockchip's real board stack under qemu (scripts/board-run.sh) and through rknnop's
# host runtime (rknnop-run) on the same inputs; the outputs must be bit-identical (dtype, shape and
# every byte). Used by the ctest label `board` (board/CMakeLists.txt); runnable by hand:
#
#   board/compare.sh --run RKNNOP_RUN --pack RKNNOP_PACK [--variant V] [--seed N] \
#       ( --wrap OP.rknnop --input NAME=SHAPE... [--param NAME=VALUE]... [--output-shape NAME=SHAPE]...
#       | --model MODEL.rknn [--update OP.rknnop] --input NAME=SHAPE... )     # a model [updated]
#       [--vx LIB.so NAME [--vx-arg ARG]...] [--max-ulp N] [--op-version N] [--threads]
#       [--board-run PATH] [--allow-lossy] [--float32-inputs]
#
# Inputs: float16 values in [-4, 4) from the seed (python3), one per --input in the model's order.
# --vx: the board side runs the op library's CPU kernel alone through the real libOpenVX
# (board/runner/vx_board_run.c) instead of librknn_runtime; --vx-arg gives its scalar/array
# arguments (-s TYPE=V, -a TYPE=V1,V2), output shapes are the host run's. --max-ulp N: float
# elements may differ by N units in the last place (each difference is still printed).
# --op-version N: sets each op description's op_version in the model (board/board_tool.py): the
# board runtime reads op_lib_armhf_offset/_len only above 1, and rknnop-pack writes none.
# --board-run PATH: the board runner to use (default scripts/board-run.sh; an installed
# bin/rknnop-board-run, with the pieces it finds under its prefix).
# --allow-lossy: passed to rknnop-run, whose PC library otherwise refuses an output that its conversion
# to the model's narrower tensor type changes (int32 2049 -> float16 2048; docs/running.md §1): the
# host run fails with that one line, and the comparison with it (the board converts without a word).
# --float32-inputs: the inputs are float32 .npy files (float16 values widened, so that every conversion is
# exact), which the board runner hands rknn_inputs_set with pass_through 0 (the runtime converts them to the
# model's float16 tensors) and rknnop-run converts itself.
# --threads: rknnop's parallel_for workers (threads named rknnop-worker) must be none before rknn_run,
# some after it (alive until the node is destroyed) and none after rknn_destroy, and the process must
# have as many threads after rknn_destroy as before rknn_init (none left over). Exit 0 identical, 1 a
# difference or a failed run (printed), 77 skipped (the reason printed).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
board_run=$root/scripts/board-run.sh
lossy=()
input_dtype=''
skip() { echo "compare.sh: skipped: $*"; exit 77; }
die() { echo "compare.sh: $*" >&2; exit 1; }

run='' pack='' variant=linux-aarch64 seed=1 max_ulp=0 threads=0 op_version='' wrap='' model='' update='' vx_lib='' vx_name=''
inputs=() params=() vx_args=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --run) run=$2; shift 2 ;;
    --pack) pack=$2; shift 2 ;;
    --variant) variant=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --wrap) wrap=$2; shift 2 ;;
    --model) model=$2; shift 2 ;;
    --update) update=$2; shift 2 ;;
    --input) inputs+=("$2"); shift 2 ;;
    --param) params+=(-p "$2"); shift 2 ;;
    --output-shape) params+=(--output-shape "$2"); shift 2 ;;
    --max-ulp) max_ulp=$2; shift 2 ;;
    --op-version) op_version=$2; shift 2 ;;
    --threads) threads=1; shift ;;
    --board-run) board_run=$2; shift 2 ;;
    --allow-lossy) lossy=(--allow-lossy); shift ;;
    --float32-inputs) input_dtype=float32; shift ;;
    --vx) vx_lib=$3 vx_name=$2; shift 3 ;;
    --vx-arg) read -r -a more <<<"$2"; vx_args+=("${more[@]}"); shift 2 ;;
    *) die "unknown argument $1" ;;
  esac
done
[[ -x $run && -x $pack ]] || die "give --run rknnop-run and --pack rknnop-pack"
command -v python3 >/dev/null || skip "python3 not found (it writes the inputs and compares the outputs)"
[[ -n ${RKNNOP_BOARD_DRIVERS:-} ]] || skip "set RKNNOP_BOARD_DRIVERS to an rknpu checkout (github.com/rockchip-linux/rknpu)"

[[ $threads == 0 || $(nproc) -ge 2 ]] || skip "--threads needs 2 cores or more (parallel_for starts no worker on one)"

work=$(mktemp -d "${TMPDIR:-/tmp}/rknnop-board-compare.XXXXXX")
trap 'rm -rf "$work"' EXIT
if [[ -n $wrap ]]; then
  shapes=()
  for i in "${inputs[@]}"; do shapes+=(--input-shape "$i"); done
  "$pack" wrap "$wrap" "${shapes[@]}" "${params[@]}" -o "$work/model.rknn" >/dev/null
elif [[ -n $update ]]; then
  "$pack" update "$model" "$update" -o "$work/model.rknn" >/dev/null
else
  cp "$model" "$work/model.rknn"
fi

# librknn_runtime 1.7.5 reads an op's armhf library only when its op_version is above 1.
[[ -z $op_version ]] || python3 "$root/board/board_tool.py" op-version "$work/model.rknn" "$op_version"

# Inputs, then the host runtime's outputs (their count from --describe).
index=0 in_args=()
for i in "${inputs[@]}"; do
  python3 "$root/board/board_tool.py" random "$work/in$index.npy" "${i#*=}" $((seed + index)) $input_dtype
  in_args+=(-i "$index=$work/in$index.npy")
  index=$((index + 1))
done
outputs=$("$run" "$work/model.rknn" --describe | grep -c '^  output [0-9]')
out_host=() out_board=()
for ((o = 0; o < outputs; ++o)); do
  out_host+=(-o "$o=$work/host$o.npy")
  out_board+=(-o "$o=$work/board$o.npy")
done
"$run" "$work/model.rknn" "${in_args[@]}" "${out_host[@]}" "${lossy[@]}" >"$work/host.log" 2>&1 ||
  { cat "$work/host.log"; die "rknnop-run failed on the model"; }

status=0
if [[ -n $vx_lib ]]; then
  vx_in=() vx_out=()
  for ((i = 0; i < index; ++i)); do vx_in+=(-i "$work/in$i.npy"); done
  for ((o = 0; o < outputs; ++o)); do
    vx_out+=(-o "$(python3 "$root/board/board_tool.py" shape "$work/host$o.npy")=$work/board$o.npy")
  done
  "$board_run" --variant "$variant" --vx "$vx_lib" "$vx_name" "${vx_in[@]}" "${vx_out[@]}" \
    "${vx_args[@]}" || status=$?
else
  extra=()
  [[ $threads == 1 ]] && extra=(--threads)
  "$board_run" --variant "$variant" "$work/model.rknn" "${in_args[@]}" "${out_board[@]}" \
    "${extra[@]}" 2>&1 | tee "$work/board.log" || status=${PIPESTATUS[0]}
fi
[[ $status -eq 77 ]] && exit 77
[[ $status -eq 0 ]] || die "the board run failed (exit $status)"
for ((o = 0; o < outputs; ++o)); do
  python3 "$root/board/board_tool.py" compare "$work/host$o.npy" "$work/board$o.npy" "output $o" "$max_ulp" ||
    status=1
done
if [[ $threads == 1 && $status -eq 0 ]]; then
  # The kernel's parallel_for workers inside the real driver (threads named rknnop-worker): none
  # before rknn_run, some after it, none after rknn_destroy; and every thread the run made (the
  # driver's own included) gone after rknn_destroy. The runner waits (5 s at most) for the counts after
  # rknn_run and rknn_destroy to settle: qemu-user's host threads leave a moment after a join.
  count() { sed -n "s/^rknnop-board: threads: \([0-9]*\) $1 (rknnop workers: \([0-9]*\))$/\\$2/p" "$work/board.log" | head -n 1; }
  before=$(count 'before rknn_init' 1) ready=$(count 'before rknn_run' 1) ran=$(count 'after rknn_run' 1)
  after=$(count 'after rknn_destroy' 1)
  workers_ready=$(count 'before rknn_run' 2) workers_ran=$(count 'after rknn_run' 2)
  workers_after=$(count 'after rknn_destroy' 2)
  if [[ -z $before || -z $ready || -z $ran || -z $after || -z $workers_ready || -z $workers_ran || -z $workers_after ]]; then
    echo "compare.sh: the runner printed no thread counts"; status=1
  elif [[ $workers_ready -ne 0 || $workers_ran -eq 0 ]]; then
    echo "compare.sh: no worker thread started by rknn_run ($workers_ready rknnop workers before it, $workers_ran after)"; status=1
  elif [[ $workers_after -ne 0 ]]; then
    echo "compare.sh: $workers_after rknnop workers left after rknn_destroy"; status=1
  elif [[ $after -ne $before ]]; then
    echo "compare.sh: $after threads after rknn_destroy, $before before rknn_init: threads left over"; status=1
  else
    echo "compare.sh: threads: $before before rknn_init, $ready before rknn_run, $ran after it ($workers_ran rknnop workers), $after after rknn_destroy"
  fi
fi
[[ $status -eq 0 && $max_ulp == 0 ]] && echo "compare.sh: $outputs output(s) bit-identical (host runtime vs $variant board stack)"
[[ $status -eq 0 && $max_ulp != 0 ]] && echo "compare.sh: $outputs output(s) within $max_ulp ulp (host runtime vs $variant board stack)"
exit $status

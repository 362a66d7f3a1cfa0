#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Record on the (emulated) board, replay on the PC: an op's instrumented kernel library
# (rknnop_add_op's <out>/<arch>/instrumented/lib<op>.so) runs inside Rockchip's librknn_runtime under
# qemu (scripts/board-run.sh) with RKNNOP_RECORD and RKNNOP_PROFILE=1 set, then rknnop-run --replay
# runs the recorded call on x86-64 with the build's container and must find it equal bit for bit; a
# one-ulp change of the kernel (--ulp OP, replayed as the same op) must be named at its element, with
# the record's build named as another one. Used by ctest (label board, board/CMakeLists.txt):
#
#   board/record-replay.sh --run RKNNOP_RUN --pack RKNNOP_PACK --variant V --container OP.rknnop \
#       --library INSTRUMENTED_LIB --ulp ULP.rknnop --ulp-name NAME --input NAME=SHAPE... [--param NAME=VALUE]...
#
# Exit 0 passed, 1 failed (the reason printed), 77 skipped (the reason printed).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
skip() { echo "record-replay.sh: skipped: $*"; exit 77; }
die() { echo "record-replay.sh: FAILED: $*" >&2; exit 1; }

run='' pack='' variant=linux-aarch64 container='' library='' ulp='' ulp_name='' inputs=() params=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --run) run=$2; shift 2 ;;
    --pack) pack=$2; shift 2 ;;
    --variant) variant=$2; shift 2 ;;
    --container) container=$2; shift 2 ;;
    --library) library=$2; shift 2 ;;
    --ulp) ulp=$2; shift 2 ;;
    --ulp-name) ulp_name=$2; shift 2 ;;
    --input) inputs+=("$2"); shift 2 ;;
    --param) params+=(-p "$2"); shift 2 ;;
    *) die "unknown argument $1" ;;
  esac
done
[[ -x $run && -x $pack && -f $container && -f $library && -f $ulp && -n $ulp_name ]] ||
  die "give --run, --pack, --container, --library, --ulp and --ulp-name"
command -v python3 >/dev/null || skip "python3 not found (it writes the inputs)"
[[ -n ${RKNNOP_BOARD_DRIVERS:-} ]] || skip "set RKNNOP_BOARD_DRIVERS to an rknpu checkout (github.com/rockchip-linux/rknpu)"
case $variant in
  linux-aarch64) arch=aarch64 ;;
  linux-armhf|linux-armhf-puma) arch=armhf ;;
  *) die "--variant $variant" ;;
esac

work=$(mktemp -d "${TMPDIR:-/tmp}/rknnop-record-replay.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The container with the instrumented board library in place of the release one (the user's step:
# rknnop-pack pack ... --aarch64/--armhf <out>/<arch>/instrumented/lib<op>.so).
"$pack" unpack "$container" -d "$work/sections" >/dev/null
one() { local f; f=$(find "$work/sections" -path "$work/sections/$1" | head -n 1); [[ -n $f ]] || die "no section $1 in $container"; echo "$f"; }
pack_args=(--x86 "$(one 'x86_64/*.so')" --yml "$(one op.yml)" --py "$(one '*.py')")
for a in aarch64 armhf; do
  if [[ $a == "$arch" ]]; then pack_args+=("--$a" "$library"); else pack_args+=("--$a" "$(one "$a/*.so")"); fi
done
shader=$(find "$work/sections" -maxdepth 1 -type f ! -name op.yml ! -name '*.py' | head -n 1)
[[ -z $shader ]] || pack_args+=(--shader "$shader")
"$pack" pack "${pack_args[@]}" -o "$work/instrumented.rknnop" >/dev/null
shapes=()
for i in "${inputs[@]}"; do shapes+=(--input-shape "$i"); done
"$pack" wrap "$work/instrumented.rknnop" "${shapes[@]}" "${params[@]}" -o "$work/model.rknn" >/dev/null

index=0 in_args=()
for i in "${inputs[@]}"; do
  python3 "$root/board/board_tool.py" random "$work/in$index.npy" "${i#*=}" $((index + 1))
  in_args+=(-i "$index=$work/in$index.npy")
  index=$((index + 1))
done

# On the board: the kernel records its call and prints its profile line.
status=0
RKNNOP_RECORD=$work/record RKNNOP_PROFILE=1 "$root/scripts/board-run.sh" --variant "$variant" "$work/model.rknn" \
  "${in_args[@]}" -o "0=$work/board0.npy" >"$work/board.log" 2>&1 || status=$?
cat "$work/board.log"
[[ $status -eq 77 ]] && exit 77
[[ $status -eq 0 ]] || die "the board run failed (exit $status)"
op=$(basename "$container" .rknnop)
grep -Eq "^rknnop: profile: $op: kernel call 1: inputs [0-9.]+ ms \(conversion, layout\), kernel [0-9.]+ ms, outputs [0-9.]+ ms \(conversion, layout\), threads [0-9]+$" "$work/board.log" ||
  die "no RKNNOP_PROFILE line of $op's kernel call inside librknn_runtime"
grep -q "^rknnop: recording $op calls to " "$work/board.log" || die "no 'recording' line"
for f in manifest in0.npy out0.npy; do
  [[ -f $work/record/rknnop-$op-000000.$f ]] || die "the record has no rknnop-$op-000000.$f ($(ls "$work/record" 2>/dev/null))"
done
grep -q "^arch=$arch$" "$work/record/rknnop-$op-000000.manifest" || die "the manifest names no arch=$arch"
echo "record-replay.sh: recorded on $variant: $(find "$work/record" -type f -printf '%f\n' | sort | tr '\n' ' ')"

# On the PC (x86-64): the build's own container replays it equal; the record is of this build.
status=0
"$run" --replay "$work/record" "$container" >"$work/replay.log" 2>&1 || status=$?
cat "$work/replay.log"
[[ $status -eq 0 ]] || die "rknnop-run --replay exited $status on the build's own op"
grep -q "1 equal, 0 differ" "$work/replay.log" || die "the replay found no equal call"
grep -q "different build" "$work/replay.log" && die "the build's own instrumented library was taken for another build"

# A damaged record is one error naming the file and what is wrong.
refused() {  # NAME SED-EXPRESSION EXPECTED-TEXT
  rm -rf "$work/bad" && cp -r "$work/record" "$work/bad"
  sed -i "$2" "$work/bad/rknnop-$op-000000.manifest"
  local st=0
  "$run" --replay "$work/bad" "$container" >"$work/bad.log" 2>&1 || st=$?
  if [[ $st -ne 1 ]] || ! grep -qF "$3" "$work/bad.log"; then
    cat "$work/bad.log"
    die "$1: expected exit 1 and '$3' (exit $st)"
  fi
  echo "record-replay.sh: $1 refused: $(head -n 1 "$work/bad.log")"
}
refused "an incomplete manifest" '/^end$/d' "the manifest is incomplete"
refused "a shape the .npy does not have" 's/^input\.0\.shape=.*/input.0.shape=1,2,3/' "but input.0.shape in"
refused "an RKNPU2 record" '/^backend=/d' "a record of an RKNPU2 plugin"
refused "a scalar param of no item" 's/^param\.1\.count=.*/param.1.count=0/; s/^param\.1\.data=.*/param.1.data=/' \
  "field 'param.1.count' is '0', expected 1"
refused "fewer params than the op's" 's/^params=.*/params=1/' "field 'params' is '1', expected 2 (the op's params)"

# The one-ulp change: the same record as the other op's (its op type renamed in a copy), replayed with it.
mkdir "$work/ulp-record"
for file in "$work/record"/*; do
  name=$(basename "$file")
  cp "$file" "$work/ulp-record/${name/rknnop-$op-/rknnop-$ulp_name-}"
done
sed -i "s/^op_type=$op\$/op_type=$ulp_name/" "$work/ulp-record/rknnop-$ulp_name-000000.manifest"
status=0
"$run" --replay "$work/ulp-record" "$ulp" >"$work/ulp.log" 2>&1 || status=$?
cat "$work/ulp.log"
[[ $status -eq 1 ]] || die "rknnop-run --replay with the one-ulp kernel exited $status, expected 1"
grep -Eq "^call 0: DIFFERS: output '[a-z_]+' element 17 \[[0-9, ]+\]: recorded [^ ]+ \(0x[0-9a-f]{4}\), PC [^ ]+ \(0x[0-9a-f]{4}\)$" "$work/ulp.log" ||
  die "the one-ulp change was not named at element 17"
grep -q "the record came from a different build of the op's library" "$work/ulp.log" ||
  die "the record was not named as another build's"
echo "record-replay.sh: $variant record replayed equal on x86-64; the one-ulp kernel named at element 17"

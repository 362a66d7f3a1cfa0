#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Record on the board, replay on the PC (docs/rknpu2-deploy.md §6), under emulation: rknnop's armhf
# DualResidual plugin records its own calls (RKNNOP_RECORD) inside Rockchip's librknnrt 1.6.0 (qemu-arm,
# scripts/rknpu2-run.sh, Rockchip's dual_residual_custom.rknn for one SoC); then on x86-64:
#   1. rknnop-run --replay with the x86-64 plugin of the same op: equal, bit for bit;
#   2. with a plugin whose kernel is one ulp off in one element (ops/dual_residual_ulp.cpp): caught,
#      naming output, element and both values (the PC's value checked as nextafter of the record's);
#   3. the record names its build: the armhf plugin's GNU build-id (readelf's). The x86-64 plugin's build
#      knows it (the armhf plugin beside it, <out>/rknpu2/armhf/): nothing is said of builds; with the
#      manifest's build-id set to another, the record is named as another build's;
#   4. a second run into the same folder overwrites nothing (the runner's copy of the plugin's files);
#   5. hostile records (truncated .npy, huge dims, bad fields, links, path-like names, an incomplete or
#      oversized manifest): one clear error naming the file and field, never a crash.
#   RKNNOP_RKNPU2_RUNTIME=<runtime> RKNNOP_RKNPU2_SAMPLES=<sdk> tests/rknpu2/record-replay.sh --soc SOC \
#       --plugin <armhf librkcst_dualresidual.so> --pc-plugin <x86-64 one> --ulp-plugin <x86-64 DualResidualUlp> \
#       --rknnop-run <rknnop-run>
# Exit: 0 passed ("record-replay.sh: all checks hold"), 1 failed, 2 usage, 77 skipped (reason printed).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
soc= plugin= pc= ulp= run=
while [[ $# -gt 0 ]]; do
  [[ $# -ge 2 ]] || { echo "record-replay.sh: $1 needs a value" >&2; exit 2; }
  case $1 in
    --soc) soc=$2 ;; --plugin) plugin=$2 ;; --pc-plugin) pc=$2 ;; --ulp-plugin) ulp=$2 ;; --rknnop-run) run=$2 ;;
    *) echo "record-replay.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift 2
done
[[ -n $soc && -n $plugin && -n $pc && -n $ulp && -n $run ]] ||
  { echo "record-replay.sh: --soc, --plugin, --pc-plugin, --ulp-plugin and --rknnop-run are required" >&2; exit 2; }
skip() { echo "record-replay.sh: skipped: $*" >&2; exit 77; }
fail() { echo "record-replay.sh: FAILED: $*" >&2; exit 1; }
samples=${RKNNOP_RKNPU2_SAMPLES:-}
[[ -n $samples ]] || skip "set RKNNOP_RKNPU2_SAMPLES to RKNPU2's SDK folder (rknn_custom_op_demo/)"
model=$samples/rknn_custom_op_demo/rknn_custom_pytorch_op_demo/model/$soc/dual_residual_custom.rknn
[[ -f $model ]] || skip "no $model"
python=${RKNNOP_PYTHON:-/usr/bin/python3}
"$python" -c 'import numpy' 2>/dev/null || skip "no python3 with numpy (set RKNNOP_PYTHON)"
readelf=${RKNNOP_READELF:-readelf}
command -v "$readelf" >/dev/null || skip "no readelf (binutils)"
build_id() { "$readelf" -n "$1" | sed -n 's/^ *Build ID: *//p'; }
work=$(mktemp -d "${TMPDIR:-/tmp}/rknnop-record-replay.XXXXXX")
trap 'rm -rf "$work"' EXIT

# --- the record, made inside librknnrt as on a board (the plugin's own RKNNOP_RECORD) --------------------
status=0
RKNNOP_RECORD=$work/record RKNNOP_RECORD_MAX=4 bash "$root/scripts/rknpu2-run.sh" --soc "$soc" --plugin "$plugin" \
  "$model" -o "0=$work/model_out0.npy" >"$work/run.out" 2>"$work/run.err" || status=$?
[[ $status == 77 ]] && { cat "$work/run.err" >&2; exit 77; }
[[ $status == 0 ]] || { cat "$work/run.err" >&2; fail "the model run failed ($status)"; }
lines=$(grep -c '^rknnop: recording cstDualResidual calls to ' "$work/run.err" || true)
[[ $lines == 1 ]] || { cat "$work/run.err" >&2; fail "$lines 'recording' lines, expected exactly one"; }
ls "$work/record"
stem=rknnop-cstDualResidual-000000
for file in $stem.manifest $stem.in0.npy $stem.in1.npy $stem.out0.npy $stem.out1.npy; do
  [[ -f $work/record/$file ]] || fail "the record has no $file"
done
armhf_id=$(build_id "$plugin") pc_id=$(build_id "$pc")
[[ -n $armhf_id && -n $pc_id ]] || fail "readelf shows no build-id in $plugin or $pc"
grep -qx "build_id=$armhf_id" "$work/record/$stem.manifest" || fail "the manifest does not name build-id $armhf_id"
grep -qx "arch=armhf" "$work/record/$stem.manifest" || fail "the manifest does not say arch=armhf"

# The runner never copies the plugin's files over a record: a second run into the same folder fails, naming
# the file, and the first record stays as it was.
cp "$work/record/$stem.manifest" "$work/first.manifest"
status=0
RKNNOP_RECORD=$work/record bash "$root/scripts/rknpu2-run.sh" --soc "$soc" --plugin "$plugin" "$model" \
  >"$work/again.out" 2>"$work/again.err" || status=$?
[[ $status == 1 ]] && grep -q "RKNNOP_RECORD: $work/record/$stem.manifest exists: not overwritten" "$work/again.err" ||
  { cat "$work/again.err" >&2; fail "a second run into the record's folder exited $status"; }
cmp -s "$work/first.manifest" "$work/record/$stem.manifest" || fail "the second run changed the first record"

replay() {  # replay NAME DIR PLUGIN: stdout and stderr kept as NAME.out / NAME.err, the exit status echoed
  local rc=0
  "$run" --replay "$2" "$3" >"$work/$1.out" 2>"$work/$1.err" || rc=$?
  echo "$rc"
}
show() { echo "--- $1:"; cat "$work/$1.out" "$work/$1.err"; }

# 1. the same op on x86-64: equal, bit for bit; the record is this build's (its armhf plugin's)
rc=$(replay same_op "$work/record" "$pc")
show same_op
[[ $rc == 0 ]] || fail "replay with the x86-64 plugin exited $rc"
grep -q "^call 0 (node 1): 2 output(s) equal, bit for bit$" "$work/same_op.out" || fail "no equal line"
grep -q ": 1 equal, 0 differ" "$work/same_op.out" || fail "no summary"
! grep -q "different build" "$work/same_op.err" || fail "a record of this build's armhf plugin is called another build's"

# 3. another build: named once, compared all the same
other_id=0123456789abcdef0123456789abcdef01234567
cp -r "$work/record" "$work/other_build"
sed -i "s/^build_id=.*/build_id=$other_id/" "$work/other_build/$stem.manifest"
rc=$(replay other_build "$work/other_build" "$pc")
[[ $rc == 0 ]] || { show other_build; fail "other-build replay exited $rc"; }
grep -q "^rknnop-run: --replay: the record came from a different build of the plugin: $stem.manifest was recorded by build-id $other_id (armhf), which is none of this build's plugins ($pc_id (.*), .*$armhf_id (.*)); its calls are compared all the same$" \
  "$work/other_build.err" || { show other_build; fail "the other build is not named"; }

# 2. one ulp off in one element: caught, named, both values; the PC's is the record's nextafter
rc=$(replay ulp "$work/record" "$ulp")
show ulp
[[ $rc == 1 ]] || fail "replay with the one-ulp plugin exited $rc, expected 1"
grep -q ": 0 equal, 1 differ" "$work/ulp.out" || fail "no summary of the difference"
"$python" - "$work/ulp.out" "$work/record/$stem.out0.npy" <<'PY' || fail "the difference is not named right"
import re, sys
import numpy as np
text = open(sys.argv[1]).read()
m = re.search(r"^call 0 \(node 1\): DIFFERS: output 'out0' element (\d+) \[(.*?)\]: recorded \S+ \(0x([0-9a-f]{8})\), PC \S+ \(0x([0-9a-f]{8})\)$", text, re.M)
if not m:
    sys.exit("record-replay.sh: no DIFFERS line naming out0's element")
index, where, recorded, pc = int(m[1]), m[2], int(m[3], 16), int(m[4], 16)
record = np.load(sys.argv[2])
want = np.unravel_index(17, record.shape)
if index != 17 or where != ", ".join(str(int(i)) for i in want):
    sys.exit(f"record-replay.sh: element {index} [{where}] named, expected 17 {list(want)}")
value = record.reshape(-1)[17]
if recorded != int(value.view(np.uint32)):
    sys.exit(f"record-replay.sh: recorded bits 0x{recorded:08x}, the record holds 0x{int(value.view(np.uint32)):08x}")
nudged = np.nextafter(value, np.float32(np.inf))
if pc != int(nudged.view(np.uint32)):
    sys.exit(f"record-replay.sh: PC bits 0x{pc:08x}, expected nextafter 0x{int(nudged.view(np.uint32)):08x}")
print(f"record-replay.sh: the one-ulp change is caught at element 17 {list(want)}")
PY

# 4. hostile records: a copy each, one change, one clear error naming file and field
hostile() {  # hostile NAME EXPECTED-REGEX: replays $work/h_NAME, which must fail with that line
  local rc
  rc=$(replay "h_$1" "$work/h_$1" "$pc")
  if [[ $rc != 1 ]] || ! grep -Eq "$2" "$work/h_$1.err"; then
    show "h_$1"
    fail "hostile record '$1': exit $rc, expected 1 with /$2/"
  fi
  echo "record-replay.sh: hostile '$1': $(grep -E "$2" "$work/h_$1.err" | head -1)"
}
fresh() { rm -rf "$work/h_$1"; cp -r "$work/record" "$work/h_$1"; }
manifest_of() { echo "$work/h_$1/$stem.manifest"; }

fresh truncated; head -c 100 "$work/record/$stem.in0.npy" >"$work/h_truncated/$stem.in0.npy"
hostile truncated "$stem\.in0\.npy"
fresh huge_dims
"$python" - "$work/h_huge_dims/$stem.in1.npy" <<'PY'
import sys
header = b"{'descr': '<f4', 'fortran_order': False, 'shape': (4294967295, 4294967295, 4294967295), }"
header += b" " * (118 - len(header) - 1) + b"\n"
open(sys.argv[1], "wb").write(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header + b"\0" * 64)
PY
hostile huge_dims "$stem\.in1\.npy"
fresh shape; sed -i 's/^input\.0\.shape=.*/input.0.shape=99999999999,1/' "$(manifest_of shape)"
hostile shape "$stem\.manifest: field 'input\.0\.shape' is '99999999999,1', expected"
fresh attr; sed -i 's/^attr\.0\.data=.*/attr.0.data=00003f/' "$(manifest_of attr)"
hostile attr "$stem\.manifest: field 'attr\.0\.data' is '00003f', expected 8 hex digits"
fresh missing; sed -i '/^input\.1\.dtype=/d' "$(manifest_of missing)"
hostile missing "$stem\.manifest: field 'input\.1\.dtype' is missing"
fresh incomplete; sed -i '/^end$/d' "$(manifest_of incomplete)"
hostile incomplete "$stem\.manifest: the manifest is incomplete"
fresh oversized; head -c 2000000 /dev/zero | tr '\0' 'x' >>"$(manifest_of oversized)"
hostile oversized "$stem\.manifest"
fresh link; ln -sf /etc/passwd "$work/h_link/$stem.out1.npy"
hostile link "output 1 of the call has no file .*$stem\.out1\.npy \(a regular file, not a link\)"
# The counts are checked before any .npy is read: a third output is named as the count, not as its file.
fresh outputs; sed -i 's/^outputs=.*/outputs=3/' "$(manifest_of outputs)"
hostile outputs "$stem\.manifest: field 'outputs' is '3', expected 2 \(the op's outputs: "
fresh dtype; sed -i 's/^output\.0\.dtype=.*/output.0.dtype=FLOAT16/' "$(manifest_of dtype)"
hostile dtype "$stem\.out0\.npy: <f4, but output\.0\.dtype in $stem\.manifest says FLOAT16"
# Path-like names are only names: the call replays equal, nothing beside the record is read.
fresh names
sed -i 's|^input\.0\.name=.*|input.0.name=../../../../etc/passwd|; s|^input\.1\.runtime_name=.*|input.1.runtime_name=/etc/shadow|; s|^op=.*|op=../x|' \
  "$(manifest_of names)"
: >"$work/h_names/rknnop-cstDualResidual-000001.in0.npy"      # not named by a manifest: never read
ln -s "$work/h_names/$stem.manifest" "$work/h_names/rknnop-cstDualResidual-000002.manifest"  # a link: never read
# An op type that is a path is not the recorder's name, a file or a folder: never read (read, the file's
# line would fail the replay: it is no manifest).
mkdir "$work/h_names/rknnop-.."
echo "not a manifest" >"$work/h_names/rknnop-../x-000003.manifest"
echo "not a manifest" >"$work/h_names/rknnop-..-000003.manifest"
rc=$(replay h_names "$work/h_names" "$pc")
[[ $rc == 0 ]] && grep -q ": 1 equal, 0 differ" "$work/h_names.out" || { show h_names; fail "path-like names: exit $rc"; }
echo "record-replay.sh: path-like names are only names: the call replays equal, the link and the stray file unread"
echo "record-replay.sh: all checks hold ($soc: recorded inside librknnrt, replayed on x86-64)"

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# rknnop-rknpu2-run as a user has it: the build's tools installed to a fresh prefix
# (cmake --install BUILD --prefix WORK/prefix, components rknnop_development and rknnop_tools), then Rockchip's DualResidual
# model run with rknnop's DualResidual plugin through the installed runner under qemu-arm, checked as
# rknpu2.dual_residual.* checks it (run-demo-model.sh: x*0.5 - y and y*0.5 - x, bit for bit). The
# runner must build itself from the installed sources and find the installed stand-in: the build
# tree's stand-in is hidden (RKNNOP_BUILD_DIR and RKNNOP_RKNPU2_STANDIN unset). Then --app: the
# installed rknpu2_app.cpp built against the installed headers and run through the installed runner.
#
#   RKNNOP_RKNPU2_RUNTIME=<runtime> RKNNOP_RKNPU2_SAMPLES=<sdk> tests/rknpu2/installed-runner.sh \
#       --build BUILD --work DIR --plugin librkcst_dualresidual.so --soc SOC
# Exit: 0 passed, 1 failed, 2 usage, 77 skipped (run-demo-model.sh's reasons).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
die() { echo "installed-runner.sh: $*" >&2; exit 2; }
build= work= plugin= soc=
while [[ $# -gt 0 ]]; do
  case $1 in
    --build|--work|--plugin|--soc) [[ $# -ge 2 ]] || die "$1 needs a value"; declare "${1#--}=$2"; shift 2 ;;
    *) die "unknown argument $1" ;;
  esac
done
[[ -n $build && -n $work && -n $plugin && -n $soc ]] || die "--build, --work, --plugin and --soc are required"
[[ -n ${RKNNOP_RKNPU2_RUNTIME:-} && -n ${RKNNOP_RKNPU2_SAMPLES:-} ]] ||
  { echo "installed-runner.sh: skipped: set RKNNOP_RKNPU2_RUNTIME and RKNNOP_RKNPU2_SAMPLES" >&2; exit 77; }

rm -rf "$work"
mkdir -p "$work"
for component in rknnop_development rknnop_tools; do
  cmake --install "$build" --prefix "$work/prefix" --component $component >>"$work/install.log" ||
    { cat "$work/install.log" >&2; echo "installed-runner.sh: cmake --install ($component) failed" >&2; exit 1; }
done
runner=$work/prefix/bin/rknnop-rknpu2-run
for file in "$runner" "$work/prefix/share/rknnop/board/rknpu2/rknpu2_run.c" \
            "$work/prefix/share/rknnop/board/rknpu2/rknpu2_app.cpp" "$work/prefix/share/rknnop/board/runner/npy.c" \
            "$work/prefix/lib/rknnop/rknpu2/armhf/librknnop_rknpu.so" "$work/prefix/include/rknnop/rknpu2_plugin.h"; do
  [[ -f $file ]] || { echo "installed-runner.sh: the install has no ${file#"$work"/}" >&2; exit 1; }
done
[[ -x $runner ]] || { echo "installed-runner.sh: $runner is not executable" >&2; exit 1; }
# Its usage names it by its installed name.
usage=$("$runner" --help 2>&1 || true)
[[ $usage == *"rknnop-rknpu2-run [--soc"* ]] || { echo "installed-runner.sh: usage: $usage" >&2; exit 1; }

echo "installed-runner.sh: running $soc through ${runner#"$work"/}"
env -u RKNNOP_BUILD_DIR -u RKNNOP_RKNPU2_STANDIN RKNNOP_RKNPU2_RUNNER="$runner" \
  bash "$here/run-demo-model.sh" --soc "$soc" --plugin "$plugin" --expect-dual-residual 0.5

# --app: the installed application source, built as docs/rknpu2-deploy.md §3 builds it (the installed
# headers, the runtime's), run in the runner's place.
cxx=arm-linux-gnueabihf-g++
command -v "$cxx" >/dev/null || { echo "installed-runner.sh: skipped: $cxx not found" >&2; exit 77; }
runtime=$RKNNOP_RKNPU2_RUNTIME
"$cxx" -std=c++20 -O2 -I"$work/prefix/include" -I"$runtime/include" \
  "$work/prefix/share/rknnop/board/rknpu2/rknpu2_app.cpp" -L"$runtime/armhf" -lrknnrt -ldl -o "$work/rknpu2_app"
model=$RKNNOP_RKNPU2_SAMPLES/rknn_custom_op_demo/rknn_custom_pytorch_op_demo/model/$soc/dual_residual_custom.rknn
output=$(env -u RKNNOP_BUILD_DIR -u RKNNOP_RKNPU2_STANDIN "$runner" --soc "$soc" --app "$work/rknpu2_app" \
  --plugin "$plugin" "$model" 2>&1) || { echo "$output" >&2; echo "installed-runner.sh: --app failed" >&2; exit 1; }
for line in "rknpu2_app: registered 1 custom op(s): cstDualResidual" "rknpu2_app: output 0: 300 floats" \
            "rknpu2_app: output 1: 300 floats"; do
  [[ $output == *"$line"* ]] || { echo "$output" >&2; echo "installed-runner.sh: --app: no '$line'" >&2; exit 1; }
done
echo "installed-runner.sh: --app ${work##*/}/rknpu2_app (built from the installed rknpu2_app.cpp): registered and ran"

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs the cross-backend conformance suite (tests/conformance, ctest label `conformance`) in a configured
# build tree and writes docs/backends.md from that run. Give the build every backend's stack at configure
# time (RKNNOP_MINDSPORE_LITE_ROOT, ...; docs/testing.md) or the skipped backends show in the table.
#
#   scripts/conformance.sh [BUILD_DIR]      (default: build/ci)
#
# Exit 0 when every cell is equal, refused alike or explained; 1 when a cell FAILs (the table is written
# either way: it lists the failing cells).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$root/build/ci}
[ -f "$build/CMakeCache.txt" ] || { echo "conformance.sh: $build is not a configured build tree" >&2; exit 2; }
targets=(conformance_openvx conformance_rknpu2)
# (and, where this build has them: MindSpore Lite's driver; the board column's driver and op libraries
# (RKNNOP_BOARD_DRIVERS); the armhf DualResidual plugin and the /dev/rknpu stand-in the librknnrt column runs)
for target in conformance_mindspore conformance_openvx_board DualResidual_rknpu2 rknnop_rknpu_board; do
  if grep -Eq "^build ([^ ]*/)?$target:" "$build/build.ninja" 2>/dev/null ||
     grep -q "^$target:" "$build/Makefile" 2>/dev/null; then
    targets+=("$target")
  fi
done
cmake --build "$build" -j "${RKNNOP_JOBS:-2}" --target "${targets[@]}"
status=0
ctest --test-dir "$build" -L '^conformance$' -E '^conformance\.table$' -j "${RKNNOP_JOBS:-2}" --output-on-failure ||
  status=1
python3 "$root/tests/conformance/conformance.py" table "$build/tests/conformance/results" --write "$root/docs/backends.md"
grep '^Cells:' "$root/docs/backends.md"
exit $status

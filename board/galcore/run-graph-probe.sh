#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs galcore_graph_probe.c (one user-kernel node through the real libOpenVX.so.1.2) under qemu-user
# with rknnop's user-space galcore preloaded, against an rknpu driver folder:
#
#   RKNNOP_BOARD_DRIVERS=<rknpu checkout> board/galcore/run-graph-probe.sh <galcore build dir> <variant> [twice]
#
# <galcore build dir>: the folder holding aarch64/ and armhf/librknnop_galcore.so (<build>/board/galcore).
# <variant>: a drivers/ folder name (linux-aarch64-mini, linux-armhf-mini, linux-armhf-puma-mini; the
# full variants linux-aarch64, linux-armhf, linux-armhf-puma also need stand-ins for their absent
# libraries: RKNNOP_BOARD_STUBS_DIR = a folder holding them, e.g. made by board/stubs). The probe is
# compiled with the cross C compiler into a temporary folder (removed). RKNNOP_GALCORE_LOG=1 logs each
# HAL command. Exit: the probe's status (0 ok; 134 when the galcore stopped it), or 77 with the
# reason when something is absent.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
skip() { echo "run-graph-probe.sh: skipped: $*"; exit 77; }
[[ $# -ge 2 ]] || { echo "usage: run-graph-probe.sh <galcore build dir> <variant> [twice]" >&2; exit 2; }
build=$(cd "$1" 2>/dev/null && pwd) || { echo "run-graph-probe.sh: $1 is no folder" >&2; exit 2; }
variant=$2
shift 2
drivers=${RKNNOP_BOARD_DRIVERS:-}
[[ -n $drivers ]] || skip "set RKNNOP_BOARD_DRIVERS to an rknpu checkout (github.com/rockchip-linux/rknpu)"
libdir=$drivers/drivers/$variant/usr/lib
[[ -f $libdir/libOpenVX.so.1.2 ]] || skip "$libdir holds no libOpenVX.so.1.2"
case $variant in
  linux-aarch64*) arch=aarch64 triple=aarch64-linux-gnu qemu=qemu-aarch64 ;;
  linux-armhf*) arch=armhf triple=arm-linux-gnueabihf qemu=qemu-arm ;;
  *) echo "run-graph-probe.sh: unknown variant $variant" >&2; exit 2 ;;
esac
command -v "$qemu" >/dev/null || skip "$qemu is not installed"
command -v "$triple-gcc" >/dev/null || skip "$triple-gcc is not installed"
galcore=$build/$arch/librknnop_galcore.so
[[ -f $galcore ]] || skip "no $galcore (build the rknnop_galcore_board target)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=../driver-libdir.sh
. "$root/board/driver-libdir.sh"
libdir=$(board_driver_libdir "$libdir" "$work")  # a copy without links: seen through real ones
stubs=${RKNNOP_BOARD_STUBS_DIR:-}
libpath=$libdir${stubs:+:$stubs}
# -Wno-stringop-overread: vxAddUserKernel's name parameter is declared as a 256-char array.
"$triple-gcc" -std=c11 -O1 -Wall -Wextra -Werror -Wno-stringop-overread -I"$root/include" \
  -o "$work/probe" "$root/board/galcore/galcore_graph_probe.c" \
  -L"$libdir" -Wl,-rpath-link,"$libpath" -l:libOpenVX.so.1.2
cd "$work"
# Not exec: a probe stopped by a signal (the galcore's abort on NPU work) becomes an exit status.
status=0
"$qemu" -L "/usr/$triple" -E "LD_PRELOAD=$galcore" -E "LD_LIBRARY_PATH=$libpath" ./probe "$@" || status=$?
exit "$status"

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs an RKNN v1 model through Rockchip's own board runtime (librknn_runtime.so, libOpenVX.so.1.2,
# libGAL.so of an rknpu driver folder) on the PC: a small board application (board/runner), built
# here with the cross compiler against rknpu's rknn/include/rknn_runtime.h, runs under qemu-user
# with the board's libraries, rknnop's stand-ins for the ones the snapshot lacks (board/stubs) and
# rknnop's user-space /dev/galcore (board/galcore, preloaded). Docs: docs/board-emulation.md.
#
#   RKNNOP_BOARD_DRIVERS=<rknpu checkout> scripts/board-run.sh [--variant V] MODEL.rknn \
#       -i 0=in.npy [-i 1=...] -o 0=out.npy [--want-float]
#   RKNNOP_BOARD_DRIVERS=<rknpu checkout> scripts/board-run.sh [--variant V] --vx LIB.so NAME [vx-runner args]
#   RKNNOP_BOARD_DRIVERS=<rknpu checkout> scripts/board-run.sh [--variant V] --runner EXE [args]
#
# V: linux-aarch64 (RK1808, the default), linux-armhf (RK1806) or linux-armhf-puma (RV1109/RV1126).
# Inputs and outputs by index in the model's order. --vx runs board/runner/vx_board_run instead
# (one node through libOpenVX.so.1.2 directly; its usage: --vx alone). --runner runs EXE, a program
# already built for V's architecture against libOpenVX.so (the conformance suite's driver), the same way.
# The galcore stand-in: RKNNOP_BOARD_GALCORE = a folder holding aarch64/ and armhf/
# librknnop_galcore.so (default: <build>/board/galcore, build = RKNNOP_BUILD_DIR or build/native;
# installed: <prefix>/lib/rknnop/board);
# --no-galcore runs without it (the driver then stops where it opens /dev/galcore).
# Passed on to the run: RKNNOP_PROFILE, RKNNOP_THREADS and RKNNOP_RECORD_MAX; RKNNOP_RECORD=DIR: an
# instrumented kernel library (rknnop_add_op's <out>/<arch>/instrumented/lib<op>.so, in the model or
# given to --vx) records its kernel calls in the run's folder, copied to DIR afterwards (created if
# missing; a file already there is never overwritten: the run then fails naming it).
# RKNNOP_BOARD_CACHE = a folder to keep the built stand-ins and runner in between runs (keyed by their
# sources, the compiler and the driver folder). RKNNOP_BOARD_TRACE=1 prints the qemu command. Exit status: the runner's (0 success, 1 a failed
# runtime call, named on stderr, 2 usage), or 77 with the reason when drivers, qemu, the cross
# compiler or the galcore stand-in are absent. Everything built goes to a temporary folder, removed (or to RKNNOP_BOARD_CACHE).
set -euo pipefail
# Where its pieces are: in a checkout, beside it (board/, include/, the galcore stand-in in the build
# tree); installed (bin/rknnop-board-run, with the tools: docs/install.md), under the prefix. The
# install rules (cmake/rknnopInstall.cmake) fill in the next line with paths relative to this script.
installed_layout=
here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
if [[ -n $installed_layout ]]; then
  read -r board_rel include_rel galcore_rel <<<"$installed_layout"
  board=$(cd "$here/$board_rel" && pwd) include=$(cd "$here/$include_rel" && pwd)
  galcore_default=$here/$galcore_rel
else
  root=$(cd "$here/.." && pwd)
  board=$root/board include=$root/include
  galcore_default=${RKNNOP_BUILD_DIR:-$root/build/native}/board/galcore
fi
skip() { echo "board-run.sh: skipped: $*" >&2; exit 77; }
usage() { sed -n '8,13p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 2; }

variant=linux-aarch64
galcore_wanted=1
vx=0
runner=
args=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --variant) [[ $# -ge 2 ]] || usage; variant=$2; shift 2 ;;
    --no-galcore) galcore_wanted=0; shift ;;
    --vx) vx=1; shift ;;
    --runner)
      [[ $# -ge 2 ]] || usage
      runner=$2
      [[ $runner == /* ]] || runner=$PWD/$runner
      shift 2 ;;
    -h|--help) usage ;;
    -i|-o)
      [[ $# -ge 2 ]] || usage
      # Paths made absolute: the runner works in a temporary folder. INDEX=FILE (--vx: FILE for
      # -i, SHAPE=FILE for -o).
      prefix='' file=$2
      [[ $2 == *=* ]] && prefix=${2%%=*}= file=${2#*=}
      [[ -z $file || $file == /* ]] || file=$PWD/$file
      args+=("$1" "$prefix$file"); shift 2 ;;
    *)
      if [[ -e $1 && $1 != /* ]]; then args+=("$PWD/$1"); else args+=("$1"); fi
      shift ;;
  esac
done
if [[ -n $runner ]]; then
  [[ $vx == 0 ]] || { echo "board-run.sh: --runner and --vx: give one (--vx builds its own runner)" >&2; exit 2; }
  [[ -f $runner && -x $runner ]] || { echo "board-run.sh: --runner $runner: not an executable file" >&2; exit 2; }
fi
case $variant in
  linux-aarch64) arch=aarch64 triplet=aarch64-linux-gnu qemu=qemu-aarch64 ;;
  linux-armhf|linux-armhf-puma) arch=armhf triplet=arm-linux-gnueabihf qemu=qemu-arm ;;
  *) echo "board-run.sh: --variant $variant: expected linux-aarch64, linux-armhf or linux-armhf-puma" >&2; exit 2 ;;
esac

drivers=${RKNNOP_BOARD_DRIVERS:-}
[[ -n $drivers ]] || skip "set RKNNOP_BOARD_DRIVERS to an rknpu checkout (github.com/rockchip-linux/rknpu)"
libdir=$drivers/drivers/$variant/usr/lib
header=$drivers/rknn/include/rknn_runtime.h
[[ -f $libdir/libOpenVX.so.1.2 && -f $libdir/librknn_runtime.so ]] ||
  skip "RKNNOP_BOARD_DRIVERS=$drivers has no drivers/$variant/usr/lib/{libOpenVX.so.1.2,librknn_runtime.so}"
[[ $vx == 1 || -n $runner || -f $header ]] || skip "RKNNOP_BOARD_DRIVERS=$drivers has no rknn/include/rknn_runtime.h"
cc=$triplet-gcc
command -v "$cc" >/dev/null || skip "$cc not found (scripts/install-deps.sh installs the cross compilers)"
command -v "$qemu" >/dev/null || skip "$qemu not found (qemu-user)"
sysroot=/usr/$triplet
[[ -d $sysroot/lib ]] || skip "$sysroot/lib not found (the cross compiler's target libraries)"

galcore=
if [[ $galcore_wanted == 1 ]]; then
  galcore_dir=${RKNNOP_BOARD_GALCORE:-$galcore_default}
  galcore=$galcore_dir/$arch/librknnop_galcore.so
  [[ -f $galcore ]] || skip "no galcore stand-in at $galcore (build it, set RKNNOP_BOARD_GALCORE, or --no-galcore)"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/rknnop-board-run.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/run"
# A driver folder copied without symbolic links is seen through real ones (board/driver-libdir.sh).
# shellcheck source=../board/driver-libdir.sh
. "$board/driver-libdir.sh"
drivers_libdir=$libdir
libdir=$(board_driver_libdir "$libdir" "$work")
# The stand-ins and the runner: built here, or kept in RKNNOP_BOARD_CACHE (the tests give
# <build>/board/cache) under a key of everything they are built from, so that a run reuses them.
kind=rknn
[[ $vx == 1 ]] && kind=vx
[[ -n $runner ]] && kind=stubs  # the stand-ins only: the runner is given
built=$work/built cached=
if [[ -n ${RKNNOP_BOARD_CACHE:-} ]]; then
  key=$({
    echo "$variant $kind $cc $drivers_libdir"
    cat "$board/stubs/make-stubs.sh" "$board/stubs/dlsym-imports.txt"
    # (the runner's sources: not for the stand-ins alone, which --runner's EXE runs with)
    [[ $kind == stubs ]] || cat "$board/runner/"*.c "$board/runner/"*.h
    if [[ $vx == 1 ]]; then cat "$include/rknnop/openvx.h" "$include/rknnop/detail/"openvx_*.h
    elif [[ -z $runner ]]; then cat "$header"; fi
    ls -lL --time-style=+%s "$drivers_libdir"
  } | sha256sum | cut -c1-16)
  cached=$RKNNOP_BOARD_CACHE/$variant-$kind-$key
  [[ -x $cached/runner || ($kind == stubs && -d $cached/stubs) ]] && built=$cached
fi
if [[ $built == "$work/built" ]]; then
  mkdir -p "$built/stubs"
  "$board/stubs/make-stubs.sh" "$drivers_libdir" "$built/stubs" "$cc" "$sysroot" >&2
  if [[ $vx == 1 ]]; then
    "$cc" -std=c11 -O1 -Wall -Wextra -Werror -I"$include" -o "$built/runner" \
      "$board/runner/vx_board_run.c" "$board/runner/npy.c" \
      -L"$libdir" -Wl,-rpath-link,"$libdir:$built/stubs" -l:libOpenVX.so.1.2 -ldl
  elif [[ -z $runner ]]; then
    "$cc" -std=c11 -O1 -Wall -Wextra -Werror -I"$drivers/rknn/include" -o "$built/runner" \
      "$board/runner/rknn_board_run.c" "$board/runner/npy.c" \
      -L"$libdir" -Wl,-rpath-link,"$libdir:$built/stubs" -lrknn_runtime
  fi
  # Kept by a rename (atomic): a concurrent run that got there first keeps its own.
  if [[ -n $cached ]] && mkdir -p "$RKNNOP_BOARD_CACHE" && mv -T "$built" "$cached" 2>/dev/null; then
    built=$cached
  fi
fi
env_args=(-E "LD_LIBRARY_PATH=$libdir:$built/stubs" -E "TMPDIR=$work/run")
for name in RKNN_LOG_LEVEL VSI_NN_LOG_LEVEL RKNNOP_GALCORE_LOG RKNNOP_PROFILE RKNNOP_THREADS RKNNOP_RECORD_MAX; do
  [[ -n ${!name:-} ]] && env_args+=(-E "$name=${!name}")
done
kernel_record=${RKNNOP_RECORD:-}
if [[ -n $kernel_record ]]; then
  [[ $kernel_record == /* ]] || kernel_record=$PWD/$kernel_record
  mkdir -p "$work/kernel-record"
  env_args+=(-E "RKNNOP_RECORD=$work/kernel-record")
fi
[[ -n $galcore ]] && env_args+=(-E "LD_PRELOAD=$galcore")
runner=${runner:-$built/runner}
[[ ${RKNNOP_BOARD_TRACE:-0} == 1 ]] && echo "board-run.sh: (cd $work/run && $qemu -L $sysroot ${env_args[*]} $runner ${args[*]})" >&2
# librknn_runtime writes each custom op's library to /tmp/rknn/<Name> (a fixed path, not TMPDIR)
# and deletes it after dlopen(); a run that fails in between leaves it. Remove what this run made.
[[ -d /tmp/rknn ]] && had_tmp_rknn=1 || had_tmp_rknn=0
touch "$work/started"
status=0
(cd "$work/run" && exec "$qemu" -L "$sysroot" "${env_args[@]}" "$runner" "${args[@]}") || status=$?
if [[ -d /tmp/rknn ]]; then
  find /tmp/rknn -maxdepth 1 -type f -newer "$work/started" -delete 2>/dev/null || true
  [[ $had_tmp_rknn == 1 ]] || rmdir /tmp/rknn 2>/dev/null || true
fi
if [[ -n $kernel_record ]]; then  # the kernel library's own record (RKNNOP_RECORD), never over an existing file
  # Regular files only, never a link the (unprivileged) runtime planted: this script may run as root.
  mkdir -p "$kernel_record"
  while IFS= read -r -d '' file; do
    name=$(basename "$file")
    if [[ -e $kernel_record/$name || -L $kernel_record/$name ]]; then
      echo "board-run.sh: RKNNOP_RECORD: $kernel_record/$name exists: not overwritten" >&2
      [[ $status != 0 ]] || status=1
    else
      cp -P -- "$file" "$kernel_record/"
    fi
  done < <(find "$work/kernel-record" -maxdepth 1 -type f -print0)
fi
exit $status

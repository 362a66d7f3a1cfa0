#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Test of make-stubs.sh on one driver variant (ctest board.stubs.<variant>): the stand-ins are built
# from the driver folder; each has its SONAME; under qemu, every name of its .exports resolves with
# dlsym in it, a call writes "rknnop-board: <library>:<function> was called (not emulated)" and
# returns -1, and with RKNNOP_BOARD_STUBS=abort the call aborts; the full libOpenVX.so.1.2 loads
# with RTLD_NOW against the folder and the stand-ins (every import bound).
#
#   RKNNOP_BOARD_DRIVERS=<rknpu checkout> board/stubs/test-stubs.sh <variant>
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
skip() { echo "test-stubs.sh: skipped: $*"; exit 77; }
fail() { echo "test-stubs.sh: FAILED: $*"; exit 1; }
variant=${1:?usage: test-stubs.sh <variant>}
drivers=${RKNNOP_BOARD_DRIVERS:-}
[[ -n $drivers ]] || skip "set RKNNOP_BOARD_DRIVERS to an rknpu checkout (github.com/rockchip-linux/rknpu)"
libdir=$drivers/drivers/$variant/usr/lib
[[ -f $libdir/libOpenVX.so.1.2 ]] || skip "no $libdir/libOpenVX.so.1.2"
if [[ $variant == linux-aarch64 ]]; then triplet=aarch64-linux-gnu qemu=qemu-aarch64; else triplet=arm-linux-gnueabihf qemu=qemu-arm; fi
command -v "$triplet-gcc" >/dev/null || skip "$triplet-gcc not found"
command -v "$qemu" >/dev/null || skip "$qemu not found"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$here/make-stubs.sh" "$libdir" "$work/stubs" "$triplet-gcc" "/usr/$triplet"
cat >"$work/probe.c" <<'C'
/* probe LIB [FUNCTION...]: dlopen(RTLD_NOW); each FUNCTION must resolve in LIB; "call F" calls F. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
int main(int argc, char** argv) {
  void* lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) { printf("dlopen: %s\n", dlerror()); return 1; }
  if (argc == 4 && strcmp(argv[2], "call") == 0) {
    long (*f)(void) = (long (*)(void))dlsym(lib, argv[3]);
    if (!f) return 1;
    printf("returned %ld\n", f());
    return 0;
  }
  for (int i = 2; i < argc; ++i) {
    Dl_info info;
    void* p = dlsym(lib, argv[i]);
    if (!p || !dladdr(p, &info) || !strstr(info.dli_fname, "stubs/")) { printf("%s: not in the stand-in\n", argv[i]); return 1; }
  }
  return 0;
}
C
"$triplet-gcc" -O1 -o "$work/probe" "$work/probe.c" -ldl
run() { "$qemu" -L "/usr/$triplet" -E "LD_LIBRARY_PATH=$libdir:$work/stubs" "$@"; }

count=0
for exports in "$work"/stubs/*.exports; do
  lib=${exports%.exports}
  name=$(basename "$lib")
  soname=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
  [[ $soname == "$name" ]] || fail "$name has SONAME '$soname'"
  mapfile -t names <"$exports"
  run "$work/probe" "$lib" "${names[@]}" || fail "$name: an exported name does not resolve"
  out=$(run "$work/probe" "$lib" call "${names[0]}" 2>&1) || fail "$name: calling ${names[0]} failed: $out"
  grep -qx "rknnop-board: $name:${names[0]} was called (not emulated)" <<<"$out" || fail "$name: no message: $out"
  grep -qx "returned -1" <<<"$out" || fail "$name: ${names[0]} did not return -1: $out"
  status=$( ("$qemu" -L "/usr/$triplet" -E "LD_LIBRARY_PATH=$libdir:$work/stubs" -E RKNNOP_BOARD_STUBS=abort \
              "$work/probe" "$lib" call "${names[0]}" >/dev/null 2>&1); echo $?) 2>/dev/null
  [[ $status -eq 134 ]] || fail "$name: RKNNOP_BOARD_STUBS=abort: exit status $status, not 134 (SIGABRT)"
  echo "$name: ${#names[@]} functions, SONAME $soname, a call reports itself and returns -1 (aborts on request)"
  count=$((count + 1))
done
[[ $count -eq 4 ]] || fail "expected 4 stand-ins (libVSC.so, libNNVXCBinary.so, libNNGPUBinary.so, libOvx12VXCBinary.so), made $count"
run "$work/probe" "$libdir/libOpenVX.so.1.2" || fail "libOpenVX.so.1.2 does not load with RTLD_NOW"
echo "test-stubs.sh: $variant: libOpenVX.so.1.2 loads with every import bound"

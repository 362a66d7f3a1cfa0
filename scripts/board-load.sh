#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Loads every board kernel library of a build with the boards' real dynamic linker setup: under qemu
# (qemu-aarch64 / qemu-arm, -L the cross sysroot), against Rockchip's real driver libraries
# (LD_LIBRARY_PATH = rknpu drivers/<variant>/usr/lib), from a tiny program built with the cross
# compiler that dlopen()s the library with RTLD_NOW (every import bound at once, as a strict loader
# would), then looks up each symbol the library imports and says which library defines it.
#
#   RKNNOP_BOARD_DRIVERS=<rknpu checkout> scripts/board-load.sh [build dir] [library...]
#
# <rknpu checkout>: github.com/rockchip-linux/rknpu (read at e0cb42b, driver 1.7.5). Without
# libraries, every <out>/aarch64/lib*.so and <out>/armhf/lib*.so under the build dir (default
# build/native) that rknnop_add_op made (an <out> folder holding op.yml; linked against libOpenVX.so). The -mini driver variants are used: they are complete in
# that commit (the full ones need libVSC.so and other large files the repository does not hold);
# RKNNOP_BOARD_VARIANTS overrides (e.g. "linux-aarch64 linux-armhf linux-armhf-puma").
# aarch64 libraries load against linux-aarch64*(RK1808), armhf ones against linux-armhf* (RK1806) and
# linux-armhf-puma* (RV1109/RV1126). Exit status: 0 all loaded, 1 a failure, 77 skipped (no drivers,
# no qemu or cross compiler: the reason is printed).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
skip() { echo "board-load.sh: skipped: $*"; exit 77; }

drivers=${RKNNOP_BOARD_DRIVERS:-}
[[ -n $drivers ]] || skip "set RKNNOP_BOARD_DRIVERS to an rknpu checkout (github.com/rockchip-linux/rknpu)"
[[ -d $drivers/drivers ]] || skip "RKNNOP_BOARD_DRIVERS=$drivers holds no drivers/ folder"
build=${1:-$root/build/native}
shift || true
libraries=("$@")
for lib in "${libraries[@]}"; do
  [[ -f $lib ]] || { echo "board-load.sh: $lib does not exist" >&2; exit 1; }
done
if [[ ${#libraries[@]} -eq 0 ]]; then
  # rknnop_add_op's output folders (op.yml beside aarch64/ and armhf/), libraries linked against
  # libOpenVX.so as on a board (test fixtures that are not are left out).
  while IFS= read -r lib; do
    [[ -f $(dirname "$(dirname "$lib")")/op.yml ]] || continue
    readelf -d "$lib" 2>/dev/null | grep -q 'NEEDED.*\[libOpenVX\.so\]' && libraries+=("$lib")
  done < <(find "$build" \( -path '*/aarch64/lib*.so' -o -path '*/armhf/lib*.so' \) -type f -print | sort)
fi
[[ ${#libraries[@]} -gt 0 ]] || skip "no board libraries under $build (build the <Op>_aarch64 / <Op>_armhf targets)"
read -r -a variants <<<"${RKNNOP_BOARD_VARIANTS:-linux-aarch64-mini linux-armhf-mini linux-armhf-puma-mini}"

work=$(mktemp -d)
# shellcheck source=../board/driver-libdir.sh
. "$root/board/driver-libdir.sh"
trap 'rm -rf "$work"' EXIT
cat >"$work/load.c" <<'C'
/* dlopen(RTLD_NOW) a kernel library, then resolve each named import and say where it comes from. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
int main(int argc, char** argv) {
  void* lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    printf("  FAILED dlopen(RTLD_NOW): %s\n", dlerror());
    return 1;
  }
  int failed = 0;
  for (int i = 2; i < argc; ++i) {
    Dl_info info;
    void* p = dlsym(lib, argv[i]);
    if (p && dladdr(p, &info) && info.dli_fname)
      printf("  %-34s resolved in %s\n", argv[i], info.dli_fname);
    else {
      printf("  %-34s NOT RESOLVED\n", argv[i]);
      failed = 1;
    }
  }
  return failed;
}
C

status=0
loaded=0
for arch in aarch64 armhf; do
  if [[ $arch == aarch64 ]]; then
    cc=aarch64-linux-gnu-gcc qemu=qemu-aarch64 sysroot=/usr/aarch64-linux-gnu pattern='linux-aarch64*'
  else
    cc=arm-linux-gnueabihf-gcc qemu=qemu-arm sysroot=/usr/arm-linux-gnueabihf pattern='linux-armhf*'
  fi
  mine=()
  for lib in "${libraries[@]}"; do [[ $lib == */$arch/* ]] && mine+=("$lib"); done
  [[ ${#mine[@]} -gt 0 ]] || continue
  command -v "$cc" >/dev/null || skip "$cc not found"
  command -v "$qemu" >/dev/null || skip "$qemu not found"
  "$cc" -O1 -o "$work/load-$arch" "$work/load.c" -ldl
  for variant in "${variants[@]}"; do
    # shellcheck disable=SC2053  # a glob match on purpose
    [[ $variant == $pattern ]] || continue
    libdir=$drivers/drivers/$variant/usr/lib
    [[ -f $libdir/libOpenVX.so.1.2 ]] || { echo "board-load.sh: $libdir/libOpenVX.so.1.2 is missing"; status=1; continue; }
    build_id=$(strings "$libdir/libOpenVX.so.1.2" | sed -n 's/^libOpenVX version: //p' | head -n 1)
    libdir=$(board_driver_libdir "$libdir" "$work/$variant")  # a copy without links (board/driver-libdir.sh)
    for lib in "${mine[@]}"; do
      # The library's imports (undefined dynamic symbols that must be found: weak ones may stay NULL).
      mapfile -t imports < <(readelf --dyn-syms -W "$lib" |
                             awk '$7 == "UND" && $5 != "WEAK" && $8 != "" { sub(/@.*/, "", $8); print $8 }' |
                             sort -u)
      echo "== $lib ($arch) on $variant (libOpenVX $build_id): ${#imports[@]} imports"
      if "$qemu" -L "$sysroot" -E "LD_LIBRARY_PATH=$libdir" "$work/load-$arch" "$lib" "${imports[@]}"; then
        loaded=$((loaded + 1))
      else
        status=1
      fi
    done
  done
done
[[ $loaded -gt 0 || $status -ne 0 ]] || skip "none of the libraries is an aarch64 or armhf one under */aarch64/ or */armhf/"
echo "board-load.sh: $loaded library loads succeeded$([[ $status -ne 0 ]] && echo ', some FAILED')"
exit $status

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Prints, for every example op (examples/<dir>/<dir>.cpp), the compile time of its translation unit
# (g++ -std=c++20 -O2 -fPIC -c; goal <= 2 s) and the stripped size of its aarch64 and armhf kernel
# libraries (goal <= 32 KiB for ResizeArea, which tests/board_abi asserts). Numbers only: CI runs it for the log and it never fails
# on a timing or a size (it fails only when something cannot be compiled).
#
#   scripts/measure.sh [BUILD_DIR]
#
# With BUILD_DIR (a CMake build of this tree), the libraries rknnop_add_op built there
# (BUILD_DIR/examples/<dir>/<Name>/<arch>/lib*.so) are measured; otherwise, or where one is missing,
# each library is cross-compiled here with the board flags when the cross compiler exists.
# aarch64 libraries link with -z max-page-size=4096 and the other AArch64 size flags as rknnop_add_op does (the boards use 4 KiB
# pages; the default 64 KiB alignment alone adds ~40 KiB of padding).
# Environment: CXX (default g++), BOOST_PFR_INCLUDE (dir holding boost/pfr.hpp; found if unset),
# MEASURE_RUNS (compiles per op, default 1; the median is printed), MEASURE_REFERENCE (default
# f348b30) and MEASURE_RATIO_RUNS (default 5): resize_area.cpp's compile time against that commit's
# (its tree from git archive into the temporary folder; the line says n/a and why where it cannot be
# measured: a shallow clone without the commit, no git checkout, no /usr/bin/time). CPU time on a
# shared or throttled machine moves by tens of percent between runs (CI printed 1.51 and 0.93 for two
# trees whose instruction counts differ by 0.1%), so the line gives the median's ratio and the fastest
# run's; MEASURE_INSTRUCTIONS=1 adds the noise-free one, the instructions g++ executes for each tree
# (valgrind's callgrind, about 3 minutes per tree; not in CI's run).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${1:-}"
cxx="${CXX:-g++}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Boost.PFR for the cross compilers: only boost/pfr*, so the host's /usr/include never shadows a
# cross compiler's sysroot headers.
pfr="${BOOST_PFR_INCLUDE:-}"
if [[ -z "$pfr" ]]; then
  hdr="$(echo '#include <boost/pfr.hpp>' | "$cxx" -std=c++20 -x c++ -M - 2>/dev/null | tr ' \\' '\n\n' | grep -m1 'boost/pfr.hpp$' || true)"
  [[ -n "$hdr" ]] && pfr="$(dirname "$(dirname "$hdr")")"
fi
if [[ -z "$pfr" || ! -f "$pfr/boost/pfr.hpp" ]]; then
  echo "measure.sh: Boost.PFR not found (set BOOST_PFR_INCLUDE)" >&2
  exit 1
fi
mkdir -p "$work/pfr/boost"
ln -s "$pfr/boost/pfr.hpp" "$work/pfr/boost/pfr.hpp"
ln -s "$pfr/boost/pfr" "$work/pfr/boost/pfr"

common=(-std=c++20 -O2 -fPIC -I"$root/include")
board=(-shared -fno-exceptions -fno-rtti -fvisibility=hidden -static-libgcc)
declare -A arch_cxx=([aarch64]=aarch64-linux-gnu-g++ [armhf]=arm-linux-gnueabihf-g++)
declare -A arch_flags=([aarch64]="-Wl,-z,max-page-size=4096 -mno-outline-atomics -mcmodel=tiny -Wl,--no-eh-frame-hdr" [armhf]="-mfp16-format=ieee -mfpu=neon-vfpv4 -mfloat-abi=hard")
declare -A arch_strip=([aarch64]=aarch64-linux-gnu-strip [armhf]=arm-linux-gnueabihf-strip)

runs="${MEASURE_RUNS:-1}"
seconds() {  # "wall / cpu" seconds of "$@", medians of $runs runs (cpu = user + sys, steadier on a loaded machine)
  if [[ -x /usr/bin/time ]]; then
    : > "$work/times"
    for ((run = 0; run < runs; ++run)); do
      /usr/bin/time -f '%e %U %S' -o "$work/time" "$@"
      cat "$work/time" >> "$work/times"
    done
    awk '{ wall[NR] = $1; cpu[NR] = $2 + $3 }
         function median(a, n,   i, j, t) {
           for (i = 2; i <= n; ++i) for (j = i; j > 1 && a[j - 1] > a[j]; --j) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
           return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
         }
         END { printf "%.2f / %.2f", median(wall, NR), median(cpu, NR) }' "$work/times"
  else
    local start end
    start=$(date +%s%N)
    "$@"
    end=$(date +%s%N)
    awk -v ns=$((end - start)) 'BEGIN { printf "%.2f / ?", ns / 1e9 }'
  fi
}

stripped_size() {  # bytes of a stripped copy of library $1 (strip tool $2)
  cp "$1" "$work/stripped.so"
  "$2" --strip-all "$work/stripped.so" 2>/dev/null || strip --strip-all "$work/stripped.so"
  stat -c %s "$work/stripped.so"
}

echo "rknnop example ops: $($cxx --version | head -1), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), compile median of $runs"
printf '%-18s %22s %16s %16s\n' "op" "compile -O2 wall/cpu" "aarch64 (KiB)" "armhf (KiB)"
for src in "$root"/examples/*/*.cpp; do
  dir="$(basename "$(dirname "$src")")"
  [[ "$(basename "$src" .cpp)" == "$dir" ]] || continue
  name="$(sed -n 's/^RKNNOP_EXPORT_OP(\([A-Za-z0-9_]*\)).*/\1/p' "$src" | head -1)"
  [[ -n "$name" ]] || continue  # an application among the examples (rknpu2_app), not an op
  lower="$(echo "$name" | tr '[:upper:]' '[:lower:]')"
  t="$(seconds "$cxx" "${common[@]}" -c "$src" -o "$work/$dir.o")"
  sizes=()
  for arch in aarch64 armhf; do
    lib=""
    if [[ -n "$build_dir" ]]; then
      lib="$(find "$build_dir/examples/$dir" -path "*/$arch/lib$lower.so" 2>/dev/null | head -1 || true)"
    fi
    origin="built"
    if [[ -z "$lib" ]] && command -v "${arch_cxx[$arch]}" > /dev/null; then
      # shellcheck disable=SC2086  # arch_flags is a flag list
      "${arch_cxx[$arch]}" "${common[@]}" -isystem "$work/pfr" "${board[@]}" ${arch_flags[$arch]} \
        "$src" -o "$work/$arch-$dir.so"
      lib="$work/$arch-$dir.so"
      origin="here"
    fi
    if [[ -n "$lib" ]]; then
      bytes="$(stripped_size "$lib" "${arch_strip[$arch]}")"
      sizes+=("$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1024 }') ($origin)")
    else
      sizes+=("n/a")
    fi
  done
  printf '%-18s %20s s %16s %16s\n' "$name" "$t" "${sizes[0]}" "${sizes[1]}"
done

# Compile time against a fixed earlier tree, side by side on this machine (absolute seconds differ by
# machine; the ratio does not): examples/resize_area/resize_area.cpp with this tree's headers and
# with those of the reference commit, compiled alternately, CPU time, median of MEASURE_RATIO_RUNS.
# Goal: <= 1.00 (issue 49: the compile time of f348b30, when the 2 s goal was met at 1.39 s).
reference="${MEASURE_REFERENCE:-f348b30}"
ratio_runs="${MEASURE_RATIO_RUNS:-5}"
# Why the ratio line cannot be printed here, or nothing when it can (the line then says n/a and why).
ratio_skipped=""
if ! git -C "$root" rev-parse --git-dir > /dev/null 2>&1; then
  ratio_skipped="$root is not a git checkout"
elif ! git -C "$root" cat-file -e "$reference^{commit}" 2>/dev/null; then
  if [[ "$(git -C "$root" rev-parse --is-shallow-repository 2>/dev/null)" == true ]]; then
    ratio_skipped="$reference is not in this shallow clone: git fetch --unshallow, or a full git clone as CI's"
  else
    ratio_skipped="$reference is not in this clone's history"
  fi
elif [[ ! -x /usr/bin/time ]]; then
  ratio_skipped="/usr/bin/time is missing (Debian package time) for the CPU times"
fi
if [[ -z "$ratio_skipped" ]]; then
  mkdir -p "$work/reference"
  git -C "$root" archive "$reference" include examples/resize_area | tar -x -C "$work/reference"
  : > "$work/ratio"
  for ((run = 0; run < ratio_runs; ++run)); do
    for tree in "$root" "$work/reference"; do
      /usr/bin/time -f '%U %S' -o "$work/time" "$cxx" -std=c++20 -O2 -I"$tree/include" \
        -c "$tree/examples/resize_area/resize_area.cpp" -o "$work/ratio.o"
      label=reference
      [[ "$tree" == "$root" ]] && label=this
      printf '%s %s\n' "$label" "$(cat "$work/time")" >> "$work/ratio"
    done
  done
  awk -v ref="$reference" -v n="$ratio_runs" '
    { cpu = $2 + $3; if ($1 == "this") now[++a] = cpu; else then_[++b] = cpu }
    function median(v, n,   i, j, t) {
      for (i = 2; i <= n; ++i) for (j = i; j > 1 && v[j - 1] > v[j]; --j) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
      return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
    }
    function least(v, n,   i, m) { m = v[1]; for (i = 2; i <= n; ++i) if (v[i] < m) m = v[i]; return m }
    END {
      lo = least(now, a); lo_ref = least(then_, b); x = median(now, a); y = median(then_, b)
      printf "resize_area.cpp g++ -O2 -c CPU time: this tree %.2f s / %s %.2f s = %.2f (goal <= 1.00; median of %d, alternating); fastest runs %.2f s / %.2f s = %.2f\n", x, ref, y, x / y, n, lo, lo_ref, lo / lo_ref
    }' "$work/ratio"
  if [[ "${MEASURE_INSTRUCTIONS:-0}" == 1 ]]; then
    if command -v valgrind > /dev/null; then
      instructions() {  # g++ and the programs it runs (cc1plus, as): the sum of callgrind's totals
        valgrind --tool=callgrind --callgrind-out-file=/dev/null --trace-children=yes "$cxx" -std=c++20 -O2 \
          -I"$1/include" -c "$1/examples/resize_area/resize_area.cpp" -o "$work/ratio.o" 2>&1 |
          awk '/Collected :/ { s += $NF } END { print s }'
      }
      now_ir="$(instructions "$root")" ref_ir="$(instructions "$work/reference")"
      awk -v x="$now_ir" -v y="$ref_ir" -v ref="$reference" 'BEGIN {
        printf "resize_area.cpp g++ -O2 -c instructions (callgrind): this tree %.3fG / %s %.3fG = %.3f (goal <= 1.00)\n", x / 1e9, ref, y / 1e9, x / y }'
    else
      echo "resize_area.cpp compile instructions: n/a (MEASURE_INSTRUCTIONS=1 needs valgrind: scripts/install-deps.sh --perf)"
    fi
  fi
else
  echo "resize_area.cpp compile ratio: n/a ($ratio_skipped)"
fi
echo "goals: compile <= 2 s per op; ResizeArea <= 32 KiB stripped per board library"
echo "(built) = measured from BUILD_DIR; (here) = cross-compiled by this script with the board flags"

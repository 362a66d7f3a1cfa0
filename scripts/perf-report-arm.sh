#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The boards' instruction sets: the benchmarks cross-built for aarch64 (RK1808/RK1806's Cortex-A35,
# RK3399Pro's A53/A72) and armhf (RV1109/RV1126's Cortex-A7), run under qemu-user, with instruction
# counts from one run: every instruction qemu executes between bench_roi_begin() and bench_roi_end()
# (bench/side_by_side.hpp's --callgrind mode: one warm-up call, then the counted calls), summed from
# qemu's own logs (-d in_asm,exec,nochain: each translated block's instructions once, then every
# block executed), deterministic for one thread. Prints per architecture:
#   - ResizeArea's kernel (float32 480x640x3 -> 240x320 and -> 206x274) / OpenCV cv::resize(INTER_AREA)
#     from Debian's arm64/armhf packages, one thread, on float16 values (what the board hands a custom
#     op) and on float32 pixel values;
#   - SDK node / hand-written toolkit-style C node (bench/toolkit_*.c) through the host runtime on
#     float16 tensors: Exp 1x3x8x8, 1x3x480x640; ResizeArea tiny 4x4x3 -> 2x2, 2x, 7:3;
#   - the tiny ResizeArea node with 2 threads / 1 thread (the thread pool's cost of asking);
#   - with RKNNOP_RKNPU2_RUNTIME (a folder with include/rknn_custom_op.h): the RKNPU2 plugins generated
#     from examples/resize_area and examples/exp / the same ops hand-written in the style of Rockchip's
#     C demos (bench/rknpu2_resize_area.c, bench/rknpu2_exp.c), compute on FLOAT32 NCHW tensors:
#     ResizeArea tiny 1x3x4x4 -> 2x2, 2x, 7:3; Exp 1x3x8x8, 1x3x480x640;
#   - 64-bit digests of the results (ResizeArea float32 kernel; float16 node outputs; RKNPU2 plugins) against the
#     x86-64 build's, when BUILD_ROOT/native has the benchmarks.
# Numbers only, never a pass/fail (the goals are stated beside them).
#
#   scripts/perf-report-arm.sh [BUILD_ROOT]          (default ./build; builds BUILD_ROOT/perf-<arch>)
# Environment: RKNNOP_JOBS (default 2), ARCHES (default "aarch64 armhf"), NO_WRITE=1 (print only;
# otherwise bench/README.md is rewritten between <!-- perf-report-arm:begin --> and :end -->),
# RKNNOP_RKNPU2_RUNTIME (required: unset, or a folder without include/rknn_custom_op.h, and the
# script fails at once, exit 2, with an "rknnop: perf-report-arm:" line naming the variable, unless
# RKNNOP_PERF_NO_RKNPU2=1 asks for a report without the RKNPU2 rows; docs/performance.md §1).
# Needs: g++-aarch64-linux-gnu g++-arm-linux-gnueabihf qemu-user (scripts/install-deps.sh), and, as
# root once, the foreign dpkg architectures (cmake/fetch-cross-deps.sh adds them and downloads the
# target packages: OpenCV's imgproc and what it loads, extracted, not installed).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:-$root/build}"
jobs="${RKNNOP_JOBS:-2}"
read -r -a arches <<< "${ARCHES:-aarch64 armhf}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
generator=()
command -v ninja > /dev/null && generator=(-G Ninja)

# OpenCV's imgproc for the target and the shared libraries it loads (libopencv_core links libGL
# through GLX; BLAS/LAPACK through Debian's alternatives, found here in their blas/ lapack/ dirs).
opencv_packages=(libopencv-core406 libopencv-imgproc406 libopencv-core-dev libopencv-imgproc-dev libtbb12
  libtbbmalloc2 libblas3 liblapack3 libgfortran5 libglx0 libgl1 libglvnd0 libx11-6 libxcb1 libxau6
  libxdmcp6 libbsd0 libmd0 zlib1g)

# instructions CALLS: what `qemu ... prog --callgrind NAME` executes between the markers.
count_instructions() {  # qemu ld-prefix library-path prog name
  local qemu=$1 prefix=$2 libs=$3 prog=$4 name=$5 fifo="$work/qemu.log" calls begin end
  # The markers' addresses: the programs are linked at a fixed address (-no-pie below), where qemu
  # loads them; qemu's own symbol lookup leaves these names out of its logs.
  begin="$("$nm" "$prog" | awk '$3 == "bench_roi_begin" { sub(/^0+/, "", $1); print $1 }')"
  end="$("$nm" "$prog" | awk '$3 == "bench_roi_end" { sub(/^0+/, "", $1); print $1 }')"
  rm -f "$fifo" && mkfifo "$fifo"
  awk -v begin="$begin" -v end="$end" '
    /^IN:/ { block = 1; pc = ""; n = 0; next }
    block && /^0x[0-9a-fA-F]+:/ {
      if (pc == "") { pc = tolower($1); sub(/^0x0*/, "", pc); sub(/:$/, "", pc) }
      ++n; next
    }
    block && NF == 0 { if (pc != "") size[pc] = n; block = 0; next }
    /^Trace / {
      at = $4; sub(/^\[/, "", at); split(at, f, "/"); pc = tolower(f[2]); sub(/^0+/, "", pc)
      if (!on) { if (pc == begin) on = 1; next }
      if (pc == end) { on = 0; next }
      if (pc in size) total += size[pc]; else ++unknown
    }
    END { printf "%d %d\n", total, unknown }' < "$fifo" > "$work/count" &
  local reader=$!
  calls="$("$qemu" -L "$prefix" -E "LD_LIBRARY_PATH=$libs" -d in_asm,exec,nochain -D "$fifo" "$prog" --callgrind "$name" |
    awk '$1 == "callgrind" { print $3 }')"
  wait "$reader"
  read -r total unknown < "$work/count"
  [ "$unknown" = 0 ] || echo "rknnop: perf-report-arm: $unknown blocks of $name were executed before qemu listed them" >&2
  [ "$total" != 0 ] || echo "rknnop: perf-report-arm: no instructions counted for $name (markers $begin, $end)" >&2
  awk -v t="$total" -v c="$calls" 'BEGIN { printf "%.0f", t / c }'
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

declare -A ir digest
rknpu2_cases=(resize_tiny resize_2x resize_7:3 exp_1x3x8x8 exp_1x3x480x640)
rknpu2=""
if [ -f "${RKNNOP_RKNPU2_RUNTIME:-}/include/rknn_custom_op.h" ]; then
  rknpu2=yes
elif [ "${RKNNOP_PERF_NO_RKNPU2:-0}" = 1 ]; then
  echo "rknnop: perf-report-arm: RKNNOP_PERF_NO_RKNPU2=1: no RKNPU2 rows (asked for)" >&2
else
  # A report without its RKNPU2 rows is not the report: fail, unless the caller asked for that.
  if [ -z "${RKNNOP_RKNPU2_RUNTIME:-}" ]; then
    echo "rknnop: perf-report-arm: RKNNOP_RKNPU2_RUNTIME is not set: the RKNPU2 rows need the runtime folder" \
      "(e.g. RKNNOP_RKNPU2_RUNTIME=../shared/rknpu2/runtime-1.6.0); RKNNOP_PERF_NO_RKNPU2=1 runs without them" >&2
  else
    echo "rknnop: perf-report-arm: RKNNOP_RKNPU2_RUNTIME=$RKNNOP_RKNPU2_RUNTIME has no include/rknn_custom_op.h" \
      "(the RKNPU2 runtime folder, e.g. ../shared/rknpu2/runtime-1.6.0); RKNNOP_PERF_NO_RKNPU2=1 runs without" \
      "the RKNPU2 rows" >&2
  fi
  exit 2
fi
for arch in "${arches[@]}"; do
  case "$arch" in
    aarch64) triple=aarch64-linux-gnu debarch=arm64 qemu=qemu-aarch64 ;;
    armhf) triple=arm-linux-gnueabihf debarch=armhf qemu=qemu-arm ;;
    *) echo "rknnop: perf-report-arm: unknown architecture '$arch' (aarch64, armhf)" >&2; exit 2 ;;
  esac
  deps="$("$root/cmake/fetch-cross-deps.sh" "$debarch" "$out/perf-deps/$debarch" "${opencv_packages[@]}")"
  libdirs="$deps/usr/lib/$triple:$deps/usr/lib/$triple/blas:$deps/usr/lib/$triple/lapack:$deps/lib/$triple"
  dir="$out/perf-$arch"
  # The kernel libraries' flags: -O2; the glue compiled for size in the RKNN v1 libraries and for speed
  # in the RKNPU2 plugins (RKNNOP_BENCH_BOARD_GLUE), rknnop_add_op's -ffp-contract=off: bench/CMakeLists.txt.
  cmake -S "$root" -B "$dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_FLAGS_RELEASE="-O2 -DNDEBUG" -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" -DRKNNOP_BENCH_BOARD_GLUE=ON \
    -DCMAKE_TOOLCHAIN_FILE="$root/cmake/toolchains/$triple.cmake" -DRKNNOP_CROSS_EXTRA_ROOTS="$deps" \
    -DCMAKE_EXE_LINKER_FLAGS="-no-pie -Wl,-rpath-link,${libdirs//:/,-rpath-link,}" \
    -DRKNNOP_BUILD_BENCHMARKS=ON -DRKNNOP_BUILD_TESTS=OFF -DRKNNOP_BUILD_EXAMPLES=OFF -DRKNNOP_INSTALL=OFF \
    -DRKNNOP_RKNPU2_RUNTIME="${RKNNOP_RKNPU2_RUNTIME:-}" \
    -DRKNNOP_WARNINGS_AS_ERRORS=OFF > "$work/configure-$arch.log" 2>&1 || { cat "$work/configure-$arch.log"; exit 1; }
  grep -q "OpenCV (core, imgproc) not found" "$work/configure-$arch.log" &&
    echo "rknnop: perf-report-arm: $arch: OpenCV was not found in $deps" >&2
  targets=(bench_resize_area bench_node_cost bench_threads)
  [ -n "$rknpu2" ] && targets+=(bench_rknpu2)
  cmake --build "$dir" -j "$jobs" --target "${targets[@]}" > "$work/build-$arch.log" 2>&1 ||
    { cat "$work/build-$arch.log"; exit 1; }
  prefix="/usr/$triple" nm="$triple-nm"
  for c in kernel_f16_2x opencv_f16_2x kernel_f16_7:3 opencv_f16_7:3 kernel_2x opencv_2x kernel_7:3 opencv_7:3; do
    ir[$arch/$c]="$(count_instructions "$qemu" "$prefix" "$libdirs" "$dir/bench/bench_resize_area" "$c")"
  done
  for c in exp_1x3x8x8 exp_1x3x480x640 resize_tiny resize_2x resize_7:3; do
    for who in sdk c; do
      ir[$arch/${who}_$c]="$(count_instructions "$qemu" "$prefix" "$libdirs" "$dir/bench/bench_node_cost" "${who}_$c")"
    done
  done
  # The tiny node's thread counts; the 480x640 2x node and its phases alone (bench_threads' node_phases:
  # what the node / kernel goal's ratio is made of).
  for c in node_resize_tiny_1t node_resize_tiny_2t node_resize_2x_1t phase_resize_2x_read_1t \
    phase_resize_2x_allocate_1t phase_resize_2x_kernel_1t phase_resize_2x_write_1t; do
    ir[$arch/$c]="$(count_instructions "$qemu" "$prefix" "$libdirs" "$dir/bench/bench_threads" "$c")"
  done
  if [ -n "$rknpu2" ]; then
    for c in "${rknpu2_cases[@]}"; do
      for who in sdk c; do
        ir[$arch/rknpu2_${who}_$c]="$(count_instructions "$qemu" "$prefix" "$libdirs" "$dir/bench/bench_rknpu2" "${who}_$c")"
        digest[$arch/rknpu2_${who}_$c]="$("$qemu" -L "$prefix" -E "LD_LIBRARY_PATH=$libdirs" "$dir/bench/bench_rknpu2" --digest "${who}_$c" | awk '{ print $5 }')"
      done
    done
  fi
  for c in kernel_f16_2x kernel_f16_7:3 kernel_2x kernel_7:3; do
    digest[$arch/$c]="$("$qemu" -L "$prefix" -E "LD_LIBRARY_PATH=$libdirs" "$dir/bench/bench_resize_area" --digest "$c" | awk '{ print $5 }')"
  done
  for c in sdk_exp_1x3x480x640 c_exp_1x3x480x640 sdk_resize_2x sdk_resize_7:3 c_resize_2x; do
    digest[$arch/$c]="$("$qemu" -L "$prefix" -E "LD_LIBRARY_PATH=$libdirs" "$dir/bench/bench_node_cost" --digest "$c" | awk '{ print $5 }')"
  done
done
native="$out/native/bench"
for c in kernel_f16_2x kernel_f16_7:3 kernel_2x kernel_7:3; do
  [ -x "$native/bench_resize_area" ] && digest[x86-64/$c]="$("$native/bench_resize_area" --digest "$c" | awk '{ print $5 }')"
done
for c in sdk_exp_1x3x480x640 c_exp_1x3x480x640 sdk_resize_2x sdk_resize_7:3 c_resize_2x; do
  [ -x "$native/bench_node_cost" ] && digest[x86-64/$c]="$("$native/bench_node_cost" --digest "$c" | awk '{ print $5 }')"
done

if [ -n "$rknpu2" ] && [ -x "$native/bench_rknpu2" ]; then
  for c in "${rknpu2_cases[@]}"; do
    for who in sdk c; do digest[x86-64/rknpu2_${who}_$c]="$("$native/bench_rknpu2" --digest "${who}_$c" | awk '{ print $5 }')"; done
  done
fi

report="$work/report.txt"
{
  echo "# ARM instruction counts under qemu-user ($(qemu-aarch64 --version | head -1 | sed 's/ *Copyright.*//');" \
    "$(aarch64-linux-gnu-g++ --version | head -1), -O2 -ffp-contract=off; one thread unless said)"
  printf '%-58s' "what"
  for arch in "${arches[@]}"; do printf ' %12s' "$arch"; done
  printf ' %s\n' goal
  row() {  # label goal numerator denominator
    printf '%-58s' "$1"
    for arch in "${arches[@]}"; do printf ' %12s' "$(ratio "${ir[$arch/$3]}" "${ir[$arch/$4]}")"; done
    printf ' %s\n' "$2"
  }
  row "ResizeArea kernel / OpenCV INTER_AREA, float16 values, 2x" "<= 0.5" kernel_f16_2x opencv_f16_2x
  row "ResizeArea kernel / OpenCV INTER_AREA, float16 values, 7:3" "<= 0.5" kernel_f16_7:3 opencv_f16_7:3
  row "ResizeArea kernel / OpenCV INTER_AREA, float32 values, 2x" "" kernel_2x opencv_2x
  row "ResizeArea kernel / OpenCV INTER_AREA, float32 values, 7:3" "" kernel_7:3 opencv_7:3
  for c in exp_1x3x8x8 exp_1x3x480x640 resize_tiny resize_2x resize_7:3; do
    row "SDK node / toolkit-style C node, $c" "<= 1.0" "sdk_$c" "c_$c"
  done
  row "ResizeArea node / its kernel, float16 tensors 480x640x3, 2x" "<= 1.5" sdk_resize_2x kernel_f16_2x
  row "ResizeArea node / its kernel, float16 tensors 480x640x3, 7:3" "<= 1.5" sdk_resize_7:3 kernel_f16_7:3
  row "tiny ResizeArea node, 2 threads / 1 thread" "<= 1.05" node_resize_tiny_2t node_resize_tiny_1t
  # Diagnostic: the 2x node's phases, each alone, / the same kernel alone (pixel values 0..255).
  row "ResizeArea node, 2x, 480x640 pixels / its kernel phase" "" node_resize_2x_1t phase_resize_2x_kernel_1t
  for p in read allocate write; do
    row "  its $p phase alone / its kernel phase" "" "phase_resize_2x_${p}_1t" phase_resize_2x_kernel_1t
  done
  if [ -n "$rknpu2" ]; then
    for c in "${rknpu2_cases[@]}"; do
      row "RKNPU2 plugin generated / hand-written C, FLOAT32 NCHW, $c" "<= 1.0" "rknpu2_sdk_$c" "rknpu2_c_$c"
    done
  fi
  echo
  echo "# instructions per call"
  for key in $(printf '%s\n' "${!ir[@]}" | sort); do echo "ir $key ${ir[$key]}"; done
  echo
  echo "# result digests (FNV-1a 64 of the output bytes; float32 kernel on float16 and float32 values, float16 nodes," \
    "FLOAT32 RKNPU2 plugins)"
  digest_cases=(kernel_f16_2x kernel_f16_7:3 kernel_2x kernel_7:3 sdk_exp_1x3x480x640 c_exp_1x3x480x640 sdk_resize_2x
    sdk_resize_7:3 c_resize_2x)
  if [ -n "$rknpu2" ]; then
    for c in "${rknpu2_cases[@]}"; do digest_cases+=("rknpu2_sdk_$c" "rknpu2_c_$c"); done
  fi
  for c in "${digest_cases[@]}"; do
    line="digest $c" same=yes first=""
    for arch in x86-64 "${arches[@]}"; do
      d="${digest[$arch/$c]:-}"
      [ -n "$d" ] || continue
      line+=" $arch=$d"
      [ -z "$first" ] && first="$d"
      [ "$d" = "$first" ] || same=no
    done
    echo "$line bit-identical=$same"
  done
} > "$report"
cat "$report"
if [[ "${NO_WRITE:-}" != 1 ]]; then
  python3 - "$root/bench/README.md" "$report" <<'PY'
import sys
path, report = sys.argv[1:]
begin, end = "<!-- perf-report-arm:begin -->", "<!-- perf-report-arm:end -->"
text = open(path, encoding="utf-8").read()
b, e = text.index(begin) + len(begin), text.index(end)
command = "scripts/perf-report-arm.sh"
block = "\n```text\n$ " + command + "\n" + open(report, encoding="utf-8").read() + "```\n"
open(path, "w", encoding="utf-8").write(text[:b] + block + text[e:])
PY
  echo "rknnop: perf-report-arm: bench/README.md updated"
fi

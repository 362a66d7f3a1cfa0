#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# One run of every performance and size figure the docs quote, and the docs rewritten from it, so
# docs/performance.md and bench/README.md cannot drift apart or from the build:
#   - bench_resize_area, bench_node_cost, bench_convert, bench_examples: interleaved side-by-side CPU
#     times (min / median of ROUNDS rounds) and their ratios; bench_threads: the same in wall time,
#     1 thread vs 2 (rknnop::parallel_for) and vs OpenCV with 2 threads;
#   - callgrind instruction counts of the same contenders (noise-free; needs valgrind);
#   - bench_rknpu2 (when the build has it: configured with RKNNOP_RKNPU2_RUNTIME): the RKNPU2 plugins
#     generated from examples/resize_area and examples/exp against the same ops hand-written in
#     Rockchip's C demo style;
#   - scripts/measure.sh: compile time (median of 5), resize_area.cpp's compile against f348b30's (CPU
#     time and callgrind instructions: MEASURE_INSTRUCTIONS=1) and stripped board library sizes.
# The boards' instruction sets (aarch64, armhf under qemu-user): scripts/perf-report-arm.sh.
# Rewrites docs/performance.md between <!-- perf-table:begin --> and <!-- perf-table:end --> and bench/README.md
# between <!-- perf-report:begin --> and <!-- perf-report:end -->. Numbers only, never a pass/fail.
#
#   scripts/perf-report.sh BUILD_DIR     (configured with -DRKNNOP_BUILD_BENCHMARKS=ON, RelWithDebInfo)
# Needs valgrind and OpenCV's imgproc: bash scripts/install-deps.sh --perf (without them it exits 2 before
# measuring, naming what is missing; with NO_WRITE=1 it prints the report without those rows).
# Environment: ROUNDS (default 31), NO_WRITE=1 (print only).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:?usage: scripts/perf-report.sh BUILD_DIR}"
rounds="${ROUNDS:-31}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

progs=(bench_resize_area bench_node_cost bench_convert bench_examples bench_threads)
cmake --build "$build" --target help 2>/dev/null | grep -qw bench_rknpu2 && progs+=(bench_rknpu2)
cmake --build "$build" --target "${progs[@]}" ResizeArea_aarch64 ResizeArea_armhf -j2 > "$work/build.log" 2>&1 ||
  { cat "$work/build.log"; exit 1; }
bin="$build/bench"
# Without valgrind or OpenCV the report's Ir rows and OpenCV columns would be written as -nan or blank:
# refused unless only printed (NO_WRITE=1).
missing=()
command -v valgrind > /dev/null || missing+=("valgrind (the Ir rows)")
"$bin/bench_resize_area" --list 2> /dev/null | grep -q '^opencv_2x ' ||
  missing+=("OpenCV's imgproc in $build (the OpenCV columns; configure the build again once it is installed)")
if [ ${#missing[@]} -gt 0 ] && [ "${NO_WRITE:-0}" != 1 ]; then
  printf 'rknnop: perf-report: missing %s\n' "${missing[@]}" >&2
  echo "rknnop: perf-report: bash scripts/install-deps.sh --perf installs them; NO_WRITE=1 prints a partial report" >&2
  exit 2
fi

load() { cut -d' ' -f1-3 /proc/loadavg; }
out="$work/report.txt"
{
  echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores;" \
       "$(g++ --version | head -1); load at start $(load)"
  for prog in "${progs[@]}"; do
    echo
    "$bin/$prog" --rounds "$rounds"
  done
} > "$out"

# Callgrind: instructions per call of one contender (after a warm-up call).
ir() {
  local prog="$1" name="$2" file="$work/cg.out"
  local calls
  calls="$(valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$file" "$bin/$prog" --callgrind "$name" 2>/dev/null | awk '{ print $3 }')"
  awk -v calls="$calls" '/^totals:/ { printf "%.0f", $2 / calls }' "$file"
}
ratio_ir() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
# The calling thread's share of one contender's instructions, callgrind per thread with fair
# scheduling (without it valgrind's one-thread-at-a-time scheduler leaves every range to the caller).
caller_share() {
  local prog="$1" name="$2" file="$work/cgt.out"
  rm -f "$file"*
  valgrind --tool=callgrind --separate-threads=yes --fair-sched=yes --instr-atstart=no \
    --callgrind-out-file="$file" "$bin/$prog" --callgrind "$name" > /dev/null 2>&1
  awk '/^totals:/ { t[FILENAME] = $2; sum += $2 } END { for (f in t) if (f ~ /-01$/) printf "%.2f", t[f] / sum }' \
    "$file"-[0-9]*
}
if command -v valgrind > /dev/null; then
  {
    echo
    echo "# callgrind instructions per call (valgrind $(valgrind --version | sed 's/valgrind-//'))"
    for c in kernel_2x opencv_2x memcpy_2x kernel_7:3 opencv_7:3 memcpy_7:3; do echo "ir bench_resize_area $c $(ir bench_resize_area "$c")"; done
    for c in exp_1x3x8x8 exp_1x3x480x640 resize_tiny resize_2x resize_7:3; do
      echo "ir bench_node_cost sdk_$c $(ir bench_node_cost "sdk_$c")"
      echo "ir bench_node_cost c_$c $(ir bench_node_cost "c_$c")"
    done
    for c in exp truncate_div truncate_div_row quantized_max_pool; do echo "ir bench_examples $c $(ir bench_examples "$c")"; done
    for c in node_resize_2x_2t node_resize_1080p_2x_2t; do
      echo "share bench_threads $c $(caller_share bench_threads "$c")"
    done
    if [[ -x "$bin/bench_rknpu2" ]]; then
      for c in resize_tiny resize_2x resize_7:3 exp_1x3x8x8 exp_1x3x480x640; do
        echo "ir bench_rknpu2 sdk_$c $(ir bench_rknpu2 "sdk_$c")"
        echo "ir bench_rknpu2 c_$c $(ir bench_rknpu2 "c_$c")"
      done
    fi
  } >> "$out"
fi
{
  echo
  MEASURE_RUNS=5 MEASURE_INSTRUCTIONS=1 "$root/scripts/measure.sh" "$build"
  echo
  echo "load at end $(load)"
} >> "$out"
cat "$out"

# --- the figures docs/performance.md's table quotes -----------------------------------------------------------
ratio() {  # "min / median" of a ratio line
  awk -v label="$1" 'index($0, "ratio " label " ") == 1 {
    for (i = 1; i <= NF; ++i) { if ($i == "min") m = $(i + 1); if ($i == "median") d = $(i + 1) }
    printf "%.2f / %.2f", m, d }' "$out"
}
irv() { awk -v p="$1" -v c="$2" '$1 == "ir" && $2 == p && $3 == c { print $4 }' "$out"; }
irr() {
  local a b
  a="$(irv "$1" "$2")"
  b="$(irv "$1" "$3")"
  [[ -n "$a" && -n "$b" ]] && ratio_ir "$a" "$b" || echo "n/a"
}
op_line() { awk -v op="$1" '$1 == op' "$out"; }
med() { ratio "$1" | cut -d/ -f2 | tr -d ' '; }  # the median of a ratio line
tmed() { awk -v c="$1" '$1 == "time" && $2 == c { print $4 }' "$out"; }  # a contender's median time
# The ResizeArea node's phases alone (bench_threads' node_phases), one thread, each / the memcpy: read
# (copy in + widening: its copy alone), allocate, kernel, write (checks, narrowing, copy out: its copy
# alone), and the node's median less the phases' medians (the rest: the runtime's call, params, views,
# guards, dispatches), all over the memcpy's median.
phases() {
  local t="$1" m
  m="$(tmed "memcpy_resize_$t")"
  printf '%s (copy %s), %s, %s, %s (copy %s), rest %s' "$(med "phase resize $t read 1t/memcpy")" \
    "$(med "phase resize $t copy_in 1t/memcpy")" "$(med "phase resize $t allocate 1t/memcpy")" \
    "$(med "phase resize $t kernel 1t/memcpy")" "$(med "phase resize $t write 1t/memcpy")" \
    "$(med "phase resize $t copy_out 1t/memcpy")" \
    "$(awk -v n="$(tmed "node_resize_${t}_1t")" -v m="$m" -v a="$(tmed "phase_resize_${t}_read_1t")" \
      -v b="$(tmed "phase_resize_${t}_allocate_1t")" -v c="$(tmed "phase_resize_${t}_kernel_1t")" \
      -v d="$(tmed "phase_resize_${t}_write_1t")" 'BEGIN { printf "%.2f", (n - a - b - c - d) / m }')"
}
phases_2t() {
  local t="$1"
  printf '%s, %s, %s, %s' "$(med "phase resize $t read 2 threads/1")" "$(med "phase resize $t allocate 2 threads/1")" \
    "$(med "phase resize $t kernel 2 threads/1")" "$(med "phase resize $t write 2 threads/1")"
}
resize_line="$(op_line ResizeArea)"
compile_cpu="$(echo "$resize_line" | awk '{ print $4 }')"
# resize_area.cpp against the reference commit (issue 49: <= 1.00): CPU median; fastest runs; instructions.
compile_ratio="$(awk '/^resize_area.cpp g\+\+ -O2 -c CPU time:/ { for (i = 1; i <= NF; ++i) if ($i == "=") r[++n] = $(i + 1) }
  /^resize_area.cpp g\+\+ -O2 -c instructions/ { for (i = 1; i <= NF; ++i) if ($i == "=") ir = $(i + 1) }
  END { printf "%s; %s; %s", (n ? r[1] : "n/a"), (n >= 2 ? r[2] : "n/a"), (ir != "" ? ir : "n/a") }' "$out")"
compile_reference="$(sed -n 's/^resize_area.cpp g++ -O2 -c CPU time: this tree [0-9.]* s \/ \([^ ]*\) .*/\1/p' "$out")"
aarch64_kib="$(echo "$resize_line" | awk '{ print $6 }')"
armhf_kib="$(echo "$resize_line" | awk '{ print $8 }')"
convert="$(awk '/^time  half_to_float_convert / { c = $4 } /^time  half_to_float_scalar / { s = $4 } END { printf "%.0fx", s / c }' "$out")"
start_load="$(sed -n 's/.*load at start \(.*\)$/\1/p' "$out")"
end_load="$(sed -n 's/^load at end \(.*\)$/\1/p' "$out")"
# The processor named in the table: the wall-time ratios to a memcpy depend on it (its caches), the
# instruction counts do not.
cpu_model="$(sed -n 's/^machine: \([^,]*\),.*/\1/p' "$out")"

table="$work/table.md"
cat > "$table" <<EOF
Generated by \`scripts/perf-report.sh\` ($(date -u +%Y-%m-%d), load average $start_load at start, $end_load
at end, $(nproc) cores of an ${cpu_model:-unnamed processor} shared): times are this thread's CPU time, min / median of $rounds interleaved
rounds; Ir = callgrind instructions per call. Full output: bench/README.md.

| what | result | goal |
|---|---|---|
| ResizeArea kernel / OpenCV \`INTER_AREA\` (1 thread, f32 3x480x640 → 240x320 / → 206x274), Ir | $(irr bench_resize_area kernel_2x opencv_2x) / $(irr bench_resize_area kernel_7:3 opencv_7:3) | ≤ 1.0 |
| same, CPU time, min / median, one call from cold caches: 2x; 7:3 | $(ratio "kernel/opencv 2x"); $(ratio "kernel/opencv 7:3") | ≤ 1.0 |
| same, 8 calls back to back (warm caches): 2x; 7:3 | $(ratio "kernel/opencv hot 2x"); $(ratio "kernel/opencv hot 7:3") | ≤ 1.0 |
| ResizeArea kernel / memcpy of input + output, min / median, cold: 2x; 7:3 | $(ratio "kernel/memcpy 2x"); $(ratio "kernel/memcpy 7:3") | ≤ 3 |
| same, warm: 2x; 7:3 | $(ratio "kernel/memcpy hot 2x"); $(ratio "kernel/memcpy hot 7:3") | ≤ 3 |
| SDK node / toolkit-style C node, Ir: Exp 1x3x8x8, 1x3x480x640; ResizeArea tiny, 2x, 7:3 | $(irr bench_node_cost sdk_exp_1x3x8x8 c_exp_1x3x8x8), $(irr bench_node_cost sdk_exp_1x3x480x640 c_exp_1x3x480x640); $(irr bench_node_cost sdk_resize_tiny c_resize_tiny), $(irr bench_node_cost sdk_resize_2x c_resize_2x), $(irr bench_node_cost sdk_resize_7:3 c_resize_7:3) | ≤ 1.0 |
| same, CPU time, median | $(med "sdk/c exp_1x3x8x8"), $(med "sdk/c exp_1x3x480x640"); $(med "sdk/c resize_tiny"), $(med "sdk/c resize_2x"), $(med "sdk/c resize_7:3") | ≤ 1.0 |
| RKNPU2 plugin generated from the op / hand-written in Rockchip's C demo style, compute on FLOAT32 NCHW, Ir: ResizeArea tiny, 2x, 7:3 | $(irr bench_rknpu2 sdk_resize_tiny c_resize_tiny), $(irr bench_rknpu2 sdk_resize_2x c_resize_2x), $(irr bench_rknpu2 sdk_resize_7:3 c_resize_7:3) | ≤ 1.0 |
| same, Exp (\`rknnop::each_element\`: the one pass, in place on the runtime's memory): 1x3x8x8, 1x3x480x640 | $(irr bench_rknpu2 sdk_exp_1x3x8x8 c_exp_1x3x8x8), $(irr bench_rknpu2 sdk_exp_1x3x480x640 c_exp_1x3x480x640) | ≤ 1.0 |
| ResizeArea kernel, 2 threads / 1 thread, wall time, median: 2x; 7:3; 1080x1920 → 540x960 | $(med "resize 2x 2 threads/1"); $(med "resize 7:3 2 threads/1"); $(med "resize 1080p_2x 2 threads/1") | ≤ 0.60 |
| same, 2 threads / OpenCV \`INTER_AREA\` with \`cv::setNumThreads(2)\`, median | $(med "resize 2x 2t/opencv 2t"); $(med "resize 7:3 2t/opencv 2t"); $(med "resize 1080p_2x 2t/opencv 2t") | ≤ 1.0 |
| ResizeArea node on float16 tensors through the host runtime (copies, conversions, kernel), 2 threads / 1, wall, median: 480x640 → 240x320; 1080x1920 → 540x960 | $(med "node resize 2x 2 threads/1"); $(med "node resize 1080p_2x 2 threads/1") | ≤ 0.60 |
| same, 1 thread / a memcpy of the node's input + output bytes (float16), wall, median: 480x640 → 240x320; 1080x1920 → 540x960 | $(med "node resize 2x 1t/memcpy"); $(med "node resize 1080p_2x 1t/memcpy") | ≤ 4; ≤ 3 |
| same node's phases alone, through the node's own functions (diagnostic: what the ratio above is made of), 1 thread / the same memcpy, median: read (its copy alone), allocate, kernel, write (its copy alone), the node less their sum; 480x640 → 240x320 \| 1080x1920 → 540x960 | $(phases 2x) \| $(phases 1080p_2x) | |
| same phases, 2 threads / 1, median: read, allocate, kernel, write; 480x640 \| 1080x1920 | $(phases_2t 2x) \| $(phases_2t 1080p_2x) | |
| identity op's node (float16 480x640x3 in and out, the kernel copies; \`rknnop::each_element\`: the one-pass node), 1 thread / memcpy of its input + output bytes; 2 threads / 1, wall, median | $(med "node identity 480x640 1t/memcpy"); $(med "node identity 480x640 2 threads/1") | ≤ 2; ≤ 0.60 |
| same op as a kernel of its own (\`parallel_for\` and \`memcpy\`: the ordinary pipeline), the same two ratios (diagnostic) | $(med "node identity_kernel 480x640 1t/memcpy"); $(med "node identity_kernel 480x640 2 threads/1") | |
| same, the calling thread's share of the node's instructions with 2 threads (callgrind per thread, fair scheduling; diagnostic): 480x640; 1080x1920 | $(awk '$1 == "share" && $3 == "node_resize_2x_2t" { print $4 }' "$out"); $(awk '$1 == "share" && $3 == "node_resize_1080p_2x_2t" { print $4 }' "$out") | 0.50 is an even split |
| Exp 1x3x480x640 kernel, 2 threads / 1 thread; tiny ResizeArea node (4x4x3 → 2x2), wall, median | $(med "exp 1x3x480x640 2 threads/1"); $(med "node resize tiny 2 threads/1") | ≤ 0.60; ≤ 1.05 |
| compile time of resize_area.cpp, \`g++ -O2 -c\`, CPU, median of 5 | ${compile_cpu} s | ≤ 2 s |
| same, this tree / ${compile_reference:-the reference commit}, side by side: CPU median of 5; fastest runs; instructions (callgrind) | ${compile_ratio} | ≤ 1.00 |
| ResizeArea aarch64 / armhf library, stripped | ${aarch64_kib} KiB / ${armhf_kib} KiB | ≤ 32 KiB |
| float16 → float32 bulk conversion (F16C) vs scalar loop, min times | ${convert} faster | |
EOF

replace_between() {  # file begin-marker end-marker content-file
  python3 - "$1" "$2" "$3" "$4" <<'PY'
import sys
path, begin, end, content = sys.argv[1:]
text = open(path, encoding="utf-8").read()
b, e = text.index(begin) + len(begin), text.index(end)
open(path, "w", encoding="utf-8").write(text[:b] + "\n" + open(content, encoding="utf-8").read() + text[e:])
PY
}
if [[ "${NO_WRITE:-}" != 1 ]]; then
  replace_between "$root/docs/performance.md" "<!-- perf-table:begin -->" "<!-- perf-table:end -->" "$table"
  { echo '```text'; cat "$out"; echo '```'; } > "$work/report.md"
  replace_between "$root/bench/README.md" "<!-- perf-report:begin -->" "<!-- perf-report:end -->" "$work/report.md"
  echo "perf-report: docs/performance.md and bench/README.md updated"
else
  cat "$table"
fi

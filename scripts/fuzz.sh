#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds rknnop's libFuzzer targets (tests/fuzz) with clang-16, ASan and UBSan in a separate build
# ($RKNNOP_BUILD_ROOT/fuzz, default ./build/fuzz) and runs each one for N seconds from its seed
# corpus (tests/fuzz/corpus/<target>/ plus seeds generated here), on a copy in a temporary
# directory so the repository is never modified. Exits non-zero on any crash, leak, timeout or
# out-of-memory and prints the reproducer's path (kept under $RKNNOP_BUILD_ROOT/fuzz/findings).
#
# Usage: scripts/fuzz.sh [--seconds N] [--only TARGET]... [--keep-corpus DIR] [--build-only]
#   --seconds N        per target (default 20; CI's `scripts/test.sh fuzz` uses 20)
#   --only TARGET      run only this target (repeatable): fuzz_container, fuzz_npy, fuzz_param_value,
#                      fuzz_op_yml, fuzz_elf, fuzz_rknn_model, fuzz_model_run (its nodes run in
#                      rknnop-node, as the tools run them), fuzz_decode
#   --keep-corpus DIR  also write the grown corpora to DIR/<target>/ (reuse it with the next run)
#   --build-only       build the targets, run none (scripts/test.sh builds them beside other steps)
# Environment: RKNNOP_BUILD_ROOT (default ./build), RKNNOP_JOBS (build jobs, default 2),
#   RKNNOP_FUZZ_PARALLEL (targets fuzzed side by side, default RKNNOP_JOBS; each for --seconds),
#   RKNNOP_FUZZ_WORKERS (parallel fuzzing processes per target, default 1),
#   RKNNOP_FUZZ_STRICT=0 (skip the one-line-message and op.yml UTF-8 round-trip checks, which are
#   on by default, CI included; see tests/fuzz/fuzz_util.hpp),
#   RKNNOP_FUZZ_TRACE=1 (fuzz_decode prints what a reproducer builds and calls),
#   RKNNOP_FUZZ_KEEP_GOING=1 (run past crashes, saving each reproducer; the run still fails).
#
# A longer run, e.g. overnight on a spare machine, keeping what it learns between runs:
#   RKNNOP_FUZZ_WORKERS=4 scripts/fuzz.sh --seconds 3600 --keep-corpus ~/rknnop-corpus
# To reproduce a finding: $RKNNOP_BUILD_ROOT/fuzz/tests/fuzz/<target> <reproducer>
# (add -runs=1000 to re-run it, or -minimize_crash=1 -runs=10000 to shrink it).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_root=${RKNNOP_BUILD_ROOT:-$root/build}
out=$build_root/fuzz
jobs=${RKNNOP_JOBS:-2}
workers=${RKNNOP_FUZZ_WORKERS:-1}
seconds=20
only=()
keep=""
build_only=0
all_targets=(fuzz_container fuzz_npy fuzz_param_value fuzz_op_yml fuzz_elf fuzz_rknn_model fuzz_model_run fuzz_decode)

usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"; }
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds=${2:?--seconds needs a value}; shift 2 ;;
    --seconds=*) seconds=${1#*=}; shift ;;
    --only) only+=("${2:?--only needs a target}"); shift 2 ;;
    --keep-corpus) keep=${2:?--keep-corpus needs a directory}; shift 2 ;;
    --build-only) build_only=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "scripts/fuzz.sh: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
  esac
done
case "$seconds" in ''|*[!0-9]*) echo "scripts/fuzz.sh: --seconds needs a whole number" >&2; exit 2 ;; esac
targets=("${all_targets[@]}")
[ ${#only[@]} -eq 0 ] || targets=("${only[@]}")
for t in "${targets[@]}"; do
  case " ${all_targets[*]} " in *" $t "*) ;; *) echo "scripts/fuzz.sh: unknown target '$t'" >&2; exit 2 ;; esac
done

cc=${RKNNOP_FUZZ_CC:-clang-16}
cxx=${RKNNOP_FUZZ_CXX:-clang++-16}
command -v "$cxx" >/dev/null || { echo "scripts/fuzz.sh: $cxx not found (apt-get install clang-16 libclang-rt-16-dev)" >&2; exit 2; }
# Symbolized stacks in reports (any llvm-symbolizer reads clang-16's DWARF well enough).
if [ -z "${ASAN_SYMBOLIZER_PATH:-}" ]; then
  for s in llvm-symbolizer-16 llvm-symbolizer; do
    if command -v "$s" >/dev/null; then export ASAN_SYMBOLIZER_PATH=$(command -v "$s"); break; fi
  done
fi
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)

stamp() { printf '=== fuzz %s: %s (%ss)\n' "$(date +%H:%M:%S)" "$1" "$SECONDS"; }

# --- build: the whole project instrumented for coverage + ASan/UBSan, only the fuzzers built --------
mkdir -p "$out"
stamp "configure $out"
flags="-fsanitize=address,undefined,fuzzer-no-link -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
cmake -S "$root" -B "$out" "${generator[@]}" -Wno-dev \
  -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG="-g1 -O1" -DCMAKE_CXX_FLAGS_DEBUG="-g1 -O1" -DCMAKE_UNITY_BUILD=ON \
  -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" \
  -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DCMAKE_MODULE_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DRKNNOP_BUILD_FUZZERS=ON -DRKNNOP_BUILD_TESTS=ON -DRKNNOP_BUILD_HOST=ON \
  -DRKNNOP_BUILD_EXAMPLES=OFF -DRKNNOP_INSTALL=OFF -DRKNNOP_BUILD_BENCHMARKS=OFF >"$out/configure.log" 2>&1 ||
  { cat "$out/configure.log" >&2; exit 1; }
stamp "build ${targets[*]}"
cmake --build "$out" -j "$jobs" --target "${targets[@]}"
# fuzz_model_run's seed is a model wrapped around the test kernel (tests/host/kernels) by rknnop-pack.
case " ${targets[*]} " in
  *" fuzz_model_run "*) cmake --build "$out" -j "$jobs" --target rknnop-pack ;;
esac
if [ "$build_only" = 1 ]; then
  stamp "built ${targets[*]} (--build-only: not run)"
  exit 0
fi

# --- seed corpora -----------------------------------------------------------------------------------
work=$(mktemp -d "${TMPDIR:-/tmp}/rknnop-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
seeds=$work/generated
mkdir -p "$seeds"
# ELF seeds: tiny shared objects (ELF64 with libc, ELF32 without) exporting a kernel list, with
# GLIBC_ version needs, a version definition, DT_NEEDED and DT_SONAME; small pages and no build-id
# keep them at 1.5-2.5 KB. Skipped silently where the toolchain cannot link them.
mkdir -p "$seeds/fuzz_elf"
printf '%s\n' 'void *memcpy(void *, const void *, __SIZE_TYPE__);' 'int vx_kernel_Seed_list[2];' \
  'void *seed_copy(void *d, const void *s, __SIZE_TYPE__ n) { return memcpy(d, s, n); }' >"$work/seed.c"
printf 'SEED_1.0 { global: seed_copy; vx_kernel_Seed_list; local: *; };\n' >"$work/seed.map"
elf_flags=(-shared -fPIC -O1 -nostartfiles -Wl,--build-id=none -Wl,-z,norelro -Wl,-z,noseparate-code
           -Wl,-z,max-page-size=16 -Wl,-z,common-page-size=16 -Wl,--hash-style=gnu
           -Wl,-soname,libseed.so -Wl,--version-script="$work/seed.map")
"$cc" "${elf_flags[@]}" -o "$seeds/fuzz_elf/seed64.so" "$work/seed.c" 2>/dev/null || true
"$cc" "${elf_flags[@]}" -m32 -nostdlib -o "$seeds/fuzz_elf/seed32.so" "$work/seed.c" 2>/dev/null || true
for f in "$seeds"/fuzz_elf/*.so; do
  if [ -e "$f" ]; then strip --strip-unneeded "$f" 2>/dev/null || true; fi
done
# A container seed around the ELF64 seed, so that fuzz_container reaches the validation of a real
# library section (check_elf_structure, the kernel list) and not only the container layout.
u64le() { local v=$1 i; for i in 0 1 2 3 4 5 6 7; do printf "\\$(printf %03o $(( (v >> (8 * i)) & 255 )))"; done; }
if [ -e "$seeds/fuzz_elf/seed64.so" ]; then
  mkdir -p "$seeds/fuzz_container"
  yml=$'name: Seed\ninputs:\n  x:\n    type: VX_TYPE_TENSOR\noutputs:\n  y:\n    type: VX_TYPE_TENSOR\nop_py_file: rknn_op_seed.py\n'
  py=$'class Seed(RKNNCustomOP):\n    def_input = [IoMap(\'in0\', 0)]\n'
  {
    printf 'RKNN\0\0\0\0'; u64le 2; u64le 0
    u64le "$(wc -c <"$seeds/fuzz_elf/seed64.so")"; cat "$seeds/fuzz_elf/seed64.so"
    u64le 0; u64le 0
    u64le "${#yml}"; printf '%s' "$yml"
    u64le "${#py}"; printf '%s' "$py"
  } >"$seeds/fuzz_container/seed64.rknnop"
fi

# A one-node model of the test op (library, op description, graph), so that fuzz_model_run starts
# from a model whose node loads and runs, and mutates its library as well as its JSON.
case " ${targets[*]} " in
  *" fuzz_model_run "*)
    mkdir -p "$seeds/fuzz_model_run"
    kernels=$root/tests/host/kernels
    # Built without coverage instrumentation: libFuzzer reads the counters of every instrumented
    # module, and the loader unloads the kernel library after each input (its counters with it).
    "$cc" -shared -fPIC -O1 -fvisibility=hidden -I"$root/include" -o "$work/libtestscale.so" \
      "$kernels/test_scale_kernel.c" -L"$out/src/runtime" -lOpenVX
    "$out/tools/rknnop-pack/rknnop-pack" pack --pc-only --x86 "$work/libtestscale.so" --yml "$kernels/testscale.yml" \
      --py "$kernels/rknn_op_testscale.py" -o "$work/TestScale.rknnop" >/dev/null 2>&1
    "$out/tools/rknnop-pack/rknnop-pack" wrap "$work/TestScale.rknnop" --input-shape input=1,2,3 \
      --param bias=1 --param scale=2 --param negate=false -o "$seeds/fuzz_model_run/testscale.rknn" >/dev/null ;;
esac

findings=$out/findings
mkdir -p "$findings"
# One target's run: its corpus, its log, its reproducers; "ok" or "failed" in $work/$t.result.
# Targets run side by side, RKNNOP_FUZZ_PARALLEL at a time (default RKNNOP_JOBS): each is one process
# on one core for its --seconds, so two cores fuzz two targets in the wall time of one.
fuzz_target() {
  local t=$1 corpus artifacts dict parallel status reproducers r
  corpus=$work/corpus/$t
  mkdir -p "$corpus"
  [ -d "$root/tests/fuzz/corpus/$t" ] && cp -R "$root/tests/fuzz/corpus/$t/." "$corpus/"
  [ -d "$seeds/$t" ] && cp -R "$seeds/$t/." "$corpus/"
  [ -n "$keep" ] && [ -d "$keep/$t" ] && cp -R "$keep/$t/." "$corpus/"
  artifacts=$work/artifacts/$t
  rm -rf "${findings:?}/$t"  # reproducers of an earlier run would be reported again
  mkdir -p "$artifacts" "$work/run/$t"
  dict=()
  [ -f "$root/tests/fuzz/$t.dict" ] && dict=(-dict="$root/tests/fuzz/$t.dict")
  stamp "run $t for ${seconds}s ($(ls "$corpus" | wc -l) seeds)"
  status=0
  # -timeout: one input taking this long is a finding too. ASAN_OPTIONS: leaks are findings;
  # UBSAN: the first report aborts (with -fno-sanitize-recover) and prints a stack.
  # Parallel workers (-fork) write their logs into the current directory: each target runs from a
  # directory of its own under the temp dir.
  parallel=()
  [ "$workers" -gt 1 ] && parallel=(-fork="$workers" -ignore_crashes=0)
  # Keep going past crashes (each saved as a reproducer).
  [ "${RKNNOP_FUZZ_KEEP_GOING:-0}" = 1 ] && parallel=(-fork="$workers" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
  (cd "$work/run/$t" &&
    ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
    UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
      "$out/tests/fuzz/$t" "$corpus" "${dict[@]}" "${parallel[@]}" -max_total_time="$seconds" \
        -rss_limit_mb=2048 -timeout=25 -print_final_stats=1 -artifact_prefix="$artifacts/" \
        >"$work/$t.log" 2>&1) || status=$?
  reproducers=$(find "$artifacts" -type f | sort)
  if [ "$status" -ne 0 ] || [ -n "$reproducers" ]; then
    {
      tail -n 80 "$work/$t.log"
      mkdir -p "$findings/$t"
      for r in $reproducers; do
        cp "$r" "$findings/$t/"
        echo "scripts/fuzz.sh: $t FAILED; reproducer: $findings/$t/$(basename "$r")"
        echo "  re-run: $out/tests/fuzz/$t $findings/$t/$(basename "$r")"
      done
      [ -n "$reproducers" ] || echo "scripts/fuzz.sh: $t exited with status $status and left no reproducer (see the log above)"
    } >"$work/$t.report" 2>&1
    echo failed >"$work/$t.result"
  else
    { printf '%s: ' "$t"; grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|#[0-9]+ +DONE)' "$work/$t.log" | tr '\n' ' ' || true; echo; } >"$work/$t.report"
    echo ok >"$work/$t.result"
  fi
  if [ -n "$keep" ]; then mkdir -p "$keep/$t" && cp -R "$corpus/." "$keep/$t/"; fi
}

side_by_side=${RKNNOP_FUZZ_PARALLEL:-$jobs}
case "$side_by_side" in ''|*[!0-9]*|0) echo "scripts/fuzz.sh: RKNNOP_FUZZ_PARALLEL needs a whole number >= 1" >&2; exit 2 ;; esac
running=0
for t in "${targets[@]}"; do
  if [ "$running" -ge "$side_by_side" ]; then wait -n || true; running=$((running - 1)); fi
  fuzz_target "$t" &
  running=$((running + 1))
done
wait
failed=0
for t in "${targets[@]}"; do
  if [ "$(cat "$work/$t.result" 2>/dev/null)" = ok ]; then
    cat "$work/$t.report"
  else
    failed=1
    if [ -f "$work/$t.report" ]; then cat "$work/$t.report" >&2; else echo "scripts/fuzz.sh: $t did not report (see $work/$t.log)" >&2; fi
  fi
done
[ "$failed" -eq 0 ] || { stamp "fuzzing found problems (reproducers under $findings)"; exit 1; }
stamp "all fuzzers ran ${seconds}s without findings: ${targets[*]}"

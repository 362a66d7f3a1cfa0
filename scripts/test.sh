#!/usr/bin/env bash
# The whole test suite, as CI runs it:
#   1. native build (warnings as errors in project code) + ctest
#   2. AddressSanitizer + UndefinedBehaviorSanitizer build + ctest
#   3. cross builds for aarch64 (RK1808/RK1806/RK3399Pro) and armhf (RV1109/RV1126), tests under qemu
#   4. a short run of every libFuzzer target
#   5. measurements (compile time, stripped library sizes): printed, never asserted
# Usage: scripts/test.sh [native|asan|cross|fuzz|measure ...]   (default: all five)
# Environment: RKNNOP_BUILD_ROOT (default ./build), RKNNOP_JOBS (default: nproc).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${RKNNOP_BUILD_ROOT:-$root/build}
jobs=${RKNNOP_JOBS:-$(nproc)}
steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=(native asan cross fuzz measure)
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)

stamp() { printf '\n=== %s: %s (%ss since start)\n' "$(date +%H:%M:%S)" "$1" "$SECONDS"; }

native() {
  stamp "native build"
  cmake -S "$root" -B "$out/native" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRKNNOP_WARNINGS_AS_ERRORS=ON
  cmake --build "$out/native" -j "$jobs"
  stamp "native tests"
  ctest --test-dir "$out/native" -j "$jobs" --output-on-failure --timeout 300
}

asan() {
  stamp "ASan+UBSan build"
  local flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
  cmake -S "$root" -B "$out/asan" "${generator[@]}" -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
    -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" \
    -DCMAKE_MODULE_LINKER_FLAGS="-fsanitize=address,undefined" \
    -DRKNNOP_SANITIZED_BUILD=ON -DRKNNOP_WARNINGS_AS_ERRORS=ON
  cmake --build "$out/asan" -j "$jobs"
  stamp "ASan+UBSan tests"
  # Package and compile-fail tests build other projects / only run the compiler: covered natively.
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --test-dir "$out/asan" -j "$jobs" --output-on-failure --timeout 600 -E '^(package\.|compile_fail\.)'
}

cross() {
  if [ -x "$root/cmake/run-cross-tests.sh" ]; then
    stamp "cross builds under qemu"
    RKNNOP_BUILD_ROOT="$out" RKNNOP_JOBS="$jobs" "$root/cmake/run-cross-tests.sh"
  else
    stamp "cross builds: cmake/run-cross-tests.sh is missing"
    return 1
  fi
}

fuzz() {
  if [ -x "$root/scripts/fuzz.sh" ]; then
    stamp "fuzzers (short run)"
    RKNNOP_BUILD_ROOT="$out" "$root/scripts/fuzz.sh" --seconds "${RKNNOP_FUZZ_SECONDS:-20}"
  else
    stamp "fuzzers: scripts/fuzz.sh is missing"
    return 1
  fi
}

measure() {
  stamp "measurements (numbers only)"
  local dir=()
  [ -d "$out/native" ] && dir=("$out/native")
  "$root/scripts/measure.sh" "${dir[@]}"
}

for step in "${steps[@]}"; do
  case "$step" in
    native|asan|cross|fuzz|measure) "$step" ;;
    *) echo "scripts/test.sh: unknown step '$step' (native, asan, cross, fuzz, measure)" >&2; exit 2 ;;
  esac
done
stamp "all requested steps passed: ${steps[*]}"

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The whole test suite, as CI runs it:
#   1. native build (warnings as errors in project code) + ctest
#   2. AddressSanitizer + UndefinedBehaviorSanitizer build + ctest
#   3. cross builds for aarch64 (RK1808/RK3399Pro) and armhf (RK1806/RV1109/RV1126), tests under qemu
#   4. a short run of every libFuzzer target
#   5. measurements (compile time, stripped library sizes): printed, never asserted
#   6. the user's path: CMake's default generator (Unix Makefiles), Release, no tests; every example's
#      board libraries and .rknnop; install; an op built out of tree from the installed package
#   7. lint: clang-tidy-16 (.clang-tidy) on the host sources, via compile_commands.json; clang-format-16 --dry-run on all C/C++
#   8. ThreadSanitizer: the loader's two-threads test (tests/host/test_loader_threads.cpp), the thread
#      pool, the runtime's graph thread (vxScheduleGraph) and the examples run on it
#   9. matrix: the SDK's headers, the examples, tests/core and tests/emit with GCC 11, Clang 14, 15, 16
#      and Clang 16 with libc++ (docs/compilers.md; RKNNOP_MATRIX selects entries)
# Usage: scripts/test.sh [native|matrix|asan|cross|fuzz|measure|userpath|lint|tsan ...]   (default: all nine)
# Environment: RKNNOP_BUILD_ROOT (default ./build), RKNNOP_JOBS (default: nproc),
#              RKNNOP_SKIP_DEPS=1 (do not check for missing Debian packages first).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Missing Debian packages are installed first (as root or through sudo); one dpkg-query when none is.
bash "$root/scripts/install-deps.sh" --if-missing scripts/test.sh
out=${RKNNOP_BUILD_ROOT:-$root/build}
jobs=${RKNNOP_JOBS:-$(nproc)}
steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=(native matrix asan userpath cross fuzz lint tsan measure)
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)

# Debug information as line tables only (-g1): file:line in every backtrace, gdb's breakpoints by line
# and the sanitizers' reports as with -g, for a third less compile time (test_session.cpp: 9.8 s with -g,
# 6.4 s with -g1, 6.0 s with none). The user's path (userpath) keeps CMake's own Release flags.
relwithdebinfo="-O2 -g1 -DNDEBUG"

stamp() { printf '\n=== %s: %s (%ss since start)\n' "$(date +%H:%M:%S)" "$1" "$SECONDS"; }

# Builds shared between steps: a board library's objects (the cross GCC with the boards' fixed flags)
# and an RKNPU2 plugin's are the same compile in the native, ASan, user's-path and cross trees, so
# they go through ccache (RKNNOP_BOARD_COMPILER_LAUNCHER), in a cache of this build root's (empty in a
# fresh clone: the first tree compiles, the others reuse). Paths are taken relative to the clone
# (CCACHE_BASEDIR) and the working directory is not hashed (CCACHE_NOHASHDIR: the trees are siblings
# at the same depth), so the same source compiled in two trees is one entry. Only those compiles: a
# miss costs a preprocessor run, and the trees' other compiles differ in flags and never hit.
board_launcher=()
if command -v ccache >/dev/null; then
  export CCACHE_DIR=${CCACHE_DIR:-$out/ccache} CCACHE_BASEDIR=${CCACHE_BASEDIR:-$root} CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}
  board_launcher=(-DRKNNOP_BOARD_COMPILER_LAUNCHER=ccache)
fi

# The board stacks the board tests run on (docs/board-emulation.md §5), as cache variables: from the
# environment (.ci/run sets them from the shared folder beside the clone); unset, those tests skip.
board_variables=(RKNNOP_BOARD_DRIVERS RKNNOP_TOOLKIT_SAMPLES RKNNOP_RKNPU2_RUNTIME RKNNOP_RKNPU2_SAMPLES)
# MindSpore Lite's sources and runtime (CMake reads them from the environment too): the native step
# builds and runs its tests (label mindspore); every other step's build is configured without them
# (MindSpore Lite's sources once per sanitizer or compiler would add build time and prove nothing new).
mindspore_variables=(RKNNOP_MINDSPORE_LITE_ROOT RKNNOP_MINDSPORE_LITE_RUNTIME)
declare -A mindspore_given=()
for name in "${mindspore_variables[@]}"; do
  mindspore_given[$name]=${!name:-}
  unset "$name"
done
board_cache_args() {
  local name
  for name in "${board_variables[@]}"; do
    [ -z "${!name:-}" ] || printf '%s\n' "-D$name=${!name}"
  done
  for name in "${mindspore_variables[@]}"; do
    [ -z "${mindspore_given[$name]}" ] || printf '%s\n' "-D$name=${mindspore_given[$name]}"
  done
}

# The slowest tests of a tree, from ctest's own record of each test's time (CTestCostData.txt: name, runs,
# mean time over this tree's runs; one run in a fresh clone): where the step's test time goes, printed in
# every log. A test that never ran to a pass or failure here (skipped, or filtered out) has 0 runs and
# its COST property's seed as its time: left out.
slowest_tests() {
  local costs="$1/Testing/Temporary/CTestCostData.txt"
  [ -f "$costs" ] || return 0
  printf '=== the 10 slowest tests of %s (s)\n' "$1"
  # sed reads to the end (head would leave sort writing into a closed pipe: SIGPIPE, 141 under pipefail)
  awk 'NF == 3 && $2 > 0 { printf "  %8.1f  %s\n", $3, $1 }' "$costs" | sort -rn | sed -n '1,10p'
}

native() {
  stamp "native build"
  local board_args=()
  mapfile -t board_args < <(board_cache_args)
  # Unity sources (CMAKE_UNITY_BUILD: a target's files compile as one, the headers parsed once per
  # target; a quarter less build time). Each file alone, as a user's build compiles it, is the user's
  # path's (its Release build must print no warning). GCC's -Wsubobject-linkage
  # fires on any anonymous-namespace type of a file that a unity source includes (gtest fixtures).
  cmake -S "$root" -B "$out/native" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRKNNOP_WARNINGS_AS_ERRORS=ON \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="$relwithdebinfo" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$relwithdebinfo" \
    -DCMAKE_UNITY_BUILD=ON -DCMAKE_CXX_FLAGS=-Wno-subobject-linkage "${board_args[@]}" "${board_launcher[@]}"
  cmake --build "$out/native" -j "$jobs"
  # One ctest run, the vendors' stacks' tests with the others: the longest (package.conan) starts first
  # (its COST) and the rest fill the other core around it.
  stamp "native tests (the board, rknpu2 and mindspore labels among them)"
  ctest --test-dir "$out/native" -j "$jobs" --output-on-failure --timeout 300 | tee "$out/native/ctest.log"
  board_tests "$out/native" "$out/native/ctest.log"
  slowest_tests "$out/native"
}

# The tests of the vendors' stacks (labels board, rknpu2, mindspore) of a built tree, counted from the log
# of the ctest run that ran them: with RKNNOP_BOARD_DRIVERS (RKNNOP_RKNPU2_RUNTIME for rknpu2,
# RKNNOP_MINDSPORE_LITE_ROOT for mindspore) none may skip but the one documented case
# (docs/limitations.md §1: an x86 MindSpore Lite runtime has no float16 CPU kernels,
# MindSporeFullRuntime.Float16UnderArchCpu); without, each skips with its reason.
board_tests() {
  local dir=$1 log=$2 label given names lines in_tree total passed skipped unexpected failed allowed
  for label in board rknpu2 mindspore; do
    given=${RKNNOP_BOARD_DRIVERS:-} allowed='^$'
    [ "$label" = rknpu2 ] && given=${RKNNOP_RKNPU2_RUNTIME:-}
    [ "$label" = mindspore ] && given=${mindspore_given[RKNNOP_MINDSPORE_LITE_ROOT]} \
      allowed='MindSporeFullRuntime\.Float16UnderArchCpu '
    names=$(ctest --test-dir "$dir" -N -L "^$label\$" | sed -n 's/^ *Test *#[0-9]*: //p')
    # The log's result lines of this label's tests ("  3/831 Test  #12: name ....   Passed  1.2 sec").
    lines=$(awk 'NR == FNR { want[$1] = 1; next }
                 match($0, /^ *[0-9]+\/[0-9]+ Test +#[0-9]+: /) {
                   name = substr($0, RLENGTH + 1); sub(/ .*/, "", name); if (name in want) print }' \
              <(printf '%s\n' "$names") "$log")
    total=$(grep -cE . <<<"$lines" || true)
    skipped=$(grep -cE '\*\*\*Skipped' <<<"$lines" || true)
    unexpected=$(grep -E '\*\*\*Skipped' <<<"$lines" | grep -cvE "$allowed" || true)
    passed=$(grep -cE ' Passed +[0-9.]+ sec' <<<"$lines" || true)
    failed=$((total - passed - skipped))
    printf '=== %s tests: %s run, %s passed, %s skipped (%s of them documented), %s failed\n' \
      "$label" "$total" "$passed" "$skipped" "$((skipped - unexpected))" "$failed"
    in_tree=$(grep -cE . <<<"$names" || true)
    if [ "$total" != "$in_tree" ]; then
      echo "$label tests: $in_tree in the tree, $total in $log" >&2
      return 1
    fi
    if [ -n "$given" ] && [ "$unexpected" != 0 ]; then
      echo "$label tests: $unexpected skipped although the $label stack is given ($given): see $log" >&2
      return 1
    fi
  done
}

asan() {
  stamp "ASan+UBSan build"
  local flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
  # Unity sources, as in the native step.
  cmake -S "$root" -B "$out/asan" "${generator[@]}" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_UNITY_BUILD=ON \
    -DCMAKE_C_FLAGS_DEBUG=-g1 -DCMAKE_CXX_FLAGS_DEBUG=-g1 \
    -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags -Wno-subobject-linkage" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
    -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" \
    -DCMAKE_MODULE_LINKER_FLAGS="-fsanitize=address,undefined" \
    -DRKNNOP_SANITIZED_BUILD=ON -DRKNNOP_WARNINGS_AS_ERRORS=ON -DRKNNOP_BUILD_RKNPU2_PLUGINS=OFF \
    -DRKNNOP_TEST_SUITES_EXCLUDED=board_abi "${board_launcher[@]}"
  cmake --build "$out/asan" -j "$jobs"
  stamp "ASan+UBSan tests"
  # RKNPU2 plugins are compiled by the compiler alone (never instrumented): the native and user's-path
  # steps build and test them; the backend's own tests (rknpu2_plugin_tests) run here.
  # Package and compile-fail tests build other projects / only run the compiler: covered natively.
  # The board tests run Rockchip's stacks under qemu with the cross-built libraries (never instrumented):
  # what is instrumented in them is the tools' packing and comparing, which the host tests drive too;
  # one test of each level (librknn_runtime, libOpenVX alone) runs here, all of them in the native step
  # (the label took 422 s of the step's 1,038 s test time). tests/board_abi is not built: its tests are
  # all of the board label (49 s of CPU in this step's build).
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1
  ctest --test-dir "$out/asan" -j "$jobs" --output-on-failure --timeout 600 -E '^(package\.|compile_fail\.)' \
    -LE '^board$'
  ctest --test-dir "$out/asan" -j "$jobs" --output-on-failure --timeout 600 --no-tests=ignore \
    -R '^board\.(rknn|vx)\.ResizeArea\.linux-aarch64$'
  unset ASAN_OPTIONS UBSAN_OPTIONS
  slowest_tests "$out/asan"
}

cross() {
  if [ -x "$root/cmake/run-cross-tests.sh" ]; then
    stamp "cross builds under qemu"
    RKNNOP_BUILD_ROOT="$out" RKNNOP_JOBS="$jobs" RKNNOP_CROSS_CMAKE_ARGS="${board_launcher[*]}" \
      "$root/cmake/run-cross-tests.sh"
  else
    stamp "cross builds: cmake/run-cross-tests.sh is missing"
    return 1
  fi
}

fuzz() {
  [ -z "$beside_pid" ] || finish_beside fuzz || true  # a failed build fails again below, with its message
  if [ "${RKNNOP_BESIDE:-0}" = 1 ]; then
    stamp "fuzzers: the build (beside the other steps)"
    RKNNOP_BUILD_ROOT="$out" RKNNOP_JOBS="$jobs" "$root/scripts/fuzz.sh" --build-only
    return
  fi
  if [ -x "$root/scripts/fuzz.sh" ]; then
    stamp "fuzzers (short run)"
    # $jobs build jobs, and as many fuzzers side by side (each its --seconds on one core)
    RKNNOP_BUILD_ROOT="$out" RKNNOP_JOBS="$jobs" "$root/scripts/fuzz.sh" --seconds "${RKNNOP_FUZZ_SECONDS:-20}"
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

# clang-tidy-16 with the project's .clang-tidy on every host source (src/, tools/): warnings are
# errors. Needs only a configured tree for compile_commands.json, not a build. With other steps, it
# ran beside them (start_beside); here its result is shown.
lint() {
  if [ -n "$beside_pid" ]; then
    finish_beside lint
    return
  fi
  stamp "lint: clang-tidy-16 on src/ and tools/"
  # Unity sources, as the native build's: each target's files checked as one unit, so the headers'
  # declarations (the standard library's, {fmt}'s) are parsed and walked by every check once per target,
  # not once per file (rknnop_host's first eight files: 12 s of CPU against 47 s). Diagnostics in the
  # files a unity source includes are reported as in the file alone (HeaderFilterRegex names src/ and
  # tools/); the configuration is given, as it is found from the main file's folder (here the build's).
  # The one check a unity source breaks by design, bugprone-suspicious-include (it includes .cpp
  # files), is replaced by its rule as a search: no file of src/ or tools/ includes an implementation file.
  cmake -S "$root" -B "$out/lint" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_UNITY_BUILD=ON \
    -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
  run-clang-tidy-16 -p "$out/lint" -j "$jobs" -quiet -config-file="$root/.clang-tidy" \
    -checks=-bugprone-suspicious-include \
    "^$root/(src|tools)/.*\.cpp\$" "^$out/lint/(src|tools)/.*/Unity/unity_[0-9]+_cxx\.cxx\$"
  ! git -C "$root" grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"][^>"]*\.(c|cc|cpp|cxx)[>"]' \
    -- 'src/*' 'tools/*' || { echo "lint: a file of src/ or tools/ includes an implementation file" >&2; return 1; }
  stamp "lint: clang-format-16 --dry-run on every C and C++ file (.clang-format)"
  git -C "$root" ls-files -z '*.cpp' '*.hpp' '*.h' '*.c' | (cd "$root" && xargs -0 clang-format-16 --dry-run --Werror --style=file)
}

tsan() {
  [ -z "$beside_pid" ] || finish_beside tsan || true  # a failed build fails again below, with its message
  stamp "ThreadSanitizer build (the loader's two-threads test, the runtime's lock-free registry, the galcore's signals)"
  # Warnings are the native step's business (GCC 12 reports -Wstringop-overflow false positives
  # through std::vector under -fsanitize=thread).
  # Unity sources, as in the native step.
  local flags="-fsanitize=thread -fno-omit-frame-pointer"
  cmake -S "$root" -B "$out/tsan" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_UNITY_BUILD=ON \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="$relwithdebinfo" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$relwithdebinfo" \
    -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags -Wno-subobject-linkage" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=thread" -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=thread" \
    -DCMAKE_MODULE_LINKER_FLAGS="-fsanitize=thread" -DRKNNOP_SANITIZED_BUILD=ON \
    -DRKNNOP_BUILD_EXAMPLES=OFF -DRKNNOP_BUILD_BENCHMARKS=OFF -DRKNNOP_INSTALL=OFF \
    -DRKNNOP_WARNINGS_AS_ERRORS=OFF >"$out/tsan-configure.log" 2>&1 ||
    { cat "$out/tsan-configure.log" >&2; return 1; }
  cmake --build "$out/tsan" -j "$jobs" --target rknnop_host_thread_tests rknnop_live_set_tests parallel_tests \
    rknnop_runtime_tests example_tests test_galcore
  [ "${RKNNOP_BESIDE:-0}" = 0 ] || return 0  # the build beside the other steps; the tests in their place
  stamp "ThreadSanitizer test"
  TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 "$out/tsan/tests/host/rknnop_host_thread_tests"
  TSAN_OPTIONS=halt_on_error=1 "$out/tsan/tests/runtime/rknnop_live_set_tests"
  TSAN_OPTIONS=halt_on_error=1 "$out/tsan/tests/core/parallel_tests"  # rknnop::parallel_for's pool
  TSAN_OPTIONS=halt_on_error=1 "$out/tsan/board/galcore/test_galcore" >/dev/null  # user signals across threads
  # vxScheduleGraph's graph thread, and the examples run on it (with their parallel_for workers) as
  # librknn_runtime runs a node: scheduled, then waited for.
  TSAN_OPTIONS=halt_on_error=1 "$out/tsan/tests/runtime/rknnop_runtime_tests" --gtest_filter='runtime_lifecycle.*:runtime_concurrency.*'
  TSAN_OPTIONS=halt_on_error=1 "$out/tsan/tests/examples/example_tests"
}

# What a new user does: `cmake -S . -B b -DCMAKE_BUILD_TYPE=Release && cmake --build b`, with
# CMake's default generator (Unix Makefiles here, also Conan's default) and no flags of ours
# (warnings are not errors by default: another compiler's or -O3's false positives must not stop a user).
userpath() {
  stamp "user's path: default generator, Release, install, an op out of tree"
  # The build tree beside the native one (the same depth: its board compiles are the native tree's,
  # from the cache; see board_launcher), the install and the consumer in $dir.
  local dir="$out/userpath" tree="$out/userpath-build"
  rm -rf "$dir" "$tree"
  env -u CMAKE_GENERATOR cmake -S "$root" -B "$tree" "${board_launcher[@]}" -DCMAKE_BUILD_TYPE=Release \
    -DRKNNOP_BUILD_TESTS=OFF -DCMAKE_INSTALL_PREFIX="$dir/prefix"
  grep -q '^CMAKE_GENERATOR:INTERNAL=Unix Makefiles$' "$tree/CMakeCache.txt" \
    || { echo "userpath: CMake's default generator is not Unix Makefiles here" >&2; return 1; }
  cmake --build "$tree" -j "$jobs" 2>&1 | tee "$tree.log"
  ! grep -n 'warning:' "$tree.log" || { echo "userpath: the Release build printed warnings" >&2; return 1; }
  local example container opdir arch missing=0
  for example in "$root"/examples/*/CMakeLists.txt; do
    example=$(basename "$(dirname "$example")")
    container=$(ls "$tree/examples/$example"/*/*.rknnop 2>/dev/null | head -1)
    [ -n "$container" ] || { echo "userpath: examples/$example built no .rknnop" >&2; missing=1; continue; }
    opdir=$(dirname "$container")
    for arch in aarch64=aarch64-linux-gnu-g++ armhf=arm-linux-gnueabihf-g++; do
      command -v "${arch#*=}" >/dev/null || { echo "userpath: ${arch#*=} not found, ${arch%%=*} skipped"; continue; }
      ls "$opdir/${arch%%=*}"/lib*.so >/dev/null 2>&1 \
        || { echo "userpath: examples/$example has no ${arch%%=*} library" >&2; missing=1; }
      ls "$opdir/rknpu2/${arch%%=*}"/librkcst_*.so >/dev/null 2>&1 \
        || { echo "userpath: examples/$example has no ${arch%%=*} RKNPU2 plugin" >&2; missing=1; }
    done
    ls "$opdir"/rknpu2/x86_64/librkcst_*.so "$opdir"/rknpu2/rknn_op_*_toolkit2.py >/dev/null 2>&1 \
      || { echo "userpath: examples/$example has no x86_64 RKNPU2 plugin or toolkit2 class" >&2; missing=1; }
  done
  [ "$missing" = 0 ] || return 1
  cmake --install "$tree"
  env -u CMAKE_GENERATOR cmake -S "$root/tests/package/consumer" -B "$dir/consumer" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$dir/prefix" -DCONSUMER_BOARD_LIBRARIES=ON
  cmake --build "$dir/consumer" -j "$jobs"
  "$dir/consumer/consumer_check"
  for arch in aarch64=aarch64-linux-gnu-g++ armhf=arm-linux-gnueabihf-g++; do
    ! command -v "${arch#*=}" >/dev/null || [ -f "$dir/consumer/Tiny/${arch%%=*}/libtiny.so" ] \
      || { echo "userpath: the out-of-tree op has no ${arch%%=*} library" >&2; return 1; }
    ! command -v "${arch#*=}" >/dev/null || [ -f "$dir/consumer/Tiny/rknpu2/${arch%%=*}/librkcst_tiny.so" ] \
      || { echo "userpath: the out-of-tree op has no ${arch%%=*} RKNPU2 plugin" >&2; return 1; }
  done
  [ -f "$dir/consumer/Tiny/rknpu2/x86_64/librkcst_tiny.so" ] \
    || { echo "userpath: the out-of-tree op has no x86_64 RKNPU2 plugin (installed rknnopRknpu2.cmake?)" >&2; return 1; }
  # The tests that depend on the build type, in this Release build (the rest run in native/asan).
  cmake "$tree" -DRKNNOP_BUILD_TESTS=ON >/dev/null
  cmake --build "$tree" -j "$jobs" --target rknnop_host_model_tool_tests
  ctest --test-dir "$tree" -R '^LeanLibraries\.' --output-on-failure --no-tests=error
  stamp "user's path passed"
}

# The compiler matrix (docs/compilers.md): the SDK's headers (one unit each), the examples (their
# x86-64 libraries and emitters), tests/core and tests/emit built and run with every other compiler
# Debian 12 ships (GCC 12 is the native step). What does not depend on the compiler is left to the
# native step: board libraries (always the cross GCC 12), the host library and tools. No sanitizers.
# Without -g (a shorter link); assertions stay on. GCC 11 and the newest Clang at -O2: GCC's
# warnings depend on the optimiser, and the tests run as the optimiser compiled them. The older Clangs
# and libc++ at -O0: Clang's warnings are its front end's, the same at any level, and -O0 compiles in
# 55% of -O2's CPU time (clang-15's entry: 87 s against 157 s, its tests as fast). Unity sources
# (CMAKE_UNITY_BUILD): a target's files compile as one, so the headers are parsed once per target, not
# once per file (the header units stay one per header).
# RKNNOP_MATRIX="clang-15 gcc-11" runs only those entries.
matrix_entries=(  # name, C compiler, C++ compiler, optimisation, standard library
  "gcc-11 gcc-11 g++-11 -O2"
  "clang-14 clang-14 clang++-14 -O0"
  "clang-15 clang-15 clang++-15 -O0"
  "clang-16 clang-16 clang++-16 -O2"
  "clang-16-libc++ clang-16 clang++-16 -O0 libc++"
)
matrix() {
  local entry name cc cxx opt lib dir started flags link suites extra=() report=()
  for entry in "${matrix_entries[@]}"; do
    read -r name cc cxx opt lib <<<"$entry"
    [[ " ${RKNNOP_MATRIX:-$name} " == *" $name "* ]] || continue
    started=$SECONDS
    stamp "compiler matrix: $name"
    command -v "$cxx" >/dev/null || { echo "matrix: $cxx not found (scripts/install-deps.sh installs it)" >&2; return 1; }
    dir="$out/matrix/$name"
    mkdir -p "$out/matrix"
    flags="" link="" suites="core;emit" extra=()
    if [ "$lib" = libc++ ]; then
      # GoogleTest from its Debian source, built once with libc++; {fmt} header-only. yaml-cpp has no
      # libc++ build in Debian, so tests/emit (which reads the op.yml it emits with it) is left out.
      # The board-glibc check of kernel libraries is off: Debian 12's static libc++ needs glibc 2.34.
      flags="-stdlib=libc++ -DFMT_HEADER_ONLY=1" link="-stdlib=libc++ -Wl,--as-needed" suites="core"
      extra=(-DRKNNOP_CHECK_KERNEL_LIBRARIES=OFF)
      if [ ! -f "$out/matrix/gtest-libc++/prefix/lib/cmake/GTest/GTestConfig.cmake" ]; then
        cmake -S /usr/src/googletest -B "$out/matrix/gtest-libc++/build" "${generator[@]}" \
          -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" \
          -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_INSTALL_PREFIX="$out/matrix/gtest-libc++/prefix" >/dev/null
        cmake --build "$out/matrix/gtest-libc++/build" -j "$jobs" --target install >/dev/null
      fi
      extra+=(-DGTest_DIR="$out/matrix/gtest-libc++/prefix/lib/cmake/GTest")
    fi
    cmake -S "$root" -B "$dir" "${generator[@]}" "${extra[@]}" \
      -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_C_FLAGS_RELEASE="$opt" -DCMAKE_CXX_FLAGS_RELEASE="$opt" -DCMAKE_CXX_FLAGS="$flags" \
      -DCMAKE_EXE_LINKER_FLAGS="$link" -DCMAKE_SHARED_LINKER_FLAGS="$link" -DCMAKE_MODULE_LINKER_FLAGS="$link" \
      -DRKNNOP_BUILD_TOOLS=OFF -DRKNNOP_BUILD_GALCORE=OFF -DRKNNOP_TEST_SUITES="$suites" -DRKNNOP_INSTALL=OFF \
      -DCMAKE_UNITY_BUILD=ON -DRKNNOP_BUILD_RKNPU2_PLUGINS=OFF \
      -DRKNNOP_AARCH64_CXX=OFF -DRKNNOP_ARMHF_CXX=OFF -DRKNNOP_WARNINGS_AS_ERRORS=ON >"$dir.configure.log" 2>&1 ||
      { cat "$dir.configure.log" >&2; return 1; }
    cmake --build "$dir" -j "$jobs"
    ctest --test-dir "$dir" -j "$jobs" --output-on-failure --timeout 300
    report+=("$(printf '  %-16s %4ss  %s  %s' "$name" "$((SECONDS - started))" "$opt" "$("$cxx" --version | head -1)")")
  done
  printf '\n=== compiler matrix: wall time per compiler (build + tests)\n'
  printf '%s\n' "${report[@]}"
}

for step in "${steps[@]}"; do
  case "$step" in
    native|asan|cross|fuzz|measure|userpath|lint|tsan|matrix) ;;
    *) echo "scripts/test.sh: unknown step '$step' (native, asan, cross, fuzz, measure, userpath, lint, tsan, matrix)" >&2; exit 2 ;;
  esac
done

# Beside the other steps: lint, and the fuzzers' and TSan's builds, are CPU work with nothing timed
# in it, so with other steps they start with the first of them, one after the other, at the lowest CPU
# priority (nice 19: about 1.5% of a core when the others want both), and take what the others leave
# idle (configures, links, ctest's last tests, the tests that run alone, qemu's). Each is
# `RKNNOP_BESIDE=1 scripts/test.sh <step>` (lint whole; fuzz and tsan their builds), in a session of
# its own, stopped whole when the run ends early. The first of those steps in the order waits for
# them; each then shows its part's log, and fuzz and tsan go on with their runs (their builds up to date).
# A session of its own is a scheduling group of its own where the kernel groups sessions
# (sched_autogroup, on in Debian's kernels): the group shares the CPU with the run's group as an equal
# whatever its processes' nice, so the group's own nice is set to 19 too (/proc/self/autogroup).
beside_pid=
beside_waited=0
start_beside() {
  local parts=() step
  for step in lint fuzz tsan; do
    [[ " ${steps[*]} " != *" $step "* ]] || parts+=("$step")
  done
  [ ${#parts[@]} -gt 0 ] && [ ${#parts[@]} -lt ${#steps[@]} ] || return 0
  mkdir -p "$out"
  rm -f "$out"/beside-*.log "$out"/beside-*.status
  # shellcheck disable=SC2016
  RKNNOP_SKIP_DEPS=1 RKNNOP_BUILD_ROOT="$out" RKNNOP_JOBS="$jobs" RKNNOP_BESIDE=1 setsid --wait nice -n 19 \
    bash -c 'echo 19 >/proc/self/autogroup 2>/dev/null || true  # see below
             script=$1 out=$2; shift 2; for step; do bash "$script" "$step" >"$out/beside-$step.log" 2>&1
             echo "$?" >"$out/beside-$step.status"; done' beside "$root/scripts/test.sh" "$out" "${parts[@]}" &
  beside_pid=$!
}
# finish_beside STEP: waits for the work beside (once), prints STEP's log; its status is STEP's part's.
finish_beside() {
  if [ "$beside_waited" = 0 ]; then
    stamp "waiting for the work beside the other steps (lint; the fuzzers' and TSan's builds)"
    wait "$beside_pid" || true
    beside_waited=1
  fi
  stamp "$1: its part beside the other steps (nice 19), its log:"
  cat "$out/beside-$1.log" 2>/dev/null || true
  local status
  status=$(cat "$out/beside-$1.status" 2>/dev/null || echo 1)
  [ "$status" = 0 ] || echo "$1: its part beside the other steps failed (exit code $status): $out/beside-$1.log" >&2
  return "$status"
}

# Each step's wall time and how busy the cores were meanwhile (all of the machine's CPU time, from
# /proc/stat: idle cores are time another step could use), printed at the end of the run (also when
# a step fails): CI's goal is 40 minutes on 2 cores from a fresh machine (its limit 90).
cpu_ticks() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9; exit }' /proc/stat; }
step_times=()
started=$SECONDS
ticks=
print_step_times() {
  local status=$? row
  [ -z "$beside_pid" ] || [ "$beside_waited" = 1 ] || kill -- "-$beside_pid" 2>/dev/null || true
  [ ${#step_times[@]} -gt 0 ] || return "$status"
  printf '\n=== wall time per step (s), and the cores busy meanwhile\n'
  for row in "${step_times[@]}"; do
    [ "${row#*=}" = running ] && row="${row%%=*}=$((SECONDS - started)) (failed)"
    printf '  %-9s %s\n' "${row%%=*}" "${row#*=}"
  done
  printf '  %-9s %6s  (this script; the package check before it included)\n' total "$SECONDS"
  return "$status"
}
trap print_step_times EXIT
start_beside
for step in "${steps[@]}"; do
  started=$SECONDS
  ticks=$(cpu_ticks)
  step_times+=("$step=running")
  "$step"
  step_times[${#step_times[@]}-1]="$step=$(read -r b0 t0 <<<"$ticks"; read -r b1 t1 < <(cpu_ticks)
    printf '%6s  %3s%%' "$((SECONDS - started))" "$(( t1 > t0 ? 100 * (b1 - b0) / (t1 - t0) : 0 ))")"
done
stamp "all requested steps passed: ${steps[*]}"

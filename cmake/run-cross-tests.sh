#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Cross-builds rknnop for the boards' userlands and runs its tests under QEMU user-mode emulation:
#   aarch64 (RK1808/RK3399Pro): cmake/toolchains/aarch64-linux-gnu.cmake, qemu-aarch64
#   armhf   (RK1806/RV1109/RV1126):         cmake/toolchains/arm-linux-gnueabihf.cmake, qemu-arm
# Usage: cmake/run-cross-tests.sh [aarch64] [armhf]        (default: both)
# Environment: RKNNOP_BUILD_ROOT (default ./build), RKNNOP_JOBS (default 2),
#              RKNNOP_CROSS_CTEST_ARGS (extra ctest arguments, e.g. "-R runtime"),
#              RKNNOP_CROSS_CMAKE_ARGS (extra configure arguments, e.g. scripts/test.sh's board-compile launcher).
#
# Needs (Debian 12): g++-aarch64-linux-gnu g++-arm-linux-gnueabihf qemu-user, and the target's
# GoogleTest, {fmt} and yaml-cpp. Those come from Debian's arm64/armhf packages, extracted with
# `dpkg -x` into <build root>/cross-deps/<arch> by cmake/fetch-cross-deps.sh (not installed:
# libyaml-cpp-dev is not co-installable across architectures). The benchmarks (bench/) are built,
# not run, so that they cannot rot (scripts/perf-report-arm.sh runs them; without OpenCV here).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${RKNNOP_BUILD_ROOT:-$root/build}
jobs=${RKNNOP_JOBS:-2}
arches=("$@")
[ ${#arches[@]} -gt 0 ] || arches=(aarch64 armhf)
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
stamp() { printf '\n=== %s: %s (%ss since start)\n' "$(date +%H:%M:%S)" "$1" "$SECONDS"; }

# <build root>/cross-deps/<debian arch>: the target's -dev packages, extracted once.
fetch_deps() { "$root/cmake/fetch-cross-deps.sh" "$1" "$out/cross-deps/$1"; }

# ResizeArea.rknnop as rknnop_add_op makes it natively, with all three library sections (a cross
# build makes only its own architecture's library): the loader tests of the cross builds load it
# under qemu and must take the aarch64 / armhf section. From the native build of `scripts/test.sh`
# when there is one, else from a small native build of the example alone.
native_container() {
  local dir="$out/native"
  if [ ! -f "$dir/CMakeCache.txt" ]; then
    dir="$out/cross-native-ops"
    cmake -S "$root" -B "$dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_C_FLAGS_RELEASE="-O2 -DNDEBUG" -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" \
      -DRKNNOP_BUILD_TESTS=OFF -DRKNNOP_BUILD_HOST=OFF -DRKNNOP_BUILD_BENCHMARKS=OFF -DRKNNOP_INSTALL=OFF \
      -DRKNNOP_WARNINGS_AS_ERRORS=OFF >&2 || return 1
  fi
  cmake --build "$dir" -j "$jobs" --target ResizeArea_rknnop >&2 || return 1
  local container="$dir/examples/resize_area/ResizeArea/ResizeArea.rknnop"
  [ -f "$container" ] || { echo "run-cross-tests: $container was not built" >&2; return 1; }
  echo "$container"
}

run_arch() {
  local arch=$1 triple debarch qemu toolchain
  case "$arch" in
    aarch64) triple=aarch64-linux-gnu debarch=arm64 qemu=qemu-aarch64 ;;
    armhf) triple=arm-linux-gnueabihf debarch=armhf qemu=qemu-arm ;;
    *) echo "run-cross-tests: unknown architecture '$arch' (aarch64, armhf)" >&2; return 2 ;;
  esac
  toolchain="$root/cmake/toolchains/$triple.cmake"
  # The toolchain's CMAKE_<LANG>_FLAGS_INIT (armhf: NEON-VFPv4, IEEE __fp16, as the boards' kernel
  # libraries) count only when CMAKE_<LANG>_FLAGS is not given: given here, they are repeated.
  local arch_flags=""
  [ "$arch" = armhf ] && arch_flags="-mfp16-format=ieee -mfpu=neon-vfpv4 -mfloat-abi=hard "
  for tool in "$triple-g++" "$qemu"; do
    command -v "$tool" >/dev/null || {
      echo "run-cross-tests: $tool is missing (apt install g++-$triple qemu-user)" >&2; return 1; }
  done
  local deps
  deps=$(fetch_deps "$debarch") || return 1
  local dir="$out/cross-$arch"
  stamp "$arch: configure"
  # -O2 as the kernel libraries (and: GCC 12's -O3 -Wrestrict false positive on std::string, PR 105329).
  # Unity sources, as scripts/test.sh's ASan step (one compile per target; -Wsubobject-linkage fires
  # on the anonymous-namespace fixtures a unity source includes).
  cmake -S "$root" -B "$dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DCMAKE_UNITY_BUILD=ON \
    -DCMAKE_C_FLAGS="$arch_flags" -DCMAKE_CXX_FLAGS="${arch_flags}-Wno-subobject-linkage" \
    -DCMAKE_C_FLAGS_RELEASE="-O2 -DNDEBUG" -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" \
    -DCMAKE_TOOLCHAIN_FILE="$toolchain" -DRKNNOP_CROSS_EXTRA_ROOTS="$deps" \
    -DRKNNOP_BUILD_BENCHMARKS=ON -DRKNNOP_WARNINGS_AS_ERRORS=OFF -DRKNNOP_BUILD_GALCORE=ON \
    -DRKNNOP_TEST_RESIZEAREA_RKNNOP="$container" ${RKNNOP_CROSS_CMAKE_ARGS:-} || return 1
  stamp "$arch: build"
  cmake --build "$dir" -j "$jobs" || return 1
  stamp "$arch: tests under qemu"
  # Compile-fail, package and board tests only run compilers/CMake/host inspection: native covers them.
  # The conformance suite compares the backends of the PC's checking build (its rules for lossy and
  # unwritten outputs and non-finite scalars are the checking build's; a board's library converts and
  # takes them as they come, docs/architecture.md §3): the native and ASan steps run it.
  # Also excluded (RKNNOP_CROSS_EXCLUDE overrides): tests that exec the project's tools or python3
  # directly (no binfmt_misc here, so the kernel cannot run a foreign binary: they need to prefix
  # RKNNOP_TEST_EMULATOR) or that expect x86-64 facts of "the host" library; ModelValidation and
  # Relocations use x86-64 library fixtures and tool runs (native step only); Samples/ToolkitModel runs
  # rknnop-run on the toolkit's sample models when RKNNOP_TOOLKIT_SAMPLES is set (CI sets it).
  local exclude=${RKNNOP_CROSS_EXCLUDE-'^(emit\.python\.check|Elf\.HostKernelLibrary|PackTool\..*|SessionLoad\.ElfOfAnotherArchitecture|RunTool\..*|ModelTools\..*|ModelValidation\..*|Relocations\..*|Samples/ToolkitModel\..*)$'}
  local args=(-E '^(package\.|compile_fail\.|board\.|conformance\.)')
  [ -n "$exclude" ] && args=(-E "^(package\\.|compile_fail\\.|board\\.|conformance\\.)|$exclude")
  # shellcheck disable=SC2086
  ctest --test-dir "$dir" -j "$jobs" --output-on-failure --timeout 600 "${args[@]}" ${RKNNOP_CROSS_CTEST_ARGS:-} || return 1
  stamp "$arch: done"
}

stamp "native ResizeArea.rknnop for the loader tests"
container=$(native_container) || { stamp "cross tests FAILED: no native ResizeArea.rknnop"; exit 1; }

# run_arch is called in an || list, where set -e does not apply: it returns on each failure itself.
failed=()
for arch in "${arches[@]}"; do
  run_arch "$arch" || failed+=("$arch")
done
if [ ${#failed[@]} -gt 0 ]; then
  stamp "cross tests FAILED for: ${failed[*]}"
  exit 1
fi
stamp "cross tests passed: ${arches[*]}"

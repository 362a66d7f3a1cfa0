#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs everything rknnop's build, tests, cross builds and fuzzers need on Debian 12 (as root).
#   scripts/install-deps.sh                   install (apt-get update + install) whatever is missing
#   scripts/install-deps.sh --check           list missing packages (one dpkg-query); exit 1 if any
#   scripts/install-deps.sh --if-missing WHO  what scripts/demo.sh and scripts/test.sh run first: nothing
#                                             when all is present, else install, as root or through sudo
#   scripts/install-deps.sh --perf            also what scripts/perf-report.sh measures with: valgrind
#                                             (callgrind) and OpenCV (the benchmark peer); not for CI
# RKNNOP_SKIP_DEPS=1 skips --if-missing (a machine set up by other means).
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
packages=(
  build-essential cmake ninja-build pkg-config git python3 python3-numpy  # numpy: the RKNPU2 and toolkit2 checks
  ccache                                      # scripts/test.sh: board compiles shared between its trees
  libboost1.81-dev libfmt-dev                 # the SDK's two dependencies (Boost.PFR, {fmt})
  libseccomp-dev                              # rknnop-node's seccomp filter (docs/isolation.md)
  libgtest-dev libgmock-dev libbenchmark-dev  # tests and benchmarks
  libcli11-dev libyaml-cpp-dev nlohmann-json3-dev  # host tools
  g++-aarch64-linux-gnu g++-arm-linux-gnueabihf qemu-user  # board libraries and their tests
  pocl-opencl-icd ocl-icd-opencl-dev opencl-c-headers     # VX shaders on the CPU
  clang-16 libclang-rt-16-dev                 # libFuzzer
  flatbuffers-compiler libflatbuffers-dev googletest  # MindSpore Lite tests (schema headers; gtest with its ABI)
)
packages+=(clang-tidy-16 clang-format-16)     # scripts/test.sh lint; .clang-format
# The Conan 2 client of package.conan (CI: ../shared/conan-2.8.1, a source tree run on Debian's python3).
packages+=(python3-yaml python3-requests python3-urllib3 python3-colorama python3-dateutil python3-jinja2
           python3-fasteners python3-distro)
packages+=(g++-11 clang-14 clang-15 libc++-16-dev libc++abi-16-dev)  # scripts/test.sh matrix (docs/compilers.md)

missing_packages() {
  local installed
  installed=$(dpkg-query -W -f='${Package} ${db:Status-Status}\n' "${packages[@]}" 2>/dev/null || true)
  for p in "${packages[@]}"; do
    grep -qx "$p installed" <<<"$installed" || echo "$p"
  done
}
if [ "${1:-}" = --perf ]; then
  packages+=(valgrind libopencv-dev)
  shift
fi
case "${1:-}" in
  --check)
    missing=$(missing_packages)
    [ -z "$missing" ] || { echo $missing; exit 1; }
    exit 0 ;;
  --if-missing)
    who=${2:-install-deps}
    [ "${RKNNOP_SKIP_DEPS:-0}" = 1 ] && exit 0
    if ! command -v dpkg-query >/dev/null; then
      echo "$who: not a Debian system: install what scripts/install-deps.sh lists yourself (RKNNOP_SKIP_DEPS=1 silences this)" >&2
      exit 0
    fi
    missing=$(missing_packages)
    [ -z "$missing" ] && exit 0
    echo "$who: missing Debian packages:" $missing
    if [ "$(id -u)" = 0 ]; then
      echo "$who: installing them: bash scripts/install-deps.sh"
      exec bash "${BASH_SOURCE[0]}"
    elif command -v sudo >/dev/null; then
      echo "$who: installing them through sudo: sudo bash scripts/install-deps.sh"
      exec sudo bash "${BASH_SOURCE[0]}"
    fi
    echo "$who: run as root (or install sudo) to install them: bash scripts/install-deps.sh" >&2
    exit 1 ;;
  "") ;;
  *) echo "install-deps: unknown option '$1' (--perf, --check, --if-missing WHO)" >&2; exit 2 ;;
esac
if [ -z "$(missing_packages)" ]; then
  echo "install-deps: all ${#packages[@]} packages are installed"
  exit 0
fi
# A mirror caught mid-sync fails some index (often a foreign architecture's, added by the cross
# tests); retry, then go on with the lists we have: the install itself is what must succeed.
for attempt in 1 2 3; do
  apt-get update -qq && break
  echo "install-deps: apt-get update failed (attempt $attempt of 3)" >&2
  sleep 15
done
for attempt in 1 2 3; do
  apt-get install -y -qq --no-install-recommends "${packages[@]}" && exit 0
  echo "install-deps: apt-get install failed (attempt $attempt of 3)" >&2
  sleep 15
  apt-get update -qq || true
done
exit 1

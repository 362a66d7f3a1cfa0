#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs everything rknnop's build, tests, cross builds and fuzzers need on Debian 12 (as root).
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
packages=(
  build-essential cmake ninja-build pkg-config git python3
  libboost1.81-dev libfmt-dev                 # the SDK's two dependencies (Boost.PFR, {fmt})
  libgtest-dev libgmock-dev libbenchmark-dev  # tests and benchmarks
  libcli11-dev libyaml-cpp-dev nlohmann-json3-dev  # host tools
  g++-aarch64-linux-gnu g++-arm-linux-gnueabihf qemu-user  # board libraries and their tests
  pocl-opencl-icd ocl-icd-opencl-dev opencl-c-headers     # VX shaders on the CPU
  clang-16 libclang-rt-16-dev                 # libFuzzer
)
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

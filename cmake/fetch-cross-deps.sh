#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Extracts a board architecture's Debian packages into a directory (once: a .complete stamp), for
# cross builds and for running their programs under qemu-user:
#   cmake/fetch-cross-deps.sh DEBIAN_ARCH DIR [PACKAGE...]      prints DIR
# The packages are the cross build's own (GoogleTest, {fmt}, yaml-cpp, nlohmann/json) and any given
# after DIR (e.g. OpenCV's runtime and -dev packages for scripts/perf-report-arm.sh). They are
# downloaded with `apt-get download` and extracted with `dpkg -x`, not installed: libyaml-cpp-dev and
# OpenCV's -dev packages are not co-installable across architectures, and a half-synced mirror can
# leave a foreign architecture's dependencies at other versions than the host's. dpkg must know the
# foreign architecture: as root this script adds it.
set -euo pipefail
debarch=${1:?usage: fetch-cross-deps.sh DEBIAN_ARCH DIR [PACKAGE...]}
dir=${2:?usage: fetch-cross-deps.sh DEBIAN_ARCH DIR [PACKAGE...]}
shift 2
# Target packages: GoogleTest (static), {fmt} and yaml-cpp (rknnop::host, rknnop-run), nlohmann/json (.rknn models).
deb_packages=(libgtest-dev libfmt-dev libfmt9 libyaml-cpp-dev libyaml-cpp0.7 "$@")
# Architecture-independent ones, downloaded as they are: nlohmann/json (the .rknn model reader).
deb_packages_all=(nlohmann-json3-dev)

# The stamp names the packages it holds: a folder fetched for fewer (the cross builds' set, then the
# ARM benchmarks' with OpenCV) is fetched again, not taken as it is.
wanted="${deb_packages[*]} ${deb_packages_all[*]}"
if [ -f "$dir/.complete" ] && [ "$(cat "$dir/.complete")" = "$wanted" ]; then echo "$dir"; exit 0; fi
if ! dpkg --print-foreign-architectures | grep -qx "$debarch"; then
  if [ "$(id -u)" = 0 ]; then
    echo "fetch-cross-deps: adding the dpkg architecture $debarch (apt-get update)" >&2
    dpkg --add-architecture "$debarch"
    apt-get update -qq >&2 || true # a half-synced mirror index must not stop the download below
  else
    echo "fetch-cross-deps: dpkg does not know $debarch; as root: dpkg --add-architecture $debarch && apt-get update" >&2
    exit 1
  fi
fi
rm -rf "$dir" && mkdir -p "$dir/debs"
pkgs=()
for p in "${deb_packages[@]}"; do pkgs+=("$p:$debarch"); done
pkgs+=("${deb_packages_all[@]}")
(cd "$dir/debs" && apt-get download "${pkgs[@]}" >&2 2>/dev/null) || {
  echo "fetch-cross-deps: apt-get download ${pkgs[*]} failed" >&2
  exit 1
}
for deb in "$dir"/debs/*.deb; do dpkg -x "$deb" "$dir"; done
printf '%s\n' "$wanted" > "$dir/.complete"
echo "$dir"

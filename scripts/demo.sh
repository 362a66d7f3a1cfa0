#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The demo: one op struct (examples/resize_area/resize_area.cpp) becomes ResizeArea.rknnop with
# kernel libraries for x86-64 (the toolkit's simulator), aarch64 (RK1808/RK3399Pro) and armhf
# (RK1806/RV1109/RV1126), op.yml and the toolkit's Python op; then the host runtime runs it on a sample
# image exactly as the board runtime would (CPU kernel, and the VX shader kernel on OpenCL if present).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Missing Debian packages are installed first (as root or through sudo); one dpkg-query when none is.
bash "$root/scripts/install-deps.sh" --if-missing scripts/demo.sh
build=${RKNNOP_BUILD_ROOT:-$root/build}/demo
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)

say() { printf '\n== %s\n' "$*"; }

say "configure and build (examples + host tools) in $build"
cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRKNNOP_BUILD_TESTS=OFF >/dev/null
cmake --build "$build" -j "${RKNNOP_JOBS:-$(nproc)}" --target ResizeArea_rknnop rknnop-run rknnop-pack
out="$build/examples/resize_area/ResizeArea"

say "what was produced"
ls -l "$out" "$out"/*/ | sed 's/^/  /'
say "rknnop-pack inspect --verify ResizeArea.rknnop"
"$build/tools/rknnop-pack/rknnop-pack" inspect --verify "$out/ResizeArea.rknnop"
say "generated op.yml"
sed 's/^/  /' "$out/op.yml"

say "a sample 1x6x8x3 float16 NHWC image (each channel a different ramp)"
python3 - "$build/sample_images.npy" <<'PY'
import struct, sys
n, h, w, c = 1, 6, 8, 3
values = [float((y * w + x) * (ch + 1)) for y in range(h) for x in range(w) for ch in range(c)]
header = "{'descr': '<f2', 'fortran_order': False, 'shape': (%d, %d, %d, %d), }" % (n, h, w, c)
header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
with open(sys.argv[1], "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
    f.write(struct.pack("<%de" % len(values), *values))
PY
run="$build/tools/rknnop-run/rknnop-run"
say "rknnop-run --describe"
"$run" "$out/ResizeArea.rknnop" --describe
say "rknnop-run: ResizeArea to 3x4 (a 2x downscale: each output pixel is a 2x2 block mean)"
"$run" "$out/ResizeArea.rknnop" --input images="$build/sample_images.npy" --param size=3,4 \
  --param align_corners=false --output output="$build/resized.npy"
python3 - "$build/resized.npy" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
hlen = struct.unpack("<H", data[8:10])[0]
header = data[10:10 + hlen].decode()
body = data[10 + hlen:]
values = struct.unpack("<%de" % (len(body) // 2), body)
print("  output header:", header.strip())
print("  channel 0, row 0:", [values[i * 3] for i in range(4)], "(expected [4.5, 6.5, 8.5, 10.5])")
PY
if "$run" "$out/ResizeArea.rknnop" --kernel-index 1 --input images="$build/sample_images.npy" --param size=3,4 \
     --param align_corners=false --output output="$build/resized_vx.npy" 2>"$build/vx.log"; then
  say "the VX shader kernel (resize_area.vx on OpenCL) gave the same file: $(cmp -s "$build/resized.npy" "$build/resized_vx.npy" && echo yes || echo NO)"
else
  say "the VX shader kernel did not run here: $(tail -1 "$build/vx.log")"
fi

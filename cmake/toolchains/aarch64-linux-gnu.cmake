# SPDX-License-Identifier: MIT
# RK1808 / RK3399Pro (aarch64) with Debian's g++-aarch64-linux-gnu; tests run under
# qemu-aarch64 (qemu-user). Usage: cmake -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64-linux-gnu.cmake
set(RKNNOP_CROSS_TRIPLE aarch64-linux-gnu)
set(RKNNOP_CROSS_PROCESSOR aarch64)
set(RKNNOP_CROSS_QEMU qemu-aarch64)
include("${CMAKE_CURRENT_LIST_DIR}/rknnopCrossCommon.cmake")

# SPDX-License-Identifier: MIT
# RV1109 / RV1126 (armhf, Cortex-A7) with Debian's g++-arm-linux-gnueabihf; tests run under qemu-arm.
# Usage: cmake -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/arm-linux-gnueabihf.cmake
set(RKNNOP_CROSS_TRIPLE arm-linux-gnueabihf)
set(RKNNOP_CROSS_PROCESSOR armv7l)
set(RKNNOP_CROSS_QEMU qemu-arm)
# NEON-VFPv4 has half-precision conversion instructions: __fp16 <-> float become single instructions.
set(CMAKE_C_FLAGS_INIT "-mfp16-format=ieee -mfpu=neon-vfpv4 -mfloat-abi=hard")
set(CMAKE_CXX_FLAGS_INIT "-mfp16-format=ieee -mfpu=neon-vfpv4 -mfloat-abi=hard")
include("${CMAKE_CURRENT_LIST_DIR}/rknnopCrossCommon.cmake")

# SPDX-License-Identifier: MIT
# Shared part of rknnop's Debian cross toolchain files; expects RKNNOP_CROSS_TRIPLE and
# RKNNOP_CROSS_PROCESSOR and the qemu program name in RKNNOP_CROSS_QEMU.
#
# Debian's cross compilers (g++-<triple>) know their sysroot (/usr/<triple>) and also search the
# multiarch directories (/usr/lib/<triple>, /usr/include), where `apt install libgtest-dev:arm64`
# and friends put target libraries. So: no CMAKE_SYSROOT, find_* look in the cross root and in the
# multiarch directories, never in the host's own library directories.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR ${RKNNOP_CROSS_PROCESSOR})
set(CMAKE_LIBRARY_ARCHITECTURE ${RKNNOP_CROSS_TRIPLE})

set(RKNNOP_CROSS_ROOT "/usr/${RKNNOP_CROSS_TRIPLE}" CACHE PATH
    "rknnop: root of the target's C library and libstdc++ (Debian's cross packages put them here)")
set(RKNNOP_CROSS_EXTRA_ROOTS "" CACHE PATH
    "rknnop: more roots holding target packages (e.g. Debian -dev packages of the target extracted with dpkg -x)")

find_program(CMAKE_C_COMPILER ${RKNNOP_CROSS_TRIPLE}-gcc REQUIRED)
find_program(CMAKE_CXX_COMPILER ${RKNNOP_CROSS_TRIPLE}-g++ REQUIRED)

set(CMAKE_FIND_ROOT_PATH "${RKNNOP_CROSS_ROOT}" ${RKNNOP_CROSS_EXTRA_ROOTS} /)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# The root "/" is searched for multiarch files only: <prefix>/lib/<triple>. Keep the host's
# x86-64 package configs and libraries out of reach.
set(CMAKE_IGNORE_PREFIX_PATH "/usr/lib/x86_64-linux-gnu" "/lib/x86_64-linux-gnu")

# Cross-built tests run under QEMU user-mode emulation (ctest and gtest_discover_tests use this).
find_program(RKNNOP_CROSS_QEMU_PROGRAM ${RKNNOP_CROSS_QEMU})
if(RKNNOP_CROSS_QEMU_PROGRAM)
  set(CMAKE_CROSSCOMPILING_EMULATOR "${RKNNOP_CROSS_QEMU_PROGRAM};-L;${RKNNOP_CROSS_ROOT}")
endif()

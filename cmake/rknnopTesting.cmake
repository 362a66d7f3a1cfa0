# SPDX-License-Identifier: MIT
# Shared test settings: strict warnings for everything the project compiles itself.
include_guard(GLOBAL)

# Off by default: a user's compiler or flags (another GCC, -O3) must not turn a new warning into a
# failed build. CI's native and sanitizer builds turn it on (scripts/test.sh), as should a developer
# preset. Cross builds keep it off (cmake/run-cross-tests.sh): GCC 12's aarch64/arm middle end warns
# falsely inside libstdc++'s inlined code at -O2 (-Warray-bounds, -Wrestrict, -Wdangling-pointer).
# The outside stacks the runtime tests use (docs/testing.md), declared once for tests/, board/ and
# board/galcore: the cache, or the environment the first configure sees.
set(RKNNOP_BOARD_DRIVERS "$ENV{RKNNOP_BOARD_DRIVERS}" CACHE PATH
    "rknnop tests: an rknpu checkout (github.com/rockchip-linux/rknpu) whose drivers/ board libraries load ours")
set(RKNNOP_RKNPU2_RUNTIME "$ENV{RKNNOP_RKNPU2_RUNTIME}" CACHE PATH
    "rknnop tests: an RKNPU2 runtime folder (armhf/librknnrt.so 1.6.0, include/rknn_api.h, include/rknn_custom_op.h)")
set(RKNNOP_RKNPU2_SAMPLES "$ENV{RKNNOP_RKNPU2_SAMPLES}" CACHE PATH
    "rknnop tests: RKNPU2's SDK folder holding rknn_custom_op_demo/ (2.0.0b0)")

option(RKNNOP_WARNINGS_AS_ERRORS "Treat warnings in rknnop's own code as errors (CI and developers)" OFF)
add_library(rknnop_strict_warnings INTERFACE)
target_compile_options(rknnop_strict_warnings INTERFACE
  $<$<COMPILE_LANG_AND_ID:CXX,GNU,Clang>:-Wall -Wextra -Wpedantic -Wconversion -Wshadow>
  # The same set with every compiler (docs/compilers.md): Clang's -Wconversion includes
  # -Wsign-conversion, GCC's (for C++) does not.
  $<$<COMPILE_LANG_AND_ID:CXX,Clang>:-Wno-sign-conversion>
  $<$<COMPILE_LANG_AND_ID:C,GNU,Clang>:-Wall -Wextra -Wpedantic>)
if(RKNNOP_WARNINGS_AS_ERRORS)
  target_compile_options(rknnop_strict_warnings INTERFACE $<$<COMPILE_LANG_AND_ID:CXX,GNU,Clang>:-Werror>
                                                          $<$<COMPILE_LANG_AND_ID:C,GNU,Clang>:-Werror>)
endif()

# rknnop_add_gtest(<name> [SERIAL] SOURCES ... LIBS ...): one GoogleTest program, its tests
# discovered at test time (so cross builds run discovery under the emulator too). SERIAL: its tests
# run alone (ctest's RUN_SERIAL), for ratios of CPU times that other tests' cache and memory traffic
# would distort.
function(rknnop_add_gtest name)
  cmake_parse_arguments(ARG "SERIAL" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} GTest::gtest_main rknnop_strict_warnings)
  if(CMAKE_CROSSCOMPILING AND CMAKE_CROSSCOMPILING_EMULATOR)
    # Tests that start the project's tools must prefix this (without binfmt_misc the kernel cannot
    # exec a foreign binary): "qemu-aarch64 -L /usr/aarch64-linux-gnu".
    list(JOIN CMAKE_CROSSCOMPILING_EMULATOR " " _emulator)
    target_compile_definitions(${name} PRIVATE "RKNNOP_TEST_EMULATOR=\"${_emulator}\"")
  endif()
  set(_properties)
  if(ARG_SERIAL)
    set(_properties PROPERTIES RUN_SERIAL TRUE)
  endif()
  gtest_discover_tests(${name} DISCOVERY_MODE PRE_TEST DISCOVERY_TIMEOUT 60 ${_properties})
endfunction()

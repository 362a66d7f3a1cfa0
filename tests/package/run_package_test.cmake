# SPDX-License-Identifier: MIT
# cmake -DMODE=install|add_subdirectory|fetchcontent|pkgconfig -DRKNNOP_SOURCE_DIR=... -DCONSUMER_SOURCE_DIR=...
#       -DWORK_DIR=... -DGENERATOR=... -DCXX=... -DC=... -DRKNNOP_VERSION=x.y.z -P run_package_test.cmake
cmake_minimum_required(VERSION 3.21)

function(run what)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY "${WORK_DIR}" RESULT_VARIABLE _rc
                  OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "package.${MODE}: ${what} failed (${_rc}):\n${_out}")
  endif()
  message(STATUS "package.${MODE}: ${what}: ok")
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(_compilers "-DCMAKE_CXX_COMPILER=${CXX}" "-DCMAKE_C_COMPILER=${C}")
set(_prefix "${WORK_DIR}/prefix")

if(MODE STREQUAL "install" OR MODE STREQUAL "pkgconfig")
  # Only the install rules: nothing of rknnop is compiled for an install of the header-only SDK.
  run("configure rknnop for installation" "${CMAKE_COMMAND}" -S "${RKNNOP_SOURCE_DIR}" -B "${WORK_DIR}/rknnop-build"
      -G "${GENERATOR}" ${_compilers} "-DCMAKE_INSTALL_PREFIX=${_prefix}" -DRKNNOP_INSTALL=ON
      -DRKNNOP_BUILD_TESTS=OFF -DRKNNOP_BUILD_EXAMPLES=OFF -DRKNNOP_BUILD_HOST=OFF)
  run("install rknnop" "${CMAKE_COMMAND}" --install "${WORK_DIR}/rknnop-build")
  foreach(_file include/rknnop/op.hpp include/rknnop/emit.hpp share/rknnop/cmake/rknnopConfig.cmake
                share/rknnop/cmake/rknnopConfigVersion.cmake share/rknnop/cmake/rknnopAddOp.cmake
                share/pkgconfig/rknnop.pc)
    if(NOT EXISTS "${_prefix}/${_file}")
      message(FATAL_ERROR "package.${MODE}: the install lacks ${_file}")
    endif()
  endforeach()
  foreach(_compiled host vxc parity)
    if(EXISTS "${_prefix}/include/rknnop/${_compiled}")
      message(FATAL_ERROR "package.${MODE}: include/rknnop/${_compiled} belongs to rknnop::${_compiled}, which is not installed")
    endif()
  endforeach()
endif()

if(MODE STREQUAL "pkgconfig")
  find_program(_pkg_config pkg-config REQUIRED)
  set(ENV{PKG_CONFIG_PATH} "${_prefix}/share/pkgconfig")
  execute_process(COMMAND "${_pkg_config}" --modversion rknnop OUTPUT_VARIABLE _version
                  OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE _rc ERROR_VARIABLE _err)
  if(NOT _rc EQUAL 0 OR NOT _version STREQUAL RKNNOP_VERSION)
    message(FATAL_ERROR "package.pkgconfig: pkg-config --modversion rknnop gave '${_version}' (${_err}), "
                        "expected ${RKNNOP_VERSION}")
  endif()
  foreach(_pc rknnop-kernel rknnop)
    execute_process(COMMAND "${_pkg_config}" --cflags ${_pc} OUTPUT_VARIABLE _cflags
                    OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE _rc ERROR_VARIABLE _err)
    if(NOT _rc EQUAL 0 OR NOT _cflags MATCHES "-I[^ ]*/include")
      message(FATAL_ERROR "package.pkgconfig: pkg-config --cflags ${_pc} failed or names no include dir: '${_cflags}' ${_err}")
    endif()
    separate_arguments(_cflags UNIX_COMMAND "${_cflags}")
    set(_cflags_${_pc} ${_cflags})
  endforeach()
  execute_process(COMMAND "${_pkg_config}" --variable=kernel_support rknnop-kernel OUTPUT_VARIABLE _support
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT EXISTS "${_support}")
    message(FATAL_ERROR "package.pkgconfig: rknnop-kernel.pc's kernel_support variable names no file: '${_support}'")
  endif()
  # A kernel library the Makefile way: one plain compiler call (no -fvisibility=hidden, no version
  # script), flags from rknnop-kernel.pc, plus the kernel support file the .pc names.
  run("compile a kernel library with pkg-config's flags" "${CXX}" -std=c++20 -O2 -fPIC -shared
      ${_cflags_rknnop-kernel} "${CONSUMER_SOURCE_DIR}/tiny.cpp" "${_support}" -o "${WORK_DIR}/libtiny.so")
  # The SDK's headers hide everything of their own: only the list is exported.
  find_program(_readelf readelf REQUIRED)
  execute_process(COMMAND "${_readelf}" -W --dyn-syms "${WORK_DIR}/libtiny.so" OUTPUT_VARIABLE _syms)
  string(REGEX MATCHALL "[^\n]*(GLOBAL|WEAK|UNIQUE) +DEFAULT +[0-9]+ [^\n]*" _exported "${_syms}")
  list(LENGTH _exported _count)
  if(NOT _count EQUAL 1 OR NOT _exported MATCHES " vx_kernel_Tiny_list$")
    string(REPLACE ";" "\n" _exported "${_exported}")
    message(FATAL_ERROR "package.pkgconfig: a plain g++ -shared build exports ${_count} symbols, expected only "
                        "vx_kernel_Tiny_list:\n${_exported}")
  endif()
  # At -O0 nothing is inlined: still nothing of rknnop's own (Boost.PFR's and std's instantiations
  # are theirs; -fvisibility=hidden or rknnop_add_op removes those too).
  run("compile a kernel library at -O0" "${CXX}" -std=c++20 -O0 -fPIC -shared ${_cflags_rknnop-kernel}
      "${CONSUMER_SOURCE_DIR}/tiny.cpp" -o "${WORK_DIR}/libtiny_O0.so")
  execute_process(COMMAND "${_readelf}" -W --dyn-syms "${WORK_DIR}/libtiny_O0.so" OUTPUT_VARIABLE _syms)
  string(REGEX MATCHALL "(GLOBAL|WEAK|UNIQUE) +DEFAULT +[0-9]+ _Z[A-Z]*6rknnop[^\n]*" _own "${_syms}")
  if(_own)
    string(REPLACE ";" "\n" _own "${_own}")
    message(FATAL_ERROR "package.pkgconfig: a plain -O0 build exports rknnop's own symbols:\n${_own}")
  endif()
  # And with rknnop.pc (adds {fmt}): the op as its emitter compiles it, plus the emitter's own headers
  # (op.hpp does not reach them; the generated main includes <rknnop/emit/program.hpp>).
  run("compile the emitter with pkg-config's flags" "${CXX}" -std=c++20 -fsyntax-only -DRKNNOP_EMITTER
      ${_cflags_rknnop} -include rknnop/emit.hpp "${CONSUMER_SOURCE_DIR}/tiny.cpp")
  file(READ "${WORK_DIR}/libtiny.so" _magic LIMIT 4 HEX)
  if(NOT _magic STREQUAL "7f454c46")
    message(FATAL_ERROR "package.pkgconfig: libtiny.so is not an ELF file")
  endif()
  return()
endif()

set(_consumer_args "-DCONSUMER_MODE=${MODE}" "-DRKNNOP_SOURCE_DIR=${RKNNOP_SOURCE_DIR}")
if(MODE STREQUAL "install")
  list(APPEND _consumer_args "-DCMAKE_PREFIX_PATH=${_prefix}" -DCONSUMER_BOARD_LIBRARIES=ON)
endif()
run("configure the consumer" "${CMAKE_COMMAND}" -S "${CONSUMER_SOURCE_DIR}" -B "${WORK_DIR}/consumer-build"
    -G "${GENERATOR}" ${_compilers} ${_consumer_args})
run("build the consumer" "${CMAKE_COMMAND}" --build "${WORK_DIR}/consumer-build" -j 2)
run("run the consumer" "${WORK_DIR}/consumer-build/consumer_check")
foreach(_file Tiny/x86_64/libtiny.so Tiny/op.yml Tiny/rknn_op_tiny.py Tiny/Tiny.rknnop)
  if(NOT EXISTS "${WORK_DIR}/consumer-build/${_file}")
    message(FATAL_ERROR "package.${MODE}: the consumer build has no ${_file}")
  endif()
endforeach()
if(MODE STREQUAL "install")
  # The installed tree is arch-independent: the board libraries come out of it too (when the cross
  # compilers are installed; rknnop_add_op then builds them by default).
  foreach(_arch_cxx aarch64=aarch64-linux-gnu-g++ armhf=arm-linux-gnueabihf-g++)
    string(REPLACE "=" ";" _pair "${_arch_cxx}")
    list(GET _pair 0 _arch)
    list(GET _pair 1 _cxx_name)
    find_program(_cross_${_arch} ${_cxx_name})
    if(_cross_${_arch} AND NOT EXISTS "${WORK_DIR}/consumer-build/Tiny/${_arch}/libtiny.so")
      message(FATAL_ERROR "package.install: ${_cxx_name} exists but Tiny/${_arch}/libtiny.so was not built")
    endif()
  endforeach()
endif()

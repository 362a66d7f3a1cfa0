# SPDX-License-Identifier: MIT
# cmake -DCC=cc -DSOURCE=probe.c -DARCH=aarch64|armhf -DREADELF=readelf -DCHECK=rknnopCheckKernelLibrary.cmake
#       -DBOARD_ABI=.../rknnop/board_abi.hpp
#       -DWORK=dir [-DMISSING=1 -DEXPECT=text;text...] -P check_imports_test.cmake
# Builds a stand-in kernel library and runs rknnop_add_op's post-link check on it as a board library of
# ARCH: it must pass when the library imports only what the boards' drivers export, and fail naming
# the function and the board when it imports one more (MISSING).
foreach(_var CC SOURCE ARCH READELF CHECK BOARD_ABI WORK)
  if(NOT ${_var})
    message(FATAL_ERROR "check_imports_test: -D${_var}= is required")
  endif()
endforeach()
file(MAKE_DIRECTORY "${WORK}")
set(_lib "${WORK}/libprobe_${ARCH}_${MISSING}.so")
set(_defs)
if(MISSING)
  set(_defs -DRKNNOP_IMPORT_MISSING)
endif()
execute_process(COMMAND "${CC}" -shared -fPIC -nostdlib -fvisibility=hidden ${_defs} "${SOURCE}" -o "${_lib}"
                RESULT_VARIABLE _rc ERROR_VARIABLE _err)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "check_imports_test: cannot build the stand-in library: ${_err}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" "-DLIBRARY=${_lib}" -DOP=Probe "-DARCH=${ARCH}" "-DREADELF=${READELF}"
                        "-DBOARD_ABI=${BOARD_ABI}" -P "${CHECK}"
                RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
if(MISSING)
  if(_rc EQUAL 0)
    message(FATAL_ERROR "check_imports_test: the check accepted a library importing vxQueryTensorCompressedLayout")
  endif()
  string(REGEX REPLACE "[ \t\r\n]+" " " _flat "${_err}")  # CMake wraps long messages
  foreach(_text IN LISTS EXPECT)
    string(FIND "${_flat}" "${_text}" _at)
    if(_at EQUAL -1)
      message(FATAL_ERROR "check_imports_test: the check's message lacks \"${_text}\":\n${_err}")
    endif()
  endforeach()
  message(STATUS "rknnop: board import check: the check refused it, as it must:\n${_err}")
else()
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "check_imports_test: the check refused a library importing only vxQueryTensor:\n${_err}")
  endif()
  message(STATUS "rknnop: board import check: libprobe (${ARCH}) imports only what its boards export")
endif()

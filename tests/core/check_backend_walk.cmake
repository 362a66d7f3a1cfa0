# SPDX-License-Identifier: MIT
# What a backend's compiled translation unit reads (docs/architecture.md §1, the rooms): every source
# is preprocessed as rknnop_add_op compiles it for the backend (-M: the compiler's own list of every
# file it opens, whatever #if or force-include brought it in), and none of those files may be
# another backend's. For RKNPU2: no OpenVX file (detail/openvx/, detail/vx_api.hpp, openvx.h,
# detail/openvx_core.h, openvx_helper.h, a vendor's VX/), so a walk of an RKNPU2 compute call
# enters no OpenVX file.
#   cmake -DCXX=<compiler> -DBACKEND=rknpu2 -DINCLUDES=<dir;dir> -DSOURCES=<a.cpp;b.cpp> -P check_backend_walk.cmake
# Every file that breaks the rule is one "rknnop: backend walk: ..." line; the script fails if there is any.
cmake_minimum_required(VERSION 3.20)

if(NOT CXX OR NOT SOURCES OR NOT BACKEND)
  message(FATAL_ERROR "rknnop: backend walk: CXX, BACKEND and SOURCES are required")
endif()
if(BACKEND STREQUAL "rknpu2")
  # the flags that change what the preprocessor reads, as rknnop_add_op gives them (cmake/rknnopRknpu2.cmake)
  set(_flags -fno-exceptions -fno-rtti -DRKNNOP_COMPACT_GLUE=1 -DRKNNOP_RKNPU2_BACKEND=1 -include rknnop/rknpu2.hpp)
  set(_forbidden "rknnop/detail/openvx/|rknnop/detail/vx_api\\.hpp|rknnop/openvx\\.h|rknnop/detail/openvx_(core|helper)\\.h|/VX/")
  set(_what "an OpenVX file")
else()
  message(FATAL_ERROR "rknnop: backend walk: BACKEND must be rknpu2 (got '${BACKEND}')")
endif()

set(_inc)
foreach(_d IN LISTS INCLUDES)
  list(APPEND _inc "-I${_d}")
endforeach()

set(_errors)
set(_files 0)
foreach(_src IN LISTS SOURCES)
  execute_process(COMMAND ${CXX} -std=c++20 -M ${_inc} ${_flags} ${_src}
                  OUTPUT_VARIABLE _deps ERROR_VARIABLE _err RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    list(APPEND _errors "${_src}: the compiler could not preprocess it for ${BACKEND}: ${_err}")
    continue()
  endif()
  string(REPLACE "\\\n" " " _deps "${_deps}")
  string(REGEX REPLACE "[ \t\n]+" ";" _deps "${_deps}")
  foreach(_f IN LISTS _deps)
    if(_f STREQUAL "" OR _f MATCHES ":$")
      continue()
    endif()
    math(EXPR _files "${_files} + 1")
    if(_f MATCHES "${_forbidden}")
      get_filename_component(_name "${_src}" NAME)
      list(APPEND _errors "${_name} compiled for ${BACKEND} reads ${_what}: ${_f}")
    endif()
  endforeach()
endforeach()

if(_errors)
  list(LENGTH _errors _count)
  foreach(_e IN LISTS _errors)
    message("rknnop: backend walk: ${_e}")
  endforeach()
  message(FATAL_ERROR "rknnop: backend walk: ${_count} file(s) of another backend in a ${BACKEND} translation unit")
endif()
list(LENGTH SOURCES _n)
message("rknnop: backend walk: ${_n} source(s) compiled for ${BACKEND} read ${_files} files, none of another backend")

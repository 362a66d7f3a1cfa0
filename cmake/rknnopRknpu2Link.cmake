# SPDX-License-Identifier: MIT
# cmake -DSUPPORT=rknpu2-support.txt -DLIBRARY=librkcst_x.so -DSTAMP=file -DARCH=a -DOP=Name
#       -DLINK="cxx;args..." [-DCHECK="cmake;-D...;..."] [-DOBJCOPY=objcopy] -DMODULE_DIR=dir
#       -P rknnopRknpu2Link.cmake
# Links an RKNPU2 plugin when the op can be one (SUPPORT holds "ok", written by the op's emitter),
# checks it as the board kernel libraries are checked, strips it (with OBJCOPY: the debug info and
# symbol table stay beside it in <plugin>.debug, named by its .gnu_debuglink) and touches STAMP;
# otherwise prints the emitter's one line (for the x86_64 plugin only: once per op) and leaves no
# plugin behind.
cmake_minimum_required(VERSION 3.21)
file(STRINGS "${SUPPORT}" _support LIMIT_COUNT 1)
get_filename_component(_dir "${LIBRARY}" DIRECTORY)
file(MAKE_DIRECTORY "${_dir}")
if(NOT _support STREQUAL "ok")
  file(REMOVE "${LIBRARY}")
  if(ARCH STREQUAL "x86_64")
    message("rknnop: ${OP}: ${_support}")
  endif()
  file(TOUCH "${STAMP}")
  return()
endif()
execute_process(COMMAND ${LINK} RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  file(REMOVE "${LIBRARY}.tmp")
  message(FATAL_ERROR "rknnop: ${OP}: linking the ${ARCH} RKNPU2 plugin failed")
endif()
if(CHECK)
  execute_process(COMMAND ${CHECK} "-DLIBRARY=${LIBRARY}.tmp" "-DRENAME_TO=${LIBRARY}" "-DARCH=${ARCH}"
                          -P "${MODULE_DIR}/rknnopCheckKernelLibrary.cmake" RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "rknnop: ${OP}: the ${ARCH} RKNPU2 plugin failed its check (above)")
  endif()
else()
  file(RENAME "${LIBRARY}.tmp" "${LIBRARY}")
endif()
if(OBJCOPY)
  execute_process(COMMAND "${CMAKE_COMMAND}" "-DOBJCOPY=${OBJCOPY}" "-DLIBRARY=${LIBRARY}" "-DOUTPUT=${LIBRARY}"
                          "-DDEBUG_FILE=${LIBRARY}.debug" -P "${MODULE_DIR}/rknnopStripLibrary.cmake"
                  RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "rknnop: ${OP}: stripping the ${ARCH} RKNPU2 plugin failed (above)")
  endif()
endif()
file(TOUCH "${STAMP}")

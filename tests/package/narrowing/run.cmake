# SPDX-License-Identifier: MIT
# cmake -DRKNNOP_SOURCE_DIR=... -DWORK_DIR=... -DGENERATOR=... -DCXX=... -P run.cmake
# Configures the narrowing project and builds its emitter; prints what the compiler said, for the
# test's PASS_REGULAR_EXPRESSION (GCC and Clang stop with an error naming the line and the value).
cmake_minimum_required(VERSION 3.21)
file(REMOVE_RECURSE "${WORK_DIR}")
execute_process(COMMAND "${CMAKE_COMMAND}" -S "${CMAKE_CURRENT_LIST_DIR}" -B "${WORK_DIR}" -G "${GENERATOR}"
                        "-DCMAKE_CXX_COMPILER=${CXX}" "-DRKNNOP_SOURCE_DIR=${RKNNOP_SOURCE_DIR}"
                RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "configure failed (${_rc}):\n${_out}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${WORK_DIR}" --target Narrow_emitter
                RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
message("${_out}")
file(REMOVE_RECURSE "${WORK_DIR}")

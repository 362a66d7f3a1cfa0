# SPDX-License-Identifier: MIT
# One per-call pipeline (docs/architecture.md §1, "The invocation core and the three backends"):
#   cmake -DINCLUDE_DIR=<dir holding rknnop/> -P check_one_pipeline.cmake
# Only the core's detail/invoke/pipeline.hpp calls an op's kernel (`Op::cpu(`) or runs `infer` for a
# call (`Op::infer(`; detail/schema.hpp's compile-time probe of `infer` is not a call path), only it
# settles an output's inferred shape against the runtime's (`settle_output_shape<`: the per-call path
# and RKNPU2's init both go through its infer_and_settle), and only it unloads (thread_hooks::unload,
# scratch_cache::drain). Every violation is one "rknnop: pipeline:" line.
cmake_minimum_required(VERSION 3.20)
if(NOT INCLUDE_DIR OR NOT IS_DIRECTORY "${INCLUDE_DIR}/rknnop")
  message(FATAL_ERROR "rknnop: pipeline: INCLUDE_DIR must name a directory holding rknnop/ (got '${INCLUDE_DIR}')")
endif()
set(_core "rknnop/detail/invoke/pipeline.hpp")
set(_allowed_infer "rknnop/detail/schema.hpp")  # the emitter's probe, compile time only
set(_allowed_unload "rknnop/detail/threads.hpp" "rknnop/detail/scratch.hpp")  # where they are defined
file(GLOB_RECURSE _headers RELATIVE "${INCLUDE_DIR}" "${INCLUDE_DIR}/rknnop/*.hpp")
set(_errors)
foreach(_h IN LISTS _headers)
  if(_h STREQUAL _core)
    continue()
  endif()
  file(STRINGS "${INCLUDE_DIR}/${_h}" _lines
       REGEX "Op::cpu\\(|Op::infer\\(|thread_hooks::unload\\(|scratch_cache::drain\\(|settle_output_shape<")
  foreach(_l IN LISTS _lines)
    if(_l MATCHES "Op::infer\\(" AND _h IN_LIST _allowed_infer AND NOT _l MATCHES "Op::cpu\\(")
      continue()
    endif()
    if(_l MATCHES "(thread_hooks::unload|scratch_cache::drain)\\(" AND _h IN_LIST _allowed_unload)
      continue()
    endif()
    string(STRIP "${_l}" _l)
    string(REPLACE ";" "," _l "${_l}")  # one list item
    if(_l MATCHES "settle_output_shape<")
      list(APPEND _errors "${_h}: '${_l}': only ${_core} settles an output's inferred shape (infer_and_settle)")
      continue()
    endif()
    list(APPEND _errors "${_h}: '${_l}': only ${_core} runs an op's functions for a call and unloads")
  endforeach()
endforeach()
if(_errors)
  list(LENGTH _errors _count)
  foreach(_e IN LISTS _errors)
    message("rknnop: pipeline: ${_e}")
  endforeach()
  message(FATAL_ERROR "rknnop: pipeline: ${_count} second pipeline(s)")
endif()
message("rknnop: pipeline: one per-call pipeline (${_core})")

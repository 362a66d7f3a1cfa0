# SPDX-License-Identifier: MIT
# src/ in rooms (docs/architecture.md §1): one folder a job, none holding more than LIMIT files, so a
# reader finds formats, loading, running and isolation apart instead of side by side.
#   cmake -DROOT=<source tree> [-DLIMIT=12] -P check_rooms.cmake
# Every folder under ROOT/src (and src itself) is counted: its files, not its subfolders and not
# CMakeLists.txt. A folder over the limit is one "rknnop: rooms: ..." line; the script fails if any is.
cmake_minimum_required(VERSION 3.20)

if(NOT ROOT OR NOT IS_DIRECTORY "${ROOT}/src")
  message(FATAL_ERROR "rknnop: rooms: ROOT must name a source tree with a src/ folder (got '${ROOT}')")
endif()
if(NOT LIMIT)
  set(LIMIT 12)
endif()

file(GLOB_RECURSE _all LIST_DIRECTORIES true RELATIVE "${ROOT}" "${ROOT}/src/*")
set(_folders src)
foreach(_entry IN LISTS _all)
  if(IS_DIRECTORY "${ROOT}/${_entry}")
    list(APPEND _folders "${_entry}")
  endif()
endforeach()
list(SORT _folders)

set(_errors)
set(_summary)
foreach(_folder IN LISTS _folders)
  file(GLOB _entries LIST_DIRECTORIES true RELATIVE "${ROOT}/${_folder}" "${ROOT}/${_folder}/*")
  set(_count 0)
  foreach(_name IN LISTS _entries)
    if(NOT IS_DIRECTORY "${ROOT}/${_folder}/${_name}" AND NOT _name STREQUAL "CMakeLists.txt")
      math(EXPR _count "${_count} + 1")
    endif()
  endforeach()
  list(APPEND _summary "${_folder} ${_count}")
  if(_count GREATER LIMIT)
    list(APPEND _errors
         "rknnop: rooms: ${_folder} holds ${_count} files, more than ${LIMIT}: split it by job (docs/architecture.md §1)")
  endif()
endforeach()

if(_errors)
  list(JOIN _errors "\n" _text)
  message(FATAL_ERROR "${_text}")
endif()
list(JOIN _summary ", " _text)
message(STATUS "rknnop: rooms: every folder of src/ holds at most ${LIMIT} files (${_text})")

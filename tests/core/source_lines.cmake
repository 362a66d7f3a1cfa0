# SPDX-License-Identifier: MIT
# The two steps every source scan of tests/core shares (check_detail_private.cmake,
# check_vx_type_lists.cmake): which files to read, and a file as a list of its lines.

# The C/C++ sources (h, hpp, c, cpp, in) below each folder of ARGN, relative to `root`, sorted.
function(rknnop_source_files out root)
  set(_files)
  foreach(_dir IN LISTS ARGN)
    foreach(_ext h hpp c cpp in)
      file(GLOB_RECURSE _found RELATIVE "${root}" "${root}/${_dir}/*.${_ext}")
      list(APPEND _files ${_found})
    endforeach()
  endforeach()
  list(REMOVE_DUPLICATES _files)
  list(SORT _files)
  set(${out} "${_files}" PARENT_SCOPE)
endfunction()

# The file's lines as a CMake list. ';', brackets and backslashes would split, join or escape list
# items, so they are masked first as <semicolon>, <open>, <close>, <backslash>.
function(rknnop_source_lines out path)
  file(READ "${path}" _text)
  string(REPLACE ";" "<semicolon>" _text "${_text}")
  string(REPLACE "[" "<open>" _text "${_text}")
  string(REPLACE "]" "<close>" _text "${_text}")
  string(REPLACE "\\" "<backslash>" _text "${_text}")
  string(REPLACE "\n" ";" _lines "${_text}")
  set(${out} "${_lines}" PARENT_SCOPE)
endfunction()

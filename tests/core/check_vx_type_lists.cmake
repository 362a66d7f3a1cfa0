# SPDX-License-Identifier: MIT
# One table of VX types (docs/architecture.md §7): every list of VX value types derives from
# vx_type_table (include/rknnop/detail/vx_types.hpp; the tensor element types from dtype_table,
# detail/dtypes.hpp). Code that needs a type's C++ type, range, size or name asks the table
# (<rknnop/vx_type.hpp>: visit_scalar_type, visit_tensor_element_type, vx_type_integer_range,
# vx_type_is_floating, vx_scalar_size, vx_type_name, ...) instead of listing types by hand.
#   cmake -DROOT=<source tree> -P check_vx_type_lists.cmake
# Every C/C++ file under src/, tools/, examples/ and include/ but the two table headers is read. A
# hand-written list is
#   - a run of consecutive `case` lines naming three or more VX value types (vx_type::int8,
#     VX_TYPE_INT8, dtype::int8, npy_dtype::int8, ...), or
#   - one line comparing a value with three or more of them (`t == vx_type::float16 || ...`);
# each is one "rknnop: vx-type lists: file:line: ..." line, and the script fails if there is any.
# The object types (SCALAR, ARRAY, TENSOR, REFERENCE) are no value types: a switch over them passes.
cmake_minimum_required(VERSION 3.20)

if(NOT ROOT OR NOT IS_DIRECTORY "${ROOT}")
  message(FATAL_ERROR "rknnop: vx-type lists: ROOT must name the source tree (got '${ROOT}')")
endif()

set(_tables include/rknnop/detail/vx_types.hpp include/rknnop/detail/dtypes.hpp)
include("${CMAKE_CURRENT_LIST_DIR}/source_lines.cmake")
rknnop_source_files(_files "${ROOT}" src tools examples include)
list(REMOVE_ITEM _files ${_tables})

# A VX value type in any of its C++ spellings.
set(_name "(vx_type::|VX_TYPE_|dtype::)(char_|int8|uint8|int16|uint16|int32|uint32|int64|uint64|float16|float32|float64|bool_|bool8|CHAR|INT8|UINT8|INT16|UINT16|INT32|UINT32|INT64|UINT64|FLOAT16|FLOAT32|FLOAT64|BOOL8|BOOL|ENUM|SIZE|enum_|size)([^A-Za-z0-9_]|$)")
set(_limit 3)

set(_errors)
foreach(_f IN LISTS _files)
  rknnop_source_lines(_lines "${ROOT}/${_f}")
  set(_n 0)
  set(_run_start 0)
  set(_run_types 0)
  foreach(_l IN LISTS _lines)
    math(EXPR _n "${_n} + 1")
    string(REGEX REPLACE "//.*$" "" _code "${_l}")  # comments may name types
    if(_code MATCHES "^[ \t]*case[ \t]")
      if(_run_start EQUAL 0)
        set(_run_start ${_n})
      endif()
      if(_code MATCHES "^[ \t]*case[ \t]+[A-Za-z0-9_:]*${_name}")
        math(EXPR _run_types "${_run_types} + 1")
      endif()
    else()
      if(_run_types GREATER_EQUAL _limit)
        list(APPEND _errors "${_f}:${_run_start}: a switch lists ${_run_types} VX types by hand: dispatch through the table (<rknnop/vx_type.hpp>: visit_scalar_type, visit_tensor_element_type, vx_type_integer_range, ...)")
      endif()
      set(_run_start 0)
      set(_run_types 0)
    endif()
    string(REGEX MATCHALL "==[ \t]*[A-Za-z0-9_:]*${_name}" _compared "${_code}")
    list(LENGTH _compared _count)
    if(_count GREATER_EQUAL _limit)
      list(APPEND _errors "${_f}:${_n}: compares with ${_count} VX types by hand: ask the table (vx_type_is_floating, vx_type_integer_range, vx_tensor_element_size, ...)")
    endif()
  endforeach()
  if(_run_types GREATER_EQUAL _limit)
    list(APPEND _errors "${_f}:${_run_start}: a switch lists ${_run_types} VX types by hand: dispatch through the table")
  endif()
endforeach()

if(_errors)
  list(LENGTH _errors _count)
  foreach(_e IN LISTS _errors)
    message("rknnop: vx-type lists: ${_e}")
  endforeach()
  message(FATAL_ERROR "rknnop: vx-type lists: ${_count} hand-written list(s) of VX types outside vx_type_table (docs/architecture.md §7)")
endif()
list(LENGTH _files _nf)
message("rknnop: vx-type lists: ${_nf} files of src/, tools/, examples/ and include/ list no VX types by hand")

# SPDX-License-Identifier: MIT
# detail/ is private to the SDK's headers (docs/architecture.md §1): the SDK's own headers
# (include/rknnop/*.hpp, detail/, emit/) implement through rknnop::detail; nothing else names it.
#   cmake -DROOT=<source tree> -P check_detail_private.cmake
# Every C/C++ file under src/, tools/, examples/ and include/rknnop/{host,vxc,parity} is read; a line
# that names `detail::` (any namespace of that name: a library's private helpers take another name,
# so that a grep for detail:: finds only the SDK) or includes <rknnop/detail/...> is one
# "rknnop: detail: file:line: ..." line, and the script fails if there is any.
cmake_minimum_required(VERSION 3.20)

if(NOT ROOT OR NOT IS_DIRECTORY "${ROOT}")
  message(FATAL_ERROR "rknnop: detail: ROOT must name the source tree (got '${ROOT}')")
endif()

include("${CMAKE_CURRENT_LIST_DIR}/source_lines.cmake")
rknnop_source_files(_files "${ROOT}" src tools examples include/rknnop/host include/rknnop/vxc include/rknnop/parity)

set(_errors)
foreach(_f IN LISTS _files)
  rknnop_source_lines(_lines "${ROOT}/${_f}")
  set(_n 0)
  foreach(_l IN LISTS _lines)
    math(EXPR _n "${_n} + 1")
    if(_l MATCHES "#[ \t]*include[ \t]*[<\"]rknnop/detail/")
      list(APPEND _errors "${_f}:${_n}: includes <rknnop/detail/...>: include the public header instead (<rknnop/vx_type.hpp>, <rknnop/schema.hpp>, ...)")
    elseif(_l MATCHES "(^|[^A-Za-z0-9_])detail::")
      string(STRIP "${_l}" _shown)
      list(APPEND _errors "${_f}:${_n}: names detail:: ('${_shown}'): use the SDK's public names (a library's own helpers go in a namespace of another name)")
    elseif(_l MATCHES "namespace[ \t]+([A-Za-z0-9_]+::)*detail[ \t]*{")
      list(APPEND _errors "${_f}:${_n}: declares a namespace detail: give a library's private helpers another name")
    endif()
  endforeach()
endforeach()

if(_errors)
  list(LENGTH _errors _count)
  foreach(_e IN LISTS _errors)
    string(REPLACE "<semicolon>" ";" _e "${_e}")
    string(REPLACE "<open>" "[" _e "${_e}")
    string(REPLACE "<close>" "]" _e "${_e}")
    string(REPLACE "<backslash>" "\\" _e "${_e}")
    message("rknnop: detail: ${_e}")
  endforeach()
  message(FATAL_ERROR "rknnop: detail: ${_count} line(s) outside the SDK's headers reach into detail/ (docs/architecture.md §1)")
endif()
list(LENGTH _files _nf)
message("rknnop: detail: ${_nf} files of src/, tools/, examples/ and the host, vxc and parity headers use only public names")

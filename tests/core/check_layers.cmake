# SPDX-License-Identifier: MIT
# The layer rule of the SDK's headers (docs/architecture.md §1), checked on their #include lines:
#   cmake -DINCLUDE_DIR=<dir holding rknnop/> [-DDOC=docs/architecture.md] -P check_layers.cmake
# - every header of rknnop/detail/ (and its subdirectories) says "Layer N of detail/", every header
#   of rknnop/emit/ and rknnop/emit.hpp says "Layer N of emit/";
# - a header includes only headers of its own group with a lower N; a detail/ header includes no
#   emit header, no <rknnop/op.hpp> and no {fmt};
# - <rknnop/op.hpp> does not reach the emitter or {fmt} through any chain of includes (every
#   #include counts, whatever #if it sits under);
# - with DOC: the document's layer table lists every detail/ and emit/ header with its number
#   ("| N | `detail/name.hpp` |").
# - the rooms (docs/architecture.md §1, "The invocation core and the three backends"): a backend's
#   headers (detail/openvx/; detail/mindspore/, mindspore.hpp, mindspore_attrs.hpp; detail/rknpu2/,
#   rknpu2.hpp, rknpu2_register.hpp) reach no header of another backend through any chain of
#   includes, and the core (detail/invoke/) and the shared detail/ layers reach none of any backend;
#   the OpenVX declarations (detail/vx_api.hpp, openvx.h, detail/openvx_core.h, openvx_helper.h) are
#   RKNN v1's, so no other backend, the core or a shared layer reaches OpenVX (a walk of an RKNPU2
#   compute call enters no OpenVX file; check_backend_walk.cmake checks a compiled plugin's too);
# Every violation is one "rknnop: layers: ..." line; the script fails if there is any.
cmake_minimum_required(VERSION 3.20)

if(NOT INCLUDE_DIR OR NOT IS_DIRECTORY "${INCLUDE_DIR}/rknnop")
  message(FATAL_ERROR "rknnop: layers: INCLUDE_DIR must name a directory holding rknnop/ (got '${INCLUDE_DIR}')")
endif()

file(GLOB_RECURSE _detail RELATIVE "${INCLUDE_DIR}" "${INCLUDE_DIR}/rknnop/detail/*.hpp")
file(GLOB _emit RELATIVE "${INCLUDE_DIR}" "${INCLUDE_DIR}/rknnop/emit/*.hpp")
if(EXISTS "${INCLUDE_DIR}/rknnop/emit.hpp")
  list(APPEND _emit "rknnop/emit.hpp")
endif()
set(_errors)

# The layer a header declares; "" when it declares none.
function(_layer_of header group out)
  file(STRINGS "${INCLUDE_DIR}/${header}" _line REGEX "^// Layer [0-9]+ of ${group}/" LIMIT_COUNT 1)
  if(_line MATCHES "^// Layer ([0-9]+) of ")
    set(${out} "${CMAKE_MATCH_1}" PARENT_SCOPE)
  else()
    set(${out} "" PARENT_SCOPE)
  endif()
endfunction()

# The <rknnop/...> and <fmt/...> headers a header includes.
function(_includes_of header out)
  file(STRINGS "${INCLUDE_DIR}/${header}" _lines REGEX "^[ \t]*#[ \t]*include[ \t]*<(rknnop|fmt)/")
  set(_found)
  foreach(_l IN LISTS _lines)
    if(_l MATCHES "<([^>]+)>")
      list(APPEND _found "${CMAKE_MATCH_1}")
    endif()
  endforeach()
  set(${out} "${_found}" PARENT_SCOPE)
endfunction()

foreach(_group detail emit)
  foreach(_h IN LISTS _${_group})
    _layer_of("${_h}" ${_group} _n)
    if(_n STREQUAL "")
      list(APPEND _errors "${_h} declares no layer: add a comment line '// Layer N of ${_group}/ (docs/architecture.md §1): ...'")
    endif()
    set(_layer_${_h} "${_n}")
  endforeach()
endforeach()

foreach(_group detail emit)
  foreach(_h IN LISTS _${_group})
    _includes_of("${_h}" _incs)
    foreach(_i IN LISTS _incs)
      if(_group STREQUAL "detail" AND (_i MATCHES "^rknnop/emit[/.]" OR _i STREQUAL "rknnop/op.hpp" OR _i MATCHES "^fmt/"))
        list(APPEND _errors "${_h} (detail/) includes <${_i}>, which is above every detail/ layer")
        continue()
      endif()
      if(NOT DEFINED _layer_${_i} OR NOT _i IN_LIST _${_group})
        continue()  # a public header, or a header of a lower group (emit/ on detail/)
      endif()
      if(_layer_${_h} STREQUAL "" OR _layer_${_i} STREQUAL "")
        continue()  # reported above
      endif()
      if(NOT _layer_${_i} LESS _layer_${_h})
        list(APPEND _errors "${_h} (layer ${_layer_${_h}} of ${_group}/) includes <${_i}> (layer ${_layer_${_i}}): a header may include only lower layers")
      endif()
    endforeach()
  endforeach()
endforeach()

# Everything <rknnop/op.hpp> reaches.
if(EXISTS "${INCLUDE_DIR}/rknnop/op.hpp")
  set(_seen "rknnop/op.hpp")
  set(_queue "rknnop/op.hpp")
  set(_via_rknnop/op.hpp "rknnop/op.hpp")
  while(_queue)
    list(POP_FRONT _queue _h)
    if(NOT EXISTS "${INCLUDE_DIR}/${_h}")
      continue()
    endif()
    _includes_of("${_h}" _incs)
    foreach(_i IN LISTS _incs)
      if(_i IN_LIST _seen)
        continue()
      endif()
      list(APPEND _seen "${_i}")
      list(APPEND _queue "${_i}")
      set(_via_${_i} "${_via_${_h}} -> ${_i}")
      if(_i MATCHES "^rknnop/emit[/.]" OR _i MATCHES "^fmt/")
        list(APPEND _errors "<rknnop/op.hpp> reaches <${_i}> (${_via_${_i}}): the emitter and {fmt} are compiled into the generator program (cmake/rknnopEmitterProgram.cpp), never included by op.hpp")
      endif()
    endforeach()
  endwhile()
endif()

# The rooms: which backend a header belongs to ("" for the shared layers and public headers).
function(_room_of header out)
  if(header MATCHES "^rknnop/detail/(openvx|mindspore|rknpu2)/")
    set(${out} "${CMAKE_MATCH_1}" PARENT_SCOPE)
  elseif(header MATCHES "^rknnop/(detail/vx_api\\.hpp|openvx\\.h|detail/openvx_core\\.h|detail/openvx_helper\\.h)$")
    set(${out} openvx PARENT_SCOPE)  # the OpenVX declarations: RKNN v1's alone
  elseif(header MATCHES "^rknnop/(mindspore|mindspore_attrs)\\.hpp$")
    set(${out} mindspore PARENT_SCOPE)
  elseif(header MATCHES "^rknnop/(rknpu2|rknpu2_register)\\.hpp$")
    set(${out} rknpu2 PARENT_SCOPE)
  elseif(header MATCHES "^rknnop/detail/invoke/")
    set(${out} core PARENT_SCOPE)
  else()
    set(${out} "" PARENT_SCOPE)
  endif()
endfunction()

file(GLOB _public RELATIVE "${INCLUDE_DIR}" "${INCLUDE_DIR}/rknnop/*.hpp")
foreach(_h IN LISTS _detail _public)
  _room_of("${_h}" _room)
  if(_h IN_LIST _public AND _room STREQUAL "")
    continue()  # a public header outside the backends (op.hpp: RKNN v1's RKNNOP_EXPORT_OP by default)
  endif()
  # Everything _h reaches, breadth first, with the chain that reaches it.
  set(_seen "${_h}")
  set(_queue "${_h}")
  set(_chain_${_h} "${_h}")
  while(_queue)
    list(POP_FRONT _queue _from)
    if(NOT EXISTS "${INCLUDE_DIR}/${_from}")
      continue()
    endif()
    _includes_of("${_from}" _incs)
    foreach(_i IN LISTS _incs)
      if(_i IN_LIST _seen)
        continue()
      endif()
      list(APPEND _seen "${_i}")
      list(APPEND _queue "${_i}")
      set(_chain_${_i} "${_chain_${_from}} -> ${_i}")
      _room_of("${_i}" _other)
      if(_other STREQUAL "" OR _other STREQUAL "core" OR _other STREQUAL _room)
        continue()
      endif()
      if(_room STREQUAL "")
        list(APPEND _errors "${_h} (shared by every backend) reaches <${_i}> of the ${_other} backend (${_chain_${_i}})")
      elseif(_room STREQUAL "core")
        list(APPEND _errors "${_h} (the backend-neutral core) reaches <${_i}> of the ${_other} backend (${_chain_${_i}})")
      else()
        list(APPEND _errors "${_h} (the ${_room} backend) reaches <${_i}> of the ${_other} backend (${_chain_${_i}}): a backend includes no other backend's headers")
      endif()
    endforeach()
  endwhile()
endforeach()

# The document's table.
if(DOC)
  file(READ "${DOC}" _doc)
  foreach(_group detail emit)
    foreach(_h IN LISTS _${_group})
      if(_layer_${_h} STREQUAL "")
        continue()
      endif()
      string(REGEX REPLACE "^rknnop/" "" _short "${_h}")
      string(REPLACE "." "\\." _short_re "${_short}")
      if(NOT _doc MATCHES "\n\\| ${_layer_${_h}} \\| `${_short_re}` \\|")
        list(APPEND _errors "${DOC} has no row '| ${_layer_${_h}} | `${_short}` |' in its layer table")
      endif()
    endforeach()
  endforeach()
endif()

if(_errors)
  list(LENGTH _errors _count)
  foreach(_e IN LISTS _errors)
    message("rknnop: layers: ${_e}")
  endforeach()
  message(FATAL_ERROR "rknnop: layers: ${_count} violation(s) of the layer rule (docs/architecture.md §1)")
endif()
list(LENGTH _detail _nd)
list(LENGTH _emit _ne)
message("rknnop: layers: ${_nd} detail/ and ${_ne} emit/ headers include only lower layers; op.hpp reaches no emitter; no backend reaches another's headers")

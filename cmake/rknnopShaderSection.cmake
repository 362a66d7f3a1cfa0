# SPDX-License-Identifier: MIT
# cmake -DOP=Name -DOUTPUT=shader.bin [-DSHADER_BINARY=f | -DTOOLKIT_RKNNOP=f.rknnop] -P rknnopShaderSection.cmake
#
# Produces the first section of a .rknnop (the compiled Vivante shader, docs/container.md §3);
# CPU-only ops do not run this (their section stays empty):
# - SHADER_BINARY: a copy of a shader compiled by the toolkit, which must start with "SHDR";
# - TOOLKIT_RKNNOP: the first section of a .rknnop the toolkit built ("RKNN" 0000, u64 version, then
#   u64 length + bytes per section). CMake cannot write arbitrary bytes, so dd cuts the section out.
# Written to OUTPUT.tmp and renamed, so OUTPUT is never half-written.
cmake_minimum_required(VERSION 3.21)
set(_ctx "rknnop_add_op(${OP})")
set(_tmp "${OUTPUT}.tmp")

function(_rknnop_u64_le hex offset out) # 16 hex digits at byte offset, little-endian -> decimal
  math(EXPR _start "${offset} * 2")
  set(_value 0)
  foreach(_byte RANGE 7 0 -1)
    math(EXPR _pos "${_start} + ${_byte} * 2")
    string(SUBSTRING "${hex}" ${_pos} 2 _b)
    math(EXPR _value "(${_value} << 8) + 0x${_b}")
  endforeach()
  set(${out} ${_value} PARENT_SCOPE)
endfunction()

if(SHADER_BINARY)
  if(NOT EXISTS "${SHADER_BINARY}")
    message(FATAL_ERROR "${_ctx}: SHADER_BINARY ${SHADER_BINARY} does not exist")
  endif()
  file(READ "${SHADER_BINARY}" _magic LIMIT 4 HEX)
  if(NOT _magic STREQUAL "53484452")
    message(FATAL_ERROR "${_ctx}: SHADER_BINARY ${SHADER_BINARY} is not a compiled Vivante shader "
                        "(it must start with \"SHDR\"; pass the binary the toolkit's compiler made, not the .vx source)")
  endif()
  file(COPY_FILE "${SHADER_BINARY}" "${_tmp}")
elseif(TOOLKIT_RKNNOP)
  if(NOT EXISTS "${TOOLKIT_RKNNOP}")
    message(FATAL_ERROR "${_ctx}: TOOLKIT_RKNNOP ${TOOLKIT_RKNNOP} does not exist")
  endif()
  file(SIZE "${TOOLKIT_RKNNOP}" _size)
  file(READ "${TOOLKIT_RKNNOP}" _head LIMIT 28 HEX)
  string(LENGTH "${_head}" _head_len)
  if(_size LESS 24 OR NOT _head MATCHES "^524b4e4e00000000")
    message(FATAL_ERROR "${_ctx}: TOOLKIT_RKNNOP ${TOOLKIT_RKNNOP} is not a .rknnop container "
                        "(expected \"RKNN\" and four zero bytes, then a u64 version)")
  endif()
  _rknnop_u64_le("${_head}" 16 _len)
  math(EXPR _end "24 + ${_len}")
  if(_end GREATER _size)
    message(FATAL_ERROR "${_ctx}: TOOLKIT_RKNNOP ${TOOLKIT_RKNNOP} is truncated: its shader section "
                        "claims ${_len} bytes but the file has ${_size}")
  endif()
  if(_len GREATER 0)
    if(_head_len LESS 56 OR NOT _head MATCHES "^.{48}53484452")
      message(FATAL_ERROR "${_ctx}: the first section of TOOLKIT_RKNNOP ${TOOLKIT_RKNNOP} is not a "
                          "compiled Vivante shader (it does not start with \"SHDR\")")
    endif()
    find_program(_dd dd)
    if(NOT _dd)
      message(FATAL_ERROR "${_ctx}: dd is needed to extract the shader from TOOLKIT_RKNNOP")
    endif()
    execute_process(COMMAND "${_dd}" "if=${TOOLKIT_RKNNOP}" "of=${_tmp}" bs=65536 skip=24 "count=${_len}"
                            iflag=skip_bytes,count_bytes status=none
                    RESULT_VARIABLE _rc ERROR_VARIABLE _err)
    file(SIZE "${_tmp}" _got)
    if(NOT _rc EQUAL 0 OR NOT _got EQUAL _len)
      message(FATAL_ERROR "${_ctx}: extracting the shader from ${TOOLKIT_RKNNOP} failed: ${_err}")
    endif()
  else()
    message(FATAL_ERROR "${_ctx}: TOOLKIT_RKNNOP ${TOOLKIT_RKNNOP} has an empty shader section "
                        "(a CPU-only op: drop TOOLKIT_RKNNOP, the section then stays empty)")
  endif()
else()
  message(FATAL_ERROR "${_ctx}: give -DSHADER_BINARY=... or -DTOOLKIT_RKNNOP=...")
endif()
file(RENAME "${_tmp}" "${OUTPUT}")

# SPDX-License-Identifier: MIT
# cmake -DDOC=docs/first-op.md -P check_kernel_helpers.cmake
# The kernel-side helpers a newcomer needs are shown in docs/first-op.md, each in use: the SDK's
# scratch memory (<rknnop/types.hpp>, through <rknnop/op.hpp>) and its loop over the cores (<rknnop/parallel.hpp>).
file(READ "${DOC}" _text)
set(_missing)
foreach(_use "rknnop::buffer<float> " "rknnop::parallel_for(" "rknnop::thread_count()" "RKNNOP_THREADS")
  string(FIND "${_text}" "${_use}" _at)
  if(_at EQUAL -1)
    list(APPEND _missing "'${_use}'")
  endif()
endforeach()
if(_missing)
  list(JOIN _missing ", " _missing)
  message(FATAL_ERROR "rknnop: ${DOC} does not show ${_missing}: document the kernel helpers there")
endif()
message("rknnop: ${DOC} shows rknnop::buffer and rknnop::parallel_for")

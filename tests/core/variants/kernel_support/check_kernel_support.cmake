# SPDX-License-Identifier: MIT
# cmake -DLIBRARY=lib.so -P check_kernel_support.cmake: fails unless the library carries
# rknnopKernelSupport.cpp's error message, i.e. its std::__throw_* helpers replaced libstdc++'s.
cmake_minimum_required(VERSION 3.21)
file(STRINGS "${LIBRARY}" _hits REGEX "C\\+\\+ standard library error in a kernel library")
if(NOT _hits)
  message(FATAL_ERROR "rknnop: ${LIBRARY} does not contain rknnopKernelSupport.cpp's helpers "
                      "(rknnop_add_op did not compile it into this board library)")
endif()
message(STATUS "rknnop: ${LIBRARY}: rknnopKernelSupport.cpp's helpers are linked in")

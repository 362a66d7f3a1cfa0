# SPDX-License-Identifier: MIT
# cmake -DSOURCES=a.cpp;b.cpp -DVSI_INCLUDE=dir -DRKNNOP_INCLUDE=dir -DWORK=dir -DHOST_CXX=c++
#       [-DAARCH64_CXX=..] [-DARMHF_CXX=..] [-DARMHF_FLAGS=..] [-DCROSS_PFR=dir] [-DLAUNCHER=ccache]
#       -P check_vsi_objects.cmake
# Compiles every source twice per architecture (x86-64, and aarch64/armhf when their cross compilers
# are given) with the board libraries' flags: against rknnop's own OpenVX declarations, and with
# RKNNOP_USE_VENDOR_OPENVX against VeriSilicon's headers. The objects must be byte-identical: the
# vendor's headers may change which names are declared, never the code or data of a kernel.
foreach(_var SOURCES VSI_INCLUDE RKNNOP_INCLUDE WORK HOST_CXX)
  if(NOT ${_var})
    message(FATAL_ERROR "check_vsi_objects: -D${_var}= is required")
  endif()
endforeach()

# The flags rknnopAddOp.cmake gives board libraries (minus the dependency-file options).
set(_common -std=c++20 -O2 -fPIC -fno-exceptions -fno-rtti -fvisibility=hidden -fvisibility-inlines-hidden
            -fno-unwind-tables -fno-asynchronous-unwind-tables -ffp-contract=off -ffunction-sections
            -fdata-sections "-I${RKNNOP_INCLUDE}")
set(_arches x86_64)
set(_cxx_x86_64 "${HOST_CXX}")
set(_flags_x86_64)
if(AARCH64_CXX AND CROSS_PFR)
  list(APPEND _arches aarch64)
  set(_cxx_aarch64 "${AARCH64_CXX}")
  set(_flags_aarch64 "-I${CROSS_PFR}")
endif()
if(ARMHF_CXX AND CROSS_PFR)
  list(APPEND _arches armhf)
  set(_cxx_armhf "${ARMHF_CXX}")
  set(_flags_armhf ${ARMHF_FLAGS} "-I${CROSS_PFR}")
endif()

set(_failures)
set(_compared 0)
file(MAKE_DIRECTORY "${WORK}")
foreach(_arch IN LISTS _arches)
  foreach(_src IN LISTS SOURCES)
    cmake_path(GET _src STEM _stem)
    set(_own "${WORK}/${_arch}_${_stem}.own.o")
    set(_vsi "${WORK}/${_arch}_${_stem}.vsi.o")
    foreach(_variant own vsi)
      set(_extra)
      if(_variant STREQUAL "vsi")
        set(_extra -DRKNNOP_USE_VENDOR_OPENVX "-I${VSI_INCLUDE}")
      endif()
      execute_process(
        COMMAND ${LAUNCHER} "${_cxx_${_arch}}" ${_common} ${_flags_${_arch}} ${_extra} -c "${_src}" -o "${_${_variant}}"
        RESULT_VARIABLE _rc ERROR_VARIABLE _err OUTPUT_VARIABLE _out)
      if(NOT _rc EQUAL 0)
        message(FATAL_ERROR "rknnop: ${_stem}.cpp does not compile for ${_arch} (${_variant} headers):\n${_out}${_err}")
      endif()
    endforeach()
    file(SHA256 "${_own}" _own_hash)
    file(SHA256 "${_vsi}" _vsi_hash)
    math(EXPR _compared "${_compared} + 1")
    if(NOT _own_hash STREQUAL _vsi_hash)
      list(APPEND _failures "${_stem}.cpp (${_arch})")
    endif()
  endforeach()
endforeach()
list(JOIN _arches ", " _arch_list)
if(_failures)
  list(JOIN _failures ", " _text)
  message(FATAL_ERROR "rknnop: objects differ between rknnop's OpenVX declarations and VeriSilicon's headers: ${_text}")
endif()
message(STATUS "rknnop: ${_compared} objects (${_arch_list}) identical with VeriSilicon's headers (${VSI_INCLUDE})")
if(NOT _arches STREQUAL "x86_64;aarch64;armhf")
  message(STATUS "rknnop: note: only ${_arch_list} compared (a cross compiler or the staged Boost.PFR is missing)")
endif()

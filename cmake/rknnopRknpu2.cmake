# SPDX-License-Identifier: MIT
# The RKNPU2 backend of rknnop_add_op (included by rknnopAddOp.cmake): from the op's own sources,
# the plugin librkcst_<lower>.so that librknnrt's custom-op interface loads (RK3562, RK3566/RK3568,
# RK3576, RK3588; <rknnop/rknpu2.hpp>, docs/rknpu2.md), for every architecture the op is built for:
#   <out>/rknpu2/aarch64/librkcst_<lower>.so   the boards (Linux aarch64); stripped, its debug info
#                                              and symbols beside it in librkcst_<lower>.so.debug
#   <out>/rknpu2/armhf/librkcst_<lower>.so     32-bit userlands (and librknnrt 1.6.0 under qemu-arm)
#   <out>/rknpu2/x86_64/librkcst_<lower>.so    the PC: the toolkit2 Python class calls its kernel
#   <out>/rknpu2/rknn_op_<lower>_toolkit2.py   that class (the emitter's --toolkit2-py)
# Compiled like the board kernel libraries (no exceptions, no RTTI, static libstdc++, checked after
# linking against <rknnop/board_abi.hpp>), with <rknnop/rknpu2.hpp> force-included and
# RKNNOP_RKNPU2_BACKEND=1. An op whose tensors accept neither float32 nor float16 (librknnrt hands a
# CPU op float32) gets no plugin: the build says so in one line (the emitter's --rknpu2-support).
# Off for every op: -DRKNNOP_BUILD_RKNPU2_PLUGINS=OFF; for one op: rknnop_add_op(... NO_RKNPU2).
# Target <Name>_rknpu2 (built by ALL); target properties RKNNOP_RKNPU2_PLUGIN_<arch> name the files.
include_guard(GLOBAL)

option(RKNNOP_BUILD_RKNPU2_PLUGINS "rknnop: rknnop_add_op also builds RKNPU2 plugins (rknpu2/<arch>/librkcst_<op>.so)" ON)

# Stage 4b, after the emitter (its --rknpu2-support decides whether the plugin is linked).
function(_rknnop_add_op_rknpu2 name)
  if(NOT "rknpu2" IN_LIST _backends)  # BACKENDS (NO_RKNPU2, RKNNOP_BUILD_RKNPU2_PLUGINS=OFF: not in the default)
    return()
  endif()
  # The support check, and the RKNN-Toolkit2 class beside the plugins, which it loads from the folder
  # of its machine (docs/rknpu2-toolkit2.md).
  set(_support "${_work}/rknpu2-support.txt")
  set(_toolkit2_py "${_out}/rknpu2/rknn_op_${_lower}_toolkit2.py")
  file(MAKE_DIRECTORY "${_out}/rknpu2")
  add_custom_command(OUTPUT "${_support}" "${_toolkit2_py}"
    COMMAND ${name}_emitter --rknpu2-support "${_support}" --toolkit2-py "${_toolkit2_py}"
    DEPENDS ${name}_emitter
    COMMENT "rknnop: ${name}'s RKNPU2 support and RKNN-Toolkit2 class"
    VERBATIM)
  set_property(TARGET ${name} PROPERTY RKNNOP_TOOLKIT2_PY "${_toolkit2_py}")
  set(_stamps)
  set(_object_suffix "-rknpu2")  # read by _rknnop_add_op_board_objects
  set(_object_defs RKNNOP_RKNPU2_BACKEND=1)
  # The glue compiled for speed, as the kernels: an RKNPU2 plugin has no size budget (v1's is 32 KiB),
  # and the glue runs on every compute call (bench_rknpu2, tiny case on aarch64: this flag alone, 3,511 -> 3,069 Ir).
  set(_compact_glue 0)
  set(_object_includes rknnop/rknpu2.hpp)
  foreach(_arch IN ITEMS x86_64 LISTS RKNNOP_BOARD_ARCHITECTURES)
    if(NOT _arch IN_LIST ARG_ARCHITECTURES)
      continue()
    endif()
    string(TOUPPER "${_arch}" _ARCH)
    if(_arch STREQUAL "x86_64")
      set(_cxx "${CMAKE_CXX_COMPILER}")
      set(_what "the PC (toolkit2's Python class)")
      set(_objcopy "${CMAKE_OBJCOPY}")
    else()
      set(_cxx "${RKNNOP_${_ARCH}_CXX}")
      set(_what "RKNPU2 boards, ${_arch}")
      if(NOT _cxx)
        continue()  # stage 3 said once that the cross compiler is missing
      endif()
      string(REGEX REPLACE "g\\+\\+$" "objcopy" _objcopy "${_cxx}")
    endif()
    if(NOT _objcopy OR NOT EXISTS "${_objcopy}")
      _rknnop_status_once(no_objcopy_rknpu2_${_arch} "rknnop: no objcopy for ${_arch} ('${_objcopy}'): its RKNPU2 plugins are not stripped")
      set(_objcopy "")
    endif()
    _rknnop_board_openvx(${_arch} "${_cxx}" _stub_dir)  # the stub libpthread.so.0 (old symbol versions)
    _rknnop_add_op_board_objects(${_arch} "${_cxx}" "${_what}" _objects _flags)
    set(_lib "${_out}/rknpu2/${_arch}/librkcst_${_lower}.so")
    set(_stamp "${_work}/rknpu2-${_arch}.stamp")
    set(_link "${_cxx}" ${_flags} -shared -o "${_lib}.tmp" ${_objects} "-Wl,--version-script=${_module_dir}/rknnopRknpu2Exports.map"
              -Wl,--gc-sections -static-libgcc -static-libstdc++ "-L${_stub_dir}" -Wl,--push-state,--as-needed -lpthread
              -Wl,--pop-state)
    string(REPLACE ";" "$<SEMICOLON>" _link_arg "${_link}")  # one -D value: the script splits it again
    set(_check)
    if(_check_args)
      set(_check ${_check_args} -DRKNPU2_PLUGIN=ON)
      string(REPLACE ";" "$<SEMICOLON>" _check "${_check}")
    endif()
    _rknnop_check_inputs(_check_inputs)
    add_custom_command(OUTPUT "${_stamp}"
      BYPRODUCTS "${_lib}"
      COMMAND "${CMAKE_COMMAND}" "-DSUPPORT=${_support}" "-DLIBRARY=${_lib}" "-DSTAMP=${_stamp}" "-DARCH=${_arch}"
              "-DOP=${name}" "-DLINK=${_link_arg}" "-DCHECK=${_check}" "-DOBJCOPY=${_objcopy}"
              "-DMODULE_DIR=${_module_dir}" -P "${_module_dir}/rknnopRknpu2Link.cmake"
      DEPENDS ${_objects} "${_support}" rknnop_openvx_stub_${_arch} "${_module_dir}/rknnopRknpu2Link.cmake"
              "${_module_dir}/rknnopStripLibrary.cmake"
              "${_module_dir}/rknnopRknpu2Exports.map" ${_check_inputs}
      COMMENT "rknnop: linking the RKNPU2 plugin ${_arch} librkcst_${_lower}.so (${_what})"
      VERBATIM)
    list(APPEND _stamps "${_stamp}")
    set_target_properties(${name} PROPERTIES RKNNOP_RKNPU2_PLUGIN_${_arch} "${_lib}")
  endforeach()
  if(_stamps)
    add_custom_target(${name}_rknpu2 ALL DEPENDS ${_stamps} "${_toolkit2_py}")
    set_target_properties(${name} PROPERTIES RKNNOP_RKNPU2_SUPPORT "${_support}")
  endif()
endfunction()

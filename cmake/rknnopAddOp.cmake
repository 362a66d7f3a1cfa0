# SPDX-License-Identifier: MIT
# rknnop_add_op(<Name> SOURCES src.cpp...
#               [VX_SOURCE file.vx]
#               [TARGET_PLATFORM RK1808|RK1806|RK3399Pro|RV1109|RV1126]   (default RK1808)
#               [PYTHON file.py]                      (default: generated rknn_op_<lower>.py)
#               [SHADER_BINARY file | TOOLKIT_RKNNOP file.rknnop]   (default: empty shader section;
#                                                     the emitter reads and checks either when packing)
#               [KERNEL_INDEX n]                      (default 0: the CPU kernel)
#               [ARCHITECTURES x86_64 aarch64 armhf]  (default: all; x86_64 is always built)
#               [INCLUDE_DIRECTORIES dir...]          (extra include dirs, for every architecture)
#               [OPENVX_INCLUDE_DIR dir [KHRONOS_DIMS]]  (build against a vendor's OpenVX headers)
#               [OUTPUT_DIRECTORY dir]                (default ${CMAKE_CURRENT_BINARY_DIR}/<Name>)
#               [BACKENDS openvx mindspore rknpu2]    (default: openvx rknpu2; the one switch of what is built:
#                                                     openvx: the RKNN v1 libraries, op.yml, .rknnop;
#                                                     mindspore: lib<lower>_mslite.so, rknnopMindSpore.cmake;
#                                                     rknpu2: rknpu2/<arch>/librkcst_<lower>.so, rknnopRknpu2.cmake)
#               [NO_RKNPU2]                           (shorthand: the default BACKENDS without rknpu2)
#               [TARGET_PLATFORM RK3562|RK3566|RK3568|RK3576|RK3588]   (shorthand: BACKENDS rknpu2)
#
# Builds everything RKNN-Toolkit v1's `custom_op --action create/build` would, from one op struct:
#   <out>/x86_64/lib<lower>.so   target <Name> (MODULE), the PC-simulator library
#   <out>/aarch64/lib<lower>.so  RK1808/RK3399Pro, cross-compiled when aarch64-linux-gnu-g++ exists
#   <out>/armhf/lib<lower>.so    RK1806/RV1109/RV1126, cross-compiled when arm-linux-gnueabihf-g++ exists
#   <out>/op.yml, <out>/rknn_op_<lower>.py, <out>/<Name>.rknnop   (target <Name>_rknnop, built by ALL)
#   <out>/<arch>/instrumented/lib<lower>.so   only when asked (targets <Name>_aarch64_instrumented,
#                                <Name>_armhf_instrumented): the board library with RKNNOP_RECORD and
#                                RKNNOP_PROFILE=1 (-DRKNNOP_INSTRUMENTED=1, docs/running.md §3)
# OPENVX_INCLUDE_DIR: the directory holding the vendor's VX/vx.h (VeriSilicon's, or Khronos' with
# VX/vx_helper.h) for the kernel libraries of every architecture, instead of rknnop's own
# declarations (defines RKNNOP_USE_VENDOR_OPENVX); KHRONOS_DIMS defines RKNNOP_VX_KHRONOS_DIMS=1
# (tensors report vx_size dims, as Khronos' OpenVX 1.2/1.3 do; the boards' VSI driver reports
# uint32). The emitter (op.yml, Python op) keeps rknnop's own declarations.
# Target <Name> carries RKNNOP_OP_YML, RKNNOP_CONTAINER, RKNNOP_LIBRARY_<arch>,
# RKNNOP_INSTRUMENTED_LIBRARY_<arch>, RKNNOP_TOOLKIT2_PY
# (the RKNN-Toolkit2 class, <out>/rknpu2/rknn_op_<lower>_toolkit2.py) and RKNNOP_OUTPUT_DIRECTORY
# properties for tests.
#
# Every kernel library exports only vx_kernel_<Name>_list (version script), links libOpenVX.so (the
# host runtime rknnop::openvx when it is a target, else a stub generated from <rknnop/openvx.h>, so
# DT_NEEDED is libOpenVX.so as with the toolkit's -lOpenVX), and is checked after linking by
# rknnopCheckKernelLibrary.cmake against the boards' ceiling, <rknnop/board_abi.hpp> (glibc 2.28 and
# GCC 8's libstdc++).
#
# libstdc++ (measured with Debian 12's GCC 12 cross compilers, glibc 2.36 sysroots): a kernel library
# never needs libstdc++.so.6 (GCC 12 code references GLIBCXX_3.4.26+ symbols GCC 8's lacks). ResizeArea
# at -O2 references nothing of libstdc++ and needs only libc (+ libm on armhf: floorf/ceilf, VFPv4 has
# no rounding instructions). At -O0, or with user code using std::vector/std::string, the std::__throw_*
# helpers and operator new get referenced; taken from GCC 12's static libstdc++ they drag in the
# exception runtime and with it pthread_once@GLIBC_2.34, _dl_find_object@GLIBC_2.35 (and for
# std::random_device arc4random@GLIBC_2.36). So every kernel library links rknnopKernelSupport.cpp
# (those helpers and operator new/delete, abort on failure: -fno-exceptions semantics, all local) and
# -static-libgcc -static-libstdc++: the rest of libstdc++ a kernel uses is linked in statically, and
# the check after linking fails the build ("rknnop: ... needs <symbol>@GLIBC_2.xx") when that still
# needs too new a glibc, e.g. std::shared_ptr (__libc_single_threaded@GLIBC_2.32, referenced inline by
# the headers) or double exp/log/pow (GLIBC_2.29).
include_guard(GLOBAL)
include("${CMAKE_CURRENT_LIST_DIR}/rknnopMindSpore.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/rknnopRknpu2.cmake")

# Locations, recorded now: the function runs later from other directories. The package config sets
# RKNNOP_INCLUDE_DIR before including this file; in the source tree the headers are beside cmake/.
if(NOT RKNNOP_INCLUDE_DIR)
  set(RKNNOP_INCLUDE_DIR "${CMAKE_CURRENT_LIST_DIR}/../include")
endif()
cmake_path(ABSOLUTE_PATH RKNNOP_INCLUDE_DIR NORMALIZE)
set_property(GLOBAL PROPERTY RKNNOP_ADD_OP_MODULE_DIR "${CMAKE_CURRENT_LIST_DIR}")
set_property(GLOBAL PROPERTY RKNNOP_ADD_OP_INCLUDE_DIR "${RKNNOP_INCLUDE_DIR}")

if(NOT CMAKE_CROSSCOMPILING)
  find_program(RKNNOP_AARCH64_CXX NAMES aarch64-linux-gnu-g++
               DOC "rknnop: C++ cross compiler for RK1808/RK3399Pro kernel libraries")
  find_program(RKNNOP_ARMHF_CXX NAMES arm-linux-gnueabihf-g++
               DOC "rknnop: C++ cross compiler for RK1806/RV1109/RV1126 kernel libraries")
endif()
set(RKNNOP_AARCH64_FLAGS "-Wl,-z,max-page-size=4096" CACHE STRING
    "rknnop: extra compile/link flags of aarch64 kernel libraries (the boards' kernels use 4 KiB pages)")
set(RKNNOP_ARMHF_FLAGS "-mfp16-format=ieee;-mfpu=neon-vfpv4;-mfloat-abi=hard" CACHE STRING
    "rknnop: extra compile/link flags of armhf kernel libraries (Cortex-A7: native __fp16 conversions)")
set(RKNNOP_BOARD_OPT_FLAGS "-O2" CACHE STRING "rknnop: optimisation flags of board kernel libraries")
# A board library's objects are custom commands (the cross compiler is not the project's), so CMake's
# CMAKE_CXX_COMPILER_LAUNCHER does not reach them by itself: this does (e.g. ccache; a list, the
# launcher and its arguments). Empty: the compiler alone.
set(RKNNOP_BOARD_COMPILER_LAUNCHER "${CMAKE_CXX_COMPILER_LAUNCHER}" CACHE STRING
    "rknnop: launcher of the board libraries' and RKNPU2 plugins' compiles (default: CMAKE_CXX_COMPILER_LAUNCHER)")
find_program(RKNNOP_READELF NAMES readelf ${CMAKE_READELF}
             DOC "rknnop: readelf used to check kernel libraries after linking")
option(RKNNOP_CHECK_KERNEL_LIBRARIES "rknnop: check every kernel library against the boards' glibc/libstdc++" ON)

# Boost.PFR for the cross compilers: only boost/pfr*, staged into the build tree, so that the host's
# /usr/include never reaches a cross compiler (its glibc headers would shadow the sysroot's).
function(_rknnop_cross_pfr_include out)
  get_property(_dir GLOBAL PROPERTY RKNNOP_CROSS_PFR_INCLUDE)
  if(_dir)
    set(${out} "${_dir}" PARENT_SCOPE)
    return()
  endif()
  set(_hints)
  foreach(_target Boost::pfr Boost::headers Boost::boost)
    if(TARGET ${_target})
      get_target_property(_incs ${_target} INTERFACE_INCLUDE_DIRECTORIES)
      foreach(_inc IN LISTS _incs)
        string(REGEX REPLACE "^\\$<BUILD_INTERFACE:(.*)>$" "\\1" _inc "${_inc}")
        if(NOT _inc MATCHES "\\$<")
          list(APPEND _hints "${_inc}")
        endif()
      endforeach()
    endif()
  endforeach()
  find_path(RKNNOP_PFR_INCLUDE_DIR boost/pfr.hpp HINTS ${_hints}
            DOC "rknnop: directory holding boost/pfr.hpp (for the board cross compilers)")
  if(NOT RKNNOP_PFR_INCLUDE_DIR)
    set(${out} "" PARENT_SCOPE)
    return()
  endif()
  set(_dir "${CMAKE_BINARY_DIR}/rknnop-cross-include")
  file(COPY "${RKNNOP_PFR_INCLUDE_DIR}/boost/pfr.hpp" "${RKNNOP_PFR_INCLUDE_DIR}/boost/pfr"
       DESTINATION "${_dir}/boost")
  set_property(GLOBAL PROPERTY RKNNOP_CROSS_PFR_INCLUDE "${_dir}")
  set(${out} "${_dir}" PARENT_SCOPE)
endfunction()

# The link-time stand-in for the board's libOpenVX.so: every function <rknnop/openvx.h> declares,
# trapping if ever called (it never is: boards and the toolkit load their real libOpenVX.so).
function(_rknnop_openvx_stub_source out)
  get_property(_inc GLOBAL PROPERTY RKNNOP_ADD_OP_INCLUDE_DIR)
  set(_header "${_inc}/rknnop/detail/openvx_core.h")  # the function declarations of <rknnop/openvx.h>
  set(_source "${CMAKE_BINARY_DIR}/rknnop-stub/openvx_stub.cpp")
  file(READ "${_header}" _text)
  string(REGEX MATCHALL "VX_API_CALL[ \t\r\n]+[A-Za-z_][A-Za-z_0-9]*" _decls "${_text}")
  string(CONCAT _body "// Generated by rknnop_add_op from ${_header}: link-time stand-in for libOpenVX.so.\n"
         "#define RKNNOP_STUB(name) extern \"C\" __attribute__((visibility(\"default\"))) void name(void) { __builtin_trap(); }\n")
  foreach(_decl IN LISTS _decls)
    string(REGEX REPLACE "^VX_API_CALL[ \t\r\n]+" "" _fn "${_decl}")
    string(APPEND _body "RKNNOP_STUB(${_fn})\n")
  endforeach()
  file(CONFIGURE OUTPUT "${_source}" CONTENT "${_body}" @ONLY)  # rewritten only when it changes
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${_header}")
  set(${out} "${_source}" PARENT_SCOPE)
endfunction()

# Target linked for vx* symbols: the in-tree host runtime, else a stub libOpenVX.so (built once).
function(_rknnop_host_openvx out)
  if(TARGET rknnop::openvx)
    set(${out} rknnop::openvx PARENT_SCOPE)
    return()
  endif()
  if(NOT TARGET rknnop_openvx_stub)
    _rknnop_openvx_stub_source(_source)
    add_library(rknnop_openvx_stub SHARED "${_source}")
    set_target_properties(rknnop_openvx_stub PROPERTIES
      OUTPUT_NAME OpenVX
      LIBRARY_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/rknnop-stub/host$<0:>"
      CXX_VISIBILITY_PRESET hidden)
    target_link_options(rknnop_openvx_stub PRIVATE -nostdlib)
  endif()
  set(${out} rknnop_openvx_stub PARENT_SCOPE)
endfunction()

# Per-board-architecture stub libOpenVX.so, built once by the cross compiler.
function(_rknnop_board_openvx arch cxx out_dir)
  set(_dir "${CMAKE_BINARY_DIR}/rknnop-stub/${arch}")
  if(NOT TARGET rknnop_openvx_stub_${arch})
    _rknnop_openvx_stub_source(_source)
    add_custom_command(OUTPUT "${_dir}/libOpenVX.so"
      COMMAND "${CMAKE_COMMAND}" -E make_directory "${_dir}"
      COMMAND "${cxx}" -shared -fPIC -nostdlib -Wl,-soname,libOpenVX.so -o "${_dir}/libOpenVX.so" "${_source}"
      DEPENDS "${_source}"
      COMMENT "rknnop: stub libOpenVX.so for ${arch}"
      VERBATIM)
    _rknnop_pthread_stub_files(${arch} _pthread_source _pthread_map)
    add_custom_command(OUTPUT "${_dir}/libpthread.so"
      COMMAND "${CMAKE_COMMAND}" -E make_directory "${_dir}"  # Makefiles may run this rule first
      COMMAND "${cxx}" -shared -fPIC -nostdlib -Wl,-soname,libpthread.so.0 "-Wl,--version-script=${_pthread_map}"
              -o "${_dir}/libpthread.so" "${_pthread_source}"
      DEPENDS "${_pthread_source}" "${_pthread_map}"
      COMMENT "rknnop: stub libpthread.so.0 for ${arch}"
      VERBATIM)
    add_custom_target(rknnop_openvx_stub_${arch} DEPENDS "${_dir}/libOpenVX.so" "${_dir}/libpthread.so")
  endif()
  set(${out_dir} "${_dir}" PARENT_SCOPE)
endfunction()

# The link-time stand-in for libpthread.so.0 (rknnop::parallel_for's workers): pthread_create and
# pthread_join at the architecture's first glibc version, trapping if ever called (never loaded: the
# file is libpthread.so, the library asks for libpthread.so.0, no rpath leads here). glibc 2.34 moved
# them into libc.so.6 as @GLIBC_2.34; the boards' glibc 2.28 has them only in libpthread.so.0, so a
# kernel library binds them there, at the old version, which every glibc since resolves.
function(_rknnop_pthread_stub_files arch out_source out_map)
  if(arch MATCHES "^(aarch64|arm64)$")
    set(_version GLIBC_2.17)
  elseif(arch MATCHES "^(armhf|arm)")
    set(_version GLIBC_2.4)
  elseif(arch MATCHES "^(x86_64|AMD64|amd64)$")
    set(_version GLIBC_2.2.5)
  else()
    set(${out_source} "" PARENT_SCOPE)
    return()
  endif()
  set(_dir "${CMAKE_BINARY_DIR}/rknnop-stub")
  file(CONFIGURE OUTPUT "${_dir}/pthread_stub.cpp" CONTENT
       "// Generated by rknnop_add_op: link-time stand-in for libpthread.so.0.\n#define RKNNOP_STUB(name) extern \"C\" __attribute__((visibility(\"default\"))) void name(void) { __builtin_trap(); }\nRKNNOP_STUB(pthread_create)\nRKNNOP_STUB(pthread_join)\n" @ONLY)
  file(CONFIGURE OUTPUT "${_dir}/pthread_stub_${_version}.map" CONTENT
       "${_version} { global: pthread_create; pthread_join; local: *; };\n" @ONLY)
  set(${out_source} "${_dir}/pthread_stub.cpp" PARENT_SCOPE)
  set(${out_map} "${_dir}/pthread_stub_${_version}.map" PARENT_SCOPE)
endfunction()

# Links target `name` (this build's own kernel library) against the stub libpthread.so.0 for `arch`.
function(_rknnop_link_host_pthread name arch)
  _rknnop_pthread_stub_files(${arch} _source _map)
  if(NOT _source)
    target_link_options(${name} PRIVATE -pthread)  # an architecture without a known glibc baseline
    return()
  endif()
  if(NOT TARGET rknnop_pthread_stub)
    add_library(rknnop_pthread_stub SHARED "${_source}")
    set_target_properties(rknnop_pthread_stub PROPERTIES
      OUTPUT_NAME pthread
      NO_SONAME ON
      LIBRARY_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/rknnop-stub/host-pthread$<0:>"
      LINK_DEPENDS "${_map}")
    target_link_options(rknnop_pthread_stub PRIVATE -nostdlib "LINKER:-soname,libpthread.so.0"
                        "LINKER:--version-script=${_map}")
  endif()
  add_dependencies(${name} rknnop_pthread_stub)
  target_link_options(${name} PRIVATE "-L${CMAKE_BINARY_DIR}/rknnop-stub/host-pthread")
  target_link_libraries(${name} PRIVATE -Wl,--push-state,--as-needed -lpthread -Wl,--pop-state)  # only when used
endfunction()

function(_rknnop_sanitized_build out)
  if(RKNNOP_SANITIZED_BUILD OR CMAKE_CXX_FLAGS MATCHES "-fsanitize" OR CMAKE_MODULE_LINKER_FLAGS MATCHES "-fsanitize")
    set(${out} TRUE PARENT_SCOPE)
  else()
    set(${out} FALSE PARENT_SCOPE)
  endif()
endfunction()

function(_rknnop_status_once key text)
  get_property(_done GLOBAL PROPERTY RKNNOP_STATUS_${key})
  if(NOT _done)
    set_property(GLOBAL PROPERTY RKNNOP_STATUS_${key} TRUE)
    message(STATUS "${text}")
  endif()
endfunction()

# rknnop_add_op runs its stages in order, one function each: arguments (checked, then their
# locations), the host library, the board
# libraries, the emitter (op.yml and the Python op), the .vx check, the shader section, the shipped
# libraries (stripped, debug info beside them) and the container. A stage reads what earlier stages
# set in rknnop_add_op's scope (a function sees its caller's variables) and hands on what it adds
# with PARENT_SCOPE, named at its top.
function(rknnop_add_op name)
  set(_ctx "rknnop_add_op(${name})")
  # Here, not at file scope: after add_subdirectory(rknnop) a file-scope variable is not visible to the
  # consumer's directories (include_guard keeps the file from running again there).
  set(RKNNOP_BOARD_ARCHITECTURES aarch64 armhf)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "KHRONOS_DIMS;NO_RKNPU2"
    "VX_SOURCE;TARGET_PLATFORM;PYTHON;SHADER_BINARY;TOOLKIT_RKNNOP;KERNEL_INDEX;OUTPUT_DIRECTORY;OPENVX_INCLUDE_DIR"
    "SOURCES;ARCHITECTURES;INCLUDE_DIRECTORIES;BACKENDS")
  _rknnop_add_op_arguments(${name})
  _rknnop_add_op_locations(${name})
  if("openvx" IN_LIST _backends)
    _rknnop_add_op_host_library(${name})
  else()  # no RKNN v1 library: target <name> only carries the properties of the other backends' files
    add_custom_target(${name})
    set_target_properties(${name} PROPERTIES RKNNOP_OUTPUT_DIRECTORY "${_out}")
  endif()
  if("mindspore" IN_LIST _backends)
    _rknnop_add_op_backends(${name} "${_backends}" "${_sources}" "${_include_dirs}" "${_out}")
  endif()
  if(CMAKE_CROSSCOMPILING)
    _rknnop_status_once(cross_add_op "rknnop: cross-compiling: rknnop_add_op builds only the ${_self_arch} "
      "kernel libraries (op.yml, the Python op and .rknnop come from a native build)")
    return()
  endif()
  if(NOT _rknpu2_only)
    _rknnop_add_op_board_libraries(${name})
  endif()
  if(NOT EXISTS "${_rknnop_include}/rknnop/emit.hpp")  # an rknnop tree without the emitter yet
    _rknnop_status_once(no_emitter "rknnop: <rknnop/emit.hpp> is missing; op.yml, Python ops and .rknnop "
                                   "containers are not generated")
    return()
  endif()
  _rknnop_add_op_emitter(${name})
  _rknnop_add_op_rknpu2(${name})
  if(_rknpu2_only)
    return()
  endif()
  _rknnop_add_op_vxcheck(${name})
  _rknnop_add_op_shader_section(${name})
  _rknnop_add_op_shipped_libraries(${name})
  _rknnop_add_op_container(${name})
endfunction()

# Stage 1, arguments: checks the parsed ARG_*. Sets ARG_TARGET_PLATFORM, ARG_KERNEL_INDEX and
# ARG_ARCHITECTURES (defaults filled in) and _explicit_arches (ARCHITECTURES was given).
function(_rknnop_add_op_arguments name)
  if(NOT name MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    message(FATAL_ERROR "${_ctx}: the op name must be a C identifier (it becomes vx_kernel_<Name>_list)")
  endif()
  set(_keywords SOURCES VX_SOURCE TARGET_PLATFORM PYTHON SHADER_BINARY TOOLKIT_RKNNOP KERNEL_INDEX
                ARCHITECTURES INCLUDE_DIRECTORIES OUTPUT_DIRECTORY OPENVX_INCLUDE_DIR KHRONOS_DIMS BACKENDS NO_RKNPU2)
  set(_platforms RK1808 RK1806 RK3399Pro RV1109 RV1126)
  set(_rknpu2_platforms RK3562 RK3566 RK3568 RK3576 RK3588)
  # A misspelt keyword after SOURCES would silently become a source: catch upper-case words that are
  # neither keywords nor values nor existing files.
  set(_unknown ${ARG_UNPARSED_ARGUMENTS})
  foreach(_word IN LISTS ARG_SOURCES ARG_INCLUDE_DIRECTORIES ARG_ARCHITECTURES)
    if(_word MATCHES "^[A-Z][A-Z0-9_]+$" AND NOT _word IN_LIST _platforms AND NOT _word IN_LIST _rknpu2_platforms
       AND NOT EXISTS "${CMAKE_CURRENT_SOURCE_DIR}/${_word}")
      list(APPEND _unknown "${_word}")
    endif()
  endforeach()
  if(_unknown)
    list(JOIN _unknown " " _unknown)
    list(JOIN _keywords " " _known)
    message(FATAL_ERROR "${_ctx}: unknown argument(s) ${_unknown}; the keywords are: ${_known}")
  endif()
  _rknnop_check_backends(${name} "${ARG_BACKENDS}")
  if(ARG_KEYWORDS_MISSING_VALUES)
    message(FATAL_ERROR "${_ctx}: ${ARG_KEYWORDS_MISSING_VALUES} given without a value")
  endif()
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "${_ctx}: SOURCES is missing (the .cpp files holding the op struct and RKNNOP_EXPORT_OP(${name}))")
  endif()
  set(_rknpu2_only FALSE)
  if(NOT DEFINED ARG_TARGET_PLATFORM)
    set(ARG_TARGET_PLATFORM RK1808)
  elseif(ARG_TARGET_PLATFORM IN_LIST _rknpu2_platforms)
    # An RKNPU2 SoC: the plugins only (op.yml, the v1 libraries and .rknnop are RKNN-Toolkit v1's).
    set(_rknpu2_only TRUE)
    if(ARG_NO_RKNPU2 OR NOT RKNNOP_BUILD_RKNPU2_PLUGINS)
      message(FATAL_ERROR "${_ctx}: TARGET_PLATFORM ${ARG_TARGET_PLATFORM} is an RKNPU2 SoC, but the RKNPU2 plugins "
                          "are off (NO_RKNPU2 or RKNNOP_BUILD_RKNPU2_PLUGINS=OFF)")
    endif()
    _rknnop_status_once(rknpu2_only_${name} "rknnop: ${name}: TARGET_PLATFORM ${ARG_TARGET_PLATFORM} is an RKNPU2 SoC: only its RKNPU2 plugins (rknpu2/<arch>/librkcst_*.so) are built")
  elseif(NOT ARG_TARGET_PLATFORM IN_LIST _platforms)
    list(JOIN _platforms ", " _list)
    list(JOIN _rknpu2_platforms ", " _list2)
    message(FATAL_ERROR "${_ctx}: unknown TARGET_PLATFORM '${ARG_TARGET_PLATFORM}' (RKNN v1: ${_list}; RKNPU2: ${_list2})")
  endif()
  # The one switch, BACKENDS (default: openvx rknpu2); NO_RKNPU2 and an RKNPU2 TARGET_PLATFORM are
  # its shorthands (docs/building.md).
  if(DEFINED ARG_BACKENDS)
    set(_backends ${ARG_BACKENDS})
    list(REMOVE_DUPLICATES _backends)
  else()
    set(_backends openvx rknpu2)
    if(NOT RKNNOP_BUILD_RKNPU2_PLUGINS)
      list(REMOVE_ITEM _backends rknpu2)
    endif()
  endif()
  if(ARG_NO_RKNPU2)
    if("rknpu2" IN_LIST ARG_BACKENDS)
      list(JOIN ARG_BACKENDS " " _given)
      message(FATAL_ERROR "${_ctx}: NO_RKNPU2 contradicts BACKENDS ${_given}")
    endif()
    list(REMOVE_ITEM _backends rknpu2)
  endif()
  if(_rknpu2_only)
    if(DEFINED ARG_BACKENDS AND NOT ARG_BACKENDS STREQUAL "rknpu2")
      list(JOIN ARG_BACKENDS " " _given)
      message(FATAL_ERROR "${_ctx}: TARGET_PLATFORM ${ARG_TARGET_PLATFORM} (an RKNPU2 SoC) builds BACKENDS rknpu2 "
                          "only, not BACKENDS ${_given}")
    endif()
    set(_backends rknpu2)
  endif()
  if("rknpu2" IN_LIST _backends AND NOT RKNNOP_BUILD_RKNPU2_PLUGINS)
    message(FATAL_ERROR "${_ctx}: BACKENDS rknpu2, but the RKNPU2 plugins are off (RKNNOP_BUILD_RKNPU2_PLUGINS=OFF)")
  endif()
  if(NOT "openvx" IN_LIST _backends)
    set(_rknpu2_only TRUE)  # no RKNN v1 outputs: no v1 libraries, op.yml or .rknnop
  endif()
  if(NOT DEFINED ARG_KERNEL_INDEX)
    set(ARG_KERNEL_INDEX 0)
  elseif(NOT ARG_KERNEL_INDEX MATCHES "^[0-9]+$")
    message(FATAL_ERROR "${_ctx}: KERNEL_INDEX must be a non-negative integer, got '${ARG_KERNEL_INDEX}'")
  endif()
  if(DEFINED ARG_SHADER_BINARY AND DEFINED ARG_TOOLKIT_RKNNOP)
    message(FATAL_ERROR "${_ctx}: give SHADER_BINARY or TOOLKIT_RKNNOP, not both (both supply the shader section)")
  endif()
  set(_known_arches x86_64 ${RKNNOP_BOARD_ARCHITECTURES})
  set(_explicit_arches FALSE)
  if(DEFINED ARG_ARCHITECTURES)
    set(_explicit_arches TRUE)
    foreach(_arch IN LISTS ARG_ARCHITECTURES)
      if(NOT _arch IN_LIST _known_arches)
        list(JOIN _known_arches ", " _list)
        message(FATAL_ERROR "${_ctx}: unknown architecture '${_arch}' in ARCHITECTURES (one of: ${_list})")
      endif()
    endforeach()
  else()
    set(ARG_ARCHITECTURES ${_known_arches})
  endif()
  foreach(_var ARG_TARGET_PLATFORM ARG_KERNEL_INDEX ARG_ARCHITECTURES _explicit_arches _rknpu2_only _backends)
    set(${_var} "${${_var}}" PARENT_SCOPE)
  endforeach()
endfunction()

# Stage 1b, locations: makes the arguments' paths absolute (ARG_VX_SOURCE, ARG_PYTHON,
# ARG_SHADER_BINARY, ARG_TOOLKIT_RKNNOP, ARG_OPENVX_INCLUDE_DIR) and sets _sources, _include_dirs,
# _openvx_defs, _out (the output directory), _work (intermediate files), _lower, _module_dir,
# _rknnop_include, _map (the version script), _sanitized and _check_args (the post-link check's
# command, empty when it is off).
function(_rknnop_add_op_locations name)
  # The shader files are read by the emitter when it packs the container (its --shader and
  # --toolkit-rknnop checks: one reader of the format, in C++).
  foreach(_kw VX_SOURCE PYTHON SHADER_BINARY TOOLKIT_RKNNOP)
    if(DEFINED ARG_${_kw})
      cmake_path(ABSOLUTE_PATH ARG_${_kw} BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}" NORMALIZE)
    endif()
  endforeach()
  set(_sources)
  foreach(_src IN LISTS ARG_SOURCES)
    cmake_path(ABSOLUTE_PATH _src BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}" NORMALIZE)
    list(APPEND _sources "${_src}")
  endforeach()
  set(_include_dirs)
  foreach(_inc IN LISTS ARG_INCLUDE_DIRECTORIES)
    cmake_path(ABSOLUTE_PATH _inc BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}" NORMALIZE)
    list(APPEND _include_dirs "${_inc}")
  endforeach()
  set(_openvx_defs)
  if(DEFINED ARG_OPENVX_INCLUDE_DIR)
    cmake_path(ABSOLUTE_PATH ARG_OPENVX_INCLUDE_DIR BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}" NORMALIZE)
    if(NOT EXISTS "${ARG_OPENVX_INCLUDE_DIR}/VX/vx.h")
      message(FATAL_ERROR "${_ctx}: OPENVX_INCLUDE_DIR ${ARG_OPENVX_INCLUDE_DIR} holds no VX/vx.h "
                          "(give the directory that contains VX/, e.g. <sdk>/include)")
    endif()
    set(_openvx_defs RKNNOP_USE_VENDOR_OPENVX)
  endif()
  if(ARG_KHRONOS_DIMS)
    list(APPEND _openvx_defs RKNNOP_VX_KHRONOS_DIMS=1)
  endif()
  if(DEFINED ARG_OUTPUT_DIRECTORY)
    cmake_path(ABSOLUTE_PATH ARG_OUTPUT_DIRECTORY BASE_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}" NORMALIZE)
    set(_out "${ARG_OUTPUT_DIRECTORY}")
  else()
    set(_out "${CMAKE_CURRENT_BINARY_DIR}/${name}")
  endif()
  string(TOLOWER "${name}" _lower)
  get_property(_module_dir GLOBAL PROPERTY RKNNOP_ADD_OP_MODULE_DIR)
  get_property(_rknnop_include GLOBAL PROPERTY RKNNOP_ADD_OP_INCLUDE_DIR)
  set(_work "${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/${name}.rknnop")
  file(MAKE_DIRECTORY "${_out}" "${_work}")

  set(RKNNOP_OP_NAME "${name}")
  set(_map "${_work}/exports.map")
  configure_file("${_module_dir}/rknnopOpExports.map.in" "${_map}" @ONLY)
  _rknnop_sanitized_build(_sanitized)
  # The post-link check (rknnopCheckKernelLibrary.cmake); add -DLIBRARY= and -DARCH= to run it. The
  # boards' ceiling comes from <rknnop/board_abi.hpp>, where it is written once.
  set(_check_args)
  if(RKNNOP_CHECK_KERNEL_LIBRARIES AND RKNNOP_READELF AND NOT _sanitized)
    set(_check_args "${CMAKE_COMMAND}" "-DOP=${name}" "-DREADELF=${RKNNOP_READELF}"
                    "-DBOARD_ABI=${_rknnop_include}/rknnop/board_abi.hpp")
  endif()
  foreach(_var ARG_VX_SOURCE ARG_PYTHON ARG_SHADER_BINARY ARG_TOOLKIT_RKNNOP ARG_OPENVX_INCLUDE_DIR _sources
               _include_dirs _openvx_defs _out _work _lower _module_dir _rknnop_include _map _sanitized _check_args)
    if(DEFINED ${_var})
      set(${_var} "${${_var}}" PARENT_SCOPE)
    endif()
  endforeach()
endfunction()

# The post-link check's files, for DEPENDS of a link.
function(_rknnop_check_inputs out)
  set(${out} "${_module_dir}/rknnopCheckKernelLibrary.cmake" "${_rknnop_include}/rknnop/board_abi.hpp"
      PARENT_SCOPE)
endfunction()

# Whether the container gets stripped copies of the kernel libraries (stage 7). When it does, every
# kernel library is compiled with -g whatever the build type, so that the debug file kept beside the
# container holds the debug info it is there for (-g changes no generated code; the shipped copy
# loses it again).
function(_rknnop_strips_shipped_libraries out)
  set(_strip "${RKNNOP_STRIP_SHIPPED_LIBRARIES}")
  if(_strip STREQUAL "" OR _strip STREQUAL "AUTO")
    set(_strip OFF)
    if(CMAKE_BUILD_TYPE MATCHES "^(Release|MinSizeRel)$")
      set(_strip ON)
    endif()
  endif()
  set(${out} "${_strip}" PARENT_SCOPE)
endfunction()

# Stage 2, the library for this build's own target: x86-64 (the toolkit's PC simulator), or the
# board architecture of a cross build. Target <name>; sets _self_arch.
function(_rknnop_add_op_host_library name)
  if(CMAKE_CROSSCOMPILING)
    if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64)$")
      set(_self_arch aarch64)
    elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^arm")
      set(_self_arch armhf)
    else()
      set(_self_arch "${CMAKE_SYSTEM_PROCESSOR}")
    endif()
  else()
    set(_self_arch x86_64)
  endif()
  _rknnop_host_openvx(_openvx)
  add_library(${name} MODULE ${_sources})
  set_target_properties(${name} PROPERTIES
    PREFIX lib
    OUTPUT_NAME "${_lower}"
    LIBRARY_OUTPUT_DIRECTORY "${_out}/${_self_arch}$<0:>"  # $<0:>: no per-configuration subdirectory
    C_VISIBILITY_PRESET hidden
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    LINK_DEPENDS "${_map}")
  target_include_directories(${name} PRIVATE ${_include_dirs})
  if(DEFINED ARG_OPENVX_INCLUDE_DIR)
    target_include_directories(${name} BEFORE PRIVATE "${ARG_OPENVX_INCLUDE_DIR}")
  endif()
  target_compile_definitions(${name} PRIVATE ${_openvx_defs})
  target_link_libraries(${name} PRIVATE rknnop::kernel ${_openvx})
  # Same code path as on the boards: no exceptions, no RTTI (rknnop's callbacks never throw anyway).
  target_compile_options(${name} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-fno-exceptions -fno-rtti -ffp-contract=off>)
  _rknnop_strips_shipped_libraries(_strip)
  if(_strip)
    target_compile_options(${name} PRIVATE -g)  # for the debug file beside the container (stage 7)
  endif()
  target_link_options(${name} PRIVATE "LINKER:--version-script=${_map}" -static-libgcc)
  if(NOT _sanitized)  # the sanitizers need the shared libstdc++ and their own operator new
    target_link_options(${name} PRIVATE -static-libstdc++)
    target_sources(${name} PRIVATE "${_module_dir}/rknnopKernelSupport.cpp")
    # Its own translation unit under CMAKE_UNITY_BUILD too: it redefines libstdc++'s throw helpers,
    # whose declarations in the op's headers would come first in a unity source.
    set_source_files_properties("${_module_dir}/rknnopKernelSupport.cpp" TARGET_DIRECTORY ${name}
                                PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
    _rknnop_link_host_pthread(${name} ${_self_arch})  # parallel_for's workers, at the boards' glibc
  else()
    target_link_options(${name} PRIVATE -pthread)  # the sanitizers intercept pthread_create
  endif()
  if(_check_args)
    add_custom_command(TARGET ${name} POST_BUILD
      COMMAND ${_check_args} "-DLIBRARY=$<TARGET_FILE:${name}>" "-DARCH=${_self_arch}"
              -P "${_module_dir}/rknnopCheckKernelLibrary.cmake"
      VERBATIM)
  endif()
  set_property(GLOBAL APPEND PROPERTY RKNNOP_OPS ${name})  # for tests/board_abi
  set_target_properties(${name} PROPERTIES
    RKNNOP_OUTPUT_DIRECTORY "${_out}"
    RKNNOP_LIBRARY_${_self_arch} "$<TARGET_FILE:${name}>")
  set(_self_arch "${_self_arch}" PARENT_SCOPE)
endfunction()

# Stage 3, board libraries, by the cross compilers directly (header-only SDK: sources + includes).
# Targets <name>_aarch64 and <name>_armhf; sets _board_libs and _board_targets, and the target
# property RKNNOP_LIBRARY_<arch> of each library built.
function(_rknnop_add_op_board_libraries name)
  set(_board_libs)
  set(_board_targets)
  foreach(_arch IN LISTS RKNNOP_BOARD_ARCHITECTURES)
    if(NOT _arch IN_LIST ARG_ARCHITECTURES)
      continue()
    endif()
    _rknnop_add_op_board_library(${name} ${_arch} _lib)
    if(_lib)
      list(APPEND _board_libs "${_lib}")
      list(APPEND _board_targets ${name}_${_arch})
    endif()
  endforeach()
  set(_board_libs "${_board_libs}" PARENT_SCOPE)
  set(_board_targets "${_board_targets}" PARENT_SCOPE)
endfunction()

# The rule that links `objects` (compiled with `flags`) into the board library `lib` and checks it
# (rknnopCheckKernelLibrary.cmake, renaming it into place): the release library and its instrumented
# variant alike. Reads _rknnop_add_op_board_library's _cxx, _map, _stub_dir, _check_args, _board_exports.
function(_rknnop_link_board_library lib objects flags comment)
  get_filename_component(_dir "${lib}" DIRECTORY)
  set(_link_cmd COMMAND "${_cxx}" ${flags} -shared -o "${lib}.tmp" ${objects}
                "-Wl,--version-script=${_map}" -Wl,--gc-sections -static-libgcc -static-libstdc++
                "-L${_stub_dir}" -lOpenVX -Wl,--push-state,--as-needed -lpthread -Wl,--pop-state)
  if(_check_args)
    list(APPEND _link_cmd COMMAND ${_check_args} "-DLIBRARY=${lib}.tmp" "-DRENAME_TO=${lib}" "-DARCH=${arch}"
         -P "${_module_dir}/rknnopCheckKernelLibrary.cmake")
  else()
    list(APPEND _link_cmd COMMAND "${CMAKE_COMMAND}" -E rename "${lib}.tmp" "${lib}")
  endif()
  _rknnop_check_inputs(_check_inputs)
  add_custom_command(OUTPUT "${lib}"
    COMMAND "${CMAKE_COMMAND}" -E make_directory "${_dir}"
    ${_link_cmd}
    DEPENDS ${objects} "${_map}" rknnop_openvx_stub_${arch} ${_check_inputs} ${_board_exports}
    COMMENT "${comment}"
    VERBATIM)
endfunction()

# One board library of stage 3: finds the cross compiler, compiles (_rknnop_add_op_board_objects),
# links and checks the library. Sets `out_lib` to its path, or empty when the architecture's cross compiler is missing.
function(_rknnop_add_op_board_library name arch out_lib)
  set(${out_lib} "" PARENT_SCOPE)
  string(TOUPPER "${arch}" _ARCH)
  set(_cxx "${RKNNOP_${_ARCH}_CXX}")
  if(arch STREQUAL "aarch64")
    set(_boards "RK1808/RK3399Pro")
    set(_cxx_name aarch64-linux-gnu-g++)
    set(_board_exports "${_module_dir}/board-exports/linux-aarch64.txt")  # checked after linking
  else()
    set(_boards "RK1806/RV1109/RV1126")
    set(_cxx_name arm-linux-gnueabihf-g++)
    set(_board_exports "${_module_dir}/board-exports/linux-armhf.txt"
                       "${_module_dir}/board-exports/linux-armhf-puma.txt")
  endif()
  if(NOT _cxx)
    string(REGEX REPLACE "-g\\+\\+$" "" _triple "${_cxx_name}")
    set(_why "${_cxx_name} not found (Debian: apt install g++-${_triple}; or set RKNNOP_${_ARCH}_CXX)")
    if(_explicit_arches)
      message(FATAL_ERROR "${_ctx}: ARCHITECTURES asks for ${arch} (${_boards}) but ${_why}")
    endif()
    _rknnop_status_once(missing_${arch} "rknnop: ${arch} kernel libraries (${_boards}) are skipped: ${_why}; "
                                        "their .rknnop sections stay empty")
    return()
  endif()
  _rknnop_board_openvx(${arch} "${_cxx}" _stub_dir)
  _rknnop_add_op_board_objects(${arch} "${_cxx}" "${_boards}" _objects _flags)
  set(_lib "${_out}/${arch}/lib${_lower}.so")
  _rknnop_link_board_library("${_lib}" "${_objects}" "${_flags}" "rknnop: linking ${arch} lib${_lower}.so (${_boards})")
  add_custom_target(${name}_${arch} ALL DEPENDS "${_lib}")  # e.g. `cmake --build . -t ResizeArea_armhf`
  set_target_properties(${name} PROPERTIES RKNNOP_LIBRARY_${arch} "${_lib}")
  set(${out_lib} "${_lib}" PARENT_SCOPE)

  # The instrumented variant, built only when asked (`cmake --build . -t <name>_<arch>_instrumented`):
  # the same sources with -DRKNNOP_INSTRUMENTED=1, i.e. RKNNOP_PROFILE=1 and RKNNOP_RECORD=<dir>
  # around the CPU kernel (detail/openvx/record.hpp), as <out>/<arch>/instrumented/lib<lower>.so. The
  # release library above stays as it is (its size budget); the .rknnop container carries the release
  # one. Target property RKNNOP_INSTRUMENTED_LIBRARY_<arch>.
  set(_object_suffix "${_object_suffix}-instrumented")
  list(APPEND _object_defs RKNNOP_INSTRUMENTED=1)
  _rknnop_add_op_board_objects(${arch} "${_cxx}" "${_boards}" _objects _flags)
  set(_ilib "${_out}/${arch}/instrumented/lib${_lower}.so")
  _rknnop_link_board_library("${_ilib}" "${_objects}" "${_flags}"
                             "rknnop: linking ${arch} instrumented/lib${_lower}.so (${_boards}; RKNNOP_PROFILE, RKNNOP_RECORD)")
  add_custom_target(${name}_${arch}_instrumented DEPENDS "${_ilib}")
  set_target_properties(${name} PROPERTIES RKNNOP_INSTRUMENTED_LIBRARY_${arch} "${_ilib}")
endfunction()

# Part of stage 3: compiles each source (and rknnopKernelSupport.cpp) for `arch` with the cross
# compiler `cxx`. Sets `out_objects` to the object files and `out_flags` to the flags the link repeats.
function(_rknnop_add_op_board_objects arch cxx boards out_objects out_flags)
  string(TOUPPER "${arch}" _ARCH)
  _rknnop_cross_pfr_include(_pfr)
  if(NOT _pfr)
    message(FATAL_ERROR "${_ctx}: boost/pfr.hpp not found for the cross compilers (set RKNNOP_PFR_INCLUDE_DIR)")
  endif()
  string(REGEX REPLACE "g\\+\\+$" "gcc" _cc "${cxx}")
  # No unwind tables (nothing unwinds through a -fno-exceptions kernel; saves ~2.5 KiB), and no
  # fused multiply-add contraction, so board kernels round like the x86-64 library and TensorFlow.
  # RKNNOP_COMPACT_GLUE: the SDK's glue compiled for size, its kernels not (config.hpp), in the RKNN v1
  # libraries (their 32 KiB budget); a backend whose libraries have no such budget sets _compact_glue
  # to 0 (rknnopRknpu2.cmake: the glue runs on every call of the node).
  if(NOT DEFINED _compact_glue)
    set(_compact_glue 1)
  endif()
  set(_flags ${RKNNOP_BOARD_OPT_FLAGS} -fPIC -fno-exceptions -fno-rtti -fvisibility=hidden
             -fno-unwind-tables -fno-asynchronous-unwind-tables -ffp-contract=off
             -ffunction-sections -fdata-sections -DRKNNOP_COMPACT_GLUE=${_compact_glue})
  # AArch64 size (docs/performance.md §3, measured on ResizeArea): the boards' cores are ARMv8.0 (no
  # LSE atomics), so GCC's outline atomics (-moutline-atomics, its default) are a call and a run-time
  # check around the same LL/SC loop, plus an import and an initializer; the tiny code model addresses
  # data with one instruction instead of two (a library over 1 MiB then fails to link, "relocation
  # truncated": add -mcmodel=small to RKNNOP_AARCH64_FLAGS, which come after); and no .eh_frame_hdr
  # (it would index only crtbegin's frame: nothing unwinds through a kernel built without unwind tables).
  if(arch STREQUAL "aarch64")
    list(APPEND _flags -mno-outline-atomics -mcmodel=tiny -Wl,--no-eh-frame-hdr)
  endif()
  list(APPEND _flags ${RKNNOP_${_ARCH}_FLAGS})
  _rknnop_strips_shipped_libraries(_strip)
  if(_strip)
    list(APPEND _flags -g)  # for the debug file beside the container (stage 7)
  endif()
  set(_cxx_flags -std=c++20 -fvisibility-inlines-hidden)
  set(_includes "-I${_rknnop_include}" "-I${_pfr}")
  foreach(_inc IN LISTS _include_dirs ARG_OPENVX_INCLUDE_DIR)
    list(APPEND _includes "-I${_inc}")
  endforeach()
  foreach(_def IN LISTS _openvx_defs)
    list(APPEND _includes "-D${_def}")
  endforeach()
  # Ninja creates an OUTPUT's directory itself, Unix Makefiles does not (and GCC's -MF then fails).
  # A backend's own objects (rknnopRknpu2.cmake): _object_suffix, _object_defs, _object_includes.
  foreach(_def IN LISTS _object_defs)
    list(APPEND _includes "-D${_def}")
  endforeach()
  set(_forced)  # the op's sources only: rknnopKernelSupport.cpp stays as it is
  foreach(_header IN LISTS _object_includes)
    list(APPEND _forced -include "${_header}")
  endforeach()
  set(_objdir "${_work}/${arch}${_object_suffix}")
  file(MAKE_DIRECTORY "${_objdir}")
  set(_objects)
  set(_index 0)
  foreach(_src IN LISTS _sources ITEMS "${_module_dir}/rknnopKernelSupport.cpp")
    cmake_path(GET _src FILENAME _file)
    set(_obj "${_objdir}/${_index}_${_file}.o")
    math(EXPR _index "${_index} + 1")
    if(_src MATCHES "\\.c$")
      set(_compiler "${_cc}")
      set(_lang_flags -std=c11)
    else()
      set(_compiler "${cxx}")
      set(_lang_flags ${_cxx_flags})
    endif()
    set(_src_forced ${_forced})
    if(_src STREQUAL "${_module_dir}/rknnopKernelSupport.cpp" OR _src MATCHES "\\.c$")
      set(_src_forced)
    endif()
    add_custom_command(OUTPUT "${_obj}"
      COMMAND ${RKNNOP_BOARD_COMPILER_LAUNCHER} "${_compiler}" ${_lang_flags} ${_flags} ${_includes} ${_src_forced}
              -MD -MF "${_obj}.d" -c "${_src}" -o "${_obj}"
      DEPENDS "${_src}"
      DEPFILE "${_obj}.d"
      COMMENT "rknnop: compiling ${_file} for ${arch} (${boards})"
      VERBATIM)
    list(APPEND _objects "${_obj}")
  endforeach()
  set(${out_objects} "${_objects}" PARENT_SCOPE)
  set(${out_flags} "${_flags}" PARENT_SCOPE)
endfunction()

# The generator program (<rknnop/emit/program.hpp>, {fmt}), compiled once per build into the static
# library rknnop_emitter_program that every op's emitter links: compiled per op, it was most of an
# emitter's compile time. Created by the first rknnop_add_op (targets are global).
function(_rknnop_emitter_program)
  if(TARGET rknnop_emitter_program)
    return()
  endif()
  get_property(_dir GLOBAL PROPERTY RKNNOP_ADD_OP_MODULE_DIR)
  add_library(rknnop_emitter_program STATIC EXCLUDE_FROM_ALL "${_dir}/rknnopEmitterProgram.cpp")
  target_compile_definitions(rknnop_emitter_program PRIVATE RKNNOP_EMITTER)
  target_link_libraries(rknnop_emitter_program PUBLIC rknnop::rknnop)
endfunction()

# Stage 4, the emitter: the same sources with -DRKNNOP_EMITTER, run on the host. Target
# <name>_emitter; writes op.yml and (without PYTHON) the Python op. Sets _yml and _py.
function(_rknnop_add_op_emitter name)
  set(_main "${_work}/emitter_main.cpp")
  set(RKNNOP_OP_NAME "${name}")
  configure_file("${_module_dir}/rknnopEmitterMain.cpp.in" "${_main}" @ONLY)
  _rknnop_host_openvx(_openvx)
  _rknnop_emitter_program()
  add_executable(${name}_emitter ${_sources} "${_main}")
  # Its own translation unit under CMAKE_UNITY_BUILD too: its weak declaration of the schema function
  # must come before RKNNOP_EXPORT_OP's definition, which a unity source of the op's files puts first
  # (Clang then ignores the attribute and warns, -Wignored-attributes).
  set_source_files_properties("${_main}" TARGET_DIRECTORY ${name}_emitter PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
  target_compile_definitions(${name}_emitter PRIVATE RKNNOP_EMITTER)
  target_include_directories(${name}_emitter PRIVATE ${_include_dirs})
  target_link_libraries(${name}_emitter PRIVATE rknnop_emitter_program rknnop::rknnop ${_openvx})
  set_target_properties(${name}_emitter PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${_work}$<0:>")
  # A default that changes value on conversion (`std::int32_t block_size = 2.5;`, `std::uint8_t u = 300;`)
  # would reach op.yml and the kernel silently converted: Clang's warnings for constants are errors
  # here; GCC has no constant-only float warning, so -Werror=float-conversion (no false positive on the
  # examples' and tests' ops; it also refuses `float y = x * 0.5;` in a kernel: write 0.5f). The op's
  # sources are compiled here once, whatever the architectures.
  target_compile_options(${name}_emitter PRIVATE
    $<$<COMPILE_LANG_AND_ID:CXX,Clang,AppleClang>:-Werror=literal-conversion -Werror=constant-conversion>
    $<$<COMPILE_LANG_AND_ID:CXX,GNU>:-Werror=float-conversion -Werror=overflow>)

  set(_yml "${_out}/op.yml")
  set(_emit_args --yml "${_yml}" --target-platform "${ARG_TARGET_PLATFORM}" --kernel-index "${ARG_KERNEL_INDEX}")
  set(_emit_outputs "${_yml}")
  if(DEFINED ARG_PYTHON)
    set(_py "${ARG_PYTHON}")
  else()
    set(_py "${_out}/rknn_op_${_lower}.py")
    list(APPEND _emit_args --py "${_py}")
    list(APPEND _emit_outputs "${_py}")
  endif()
  add_custom_command(OUTPUT ${_emit_outputs}
    COMMAND ${name}_emitter ${_emit_args}
    DEPENDS ${name}_emitter
    COMMENT "rknnop: op.yml and Python op of ${name}"
    VERBATIM)
  set(_yml "${_yml}" PARENT_SCOPE)
  set(_py "${_py}" PARENT_SCOPE)
endfunction()

# Stage 5, the .vx shader's __kernel signature against op.yml (VX_SOURCE only). Sets _checks: the
# files the container waits for (the shader's copy beside op.yml, the check's stamp).
function(_rknnop_add_op_vxcheck name)
  set(_checks)
  if(DEFINED ARG_VX_SOURCE)
    # Beside op.yml under the name op.yml gives it (vx_file), as the toolkit lays an op out: the
    # host tools (rknnop-run --kernel-index 1, rknnop-parity) find the shader there.
    set(_vx_copy "${_out}/rknn_kernel_${_lower}.vx")
    add_custom_command(OUTPUT "${_vx_copy}"
      COMMAND "${CMAKE_COMMAND}" -E copy "${ARG_VX_SOURCE}" "${_vx_copy}"
      DEPENDS "${ARG_VX_SOURCE}"
      COMMENT "rknnop: ${name}'s shader as ${_vx_copy}"
      VERBATIM)
    list(APPEND _checks "${_vx_copy}")
    if(TARGET rknnop-vxcheck)
      set(_vxcheck "$<TARGET_FILE:rknnop-vxcheck>")
      set(_vxcheck_dep rknnop-vxcheck)
    else()
      find_program(RKNNOP_VXCHECK_EXECUTABLE rknnop-vxcheck DOC "rknnop: the .vx signature checker")
      set(_vxcheck "${RKNNOP_VXCHECK_EXECUTABLE}")
      set(_vxcheck_dep "${RKNNOP_VXCHECK_EXECUTABLE}")
    endif()
    if(_vxcheck)
      set(_stamp "${_work}/vxcheck.stamp")
      add_custom_command(OUTPUT "${_stamp}"
        COMMAND "${_vxcheck}" --op-yml "${_yml}" --vx "${ARG_VX_SOURCE}"
        COMMAND "${CMAKE_COMMAND}" -E touch "${_stamp}"
        DEPENDS "${_yml}" "${ARG_VX_SOURCE}" ${_vxcheck_dep}
        COMMENT "rknnop: checking ${ARG_VX_SOURCE} against ${name}'s op.yml"
        VERBATIM)
      list(APPEND _checks "${_stamp}")
    else()
      _rknnop_status_once(no_vxcheck "rknnop: rknnop-vxcheck not found; VX_SOURCE shaders are not checked against op.yml")
    endif()
  endif()
  set(_checks "${_checks}" PARENT_SCOPE)
endfunction()

# Stage 6, the shader section: SHADER_BINARY (a shader the toolkit compiled) or the shader section of
# TOOLKIT_RKNNOP (a .rknnop the toolkit built), read and checked by the emitter when it packs
# (--shader / --toolkit-rknnop: "SHDR" magic, the container parsed strictly); without either the
# section stays empty, as for CPU-only ops. Sets _shader_args (for --pack) and _shader_deps.
function(_rknnop_add_op_shader_section name)
  set(_shader_args)
  set(_shader_deps)
  if(DEFINED ARG_SHADER_BINARY)
    set(_shader_args --shader "${ARG_SHADER_BINARY}")
    set(_shader_deps "${ARG_SHADER_BINARY}")
  elseif(DEFINED ARG_TOOLKIT_RKNNOP)
    set(_shader_args --toolkit-rknnop "${ARG_TOOLKIT_RKNNOP}")
    set(_shader_deps "${ARG_TOOLKIT_RKNNOP}")
  endif()
  set(_shader_args "${_shader_args}" PARENT_SCOPE)
  set(_shader_deps "${_shader_deps}" PARENT_SCOPE)
endfunction()

# Stage 7, lean shipped libraries (docs/abi.md §9): in a Release/MinSizeRel build (or with
# RKNNOP_STRIP_SHIPPED_LIBRARIES ON) the container gets stripped copies, and the debug info stays
# beside it as <out>/debug/<arch>/lib<lower>.so.debug, named by each copy's .gnu_debuglink. Sets
# _library_args (--x86/--aarch64/--armhf and the file to pack) and _shipped_libs (the stripped copies).
function(_rknnop_add_op_shipped_libraries name)
  _rknnop_strips_shipped_libraries(_strip)
  set(_library_args)
  set(_shipped_libs)
  foreach(_arch IN ITEMS x86_64 LISTS RKNNOP_BOARD_ARCHITECTURES)
    if(_arch STREQUAL "x86_64")
      set(_lib "$<TARGET_FILE:${name}>")
      set(_lib_dependency ${name})  # the target: a target-level and a file-level dependency
      set(_flag --x86)
      set(_objcopy "${CMAKE_OBJCOPY}")
    else()
      get_target_property(_lib ${name} RKNNOP_LIBRARY_${_arch})
      set(_lib_dependency "${_lib}")
      set(_flag --${_arch})
      string(TOUPPER "${_arch}" _ARCH)
      string(REGEX REPLACE "g\\+\\+$" "objcopy" _objcopy "${RKNNOP_${_ARCH}_CXX}")
    endif()
    if(NOT _lib)
      continue()
    endif()
    if(_strip AND (NOT _objcopy OR NOT EXISTS "${_objcopy}"))
      _rknnop_status_once(no_objcopy_${_arch} "rknnop: no objcopy for ${_arch} ('${_objcopy}'): its library is packed "
                                              "unstripped")
    elseif(_strip)
      set(_shipped "${_work}/shipped/${_arch}/lib${_lower}.so")
      set(_debug "${_out}/debug/${_arch}/lib${_lower}.so.debug")
      add_custom_command(OUTPUT "${_shipped}" "${_debug}"
        COMMAND "${CMAKE_COMMAND}" "-DOBJCOPY=${_objcopy}" "-DLIBRARY=${_lib}" "-DOUTPUT=${_shipped}"
                "-DDEBUG_FILE=${_debug}" -P "${_module_dir}/rknnopStripLibrary.cmake"
        DEPENDS ${_lib_dependency} "${_module_dir}/rknnopStripLibrary.cmake"
        COMMENT "rknnop: stripping ${_arch} lib${_lower}.so for ${name}.rknnop (debug info: ${_debug})"
        VERBATIM)
      list(APPEND _shipped_libs "${_shipped}")
      set(_lib "${_shipped}")
    endif()
    list(APPEND _library_args ${_flag} "${_lib}")
  endforeach()
  set(_library_args "${_library_args}" PARENT_SCOPE)
  set(_shipped_libs "${_shipped_libs}" PARENT_SCOPE)
endfunction()

# Stage 8, the .rknnop container, packed by the emitter (target <name>_rknnop, built by ALL). A
# section whose input is missing stays empty: the shader of a CPU-only op, a board library whose
# cross compiler is missing.
function(_rknnop_add_op_container name)
  set(_pack_args --target-platform "${ARG_TARGET_PLATFORM}" --kernel-index "${ARG_KERNEL_INDEX}"
                 ${_shader_args} ${_library_args})
  if(DEFINED ARG_PYTHON)
    list(APPEND _pack_args --py-file "${_py}")
  endif()
  set(_container "${_out}/${name}.rknnop")
  add_custom_command(OUTPUT "${_container}"
    COMMAND ${name}_emitter --pack "${_container}" ${_pack_args}
    DEPENDS ${name}_emitter ${name} "${_py}" ${_shader_deps} ${_board_libs} ${_shipped_libs} ${_checks}
    COMMENT "rknnop: packing ${name}.rknnop"
    VERBATIM)
  add_custom_target(${name}_rknnop ALL DEPENDS "${_container}" ${_checks})
  if(_board_targets)
    add_dependencies(${name}_rknnop ${_board_targets})  # the board libraries are built by their own targets
  endif()
  set_target_properties(${name} PROPERTIES RKNNOP_OP_YML "${_yml}" RKNNOP_CONTAINER "${_container}")
endfunction()

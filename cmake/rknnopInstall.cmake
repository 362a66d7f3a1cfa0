# SPDX-License-Identifier: MIT
# Install rules: the header-only SDK as an arch-independent CMake package + pkg-config files.
#   <prefix>/include/rknnop/...                     headers (host/, vxc/, parity/ belong to compiled components)
#   <prefix>/share/rknnop/cmake/rknnopConfig.cmake  targets rknnop::rknnop, rknnop::kernel, rknnop::compat_vx; rknnop_add_op
#   <prefix>/share/pkgconfig/rknnop.pc              headers + {fmt} (host side, emitters)
#   <prefix>/share/pkgconfig/rknnop-kernel.pc       headers only (kernel libraries: nothing but libc)
# Everything lives under share/: one x86-64 install serves native and cross (arm) consumers alike,
# hence ARCH_INDEPENDENT in the version file.
# With the host part built (RKNNOP_BUILD_HOST) and RKNNOP_INSTALL_TOOLS, component rknnop_tools adds
# the compiled host part, for the build machine only (the package's component `host`):
#   <prefix>/include/rknnop/{host,vxc,parity}/      their headers
#   <prefix>/lib/librknnop_host.a, ...              rknnop::host (formats, loader, session, model),
#                                                   rknnop::vxc and rknnop::parity (when built with OpenCL)
#   <prefix>/lib/rknnop/libOpenVX.so                rknnop::openvx, the host runtime (a private directory:
#                                                   in lib/ it would shadow a real OpenVX for other programs)
#   <prefix>/share/rknnop/cmake/rknnopHostTargets.cmake
#   <prefix>/bin/rknnop-run, ...                    the tools (tools/CMakeLists.txt)
include_guard(GLOBAL)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(RKNNOP_INSTALL_CMAKEDIR "${CMAKE_INSTALL_DATADIR}/rknnop/cmake" CACHE STRING
    "rknnop: where rknnopConfig.cmake and rknnop_add_op's files are installed (relative to the prefix)")
set(RKNNOP_INSTALL_PKGCONFIGDIR "${CMAKE_INSTALL_DATADIR}/pkgconfig" CACHE STRING
    "rknnop: where rknnop.pc is installed (relative to the prefix)")

install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/rknnop"
        DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}"
        COMPONENT rknnop_development
        PATTERN "host" EXCLUDE PATTERN "vxc" EXCLUDE PATTERN "parity" EXCLUDE)

install(TARGETS rknnop_kernel rknnop rknnop_compat_vx EXPORT rknnopTargets COMPONENT rknnop_development)
install(EXPORT rknnopTargets
        NAMESPACE rknnop::
        DESTINATION "${RKNNOP_INSTALL_CMAKEDIR}"
        COMPONENT rknnop_development)

# The compiled host part (component rknnop_tools; see the header of this file).
set(RKNNOP_INSTALLS_HOST OFF)
set(RKNNOP_HOST_NEEDS_OPENCL OFF)
if(RKNNOP_INSTALL_TOOLS AND TARGET rknnop_host AND TARGET rknnop_openvx)
  set(RKNNOP_INSTALLS_HOST ON)
  set(_rknnop_host_targets rknnop_openvx rknnop_host)
  set(_rknnop_host_headers host)
  foreach(_library vxc parity)
    if(TARGET rknnop_${_library})
      list(APPEND _rknnop_host_targets rknnop_${_library})
      list(APPEND _rknnop_host_headers ${_library})
      set(RKNNOP_HOST_NEEDS_OPENCL ON)
    endif()
  endforeach()
  install(TARGETS ${_rknnop_host_targets} EXPORT rknnopHostTargets COMPONENT rknnop_tools
          ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
          LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}/rknnop"
          FILE_SET HEADERS DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
  foreach(_dir IN LISTS _rknnop_host_headers)
    install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/rknnop/${_dir}" DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/rknnop"
            COMPONENT rknnop_tools)
  endforeach()
  install(EXPORT rknnopHostTargets NAMESPACE rknnop:: DESTINATION "${RKNNOP_INSTALL_CMAKEDIR}" COMPONENT rknnop_tools)
  # The config checks that a consumer's machine is this one's kind before it reads the host targets.
  set(RKNNOP_HOST_SYSTEM "${CMAKE_SYSTEM_NAME}-${CMAKE_SYSTEM_PROCESSOR}")
endif()

# The board runner (docs/board-emulation.md §2), with the tools: bin/rknnop-board-run (scripts/board-run.sh
# with its installed paths filled in), its sources (the runners and the stand-ins are built by the
# script, against the driver folder given at run time) and the galcore stand-ins built here.
#   <prefix>/bin/rknnop-board-run
#   <prefix>/share/rknnop/board/{runner,stubs}/...
#   <prefix>/lib/rknnop/board/{aarch64,armhf}/librknnop_galcore.so   (built with the cross compilers)
if(RKNNOP_INSTALLS_HOST AND DEFINED RKNNOP_INSTALL_TOOLS_DIR)
  set(_board_share "${CMAKE_INSTALL_DATADIR}/rknnop/board")
  set(_board_lib "${CMAKE_INSTALL_LIBDIR}/rknnop/board")
  cmake_path(ABSOLUTE_PATH RKNNOP_INSTALL_TOOLS_DIR BASE_DIRECTORY "/prefix" NORMALIZE OUTPUT_VARIABLE _bindir)
  set(_layout)
  foreach(_dir "${_board_share}" "${CMAKE_INSTALL_INCLUDEDIR}" "${_board_lib}")
    cmake_path(ABSOLUTE_PATH _dir BASE_DIRECTORY "/prefix" NORMALIZE OUTPUT_VARIABLE _dir)
    file(RELATIVE_PATH _dir "${_bindir}" "${_dir}")
    list(APPEND _layout "${_dir}")
  endforeach()
  list(JOIN _layout " " _layout)
  file(READ "${PROJECT_SOURCE_DIR}/scripts/board-run.sh" _script)
  string(REPLACE "\ninstalled_layout=\n" "\ninstalled_layout='${_layout}'\n" _installed "${_script}")
  if(_installed STREQUAL _script)
    message(FATAL_ERROR "rknnop: scripts/board-run.sh has no 'installed_layout=' line for its install")
  endif()
  file(WRITE "${PROJECT_BINARY_DIR}/rknnop-package/rknnop-board-run" "${_installed}")
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/scripts/board-run.sh")
  install(PROGRAMS "${PROJECT_BINARY_DIR}/rknnop-package/rknnop-board-run" DESTINATION "${RKNNOP_INSTALL_TOOLS_DIR}"
          COMPONENT rknnop_tools)
  install(FILES "${PROJECT_SOURCE_DIR}/board/runner/npy.c" "${PROJECT_SOURCE_DIR}/board/runner/npy.h"
                "${PROJECT_SOURCE_DIR}/board/runner/rknn_board_run.c" "${PROJECT_SOURCE_DIR}/board/runner/vx_board_run.c"
          DESTINATION "${_board_share}/runner" COMPONENT rknnop_tools)
  install(FILES "${PROJECT_SOURCE_DIR}/board/driver-libdir.sh" DESTINATION "${_board_share}" COMPONENT rknnop_tools)
  install(PROGRAMS "${PROJECT_SOURCE_DIR}/board/stubs/make-stubs.sh" DESTINATION "${_board_share}/stubs"
          COMPONENT rknnop_tools)
  install(FILES "${PROJECT_SOURCE_DIR}/board/stubs/dlsym-imports.txt" DESTINATION "${_board_share}/stubs"
          COMPONENT rknnop_tools)
  if(TARGET rknnop_galcore_board)
    foreach(_arch aarch64 armhf)
      install(FILES "${PROJECT_BINARY_DIR}/board/galcore/${_arch}/librknnop_galcore.so"
              DESTINATION "${_board_lib}/${_arch}" COMPONENT rknnop_tools OPTIONAL)
    endforeach()
  endif()

  # The RKNPU2 runner (docs/rknpu2-emulation.md, docs/rknpu2-deploy.md): bin/rknnop-rknpu2-run
  # (scripts/rknpu2-run.sh with its installed paths filled in), the runner's source (built by the
  # script against the runtime folder given at run time), an application's source for --app, and the
  # armhf /dev/rknpu stand-in built here:
  #   <prefix>/share/rknnop/board/rknpu2/{rknpu2_run.c,rknpu2_app.cpp}   (board/runner/npy.[ch] above)
  #   <prefix>/lib/rknnop/rknpu2/armhf/librknnop_rknpu.so
  set(_rknpu2_lib "${CMAKE_INSTALL_LIBDIR}/rknnop/rknpu2")
  set(_layout)
  foreach(_dir "${_board_share}" "${_rknpu2_lib}")
    cmake_path(ABSOLUTE_PATH _dir BASE_DIRECTORY "/prefix" NORMALIZE OUTPUT_VARIABLE _dir)
    file(RELATIVE_PATH _dir "${_bindir}" "${_dir}")
    list(APPEND _layout "${_dir}")
  endforeach()
  list(JOIN _layout " " _layout)
  file(READ "${PROJECT_SOURCE_DIR}/scripts/rknpu2-run.sh" _script)
  string(REPLACE "\ninstalled_layout=\n" "\ninstalled_layout='${_layout}'\n" _installed "${_script}")
  if(_installed STREQUAL _script)
    message(FATAL_ERROR "rknnop: scripts/rknpu2-run.sh has no 'installed_layout=' line for its install")
  endif()
  file(WRITE "${PROJECT_BINARY_DIR}/rknnop-package/rknnop-rknpu2-run" "${_installed}")
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/scripts/rknpu2-run.sh")
  install(PROGRAMS "${PROJECT_BINARY_DIR}/rknnop-package/rknnop-rknpu2-run" DESTINATION "${RKNNOP_INSTALL_TOOLS_DIR}"
          COMPONENT rknnop_tools)
  install(FILES "${PROJECT_SOURCE_DIR}/board/rknpu2/rknpu2_run.c" "${PROJECT_SOURCE_DIR}/examples/rknpu2_app/rknpu2_app.cpp"
          DESTINATION "${_board_share}/rknpu2" COMPONENT rknnop_tools)
  if(TARGET rknnop_rknpu_board)
    install(FILES "${PROJECT_BINARY_DIR}/board/rknpu2/armhf/librknnop_rknpu.so" DESTINATION "${_rknpu2_lib}/armhf"
            COMPONENT rknnop_tools OPTIONAL)
  endif()
endif()

configure_package_config_file("${CMAKE_CURRENT_LIST_DIR}/rknnopConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/rknnop-package/rknnopConfig.cmake"
  INSTALL_DESTINATION "${RKNNOP_INSTALL_CMAKEDIR}"
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR)
write_basic_package_version_file("${PROJECT_BINARY_DIR}/rknnop-package/rknnopConfigVersion.cmake"
  VERSION "${PROJECT_VERSION}"
  COMPATIBILITY SameMajorVersion
  ARCH_INDEPENDENT)
# rknnop_add_op and everything it reads at configure and build time: the list the Conan recipe reads too.
file(STRINGS "${CMAKE_CURRENT_LIST_DIR}/rknnopAddOpFiles.txt" _rknnop_add_op_files REGEX "^[^#]")
set(_rknnop_add_op_subdir_files ${_rknnop_add_op_files})  # e.g. board-exports/*.txt: keep their folder
list(FILTER _rknnop_add_op_files EXCLUDE REGEX "/")
list(FILTER _rknnop_add_op_subdir_files INCLUDE REGEX "/")
list(TRANSFORM _rknnop_add_op_files PREPEND "${CMAKE_CURRENT_LIST_DIR}/")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${CMAKE_CURRENT_LIST_DIR}/rknnopAddOpFiles.txt")
foreach(_file IN LISTS _rknnop_add_op_subdir_files)
  cmake_path(GET _file PARENT_PATH _dir)
  install(FILES "${CMAKE_CURRENT_LIST_DIR}/${_file}" DESTINATION "${RKNNOP_INSTALL_CMAKEDIR}/${_dir}"
          COMPONENT rknnop_development)
endforeach()
install(FILES
    "${PROJECT_BINARY_DIR}/rknnop-package/rknnopConfig.cmake"
    "${PROJECT_BINARY_DIR}/rknnop-package/rknnopConfigVersion.cmake"
    ${_rknnop_add_op_files}
  DESTINATION "${RKNNOP_INSTALL_CMAKEDIR}"
  COMPONENT rknnop_development)
install(DIRECTORY "${CMAKE_CURRENT_LIST_DIR}/toolchains"
  DESTINATION "${RKNNOP_INSTALL_CMAKEDIR}"
  COMPONENT rknnop_development)

# pkg-config: relocatable (prefix found from the .pc file's own location).
set(_pc_dir "${CMAKE_INSTALL_PREFIX}/${RKNNOP_INSTALL_PKGCONFIGDIR}")
file(RELATIVE_PATH RKNNOP_PC_PREFIX_FROM_PCFILEDIR "${_pc_dir}" "${CMAKE_INSTALL_PREFIX}")
string(REGEX REPLACE "/$" "" RKNNOP_PC_PREFIX_FROM_PCFILEDIR "${RKNNOP_PC_PREFIX_FROM_PCFILEDIR}")
cmake_path(IS_ABSOLUTE CMAKE_INSTALL_INCLUDEDIR _abs_include)
if(_abs_include)
  set(RKNNOP_PC_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
else()
  set(RKNNOP_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
# Boost.PFR has no .pc file: name its directory unless the compiler searches it anyway.
set(RKNNOP_PC_PFR_CFLAGS "")
if(TARGET ${RKNNOP_PFR_TARGET})
  get_target_property(_pfr_dirs ${RKNNOP_PFR_TARGET} INTERFACE_INCLUDE_DIRECTORIES)
  # Installing into the prefix that holds Boost: rknnop's own -I already names that directory.
  cmake_path(ABSOLUTE_PATH CMAKE_INSTALL_INCLUDEDIR BASE_DIRECTORY "${CMAKE_INSTALL_PREFIX}" NORMALIZE
             OUTPUT_VARIABLE _own_include)
  foreach(_dir IN LISTS _pfr_dirs)
    if(_dir AND NOT _dir MATCHES "\\$<" AND NOT _dir IN_LIST CMAKE_CXX_IMPLICIT_INCLUDE_DIRECTORIES
       AND NOT _dir STREQUAL _own_include)
      string(APPEND RKNNOP_PC_PFR_CFLAGS " -I${_dir}")
    endif()
  endforeach()
endif()
foreach(_pc rknnop rknnop-kernel)
  configure_file("${CMAKE_CURRENT_LIST_DIR}/${_pc}.pc.in" "${PROJECT_BINARY_DIR}/rknnop-package/${_pc}.pc" @ONLY)
  install(FILES "${PROJECT_BINARY_DIR}/rknnop-package/${_pc}.pc"
          DESTINATION "${RKNNOP_INSTALL_PKGCONFIGDIR}"
          COMPONENT rknnop_development)
endforeach()

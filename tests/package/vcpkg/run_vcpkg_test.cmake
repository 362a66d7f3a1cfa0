# SPDX-License-Identifier: MIT
# package.vcpkg: the overlay port (packaging/vcpkg/ports/rknnop) with the real vcpkg client, offline.
#   cmake -DRKNNOP_SOURCE_DIR=... -DWORK_DIR=... -DRKNNOP_VERSION=x.y.z -DCXX=... -DC=... -P run_vcpkg_test.cmake
# The client: $RKNNOP_VCPKG, else $VCPKG_ROOT/vcpkg, else `vcpkg` on PATH; its root (the registry
# checkout with scripts/ and ports/) is $VCPKG_ROOT, else the executable's directory. Without them the
# test prints why and is skipped.
# Everything vcpkg writes goes under WORK_DIR (install root, buildtrees, packages, downloads; binary
# caching off, so the port really runs). Offline: the registry's boost-pfr and fmt (and, for the feature
# tools, yaml-cpp, cli11 and nlohmann-json) would download their sources, so tests/package/vcpkg/overlay
# stands in for them with the system's packages; vcpkg-cmake and
# vcpkg-cmake-config are the registry's own (scripts only). The system's cmake and ninja are used
# (VCPKG_FORCE_SYSTEM_BINARIES).
#   1. a port whose vcpkg.json version is not version.hpp's fails and says so (RKNNOP_SOURCE_DIR form);
#   2. `vcpkg install "rknnop[tools]"` from this checkout; its rknnop.pc / rknnop-kernel.pc name each -I
#      once; the tools are in tools/rknnop and the host runtime in lib/rknnop;
#   3. tests/package/consumer, configured with vcpkg's toolchain and CMake's default generator
#      (Unix Makefiles), builds an op with rknnop_add_op (board libraries when the cross compilers exist),
#      runs tools/rknnop/rknnop-run --describe and --check on it (wrapped by rknnop-pack), and runs it
#      through rknnop::host::session (find_package component host);
#   4. the port's rknnop-vxcheck and rknnop-parity (OpenCL: the system's, through the overlay's opencl
#      stand-in) check and run the Exp example's shader (../vx_tools.cmake).
cmake_minimum_required(VERSION 3.21)

set(_test package.vcpkg)
set(_root "$ENV{VCPKG_ROOT}")
if(NOT "$ENV{RKNNOP_VCPKG}" STREQUAL "")
  set(_vcpkg "$ENV{RKNNOP_VCPKG}")
  if(NOT EXISTS "${_vcpkg}")
    message(FATAL_ERROR "rknnop: ${_test}: RKNNOP_VCPKG=${_vcpkg} does not exist")
  endif()
elseif(_root AND EXISTS "${_root}/vcpkg")
  set(_vcpkg "${_root}/vcpkg")
else()
  find_program(_vcpkg vcpkg)
  if(NOT _vcpkg)
    message("rknnop: ${_test} skipped: no vcpkg client (set RKNNOP_VCPKG=/path/to/vcpkg and VCPKG_ROOT=<vcpkg "
            "registry checkout>, or put vcpkg on PATH)")
    return()
  endif()
endif()
if(NOT _root)
  get_filename_component(_root "${_vcpkg}" REALPATH)
  get_filename_component(_root "${_root}" DIRECTORY)
endif()
if(NOT EXISTS "${_root}/scripts/buildsystems/vcpkg.cmake" OR NOT EXISTS "${_root}/ports/vcpkg-cmake")
  message("rknnop: ${_test} skipped: ${_root} is not a vcpkg root (no scripts/buildsystems/vcpkg.cmake or "
          "ports/vcpkg-cmake): set VCPKG_ROOT to a checkout of github.com/microsoft/vcpkg")
  return()
endif()

# step(<what> <command...> [EXPECT_FAILURE] [MATCH <regex>]): runs in WORK_DIR, logged to WORK_DIR/vcpkg.log.
function(step what)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "EXPECT_FAILURE" "MATCH" "")
  execute_process(COMMAND ${ARG_UNPARSED_ARGUMENTS} WORKING_DIRECTORY "${WORK_DIR}"
                  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
  list(JOIN ARG_UNPARSED_ARGUMENTS " " _command)
  file(APPEND "${WORK_DIR}/vcpkg.log" "\n\$ ${_command}\n${_out}")
  if(ARG_EXPECT_FAILURE AND _rc EQUAL 0)
    set(_ok FALSE)
  elseif(NOT ARG_EXPECT_FAILURE AND NOT _rc EQUAL 0)
    set(_ok FALSE)
  elseif(ARG_MATCH AND NOT _out MATCHES "${ARG_MATCH}")
    set(_ok FALSE)
  else()
    set(_ok TRUE)
  endif()
  if(NOT _ok)
    message(FATAL_ERROR "rknnop: ${_test}: ${what}: unexpected exit code ${_rc} or output "
                        "(expected failure: ${ARG_EXPECT_FAILURE}, output matching '${ARG_MATCH}'):\n${_out}")
  endif()
  message(STATUS "${_test}: ${what}: ok")
endfunction()

include("${CMAKE_CURRENT_LIST_DIR}/../vx_tools.cmake")
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
execute_process(COMMAND "${_vcpkg}" version --vcpkg-root "${_root}" OUTPUT_VARIABLE _version ERROR_VARIABLE _version)
string(REGEX MATCH "[^\n]*version[^\n]*" _version "${_version}")
message(STATUS "${_test}: ${_vcpkg} (root ${_root}): ${_version}")

set(ENV{VCPKG_FORCE_SYSTEM_BINARIES} 1)
set(ENV{VCPKG_DISABLE_METRICS} 1)
set(ENV{CC} "${C}")
set(ENV{CXX} "${CXX}")
set(_triplet x64-linux)
set(_installed "${WORK_DIR}/installed")
set(_vcpkg_install "${_vcpkg}" install --vcpkg-root "${_root}" --triplet ${_triplet} --host-triplet ${_triplet}
    "--x-buildtrees-root=${WORK_DIR}/buildtrees" "--x-packages-root=${WORK_DIR}/packages"
    "--downloads-root=${WORK_DIR}/downloads" --binarysource=clear
    "--overlay-ports=${RKNNOP_SOURCE_DIR}/tests/package/vcpkg/overlay")

# 1. The RKNNOP_SOURCE_DIR form, with a port copy whose version is not the header's.
file(COPY "${RKNNOP_SOURCE_DIR}/packaging/vcpkg/ports/rknnop" DESTINATION "${WORK_DIR}/mismatched-port")
file(READ "${WORK_DIR}/mismatched-port/rknnop/vcpkg.json" _manifest)
string(REGEX REPLACE "\"version\": \"[^\"]*\"" "\"version\": \"${RKNNOP_VERSION}.1\"" _manifest "${_manifest}")
file(WRITE "${WORK_DIR}/mismatched-port/rknnop/vcpkg.json" "${_manifest}")
set(ENV{RKNNOP_SOURCE_DIR} "${RKNNOP_SOURCE_DIR}")
step("a port version other than version.hpp's is refused" ${_vcpkg_install} rknnop
     "--x-install-root=${WORK_DIR}/mismatched-installed" "--overlay-ports=${WORK_DIR}/mismatched-port"
     EXPECT_FAILURE MATCH "rknnop: the port's version ${RKNNOP_VERSION}\\.1 \\(vcpkg\\.json\\) is not the sources' ${RKNNOP_VERSION}")
unset(ENV{RKNNOP_SOURCE_DIR})

# 2. The documented form: the overlay in this checkout builds this checkout.
# ccache, when the caller uses it, reaches the port's build (vcpkg passes only listed variables).
set(ENV{VCPKG_KEEP_ENV_VARS} "CMAKE_C_COMPILER_LAUNCHER;CMAKE_CXX_COMPILER_LAUNCHER;CCACHE_DIR")
step("vcpkg install rknnop[tools]" ${_vcpkg_install} "rknnop[tools]" "--x-install-root=${_installed}"
     "--overlay-ports=${RKNNOP_SOURCE_DIR}/packaging/vcpkg/ports")
set(_prefix "${_installed}/${_triplet}")
foreach(_file include/rknnop/op.hpp share/rknnop/rknnopConfig.cmake share/rknnop/rknnopAddOp.cmake
              share/rknnop/copyright share/rknnop/usage share/rknnop/rknnopHostTargets.cmake
              include/rknnop/host/session.hpp tools/rknnop/rknnop-run tools/rknnop/rknnop-pack
              tools/rknnop/rknnop-vxcheck tools/rknnop/rknnop-parity lib/rknnop/libOpenVX.so)
  if(NOT EXISTS "${_prefix}/${_file}")
    message(FATAL_ERROR "rknnop: ${_test}: the installed port lacks ${_file}")
  endif()
endforeach()
foreach(_pc rknnop rknnop-kernel)
  file(GLOB _pc_file "${_prefix}/*/pkgconfig/${_pc}.pc")
  if(NOT _pc_file)
    message(FATAL_ERROR "rknnop: ${_test}: the installed port has no ${_pc}.pc")
  endif()
  # Cflags with the file's variables expanded as pkg-config would (pkgconf drops repeated flags from
  # its output, so the file itself is read): each include directory once.
  get_filename_component(_pc_dir "${_pc_file}" DIRECTORY)
  set(_variables pcfiledir)
  set(_value_pcfiledir "${_pc_dir}")
  file(STRINGS "${_pc_file}" _lines)
  foreach(_line IN LISTS _lines)
    if(_line MATCHES "^([A-Za-z_][A-Za-z0-9_]*)=(.*)$")
      list(APPEND _variables "${CMAKE_MATCH_1}")
      set(_value_${CMAKE_MATCH_1} "${CMAKE_MATCH_2}")
    elseif(_line MATCHES "^Cflags: *(.*)$")
      set(_cflags "${CMAKE_MATCH_1}")
    endif()
  endforeach()
  set(_expanded "${_cflags}")
  foreach(_pass RANGE 8)  # variables refer to earlier ones (includedir -> prefix -> pcfiledir)
    foreach(_variable IN LISTS _variables)
      string(REPLACE "\${${_variable}}" "${_value_${_variable}}" _expanded "${_expanded}")
    endforeach()
  endforeach()
  separate_arguments(_flags UNIX_COMMAND "${_expanded}")
  set(_seen)
  foreach(_flag IN LISTS _flags)
    if(_flag MATCHES "^-I(.*)$")
      cmake_path(SET _flag NORMALIZE "${CMAKE_MATCH_1}")
      set(_flag "-I${_flag}")
    endif()
    if(_flag IN_LIST _seen)
      message(FATAL_ERROR "rknnop: ${_test}: ${_pc_file} names ${_flag} twice: 'Cflags: ${_cflags}'")
    endif()
    list(APPEND _seen "${_flag}")
  endforeach()
  message(STATUS "${_test}: ${_pc}.pc: Cflags: ${_cflags}")
endforeach()

# 3. A consumer project, as a vcpkg user builds it: vcpkg's toolchain, CMake's default generator.
step("configure the consumer with vcpkg's toolchain" "${CMAKE_COMMAND}" -S "${RKNNOP_SOURCE_DIR}/tests/package/consumer"
     -B "${WORK_DIR}/consumer-build" "-DCMAKE_TOOLCHAIN_FILE=${_root}/scripts/buildsystems/vcpkg.cmake"
     "-DVCPKG_INSTALLED_DIR=${_installed}" -DVCPKG_TARGET_TRIPLET=${_triplet} -DVCPKG_MANIFEST_MODE=OFF
     "-DCMAKE_CXX_COMPILER=${CXX}" "-DCMAKE_C_COMPILER=${C}" -DCMAKE_BUILD_TYPE=Release
     -DCONSUMER_MODE=install -DCONSUMER_BOARD_LIBRARIES=ON "-DCONSUMER_TOOLS_DIR=${_prefix}/tools/rknnop"
     MATCH "Build files have been written")
step("build the consumer (the port's tools on Tiny, rknnop::host::session)" "${CMAKE_COMMAND}" --build
     "${WORK_DIR}/consumer-build" -j 2
     MATCH "tiny\\.rknn: 1 custom-op node\\(s\\) checked, all pass.*host_session: Tiny ran through rknnop::host::session")
step("run the consumer" "${WORK_DIR}/consumer-build/consumer_check" MATCH "rknnop ${RKNNOP_VERSION}")
set(_expected Tiny/x86_64/libtiny.so Tiny/op.yml Tiny/rknn_op_tiny.py Tiny/Tiny.rknnop)
foreach(_arch_cxx aarch64=aarch64-linux-gnu-g++ armhf=arm-linux-gnueabihf-g++)
  string(REPLACE "=" ";" _pair "${_arch_cxx}")
  list(GET _pair 0 _arch)
  list(GET _pair 1 _cxx_name)
  find_program(_cross_${_arch} ${_cxx_name})
  if(_cross_${_arch})
    list(APPEND _expected Tiny/${_arch}/libtiny.so)
  endif()
endforeach()
foreach(_file IN LISTS _expected)
  if(NOT EXISTS "${WORK_DIR}/consumer-build/${_file}")
    message(FATAL_ERROR "rknnop: ${_test}: rknnop_add_op(Tiny) in the consumer did not produce ${_file}")
  endif()
endforeach()
list(JOIN _expected ", " _expected)
message(STATUS "${_test}: rknnop_add_op(Tiny) built ${_expected}")

# 4. The port's rknnop-vxcheck and rknnop-parity, run as a user runs them (tools/rknnop on PATH).
rknnop_package_vx_tools_script(_vx_lines)
file(WRITE "${WORK_DIR}/vx-tools.sh" "set -e\nPATH='${_prefix}/tools/rknnop':$PATH\n${_vx_lines}")
execute_process(COMMAND sh "${WORK_DIR}/vx-tools.sh" RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
file(APPEND "${WORK_DIR}/vcpkg.log" "\n\$ sh ${WORK_DIR}/vx-tools.sh\n${_out}")
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "rknnop: ${_test}: the port's rknnop-vxcheck / rknnop-parity on Exp: exit code ${_rc}:\n${_out}")
endif()
rknnop_package_vx_tools_check(${_test} "${_out}")

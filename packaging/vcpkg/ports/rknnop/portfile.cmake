# SPDX-License-Identifier: MIT
# rknnop: header-only (headers, CMake package, rknnop_add_op() and the files it uses at the
# consumer's build time). Nothing is compiled, so only the release configuration is installed.
# Feature `tools` (vcpkg install "rknnop[tools]"): rknnop-run, rknnop-pack, rknnop-vxcheck and
# rknnop-parity in tools/rknnop (their RPATH finds lib/rknnop/libOpenVX.so, the host runtime), and the
# host libraries (component `host` of the CMake package: rknnop::host, rknnop::openvx, rknnop::vxc,
# rknnop::parity). The last two tools and libraries use OpenCL (the port `opencl`; running a shader
# also needs an OpenCL implementation, e.g. POCL). Release only, like the rest.
#
# Where the sources come from. This port is an overlay for local use: it builds the rknnop checkout
# it lives in (packaging/vcpkg/ports/rknnop/ of that checkout), or the tree named by the environment
# variable RKNNOP_SOURCE_DIR:
#     vcpkg install rknnop --overlay-ports=<checkout>/packaging/vcpkg/ports
# vcpkg does not hash those sources into the package's ABI: after changing them, reinstall with
# binary caching off (--binarysource=clear), or vcpkg restores the previous build.
#
# For a registry, once a release is tagged, replace the block below by the release archive:
#     vcpkg_from_github(
#         OUT_SOURCE_PATH SOURCE_PATH
#         REPO <owner>/rknnop          # the project's GitHub home
#         REF "v${VERSION}"
#         SHA512 <sha512sum of the tag's archive>
#         HEAD_REF main)
# and keep vcpkg.json's "version" equal to include/rknnop/version.hpp (checked below).
set(VCPKG_BUILD_TYPE release)

if(DEFINED ENV{RKNNOP_SOURCE_DIR} AND NOT "$ENV{RKNNOP_SOURCE_DIR}" STREQUAL "")
    set(SOURCE_PATH "$ENV{RKNNOP_SOURCE_DIR}")
else()
    get_filename_component(SOURCE_PATH "${CMAKE_CURRENT_LIST_DIR}/../../../.." ABSOLUTE)
endif()
if(NOT EXISTS "${SOURCE_PATH}/include/rknnop/version.hpp")
    message(FATAL_ERROR "rknnop: ${SOURCE_PATH} is not an rknnop source tree (no include/rknnop/version.hpp). "
        "This port builds the checkout it lives in: use --overlay-ports=<checkout>/packaging/vcpkg/ports, "
        "or set RKNNOP_SOURCE_DIR to an rknnop source tree.")
endif()
file(STRINGS "${SOURCE_PATH}/include/rknnop/version.hpp" _rknnop_version_lines
     REGEX "^#define RKNNOP_VERSION_(MAJOR|MINOR|PATCH) [0-9]+$")
string(REGEX REPLACE "[^\n;]*_(MAJOR|MINOR|PATCH) ([0-9]+)" "\\2" _rknnop_version "${_rknnop_version_lines}")
string(REPLACE ";" "." _rknnop_version "${_rknnop_version}")
if(NOT _rknnop_version STREQUAL VERSION)
    message(FATAL_ERROR "rknnop: the port's version ${VERSION} (vcpkg.json) is not the sources' "
        "${_rknnop_version} (${SOURCE_PATH}/include/rknnop/version.hpp): update the port's vcpkg.json")
endif()

set(_rknnop_feature_options -DRKNNOP_BUILD_HOST=OFF)
if("tools" IN_LIST FEATURES)
    # The tools go straight to tools/rknnop (vcpkg_copy_tools would move them from bin/ after their
    # RPATH, $ORIGIN/../lib/rknnop, was set): rknnop computes the RPATH from RKNNOP_INSTALL_TOOLS_DIR
    # to lib/rknnop, and vcpkg's RPATH fixup keeps $ORIGIN-relative entries.
    set(_rknnop_feature_options -DRKNNOP_BUILD_HOST=ON -DRKNNOP_INSTALL_TOOLS=ON "-DRKNNOP_INSTALL_TOOLS_DIR=tools/${PORT}"
        -DRKNNOP_REQUIRE_OPENCL=ON)
endif()
vcpkg_cmake_configure(
    SOURCE_PATH "${SOURCE_PATH}"
    OPTIONS
        -DRKNNOP_BUILD_TESTS=OFF
        -DRKNNOP_BUILD_EXAMPLES=OFF
        -DRKNNOP_BUILD_BENCHMARKS=OFF
        -DRKNNOP_INSTALL=ON
        ${_rknnop_feature_options}
)
vcpkg_cmake_install()
if("tools" IN_LIST FEATURES)
    foreach(_tool IN ITEMS rknnop-run rknnop-pack rknnop-vxcheck rknnop-parity rknnop-node)
        if(NOT EXISTS "${CURRENT_PACKAGES_DIR}/tools/${PORT}/${_tool}")
            message(FATAL_ERROR "rknnop: feature tools: the install made no tools/${PORT}/${_tool}")
        endif()
    endforeach()
endif()

# rknnop installs its package (config, targets, rknnop_add_op's files) to share/rknnop/cmake;
# vcpkg wants it in share/rknnop.
vcpkg_cmake_config_fixup(PACKAGE_NAME rknnop CONFIG_PATH share/rknnop/cmake)
vcpkg_fixup_pkgconfig()
# rknnop's .pc files name Boost.PFR's include directory when it is not a compiler default. vcpkg
# installs every port into one prefix, so that directory is the package's own ${prefix}/include,
# already named as ${includedir}: drop the repeat vcpkg_fixup_pkgconfig made of it.
foreach(_pc IN ITEMS rknnop rknnop-kernel)
    set(_pc_file "${CURRENT_PACKAGES_DIR}/share/pkgconfig/${_pc}.pc")
    file(READ "${_pc_file}" _pc_text)
    string(REGEX REPLACE "(\nCflags:[^\n]*) \"-I\\\${prefix}/include\"" "\\1" _pc_text "${_pc_text}")
    file(WRITE "${_pc_file}" "${_pc_text}")
endforeach()

file(REMOVE_RECURSE "${CURRENT_PACKAGES_DIR}/debug")
file(INSTALL "${CMAKE_CURRENT_LIST_DIR}/usage" DESTINATION "${CURRENT_PACKAGES_DIR}/share/${PORT}")
vcpkg_install_copyright(FILE_LIST "${SOURCE_PATH}/LICENSE")

# SPDX-License-Identifier: MIT
# rknnop: header-only (headers, CMake package, rknnop_add_op() and the files it uses at the
# consumer's build time). Nothing is compiled, so only the release configuration is installed.
#
# On a release, update together (then `vcpkg x-add-version rknnop`):
#   vcpkg.json "version"   the release, e.g. 0.1.0 (tag v0.1.0)
#   REPO                   the project's GitHub owner/name (placeholder below)
#   SHA512                 of the tag's archive: set it to 0, run `vcpkg install rknnop`, copy the
#                          "Actual hash" vcpkg prints
set(VCPKG_BUILD_TYPE release)

vcpkg_from_github(
    OUT_SOURCE_PATH SOURCE_PATH
    REPO rknnop/rknnop
    REF "v${VERSION}"
    SHA512 0
    HEAD_REF main
)

vcpkg_cmake_configure(
    SOURCE_PATH "${SOURCE_PATH}"
    OPTIONS
        -DRKNNOP_BUILD_TESTS=OFF
        -DRKNNOP_BUILD_EXAMPLES=OFF
        -DRKNNOP_BUILD_HOST=OFF
        -DRKNNOP_BUILD_BENCHMARKS=OFF
        -DRKNNOP_INSTALL=ON
)
vcpkg_cmake_install()

# rknnop installs its package (config, targets, rknnop_add_op's files) to share/rknnop/cmake;
# vcpkg wants it in share/rknnop.
vcpkg_cmake_config_fixup(PACKAGE_NAME rknnop CONFIG_PATH share/rknnop/cmake)
vcpkg_fixup_pkgconfig()

file(REMOVE_RECURSE "${CURRENT_PACKAGES_DIR}/debug")
file(INSTALL "${CMAKE_CURRENT_LIST_DIR}/usage" DESTINATION "${CURRENT_PACKAGES_DIR}/share/${PORT}")
vcpkg_install_copyright(FILE_LIST "${SOURCE_PATH}/LICENSE")

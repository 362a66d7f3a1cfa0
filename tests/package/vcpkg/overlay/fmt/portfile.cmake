# SPDX-License-Identifier: MIT
# Stand-in for the registry's fmt, for rknnop's package.vcpkg test (offline: the registry's port
# downloads fmtlib/fmt). {fmt} is a compiled library, so this port installs nothing: find_package(fmt)
# in rknnop's port and in its consumers finds the system's {fmt} >= 8 (e.g. Debian's libfmt-dev), which
# vcpkg's toolchain leaves visible. Fails here, with the reason, when there is none.
set(VCPKG_POLICY_EMPTY_PACKAGE enabled)
set(_fmt_config "")
foreach(_dir IN ITEMS /usr/lib/x86_64-linux-gnu /usr/lib/aarch64-linux-gnu
                      /usr/lib64 /usr/lib /usr/local/lib /usr/local/lib64)
    if(EXISTS "${_dir}/cmake/fmt/fmt-config.cmake")
        set(_fmt_config "${_dir}/cmake/fmt/fmt-config.cmake")
        break()
    endif()
endforeach()
if(NOT _fmt_config)
    message(FATAL_ERROR "rknnop: stand-in fmt: no system {fmt} CMake package (lib*/cmake/fmt/fmt-config.cmake under "
        "/usr or /usr/local); install {fmt} >= 8 (Debian: libfmt-dev)")
endif()
message(STATUS "stand-in fmt: consumers will use ${_fmt_config}")

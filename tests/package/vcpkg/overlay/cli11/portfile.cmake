# SPDX-License-Identifier: MIT
# Stand-in for the registry's cli11, for rknnop's package.vcpkg test (offline: the registry's port
# downloads its sources). Like the fmt stand-in it installs nothing: find_package(CLI11 CONFIG) in
# rknnop's port (feature tools) and in its consumers finds the system's CLI11 2.1 (Debian: libcli11-dev), which vcpkg's
# toolchain leaves visible. Fails here, with the reason, when there is none.
set(VCPKG_POLICY_EMPTY_PACKAGE enabled)
set(_config "")
foreach(_dir IN ITEMS /usr/lib/x86_64-linux-gnu/cmake /usr/share/cmake /usr/lib/cmake /usr/local/lib/cmake
                      /usr/local/share/cmake)
    foreach(_name IN ITEMS CLI11/CLI11Config.cmake CLI11/cli11-config.cmake)
        if(EXISTS "${_dir}/${_name}")
            set(_config "${_dir}/${_name}")
            break()
        endif()
    endforeach()
endforeach()
if(NOT _config)
    message(FATAL_ERROR "rknnop: stand-in cli11: no system CLI11 CMake package under /usr or /usr/local; install CLI11 2.1 (Debian: libcli11-dev)")
endif()
message(STATUS "stand-in cli11: consumers will use ${_config}")

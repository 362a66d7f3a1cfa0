# SPDX-License-Identifier: MIT
# Stand-in for the registry's yaml-cpp, for rknnop's package.vcpkg test (offline: the registry's port
# downloads its sources). Like the fmt stand-in it installs nothing: find_package(yaml-cpp CONFIG) in
# rknnop's port (feature tools) and in its consumers finds the system's yaml-cpp 0.7 (Debian: libyaml-cpp-dev), which vcpkg's
# toolchain leaves visible. Fails here, with the reason, when there is none.
set(VCPKG_POLICY_EMPTY_PACKAGE enabled)
set(_config "")
foreach(_dir IN ITEMS /usr/lib/x86_64-linux-gnu/cmake /usr/share/cmake /usr/lib/cmake /usr/local/lib/cmake
                      /usr/local/share/cmake)
    foreach(_name IN ITEMS yaml-cpp/yaml-cppConfig.cmake yaml-cpp/yaml-cpp-config.cmake)
        if(EXISTS "${_dir}/${_name}")
            set(_config "${_dir}/${_name}")
            break()
        endif()
    endforeach()
endforeach()
if(NOT _config)
    message(FATAL_ERROR "rknnop: stand-in yaml-cpp: no system yaml-cpp CMake package under /usr or /usr/local; install yaml-cpp 0.7 (Debian: libyaml-cpp-dev)")
endif()
message(STATUS "stand-in yaml-cpp: consumers will use ${_config}")

# SPDX-License-Identifier: MIT
# Stand-in for the registry's nlohmann-json, for rknnop's package.vcpkg test (offline: the registry's port
# downloads its sources). Like the fmt stand-in it installs nothing: find_package(nlohmann_json CONFIG) in
# rknnop's port (feature tools) and in its consumers finds the system's nlohmann_json 3.9 (Debian: nlohmann-json3-dev), which vcpkg's
# toolchain leaves visible. Fails here, with the reason, when there is none.
set(VCPKG_POLICY_EMPTY_PACKAGE enabled)
set(_config "")
foreach(_dir IN ITEMS /usr/lib/x86_64-linux-gnu/cmake /usr/share/cmake /usr/lib/cmake /usr/local/lib/cmake
                      /usr/local/share/cmake)
    foreach(_name IN ITEMS nlohmann_json/nlohmann_jsonConfig.cmake nlohmann_json/nlohmann_json-config.cmake)
        if(EXISTS "${_dir}/${_name}")
            set(_config "${_dir}/${_name}")
            break()
        endif()
    endforeach()
endforeach()
if(NOT _config)
    message(FATAL_ERROR "rknnop: stand-in nlohmann-json: no system nlohmann_json CMake package under /usr or /usr/local; install nlohmann_json 3.9 (Debian: nlohmann-json3-dev)")
endif()
message(STATUS "stand-in nlohmann-json: consumers will use ${_config}")

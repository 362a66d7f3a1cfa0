# SPDX-License-Identifier: MIT
# Stand-in for the registry's opencl (Khronos ICD loader and headers), for rknnop's package.vcpkg test
# (offline: the registry's port downloads its sources). It installs nothing: find_package(OpenCL) in
# rknnop's port (feature tools) and in its consumers finds the system's loader and headers (Debian:
# ocl-icd-opencl-dev, opencl-c-headers), which vcpkg's toolchain leaves visible. Fails here, with the
# reason, when there are none.
set(VCPKG_POLICY_EMPTY_PACKAGE enabled)
find_path(_opencl_header CL/cl.h PATHS /usr/include /usr/local/include NO_DEFAULT_PATH)
find_library(_opencl_library NAMES OpenCL PATHS /usr/lib/x86_64-linux-gnu /usr/lib /usr/local/lib NO_DEFAULT_PATH)
if(NOT _opencl_header OR NOT _opencl_library)
    message(FATAL_ERROR "rknnop: stand-in opencl: no system OpenCL (CL/cl.h: '${_opencl_header}', libOpenCL: "
                        "'${_opencl_library}'); install ocl-icd-opencl-dev and opencl-c-headers")
endif()
message(STATUS "stand-in opencl: consumers will use ${_opencl_library} and ${_opencl_header}/CL")

# SPDX-License-Identifier: MIT
# Included by the package.conan and package.vcpkg scripts: the packaged rknnop-vxcheck and rknnop-parity
# on the Exp example (VX_OP_DIR: its build output, op.yml and Exp.rknnop; VX_OP_SOURCE: exp.vx;
# VX_OTHER_SOURCE: a shader without Exp's kernel). rknnop_package_vx_tools_script(<out>) gives the sh
# lines that run them with the tools on PATH; rknnop_package_vx_tools_check(<test> <output>) checks
# what those lines printed:
#   vxcheck accepts exp.vx (prints "vxcheck exp.vx: ok"), refuses the other shader naming Exp's
#   missing kernel, and parity runs Exp's CPU and VX kernels (the VX one on the machine's OpenCL,
#   POCL in CI) on two random cases and passes.
foreach(_variable VX_OP_DIR VX_OP_SOURCE VX_OTHER_SOURCE)
  if(NOT ${_variable})
    message(FATAL_ERROR "rknnop: the package tests need ${_variable} (the Exp example, built with "
                        "RKNNOP_BUILD_EXAMPLES=ON) to try the packaged rknnop-vxcheck and rknnop-parity")
  endif()
endforeach()

function(rknnop_package_vx_tools_script out)
  set(${out} "rknnop-vxcheck --op-yml '${VX_OP_DIR}/op.yml' --vx '${VX_OP_SOURCE}'
echo 'vxcheck exp.vx: ok'
if rknnop-vxcheck --op-yml '${VX_OP_DIR}/op.yml' --vx '${VX_OTHER_SOURCE}' 2>&1; then
  echo 'vxcheck accepted a shader without the kernel'; exit 1
fi
rknnop-parity '${VX_OP_DIR}/Exp.rknnop' --vx '${VX_OP_SOURCE}' --shape x=1,8,8,3 --random 2
" PARENT_SCOPE)
endfunction()

function(rknnop_package_vx_tools_check test output)
  foreach(_expected "vxcheck exp\\.vx: ok"
                    "rknnop: op 'Exp': the shader has no '__kernel void exp\\(\\.\\.\\.\\)'"
                    "PASS: 2 of 2 case\\(s\\) within tolerance")
    if(NOT output MATCHES "${_expected}")
      message(FATAL_ERROR "rknnop: ${test}: the packaged rknnop-vxcheck / rknnop-parity on Exp: expected output "
                          "matching '${_expected}', got:\n${output}")
    endif()
  endforeach()
  message(STATUS "${test}: the packaged rknnop-vxcheck checks exp.vx (and refuses a shader without its kernel); "
                 "rknnop-parity passes Exp, CPU vs VX: ok")
endfunction()

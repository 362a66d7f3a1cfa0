# SPDX-License-Identifier: MIT
# cmake -DROOT=<source tree> -P check_install_tools.cmake
# docs/install.md names every program the install puts in bin/: the tools tools/CMakeLists.txt installs
# (its foreach over _rknnop_installed_tools), rknnop-board-run and rknnop-rknpu2-run (cmake/rknnopInstall.cmake).
file(READ "${ROOT}/tools/CMakeLists.txt" _cmake)
string(REGEX MATCH "foreach\\(_tool ([a-z0-9 -]+)\\)\n    if\\(TARGET \\$\\{_tool\\}\\)\n      list\\(APPEND _rknnop_installed_tools"
       _match "${_cmake}")
if(NOT _match)
  message(FATAL_ERROR "rknnop: tools/CMakeLists.txt: the list of installed tools was not found")
endif()
string(REPLACE " " ";" _tools "${CMAKE_MATCH_1}")
list(APPEND _tools rknnop-board-run rknnop-rknpu2-run)
file(READ "${ROOT}/docs/install.md" _doc)
set(_missing)
foreach(_tool IN LISTS _tools)
  string(FIND "${_doc}" "`${_tool}`" _at)
  if(_at EQUAL -1)
    list(APPEND _missing ${_tool})
  endif()
endforeach()
if(_missing)
  list(JOIN _missing ", " _missing)
  message(FATAL_ERROR "rknnop: docs/install.md does not name ${_missing}, which the install puts in bin/")
endif()
list(JOIN _tools ", " _tools)
message("rknnop: docs/install.md names ${_tools}")

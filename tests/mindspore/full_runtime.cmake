# SPDX-License-Identifier: MIT
# (c) mindspore_runtime_tests: a one-node .ms model through MindSpore Lite's full CPU runtime
# (test_full_runtime.cpp). Needs, besides what (b) needs (RKNNOP_MINDSPORE_LITE_ROOT naming the
# source tree the runtime was built from, for its headers and schema), RKNNOP_MINDSPORE_LITE_RUNTIME
# (cmake or environment variable): a directory holding libmindspore-lite.so (a build directory's
# src/, or a package's runtime/lib). Included by CMakeLists.txt with `_why` set to why (b) is skipped.
set(RKNNOP_MINDSPORE_LITE_RUNTIME "$ENV{RKNNOP_MINDSPORE_LITE_RUNTIME}" CACHE PATH
    "rknnop tests: directory holding MindSpore Lite's libmindspore-lite.so (the full CPU runtime)")

set(_runtime_why "${_why}")
if(NOT _runtime_why AND NOT RKNNOP_MINDSPORE_LITE_RUNTIME)
  string(CONCAT _runtime_why "RKNNOP_MINDSPORE_LITE_RUNTIME is not set (a directory holding libmindspore-lite.so, built "
         "from the tree in RKNNOP_MINDSPORE_LITE_ROOT; cmake -D or the environment variable)")
elseif(NOT _runtime_why)
  find_library(RKNNOP_MINDSPORE_LITE_RUNTIME_LIBRARY mindspore-lite NO_DEFAULT_PATH
               PATHS "${RKNNOP_MINDSPORE_LITE_RUNTIME}" "${RKNNOP_MINDSPORE_LITE_RUNTIME}/src"
                     "${RKNNOP_MINDSPORE_LITE_RUNTIME}/runtime/lib")
  if(NOT RKNNOP_MINDSPORE_LITE_RUNTIME_LIBRARY)
    set(_runtime_why "libmindspore-lite.so not found in RKNNOP_MINDSPORE_LITE_RUNTIME=${RKNNOP_MINDSPORE_LITE_RUNTIME}")
  endif()
endif()

if(_runtime_why)
  add_test(NAME mindspore_runtime_tests COMMAND "${CMAKE_COMMAND}" -E echo "SKIPPED: ${_runtime_why}")
  set_tests_properties(mindspore_runtime_tests PROPERTIES SKIP_REGULAR_EXPRESSION "SKIPPED: " LABELS mindspore)
else()
  # libresizearea_mslite.so as rknnop_add_op BACKENDS mindspore builds it, linked against the runtime.
  rknnop_add_mindspore_library(ResizeAreaFullRuntime SOURCES "${PROJECT_SOURCE_DIR}/examples/resize_area/resize_area.cpp"
                               OUTPUT_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}/full_runtime")
  set_target_properties(ResizeAreaFullRuntime_mslite PROPERTIES OUTPUT_NAME resizearea_mslite)
  target_link_libraries(ResizeAreaFullRuntime_mslite PRIVATE "${RKNNOP_MINDSPORE_LITE_RUNTIME_LIBRARY}"
                        rknnop_strict_warnings)
  target_link_options(ResizeAreaFullRuntime_mslite PRIVATE LINKER:--no-undefined)

  # rknnop_gtest_mslite_abi: GoogleTest with MindSpore Lite's ABI flags, defined by CMakeLists.txt.
  add_executable(mindspore_runtime_tests test_full_runtime.cpp full_runtime_ops.cpp)
  target_include_directories(mindspore_runtime_tests PRIVATE "${PROJECT_SOURCE_DIR}/examples"
                             "${PROJECT_SOURCE_DIR}/tests/core")
  target_link_libraries(mindspore_runtime_tests PRIVATE rknnop::kernel rknnop::openvx rknnop_mindspore_lite_headers
                        rknnop_gtest_mslite_abi rknnop_strict_warnings "${RKNNOP_MINDSPORE_LITE_RUNTIME_LIBRARY}"
                        -Wl,--no-as-needed ResizeAreaFullRuntime_mslite)
  set_source_files_properties(full_runtime_ops.cpp PROPERTIES
    COMPILE_DEFINITIONS RKNNOP_MINDSPORE_BACKEND=1 COMPILE_OPTIONS "-include;rknnop/mindspore.hpp")
  gtest_discover_tests(mindspore_runtime_tests DISCOVERY_MODE PRE_TEST DISCOVERY_TIMEOUT 60
                       TEST_PREFIX "mindspore_runtime." PROPERTIES LABELS mindspore)
endif()

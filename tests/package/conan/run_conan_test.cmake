# SPDX-License-Identifier: MIT
# package.conan: the Conan 2 recipe (packaging/conan) with the real client, offline.
#   cmake -DRKNNOP_SOURCE_DIR=... -DWORK_DIR=... -DRKNNOP_VERSION=x.y.z -DBOOST_VERSION=... -DFMT_VERSION=...
#         -DYAML_CPP_VERSION=... -DCLI11_VERSION=... -DNLOHMANN_JSON_VERSION=...
#         -DCXX=... -DC=... -P run_conan_test.cmake
# The client: $RKNNOP_CONAN, else `conan` on PATH; without one the test prints why and is skipped.
# It runs in its own CONAN_HOME under WORK_DIR (the user's cache and remotes are never touched) with
# no remote: the profile (tests/package/conan/profile) takes Boost and {fmt} from the system through
# [platform_requires], at the versions rknnop's own build found.
#   1. `conan export --version <not the header's>` fails and names include/rknnop/version.hpp;
#   2. the detected profile's compiler.cppstd (gnu17 on GCC 12) makes the package Invalid, with the fix;
#   3. `conan create` + test_package (a copy under WORK_DIR) builds an op with rknnop_add_op, with
#      Conan's default generator (Unix Makefiles), board libraries included when the cross compilers exist;
#   4. option tools as a tool requirement: a consumer's [tool_requires] with -o:b "rknnop/*:tools=True"
#      builds the tools package (yaml-cpp, CLI11, nlohmann_json from the system, as Boost and {fmt}); in
#      the consumer's build environment (conanbuild.sh) rknnop-run and rknnop-pack are the package's,
#      and they describe test_package's Gain.rknnop, wrap it in a model and --check the model;
#      rknnop-vxcheck and rknnop-parity (OpenCL: the system's loader through [platform_requires]) check
#      and run the Exp example's shader (../vx_tools.cmake);
#   5. the release form: a recipe copy outside the checkout with a conandata.yml naming a local archive.
cmake_minimum_required(VERSION 3.21)

set(_test package.conan)
if(DEFINED ENV{RKNNOP_CONAN} AND NOT "$ENV{RKNNOP_CONAN}" STREQUAL "")
  set(_conan "$ENV{RKNNOP_CONAN}")
  if(NOT EXISTS "${_conan}")
    message(FATAL_ERROR "rknnop: ${_test}: RKNNOP_CONAN=${_conan} does not exist")
  endif()
else()
  find_program(_conan conan)
  if(NOT _conan)
    message("rknnop: ${_test} skipped: no Conan client (set RKNNOP_CONAN=/path/to/conan or put conan on PATH)")
    return()
  endif()
endif()
execute_process(COMMAND "${_conan}" --version OUTPUT_VARIABLE _version ERROR_VARIABLE _version
                RESULT_VARIABLE _rc OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT _rc EQUAL 0 OR NOT _version MATCHES "Conan version 2\\.")
  message("rknnop: ${_test} skipped: ${_conan} is not a Conan 2 client ('${_version}')")
  return()
endif()
message(STATUS "${_test}: ${_conan}: ${_version}")
include("${CMAKE_CURRENT_LIST_DIR}/../vx_tools.cmake")
foreach(_dependency BOOST FMT YAML_CPP CLI11 NLOHMANN_JSON)
  if(NOT ${_dependency}_VERSION)
    message(FATAL_ERROR "rknnop: ${_test}: the version of ${_dependency} that rknnop's build found is unknown; "
                        "the profile's [platform_requires] needs it")
  endif()
  set(ENV{RKNNOP_CONAN_${_dependency}_VERSION} "${${_dependency}_VERSION}")
endforeach()

# conan <args...> EXPECT <0|FAIL> MATCH <regex> WHAT <description>
function(conan)
  cmake_parse_arguments(PARSE_ARGV 0 ARG "" "EXPECT;MATCH;WHAT" "")
  execute_process(COMMAND "${_conan}" ${ARG_UNPARSED_ARGUMENTS} WORKING_DIRECTORY "${WORK_DIR}"
                  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
  list(JOIN ARG_UNPARSED_ARGUMENTS " " _command)
  file(APPEND "${WORK_DIR}/conan.log" "\n\$ conan ${_command}\n${_out}")
  if(ARG_EXPECT STREQUAL "FAIL")
    set(_ok FALSE)
    if(NOT _rc EQUAL 0)
      set(_ok TRUE)
    endif()
  else()
    set(_ok FALSE)
    if(_rc EQUAL 0)
      set(_ok TRUE)
    endif()
  endif()
  if(NOT _ok OR (ARG_MATCH AND NOT _out MATCHES "${ARG_MATCH}"))
    message(FATAL_ERROR "rknnop: ${_test}: ${ARG_WHAT}: expected ${ARG_EXPECT} and output matching "
                        "'${ARG_MATCH}', got exit code ${_rc}:\n${_out}")
  endif()
  message(STATUS "${_test}: ${ARG_WHAT}: ok")
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(ENV{CONAN_HOME} "${WORK_DIR}/conan-home")
set(ENV{CC} "${C}")    # what `conan profile detect` and the test_package build use
set(ENV{CXX} "${CXX}")
set(_recipe "${RKNNOP_SOURCE_DIR}/packaging/conan")
set(_profile "${RKNNOP_SOURCE_DIR}/tests/package/conan/profile")

conan(profile detect EXPECT 0 WHAT "conan profile detect")
conan(remote remove "*" EXPECT 0 WHAT "no remotes (offline)")
conan(export "${_recipe}" --version "${RKNNOP_VERSION}.1" EXPECT FAIL
      MATCH "rknnop: --version ${RKNNOP_VERSION}\\.1 does not match include/rknnop/version\\.hpp \\(${RKNNOP_VERSION}\\)"
      WHAT "a --version other than version.hpp's is refused")
conan(create "${_recipe}" -pr:a "${_profile}" -s:a compiler.cppstd=gnu17 --build=missing --test-folder= EXPECT FAIL
      MATCH "Invalid: rknnop: rknnop/${RKNNOP_VERSION} is C\\+\\+20 and the profile sets compiler\\.cppstd=gnu17: set compiler\\.cppstd=20"
      WHAT "compiler.cppstd=gnu17 makes the package Invalid and says how to fix it")
# test_package is copied: Conan builds it inside its own folder, which must not be the source tree.
file(COPY "${_recipe}/test_package" DESTINATION "${WORK_DIR}")
conan(create "${_recipe}" -pr:a "${_profile}" --build=missing -tf "${WORK_DIR}/test_package" EXPECT 0
      MATCH "rknnop/${RKNNOP_VERSION} \\(test package\\): rknnop test_package: rknnop_add_op\\(Gain\\) built .*rknnop test_package: OK"
      WHAT "conan create + test_package (rknnop_add_op, Unix Makefiles)")

# 4. The tools, as a user gets them: [tool_requires] with the option tools in the build context.
file(GLOB_RECURSE _container "${WORK_DIR}/test_package/*/Gain.rknnop")
list(LENGTH _container _count)
if(NOT _count EQUAL 1)
  message(FATAL_ERROR "rknnop: ${_test}: expected one Gain.rknnop under ${WORK_DIR}/test_package, found '${_container}'")
endif()
file(WRITE "${WORK_DIR}/tools-consumer/conanfile.txt" "[tool_requires]\nrknnop/${RKNNOP_VERSION}\n")
conan(install "${WORK_DIR}/tools-consumer" -pr:a "${_profile}" -o:b "rknnop/*:tools=True" --build=missing
      --output-folder "${WORK_DIR}/tools-consumer/build" EXPECT 0
      MATCH "rknnop/${RKNNOP_VERSION}: Package '[0-9a-f]+' (built|created)"
      WHAT "[tool_requires] rknnop with -o:b rknnop/*:tools=True builds the tools package")
set(_model "${WORK_DIR}/tools-consumer/gain.rknn")
set(_script "${WORK_DIR}/tools-consumer/run-tools.sh")
rknnop_package_vx_tools_script(_vx_lines)
file(WRITE "${_script}" "set -e
. '${WORK_DIR}/tools-consumer/build/conanbuild.sh'
for tool in rknnop-run rknnop-pack rknnop-vxcheck rknnop-parity; do echo \"$tool is $(command -v $tool)\"; done
rknnop-run '${_container}' --describe
rknnop-pack wrap '${_container}' --input-shape x=1,4,4,3 --param gain=2 -o '${_model}'
rknnop-run '${_model}' --check
${_vx_lines}")
execute_process(COMMAND sh "${_script}" RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
file(APPEND "${WORK_DIR}/conan.log" "\n\$ sh ${_script}\n${_out}")
set(_home "${WORK_DIR}/conan-home/p/")
set(_where_ok TRUE)
foreach(_tool rknnop-run rknnop-pack rknnop-vxcheck rknnop-parity)
  if(NOT _out MATCHES "${_tool} is ${_home}[^\n]*/bin/${_tool}\n")
    set(_where_ok FALSE)
  endif()
endforeach()
if(NOT _rc EQUAL 0 OR NOT _where_ok OR NOT _out MATCHES "1 custom-op node\\(s\\) checked, all pass")
  message(FATAL_ERROR "rknnop: ${_test}: the tool_requires' tools (expected under ${_home}) on "
                      "Gain.rknnop and Exp: exit code ${_rc}:\n${_out}")
endif()
message(STATUS "${_test}: the tools from [tool_requires] (conanbuild.sh) describe, wrap and --check Gain: ok")
rknnop_package_vx_tools_check(${_test} "${_out}")

# 5. The release form the recipe documents: outside a checkout, source() fetches the archive listed in
#    conandata.yml (here a local file:// archive of this tree) and checks its sha256.
set(_release "rknnop-${RKNNOP_VERSION}")
file(COPY "${RKNNOP_SOURCE_DIR}/include" "${RKNNOP_SOURCE_DIR}/cmake" "${RKNNOP_SOURCE_DIR}/LICENSE"
     DESTINATION "${WORK_DIR}/release/${_release}")
execute_process(COMMAND "${CMAKE_COMMAND}" -E tar czf "${WORK_DIR}/${_release}.tar.gz" "${_release}"
                WORKING_DIRECTORY "${WORK_DIR}/release" RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "rknnop: ${_test}: could not make ${_release}.tar.gz (${_rc})")
endif()
file(SHA256 "${WORK_DIR}/${_release}.tar.gz" _sha256)
file(COPY "${_recipe}/conanfile.py" DESTINATION "${WORK_DIR}/release-recipe")
file(WRITE "${WORK_DIR}/release-recipe/conandata.yml"
     "sources:\n  \"${RKNNOP_VERSION}\":\n    url: \"file://${WORK_DIR}/${_release}.tar.gz\"\n    sha256: \"${_sha256}\"\n")
conan(create "${WORK_DIR}/release-recipe" --version "${RKNNOP_VERSION}" -pr:a "${_profile}" --build=missing
      --test-folder= EXPECT 0 MATCH "Calling source\\(\\).*package\\(\\): Packaged [0-9]+ '\\.hpp' files"
      WHAT "the release form: conandata.yml's archive, sha256 checked")

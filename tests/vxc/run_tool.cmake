# SPDX-License-Identifier: MIT
# cmake -DTOOL=<exe> -DARGS=<;-list> -DEXPECT_EXIT=<n> -DEXPECT_REGEX=<regex> -P run_tool.cmake
# ARGS is |-separated. Runs a command-line tool, checks its exit code and that its output matches a regex.
string(REPLACE "|" ";" ARGS "${ARGS}")
execute_process(COMMAND "${TOOL}" ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc STREQUAL "${EXPECT_EXIT}")
  message(FATAL_ERROR "exit code ${rc}, expected ${EXPECT_EXIT}")
endif()
if(DEFINED EXPECT_REGEX AND NOT "${out}${err}" MATCHES "${EXPECT_REGEX}")
  message(FATAL_ERROR "output does not match: ${EXPECT_REGEX}")
endif()

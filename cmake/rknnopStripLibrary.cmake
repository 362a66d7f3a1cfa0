# SPDX-License-Identifier: MIT
# cmake -DOBJCOPY=objcopy -DLIBRARY=lib.so -DOUTPUT=shipped/lib.so -DDEBUG_FILE=lib.so.debug -P rknnopStripLibrary.cmake
# The lean copy of a kernel library that rknnop_add_op packs into the .rknnop of a Release build:
# DEBUG_FILE gets the debug info and symbol table (objcopy --only-keep-debug), OUTPUT the library
# without them (--strip-unneeded) and a .gnu_debuglink naming DEBUG_FILE, so gdb finds it when it
# lies beside the library or in a debug directory. LIBRARY itself is left as it is.
foreach(_var OBJCOPY LIBRARY OUTPUT DEBUG_FILE)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "rknnopStripLibrary.cmake: -D${_var}=... is required")
  endif()
endforeach()
get_filename_component(_debug_dir "${DEBUG_FILE}" DIRECTORY)
get_filename_component(_out_dir "${OUTPUT}" DIRECTORY)
file(MAKE_DIRECTORY "${_debug_dir}" "${_out_dir}")
execute_process(COMMAND "${OBJCOPY}" --only-keep-debug "${LIBRARY}" "${DEBUG_FILE}"
                RESULT_VARIABLE _status ERROR_VARIABLE _error)
if(NOT _status EQUAL 0)
  message(FATAL_ERROR "rknnop: ${OBJCOPY} --only-keep-debug ${LIBRARY} failed: ${_error}")
endif()
# The debug link is added in the debug file's directory so that objcopy reads it by its name.
execute_process(COMMAND "${OBJCOPY}" --strip-unneeded "--add-gnu-debuglink=${DEBUG_FILE}" "${LIBRARY}" "${OUTPUT}.tmp"
                RESULT_VARIABLE _status ERROR_VARIABLE _error)
if(NOT _status EQUAL 0)
  file(REMOVE "${OUTPUT}.tmp")
  message(FATAL_ERROR "rknnop: ${OBJCOPY} --strip-unneeded ${LIBRARY} failed: ${_error}")
endif()
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")

# Builds one vkcl_compile_kernel target and checks that it wrote OUTPUT and
# OUTPUT.reflection. Run by ctest: cmake -DBINARY_DIR=... -DTARGET=... -DOUTPUT=... -P <this>
file(REMOVE ${OUTPUT} ${OUTPUT}.reflection)
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BINARY_DIR} --target ${TARGET}
                RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "building ${TARGET} failed:\n${output}")
endif()
foreach(file ${OUTPUT} ${OUTPUT}.reflection)
  if(NOT EXISTS ${file})
    message(FATAL_ERROR "${TARGET} did not write ${file}")
  endif()
endforeach()
file(READ ${OUTPUT}.reflection reflection)
if(NOT reflection MATCHES "^vkcl-reflection 1\n")
  message(FATAL_ERROR "${OUTPUT}.reflection does not start with 'vkcl-reflection 1':\n${reflection}")
endif()

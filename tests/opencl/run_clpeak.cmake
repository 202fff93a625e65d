# Runs clpeak through ocl-icd with only vkcl's ICD, on vkcl's platform, and
# checks that it runs every test to completion: each section of its report
# with numbers, and its exit status 0. clpeak's kernels are its own.
# cmake -DCLPEAK=... -DLIBRARY=... -P run_clpeak.cmake
set(ENV{OCL_ICD_VENDORS} ${LIBRARY})
set(ENV{OCL_ICD_FILENAMES} ${LIBRARY})
execute_process(COMMAND ${CLPEAK} -p 0 RESULT_VARIABLE rc OUTPUT_VARIABLE report ERROR_VARIABLE report)
message("${report}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "clpeak exited with ${rc}")
endif()
foreach(section "Global memory bandwidth \\(GBPS\\)\n +float +: [0-9.]+"
                "Single-precision compute \\(GFLOPS\\)\n +float +: [0-9.]+"
                "Integer compute \\(GIOPS\\)\n +int +: [0-9.]+"
                "Transfer bandwidth \\(GBPS\\)\n +enqueueWriteBuffer +: [0-9.]+"
                "Kernel launch latency : [0-9.]+ us")
  if(NOT report MATCHES "${section}")
    message(FATAL_ERROR "clpeak's report lacks /${section}/")
  endif()
endforeach()
# clpeak reports a failed step as an error line rather than a number.
if(report MATCHES "(error|Error|ERROR)[^\n]*")
  message(FATAL_ERROR "clpeak reported: ${CMAKE_MATCH_0}")
endif()

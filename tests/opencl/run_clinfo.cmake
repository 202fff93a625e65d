# Runs clinfo through ocl-icd with only vkcl's ICD (OCL_ICD_VENDORS=LIBRARY),
# and checks that it lists the vkcl platform with at least one device, and
# that its full report names them. cmake -DCLINFO=... -DLIBRARY=... -P run_clinfo.cmake
set(ENV{OCL_ICD_VENDORS} ${LIBRARY})
set(ENV{OCL_ICD_FILENAMES} ${LIBRARY})
execute_process(COMMAND ${CLINFO} -l RESULT_VARIABLE rc OUTPUT_VARIABLE list ERROR_VARIABLE list)
message("${list}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "clinfo -l exited with ${rc}")
endif()
if(NOT list MATCHES "Platform #0: vkcl\n" OR NOT list MATCHES "-- Device #0: [^\n]+")
  message(FATAL_ERROR "clinfo -l does not list the vkcl platform and a device")
endif()
execute_process(COMMAND ${CLINFO} RESULT_VARIABLE rc OUTPUT_VARIABLE full ERROR_VARIABLE full)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "clinfo exited with ${rc}:\n${full}")
endif()
foreach(expected "Platform Name +vkcl" "Platform Version +OpenCL 3\\.0 vkcl" "Platform Extensions +[^\n]*cl_khr_icd"
                 "Device Name +[^\n]+" "Device Version +OpenCL 3\\.0 vkcl" "Latest conformance test passed +v0000-01-01-00")
  if(NOT full MATCHES "${expected}")
    message(FATAL_ERROR "clinfo's report lacks /${expected}/:\n${full}")
  endif()
endforeach()
# A query vkcl does not answer shows up as "<... error -30>" (CL_INVALID_VALUE).
if(full MATCHES "get (CL_[A-Z0-9_]+)[^\n]*error -30")
  message(FATAL_ERROR "clinfo asked for ${CMAKE_MATCH_1}, which vkcl does not answer:\n${full}")
endif()

# Runs PROGRAM RUNS times, each with a fresh, enabled Mesa shader cache in
# DIR, and fails if any run does not exit with 0. Before the ICD kept the
# Vulkan instance to the end (Device::keep_instance), 16 of 40 such runs
# crashed after main; 20 runs miss that with a probability below 1e-4.
# cmake -DPROGRAM=... -DLIBRARY=... -DDIR=... -DRUNS=20 -P exit_after_compile.cmake
set(ENV{OCL_ICD_VENDORS} ${LIBRARY})
unset(ENV{MESA_SHADER_CACHE_DISABLE})
foreach(run RANGE 1 ${RUNS})
  file(REMOVE_RECURSE ${DIR})
  set(ENV{MESA_SHADER_CACHE_DIR} ${DIR})
  execute_process(COMMAND ${PROGRAM} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "run ${run} of ${RUNS} ended with '${rc}':\n${out}")
  endif()
endforeach()
file(REMOVE_RECURSE ${DIR})
message("${RUNS} runs exited with 0")

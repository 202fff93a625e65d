# The install test: `cmake --install` of this build into a fresh prefix, then
# tests/install/consumer configured with only that prefix, built, and run; the
# installed clc compiles the consumer's kernel, and, with the compiler, a
# second consumer compiles it through the installed library and build_program. Every step's output is kept
# under WORK_DIR for a look after a failure. WITH_CLC and WITH_RUN (0 or 1)
# say whether the build has clc and vkcl-run, which must then be installed;
# without clc the consumer only creates a device and a buffer.
#
# With the compiler, the second consumer also compiles in the installed
# compile worker (WORKER: its path under the prefix), named by the package,
# then again as a program in the prefix's bin/, where vkcl finds the worker by
# itself.
#
#   cmake -DBINARY_DIR=<vkcl build> -DSOURCE_DIR=<tests/install> -DWORK_DIR=<scratch>
#         -DGENERATOR=<generator> -DCXX_COMPILER=<path> -DWITH_CLC=<0|1> -DWITH_RUN=<0|1>
#         -DWORKER=<libexec/vkcl/vkcl-compile-worker> -P run_consumer.cmake
foreach(var BINARY_DIR SOURCE_DIR WORK_DIR GENERATOR CXX_COMPILER WITH_CLC WITH_RUN WORKER)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_consumer.cmake: -D${var}= is required")
  endif()
endforeach()

file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)

function(step name)
  string(TIMESTAMP start "%s")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  string(TIMESTAMP end "%s")
  file(WRITE ${WORK_DIR}/${name}.log "${out}")
  math(EXPR seconds "${end} - ${start}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "install test: ${name} failed (${rc}):\n${out}")
  endif()
  message(STATUS "install test: ${name} (${seconds} s)")
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

step(install ${CMAKE_COMMAND} --install ${BINARY_DIR} --prefix ${prefix})

# What must be there, in the places GNUInstallDirs names on Debian (lib, not lib64).
set(expected include/vkcl/host.h include/vkcl/reflection.h include/vkcl/compile_error.h
             lib/libvkcl_host.a lib/libvkcl_contract.a lib/libvkcl_from_source.a
             lib/cmake/vkcl/vkclConfig.cmake lib/cmake/vkcl/vkclConfigVersion.cmake
             lib/cmake/vkcl/vkclTargets.cmake)
if(WITH_CLC)
  list(APPEND expected bin/clc ${WORKER} include/vkcl/compiler.h include/vkcl/source_program.h
                       include/vkcl/compile_worker.h lib/libvkcl_compiler.a lib/libvkcl_spirv.a
                       lib/libvkcl_builtins_bitcode.a)
endif()
if(WITH_RUN)
  list(APPEND expected bin/vkcl-run)
endif()
foreach(path IN LISTS expected)
  if(NOT EXISTS ${prefix}/${path})
    message(FATAL_ERROR "install test: ${path} was not installed")
  endif()
endforeach()

set(kernel)
if(WITH_CLC)
  step(clc ${prefix}/bin/clc ${SOURCE_DIR}/consumer/add_one.cl -o ${WORK_DIR}/add_one.spv)
  set(kernel ${WORK_DIR}/add_one.spv)
endif()
if(WITH_RUN)
  step(vkcl-run ${CMAKE_COMMAND} -E env VKCL_VALIDATION=1 ${prefix}/bin/vkcl-run --list-devices)
endif()

# No package registry, no vkcl source or build tree: only the prefix.
step(configure ${CMAKE_COMMAND} -S ${SOURCE_DIR}/consumer -B ${WORK_DIR}/build -G ${GENERATOR}
     -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_BUILD_TYPE=Release
     -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DVKCL_EXPECT_CLC=${WITH_CLC})
step(build ${CMAKE_COMMAND} --build ${WORK_DIR}/build)
step(run ${CMAKE_COMMAND} -E env VKCL_VALIDATION=1 ${WORK_DIR}/build/vkcl_consumer ${kernel})
message(STATUS "${step_output}")
if(WITH_CLC)
  step(run_from_source ${CMAKE_COMMAND} -E env --unset=VKCL_COMPILE_WORKER VKCL_VALIDATION=1
       ${WORK_DIR}/build/vkcl_consumer_from_source ${SOURCE_DIR}/consumer/add_one.cl)
  message(STATUS "${step_output}")
  # Installed beside vkcl's own programs, it finds the worker in libexec/vkcl.
  file(COPY_FILE ${WORK_DIR}/build/vkcl_consumer_from_source ${prefix}/bin/vkcl_consumer_from_source)
  step(find_worker ${CMAKE_COMMAND} -E env --unset=VKCL_COMPILE_WORKER
       ${prefix}/bin/vkcl_consumer_from_source ${SOURCE_DIR}/consumer/add_one.cl --find-worker)
  message(STATUS "${step_output}")
  string(FIND "${step_output}" "worker (${prefix}/${WORKER})" found)
  if(found EQUAL -1)
    message(FATAL_ERROR "install test: the program in bin/ did not find ${prefix}/${WORKER}:\n${step_output}")
  endif()
endif()

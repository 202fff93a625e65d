# `cmake --install` for vkcl: the runtime, the compiler as a library, what
# joins them, clc and vkcl-run, in GNUInstallDirs places, with a CMake
# package so that a consumer project can write
#
#   find_package(vkcl 0.1 REQUIRED)
#   target_link_libraries(app PRIVATE vkcl::host)         # modules clc wrote
#   target_link_libraries(app PRIVATE vkcl::from_source)  # build_program from source
#
# Installed:
#   bin/clc, bin/vkcl-run
#   libexec/vkcl/vkcl-compile-worker (the compiler in a child process)
#   lib/libvkcl_contract.a, lib/libvkcl_host.a (volk compiled in),
#   lib/libvkcl_from_source.a; with the compiler also lib/libvkcl_compiler.a,
#   lib/libvkcl_spirv.a and lib/libvkcl_builtins_bitcode.a
#   include/vkcl/: the runtime's API (host.h, ...), the contract's headers
#     (reflection.h, vulkan_module.h, compile_options.h, compile_error.h),
#     source_program.h, and compiler.h where the compiler is installed. The
#     API includes the contract's headers as "reflection.h" and so on: found
#     next to the including header.
#   lib/cmake/vkcl/vkclConfig.cmake, vkclConfigVersion.cmake, vkclTargets*.cmake
#   lib/libvkcl-opencl.so and <sysconfdir>/OpenCL/vendors/vkcl.icd: the
#     OpenCL ICD, installed by api/opencl/CMakeLists.txt (not a CMake target
#     to link: applications reach it through their ICD loader)
#
# vkcl::host carries what its users need: the include directory, volk's
# (Debian's libvulkan-volk-dev puts volk.h in /usr/include), VK_NO_PROTOTYPES,
# C++20, Vulkan::Headers (the package config finds Vulkan) and libdl. The
# compiler's libraries are static and link Debian's LLVM, clang, translator
# and SPIRV-Tools, which the package config finds again (vkclConfig.cmake.in).
# Included from the top-level CMakeLists.txt after every target exists.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(VKCL_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/vkcl)

# Include directories inside the source or build tree mean nothing to an
# installed target: keep them for the build only, and let the installed
# target use include/. Directories elsewhere (volk's) stay as they are.
function(vkcl_make_includes_installable target)
  get_target_property(dirs ${target} INTERFACE_INCLUDE_DIRECTORIES)
  if(NOT dirs)
    set(dirs)
  endif()
  set(result)
  foreach(dir IN LISTS dirs)
    cmake_path(IS_PREFIX PROJECT_SOURCE_DIR "${dir}" in_source)
    cmake_path(IS_PREFIX PROJECT_BINARY_DIR "${dir}" in_build)
    if(in_source OR in_build)
      list(APPEND result "$<BUILD_INTERFACE:${dir}>")
    else()
      list(APPEND result "${dir}")
    endif()
  endforeach()
  list(APPEND result "$<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>")
  set_target_properties(${target} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${result}")
endfunction()

set(vkcl_libraries vkcl_contract vkcl_host vkcl_from_source)
if(VKCL_WITH_COMPILER)
  list(APPEND vkcl_libraries vkcl_compiler vkcl_spirv vkcl_builtins_bitcode)
endif()
foreach(library IN LISTS vkcl_libraries)
  vkcl_make_includes_installable(${library})
  # vkcl::host, vkcl::compiler, ...: the name without its vkcl_ prefix.
  string(REGEX REPLACE "^vkcl_" "" export_name ${library})
  set_target_properties(${library} PROPERTIES EXPORT_NAME ${export_name})
endforeach()
install(TARGETS ${vkcl_libraries}
        EXPORT vkclTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})

file(GLOB vkcl_headers CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/host/vkcl/*.h ${PROJECT_SOURCE_DIR}/spirv/contract/*.h
                                         ${PROJECT_SOURCE_DIR}/api/vkcl/*.h)
if(VKCL_WITH_COMPILER)
  list(APPEND vkcl_headers ${PROJECT_SOURCE_DIR}/tools/clc/compiler.h)
endif()
install(FILES ${vkcl_headers} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/vkcl)

# The tools link LLVM, clang and the translator from /usr/lib/llvm-15/lib:
# keep that directory in the installed binaries' RPATH.
set(vkcl_programs)
if(TARGET clc)
  list(APPEND vkcl_programs clc)
endif()
if(TARGET vkcl-run)
  list(APPEND vkcl_programs vkcl-run)
endif()
if(vkcl_programs)
  set_target_properties(${vkcl_programs} PROPERTIES INSTALL_RPATH_USE_LINK_PATH ON)
  install(TARGETS ${vkcl_programs} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
# The compile worker, which vkcl starts rather than people: in
# libexec/vkcl, where an installed library or program finds it
# (api/vkcl/compile_worker.h).
if(TARGET vkcl-compile-worker)
  set_target_properties(vkcl-compile-worker PROPERTIES INSTALL_RPATH_USE_LINK_PATH ON)
  install(TARGETS vkcl-compile-worker RUNTIME DESTINATION ${VKCL_COMPILE_WORKER_INSTALL_DIR})
endif()

install(EXPORT vkclTargets
        NAMESPACE vkcl::
        DESTINATION ${VKCL_INSTALL_CMAKEDIR})
# The package config finds the compiler's dependencies only where it was
# installed. LLVM's and clang's shared libraries are named by the files this
# build linked: LLVMConfig.cmake needs the C language enabled, which a
# consumer's project need not have.
set(VKCL_PACKAGE_HAS_COMPILER ${VKCL_WITH_COMPILER})
if(VKCL_WITH_COMPILER)
  get_target_property(VKCL_LLVM_LIBRARY LLVM LOCATION)
  get_target_property(VKCL_CLANG_CPP_LIBRARY clang-cpp LOCATION)
endif()
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/vkclConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/package/vkclConfig.cmake
                              INSTALL_DESTINATION ${VKCL_INSTALL_CMAKEDIR}
                              PATH_VARS CMAKE_INSTALL_BINDIR VKCL_COMPILE_WORKER_INSTALL_DIR)
# 0.x: a minor version may change the API.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/package/vkclConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/package/vkclConfig.cmake
              ${PROJECT_BINARY_DIR}/package/vkclConfigVersion.cmake
        DESTINATION ${VKCL_INSTALL_CMAKEDIR})

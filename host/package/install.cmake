# `cmake --install` for vkcl: the host runtime (vkcl::host), its headers, clc
# and, when it is part of the build, the runner vkcl-run, in GNUInstallDirs
# places, with a CMake package so that a consumer project can write
#
#   find_package(vkcl 0.1 REQUIRED)
#   target_link_libraries(app PRIVATE vkcl::host)
#
# Installed:
#   bin/clc, bin/vkcl-run
#   lib/libvkcl_host.a (volk compiled in), lib/libvkcl_reflection.a
#   include/vkcl/*.h (the API) and include/vkcl/reflection.h, which the API
#     includes as "reflection.h": found next to the including header
#   lib/cmake/vkcl/vkclConfig.cmake, vkclConfigVersion.cmake, vkclTargets*.cmake
#
# vkcl::host carries what its users need: the include directory, volk's
# (Debian's libvulkan-volk-dev puts volk.h in /usr/include), VK_NO_PROTOTYPES,
# C++20, Vulkan::Headers (the package config finds Vulkan) and libdl.
# Included from the top-level CMakeLists.txt after every target exists.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(VKCL_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/vkcl)

# Include directories inside the source or build tree mean nothing to an
# installed target: keep them for the build only, and let the installed
# target use include/. Directories elsewhere (volk's) stay as they are.
function(vkcl_make_includes_installable target)
  get_target_property(dirs ${target} INTERFACE_INCLUDE_DIRECTORIES)
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

vkcl_make_includes_installable(vkcl_host)
vkcl_make_includes_installable(vkcl_reflection)
set_target_properties(vkcl_host PROPERTIES EXPORT_NAME host)
set_target_properties(vkcl_reflection PROPERTIES EXPORT_NAME reflection)

install(TARGETS vkcl_host vkcl_reflection
        EXPORT vkclTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
# source_program.h needs the compiler's headers and library, which are not installed.
file(GLOB vkcl_host_headers CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/host/vkcl/*.h)
list(FILTER vkcl_host_headers EXCLUDE REGEX "/source_program\\.h$")
install(FILES ${vkcl_host_headers} ${PROJECT_SOURCE_DIR}/spirv/reflection.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/vkcl)

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

install(EXPORT vkclTargets
        NAMESPACE vkcl::
        DESTINATION ${VKCL_INSTALL_CMAKEDIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/vkclConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/package/vkclConfig.cmake
                              INSTALL_DESTINATION ${VKCL_INSTALL_CMAKEDIR}
                              PATH_VARS CMAKE_INSTALL_BINDIR)
# 0.x: a minor version may change the API.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/package/vkclConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/package/vkclConfig.cmake
              ${PROJECT_BINARY_DIR}/package/vkclConfigVersion.cmake
        DESTINATION ${VKCL_INSTALL_CMAKEDIR})

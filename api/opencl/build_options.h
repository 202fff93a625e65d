// OpenCL build options (clBuildProgram, clCompileProgram) as vkcl's
// CompileOptions: every option of the specification's list is taken, and
// any other is CL_INVALID_BUILD_OPTIONS.
#pragma once

#include <string>
#include <string_view>

#include "compile_options.h"

namespace vkcl::opencl {

struct BuildOptions {
  CompileOptions compile;
  // -cl-kernel-arg-info: clGetKernelArgInfo may be asked.
  bool kernel_arg_info = false;
  // -cl-uniform-work-group-size, or an OpenCL C version before 2.0: every
  // work-group of an ND-range must be whole.
  bool uniform_work_groups = false;
};

// Throws ClError{CL_INVALID_BUILD_OPTIONS} naming the option it does not know.
BuildOptions parse_build_options(std::string_view options);

// clLinkProgram's options: -create-library, -enable-link-options and the
// math options that may be given at link time. Throws
// ClError{CL_INVALID_LINKER_OPTIONS}.
struct LinkOptions {
  bool create_library = false;
  std::vector<std::string> frontend_options;
  bool denorms_are_zero = false;
};
LinkOptions parse_link_options(std::string_view options);

}  // namespace vkcl::opencl

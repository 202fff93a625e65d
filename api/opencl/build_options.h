// OpenCL build options (clBuildProgram, clCompileProgram) as vkcl's
// CompileOptions: every option of the specification's list is taken, and
// any other is CL_INVALID_BUILD_OPTIONS.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "compile_options.h"
#include "icd.h"

namespace vkcl::opencl {

struct BuildOptions {
  CompileOptions compile;
  // -cl-kernel-arg-info: clGetKernelArgInfo may be asked.
  bool kernel_arg_info = false;
  // -cl-uniform-work-group-size, or an OpenCL C version before 2.0: every
  // work-group of an ND-range must be whole.
  bool uniform_work_groups = false;
};

// Throws ClError{invalid} naming the option it does not know:
// CL_INVALID_BUILD_OPTIONS for clBuildProgram, CL_INVALID_COMPILER_OPTIONS
// for clCompileProgram.
BuildOptions parse_build_options(std::string_view options, cl_int invalid = CL_INVALID_BUILD_OPTIONS);

// Build options that parse to what `options` says beyond its -D, -I and
// clang's own options: the optimization, -cl-denorms-are-zero,
// -cl-kernel-arg-info and whether work-groups must be uniform. What a
// linked program's binary keeps of how it was compiled.
std::string build_options_text(const BuildOptions& options);

// clLinkProgram's options: -create-library, -enable-link-options (only
// with -create-library) and the math options that may be given at link
// time. Throws ClError{CL_INVALID_LINKER_OPTIONS}.
struct LinkOptions {
  bool create_library = false;
  std::vector<std::string> frontend_options;  // clang's: nothing to do after clang has run
  bool denorms_are_zero = false;
};
LinkOptions parse_link_options(std::string_view options);

}  // namespace vkcl::opencl

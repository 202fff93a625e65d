// The one thing build_program needs from the compiler in process, linked in
// one of three ways: compile_in_process.cpp (with the compiler,
// vkcl::compiler), compile_unavailable.cpp (a build without the compiler) or
// compile_contained_only.cpp (the OpenCL ICD's library, which compiles in a
// child process only).
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "compile_options.h"
#include "vulkan_module.h"

namespace vkcl::detail {

// In this process. Throws CompileError for bad source; Error when this
// library has no compiler. Appends the compiler's warnings to `warnings`.
VulkanModule compile_module(std::string_view source, std::string_view file_name, const CompileOptions& options,
                            std::span<const InputHeader> headers, std::string& warnings);

}  // namespace vkcl::detail

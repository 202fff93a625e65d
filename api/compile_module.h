// The one thing build_program needs from the compiler, linked in one of two
// ways: compile_in_process.cpp (with the compiler, vkcl::compiler) or
// compile_unavailable.cpp (a build without the compiler).
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "compile_options.h"
#include "vulkan_module.h"

namespace vkcl::detail {

// In this process. Throws CompileError for bad source; Error when this build
// has no compiler. Appends the compiler's warnings to `warnings`.
VulkanModule compile_module(std::string_view source, std::string_view file_name, const CompileOptions& options,
                            std::span<const InputHeader> headers, std::string& warnings);

}  // namespace vkcl::detail

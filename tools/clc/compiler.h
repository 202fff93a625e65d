// clc's compiler as a library: OpenCL C source in, Vulkan SPIR-V and its
// reflection out, every stage in this process (docs/design.md, "Data flow"):
//
//   frontend     clang cc1 → LLVM IR with line tables           frontend.h
//   prepare      + builtins/ bitcode, internalize, inline, -O,
//                clc's transforms, checks                        prepare_for_translation.h
//   translate    SPIRV-LLVM-Translator → Kernel SPIR-V           translate.h
//   lower        spirv/ lowering + validation → Vulkan SPIR-V    spirv/lower_to_vulkan.h
//
// Every failure is a vkcl::CompileError whose what() is complete user-facing
// text, clang-style (`file:line:col: error: ...` where a location is known).
// A crash inside clang, LLVM or the translator (and the translator's habit of
// calling exit() on input it rejects) is caught with llvm::CrashRecoveryContext,
// which compile_opencl enables, and reported as a CompileError; after an
// internal error (not an ordinary diagnostic) the process state is
// unspecified: memory may have leaked, so callers should not go on compiling
// for long.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "compile_error.h"
#include "compile_options.h"
#include "vulkan_module.h"

namespace vkcl {

struct CompileResult {
  VulkanModule module;                // the lowered, validated module (when options.lower)
  std::vector<uint32_t> kernel_spirv;  // the translator's Kernel SPIR-V
  std::string warnings;               // clang's warnings, formatted; empty when none
};

// `file_name` is what diagnostics call the source ("<stdin>" for standard
// input); #include "..." is searched relative to its directory first.
// `headers` can be #included by name wherever the source or another header
// includes them, before the -I directories (frontend.h says how).
CompileResult compile_opencl(std::string_view source, std::string_view file_name, const CompileOptions& options,
                             std::span<const InputHeader> headers = {});

}  // namespace vkcl

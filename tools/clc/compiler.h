// clc's compiler as a library: OpenCL C source in, Vulkan SPIR-V and its
// reflection out, every stage in this process (docs/design.md, "Data flow"):
//
//   frontend     clang cc1 → LLVM IR with line tables           frontend.h
//   (or link     LLVM bitcode objects → one module               link_modules.h
//    or read     OpenCL SPIR-V → LLVM IR, the translator        translate.h)
//   source info  kernel argument types, attributes              kernel_source_info.h
//   prepare      + builtins/ bitcode, internalize, inline, -O,
//                clc's transforms, checks                        prepare_for_translation.h
//   translate    SPIRV-LLVM-Translator → Kernel SPIR-V           translate.h
//   lower        spirv/ lowering + validation → Vulkan SPIR-V    spirv/lower_to_vulkan.h
//
// OpenCL's separate compilation (clCompileProgram, clLinkProgram) splits
// this at the frontend: compile_to_library stops after clang (or after
// reading SPIR-V) and gives the module as LLVM bitcode, a compiled object;
// link_to_library links objects into one (a library); link_libraries links
// objects and libraries and runs the rest, as compile_opencl does after
// clang. The bitcode is clang's, unoptimized: only this compiler reads it,
// and only when it was built from the same sources (vkcl's program binaries
// and the worker protocol carry it between processes of one build).
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

// A compiled object or a library: one LLVM module as bitcode.
struct LibraryResult {
  std::string bitcode;
  std::string warnings;  // clang's warnings, formatted; empty when none
};

// clCompileProgram: `source` through clang only, as compile_opencl's first
// stage (its diagnostics, its options but for the lowering's). The object
// may declare what another object defines, and needs no kernel.
LibraryResult compile_to_library(std::string_view source, std::string_view file_name, const CompileOptions& options,
                                 std::span<const InputHeader> headers = {});

// clLinkProgram: `objects` (from compile_to_library, compile_spirv_to_library
// or link_to_library) linked into one module, which then goes the way of
// compile_opencl's after clang. A symbol defined twice is an error naming
// it; a call to a function defined nowhere is one at the call
// (prepare_for_translation.h). `file_name` names the program in messages
// that have no source location.
CompileResult link_libraries(std::span<const std::string> objects, std::string_view file_name,
                             const CompileOptions& options);

// clLinkProgram -create-library: `objects` linked into one, as bitcode.
LibraryResult link_to_library(std::span<const std::string> objects, std::string_view file_name);

// clCreateProgramWithIL and clBuildProgram: an OpenCL (Kernel capability)
// SPIR-V module, read into LLVM IR by SPIRV-LLVM-Translator's reader with
// `spec_constants` applied, then compiled as compile_opencl compiles after
// clang. Throws CompileError when the reader refuses the module (its
// message), and as compile_opencl does.
CompileResult compile_spirv(std::span<const uint32_t> words, std::string_view file_name,
                            const CompileOptions& options, std::span<const SpecConstant> spec_constants = {});

// clCompileProgram of a program from SPIR-V: the module read as
// compile_spirv reads it, as bitcode.
LibraryResult compile_spirv_to_library(std::span<const uint32_t> words, std::string_view file_name,
                                       std::span<const SpecConstant> spec_constants = {});

}  // namespace vkcl

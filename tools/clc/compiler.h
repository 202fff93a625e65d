// clc's compiler as a library: OpenCL C source in, Vulkan SPIR-V and its
// reflection out, every stage in this process (docs/design.md, "Data flow"):
//
//   frontend        clang cc1 → LLVM IR with line tables          frontend.h
//   link_builtins   + builtins/ bitcode, internalize, inline, -O  link_builtins.h
//   translate       SPIRV-LLVM-Translator → Kernel SPIR-V          translate.h
//   lower           spirv/ lowering + validation → Vulkan SPIR-V   spirv/lower_to_vulkan.h
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
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compile_error.h"
#include "lower_to_vulkan.h"

namespace vkcl {

enum class OpenCLStd { CL1_2, CL2_0, CL3_0 };

struct CompileOptions {
  OpenCLStd cl_std = OpenCLStd::CL1_2;  // clang's default for .cl files
  std::vector<std::string> defines;       // "NAME" or "NAME=VALUE", as for -D
  std::vector<std::string> include_dirs;  // as for -I, searched in order
  bool optimize = true;                   // -O2 (default); false: -O0
  MemoryModel memory_model = MemoryModel::Vulkan;
  // Under the Vulkan memory model, memory_scope_device becomes Device scope
  // (needs vulkanMemoryModelDeviceScope) or, when false, QueueFamily scope.
  bool vulkan_device_scope = true;
  // false: stop after the translator; CompileResult::module stays empty.
  bool lower = true;
  // -cl-denorms-are-zero: the program allows subnormal floats and doubles to
  // be flushed to zero. The module is the same; its reflection says so
  // (ModuleReflection::denorms_are_zero), and the runtime then does not ask
  // the device to preserve subnormals (host/preserve_denormals.h).
  bool denorms_are_zero = false;
  // LoweringOptions::max_storage_buffers: how many pointer arguments of a
  // kernel may become storage-buffer descriptors (0: addresses only). Unset:
  // 0, addresses. build_program chooses per device where it is unset: as many
  // as the device binds on lavapipe, 0 on GPUs, or VKCL_STORAGE_BUFFER_ARGUMENTS
  // (docs/performance.md, "Argument passing").
  std::optional<uint32_t> max_storage_buffers;
};

struct CompileResult {
  VulkanModule module;                // the lowered, validated module (when options.lower)
  std::vector<uint32_t> kernel_spirv;  // the translator's Kernel SPIR-V
  std::string warnings;               // clang's warnings, formatted; empty when none
};

// `file_name` is what diagnostics call the source ("<stdin>" for standard
// input); #include "..." is searched relative to its directory first.
CompileResult compile_opencl(std::string_view source, std::string_view file_name, const CompileOptions& options);

}  // namespace vkcl

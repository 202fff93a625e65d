// Kernel SPIR-V (as SPIRV-LLVM-Translator writes it) to Vulkan GLCompute SPIR-V.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "reflection.h"

namespace vkcl {

enum class MemoryModel { Vulkan, GLSL450 };

struct LoweringOptions {
  MemoryModel memory_model = MemoryModel::Vulkan;
  // Without vulkanMemoryModelDeviceScope, Device scope becomes QueueFamily.
  bool device_scope_available = true;
  bool optimize = true;
};

struct VulkanModule {
  std::vector<uint32_t> words;
  ModuleReflection reflection;
};

// Runs the lowering passes in order, then the SPIRV-Tools optimizer (when
// asked) and the validator for Vulkan 1.1 and 1.2. Throws CompileError when
// the input uses something the lowering does not support, or when the result
// does not validate: no invalid module ever leaves this function.
VulkanModule lower_to_vulkan(std::span<const uint32_t> kernel_module, const LoweringOptions& options);

}  // namespace vkcl

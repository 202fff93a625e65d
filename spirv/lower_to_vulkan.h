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
  // The most __global/__constant pointer arguments of one kernel that
  // become storage-buffer descriptors (spirv/bind_storage_buffers.cpp); the
  // rest keep buffer device addresses. 0: addresses only. The host needs
  // this many in maxPerStageDescriptorStorageBuffers and maxPushDescriptors
  // (32 is the least maxPushDescriptors Vulkan allows). Addresses by
  // default: docs/performance.md, "Argument passing".
  uint32_t max_storage_buffers = 0;
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

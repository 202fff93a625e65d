// What the compiler hands the runtime: a Vulkan SPIR-V module and its
// reflection (part of the contract library, vkcl::contract).
#pragma once

#include <cstdint>
#include <vector>

#include "reflection.h"

namespace vkcl {

// The memory model a module is written for: Vulkan's (with Device or
// QueueFamily scope, docs/synchronization.md) or GLSL450 on devices without
// vulkanMemoryModel.
enum class MemoryModel { Vulkan, GLSL450 };

struct VulkanModule {
  std::vector<uint32_t> words;
  ModuleReflection reflection;
};

}  // namespace vkcl

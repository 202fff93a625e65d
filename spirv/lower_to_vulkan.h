// Kernel SPIR-V (as SPIRV-LLVM-Translator writes it) to Vulkan GLCompute SPIR-V.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "vulkan_module.h"

namespace vkcl {

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

// Runs the lowering passes in order, then the SPIRV-Tools optimizer (when
// asked) and the validator for Vulkan 1.1 and 1.2. Throws CompileError when
// the input uses something the lowering does not support, or when the result
// does not validate: no invalid module ever leaves this function.
VulkanModule lower_to_vulkan(std::span<const uint32_t> kernel_module, const LoweringOptions& options);

// Sees the module after each pass (spirv-lower --print-after).
using AfterPass = std::function<void(std::string_view pass, std::span<const uint32_t> words)>;

// lower_to_vulkan with `after_pass` called after every pass.
VulkanModule lower_to_vulkan(std::span<const uint32_t> kernel_module, const LoweringOptions& options,
                             const AfterPass& after_pass);

// The lowering passes' names, in the order lower_to_vulkan runs them
// (spirv/pass_registry.def).
std::vector<std::string_view> lowering_pass_names();

// Runs only `passes`, in the order given, on `kernel_module`: no validation
// and no optimizer, since a module between passes need not be valid Vulkan
// SPIR-V (spirv-lower --passes, and tests of one pass). Throws CompileError
// for a name that is no pass, and as lower_to_vulkan does.
VulkanModule run_lowering_passes(std::span<const uint32_t> kernel_module, const LoweringOptions& options,
                                 std::span<const std::string> passes, const AfterPass& after_pass = {});

}  // namespace vkcl

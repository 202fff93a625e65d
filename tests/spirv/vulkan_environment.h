// The Vulkan environment rules every lowered module must keep, checked
// independently of the product (spirv/check_memory_semantics.cpp enforces the
// same rules inside clc; a test that used it as its oracle could not catch a
// bug in it). Shared by the golden cross products of the synchronization and
// atomic builtins.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "lower_to_vulkan.h"

namespace vkcl::testing {

// The memory-semantics rules of Vulkan 1.4.322 (VUID-StandaloneSpirv-
// MemorySemantics-10865..10873) that spirv-val 2023.1 does not check, and
// the bits the OpenCL mapping must never produce (SequentiallyConsistent,
// CrossWorkgroupMemory). Returns what is wrong with `semantics`, or "".
std::string semantics_problem(uint32_t semantics, MemoryModel model);

// Everything wrong with `words` as a Vulkan module for `model`: spirv-val for
// Vulkan 1.1, 1.2 and 1.3, semantics_problem on every semantics operand, the
// capabilities Subgroup and Device scopes need, QueueFamily scope only under
// the Vulkan model, and the declared OpMemoryModel. Empty when it is clean.
std::vector<std::string> vulkan_environment_violations(std::span<const uint32_t> words, MemoryModel model);

}  // namespace vkcl::testing

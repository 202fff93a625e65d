// check_memory_semantics: the Vulkan rules on scopes and memory semantics
// that Debian's spirv-val (SPIRV-Tools 2023.1) predates, enforced on every
// module vkcl writes (docs/synchronization.md, "Barriers and fences"
// and "What the memory model adds"; VUIDs MemorySemantics-10865..10873 since Vulkan 1.4.322).
//
// Checked on every memory-semantics operand (barriers and atomics):
//   - no SequentiallyConsistent, under either memory model;
//   - at most one of Acquire, Release, AcquireRelease;
//   - an ordering bit if and only if a storage-class bit Vulkan honours
//     (Uniform, Workgroup, Image, Output memory);
//   - no CrossWorkgroupMemory, which drivers ignore (a global fence would
//     silently disappear);
//   - MakeAvailable only with Release/AcquireRelease, MakeVisible only with
//     Acquire/AcquireRelease, and neither outside the Vulkan memory model.
// And on scopes: Subgroup needs the GroupNonUniform capability; an
// Invocation memory scope must come with no semantics at all.
// It does not check what spirv-val already does (constant operands, Vulkan
// scope values, atomic-specific ordering rules).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace vkcl::spirv {

// One line per violation ("OpMemoryBarrier %12: ..."); empty when the module follows every rule.
std::vector<std::string> memory_semantics_violations(std::span<const uint32_t> module);

}  // namespace vkcl::spirv

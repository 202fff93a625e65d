// Reads a module's synchronization back out of its SPIR-V words, per kernel,
// and makes mis-mapped copies of it: what the conformance suite needs to
// check that each litmus kernel carries the barriers and orders it tests,
// and to see whether the litmus tests notice a wrong mapping. Works on the
// words build_program would load, so also on modules VKCL_MODULE_CACHE
// replays where there is no compiler.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace vkcl::conformance {

// SPIR-V numbers used here.
namespace spv {
constexpr uint32_t OpControlBarrier = 224, OpMemoryBarrier = 225;
constexpr uint32_t ScopeDevice = 1, ScopeWorkgroup = 2, ScopeSubgroup = 3, ScopeQueueFamily = 5;
constexpr uint32_t Acquire = 0x2, Release = 0x4, AcquireRelease = 0x8, SequentiallyConsistent = 0x10;
constexpr uint32_t UniformMemory = 0x40, WorkgroupMemory = 0x100, CrossWorkgroupMemory = 0x200, ImageMemory = 0x800;
constexpr uint32_t kOrderingBits = Acquire | Release | AcquireRelease | SequentiallyConsistent;
constexpr uint32_t kStorageBits = UniformMemory | WorkgroupMemory | CrossWorkgroupMemory | ImageMemory;
}  // namespace spv

// A barrier, or an atomic whose semantics order memory (relaxed atomics,
// semantics 0, are left out): its opcode and its scope and semantics values.
struct SyncInstruction {
  uint32_t opcode = 0;
  uint32_t execution_scope = 0;  // OpControlBarrier only
  uint32_t memory_scope = 0;
  uint32_t semantics = 0;  // for OpAtomicCompareExchange, the equal semantics
};

// Every such instruction in the function of entry point `kernel` and the
// functions it calls, in module order. Throws std::runtime_error when the
// module has no such entry point or an operand is not a constant.
std::vector<SyncInstruction> synchronization_of(std::span<const uint32_t> module, std::string_view kernel);

// "OpMemoryBarrier Device UniformMemory|Release", with only the storage and
// ordering bits (what the mapping decides; MakeAvailable and friends follow
// from the memory model) and QueueFamily written as Device (the scope
// memory_scope_device gets where the device lacks vulkanMemoryModelDeviceScope).
std::string describe(const SyncInstruction& instruction);
std::string describe_scope(uint32_t scope);
std::string describe_semantics(uint32_t semantics);

// A copy of `module` in which every SyncInstruction of `kernel` for which
// `change` returns a value gets that instruction's new scope and semantics
// (new constants are added; nothing else changes). For mis-mapped variants.
struct ScopeAndSemantics {
  uint32_t memory_scope;
  uint32_t semantics;
};
std::vector<uint32_t> remap_synchronization(
    std::span<const uint32_t> module, std::string_view kernel,
    const std::function<std::optional<ScopeAndSemantics>(const SyncInstruction&)>& change);

}  // namespace vkcl::conformance

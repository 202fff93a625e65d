#include "check_memory_semantics.h"

#include "module.h"

namespace vkcl::spirv {
namespace {

using spv::MemorySemanticsMask;
using spv::Scope;

constexpr uint32_t bit(MemorySemanticsMask m) { return uint32_t(m); }

constexpr uint32_t kOrderingBits =
    bit(MemorySemanticsMask::Acquire) | bit(MemorySemanticsMask::Release) | bit(MemorySemanticsMask::AcquireRelease);
constexpr uint32_t kVulkanStorageBits = bit(MemorySemanticsMask::UniformMemory) |
                                        bit(MemorySemanticsMask::WorkgroupMemory) |
                                        bit(MemorySemanticsMask::ImageMemory) | bit(MemorySemanticsMask::OutputMemory);

// Where an instruction keeps its scope and semantics operands (indices into
// Instruction::words, which start after the result id).
struct Operands {
  int execution_scope = -1;
  int memory_scope = -1;
  std::vector<int> semantics;
};

Operands operands_of(Op opcode) {
  switch (opcode) {
    case Op::OpControlBarrier: return {0, 1, {2}};
    case Op::OpMemoryBarrier: return {-1, 0, {1}};
    case Op::OpAtomicCompareExchange:
    case Op::OpAtomicCompareExchangeWeak: return {-1, 1, {2, 3}};  // pointer, scope, equal, unequal
    case Op::OpAtomicLoad:
    case Op::OpAtomicStore:
    case Op::OpAtomicExchange:
    case Op::OpAtomicIIncrement:
    case Op::OpAtomicIDecrement:
    case Op::OpAtomicIAdd:
    case Op::OpAtomicISub:
    case Op::OpAtomicSMin:
    case Op::OpAtomicUMin:
    case Op::OpAtomicSMax:
    case Op::OpAtomicUMax:
    case Op::OpAtomicAnd:
    case Op::OpAtomicOr:
    case Op::OpAtomicXor:
    case Op::OpAtomicFlagTestAndSet:
    case Op::OpAtomicFlagClear:
    case Op::OpAtomicFAddEXT:
    case Op::OpAtomicFMinEXT:
    case Op::OpAtomicFMaxEXT: return {-1, 1, {2}};
    default: return {};
  }
}

std::string instruction_name(Op opcode) {
  if (opcode == Op::OpControlBarrier) return "OpControlBarrier";
  if (opcode == Op::OpMemoryBarrier) return "OpMemoryBarrier";
  return "atomic instruction (opcode " + std::to_string(uint32_t(opcode)) + ")";
}

std::string semantics_problem(uint32_t s, bool vulkan_memory_model) {
  const uint32_t ordering = s & kOrderingBits;
  if (s & bit(MemorySemanticsMask::SequentiallyConsistent)) return "SequentiallyConsistent is forbidden";
  if (s & bit(MemorySemanticsMask::CrossWorkgroupMemory)) return "CrossWorkgroupMemory is ignored by Vulkan drivers";
  if (ordering & (ordering - 1)) return "more than one of Acquire, Release and AcquireRelease";
  if (ordering != 0 && (s & kVulkanStorageBits) == 0) return "an ordering bit without a storage-class bit";
  if (ordering == 0 && (s & kVulkanStorageBits) != 0) return "a storage-class bit without an ordering bit";
  const uint32_t available = bit(MemorySemanticsMask::MakeAvailable), visible = bit(MemorySemanticsMask::MakeVisible);
  if (!vulkan_memory_model && (s & (available | visible)))
    return "MakeAvailable/MakeVisible outside the Vulkan memory model";
  if ((s & available) && !(s & (bit(MemorySemanticsMask::Release) | bit(MemorySemanticsMask::AcquireRelease))))
    return "MakeAvailable without Release or AcquireRelease";
  if ((s & visible) && !(s & (bit(MemorySemanticsMask::Acquire) | bit(MemorySemanticsMask::AcquireRelease))))
    return "MakeVisible without Acquire or AcquireRelease";
  return {};
}

}  // namespace

std::vector<std::string> memory_semantics_violations(std::span<const uint32_t> words) {
  Module m = Module::parse(words);
  const bool vulkan_memory_model =
      !m.memory_model.empty() && spv::MemoryModel(m.memory_model.front().word(1)) == spv::MemoryModel::Vulkan;
  std::vector<std::string> violations;
  for (const Function& f : m.functions) {
    for (const Instruction& i : f.code) {
      const Operands operands = operands_of(i.opcode);
      if (operands.memory_scope < 0) continue;
      const std::string where = instruction_name(i.opcode) +
                                (i.result_id ? " %" + std::to_string(i.result_id) : std::string()) + ": ";
      auto value = [&](int index) { return m.constant_value(i.word(size_t(index))); };
      uint32_t all_semantics = 0;
      for (int index : operands.semantics) {
        std::optional<uint64_t> s = value(index);
        if (!s) {
          violations.push_back(where + "memory semantics are not a constant");
          continue;
        }
        all_semantics |= uint32_t(*s);
        if (std::string problem = semantics_problem(uint32_t(*s), vulkan_memory_model); !problem.empty())
          violations.push_back(where + problem);
      }
      for (int index : {operands.execution_scope, operands.memory_scope}) {
        if (index < 0) continue;
        std::optional<uint64_t> scope = value(index);
        if (scope && Scope(*scope) == Scope::Subgroup && !m.has_capability(spv::Capability::GroupNonUniform))
          violations.push_back(where + "Subgroup scope without the GroupNonUniform capability");
      }
      std::optional<uint64_t> memory_scope = value(operands.memory_scope);
      if (memory_scope && Scope(*memory_scope) == Scope::Invocation && all_semantics != 0)
        violations.push_back(where + "Invocation memory scope with memory semantics other than None");
    }
  }
  return violations;
}

}  // namespace vkcl::spirv

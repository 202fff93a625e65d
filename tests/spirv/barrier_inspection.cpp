#include "barrier_inspection.h"

#include <cstdio>
#include <sstream>

#include <spirv-tools/libspirv.hpp>

#include "module.h"

namespace vkcl::testing {
namespace {

uint32_t value_of(const spirv::Module& m, uint32_t id) { return uint32_t(m.constant_value(id).value_or(~0u)); }

// Operand positions (after the result id) of the scopes and semantics an instruction carries.
struct SynchronizationOperandPositions {
  std::vector<size_t> execution_scopes, memory_scopes, semantics;
};

SynchronizationOperandPositions positions_of(spv::Op op) {
  using spv::Op;
  switch (op) {
    case Op::OpControlBarrier: return {{0}, {1}, {2}};
    case Op::OpMemoryBarrier: return {{}, {0}, {1}};
    // Pointer, scope, semantics; a compare-exchange has a second (unequal) semantics.
    case Op::OpAtomicCompareExchange:
    case Op::OpAtomicCompareExchangeWeak: return {{}, {1}, {2, 3}};
    case Op::OpAtomicFlagTestAndSet:
    case Op::OpAtomicFlagClear:
    case Op::OpAtomicFMinEXT:
    case Op::OpAtomicFMaxEXT:
    case Op::OpAtomicFAddEXT: return {{}, {1}, {2}};
    case Op::OpGroupNonUniformRotateKHR: return {{0}, {}, {}};
    default: break;
  }
  if (op >= Op::OpAtomicLoad && op <= Op::OpAtomicXor) return {{}, {1}, {2}};
  // OpGroup* (Kernel) and OpGroupNonUniform*: the execution scope comes first.
  if ((op >= Op::OpGroupAsyncCopy && op <= Op::OpGroupSMax) ||
      (op >= Op::OpGroupNonUniformElect && op <= Op::OpGroupNonUniformQuadSwap))
    return {{0}, {}, {}};
  return {};
}

}  // namespace

std::string describe_scope(uint32_t scope) {
  switch (scope) {
    case 0: return "CrossDevice";
    case 1: return "Device";
    case 2: return "Workgroup";
    case 3: return "Subgroup";
    case 4: return "Invocation";
    case 5: return "QueueFamily";
    default: return "scope(" + std::to_string(scope) + ")";
  }
}

std::vector<Barrier> barriers_in(std::span<const uint32_t> words) {
  spirv::Module m = spirv::Module::parse(words);
  std::vector<Barrier> result;
  for (const spirv::Function& f : m.functions)
    for (const spirv::Instruction& i : f.code) {
      if (i.opcode == spv::Op::OpControlBarrier)
        result.push_back({true, value_of(m, i.word(0)), value_of(m, i.word(1)), value_of(m, i.word(2))});
      if (i.opcode == spv::Op::OpMemoryBarrier)
        result.push_back({false, 0, value_of(m, i.word(0)), value_of(m, i.word(1))});
    }
  return result;
}

SynchronizationOperands synchronization_operands_in(std::span<const uint32_t> words) {
  spirv::Module m = spirv::Module::parse(words);
  SynchronizationOperands result;
  auto read = [&](const spirv::Instruction& i, const std::vector<size_t>& positions, std::vector<uint32_t>& into) {
    for (size_t p : positions) into.push_back(value_of(m, i.word(p)));
  };
  for (const spirv::Function& f : m.functions)
    for (const spirv::Instruction& i : f.code) {
      SynchronizationOperandPositions at = positions_of(i.opcode);
      read(i, at.execution_scopes, result.execution_scopes);
      read(i, at.memory_scopes, result.memory_scopes);
      read(i, at.semantics, result.semantics);
    }
  return result;
}

std::vector<uint32_t> all_semantics_in(std::span<const uint32_t> words) {
  return synchronization_operands_in(words).semantics;
}

// Lossless: bits without a name here are printed in hex, so two different values never read the same.
std::string describe_semantics(uint32_t s) {
  static const std::pair<uint32_t, const char*> kBits[] = {
      {0x2, "Acquire"},           {0x4, "Release"},        {0x8, "AcquireRelease"},
      {0x10, "SequentiallyConsistent"}, {0x40, "UniformMemory"}, {0x80, "SubgroupMemory"},
      {0x100, "WorkgroupMemory"}, {0x200, "CrossWorkgroupMemory"}, {0x400, "AtomicCounterMemory"},
      {0x800, "ImageMemory"},     {0x1000, "OutputMemory"}, {0x2000, "MakeAvailable"},
      {0x4000, "MakeVisible"},    {0x8000, "Volatile"},
  };
  if (s == 0) return "None";
  std::string text;
  for (auto [bit, name] : kBits)
    if (s & bit) {
      text += (text.empty() ? "" : "|") + std::string(name);
      s &= ~bit;
    }
  if (s != 0) {
    char rest[16];
    std::snprintf(rest, sizeof rest, "0x%x", s);
    text += (text.empty() ? "" : "|") + std::string(rest);
  }
  return text;
}

std::string describe(const Barrier& b) {
  if (b.control)
    return "OpControlBarrier " + describe_scope(b.execution_scope) + " " + describe_scope(b.memory_scope) + " " +
           describe_semantics(b.semantics);
  return "OpMemoryBarrier " + describe_scope(b.memory_scope) + " " + describe_semantics(b.semantics);
}

std::string disassemble(std::span<const uint32_t> words) {
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_2);
  std::string text;
  tools.Disassemble(words.data(), words.size(), &text, SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES);
  return text;
}

std::vector<std::string> disassembled_lines(std::span<const uint32_t> words) {
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_6);
  std::string text;
  if (!tools.Disassemble(words.data(), words.size(), &text,
                         SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES | SPV_BINARY_TO_TEXT_OPTION_NO_HEADER))
    return {"(not a SPIR-V module that disassembles)"};
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace vkcl::testing

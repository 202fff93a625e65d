#include "barrier_inspection.h"

#include <spirv-tools/libspirv.hpp>

#include "module.h"

namespace vkcl::testing {
namespace {

uint32_t value_of(const spirv::Module& m, uint32_t id) { return uint32_t(m.constant_value(id).value_or(~0u)); }

std::string scope_name(uint32_t scope) {
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

}  // namespace

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

std::vector<uint32_t> all_semantics_in(std::span<const uint32_t> words) {
  std::vector<uint32_t> result;
  for (const Barrier& b : barriers_in(words)) result.push_back(b.semantics);
  return result;
}

std::string describe_semantics(uint32_t s) {
  static const std::pair<uint32_t, const char*> kBits[] = {
      {0x2, "Acquire"},           {0x4, "Release"},        {0x8, "AcquireRelease"},
      {0x10, "SequentiallyConsistent"}, {0x40, "UniformMemory"}, {0x80, "SubgroupMemory"},
      {0x100, "WorkgroupMemory"}, {0x200, "CrossWorkgroupMemory"}, {0x800, "ImageMemory"},
      {0x2000, "MakeAvailable"},  {0x4000, "MakeVisible"},   {0x8000, "Volatile"},
  };
  if (s == 0) return "None";
  std::string text;
  for (auto [bit, name] : kBits)
    if (s & bit) text += (text.empty() ? "" : "|") + std::string(name);
  return text;
}

std::string describe(const Barrier& b) {
  if (b.control)
    return "OpControlBarrier " + scope_name(b.execution_scope) + " " + scope_name(b.memory_scope) + " " +
           describe_semantics(b.semantics);
  return "OpMemoryBarrier " + scope_name(b.memory_scope) + " " + describe_semantics(b.semantics);
}

std::string disassemble(std::span<const uint32_t> words) {
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_2);
  std::string text;
  tools.Disassemble(words.data(), words.size(), &text, SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES);
  return text;
}

}  // namespace vkcl::testing

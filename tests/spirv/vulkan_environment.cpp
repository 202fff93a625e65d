#include "vulkan_environment.h"

#include <spirv-tools/libspirv.hpp>

#include <algorithm>
#include <bit>

#include "barrier_inspection.h"
#include "module.h"

namespace vkcl::testing {
namespace {

// SPIR-V Scope (3.27) and Memory Semantics (3.25).
enum SpvScope : uint32_t { kDevice = 1, kSubgroup = 3, kQueueFamily = 5 };
enum Semantics : uint32_t {
  kAcquire = 0x2, kRelease = 0x4, kAcquireRelease = 0x8, kSequentiallyConsistent = 0x10,
  kUniformMemory = 0x40, kWorkgroupMemory = 0x100, kCrossWorkgroupMemory = 0x200, kImageMemory = 0x800,
  kOutputMemory = 0x1000, kMakeAvailable = 0x2000, kMakeVisible = 0x4000,
};

std::string validation_errors(std::span<const uint32_t> words, spv_target_env env) {
  spvtools::SpirvTools tools(env);
  std::string errors;
  tools.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t&, const char* message) {
    errors += std::string(message) + "\n";
  });
  if (tools.Validate(words.data(), words.size(), spvtools::ValidatorOptions())) return "";
  return errors.empty() ? "invalid" : errors;
}

bool contains(const std::vector<uint32_t>& scopes, uint32_t scope) {
  return std::find(scopes.begin(), scopes.end(), scope) != scopes.end();
}

}  // namespace

std::string semantics_problem(uint32_t semantics, MemoryModel model) {
  const uint32_t ordering = semantics & (kAcquire | kRelease | kAcquireRelease);
  const uint32_t storage = semantics & (kUniformMemory | kWorkgroupMemory | kImageMemory | kOutputMemory);
  if (semantics & kSequentiallyConsistent) return "SequentiallyConsistent";
  if (semantics & kCrossWorkgroupMemory) return "CrossWorkgroupMemory";
  if (std::popcount(ordering) > 1) return "more than one of Acquire, Release, AcquireRelease";
  if (ordering && !storage) return "an ordering without a storage-class bit";
  if (storage && !ordering) return "a storage-class bit without an ordering";
  if ((semantics & kMakeAvailable) && !(ordering & (kRelease | kAcquireRelease)))
    return "MakeAvailable without Release or AcquireRelease";
  if ((semantics & kMakeVisible) && !(ordering & (kAcquire | kAcquireRelease)))
    return "MakeVisible without Acquire or AcquireRelease";
  if (model == MemoryModel::GLSL450 && (semantics & (kMakeAvailable | kMakeVisible)))
    return "MakeAvailable/MakeVisible under the GLSL450 memory model";
  return "";
}

std::vector<std::string> vulkan_environment_violations(std::span<const uint32_t> words, MemoryModel model) {
  std::vector<std::string> problems;
  for (auto [env, name] : {std::pair{SPV_ENV_VULKAN_1_1, "1.1"}, {SPV_ENV_VULKAN_1_2, "1.2"}, {SPV_ENV_VULKAN_1_3, "1.3"}})
    if (std::string errors = validation_errors(words, env); !errors.empty())
      problems.push_back(std::string("spirv-val for Vulkan ") + name + ": " + errors);

  const SynchronizationOperands operands = synchronization_operands_in(words);
  for (uint32_t semantics : operands.semantics)
    if (std::string problem = semantics_problem(semantics, model); !problem.empty())
      problems.push_back("memory semantics " + describe_semantics(semantics) + ": " + problem);

  const spirv::Module module = spirv::Module::parse(words);
  if ((contains(operands.execution_scopes, kSubgroup) || contains(operands.memory_scopes, kSubgroup)) &&
      !module.has_capability(spv::Capability::GroupNonUniform))
    problems.push_back("Subgroup scope without OpCapability GroupNonUniform");
  if (model == MemoryModel::Vulkan && contains(operands.memory_scopes, kDevice) &&
      !module.has_capability(spv::Capability::VulkanMemoryModelDeviceScope))
    problems.push_back("Device memory scope without OpCapability VulkanMemoryModelDeviceScope");
  if (model == MemoryModel::GLSL450 && contains(operands.memory_scopes, kQueueFamily))
    problems.push_back("QueueFamily scope under the GLSL450 memory model");
  const spv::MemoryModel declared = module.memory_model.empty() ? spv::MemoryModel::Max
                                                                : spv::MemoryModel(module.memory_model[0].word(1));
  const spv::MemoryModel wanted = model == MemoryModel::Vulkan ? spv::MemoryModel::Vulkan : spv::MemoryModel::GLSL450;
  if (declared != wanted)
    problems.push_back("OpMemoryModel is not " + std::string(model == MemoryModel::Vulkan ? "Vulkan" : "GLSL450"));
  return problems;
}

}  // namespace vkcl::testing

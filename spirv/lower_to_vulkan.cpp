#include "lower_to_vulkan.h"

#include <spirv-tools/libspirv.hpp>
#include <spirv-tools/optimizer.hpp>

#include "check_kernel_module.h"
#include "check_memory_semantics.h"
#include "compile_error.h"
#include "passes.h"

namespace vkcl {
namespace {

// Every environment a written module must be valid for.
constexpr spv_target_env kTargetEnvironments[] = {SPV_ENV_VULKAN_1_1, SPV_ENV_VULKAN_1_2, SPV_ENV_VULKAN_1_3};

std::string environment_name(spv_target_env env) { return spvTargetEnvDescription(env); }

void validate(const std::vector<uint32_t>& words, spv_target_env env, const std::string& stage) {
  spvtools::SpirvTools tools(env);
  std::string messages;
  tools.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t& position, const char* message) {
    messages += "  word " + std::to_string(position.index) + ": " + message + "\n";
  });
  spvtools::ValidatorOptions options;
  bool valid = tools.Validate(words.data(), words.size(), options);
  // Rules newer than this SPIRV-Tools, once per module (they do not depend on `env`).
  if (valid && env == kTargetEnvironments[0]) {
    for (const std::string& violation : spirv::memory_semantics_violations(words)) {
      messages += "  " + violation + "\n";
      valid = false;
    }
  }
  if (!valid) {
    std::string disassembly;
    tools.Disassemble(words, &disassembly, SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES | SPV_BINARY_TO_TEXT_OPTION_INDENT);
    throw CompileError("internal error: vkcl produced SPIR-V that is invalid for " + environment_name(env) + " " +
                       stage + "; nothing was written. This is a compiler bug; please report it with the kernel.\n" +
                       messages + "module:\n" + disassembly);
  }
}

std::vector<uint32_t> optimize(const std::vector<uint32_t>& words) {
  spvtools::Optimizer optimizer(SPV_ENV_VULKAN_1_1);
  std::string messages;
  optimizer.SetMessageConsumer([&](spv_message_level_t level, const char*, const spv_position_t&, const char* message) {
    if (level <= SPV_MSG_ERROR) messages += std::string("  ") + message + "\n";
  });
  optimizer.RegisterPerformancePasses();
  std::vector<uint32_t> optimized;
  spvtools::OptimizerOptions options;
  options.set_run_validator(false);
  if (!optimizer.Run(words.data(), words.size(), &optimized, options))
    throw CompileError("internal error: the SPIR-V optimizer failed; nothing was written.\n" + messages);
  return optimized;
}

}  // namespace

VulkanModule lower_to_vulkan(std::span<const uint32_t> kernel_module, const LoweringOptions& options) {
  return lower_to_vulkan(kernel_module, options, AfterPass{});
}

VulkanModule lower_to_vulkan(std::span<const uint32_t> kernel_module, const LoweringOptions& options,
                             const AfterPass& after_pass) {
  std::vector<std::string> all;
  for (std::string_view name : lowering_pass_names()) all.emplace_back(name);
  VulkanModule result = run_lowering_passes(kernel_module, options, all, after_pass);
  // Validating before the optimizer separates lowering bugs from optimizer bugs.
  for (spv_target_env env : kTargetEnvironments) validate(result.words, env, "after lowering");
  if (options.optimize) {
    result.words = optimize(result.words);
    for (spv_target_env env : kTargetEnvironments) validate(result.words, env, "after optimization");
  }
  return result;
}

std::vector<std::string_view> lowering_pass_names() {
  std::vector<std::string_view> names;
  for (const spirv::PassInfo& pass : spirv::lowering_passes()) names.push_back(pass.name);
  return names;
}

VulkanModule run_lowering_passes(std::span<const uint32_t> kernel_module, const LoweringOptions& options,
                                 std::span<const std::string> passes, const AfterPass& after_pass) {
  std::vector<const spirv::PassInfo*> chosen;
  for (const std::string& name : passes) {
    const spirv::PassInfo* pass = spirv::find_lowering_pass(name);
    if (pass == nullptr) throw CompileError("error: no lowering pass is named '" + name + "'\n");
    chosen.push_back(pass);
  }
  spirv::Module module = spirv::Module::parse(kernel_module);
  spirv::check_kernel_module(module);  // malformed input is an error, not a crash in a pass
  spirv::LoweringContext context;
  context.options = options;
  for (const spirv::PassInfo* pass : chosen) {
    spirv::run_pass(*pass, module, context);
    if (after_pass) after_pass(pass->name, module.serialize());
  }
  VulkanModule result;
  result.words = module.serialize();
  result.reflection = std::move(context.reflection);
  return result;
}

}  // namespace vkcl

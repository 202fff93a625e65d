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
  spirv::Module module = spirv::Module::parse(kernel_module);
  spirv::check_kernel_module(module);  // malformed input is an error, not a crash in a pass
  spirv::LoweringContext context;
  context.options = options;

  std::unique_ptr<spirv::Pass> passes[] = {
      spirv::make_lay_out_global_memory(),
      spirv::make_lower_opencl_std(),         spirv::make_lower_saturating_conversions(),
      spirv::make_lower_rounding_modes(),     spirv::make_lower_signed_remainders(),
      spirv::make_splat_select_conditions(),
      spirv::make_strip_kernel_decorations(), spirv::make_rewrite_entry_points(),
      spirv::make_bind_storage_buffers(),     spirv::make_lower_kernel_arguments(),   spirv::make_lower_builtin_variables(),
      spirv::make_lower_program_scope_constants(), spirv::make_lower_pointer_selection(),
      spirv::make_legalize_pointers(),        spirv::make_narrow_local_indices(),
      spirv::make_narrow_truncated_arithmetic(),
      spirv::make_map_memory_semantics(),
      spirv::make_legalize_subgroup_operations(),
      spirv::make_make_global_accesses_coherent(),
      spirv::make_structurize_control_flow(),
      spirv::make_emit_push_constant_blocks(), spirv::make_remove_unused_globals(),
      spirv::make_lower_long_vectors(),       spirv::make_forbid_fp_contraction(),
      spirv::make_combine_global_accesses(),
      spirv::make_declare_vulkan_module(),    spirv::make_fold_identity_pointer_casts(),
  };
  try {
    for (auto& pass : passes) pass->run(module, context);
  } catch (const CompileError&) {
    throw;
  } catch (const std::exception& error) {  // a lookup out of range in a pass: a bug, reported as one
    throw CompileError(std::string("internal error: the lowering failed: ") + error.what() + "\n");
  }

  VulkanModule result;
  result.words = module.serialize();
  // Validating before the optimizer separates lowering bugs from optimizer bugs.
  for (spv_target_env env : kTargetEnvironments) validate(result.words, env, "after lowering");
  if (options.optimize) {
    result.words = optimize(result.words);
    for (spv_target_env env : kTargetEnvironments) validate(result.words, env, "after optimization");
  }
  result.reflection = std::move(context.reflection);
  return result;
}

}  // namespace vkcl

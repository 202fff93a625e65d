// The lowering passes, in the order lower_to_vulkan runs them. Each file
// named like its factory holds the pass and states its contract.
#pragma once

#include <memory>

#include "pass.h"

namespace vkcl::spirv {

std::unique_ptr<Pass> make_lay_out_global_memory();
std::unique_ptr<Pass> make_lower_opencl_std();
std::unique_ptr<Pass> make_lower_saturating_conversions();
std::unique_ptr<Pass> make_lower_rounding_modes();
std::unique_ptr<Pass> make_lower_signed_remainders();
std::unique_ptr<Pass> make_splat_select_conditions();
std::unique_ptr<Pass> make_strip_kernel_decorations();
std::unique_ptr<Pass> make_rewrite_entry_points();
std::unique_ptr<Pass> make_bind_storage_buffers();
std::unique_ptr<Pass> make_lower_kernel_arguments();
std::unique_ptr<Pass> make_lower_builtin_variables();
std::unique_ptr<Pass> make_lower_program_scope_constants();
std::unique_ptr<Pass> make_lower_pointer_selection();
std::unique_ptr<Pass> make_legalize_pointers();
std::unique_ptr<Pass> make_narrow_local_indices();
std::unique_ptr<Pass> make_narrow_truncated_arithmetic();
std::unique_ptr<Pass> make_map_memory_semantics();
std::unique_ptr<Pass> make_legalize_subgroup_operations();
std::unique_ptr<Pass> make_make_global_accesses_coherent();
std::unique_ptr<Pass> make_structurize_control_flow();
std::unique_ptr<Pass> make_emit_push_constant_blocks();
std::unique_ptr<Pass> make_remove_unused_globals();
std::unique_ptr<Pass> make_forbid_fp_contraction();
std::unique_ptr<Pass> make_lower_long_vectors();
std::unique_ptr<Pass> make_combine_global_accesses();
std::unique_ptr<Pass> make_declare_vulkan_module();
std::unique_ptr<Pass> make_fold_identity_pointer_casts();

}  // namespace vkcl::spirv

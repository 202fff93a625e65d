// The lowering passes: one factory per pass, and the registry that lists
// them in the order lower_to_vulkan runs them (pass_registry.def).
#pragma once

#include <memory>
#include <span>
#include <string_view>

#include "pass.h"

namespace vkcl::spirv {

#define VKCL_LOWERING_PASS(name) std::unique_ptr<Pass> make_##name();
#include "pass_registry.def"
#undef VKCL_LOWERING_PASS

struct PassInfo {
  std::string_view name;  // the pass's file name and Pass::name()
  std::unique_ptr<Pass> (*make)();
};

// Every lowering pass, in order.
std::span<const PassInfo> lowering_passes();

// The pass named `name`, or nullptr.
const PassInfo* find_lowering_pass(std::string_view name);

// Runs a new instance of `pass`. A CompileError passes through; any other
// exception is a compiler bug and becomes a CompileError that names the pass.
void run_pass(const PassInfo& pass, Module& module, LoweringContext& context);

}  // namespace vkcl::spirv

#include <array>
#include <exception>
#include <string>

#include "compile_error.h"
#include "passes.h"

namespace vkcl::spirv {
namespace {

constexpr std::array kPasses = {
#define VKCL_LOWERING_PASS(name) PassInfo{#name, &make_##name},
#include "pass_registry.def"
#undef VKCL_LOWERING_PASS
};

}  // namespace

std::span<const PassInfo> lowering_passes() { return kPasses; }

const PassInfo* find_lowering_pass(std::string_view name) {
  for (const PassInfo& pass : kPasses)
    if (pass.name == name) return &pass;
  return nullptr;
}

void run_pass(const PassInfo& info, Module& module, LoweringContext& context) {
  std::unique_ptr<Pass> pass = info.make();
  try {
    pass->run(module, context);
  } catch (const CompileError&) {
    throw;  // the input's fault, told in the source's terms
  } catch (const std::exception& error) {  // a lookup out of range, say: a bug, reported as one
    throw CompileError("internal error: lowering pass '" + std::string(info.name) + "' failed: " + error.what() +
                       "\nThis is a compiler bug; please report it with the kernel.\n");
  }
}

}  // namespace vkcl::spirv

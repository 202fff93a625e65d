#include "llvm_transforms.h"

#include <algorithm>
#include <array>
#include <exception>
#include <optional>
#include <string>

#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>

#include "compile_error.h"

#include "bound_work_item_dimensions.h"
#include "legalize_integer_widths.h"
#include "legalize_vectors.h"
#include "lower_memory_intrinsics.h"
#include "lower_reinterpreted_memory.h"
#include "retype_punned_accesses.h"
#include "scale_huge_divisors.h"
#include "widen_half_divisions.h"

namespace vkcl {
namespace {

// Each transform's header says what it expects of the ones before it.
constexpr std::array kTransforms = {
    LlvmTransform{"bound_work_item_dimensions",
                  [](llvm::Module& module, std::string_view) { bound_work_item_dimensions(module); }},
    LlvmTransform{"lower_memory_intrinsics", lower_memory_intrinsics},
    LlvmTransform{"legalize_vectors", legalize_vectors},
    LlvmTransform{"legalize_integer_widths", legalize_integer_widths},
    LlvmTransform{"retype_punned_accesses",
                  [](llvm::Module& module, std::string_view file_name) { retype_punned_accesses(module, file_name); }},
    LlvmTransform{"lower_reinterpreted_memory",
                  [](llvm::Module& module, std::string_view file_name) { lower_reinterpreted_memory(module, file_name); }},
    LlvmTransform{"scale_huge_divisors", [](llvm::Module& module, std::string_view) { scale_huge_divisors(module); }},
    LlvmTransform{"widen_half_divisions", [](llvm::Module& module, std::string_view) { widen_half_divisions(module); }},
};

// What the first failing transform threw, as text: the program's error
// (a CompileError's what()) or an internal error naming the transform.
using Failure = std::optional<std::string>;

// One transform as a module pass; after a failure, it and the passes after it
// leave the module alone.
class LlvmTransformPass : public llvm::PassInfoMixin<LlvmTransformPass> {
 public:
  LlvmTransformPass(const LlvmTransform& transform, std::string_view file_name, Failure& failure)
      : transform_(&transform), file_name_(file_name), failure_(&failure) {}

  llvm::PreservedAnalyses run(llvm::Module& module, llvm::ModuleAnalysisManager&) {
    if (*failure_) return llvm::PreservedAnalyses::all();
    try {
      transform_->run(module, file_name_);
    } catch (const CompileError& e) {
      *failure_ = e.what();
    } catch (const std::exception& e) {
      *failure_ = "internal error in clc's " + std::string(transform_->name) + ": " + e.what() + "\n";
    }
    return llvm::PreservedAnalyses::none();
  }

  static llvm::StringRef name() { return "vkcl::LlvmTransformPass"; }

 private:
  const LlvmTransform* transform_;
  std::string_view file_name_;
  Failure* failure_;
};

}  // namespace

void run_llvm_transforms(llvm::Module& module, std::span<const LlvmTransform* const> transforms,
                         std::string_view file_name) {
  llvm::LoopAnalysisManager loop_analyses;
  llvm::FunctionAnalysisManager function_analyses;
  llvm::CGSCCAnalysisManager cgscc_analyses;
  llvm::ModuleAnalysisManager module_analyses;
  llvm::PassBuilder builder;
  builder.registerModuleAnalyses(module_analyses);
  builder.registerCGSCCAnalyses(cgscc_analyses);
  builder.registerFunctionAnalyses(function_analyses);
  builder.registerLoopAnalyses(loop_analyses);
  builder.crossRegisterProxies(loop_analyses, function_analyses, cgscc_analyses, module_analyses);

  Failure failure;
  llvm::ModulePassManager passes;
  for (const LlvmTransform* transform : transforms) passes.addPass(LlvmTransformPass(*transform, file_name, failure));
  passes.run(module, module_analyses);
  if (failure) throw CompileError(*failure);
}

std::span<const LlvmTransform> llvm_transforms() { return kTransforms; }

const LlvmTransform* find_llvm_transform(std::string_view name) {
  const auto found = std::ranges::find(kTransforms, name, &LlvmTransform::name);
  return found == kTransforms.end() ? nullptr : &*found;
}

}  // namespace vkcl

#include "unroll_barrier_loops.h"

#include <algorithm>

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/TargetTransformInfo.h>
#include <llvm/Analysis/TargetTransformInfoImpl.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/InstrTypes.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>

namespace vkcl {
namespace {

bool contains_barrier(const llvm::Loop& loop) {
  return std::any_of(loop.block_begin(), loop.block_end(), [](const llvm::BasicBlock* block) {
    return std::any_of(block->begin(), block->end(), [](const llvm::Instruction& instruction) {
      const auto* call = llvm::dyn_cast<llvm::CallBase>(&instruction);
      const llvm::Function* callee = call != nullptr ? call->getCalledFunction() : nullptr;
      return callee != nullptr && callee->getName().contains("__spirv_ControlBarrier");
    });
  });
}

// LLVM's target-independent TargetTransformInfo (NoTTIImpl, which is not
// public) with vkcl's unrolling preferences.
class BarrierLoopUnrollingTTI : public llvm::TargetTransformInfoImplCRTPBase<BarrierLoopUnrollingTTI> {
 public:
  explicit BarrierLoopUnrollingTTI(const llvm::DataLayout& layout)
      : llvm::TargetTransformInfoImplCRTPBase<BarrierLoopUnrollingTTI>(layout) {}

  void getUnrollingPreferences(llvm::Loop* loop, llvm::ScalarEvolution&,
                               llvm::TargetTransformInfo::UnrollingPreferences& preferences,
                               llvm::OptimizationRemarkEmitter*) const {
    if (!contains_barrier(*loop)) return;
    preferences.Threshold = std::max(preferences.Threshold, kBarrierLoopUnrollThreshold);
    preferences.Partial = false;
    preferences.Runtime = false;
    preferences.UpperBound = false;
    preferences.AllowRemainder = false;
  }
};

}  // namespace

void register_barrier_loop_unrolling(llvm::FunctionAnalysisManager& analyses) {
  analyses.registerPass([] {
    return llvm::TargetIRAnalysis([](const llvm::Function& function) {
      return llvm::TargetTransformInfo(BarrierLoopUnrollingTTI(function.getParent()->getDataLayout()));
    });
  });
}

}  // namespace vkcl

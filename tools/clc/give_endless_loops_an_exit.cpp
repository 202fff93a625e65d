#include "give_endless_loops_an_exit.h"

#include <vector>

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>

namespace vkcl {

bool give_endless_loops_an_exit(llvm::Function& function, const llvm::LoopInfo& loops) {
  std::vector<llvm::BasicBlock*> latches;  // of the loops without exits
  for (llvm::Loop* loop : loops.getLoopsInPreorder()) {
    if (!loop->hasNoExitBlocks()) continue;
    llvm::SmallVector<llvm::BasicBlock*, 4> back_edges;
    loop->getLoopLatches(back_edges);
    // One exit is enough; an unconditional back edge takes it.
    for (llvm::BasicBlock* latch : back_edges)
      if (auto* branch = llvm::dyn_cast<llvm::BranchInst>(latch->getTerminator());
          branch != nullptr && branch->isUnconditional()) {
        latches.push_back(latch);
        break;
      }
  }
  if (latches.empty()) return false;
  llvm::LLVMContext& context = function.getContext();
  auto* never = llvm::BasicBlock::Create(context, "endless_loop_exit", &function);
  if (function.getReturnType()->isVoidTy())
    llvm::ReturnInst::Create(context, never);
  else
    llvm::ReturnInst::Create(context, llvm::PoisonValue::get(function.getReturnType()), never);
  for (llvm::BasicBlock* latch : latches) {
    auto* back_edge = llvm::cast<llvm::BranchInst>(latch->getTerminator());
    llvm::BasicBlock* header = back_edge->getSuccessor(0);
    auto* branch = llvm::BranchInst::Create(never, header, llvm::ConstantInt::getFalse(context), back_edge);
    branch->setDebugLoc(back_edge->getDebugLoc());
    back_edge->eraseFromParent();
  }
  return true;
}

}  // namespace vkcl

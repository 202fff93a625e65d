#include "rejoin_if_else.h"

#include <optional>
#include <vector>

#include <llvm/IR/CFG.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>

namespace vkcl {
namespace {

// The blocks of one serialized if/else (see the header).
struct SerialIfElse {
  llvm::BasicBlock *head, *then_end, *flow, *else_entry, *else_end, *merge;
  llvm::PHINode* from_head;  // Flow's predicate: true from H, false from A
};

llvm::BasicBlock* other_predecessor(llvm::BasicBlock* block, llvm::BasicBlock* known) {
  llvm::BasicBlock* other = nullptr;
  for (llvm::BasicBlock* p : llvm::predecessors(block)) {
    if (p == known) continue;
    if (other && other != p) return nullptr;
    other = p;
  }
  return other;
}

bool is_bool(llvm::Value* v, bool value) {
  auto* c = llvm::dyn_cast<llvm::ConstantInt>(v);
  return c && c->getType()->isIntegerTy(1) && c->getZExtValue() == uint64_t(value);
}

std::optional<SerialIfElse> match(llvm::BasicBlock* flow, const llvm::DominatorTree& dominators) {
  auto* branch = llvm::dyn_cast<llvm::BranchInst>(flow->getTerminator());
  if (!branch || !branch->isConditional()) return std::nullopt;
  auto* predicate = llvm::dyn_cast<llvm::PHINode>(branch->getCondition());
  if (!predicate || predicate->getParent() != flow || !predicate->hasOneUse()) return std::nullopt;
  if (!llvm::isa<llvm::PHINode>(flow->front()) || flow->getFirstNonPHI() != branch) return std::nullopt;
  if (predicate->getNumIncomingValues() != 2 || llvm::pred_size(flow) != 2) return std::nullopt;

  SerialIfElse s{};
  s.flow = flow;
  s.from_head = predicate;
  s.else_entry = branch->getSuccessor(0);
  s.merge = branch->getSuccessor(1);
  for (unsigned i = 0; i < 2; ++i) {
    llvm::BasicBlock* from = predicate->getIncomingBlock(i);
    if (is_bool(predicate->getIncomingValue(i), true)) s.head = from;
    else if (is_bool(predicate->getIncomingValue(i), false)) s.then_end = from;
  }
  if (!s.head || !s.then_end || s.head == s.then_end || s.else_entry == s.merge) return std::nullopt;
  // No back edges among them: M must not be a loop header over H.
  if (dominators.dominates(s.merge, s.head)) return std::nullopt;

  // H: br c, A, Flow (either order); A's end: br Flow; A dominated by H.
  auto* head_branch = llvm::dyn_cast<llvm::BranchInst>(s.head->getTerminator());
  auto* then_branch = llvm::dyn_cast<llvm::BranchInst>(s.then_end->getTerminator());
  if (!head_branch || !head_branch->isConditional() || !then_branch || then_branch->isConditional()) return std::nullopt;
  llvm::BasicBlock* then_entry = head_branch->getSuccessor(head_branch->getSuccessor(0) == flow ? 1 : 0);
  if (then_entry == flow || (head_branch->getSuccessor(0) != flow && head_branch->getSuccessor(1) != flow))
    return std::nullopt;
  if (then_entry->getSinglePredecessor() != s.head || !dominators.dominates(then_entry, s.then_end)) return std::nullopt;

  // B entered only from Flow; M only from Flow and B's end, which B dominates.
  if (s.else_entry->getSinglePredecessor() != flow || llvm::isa<llvm::PHINode>(s.else_entry->front()))
    return std::nullopt;
  s.else_end = other_predecessor(s.merge, flow);
  if (!s.else_end || llvm::pred_size(s.merge) != 2 || !dominators.dominates(s.else_entry, s.else_end)) return std::nullopt;
  if (s.else_end->getTerminator()->getNumSuccessors() != 1) return std::nullopt;

  // Flow's other phis are read only on the edge from Flow to M and within B
  // (a phi's read is where its edge starts).
  for (llvm::PHINode& phi : flow->phis())
    for (llvm::Use& use : phi.uses()) {
      auto* user = llvm::cast<llvm::Instruction>(use.getUser());
      if (user == branch) continue;
      auto* user_phi = llvm::dyn_cast<llvm::PHINode>(user);
      llvm::BasicBlock* where = user_phi ? user_phi->getIncomingBlock(use) : user->getParent();
      if (where == flow && user->getParent() == s.merge) continue;
      if (where == s.merge || !dominators.dominates(s.else_entry, where)) return std::nullopt;
    }
  return s;
}

void rejoin(const SerialIfElse& s) {
  // M's phis: the value Flow passed on from A's end now comes from A's end.
  for (llvm::PHINode& phi : s.merge->phis()) {
    const int i = phi.getBasicBlockIndex(s.flow);
    llvm::Value* value = phi.getIncomingValue(i);
    if (auto* flow_phi = llvm::dyn_cast<llvm::PHINode>(value); flow_phi && flow_phi->getParent() == s.flow)
      value = flow_phi->getIncomingValueForBlock(s.then_end);
    phi.setIncomingValue(i, value);
    phi.setIncomingBlock(i, s.then_end);
  }
  // B is now entered from H: it reads what Flow had for that edge.
  std::vector<llvm::PHINode*> flow_phis;
  for (llvm::PHINode& phi : s.flow->phis()) flow_phis.push_back(&phi);
  for (llvm::PHINode* phi : flow_phis) {
    if (phi != s.from_head) phi->replaceAllUsesWith(phi->getIncomingValueForBlock(s.head));
  }
  s.head->getTerminator()->replaceSuccessorWith(s.flow, s.else_entry);
  s.then_end->getTerminator()->replaceSuccessorWith(s.flow, s.merge);
  s.flow->eraseFromParent();  // its phis and branch go with it
}

}  // namespace

bool rejoin_if_else(llvm::Function& function) {
  bool changed = false;
  for (bool again = true; again;) {
    again = false;
    llvm::DominatorTree dominators(function);
    for (llvm::BasicBlock& block : function) {
      if (auto s = match(&block, dominators)) {
        rejoin(*s);
        changed = again = true;
        break;  // the dominator tree is stale
      }
    }
  }
  return changed;
}

}  // namespace vkcl

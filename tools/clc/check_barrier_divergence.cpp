#include "check_barrier_divergence.h"

#include <array>
#include <map>
#include <set>
#include <vector>

#include <llvm/ADT/BitVector.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include "source_locations.h"

namespace vkcl {
namespace {

// SPIR-V execution scopes of OpControlBarrier (builtins/vkcl_memory_model.h).
constexpr uint64_t kScopeWorkgroup = 2;
constexpr uint64_t kScopeSubgroup = 3;

// Work-item identifiers that differ between the work-items of one sub-group,
// and those that differ only between sub-groups of one work-group.
constexpr std::array kVaryWithinSubGroup = {"get_local_id", "get_global_id", "get_local_linear_id",
                                            "get_global_linear_id", "get_sub_group_local_id"};
constexpr std::array kVaryWithinWorkGroup = {"get_sub_group_id"};

// The identifier `value` is computed from (through SSA values only), or empty.
class Taint {
 public:
  explicit Taint(const llvm::Function& function) {
    std::vector<const llvm::Value*> work;
    for (const llvm::Instruction& instruction : llvm::instructions(function)) {
      const auto* call = llvm::dyn_cast<llvm::CallInst>(&instruction);
      if (call == nullptr || call->getCalledFunction() == nullptr) continue;
      const std::string_view name = base_name(call->getCalledFunction()->getName());
      for (const char* source : kVaryWithinSubGroup)
        if (name == source) sources_[call] = {source, true};
      for (const char* source : kVaryWithinWorkGroup)
        if (name == source) sources_[call] = {source, false};
    }
    // Forward along def-use edges; the first source to reach a value names it
    // (a value both kinds reach is marked as varying within a sub-group).
    for (const auto& [source, origin] : sources_) work.push_back(source);
    while (!work.empty()) {
      const llvm::Value* value = work.back();
      work.pop_back();
      const Origin origin = sources_.at(value);
      for (const llvm::User* user : value->users()) {
        const auto* instruction = llvm::dyn_cast<llvm::Instruction>(user);
        if (instruction == nullptr || !propagates(*instruction)) continue;
        auto [it, inserted] = sources_.try_emplace(instruction, origin);
        if (!inserted && (it->second.within_sub_group || !origin.within_sub_group)) continue;
        if (!inserted) it->second = origin;
        work.push_back(instruction);
      }
    }
  }

  struct Origin {
    const char* name = nullptr;
    bool within_sub_group = false;  // false: differs only between sub-groups
  };
  const Origin* origin(const llvm::Value* value) const {
    auto it = sources_.find(value);
    return it == sources_.end() ? nullptr : &it->second;
  }

 private:
  // Values that carry the identifier on: not through memory (loads, stores),
  // and not through calls other than those of builtins without a body.
  static bool propagates(const llvm::Instruction& instruction) {
    if (instruction.getType()->isVoidTy() || llvm::isa<llvm::LoadInst>(instruction) ||
        llvm::isa<llvm::AllocaInst>(instruction) || instruction.getType()->isPointerTy())
      return false;
    if (const auto* call = llvm::dyn_cast<llvm::CallBase>(&instruction))
      return call->getCalledFunction() != nullptr && call->getCalledFunction()->isDeclaration();
    return true;
  }

  std::map<const llvm::Value*, Origin> sources_;
};

// For each block, the blocks whose terminators decide whether it runs
// (control dependence: B depends on A's branch when B post-dominates one of
// A's successors but not A itself), among the paths that finish: a
// work-item that enters a loop no branch leaves (`for (;;)` without a break,
// or one LLVM proved endless, as OpenMM's CCMA kernel has when a macro makes
// its exit test loop-invariant) never returns, so whether it reaches a later
// barrier does not matter, and the branch into such a loop decides nothing.
// Post-dominance is computed on the blocks that can reach a return, as sets.
std::map<const llvm::BasicBlock*, std::vector<const llvm::BasicBlock*>> control_dependences(
    const llvm::Function& function) {
  std::vector<const llvm::BasicBlock*> blocks;
  std::map<const llvm::BasicBlock*, size_t> index;
  for (const llvm::BasicBlock& block : function) {
    index[&block] = blocks.size();
    blocks.push_back(&block);
  }
  const size_t n = blocks.size();
  // The blocks from which a return can be reached.
  std::vector<bool> finishes(n, false);
  std::vector<size_t> work;
  for (size_t b = 0; b < n; ++b)
    if (llvm::isa<llvm::ReturnInst>(blocks[b]->getTerminator())) finishes[b] = true, work.push_back(b);
  while (!work.empty()) {
    const size_t b = work.back();
    work.pop_back();
    for (const llvm::BasicBlock* predecessor : llvm::predecessors(blocks[b]))
      if (!finishes[index.at(predecessor)]) finishes[index.at(predecessor)] = true, work.push_back(index.at(predecessor));
  }
  auto finishing_successors = [&](size_t b) {
    std::vector<size_t> successors;
    for (const llvm::BasicBlock* successor : llvm::successors(blocks[b]))
      if (finishes[index.at(successor)]) successors.push_back(index.at(successor));
    return successors;
  };
  // pdom[b]: the blocks on every finishing path from b to a return, b included.
  std::vector<llvm::BitVector> pdom(n, llvm::BitVector(n, true));
  for (size_t b = 0; b < n; ++b)
    if (!finishes[b] || llvm::isa<llvm::ReturnInst>(blocks[b]->getTerminator())) {
      pdom[b] = llvm::BitVector(n, false);
      pdom[b].set(b);
    }
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t b = n; b-- > 0;) {
      if (!finishes[b] || llvm::isa<llvm::ReturnInst>(blocks[b]->getTerminator())) continue;
      llvm::BitVector meet(n, true);
      for (size_t s : finishing_successors(b)) meet &= pdom[s];
      meet.set(b);
      if (meet != pdom[b]) pdom[b] = std::move(meet), changed = true;
    }
  }
  std::map<const llvm::BasicBlock*, std::vector<const llvm::BasicBlock*>> deciders;
  for (size_t a = 0; a < n; ++a) {
    const std::vector<size_t> successors = finishing_successors(a);
    if (!finishes[a] || successors.size() < 2) continue;
    llvm::BitVector decided(n, false);
    for (size_t s : successors) decided |= pdom[s];
    const bool self = decided.test(a);  // a loop's header decides whether it runs again
    decided.reset(pdom[a]);  // what runs whichever way A goes
    if (self) decided.set(a);
    for (unsigned x : decided.set_bits()) deciders[blocks[x]].push_back(blocks[a]);
  }
  return deciders;
}

// The condition of a conditional branch or switch; null otherwise.
const llvm::Value* condition_of(const llvm::Instruction* terminator) {
  if (const auto* branch = llvm::dyn_cast<llvm::BranchInst>(terminator))
    return branch->isConditional() ? branch->getCondition() : nullptr;
  if (const auto* switch_ = llvm::dyn_cast<llvm::SwitchInst>(terminator)) return switch_->getCondition();
  return nullptr;
}

// The branch on a varying identifier that `block` depends on, directly or
// through the branches that decide whether those run; null when none.
const llvm::Instruction* divergent_decider(
    const llvm::BasicBlock* block, bool sub_group_barrier,
    const std::map<const llvm::BasicBlock*, std::vector<const llvm::BasicBlock*>>& deciders, const Taint& taint) {
  std::set<const llvm::BasicBlock*> visited{block};
  std::vector<const llvm::BasicBlock*> work{block};
  while (!work.empty()) {
    const llvm::BasicBlock* current = work.back();
    work.pop_back();
    auto it = deciders.find(current);
    if (it == deciders.end()) continue;
    for (const llvm::BasicBlock* decider : it->second) {
      const Taint::Origin* origin = taint.origin(condition_of(decider->getTerminator()));
      if (origin != nullptr && (origin->within_sub_group || !sub_group_barrier)) return decider->getTerminator();
      if (visited.insert(decider).second) work.push_back(decider);
    }
  }
  return nullptr;
}

}  // namespace

std::string warn_divergent_barriers(const llvm::Module& module, std::string_view file_name) {
  std::string warnings;
  std::set<std::string> seen;
  for (const llvm::Function& function : module) {
    if (function.isDeclaration()) continue;
    std::vector<const llvm::CallInst*> barriers;
    for (const llvm::Instruction& instruction : llvm::instructions(function)) {
      const auto* call = llvm::dyn_cast<llvm::CallInst>(&instruction);
      if (call == nullptr || call->getCalledFunction() == nullptr || call->arg_size() < 1 ||
          !call->getCalledFunction()->getName().contains("__spirv_ControlBarrier"))
        continue;
      barriers.push_back(call);
    }
    if (barriers.empty()) continue;

    const Taint taint(function);
    const auto deciders = control_dependences(function);
    for (const llvm::CallInst* barrier : barriers) {
      const auto* scope = llvm::dyn_cast<llvm::ConstantInt>(barrier->getArgOperand(0));
      if (scope == nullptr) continue;  // an error already (check_calls)
      const bool sub_group = scope->getZExtValue() == kScopeSubgroup;
      if (!sub_group && scope->getZExtValue() != kScopeWorkgroup) continue;
      const llvm::Instruction* branch = divergent_decider(barrier->getParent(), sub_group, deciders, taint);
      if (branch == nullptr) continue;
      const Taint::Origin* origin = taint.origin(condition_of(branch));
      const std::string group = sub_group ? "sub-group" : "work-group";
      std::string text = location_of(*barrier, file_name) + ": warning: " + (sub_group ? "sub-group " : "") +
                         "barrier may be reached by only part of the " + group + ": whether it runs depends on " +
                         origin->name + "(); every work-item of the " + group +
                         " must reach it, or none (OpenCL C: the behaviour is otherwise undefined)\n";
      text += inlining_notes(*barrier, file_name);
      text += location_of(*branch, file_name) + ": note: the branch on a value computed from " + origin->name +
              "() is here\n";
      if (seen.insert(text).second) warnings += text;
    }
  }
  return warnings;
}

}  // namespace vkcl

#include "bound_work_item_dimensions.h"

#include <array>
#include <string>
#include <vector>

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

namespace vkcl {
namespace {

struct WorkItemFunction {
  const char* name;
  uint64_t beyond;  // the value for a dimension index above 2
};

constexpr std::array kFunctions = {
    WorkItemFunction{"get_global_size", 1}, WorkItemFunction{"get_local_size", 1},
    WorkItemFunction{"get_enqueued_local_size", 1}, WorkItemFunction{"get_num_groups", 1},
    WorkItemFunction{"get_global_id", 0}, WorkItemFunction{"get_local_id", 0},
    WorkItemFunction{"get_group_id", 0}, WorkItemFunction{"get_global_offset", 0},
};

// The Itanium mangling of `name(uint)`, as clang emits it for OpenCL C.
std::string mangled(const char* name) { return "_Z" + std::to_string(std::string(name).size()) + name + "j"; }

void bound_calls(llvm::Function& function, uint64_t beyond) {
  std::vector<llvm::CallInst*> calls;
  for (llvm::User* user : function.users())
    if (auto* call = llvm::dyn_cast<llvm::CallInst>(user); call && call->getCalledFunction() == &function)
      calls.push_back(call);
  for (llvm::CallInst* call : calls) {
    llvm::Value* index = call->getArgOperand(0);
    llvm::Constant* value = llvm::ConstantInt::get(call->getType(), beyond);
    if (auto* constant = llvm::dyn_cast<llvm::ConstantInt>(index)) {
      if (constant->getZExtValue() <= 2) continue;
      call->replaceAllUsesWith(value);
      call->eraseFromParent();
      continue;
    }
    llvm::IRBuilder<> builder(call->getNextNode());
    llvm::Value* in_range = builder.CreateICmpULT(index, llvm::ConstantInt::get(index->getType(), 3), "dimension.in.range");
    auto* select = llvm::cast<llvm::SelectInst>(builder.CreateSelect(in_range, call, value, "work.item.value"));
    call->replaceAllUsesWith(select);
    select->setOperand(1, call);  // replaceAllUsesWith rewrote the select's own operand
  }
}

}  // namespace

void bound_work_item_dimensions(llvm::Module& module) {
  for (const WorkItemFunction& f : kFunctions)
    if (llvm::Function* function = module.getFunction(mangled(f.name))) bound_calls(*function, f.beyond);
}

}  // namespace vkcl

#include "widen_half_divisions.h"

#include <vector>

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

namespace vkcl {

void widen_half_divisions(llvm::Module& module) {
  std::vector<llvm::BinaryOperator*> divisions;
  for (llvm::Function& function : module)
    for (llvm::Instruction& instruction : llvm::instructions(function))
      if (auto* division = llvm::dyn_cast<llvm::BinaryOperator>(&instruction);
          division && division->getOpcode() == llvm::Instruction::FDiv &&
          division->getType()->getScalarType()->isHalfTy() && !division->hasAllowReciprocal())
        divisions.push_back(division);
  for (llvm::BinaryOperator* division : divisions) {
    llvm::IRBuilder<> builder(division);
    builder.setFastMathFlags(division->getFastMathFlags());
    llvm::Type* half_type = division->getType();
    llvm::Type* float_type = half_type->getWithNewType(builder.getFloatTy());
    llvm::Value* x = builder.CreateFPExt(division->getOperand(0), float_type, "dividend.float");
    llvm::Value* y = builder.CreateFPExt(division->getOperand(1), float_type, "divisor.float");
    llvm::Value* quotient = builder.CreateFDiv(x, y, "quotient.float");
    llvm::Value* rounded = builder.CreateFPTrunc(quotient, half_type);
    rounded->takeName(division);
    division->replaceAllUsesWith(rounded);
    division->eraseFromParent();
  }
}

}  // namespace vkcl

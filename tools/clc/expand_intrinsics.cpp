#include "expand_intrinsics.h"

#include <vector>

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>

namespace vkcl {
namespace {

llvm::Value* expand(llvm::IntrinsicInst& call) {
  llvm::IRBuilder<> b(&call);
  llvm::Value* x = call.getArgOperand(0);
  llvm::Value* y = call.getArgOperand(1);
  llvm::Type* type = call.getType();
  const unsigned width = type->getScalarSizeInBits();
  auto constant = [&](const llvm::APInt& value) { return llvm::ConstantInt::get(type, value); };
  llvm::Value* zero = llvm::Constant::getNullValue(type);
  switch (call.getIntrinsicID()) {
    case llvm::Intrinsic::uadd_sat: {
      llvm::Value* sum = b.CreateAdd(x, y);
      return b.CreateSelect(b.CreateICmpULT(sum, x), llvm::Constant::getAllOnesValue(type), sum);
    }
    case llvm::Intrinsic::usub_sat:
      return b.CreateSelect(b.CreateICmpULT(x, y), zero, b.CreateSub(x, y));
    case llvm::Intrinsic::sadd_sat:
    case llvm::Intrinsic::ssub_sat: {
      const bool add = call.getIntrinsicID() == llvm::Intrinsic::sadd_sat;
      llvm::Value* result = add ? b.CreateAdd(x, y) : b.CreateSub(x, y);
      // Overflow: the operands' signs (equal for +, different for -) and the result's disagree.
      llvm::Value* disagree = add ? b.CreateAnd(b.CreateXor(x, result), b.CreateXor(y, result))
                                  : b.CreateAnd(b.CreateXor(x, y), b.CreateXor(x, result));
      llvm::Value* saturated = b.CreateSelect(b.CreateICmpSLT(x, zero), constant(llvm::APInt::getSignedMinValue(width)),
                                              constant(llvm::APInt::getSignedMaxValue(width)));
      return b.CreateSelect(b.CreateICmpSLT(disagree, zero), saturated, result);
    }
    case llvm::Intrinsic::fshl:
    case llvm::Intrinsic::fshr: {
      // fshl(x, y, n) = x << n | y >> (width - n); fshr(x, y, n) = x << (width - n) | y >> n; n mod width.
      const bool left = call.getIntrinsicID() == llvm::Intrinsic::fshl;
      llvm::Value* mask = constant(llvm::APInt(width, width - 1));
      llvm::Value* n = b.CreateAnd(call.getArgOperand(2), mask);
      llvm::Value* other = b.CreateAnd(b.CreateSub(zero, n), mask);
      llvm::Value* shifted = b.CreateOr(b.CreateShl(x, left ? n : other), b.CreateLShr(y, left ? other : n));
      return b.CreateSelect(b.CreateICmpEQ(n, zero), left ? x : y, shifted);
    }
    default:
      return nullptr;
  }
}

}  // namespace

void expand_intrinsics_for_translator(llvm::Module& module) {
  std::vector<llvm::IntrinsicInst*> calls;
  std::vector<llvm::FreezeInst*> freezes;
  for (llvm::Function& function : module)
    for (llvm::Instruction& instruction : llvm::instructions(function))
      if (auto* freeze = llvm::dyn_cast<llvm::FreezeInst>(&instruction)) {
        freezes.push_back(freeze);
      } else if (auto* call = llvm::dyn_cast<llvm::IntrinsicInst>(&instruction)) {
        switch (call->getIntrinsicID()) {
          case llvm::Intrinsic::uadd_sat: case llvm::Intrinsic::usub_sat: case llvm::Intrinsic::sadd_sat:
          case llvm::Intrinsic::ssub_sat: case llvm::Intrinsic::fshl: case llvm::Intrinsic::fshr:
            calls.push_back(call);
            break;
          default:
            break;
        }
      }
  // freeze stops poison from spreading; SPIR-V has no poison, and its
  // values are what freeze would pick.
  for (llvm::FreezeInst* freeze : freezes) {
    freeze->replaceAllUsesWith(freeze->getOperand(0));
    freeze->eraseFromParent();
  }
  for (llvm::IntrinsicInst* call : calls) {
    llvm::Value* replacement = expand(*call);
    call->replaceAllUsesWith(replacement);
    call->eraseFromParent();
  }
}

}  // namespace vkcl

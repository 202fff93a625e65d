#include "scale_huge_divisors.h"

#include <cmath>
#include <vector>

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

namespace vkcl {
namespace {

constexpr float kLargestSafeDivisor = 0x1p126f;

// Whether `divisor` is a constant whose every component is at most 2^126 in
// magnitude (or NaN): its reciprocal is normal, and the division needs nothing.
bool is_safe_constant(const llvm::Value* divisor) {
  const auto* constant = llvm::dyn_cast<llvm::Constant>(divisor);
  if (constant == nullptr) return false;
  auto safe = [](const llvm::Constant* c) {
    const auto* fp = llvm::dyn_cast_or_null<llvm::ConstantFP>(c);
    return fp != nullptr && !(std::fabs(fp->getValueAPF().convertToFloat()) > kLargestSafeDivisor);
  };
  if (const auto* vector_type = llvm::dyn_cast<llvm::FixedVectorType>(constant->getType())) {
    for (unsigned i = 0; i < vector_type->getNumElements(); ++i)
      if (!safe(constant->getAggregateElement(i))) return false;
    return true;
  }
  return safe(constant);
}

void scale(llvm::BinaryOperator& division) {
  llvm::IRBuilder<> builder(&division);
  builder.setFastMathFlags(division.getFastMathFlags());
  llvm::Value* x = division.getOperand(0);
  llvm::Value* y = division.getOperand(1);
  llvm::Type* type = division.getType();
  // Two comparisons rather than one of fabs(y): the same to the driver, and
  // LLVM's interpreter (the tests') has no fabs.
  llvm::Value* huge =
      builder.CreateOr(builder.CreateFCmpOGT(y, llvm::ConstantFP::get(type, double(kLargestSafeDivisor))),
                       builder.CreateFCmpOLT(y, llvm::ConstantFP::get(type, -double(kLargestSafeDivisor))),
                       "divisor.huge");
  llvm::Constant* quarter = llvm::ConstantFP::get(type, 0.25);
  llvm::Value* scaled_x = builder.CreateSelect(huge, builder.CreateFMul(x, quarter), x, "dividend.scaled");
  llvm::Value* scaled_y = builder.CreateSelect(huge, builder.CreateFMul(y, quarter), y, "divisor.scaled");
  division.setOperand(0, scaled_x);
  division.setOperand(1, scaled_y);
}

}  // namespace

void scale_huge_divisors(llvm::Module& module) {
  std::vector<llvm::BinaryOperator*> divisions;
  for (llvm::Function& function : module)
    for (llvm::Instruction& instruction : llvm::instructions(function))
      if (auto* division = llvm::dyn_cast<llvm::BinaryOperator>(&instruction);
          division && division->getOpcode() == llvm::Instruction::FDiv &&
          division->getType()->getScalarType()->isFloatTy() && !division->hasAllowReciprocal() &&
          !is_safe_constant(division->getOperand(1)))
        divisions.push_back(division);
  for (llvm::BinaryOperator* division : divisions) scale(*division);
}

}  // namespace vkcl

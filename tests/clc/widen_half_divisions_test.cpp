// widen_half_divisions (tools/clc), on LLVM IR: half divisions, scalar and
// vector, become float divisions of the widened operands, rounded back to
// half once; float and double divisions and those that may use a
// reciprocal stay as they are.
#include <gtest/gtest.h>

#include <llvm/IR/Instructions.h>

#include "llvm_ir.h"
#include "widen_half_divisions.h"

namespace vkcl {
namespace {

constexpr const char* kDivisions = R"IR(
define half @scalar(half %x, half %y) {
  %q = fdiv half %x, %y
  ret half %q
}
define <4 x half> @vector(<4 x half> %x, <4 x half> %y) {
  %q = fdiv <4 x half> %x, %y
  ret <4 x half> %q
}
define half @reciprocal_allowed(half %x, half %y) {
  %q = fdiv arcp half %x, %y
  ret half %q
}
define float @in_float(float %x, float %y) {
  %q = fdiv float %x, %y
  ret float %q
}
)IR";

// The element types of the function's fdiv instructions, in order.
std::vector<llvm::Type*> division_types(const llvm::Function& function) {
  std::vector<llvm::Type*> types;
  for (const llvm::Instruction& i : llvm::instructions(function))
    if (i.getOpcode() == llvm::Instruction::FDiv) types.push_back(i.getType()->getScalarType());
  return types;
}

TEST(WidenHalfDivisions, HalfDivisionsAreDoneInFloatAndRoundedOnce) {
  llvm::LLVMContext context;
  context.setOpaquePointers(false);
  std::unique_ptr<llvm::Module> module = testing::parse_ir(kDivisions, context);
  ASSERT_NE(module, nullptr);
  widen_half_divisions(*module);
  EXPECT_EQ(testing::verify_ir(*module), "");
  llvm::Type* half = llvm::Type::getHalfTy(context);
  llvm::Type* single = llvm::Type::getFloatTy(context);
  for (const char* name : {"scalar", "vector"}) {
    SCOPED_TRACE(name);
    const llvm::Function& function = *module->getFunction(name);
    EXPECT_EQ(division_types(function), std::vector<llvm::Type*>{single});
    int extensions = 0, truncations = 0;
    for (const llvm::Instruction& i : llvm::instructions(function)) {
      extensions += llvm::isa<llvm::FPExtInst>(i);
      truncations += llvm::isa<llvm::FPTruncInst>(i);
    }
    EXPECT_EQ(extensions, 2);
    EXPECT_EQ(truncations, 1);
    // The function returns the rounded quotient.
    const auto* ret = llvm::cast<llvm::ReturnInst>(function.back().getTerminator());
    EXPECT_TRUE(llvm::isa<llvm::FPTruncInst>(ret->getReturnValue()));
  }
  EXPECT_EQ(division_types(*module->getFunction("reciprocal_allowed")), std::vector<llvm::Type*>{half});
  EXPECT_EQ(division_types(*module->getFunction("in_float")), std::vector<llvm::Type*>{single});
}

}  // namespace
}  // namespace vkcl

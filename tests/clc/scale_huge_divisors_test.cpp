// scale_huge_divisors (tools/clc), on LLVM IR: float divisions, scalar and
// vector, get the scaling and keep their quotients (in LLVM's interpreter,
// whose division is exact, for divisors on both sides of 2^126, infinities
// and NaN); divisions that may use a reciprocal, by a small constant, and in
// double precision stay as they are.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>

#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>

#include "llvm_ir.h"
#include "scale_huge_divisors.h"

namespace vkcl {
namespace {

constexpr const char* kDivisions = R"IR(
define float @scalar(float %x, float %y) {
  %q = fdiv float %x, %y
  ret float %q
}
define <4 x float> @vector(<4 x float> %x, <4 x float> %y) {
  %q = fdiv <4 x float> %x, %y
  ret <4 x float> %q
}
define float @reciprocal_allowed(float %x, float %y) {
  %q = fdiv arcp float %x, %y
  ret float %q
}
define float @by_two(float %x) {
  %q = fdiv float %x, 2.0
  ret float %q
}
define float @by_huge_constant(float %x) {
  %q = fdiv float %x, 0x47E0000000000000
  ret float %q
}
define double @in_double(double %x, double %y) {
  %q = fdiv double %x, %y
  ret double %q
}
)IR";

int selects_in(const llvm::Function& function) {
  int n = 0;
  for (const llvm::Instruction& instruction : llvm::instructions(function)) n += llvm::isa<llvm::SelectInst>(instruction);
  return n;
}

TEST(ScaleHugeDivisors, ScalesFloatDivisionsThatMayMeetAHugeDivisorOnly) {
  llvm::LLVMContext context;
  context.setOpaquePointers(false);
  std::unique_ptr<llvm::Module> module = testing::parse_ir(kDivisions, context);
  ASSERT_NE(module, nullptr);
  scale_huge_divisors(*module);
  EXPECT_EQ(testing::verify_ir(*module), "");
  EXPECT_EQ(selects_in(*module->getFunction("scalar")), 2);
  EXPECT_EQ(selects_in(*module->getFunction("vector")), 2);
  EXPECT_EQ(selects_in(*module->getFunction("reciprocal_allowed")), 0);
  EXPECT_EQ(selects_in(*module->getFunction("by_two")), 0);
  // The constant divisor's select folds: x * 1/4 (selected, as ever) by 2^125.
  EXPECT_EQ(selects_in(*module->getFunction("by_huge_constant")), 1);
  for (const llvm::Instruction& i : llvm::instructions(*module->getFunction("by_huge_constant")))
    if (i.getOpcode() == llvm::Instruction::FDiv)
      EXPECT_EQ(llvm::cast<llvm::ConstantFP>(i.getOperand(1))->getValueAPF().convertToFloat(), 0x1p125f);
  EXPECT_EQ(selects_in(*module->getFunction("in_double")), 0);
}

TEST(ScaleHugeDivisors, QuotientsStayTheSame) {
  llvm::LLVMContext before_context, after_context;
  before_context.setOpaquePointers(false);
  after_context.setOpaquePointers(false);
  std::unique_ptr<llvm::Module> after_module = testing::parse_ir(kDivisions, after_context);
  ASSERT_NE(after_module, nullptr);
  scale_huge_divisors(*after_module);
  auto before = testing::interpreter(testing::parse_ir(kDivisions, before_context));
  auto after = testing::interpreter(std::move(after_module));
  ASSERT_TRUE(before && after);
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  const float values[] = {0x1p114f, -0x1.94d522p+10f, 0x1.531286p+110f, 1.5f,   0x1p-120f,   0x1p-149f, 0.0f,
                          -0.0f,    0x1.fffffep127f,  0x1p126f,         0x1.000002p126f, -0x1.f08002p+127f, inf,
                          -inf,     nan};
  for (float x : values)
    for (float y : values) {
      llvm::GenericValue a, b;
      a.FloatVal = x;
      b.FloatVal = y;
      const float want = before->runFunction(before->FindFunctionNamed("scalar"), {a, b}).FloatVal;
      const float got = after->runFunction(after->FindFunctionNamed("scalar"), {a, b}).FloatVal;
      if (std::isnan(want)) {
        EXPECT_TRUE(std::isnan(got)) << x << " / " << y;
      } else if (std::fabs(want) >= 0x1p-126f || want == 0.0f) {
        // Exact as before (x * 1/4 loses bits only where the quotient is
        // below 2^-250: 0 either way).
        EXPECT_EQ(std::bit_cast<uint32_t>(got), std::bit_cast<uint32_t>(want)) << x << " / " << y;
      } else {
        // A subnormal quotient: the scaled dividend may lose its last bits.
        EXPECT_NEAR(got, want, 0x1p-148f) << x << " / " << y;
      }
    }
}

}  // namespace
}  // namespace vkcl

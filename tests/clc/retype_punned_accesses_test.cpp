// retype_punned_accesses (tools/clc), on LLVM IR: loads and stores through
// a private or local pointer cast to another type of the same size become
// accesses of the memory's own type with the value bitcast. The functions
// run in LLVM's interpreter before and after the pass and must agree; the
// rewritten module must verify and hold no pointer cast in those address
// spaces. A cast the pass does not handle (to a wider type) stays for the
// lowering to reject.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>

#include <llvm/ExecutionEngine/GenericValue.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Operator.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include "llvm_ir.h"
#include "retype_punned_accesses.h"

namespace vkcl {
namespace {

// Private memory is address space 0, local memory 3 (SPIR's numbering).
constexpr const char* kPunnedAccesses = R"IR(
@tile = internal addrspace(3) global [8 x half] zeroinitializer

define i32 @read_float_bits(i32 %i, float %v) {
  %a = alloca [4 x float]
  %p = getelementptr [4 x float], [4 x float]* %a, i32 0, i32 %i
  store float %v, float* %p
  %q = bitcast float* %p to i32*
  %bits = load i32, i32* %q
  ret i32 %bits
}

define float @write_float_bits(i32 %i, i32 %b) {
  %a = alloca [4 x float]
  %p = getelementptr [4 x float], [4 x float]* %a, i32 0, i32 %i
  %q = bitcast float* %p to i32*
  store i32 %b, i32* %q
  %f = load float, float* %p
  ret float %f
}

define i16 @local_half_bits(i32 %i, half %h) {
  %p = getelementptr [8 x half], [8 x half] addrspace(3)* @tile, i32 0, i32 %i
  store half %h, half addrspace(3)* %p
  %q = bitcast half addrspace(3)* %p to i16 addrspace(3)*
  %bits = load i16, i16 addrspace(3)* %q
  ret i16 %bits
}

define i16 @local_constant_cast() {
  %bits = load i16, i16 addrspace(3)* bitcast (half addrspace(3)* getelementptr ([8 x half], [8 x half] addrspace(3)* @tile, i32 0, i32 3) to i16 addrspace(3)*)
  ret i16 %bits
}
)IR";

// Pointer casts (instructions or constant expressions) in private or local
// memory: each counts once, and once more for each use by an instruction.
int pointer_casts(const llvm::Module& module) {
  return testing::count_values(module, [](const llvm::Value* value) {
    const auto* op = llvm::dyn_cast<llvm::Operator>(value);
    if (op == nullptr || op->getOpcode() != llvm::Instruction::BitCast || !value->getType()->isPointerTy()) return false;
    if (!llvm::isa<llvm::Instruction>(value) && !llvm::isa<llvm::ConstantExpr>(value)) return false;
    const unsigned space = value->getType()->getPointerAddressSpace();
    return space == 0 || space == 3;
  });
}

TEST(RetypePunnedAccesses, AccessesTakeTheMemorysTypeAndComputeTheSame) {
  llvm::LLVMContext context;
  context.setOpaquePointers(false);  // as clc's modules
  std::unique_ptr<llvm::Module> original = testing::parse_ir(kPunnedAccesses, context);
  ASSERT_NE(original, nullptr);
  ASSERT_GT(pointer_casts(*original), 0);
  std::unique_ptr<llvm::Module> retyped = llvm::CloneModule(*original);
  retype_punned_accesses(*retyped);
  ASSERT_EQ(testing::verify_ir(*retyped), "");
  EXPECT_EQ(pointer_casts(*retyped), 0) << testing::print_ir(*retyped);

  std::unique_ptr<llvm::ExecutionEngine> before = testing::interpreter(std::move(original));
  std::unique_ptr<llvm::ExecutionEngine> after = testing::interpreter(std::move(retyped));
  ASSERT_TRUE(before && after);
  for (float v : {1.5f, -0.0f, 3.14159f, 1e-40f}) {
    llvm::GenericValue index, value;
    index.IntVal = llvm::APInt(32, 2);
    value.FloatVal = v;
    const uint64_t want = before->runFunction(before->FindFunctionNamed("read_float_bits"), {index, value}).IntVal.getZExtValue();
    const uint64_t got = after->runFunction(after->FindFunctionNamed("read_float_bits"), {index, value}).IntVal.getZExtValue();
    EXPECT_EQ(got, want) << v;
    EXPECT_EQ(got, std::bit_cast<uint32_t>(v)) << v;
  }
  for (uint32_t bits : {0x40490FDBu, 0x80000000u, 0x00000001u}) {
    llvm::GenericValue index, value;
    index.IntVal = llvm::APInt(32, 1);
    value.IntVal = llvm::APInt(32, bits);
    const float got = after->runFunction(after->FindFunctionNamed("write_float_bits"), {index, value}).FloatVal;
    EXPECT_EQ(std::bit_cast<uint32_t>(got), bits);
  }
}

// A cast to a wider type is no reinterpretation of one element: it stays.
TEST(RetypePunnedAccesses, ACastToAWiderTypeIsLeftForTheLowering) {
  llvm::LLVMContext context;
  context.setOpaquePointers(false);
  std::unique_ptr<llvm::Module> module = testing::parse_ir(R"IR(
define i64 @wide(i32 %i) {
  %a = alloca [4 x float]
  %p = getelementptr [4 x float], [4 x float]* %a, i32 0, i32 %i
  %q = bitcast float* %p to i64*
  %bits = load i64, i64* %q
  ret i64 %bits
}
)IR", context);
  ASSERT_NE(module, nullptr);
  retype_punned_accesses(*module);
  EXPECT_EQ(testing::verify_ir(*module), "");
  EXPECT_GT(pointer_casts(*module), 0) << testing::print_ir(*module);
}

}  // namespace
}  // namespace vkcl

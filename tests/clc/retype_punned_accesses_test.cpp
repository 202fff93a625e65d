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

#include "compile_error.h"
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

// `text` as given and retyped, each in LLVM's interpreter; the retyped
// module must verify and hold no pointer cast in private or local memory.
struct BeforeAndAfter {
  std::unique_ptr<llvm::ExecutionEngine> before, after;
};
BeforeAndAfter retyped_pair(const char* text, llvm::LLVMContext& context) {
  std::unique_ptr<llvm::Module> original = testing::parse_ir(text, context);
  if (original == nullptr) return {};
  EXPECT_GT(pointer_casts(*original), 0);
  std::unique_ptr<llvm::Module> retyped = llvm::CloneModule(*original);
  retype_punned_accesses(*retyped);
  EXPECT_EQ(testing::verify_ir(*retyped), "");
  EXPECT_EQ(pointer_casts(*retyped), 0) << testing::print_ir(*retyped);
  return {testing::interpreter(std::move(original)), testing::interpreter(std::move(retyped))};
}

TEST(RetypePunnedAccesses, AccessesTakeTheMemorysTypeAndComputeTheSame) {
  llvm::LLVMContext context;
  context.setOpaquePointers(false);  // as clc's modules
  auto [before, after] = retyped_pair(kPunnedAccesses, context);
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

// Vectors read and written as their components (vload and vstore of a cast
// __local or __private vector pointer): each access goes to its vector's
// component, steps summed, and the bytes are the same.
constexpr const char* kComponentViews = R"IR(
@pairs = internal addrspace(3) global [4 x <2 x i8>] zeroinitializer

define i32 @local_pairs_as_bytes(i32 %k) {
  store <2 x i8> <i8 1, i8 2>, <2 x i8> addrspace(3)* getelementptr ([4 x <2 x i8>], [4 x <2 x i8>] addrspace(3)* @pairs, i32 0, i32 0)
  store <2 x i8> <i8 3, i8 4>, <2 x i8> addrspace(3)* getelementptr ([4 x <2 x i8>], [4 x <2 x i8>] addrspace(3)* @pairs, i32 0, i32 1)
  store <2 x i8> <i8 5, i8 6>, <2 x i8> addrspace(3)* getelementptr ([4 x <2 x i8>], [4 x <2 x i8>] addrspace(3)* @pairs, i32 0, i32 2)
  store <2 x i8> <i8 7, i8 8>, <2 x i8> addrspace(3)* getelementptr ([4 x <2 x i8>], [4 x <2 x i8>] addrspace(3)* @pairs, i32 0, i32 3)
  %base = getelementptr [4 x <2 x i8>], [4 x <2 x i8>] addrspace(3)* @pairs, i32 0, i32 0
  %flat = bitcast <2 x i8> addrspace(3)* %base to i8 addrspace(3)*
  %p = getelementptr i8, i8 addrspace(3)* %flat, i32 %k
  %b = load i8, i8 addrspace(3)* %p
  %q = getelementptr i8, i8 addrspace(3)* %p, i32 1
  %c = load i8, i8 addrspace(3)* %q
  %bz = zext i8 %b to i32
  %cz = zext i8 %c to i32
  %high = shl i32 %cz, 8
  %r = or i32 %bz, %high
  ret i32 %r
}

; What LLVM makes of vload2(k, (local uchar*)pairs + 1): a component index
; past the vector's end, and a vector load from an element pointer.
define i32 @local_pairs_past_the_component(i32 %k) {
  store <2 x i8> <i8 1, i8 2>, <2 x i8> addrspace(3)* getelementptr ([4 x <2 x i8>], [4 x <2 x i8>] addrspace(3)* @pairs, i32 0, i32 0)
  store <2 x i8> <i8 3, i8 4>, <2 x i8> addrspace(3)* getelementptr ([4 x <2 x i8>], [4 x <2 x i8>] addrspace(3)* @pairs, i32 0, i32 1)
  store <2 x i8> <i8 5, i8 6>, <2 x i8> addrspace(3)* getelementptr ([4 x <2 x i8>], [4 x <2 x i8>] addrspace(3)* @pairs, i32 0, i32 2)
  store <2 x i8> <i8 7, i8 8>, <2 x i8> addrspace(3)* getelementptr ([4 x <2 x i8>], [4 x <2 x i8>] addrspace(3)* @pairs, i32 0, i32 3)
  %p = getelementptr inbounds [4 x <2 x i8>], [4 x <2 x i8>] addrspace(3)* @pairs, i64 0, i64 0, i32 %k
  %q = getelementptr inbounds i8, i8 addrspace(3)* %p, i64 1
  %v = bitcast i8 addrspace(3)* %q to <2 x i8> addrspace(3)*
  %w = load <2 x i8>, <2 x i8> addrspace(3)* %v, align 1
  %b = extractelement <2 x i8> %w, i32 0
  %c = extractelement <2 x i8> %w, i32 1
  %bz = zext i8 %b to i32
  %cz = zext i8 %c to i32
  %high = shl i32 %cz, 8
  %r = or i32 %bz, %high
  ret i32 %r
}

define i32 @private_quads_written_as_ints(i32 %k) {
  %a = alloca [2 x <4 x i32>]
  %v0 = getelementptr [2 x <4 x i32>], [2 x <4 x i32>]* %a, i32 0, i32 0
  store <4 x i32> zeroinitializer, <4 x i32>* %v0
  %v1 = getelementptr [2 x <4 x i32>], [2 x <4 x i32>]* %a, i32 0, i32 1
  store <4 x i32> zeroinitializer, <4 x i32>* %v1
  %flat = bitcast [2 x <4 x i32>]* %a to i32*
  %p = getelementptr i32, i32* %flat, i32 %k
  store i32 %k, i32* %p
  %first = load i32, i32* %flat
  %w0 = load <4 x i32>, <4 x i32>* %v0
  %w1 = load <4 x i32>, <4 x i32>* %v1
  %e = extractelement <4 x i32> %w1, i32 1
  %x = extractelement <4 x i32> %w0, i32 3
  %s = add i32 %e, %x
  %t = add i32 %s, %first
  ret i32 %t
}
)IR";

TEST(RetypePunnedAccesses, VectorsReadAsTheirComponentsGoToTheComponent) {
  llvm::LLVMContext context;
  context.setOpaquePointers(false);
  auto [before, after] = retyped_pair(kComponentViews, context);
  ASSERT_TRUE(before && after);
  testing::expect_same_results(*before, *after, {"local_pairs_as_bytes", "local_pairs_past_the_component"},
                               {0, 1, 2, 3, 4, 5}, "retyped");
  testing::expect_same_results(*before, *after, {"private_quads_written_as_ints"}, {0, 1, 3, 5, 7}, "retyped");
  llvm::GenericValue k;
  k.IntVal = llvm::APInt(32, 3);
  EXPECT_EQ(after->runFunction(after->FindFunctionNamed("local_pairs_as_bytes"), {k}).IntVal.getZExtValue(),
            0x0504u);  // bytes 3 and 4: the second pair's second, the third's first
}

// An array of 3-component vectors has a padding component between its
// vectors, which Vulkan cannot address: the retyper leaves the access as it
// is, for lower_reinterpreted_memory, rather than rewrite it into other
// bytes.
TEST(RetypePunnedAccesses, ThreeComponentVectorsAsComponentsAreLeftAlone) {
  llvm::LLVMContext context;
  context.setOpaquePointers(false);
  const char* text = R"IR(
define i8 @triples(i32 %k) {
  %a = alloca [4 x <3 x i8>]
  %p = getelementptr inbounds [4 x <3 x i8>], [4 x <3 x i8>]* %a, i64 0, i64 0, i32 %k
  store i8 7, i8* %p
  %b = load i8, i8* %p
  ret i8 %b
}
)IR";
  std::unique_ptr<llvm::Module> module = testing::parse_ir(text, context);
  ASSERT_NE(module, nullptr);
  const std::string printed = testing::print_ir(*module);
  retype_punned_accesses(*module, "t.cl");
  EXPECT_EQ(testing::print_ir(*module), printed);
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

// lower_reinterpreted_memory (tools/clc), on LLVM IR: __private and __local
// memory read as another type, or whose address becomes an integer, is laid
// out as 32-bit words. The functions run in LLVM's interpreter before and
// after the pass and must agree (the interpreter's memory has real
// addresses and bytes, so "before" is what OpenCL says); the rewritten
// module must verify and hold no pointer cast, ptrtoint or inttoptr in
// those address spaces. The test module defines the three __spirv_Atomic*
// functions a __local arena's partial words use, so that the interpreter
// can run them.
#include <gtest/gtest.h>

#include <llvm/ExecutionEngine/GenericValue.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Operator.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include "compile_error.h"
#include "llvm_ir.h"
#include "lower_reinterpreted_memory.h"

namespace vkcl {
namespace {

constexpr const char* kReinterpreted = R"IR(
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"
@bytes = internal addrspace(3) global [16 x i8] undef, align 4
@triples = internal addrspace(3) global [4 x <3 x i16>] undef, align 8

define i32 @_Z17__spirv_AtomicAndPU3AS3Vjjjj(i32 addrspace(3)* %p, i32 %s, i32 %m, i32 %v) {
  %old = load i32, i32 addrspace(3)* %p
  %new = and i32 %old, %v
  store i32 %new, i32 addrspace(3)* %p
  ret i32 %old
}
define i32 @_Z16__spirv_AtomicOrPU3AS3Vjjjj(i32 addrspace(3)* %p, i32 %s, i32 %m, i32 %v) {
  %old = load i32, i32 addrspace(3)* %p
  %new = or i32 %old, %v
  store i32 %new, i32 addrspace(3)* %p
  ret i32 %old
}
define i32 @_Z18__spirv_AtomicLoadPU3AS3Vjjj(i32 addrspace(3)* %p, i32 %s, i32 %m) {
  %v = load i32, i32 addrspace(3)* %p
  ret i32 %v
}

; hashcat's shape: words hashed as bytes, at a run-time index.
define i32 @private_words_read_as_bytes(i32 %k) {
  %w = alloca [4 x i32], align 4
  %w0 = getelementptr [4 x i32], [4 x i32]* %w, i32 0, i32 0
  store i32 u0x04030201, i32* %w0
  %w1 = getelementptr [4 x i32], [4 x i32]* %w, i32 0, i32 1
  store i32 u0x08070605, i32* %w1
  %w2 = getelementptr [4 x i32], [4 x i32]* %w, i32 0, i32 2
  store i32 u0xfcfdfeff, i32* %w2
  %w3 = getelementptr [4 x i32], [4 x i32]* %w, i32 0, i32 3
  store i32 %k, i32* %w3
  %b = bitcast [4 x i32]* %w to i8*
  %i = and i32 %k, 15
  %p = getelementptr i8, i8* %b, i32 %i
  %v = load i8, i8* %p
  %r = sext i8 %v to i32
  ret i32 %r
}

; Bytes and half-words written, the word read back, and a half-word at an
; odd half-word offset.
define i32 @private_bytes_written_word_read(i32 %k) {
  %w = alloca [2 x i32], align 4
  %b = bitcast [2 x i32]* %w to i8*
  %w0 = getelementptr [2 x i32], [2 x i32]* %w, i32 0, i32 0
  store i32 0, i32* %w0
  %w1 = getelementptr [2 x i32], [2 x i32]* %w, i32 0, i32 1
  store i32 -1, i32* %w1
  %i = and i32 %k, 7
  %p = getelementptr i8, i8* %b, i32 %i
  %kb = trunc i32 %k to i8
  store i8 %kb, i8* %p
  %h = bitcast i8* %b to i16*
  %h3 = getelementptr i16, i16* %h, i32 3
  store i16 4660, i16* %h3
  %a = load i32, i32* %w0
  %c = load i32, i32* %w1
  %r = xor i32 %a, %c
  ret i32 %r
}

; An int read at a byte offset the program does not align (align 1), and a
; long across two words.
define i32 @private_unaligned_reads(i32 %k) {
  %w = alloca [4 x i32], align 8
  %w0 = getelementptr [4 x i32], [4 x i32]* %w, i32 0, i32 0
  store i32 u0x44332211, i32* %w0
  %w1 = getelementptr [4 x i32], [4 x i32]* %w, i32 0, i32 1
  store i32 u0x88776655, i32* %w1
  %w2 = getelementptr [4 x i32], [4 x i32]* %w, i32 0, i32 2
  store i32 %k, i32* %w2
  %b = bitcast [4 x i32]* %w to i8*
  %i = and i32 %k, 7
  %p = getelementptr i8, i8* %b, i32 %i
  %q = bitcast i8* %p to i32*
  %u = load i32, i32* %q, align 1
  %l = bitcast [4 x i32]* %w to i64*
  %l1 = getelementptr i64, i64* %l, i32 1
  %long = load i64, i64* %l1, align 8
  %lt = trunc i64 %long to i32
  %r = add i32 %u, %lt
  ret i32 %r
}

; An int3 array read as its ints (piglit's v3i32-stack-array, the CTS's
; vload3 of private memory): the padding component is skipped.
define i32 @private_triples_as_ints(i32 %k) {
  %a = alloca [2 x <3 x i32>], align 16
  %v0 = getelementptr [2 x <3 x i32>], [2 x <3 x i32>]* %a, i32 0, i32 0
  store <3 x i32> <i32 4, i32 5, i32 6>, <3 x i32>* %v0, align 16
  %v1 = getelementptr [2 x <3 x i32>], [2 x <3 x i32>]* %a, i32 0, i32 1
  store <3 x i32> <i32 7, i32 8, i32 9>, <3 x i32>* %v1, align 16
  %flat = bitcast [2 x <3 x i32>]* %a to i32*
  %i = urem i32 %k, 3
  %j = add i32 %i, 4
  %p = getelementptr i32, i32* %flat, i32 %i
  %q = getelementptr i32, i32* %flat, i32 %j
  %x = load i32, i32* %p
  %y = load i32, i32* %q
  %s = mul i32 %y, 100
  %r = add i32 %x, %s
  ret i32 %r
}

; The address as an integer: aligned as declared, and turned back into a
; pointer it reaches the same object.
define i32 @private_address_round_trip(i32 %k) {
  %v = alloca <4 x i32>, align 16
  %d = alloca i32, align 4
  store <4 x i32> <i32 10, i32 11, i32 12, i32 13>, <4 x i32>* %v, align 16
  store i32 %k, i32* %d
  %a = ptrtoint <4 x i32>* %v to i64
  %low = and i64 %a, 15
  %aligned = icmp eq i64 %low, 0
  %i = and i32 %k, 3
  %i64 = zext i32 %i to i64
  %step = shl i64 %i64, 2
  %b = add i64 %a, %step
  %p = inttoptr i64 %b to i32*
  %x = load i32, i32* %p
  %flag = zext i1 %aligned to i32
  %f = mul i32 %flag, 1000
  %r = add i32 %x, %f
  ret i32 %r
}

; A pointer difference, and two objects chosen at run time, one of them
; reinterpreted.
define i32 @private_chosen_and_subtracted(i32 %k) {
  %a = alloca [4 x i32], align 4
  %c = alloca [4 x i32], align 4
  %a0 = getelementptr [4 x i32], [4 x i32]* %a, i32 0, i32 0
  store i32 u0x01020304, i32* %a0
  %c0 = getelementptr [4 x i32], [4 x i32]* %c, i32 0, i32 0
  store i32 u0x0a0b0c0d, i32* %c0
  %c2 = getelementptr [4 x i32], [4 x i32]* %c, i32 0, i32 2
  %odd = and i32 %k, 1
  %pick = icmp eq i32 %odd, 0
  %which = select i1 %pick, i32* %a0, i32* %c0
  %bytes = bitcast i32* %which to i8*
  %second = getelementptr i8, i8* %bytes, i32 1
  %v = load i8, i8* %second
  %vz = zext i8 %v to i32
  %x = ptrtoint i32* %c2 to i64
  %y = ptrtoint i32* %c0 to i64
  %diff = sub i64 %x, %y
  %dt = trunc i64 %diff to i32
  %dd = mul i32 %dt, 1000
  %r = add i32 %vz, %dd
  ret i32 %r
}

; __local bytes written one at a time (each a partial word) and read as
; words; a 3-component short vector array read as its shorts.
define i32 @local_bytes_as_words(i32 %k) {
  %w = bitcast [16 x i8] addrspace(3)* @bytes to i32 addrspace(3)*
  store i32 0, i32 addrspace(3)* %w
  %i = and i32 %k, 3
  %p = getelementptr [16 x i8], [16 x i8] addrspace(3)* @bytes, i32 0, i32 %i
  store i8 7, i8 addrspace(3)* %p
  %q = getelementptr [16 x i8], [16 x i8] addrspace(3)* @bytes, i32 0, i32 2
  store i8 9, i8 addrspace(3)* %q
  %x = load i32, i32 addrspace(3)* %w
  %b = load i8, i8 addrspace(3)* %p
  %bz = zext i8 %b to i32
  %r = add i32 %x, %bz
  ret i32 %r
}

define i32 @local_triples_as_shorts(i32 %k) {
  %t0 = getelementptr [4 x <3 x i16>], [4 x <3 x i16>] addrspace(3)* @triples, i32 0, i32 0
  store <3 x i16> <i16 1, i16 2, i16 3>, <3 x i16> addrspace(3)* %t0, align 8
  %t1 = getelementptr [4 x <3 x i16>], [4 x <3 x i16>] addrspace(3)* @triples, i32 0, i32 1
  store <3 x i16> <i16 4, i16 5, i16 6>, <3 x i16> addrspace(3)* %t1, align 8
  %s = bitcast [4 x <3 x i16>] addrspace(3)* @triples to i16 addrspace(3)*
  %i = and i32 %k, 7
  %c = and i32 %k, 3
  %skip = icmp eq i32 %c, 3
  %j = select i1 %skip, i32 0, i32 %i
  %p = getelementptr i16, i16 addrspace(3)* %s, i32 %j
  %v = load i16, i16 addrspace(3)* %p, align 2
  %r = zext i16 %v to i32
  ret i32 %r
}
)IR";

// Casts, ptrtoint and inttoptr of private or local pointers.
int reinterpretations(const llvm::Module& module) {
  return testing::count_values(module, [](const llvm::Value* value) {
    const auto* op = llvm::dyn_cast<llvm::Operator>(value);
    if (op == nullptr) return false;
    const llvm::Value* pointer = nullptr;
    if (op->getOpcode() == llvm::Instruction::BitCast || op->getOpcode() == llvm::Instruction::IntToPtr) pointer = op;
    if (op->getOpcode() == llvm::Instruction::PtrToInt) pointer = op->getOperand(0);
    if (pointer == nullptr || !pointer->getType()->isPointerTy()) return false;
    const unsigned space = pointer->getType()->getPointerAddressSpace();
    return space == 0 || space == 3;
  });
}

TEST(LowerReinterpretedMemory, WordsComputeWhatTheBytesDid) {
  llvm::LLVMContext context;
  context.setOpaquePointers(false);  // as clc's modules
  std::unique_ptr<llvm::Module> original = testing::parse_ir(kReinterpreted, context);
  ASSERT_NE(original, nullptr);
  EXPECT_GT(reinterpretations(*original), 0);
  std::unique_ptr<llvm::Module> lowered = llvm::CloneModule(*original);
  lower_reinterpreted_memory(*lowered, "t.cl");
  EXPECT_EQ(testing::verify_ir(*lowered), "");
  EXPECT_EQ(reinterpretations(*lowered), 0) << testing::print_ir(*lowered);
  auto before = testing::interpreter(std::move(original));
  auto after = testing::interpreter(std::move(lowered));
  ASSERT_TRUE(before && after);
  const std::vector<int32_t> arguments = {0, 1, 2, 3, 4, 5, 6, 7, 9, 14, 15, -3};
  testing::expect_same_results(*before, *after,
                               {"private_words_read_as_bytes", "private_bytes_written_word_read",
                                "private_unaligned_reads", "private_triples_as_ints", "local_bytes_as_words",
                                "local_triples_as_shorts"},
                               arguments, "in words");
  // Worked out by hand where the interpreter's addresses would differ.
  for (int32_t k : arguments) {
    llvm::GenericValue argument;
    argument.IntVal = llvm::APInt(32, uint64_t(uint32_t(k)));
    EXPECT_EQ(after->runFunction(after->FindFunctionNamed("private_address_round_trip"), {argument})
                  .IntVal.getSExtValue(),
              1010 + (k & 3))
        << k;
    // Byte 1 of 0x01020304 or 0x0a0b0c0d, and two ints apart.
    EXPECT_EQ(after->runFunction(after->FindFunctionNamed("private_chosen_and_subtracted"), {argument})
                  .IntVal.getSExtValue(),
              (k & 1 ? 0x0c : 0x03) + 8000)
        << k;
  }
}

// Memory nobody reinterprets keeps its type: the pass leaves the module as
// it was.
TEST(LowerReinterpretedMemory, MemoryReadAsItsOwnTypeIsUntouched) {
  llvm::LLVMContext context;
  context.setOpaquePointers(false);
  const char* text = R"IR(
@tile = internal addrspace(3) global [8 x float] undef
define float @plain(i32 %i, float %v) {
  %a = alloca [4 x float]
  %p = getelementptr [4 x float], [4 x float]* %a, i32 0, i32 %i
  store float %v, float* %p
  %q = getelementptr [8 x float], [8 x float] addrspace(3)* @tile, i32 0, i32 %i
  store float %v, float addrspace(3)* %q
  %x = load float, float* %p
  %y = load float, float addrspace(3)* %q
  %r = fadd float %x, %y
  ret float %r
}
)IR";
  std::unique_ptr<llvm::Module> module = testing::parse_ir(text, context);
  ASSERT_NE(module, nullptr);
  const std::string printed = testing::print_ir(*module);
  lower_reinterpreted_memory(*module, "t.cl");
  EXPECT_EQ(testing::print_ir(*module), printed);
}

// A pointer into reinterpreted memory stored in memory has no Vulkan form:
// an error at the store, not a wrong answer.
TEST(LowerReinterpretedMemory, APointerStoredInMemoryIsAnError) {
  llvm::LLVMContext context;
  context.setOpaquePointers(false);
  std::unique_ptr<llvm::Module> module = testing::parse_ir(R"IR(
define i8 @escapes(i32 %k, i8** %slot) {
  %w = alloca [4 x i32]
  %b = bitcast [4 x i32]* %w to i8*
  store i8* %b, i8** %slot
  %v = load i8, i8* %b
  ret i8 %v
}
)IR", context);
  ASSERT_NE(module, nullptr);
  try {
    lower_reinterpreted_memory(*module, "t.cl");
    ADD_FAILURE() << "no CompileError";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("t.cl: error: a pointer to __private memory"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("is stored in memory"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace vkcl

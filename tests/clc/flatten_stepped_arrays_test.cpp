// flatten_stepped_arrays (tools/clc), on LLVM IR as clang leaves it before
// the optimizer: which arrays of arrays become flat, and that every function
// computes the same in LLVM's interpreter before and after.
#include <gtest/gtest.h>

#include <algorithm>

#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include "flatten_stepped_arrays.h"
#include "llvm_ir.h"

namespace vkcl {
namespace {

// Each function fills its array with element offsets times ten (a[i][j] =
// (i * columns + j) * 10, through its indices) and reads it back through a
// pointer stepped by %k. Private memory is address space 0, local 3,
// constant 2.
constexpr const char* kStepped = R"IR(
@tile = internal addrspace(3) global [3 x [4 x i32]] undef
@table = internal addrspace(2) constant [2 x [3 x i32]] [[3 x i32] [i32 0, i32 10, i32 20], [3 x i32] [i32 30, i32 40, i32 50]]

define internal void @fill(i32* %p, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %q = getelementptr inbounds i32, i32* %p, i32 %i
  %v = mul i32 %i, 10
  store i32 %v, i32* %q
  %next = add i32 %i, 1
  %more = icmp slt i32 %next, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}

; int a[4][4]; int* p = &a[0][0]; p[k]
define i32 @private_step(i32 %k) {
  %a = alloca [4 x [4 x i32]]
  %row = getelementptr inbounds [4 x [4 x i32]], [4 x [4 x i32]]* %a, i64 0, i64 0
  %p = getelementptr inbounds [4 x i32], [4 x i32]* %row, i64 0, i64 0
  call void @fill(i32* %p, i32 16)
  %k64 = sext i32 %k to i64
  %q = getelementptr inbounds i32, i32* %p, i64 %k64
  %r = load i32, i32* %q
  ret i32 %r
}

; A row pointer stepped (int (*r)[4] = &a[1]; r[k - 1][2]), and a step back.
define i32 @row_step(i32 %k) {
  %a = alloca [4 x [4 x i32]]
  %first = getelementptr inbounds [4 x [4 x i32]], [4 x [4 x i32]]* %a, i64 0, i64 0, i64 0
  call void @fill(i32* %first, i32 16)
  %r = getelementptr inbounds [4 x [4 x i32]], [4 x [4 x i32]]* %a, i64 0, i64 1
  %km1 = sub i32 %k, 1
  %row = getelementptr inbounds [4 x i32], [4 x i32]* %r, i32 %km1
  %e = getelementptr inbounds [4 x i32], [4 x i32]* %row, i64 0, i64 2
  %back = getelementptr inbounds i32, i32* %e, i64 -3
  %x = load i32, i32* %back
  ret i32 %x
}

; A __local array reached through constant expressions, stepped in a loop
; until a pointer comparison, the count from a pointer difference.
define i32 @local_walk(i32 %k) {
entry:
  call void @fill_local()
  %start = getelementptr inbounds i32, i32 addrspace(3)* getelementptr inbounds ([3 x [4 x i32]], [3 x [4 x i32]] addrspace(3)* @tile, i64 0, i64 0, i64 0), i32 %k
  %end = getelementptr inbounds [3 x [4 x i32]], [3 x [4 x i32]] addrspace(3)* @tile, i64 0, i64 2, i64 3
  br label %loop
loop:
  %q = phi i32 addrspace(3)* [ %start, %entry ], [ %next, %loop ]
  %sum = phi i32 [ 0, %entry ], [ %sum.next, %loop ]
  %v = load i32, i32 addrspace(3)* %q
  %sum.next = add i32 %sum, %v
  %next = getelementptr inbounds i32, i32 addrspace(3)* %q, i32 1
  %more = icmp ule i32 addrspace(3)* %next, %end
  br i1 %more, label %loop, label %done
done:
  %qi = ptrtoint i32 addrspace(3)* %q to i64
  %si = ptrtoint i32 addrspace(3)* %start to i64
  %bytes = sub i64 %qi, %si
  %count = trunc i64 %bytes to i32
  %scaled = mul i32 %count, 1000
  %r = add i32 %sum.next, %scaled
  ret i32 %r
}

define internal void @fill_local() {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %row = udiv i32 %i, 4
  %column = urem i32 %i, 4
  %q = getelementptr inbounds [3 x [4 x i32]], [3 x [4 x i32]] addrspace(3)* @tile, i32 0, i32 %row, i32 %column
  %v = mul i32 %i, 10
  store i32 %v, i32 addrspace(3)* %q
  %next = add i32 %i, 1
  %more = icmp slt i32 %next, 12
  br i1 %more, label %loop, label %done
done:
  ret void
}

; A __constant table's initializer, read through a stepped element pointer.
define i32 @constant_step(i32 %k) {
  %p = getelementptr inbounds [2 x [3 x i32]], [2 x [3 x i32]] addrspace(2)* @table, i64 0, i64 0, i64 1
  %q = getelementptr inbounds i32, i32 addrspace(2)* %p, i32 %k
  %r = load i32, i32 addrspace(2)* %q
  ret i32 %r
}

; Vectors' components reached through a stepped vector pointer.
define i32 @vector_step(i32 %k) {
  %a = alloca [2 x [2 x <2 x i32>]]
  %v00 = getelementptr inbounds [2 x [2 x <2 x i32>]], [2 x [2 x <2 x i32>]]* %a, i64 0, i64 0, i64 0
  %flat = bitcast <2 x i32>* %v00 to i32*
  call void @fill(i32* %flat, i32 8)
  %q = getelementptr inbounds <2 x i32>, <2 x i32>* %v00, i32 %k
  %c = getelementptr inbounds <2 x i32>, <2 x i32>* %q, i64 0, i64 1
  %r = load i32, i32* %c
  ret i32 %r
}

; A struct's array of arrays, stepped through; the struct's other member kept.
%struct.M = type { i32, [2 x [3 x i32]] }
define i32 @struct_member_step(i32 %k) {
  %s = alloca %struct.M
  %n = getelementptr inbounds %struct.M, %struct.M* %s, i32 0, i32 0
  store i32 7, i32* %n
  %m = getelementptr inbounds %struct.M, %struct.M* %s, i32 0, i32 1, i64 0, i64 0
  call void @fill(i32* %m, i32 6)
  %q = getelementptr inbounds i32, i32* %m, i32 %k
  %v = load i32, i32* %q
  %n2 = load i32, i32* %n
  %r = add i32 %v, %n2
  ret i32 %r
}

; A choice between two element pointers, then a step.
define i32 @chosen_step(i32 %k) {
  %a = alloca [2 x [4 x i32]]
  %first = getelementptr inbounds [2 x [4 x i32]], [2 x [4 x i32]]* %a, i64 0, i64 0, i64 0
  call void @fill(i32* %first, i32 8)
  %x = getelementptr inbounds [2 x [4 x i32]], [2 x [4 x i32]]* %a, i64 0, i64 0, i64 2
  %y = getelementptr inbounds [2 x [4 x i32]], [2 x [4 x i32]]* %a, i64 0, i64 1, i64 0
  %odd = and i32 %k, 1
  %c = icmp ne i32 %odd, 0
  %p = select i1 %c, i32* %y, i32* %x
  %h = lshr i32 %k, 1
  %q = getelementptr inbounds i32, i32* %p, i32 %h
  %r = load i32, i32* %q
  ret i32 %r
}
)IR";

// Arrays read only through their own indices are left as they are.
constexpr const char* kIndexedOnly = R"IR(
@tile = internal addrspace(3) global [4 x [8 x float]] undef

define float @transpose_read(i32 %x) {
  %a = alloca [4 x [4 x float]]
  %e = getelementptr inbounds [4 x [4 x float]], [4 x [4 x float]]* %a, i32 0, i32 1, i32 %x
  store float 1.0, float* %e
  %l = getelementptr inbounds [4 x [8 x float]], [4 x [8 x float]] addrspace(3)* @tile, i32 0, i32 %x, i32 3
  store float 2.0, float addrspace(3)* %l
  %row = getelementptr inbounds [4 x [8 x float]], [4 x [8 x float]] addrspace(3)* @tile, i32 0, i32 %x
  %m = getelementptr inbounds [8 x float], [8 x float] addrspace(3)* %row, i32 0, i32 3
  %v = load float, float addrspace(3)* %m
  %w = load float, float* %e
  %r = fadd float %v, %w
  ret float %r
}
)IR";

// Arrays of arrays held by variables, directly or in a struct.
bool holds_array_of_arrays(llvm::Type* type) {
  if (auto* structure = llvm::dyn_cast<llvm::StructType>(type))
    return std::any_of(structure->element_begin(), structure->element_end(), holds_array_of_arrays);
  return type->isArrayTy() && (type->getArrayElementType()->isArrayTy() || holds_array_of_arrays(type->getArrayElementType()));
}

int arrays_of_arrays(const llvm::Module& module) {
  int n = 0;
  for (const llvm::GlobalVariable& global : module.globals())
    n += holds_array_of_arrays(global.getValueType());
  for (const llvm::Function& function : module)
    for (const llvm::Instruction& instruction : llvm::instructions(function))
      if (const auto* alloca = llvm::dyn_cast<llvm::AllocaInst>(&instruction))
        n += holds_array_of_arrays(alloca->getAllocatedType());
  return n;
}

TEST(FlattenSteppedArrays, SteppedArraysBecomeFlatAndComputeTheSame) {
  llvm::LLVMContext context;
  context.setOpaquePointers(false);  // as clc's modules
  std::unique_ptr<llvm::Module> original = testing::parse_ir(kStepped, context);
  ASSERT_TRUE(original);
  std::unique_ptr<llvm::Module> flat = llvm::CloneModule(*original);
  EXPECT_EQ(flatten_stepped_arrays(*flat), 7);
  EXPECT_EQ(testing::verify_ir(*flat), "");
  EXPECT_EQ(arrays_of_arrays(*flat), 0) << testing::print_ir(*flat);
  auto before = testing::interpreter(std::move(original));
  auto after = testing::interpreter(std::move(flat));
  ASSERT_TRUE(before && after);
  testing::expect_same_results(*before, *after, {"private_step", "row_step"}, {0, 1, 3, 4, 5, 9, 15}, "flattened");
  testing::expect_same_results(*before, *after, {"local_walk"}, {0, 1, 4, 6, 11}, "flattened");
  testing::expect_same_results(*before, *after, {"constant_step"}, {-1, 0, 1, 2, 4}, "flattened");
  testing::expect_same_results(*before, *after, {"vector_step"}, {0, 1, 2, 3}, "flattened");
  testing::expect_same_results(*before, *after, {"chosen_step"}, {0, 1, 2, 3, 4, 5}, "flattened");
  testing::expect_same_results(*before, *after, {"struct_member_step"}, {0, 2, 3, 5}, "flattened");
  // The interpreter follows LLVM's byte semantics, which the original
  // meets too; these are what C says the reads are.
  auto call = [&](const char* name, int32_t k) {
    llvm::GenericValue argument;
    argument.IntVal = llvm::APInt(32, uint64_t(uint32_t(k)));
    return after->runFunction(after->FindFunctionNamed(name), {argument}).IntVal.getSExtValue();
  };
  EXPECT_EQ(call("private_step", 5), 50);
  EXPECT_EQ(call("row_step", 2), 70);  // a[2][2] is offset 10, three back 7
  EXPECT_EQ(call("local_walk", 6), (60 + 70 + 80 + 90 + 100 + 110) + 5 * 4 * 1000);
  EXPECT_EQ(call("constant_step", 4), 50);
  EXPECT_EQ(call("vector_step", 2), 50);
  EXPECT_EQ(call("chosen_step", 3), 50);  // a[1][0] + 1
  EXPECT_EQ(call("struct_member_step", 4), 47);
}

TEST(FlattenSteppedArrays, ArraysReadThroughTheirIndicesStayAsTheyAre) {
  llvm::LLVMContext context;
  context.setOpaquePointers(false);
  std::unique_ptr<llvm::Module> module = testing::parse_ir(kIndexedOnly, context);
  ASSERT_TRUE(module);
  const std::string text = testing::print_ir(*module);
  EXPECT_EQ(flatten_stepped_arrays(*module), 0);
  EXPECT_EQ(testing::print_ir(*module), text);
}

}  // namespace
}  // namespace vkcl

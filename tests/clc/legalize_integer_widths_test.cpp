// legalize_integer_widths (tools/clc), on LLVM IR: functions computing with
// i3, i5, i21 and i33 values (every operation the pass widens: arithmetic
// that wraps, signed and unsigned division, shifts, every comparison, phis,
// selects, switches, vectors, conversions to and from float) run in LLVM's
// interpreter before and after the pass, for many arguments: the results must
// agree, the widened module must verify, and no integer of another width
// than 1, 8, 16, 32 or 64 bits may remain. Operations the pass cannot widen
// are errors that name the operation.
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include <llvm/AsmParser/Parser.h>
#include <llvm/ExecutionEngine/ExecutionEngine.h>
#include <llvm/ExecutionEngine/GenericValue.h>
#include <llvm/ExecutionEngine/Interpreter.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include "compile_error.h"
#include "legalize_integer_widths.h"
#include "llvm_ir.h"

namespace vkcl {
namespace {

// Every function takes an i32 and returns an i32; divisors are nonzero and
// shift amounts below the width, so that no result is poison.
constexpr const char* kFunctions = R"IR(
define i32 @arithmetic(i32 %x) {
  %a = trunc i32 %x to i3
  %x3 = lshr i32 %x, 3
  %b = trunc i32 %x3 to i3
  %amount = urem i3 %b, 3
  %divisor = or i3 %b, 1
  %positive = and i3 %divisor, 3
  %add = add i3 %a, %b
  %sub = sub nsw i3 %a, %b
  %mul = mul i3 %add, %sub
  %shl = shl i3 %mul, %amount
  %and = and i3 %a, %b
  %or = or i3 %a, %b
  %xor = xor i3 %shl, %or
  %lshr = lshr i3 %a, %amount
  %ashr = ashr i3 %a, %amount
  %udiv = udiv i3 %a, %divisor
  %urem = urem i3 %a, %divisor
  %sdiv = sdiv i3 %a, %positive
  %srem = srem i3 %a, %positive
  %r0 = zext i3 %xor to i32
  %r1 = sext i3 %sub to i32
  %r2 = zext i3 %and to i32
  %r3 = sext i3 %lshr to i32
  %r4 = sext i3 %ashr to i32
  %r5 = zext i3 %udiv to i32
  %r6 = zext i3 %urem to i32
  %r7 = sext i3 %sdiv to i32
  %r8 = sext i3 %srem to i32
  %p1 = mul i32 %r1, 7
  %p2 = shl i32 %r2, 6
  %p3 = mul i32 %r3, 513
  %p4 = mul i32 %r4, 4099
  %p5 = shl i32 %r5, 15
  %p6 = shl i32 %r6, 18
  %p7 = mul i32 %r7, 2097153
  %p8 = mul i32 %r8, 16777259
  %s1 = xor i32 %r0, %p1
  %s2 = xor i32 %s1, %p2
  %s3 = xor i32 %s2, %p3
  %s4 = xor i32 %s3, %p4
  %s5 = xor i32 %s4, %p5
  %s6 = xor i32 %s5, %p6
  %s7 = xor i32 %s6, %p7
  %s8 = xor i32 %s7, %p8
  ret i32 %s8
}

define i32 @comparisons(i32 %x) {
  %a = trunc i32 %x to i5
  %x5 = lshr i32 %x, 5
  %b = trunc i32 %x5 to i5
  %eq = icmp eq i5 %a, %b
  %ne = icmp ne i5 %a, %b
  %ugt = icmp ugt i5 %a, %b
  %uge = icmp uge i5 %a, %b
  %ult = icmp ult i5 %a, %b
  %ule = icmp ule i5 %a, %b
  %sgt = icmp sgt i5 %a, %b
  %sge = icmp sge i5 %a, %b
  %slt = icmp slt i5 %a, %b
  %sle = icmp sle i5 %a, %b
  %neg = icmp slt i5 %a, -3
  %max = select i1 %sgt, i5 %a, i5 %b
  %b0 = zext i1 %eq to i32
  %b1 = zext i1 %ne to i32
  %b2 = zext i1 %ugt to i32
  %b3 = zext i1 %uge to i32
  %b4 = zext i1 %ult to i32
  %b5 = zext i1 %ule to i32
  %b6 = zext i1 %sgt to i32
  %b7 = zext i1 %sge to i32
  %b8 = zext i1 %slt to i32
  %b9 = zext i1 %sle to i32
  %b10 = zext i1 %neg to i32
  %m = sext i5 %max to i32
  %c1 = shl i32 %b1, 1
  %c2 = shl i32 %b2, 2
  %c3 = shl i32 %b3, 3
  %c4 = shl i32 %b4, 4
  %c5 = shl i32 %b5, 5
  %c6 = shl i32 %b6, 6
  %c7 = shl i32 %b7, 7
  %c8 = shl i32 %b8, 8
  %c9 = shl i32 %b9, 9
  %c10 = shl i32 %b10, 10
  %cm = shl i32 %m, 11
  %o1 = or i32 %b0, %c1
  %o2 = or i32 %o1, %c2
  %o3 = or i32 %o2, %c3
  %o4 = or i32 %o3, %c4
  %o5 = or i32 %o4, %c5
  %o6 = or i32 %o5, %c6
  %o7 = or i32 %o6, %c7
  %o8 = or i32 %o7, %c8
  %o9 = or i32 %o8, %c9
  %o10 = or i32 %o9, %c10
  %o11 = xor i32 %o10, %cm
  ret i32 %o11
}

define i32 @switches(i32 %x) {
entry:
  %a = trunc i32 %x to i3
  switch i3 %a, label %other [
    i3 0, label %zero
    i3 -4, label %four
    i3 -1, label %seven
    i3 2, label %two
  ]
zero:
  br label %join
four:
  br label %join
seven:
  br label %join
two:
  br label %join
other:
  %wide = sext i32 %x to i33
  %masked = and i33 %wide, 4294967296
  switch i33 %masked, label %join [
    i33 4294967296, label %high
  ]
high:
  br label %join
join:
  %r = phi i3 [ 1, %zero ], [ -2, %four ], [ 3, %seven ], [ %a, %two ], [ -4, %other ], [ -1, %high ]
  %z = zext i3 %r to i32
  ret i32 %z
}

define i32 @loop(i32 %x) {
entry:
  %n = and i32 %x, 15
  %start = trunc i32 %x to i5
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %next, %body ]
  %acc = phi i5 [ %start, %entry ], [ %acc.next, %body ]
  %step = mul i5 %acc, 3
  %acc.next = add i5 %step, 11
  %next = add i32 %i, 1
  %done = icmp uge i32 %next, %n
  br i1 %done, label %exit, label %body
exit:
  %r = sext i5 %acc.next to i32
  ret i32 %r
}

define i32 @wide(i32 %x) {
  %a = sext i32 %x to i33
  %b = mul i33 %a, 3
  %c = add i33 %b, -4294967295
  %d = lshr i33 %c, 1
  %e = ashr i33 %c, 7
  %neg = icmp slt i33 %c, 0
  %t = trunc i33 %d to i32
  %u = trunc i33 %e to i21
  %v = sext i21 %u to i32
  %n = zext i1 %neg to i32
  %s1 = xor i32 %t, %v
  %s2 = add i32 %s1, %n
  ret i32 %s2
}

define i32 @vectors(i32 %x) {
  %a = trunc i32 %x to i3
  %x3 = lshr i32 %x, 3
  %b = trunc i32 %x3 to i3
  %v0 = insertelement <2 x i3> undef, i3 %a, i32 0
  %v1 = insertelement <2 x i3> %v0, i3 %b, i32 1
  %w = add <2 x i3> %v1, <i3 3, i3 -3>
  %s = shufflevector <2 x i3> %w, <2 x i3> %v1, <2 x i32> <i32 1, i32 2>
  %lt = icmp slt <2 x i3> %s, %w
  %e0 = extractelement <2 x i3> %s, i32 0
  %e1 = extractelement <2 x i3> %s, i32 1
  %l0 = extractelement <2 x i1> %lt, i32 0
  %l1 = extractelement <2 x i1> %lt, i32 1
  %r0 = zext i3 %e0 to i32
  %r1 = sext i3 %e1 to i32
  %q0 = zext i1 %l0 to i32
  %q1 = zext i1 %l1 to i32
  %p1 = shl i32 %r1, 3
  %p2 = shl i32 %q0, 20
  %p3 = shl i32 %q1, 21
  %o1 = xor i32 %r0, %p1
  %o2 = or i32 %o1, %p2
  %o3 = or i32 %o2, %p3
  ret i32 %o3
}

define i32 @floats(i32 %x) {
  %a = trunc i32 %x to i5
  %u = uitofp i5 %a to float
  %s = sitofp i5 %a to float
  %sum = fadd float %u, %s
  %half = fmul float %s, 0.5
  %i = fptosi float %half to i7
  %j = fptoui float %u to i6
  %r1 = fptosi float %sum to i32
  %r2 = sext i7 %i to i32
  %r3 = zext i6 %j to i32
  %p2 = shl i32 %r2, 8
  %p3 = shl i32 %r3, 16
  %o1 = xor i32 %r1, %p2
  %o2 = xor i32 %o1, %p3
  ret i32 %o2
}
)IR";

bool has_illegal_integer(const llvm::Module& module) {
  return testing::count_values(module, [](const llvm::Value* value) {
           const auto* integer = llvm::dyn_cast<llvm::IntegerType>(value->getType()->getScalarType());
           if (integer == nullptr) return false;
           const unsigned w = integer->getBitWidth();
           return w != 1 && w != 8 && w != 16 && w != 32 && w != 64;
         }) > 0;
}

using testing::interpreter;

std::unique_ptr<llvm::Module> parse(const std::string& text, llvm::LLVMContext& context) {
  return testing::parse_ir(text, context);
}

TEST(LegalizeIntegerWidths, WidenedFunctionsComputeTheSame) {
  llvm::LLVMContext context;
  context.setOpaquePointers(false);  // as clc's modules
  std::unique_ptr<llvm::Module> original = parse(kFunctions, context);
  ASSERT_NE(original, nullptr);
  std::unique_ptr<llvm::Module> widened = llvm::CloneModule(*original);
  legalize_integer_widths(*widened, "test.ll");

  std::string problems;
  llvm::raw_string_ostream problems_stream(problems);
  ASSERT_FALSE(llvm::verifyModule(*widened, &problems_stream)) << problems_stream.str();
  std::string text;
  llvm::raw_string_ostream text_stream(text);
  widened->print(text_stream, nullptr);
  EXPECT_FALSE(has_illegal_integer(*widened)) << text_stream.str();

  std::vector<std::string> names;
  for (const llvm::Function& function : *original) names.push_back(function.getName().str());
  std::unique_ptr<llvm::ExecutionEngine> before = interpreter(std::move(original));
  std::unique_ptr<llvm::ExecutionEngine> after = interpreter(std::move(widened));
  ASSERT_TRUE(before && after);

  std::vector<int32_t> arguments;
  for (int32_t x = -600; x <= 600; ++x) arguments.push_back(x);
  for (int32_t x : {INT32_MIN, INT32_MAX, INT32_MIN + 1, INT32_MAX - 1, 0x40000000, -0x40000000}) arguments.push_back(x);
  std::mt19937 rng(7);
  for (int i = 0; i < 400; ++i) arguments.push_back(int32_t(rng()));
  testing::expect_same_results(*before, *after, names, arguments, "widened");
}

// LLVM's interpreter has no freeze: the widened freeze is checked by form.
TEST(LegalizeIntegerWidths, FreezeBecomesItsWidenedOperand) {
  llvm::LLVMContext context;
  context.setOpaquePointers(false);
  std::unique_ptr<llvm::Module> module = parse(
      "define i32 @f(i32 %x) {\n  %t = trunc i32 %x to i3\n  %f = freeze i3 %t\n  %z = zext i3 %f to i32\n"
      "  ret i32 %z\n}\n", context);
  ASSERT_NE(module, nullptr);
  legalize_integer_widths(*module, "test.ll");
  EXPECT_FALSE(llvm::verifyModule(*module, &llvm::errs()));
  EXPECT_FALSE(has_illegal_integer(*module));
  for (const llvm::Instruction& instruction : llvm::instructions(*module->begin()))
    EXPECT_FALSE(llvm::isa<llvm::FreezeInst>(instruction));
}

// The error text for a function the pass cannot widen ("" when it can).
std::string error_of(const std::string& text) {
  llvm::LLVMContext context;
  context.setOpaquePointers(false);
  std::unique_ptr<llvm::Module> module = parse(text, context);
  if (!module) return "unparsable";
  try {
    legalize_integer_widths(*module, "test.ll");
  } catch (const CompileError& error) {
    return error.what();
  }
  return "";
}

TEST(LegalizeIntegerWidths, WhatItCannotWidenIsAnError) {
  const std::string argument = error_of("define i32 @f(i3 %v) {\n  %z = zext i3 %v to i32\n  ret i32 %z\n}\n");
  EXPECT_NE(argument.find("argument of type i3"), std::string::npos) << argument;
  const std::string store = error_of(
      "define void @f(i8* %p, i32 %x) {\n  %t = trunc i32 %x to i3\n  %q = bitcast i8* %p to i3*\n"
      "  store i3 %t, i3* %q\n  ret void\n}\n");
  EXPECT_NE(store.find("'store' of i3"), std::string::npos) << store;
  EXPECT_NE(store.find("SPIR-V has no type for"), std::string::npos) << store;
  const std::string wide = error_of("define i32 @f(i32 %x) {\n  %w = sext i32 %x to i128\n  %m = mul i128 %w, %w\n"
                                    "  %t = trunc i128 %m to i32\n  ret i32 %t\n}\n");
  EXPECT_NE(wide.find("128-bit integers are not supported"), std::string::npos) << wide;
  EXPECT_EQ(error_of("define i32 @f(i32 %x) {\n  %m = mul i32 %x, %x\n  ret i32 %m\n}\n"), "");
}

}  // namespace
}  // namespace vkcl

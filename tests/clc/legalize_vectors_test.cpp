// legalize_vectors (tools/clc), on LLVM IR: values of 8- and 16-component
// vectors (arithmetic, comparisons, selects, shuffles, extraction at
// constant and run-time indices, bitcasts between vector shapes, phis,
// loads and stores) are split into their components. The functions run in
// LLVM's interpreter before and after the pass and must agree; the split
// module must verify and hold no SSA value of more than 4 components.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include <llvm/ExecutionEngine/GenericValue.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include "compile_error.h"
#include "legalize_vectors.h"
#include "llvm_ir.h"

namespace vkcl {
namespace {

// Every function takes an i32 and returns an i32.
constexpr const char* kLongVectors = R"IR(
define i32 @arithmetic(i32 %x) {
  %v0 = insertelement <8 x i32> undef, i32 %x, i32 0
  %v = shufflevector <8 x i32> %v0, <8 x i32> undef, <8 x i32> zeroinitializer
  %w = add <8 x i32> %v, <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>
  %m = mul <8 x i32> %w, %w
  %c = icmp sgt <8 x i32> %m, <i32 50, i32 50, i32 50, i32 50, i32 50, i32 50, i32 50, i32 50>
  %s = select <8 x i1> %c, <8 x i32> %m, <8 x i32> %w
  %i = and i32 %x, 7
  %e = extractelement <8 x i32> %s, i32 %i
  %f = extractelement <8 x i32> %s, i32 5
  %r = xor i32 %e, %f
  ret i32 %r
}

define i32 @shuffles(i32 %x) {
  %v0 = insertelement <16 x i32> undef, i32 %x, i32 3
  %v1 = insertelement <16 x i32> %v0, i32 7, i32 12
  %s = shufflevector <16 x i32> %v1, <16 x i32> %v1, <8 x i32> <i32 3, i32 12, i32 19, i32 28, i32 3, i32 3, i32 12, i32 0>
  %t = sub <8 x i32> %s, <i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7, i32 8>
  %a = extractelement <8 x i32> %t, i32 1
  %b = extractelement <8 x i32> %t, i32 4
  %c = extractelement <8 x i32> %t, i32 2
  %ab = mul i32 %a, %b
  %r = add i32 %ab, %c
  ret i32 %r
}

define i32 @bitcasts(i32 %x) {
  %h = trunc i32 %x to i16
  %v0 = insertelement <8 x i16> undef, i16 %h, i32 0
  %v = shufflevector <8 x i16> %v0, <8 x i16> undef, <8 x i32> zeroinitializer
  %w = add <8 x i16> %v, <i16 0, i16 1, i16 2, i16 3, i16 4, i16 5, i16 6, i16 7>
  %b = bitcast <8 x i16> %w to <4 x i32>
  %e1 = extractelement <4 x i32> %b, i32 1
  %e3 = extractelement <4 x i32> %b, i32 3
  %r = xor i32 %e1, %e3
  ret i32 %r
}

define i32 @loop(i32 %x) {
entry:
  %n = and i32 %x, 15
  %v0 = insertelement <8 x i32> undef, i32 %x, i32 0
  %v = shufflevector <8 x i32> %v0, <8 x i32> undef, <8 x i32> zeroinitializer
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %next, %body ]
  %acc = phi <8 x i32> [ %v, %entry ], [ %sum, %body ]
  %sum = add <8 x i32> %acc, <i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7, i32 8>
  %next = add i32 %i, 1
  %more = icmp ult i32 %next, %n
  br i1 %more, label %body, label %exit
exit:
  %e = extractelement <8 x i32> %sum, i32 6
  ret i32 %e
}

define i32 @memory(i32 %x) {
  %slot = alloca <8 x i32>
  %v0 = insertelement <8 x i32> zeroinitializer, i32 %x, i32 2
  %v = add <8 x i32> %v0, <i32 9, i32 8, i32 7, i32 6, i32 5, i32 4, i32 3, i32 2>
  store <8 x i32> %v, <8 x i32>* %slot
  %l = load <8 x i32>, <8 x i32>* %slot
  %e = extractelement <8 x i32> %l, i32 2
  %f = extractelement <8 x i32> %l, i32 7
  %r = mul i32 %e, %f
  ret i32 %r
}
)IR";

bool has_long_vector_value(const llvm::Module& module) {
  return testing::count_values(module, [](const llvm::Value* value) {
           const auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(value->getType());
           return vector != nullptr && vector->getNumElements() > 4;
         }) > 0;
}

TEST(LegalizeVectors, SplitLongVectorsComputeTheSame) {
  llvm::LLVMContext context;
  context.setOpaquePointers(false);  // as clc's modules
  std::unique_ptr<llvm::Module> original = testing::parse_ir(kLongVectors, context);
  ASSERT_NE(original, nullptr);
  ASSERT_TRUE(has_long_vector_value(*original));
  std::unique_ptr<llvm::Module> split = llvm::CloneModule(*original);
  legalize_vectors(*split, "test.ll");
  ASSERT_EQ(testing::verify_ir(*split), "");
  EXPECT_FALSE(has_long_vector_value(*split)) << testing::print_ir(*split);

  std::vector<std::string> names;
  for (const llvm::Function& function : *original) names.push_back(function.getName().str());
  std::unique_ptr<llvm::ExecutionEngine> before = testing::interpreter(std::move(original));
  std::unique_ptr<llvm::ExecutionEngine> after = testing::interpreter(std::move(split));
  ASSERT_TRUE(before && after);
  std::vector<int32_t> arguments;
  for (int32_t x = -40; x <= 40; ++x) arguments.push_back(x);
  std::mt19937 rng(11);
  for (int i = 0; i < 100; ++i) arguments.push_back(int32_t(rng()));
  testing::expect_same_results(*before, *after, names, arguments, "split");
}

// A bodiless builtin (one the translator would lower) with a pointer
// argument on a long vector cannot be split into 4-component calls: a
// CompileError naming it. The builtin library defines every such builtin of
// OpenCL C today (sincos on half16 was the last, until cl_khr_fp16), so this
// is reached only from IR.
TEST(LegalizeVectors, ALongVectorBuiltinWithPointersIsAnError) {
  llvm::LLVMContext context;
  context.setOpaquePointers(false);
  std::unique_ptr<llvm::Module> module = testing::parse_ir(R"IR(
declare spir_func <16 x half> @_Z6sincosDv16_DhPU3AS4S_(<16 x half>, <16 x half> addrspace(4)*)
define spir_func <16 x half> @f(<16 x half> %x, <16 x half> addrspace(4)* %c) {
  %s = call spir_func <16 x half> @_Z6sincosDv16_DhPU3AS4S_(<16 x half> %x, <16 x half> addrspace(4)* %c)
  ret <16 x half> %s
}
)IR", context);
  ASSERT_NE(module, nullptr);
  try {
    legalize_vectors(*module, "test.ll");
    ADD_FAILURE() << "legalize_vectors accepted sincos on half16 with a pointer";
  } catch (const CompileError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("sincos"), std::string::npos) << message;
    EXPECT_NE(message.find("8 or 16 components"), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace vkcl

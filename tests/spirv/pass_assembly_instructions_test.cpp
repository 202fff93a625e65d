// Passes one at a time on SPIR-V assembly (pass_assembly.h), for the passes
// that rewrite instructions where they stand: lower_opencl_std (OpenCL.std
// extended instructions and Kernel-only core instructions, as the SPIRV-LLVM
// translator writes them) and combine_global_accesses (narrow loads and
// stores of global memory, as the passes before it leave them:
// PhysicalStorageBuffer pointers, every access Aligned).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "pass_assembly.h"

namespace vkcl {
namespace {

using test::captured;
using test::captured_ids;
using test::contains;
using test::count;
using test::error_of;
using test::kernel_module;
using test::run_alone;

// ---------------------------------------------------------------------------
// lower_opencl_std

// The start of every lower_opencl_std test, up to the entry label of
// f(float x, float y, uint a, uint b).
const std::string kMathFunction = R"(
               OpCapability Int64
               OpCapability Int8
        %std = OpExtInstImport "OpenCL.std"
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
      %uchar = OpTypeInt 8 0
      %float = OpTypeFloat 32
     %double = OpTypeFloat 64
         %fn = OpTypeFunction %float %float %float %uint %uint
          %f = OpFunction %float None %fn
          %x = OpFunctionParameter %float
          %y = OpFunctionParameter %float
          %a = OpFunctionParameter %uint
          %b = OpFunctionParameter %uint
      %entry = OpLabel
)";

// fabs, mad, fmax and min on uint have GLSL.std.450 instructions of the same
// operands and a precision OpenCL accepts: each becomes one, under its id;
// mul_hi becomes the high half of OpUMulExtended. The OpenCL.std import
// goes, GLSL.std.450's comes.
TEST(LowerOpenclStd, InstructionsWithAnExactGLSLCounterpartBecomeIt) {
  const std::string text = run_alone("lower_opencl_std", kernel_module(kMathFunction + R"(
   %absolute = OpExtInst %float %std fabs %x
      %fused = OpExtInst %float %std mad %x %y %absolute
     %larger = OpExtInst %float %std fmax %fused %y
    %smaller = OpExtInst %uint %std u_min %a %b
       %high = OpExtInst %uint %std u_mul_hi %a %b
        %sum = OpIAdd %uint %smaller %high
  %converted = OpConvertUToF %float %sum
     %result = OpFAdd %float %larger %converted
               OpReturnValue %result
               OpFunctionEnd
)"));
  EXPECT_EQ(count(text, "OpenCL.std"), 0) << text;
  const std::string glsl = captured(text, R"((%\w+) = OpExtInstImport "GLSL.std.450"\n)");
  EXPECT_TRUE(contains(text, "%absolute = OpExtInst %float " + glsl + " FAbs %x\n")) << text;
  EXPECT_TRUE(contains(text, "%fused = OpExtInst %float " + glsl + " Fma %x %y %absolute\n")) << text;
  EXPECT_TRUE(contains(text, "%larger = OpExtInst %float " + glsl + " NMax %fused %y\n")) << text;
  EXPECT_TRUE(contains(text, "%smaller = OpExtInst %uint " + glsl + " UMin %a %b\n")) << text;
  const std::vector<std::string> pair = captured_ids(text, R"((%\w+) = OpTypeStruct %uint %uint\n)");
  const std::string both = captured(text, "(%\\w+) = OpUMulExtended " + pair[0] + " %a %b\n");
  EXPECT_TRUE(contains(text, "%high = OpCompositeExtract %uint " + both + " 1\n")) << text;
  EXPECT_EQ(count(text, "OpExtInst "), 4) << text;
}

// Vulkan counts bits of 32-bit integers only: popcount of a ulong is the
// sum of its halves' counts, OpBitCount of a uchar is that of the
// zero-extended uint, truncated back; of a uint it stays as it was.
TEST(LowerOpenclStd, BitCountsOfOtherWidthsAreCountedIn32BitWords) {
  const std::string text = run_alone("lower_opencl_std", kernel_module(R"(
               OpCapability Int64
               OpCapability Int8
        %std = OpExtInstImport "OpenCL.std"
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
      %uchar = OpTypeInt 8 0
         %fn = OpTypeFunction %uint %ulong %uchar %uint
          %f = OpFunction %uint None %fn
       %wide = OpFunctionParameter %ulong
     %narrow = OpFunctionParameter %uchar
       %word = OpFunctionParameter %uint
      %entry = OpLabel
  %wide_bits = OpExtInst %ulong %std popcount %wide
%narrow_bits = OpBitCount %uchar %narrow
  %word_bits = OpBitCount %uint %word
   %wide_low = OpUConvert %uint %wide_bits
 %narrow_32 = OpUConvert %uint %narrow_bits
        %sum = OpIAdd %uint %wide_low %narrow_32
      %total = OpIAdd %uint %sum %word_bits
               OpReturnValue %total
               OpFunctionEnd
)"));
  // ulong: the low word, the high word (shifted down by 32), each counted, added, widened.
  const std::string low = captured(text, R"((%\w+) = OpUConvert %uint %wide\n)");
  const std::string shifted = captured(text, R"((%\w+) = OpShiftRightLogical %ulong %wide %ulong_32\n)");
  const std::string high = captured(text, "(%\\w+) = OpUConvert %uint " + shifted + "\n");
  const std::string low_bits = captured(text, "(%\\w+) = OpBitCount %uint " + low + "\n");
  const std::string high_bits = captured(text, "(%\\w+) = OpBitCount %uint " + high + "\n");
  const std::string sum = captured(text, "(%\\w+) = OpIAdd %uint " + low_bits + " " + high_bits + "\n");
  EXPECT_TRUE(contains(text, "%wide_bits = OpUConvert %ulong " + sum + "\n")) << text;
  // uchar: zero-extended, counted, truncated.
  const std::string extended = captured(text, R"((%\w+) = OpUConvert %uint %narrow\n)");
  const std::string counted = captured(text, "(%\\w+) = OpBitCount %uint " + extended + "\n");
  EXPECT_TRUE(contains(text, "%narrow_bits = OpUConvert %uchar " + counted + "\n")) << text;
  EXPECT_TRUE(contains(text, "%word_bits = OpBitCount %uint %word\n")) << text;
  EXPECT_EQ(count(text, "OpBitCount %(ulong|uchar)|OpExtInst"), 0) << text;
}

// OpIsFinite and OpSignBitSet (Kernel capability) become tests on the
// bits, which no "no NaNs" assumption of a driver can fold: |x| below the
// exponent mask (0x7f800000), and x's bits at or above the sign bit
// (0x80000000). A float comparison Vulkan has stays.
TEST(LowerOpenclStd, KernelOnlyClassificationsBecomeTestsOnTheBits) {
  const std::string text = run_alone("lower_opencl_std", kernel_module(kMathFunction + R"(
     %finite = OpIsFinite %bool %x
   %negative = OpSignBitSet %bool %y
       %less = OpFOrdLessThan %bool %x %y
       %both = OpLogicalAnd %bool %finite %negative
        %all = OpLogicalAnd %bool %both %less
     %result = OpSelect %float %all %x %y
               OpReturnValue %result
               OpFunctionEnd
)"));
  const std::string x_bits = captured(text, R"((%\w+) = OpBitcast %uint %x\n)");
  const std::string magnitude = captured(text, "(%\\w+) = OpBitwiseAnd %uint " + x_bits + " %uint_2147483647\n");
  EXPECT_TRUE(contains(text, "%finite = OpULessThan %bool " + magnitude + " %uint_2139095040\n")) << text;
  const std::string y_bits = captured(text, R"((%\w+) = OpBitcast %uint %y\n)");
  EXPECT_TRUE(contains(text, "%negative = OpUGreaterThanEqual %bool " + y_bits + " %uint_2147483648\n")) << text;
  EXPECT_TRUE(contains(text, "%less = OpFOrdLessThan %bool %x %y\n")) << text;
  EXPECT_EQ(count(text, "OpIsFinite|OpSignBitSet"), 0) << text;
}

// An OpenCL.std instruction without a lowering that meets OpenCL's
// precision (exp: builtins/ defines it, so the translator never writes it)
// is an error naming the OpenCL C builtin and its type; so is rsqrt on
// double, which InverseSqrt's 2 ulp meet for float only.
TEST(LowerOpenclStd, AnInstructionWithoutAPreciseLoweringIsAnErrorNamingTheBuiltin) {
  const std::string exp = error_of({"lower_opencl_std"}, kernel_module(kMathFunction + R"(
     %result = OpExtInst %float %std exp %x
               OpReturnValue %result
               OpFunctionEnd
)"));
  EXPECT_TRUE(contains(exp, "the OpenCL C builtin 'exp' on float is not supported")) << exp;
  EXPECT_TRUE(contains(exp, "OpenCL.std exp has no Vulkan lowering")) << exp;

  const std::string rsqrt = error_of({"lower_opencl_std"}, kernel_module(kMathFunction + R"(
     %wide_x = OpFConvert %double %x
    %inverse = OpExtInst %double %std rsqrt %wide_x
     %result = OpFConvert %float %inverse
               OpReturnValue %result
               OpFunctionEnd
)"));
  EXPECT_TRUE(contains(rsqrt, "the OpenCL C builtin 'rsqrt' on double is not supported")) << rsqrt;
}

// ---------------------------------------------------------------------------
// combine_global_accesses

// The start of every combine_global_accesses test: f(uchar* p, ushort* q),
// both PhysicalStorageBuffer, with p + 1 ... p + 3 and q + 1 (constant
// elements: constant byte offsets from p and q).
const std::string kBytes = R"(
               OpCapability Int8
               OpCapability Int16
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %uchar = OpTypeInt 8 0
     %ushort = OpTypeInt 16 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
     %uint_3 = OpConstant %uint 3
               OpDecorate %uchar_ptr ArrayStride 1
               OpDecorate %ushort_ptr ArrayStride 2
  %uchar_ptr = OpTypePointer PhysicalStorageBuffer %uchar
 %ushort_ptr = OpTypePointer PhysicalStorageBuffer %ushort
         %fn = OpTypeFunction %void %uchar_ptr %ushort_ptr
          %f = OpFunction %void None %fn
          %p = OpFunctionParameter %uchar_ptr
          %q = OpFunctionParameter %ushort_ptr
      %entry = OpLabel
         %p1 = OpPtrAccessChain %uchar_ptr %p %uint_1
         %p2 = OpPtrAccessChain %uchar_ptr %p %uint_2
         %p3 = OpPtrAccessChain %uchar_ptr %p %uint_3
         %q1 = OpPtrAccessChain %ushort_ptr %q %uint_1
)";

// Four byte loads of p[0..3], p[0] Aligned 4 (what clc's split of a uchar4
// load leaves): one load of the word, each byte a component of it as a
// uchar4, under its own id.
TEST(CombineGlobalAccesses, FourByteLoadsOfAnAlignedWordBecomeOneWordLoad) {
  const std::string text = run_alone("combine_global_accesses", kernel_module(kBytes + R"(
         %b0 = OpLoad %uchar %p Aligned 4
         %b1 = OpLoad %uchar %p1 Aligned 1
         %b2 = OpLoad %uchar %p2 Aligned 2
         %b3 = OpLoad %uchar %p3 Aligned 1
               OpStore %p %b3 Aligned 1
               OpStore %p1 %b2 Aligned 1
               OpReturn
               OpFunctionEnd
)"));
  const std::string pointer = captured(text, R"((%\w+) = OpBitcast %_ptr_PhysicalStorageBuffer_uint %p\n)");
  const std::string word = captured(text, "(%\\w+) = OpLoad %uint " + pointer + " Aligned 4\n");
  for (int b = 0; b < 4; ++b) {
    const std::string id = "%b" + std::to_string(b);
    const std::string bytes = captured(text, id + R"( = OpCompositeExtract %uchar (%\w+) )" + std::to_string(b) + "\n");
    EXPECT_TRUE(contains(text, bytes + " = OpBitcast %v4uchar " + word + "\n")) << id << "\n" << text;
  }
  EXPECT_EQ(count(text, "OpLoad"), 1) << text;
  // The two byte stores after them, known aligned to 1 only, fit no chunk and stay.
  EXPECT_TRUE(contains(text, "OpStore %p %b3 Aligned 1\nOpStore %p1 %b2 Aligned 1\n")) << text;
}

// Two ushort stores of q[0] (Aligned 4) and q[1]: one store of the word
// that the two make as a ushort2, after the last of them.
TEST(CombineGlobalAccesses, TwoHalfWordStoresOfAnAlignedWordBecomeOneWordStore) {
  const std::string text = run_alone("combine_global_accesses", kernel_module(kBytes + R"(
         %lo = OpUConvert %ushort %uint_1
         %hi = OpUConvert %ushort %uint_2
               OpStore %q %lo Aligned 4
               OpStore %q1 %hi Aligned 2
               OpReturn
               OpFunctionEnd
)"));
  const std::string halves = captured(text, R"((%\w+) = OpCompositeConstruct %v2ushort %lo %hi\n)");
  const std::string word = captured(text, "(%\\w+) = OpBitcast %uint " + halves + "\n");
  const std::string pointer = captured(text, R"((%\w+) = OpBitcast %_ptr_PhysicalStorageBuffer_uint %q\n)");
  EXPECT_TRUE(contains(text, "OpStore " + pointer + " " + word + " Aligned 4\nOpReturn\n")) << text;
  EXPECT_EQ(count(text, "OpStore"), 1) << text;
}

// What may write the bytes between two loads keeps them apart: a store to
// another buffer (which may alias p) between p[0] and p[1..3] ends the
// group. p[0] alone is no chunk, and p[1..3] alone neither fill a word nor
// say that any is aligned: every load stays.
TEST(CombineGlobalAccesses, AStoreToAnotherBufferBetweenLoadsKeepsThemApart) {
  const std::string text = run_alone("combine_global_accesses", kernel_module(kBytes + R"(
         %b0 = OpLoad %uchar %p Aligned 4
         %h0 = OpUConvert %ushort %b0
               OpStore %q %h0 Aligned 2
         %b1 = OpLoad %uchar %p1 Aligned 1
         %b2 = OpLoad %uchar %p2 Aligned 2
         %b3 = OpLoad %uchar %p3 Aligned 1
               OpReturn
               OpFunctionEnd
)"));
  EXPECT_TRUE(contains(text, "%b0 = OpLoad %uchar %p Aligned 4\n")) << text;
  EXPECT_TRUE(contains(text, "%b1 = OpLoad %uchar %p1 Aligned 1\n%b2 = OpLoad %uchar %p2 Aligned 2\n"
                             "%b3 = OpLoad %uchar %p3 Aligned 1\n"))
      << text;
  EXPECT_EQ(count(text, "OpBitcast|%uint %\\w+ Aligned"), 0) << text;
}

// A Volatile load must happen as written: p[3] joins no group, and p[0..2]
// before it, three bytes, fill no word. Every load stays.
TEST(CombineGlobalAccesses, AVolatileLoadStaysAsWritten) {
  const std::string text = run_alone("combine_global_accesses", kernel_module(kBytes + R"(
         %b0 = OpLoad %uchar %p Aligned 4
         %b1 = OpLoad %uchar %p1 Aligned 1
         %b2 = OpLoad %uchar %p2 Aligned 2
         %b3 = OpLoad %uchar %p3 Volatile|Aligned 1
               OpReturn
               OpFunctionEnd
)"));
  EXPECT_TRUE(contains(text, "%b3 = OpLoad %uchar %p3 Volatile|Aligned 1\n")) << text;
  EXPECT_EQ(count(text, "OpLoad %uchar"), 4) << text;
  EXPECT_EQ(count(text, "OpBitcast"), 0) << text;
}

}  // namespace
}  // namespace vkcl

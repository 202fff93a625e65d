// Passes one at a time on SPIR-V assembly (pass_assembly.h), for the passes
// about conversions and integer widths: lower_saturating_conversions,
// lower_rounding_modes, narrow_truncated_arithmetic, and
// fold_identity_pointer_casts. The inputs are Kernel SPIR-V as the
// SPIRV-LLVM translator writes it: signless integer types, the `_sat` and
// `_rt*` conversions marked by SaturatedConversion and FPRoundingMode.
#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "pass_assembly.h"

namespace vkcl {
namespace {

using test::captured;
using test::captured_ids;
using test::contains;
using test::count;
using test::kernel_module;
using test::run_alone;
using test::run_passes;

// The id of the OpConstant of `type` that the disassembler prints as
// `literal` (floats print with the digits that give the value back: 2^31 is
// 2.14748365e+09), found by its definition rather than its friendly name.
std::string constant(const std::string& text, const std::string& type, const std::string& literal) {
  const std::string escaped = std::regex_replace(literal, std::regex(R"([.+\-])"), R"(\$&)");
  return captured(text, "(%\\w+) = OpConstant " + type + " " + escaped + "\n");
}

// ---------------------------------------------------------------------------
// lower_saturating_conversions

// convert_int_sat(float x) is OpConvertFToS decorated SaturatedConversion.
// NaN must become 0 (tested on the bits: |x| above infinity's), x is clamped
// to [-2^31, 2^31 - 128] (the floats nearest INT_MIN and INT_MAX inside int's
// range) before the conversion, and since float cannot hold 2^31 - 1, a
// value above the upper bound selects INT_MAX after it. The decoration,
// which Vulkan rejects, goes.
TEST(LowerSaturatingConversions, AFloatToIntConversionClampsAndSendsNanToZero) {
  const std::string text = run_alone("lower_saturating_conversions", kernel_module(R"(
               OpDecorate %converted SaturatedConversion
       %uint = OpTypeInt 32 0
      %float = OpTypeFloat 32
         %fn = OpTypeFunction %uint %float
          %f = OpFunction %uint None %fn
          %x = OpFunctionParameter %float
      %entry = OpLabel
  %converted = OpConvertFToS %uint %x
               OpReturnValue %converted
               OpFunctionEnd
)"));
  EXPECT_EQ(count(text, "SaturatedConversion"), 0) << text;
  const std::string bits = captured(text, R"((%\w+) = OpBitcast %uint %x\n)");
  const std::string magnitude = captured(text, "(%\\w+) = OpBitwiseAnd %uint " + bits + " %uint_2147483647\n");
  const std::string is_nan = captured(text, "(%\\w+) = OpUGreaterThan %bool " + magnitude + " %uint_2139095040\n");
  const std::string not_nan = captured(text, "(%\\w+) = OpSelect %float " + is_nan + " %float_0 %x\n");
  const std::string int_min = constant(text, "%float", "-2.14748365e+09");  // -2^31
  const std::string below_max = constant(text, "%float", "2.14748352e+09");  // 2^31 - 128
  const std::string below = captured(text, "(%\\w+) = OpFOrdLessThan %bool " + not_nan + " " + int_min + "\n");
  const std::string at_least_min =
      captured(text, "(%\\w+) = OpSelect %float " + below + " " + int_min + " " + not_nan + "\n");
  const std::string above =
      captured(text, "(%\\w+) = OpFOrdGreaterThan %bool " + at_least_min + " " + below_max + "\n");
  const std::string clamped =
      captured(text, "(%\\w+) = OpSelect %float " + above + " " + below_max + " " + at_least_min + "\n");
  const std::string conversion = captured(text, "(%\\w+) = OpConvertFToS %uint " + clamped + "\n");
  EXPECT_EQ(count(text, "OpConvertFToS"), 1) << text;
  const std::string beyond_max =
      captured(text, "(%\\w+) = OpFOrdGreaterThan %bool " + not_nan + " " + below_max + "\n");
  EXPECT_TRUE(contains(text, "%converted = OpSelect %uint " + beyond_max + " %uint_2147483647 " + conversion + "\n"))
      << text;
}

// convert_uchar_sat(int x) changes signedness, so the translator writes
// OpSatConvertSToU (Kernel only). It becomes x clamped to [0, 255] by
// signed comparisons in int, then truncated to uchar.
TEST(LowerSaturatingConversions, ASignedToUnsignedConversionClampsInTheSourceTypeThenTruncates) {
  const std::string text = run_alone("lower_saturating_conversions", kernel_module(R"(
               OpCapability Int8
       %uint = OpTypeInt 32 0
      %uchar = OpTypeInt 8 0
         %fn = OpTypeFunction %uchar %uint
          %f = OpFunction %uchar None %fn
          %x = OpFunctionParameter %uint
      %entry = OpLabel
  %converted = OpSatConvertSToU %uchar %x
               OpReturnValue %converted
               OpFunctionEnd
)"));
  EXPECT_EQ(count(text, "OpSatConvert"), 0) << text;
  const std::string negative = captured(text, R"((%\w+) = OpSLessThan %bool %x %uint_0\n)");
  const std::string at_least_0 = captured(text, "(%\\w+) = OpSelect %uint " + negative + " %uint_0 %x\n");
  const std::string too_big = captured(text, "(%\\w+) = OpSGreaterThan %bool " + at_least_0 + " %uint_255\n");
  const std::string clamped = captured(text, "(%\\w+) = OpSelect %uint " + too_big + " %uint_255 " + at_least_0 + "\n");
  EXPECT_TRUE(contains(text, "%converted = OpUConvert %uchar " + clamped + "\n")) << text;
}

// convert_int_sat(long x) keeps signedness: OpSConvert decorated
// SaturatedConversion. The bounds INT_MIN and INT_MAX are compared as longs
// (INT_MIN's bits as a 64-bit constant), and the clamped value truncated.
TEST(LowerSaturatingConversions, ALongToIntConversionClampsToIntsRangeInLongs) {
  const std::string text = run_alone("lower_saturating_conversions", kernel_module(R"(
               OpCapability Int64
               OpDecorate %converted SaturatedConversion
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
         %fn = OpTypeFunction %uint %ulong
          %f = OpFunction %uint None %fn
          %x = OpFunctionParameter %ulong
      %entry = OpLabel
  %converted = OpSConvert %uint %x
               OpReturnValue %converted
               OpFunctionEnd
)"));
  EXPECT_EQ(count(text, "SaturatedConversion"), 0) << text;
  const std::string below = captured(text, R"((%\w+) = OpSLessThan %bool %x %ulong_18446744071562067968\n)");
  const std::string at_least_min =
      captured(text, "(%\\w+) = OpSelect %ulong " + below + " %ulong_18446744071562067968 %x\n");
  const std::string above = captured(text, "(%\\w+) = OpSGreaterThan %bool " + at_least_min + " %ulong_2147483647\n");
  const std::string clamped =
      captured(text, "(%\\w+) = OpSelect %ulong " + above + " %ulong_2147483647 " + at_least_min + "\n");
  EXPECT_TRUE(contains(text, "%converted = OpUConvert %uint " + clamped + "\n")) << text;
}

// convert_int(float) and convert_int(long), without _sat, carry no
// SaturatedConversion: they stay exactly as they are.
TEST(LowerSaturatingConversions, ConversionsWithoutTheDecorationStay) {
  const std::string text = run_alone("lower_saturating_conversions", kernel_module(R"(
               OpCapability Int64
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
      %float = OpTypeFloat 32
         %fn = OpTypeFunction %uint %float %ulong
          %f = OpFunction %uint None %fn
          %x = OpFunctionParameter %float
          %n = OpFunctionParameter %ulong
      %entry = OpLabel
  %from_float = OpConvertFToS %uint %x
  %from_long = OpSConvert %uint %n
        %sum = OpIAdd %uint %from_float %from_long
               OpReturnValue %sum
               OpFunctionEnd
)"));
  EXPECT_TRUE(contains(text, "%entry = OpLabel\n%from_float = OpConvertFToS %uint %x\n"
                             "%from_long = OpSConvert %uint %n\n%sum = OpIAdd %uint %from_float %from_long\n"))
      << text;
  EXPECT_EQ(count(text, "OpSelect"), 0) << text;
}

// convert_int_sat_rtp(float): the FPRoundingMode must end up on the
// conversion of the clamped value, where lower_rounding_modes rounds its
// operand; the original id now names the select after it, which is no
// conversion (and lower_rounding_modes would reject the decoration there).
TEST(LowerSaturatingConversions, ARoundingModeMovesToTheConversionOfTheClampedValue) {
  const std::string text = run_alone("lower_saturating_conversions", kernel_module(R"(
               OpDecorate %converted SaturatedConversion
               OpDecorate %converted FPRoundingMode RTP
       %uint = OpTypeInt 32 0
      %float = OpTypeFloat 32
         %fn = OpTypeFunction %uint %float
          %f = OpFunction %uint None %fn
          %x = OpFunctionParameter %float
      %entry = OpLabel
  %converted = OpConvertFToS %uint %x
               OpReturnValue %converted
               OpFunctionEnd
)"));
  const std::string conversion = captured(text, R"((%\w+) = OpConvertFToS %uint %\w+\n)");
  EXPECT_NE(conversion, "%converted") << text;
  EXPECT_TRUE(contains(text, "OpDecorate " + conversion + " FPRoundingMode RTP\n")) << text;
  EXPECT_EQ(count(text, "FPRoundingMode"), 1) << text;
}

// With lower_rounding_modes after it, as the lowering runs them: the moved
// mode rounds the clamped value up before its conversion (RTP is Ceil), and
// neither decoration is left for Vulkan to reject.
TEST(LowerSaturatingConversions, TheMovedRoundingModeRoundsTheClampedValueInLowerRoundingModes) {
  const std::string text = run_passes({"lower_saturating_conversions", "lower_rounding_modes"}, kernel_module(R"(
               OpDecorate %converted SaturatedConversion
               OpDecorate %converted FPRoundingMode RTP
       %uint = OpTypeInt 32 0
      %float = OpTypeFloat 32
         %fn = OpTypeFunction %uint %float
          %f = OpFunction %uint None %fn
          %x = OpFunctionParameter %float
      %entry = OpLabel
  %converted = OpConvertFToS %uint %x
               OpReturnValue %converted
               OpFunctionEnd
)"));
  EXPECT_EQ(count(text, "SaturatedConversion|FPRoundingMode"), 0) << text;
  // Ceil of the clamped value (a select), not of x, feeds the one conversion.
  const std::vector<std::string> ceil = captured_ids(text, R"((%\w+) = OpExtInst %float %\w+ Ceil (%\w+)\n)");
  const std::string &rounded = ceil[0], &clamped = ceil[1];
  EXPECT_TRUE(contains(text, clamped + " = OpSelect %float ")) << text;
  EXPECT_EQ(count(text, "OpConvertFToS"), 1) << text;
  EXPECT_EQ(count(text, "OpConvertFToS %uint " + rounded + "\n"), 1) << text;
}

// ---------------------------------------------------------------------------
// lower_rounding_modes

// convert_int_rtn/_rtp/_rte(float): the operand is rounded to an integer in
// the mode first (Floor, Ceil, RoundEven: exact), so that the conversion's
// own truncation changes nothing. RTZ is that truncation: the conversion
// stays as it was. Every FPRoundingMode goes, since Vulkan rejects them.
TEST(LowerRoundingModes, AFloatToIntConversionRoundsItsOperandInTheModeFirst) {
  const std::string text = run_alone("lower_rounding_modes", kernel_module(R"(
               OpDecorate %down FPRoundingMode RTN
               OpDecorate %up FPRoundingMode RTP
               OpDecorate %even FPRoundingMode RTE
               OpDecorate %toward_zero FPRoundingMode RTZ
       %uint = OpTypeInt 32 0
      %float = OpTypeFloat 32
         %fn = OpTypeFunction %uint %float
          %f = OpFunction %uint None %fn
          %x = OpFunctionParameter %float
      %entry = OpLabel
       %down = OpConvertFToS %uint %x
         %up = OpConvertFToU %uint %x
       %even = OpConvertFToS %uint %x
%toward_zero = OpConvertFToS %uint %x
         %s1 = OpIAdd %uint %down %up
         %s2 = OpIAdd %uint %s1 %even
         %s3 = OpIAdd %uint %s2 %toward_zero
               OpReturnValue %s3
               OpFunctionEnd
)"));
  EXPECT_EQ(count(text, "FPRoundingMode"), 0) << text;
  const std::string floor = captured(text, R"((%\w+) = OpExtInst %float %\w+ Floor %x\n)");
  const std::string ceil = captured(text, R"((%\w+) = OpExtInst %float %\w+ Ceil %x\n)");
  const std::string round_even = captured(text, R"((%\w+) = OpExtInst %float %\w+ RoundEven %x\n)");
  EXPECT_TRUE(contains(text, "%down = OpConvertFToS %uint " + floor + "\n")) << text;
  EXPECT_TRUE(contains(text, "%up = OpConvertFToU %uint " + ceil + "\n")) << text;
  EXPECT_TRUE(contains(text, "%even = OpConvertFToS %uint " + round_even + "\n")) << text;
  EXPECT_TRUE(contains(text, "%toward_zero = OpConvertFToS %uint %x\n")) << text;
  EXPECT_EQ(count(text, "OpExtInst "), 3) << text;
}

// convert_float_rtz(uint x): float cannot hold every uint, and the device
// rounds to nearest. The rounded value is converted back and compared with
// x; where it came out above x (or is 2^32, which no uint holds), its bits
// step one ulp toward zero (+0xffffffff, i.e. -1). The result takes the
// conversion's id.
TEST(LowerRoundingModes, AnIntToFloatConversionTowardZeroStepsBackWhereTheDeviceRoundedUp) {
  const std::string text = run_alone("lower_rounding_modes", kernel_module(R"(
               OpDecorate %converted FPRoundingMode RTZ
       %uint = OpTypeInt 32 0
      %float = OpTypeFloat 32
         %fn = OpTypeFunction %float %uint
          %f = OpFunction %float None %fn
          %x = OpFunctionParameter %uint
      %entry = OpLabel
  %converted = OpConvertUToF %float %x
               OpReturnValue %converted
               OpFunctionEnd
)"));
  EXPECT_EQ(count(text, "FPRoundingMode"), 0) << text;
  const std::string rounded = captured(text, R"((%\w+) = OpConvertUToF %float %x\n)");
  const std::string two_to_the_32 = constant(text, "%float", "4.2949673e+09");
  const std::string out_of_range =
      captured(text, "(%\\w+) = OpFOrdGreaterThanEqual %bool " + rounded + " " + two_to_the_32 + "\n");
  const std::string back = captured(text, R"((%\w+) = OpConvertFToU %uint %\w+\n)");
  const std::string back_above = captured(text, "(%\\w+) = OpUGreaterThan %bool " + back + " %x\n");
  const std::string above = captured(text, "(%\\w+) = OpLogicalOr %bool " + out_of_range + " %\\w+\n");
  EXPECT_EQ(count(text, "OpLogicalAnd %bool %\\w+ " + back_above + "\n"), 1) << text;
  const std::string bits = captured(text, "(%\\w+) = OpBitcast %uint " + rounded + "\n");
  const std::string stepped = captured(text, "(%\\w+) = OpIAdd %uint " + bits + " %uint_4294967295\n");
  const std::string chosen = captured(text, "(%\\w+) = OpSelect %uint " + above + " " + stepped + " " + bits + "\n");
  EXPECT_TRUE(contains(text, "%converted = OpBitcast %float " + chosen + "\n")) << text;
}

// Where the mode cannot change the result, only the decoration goes: RTE
// (the device's own rounding), int to double (every int fits), float to
// double (widening) and long to int (no rounding at all).
TEST(LowerRoundingModes, ConversionsTheModeCannotChangeOnlyLoseTheDecoration) {
  const std::string text = run_alone("lower_rounding_modes", kernel_module(R"(
               OpCapability Float64
               OpCapability Int64
               OpDecorate %nearest FPRoundingMode RTE
               OpDecorate %exact FPRoundingMode RTZ
               OpDecorate %widened FPRoundingMode RTP
               OpDecorate %truncated FPRoundingMode RTN
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
      %float = OpTypeFloat 32
     %double = OpTypeFloat 64
         %fn = OpTypeFunction %void %uint %float %ulong
          %f = OpFunction %void None %fn
          %i = OpFunctionParameter %uint
          %x = OpFunctionParameter %float
          %n = OpFunctionParameter %ulong
      %entry = OpLabel
    %nearest = OpConvertUToF %float %i
      %exact = OpConvertSToF %double %i
    %widened = OpFConvert %double %x
  %truncated = OpSConvert %uint %n
               OpReturn
               OpFunctionEnd
)"));
  EXPECT_TRUE(contains(text, "%entry = OpLabel\n%nearest = OpConvertUToF %float %i\n%exact = OpConvertSToF %double %i\n"
                             "%widened = OpFConvert %double %x\n%truncated = OpSConvert %uint %n\nOpReturn\n"))
      << text;
  EXPECT_EQ(count(text, "FPRoundingMode"), 0) << text;
}

// convert_half_rtn(float x): the rounded half must be compared with x as a
// float, but a driver may fold OpFConvert(OpFConvert(x)) to x (NVIDIA's
// behaved so), so the half goes back to float on its bits (FindUMsb
// normalises its subnormals), never by a second OpFConvert. Where it lies
// above x, its bits step one ulp, toward zero for positive x and away from
// it for negative x (-1 or +1 on a 16-bit integer).
TEST(LowerRoundingModes, ANarrowingToHalfComparesTheHalfAsAFloatBuiltFromItsBits) {
  const std::string text = run_alone("lower_rounding_modes", kernel_module(R"(
               OpCapability Float16
               OpDecorate %narrowed FPRoundingMode RTN
      %float = OpTypeFloat 32
       %half = OpTypeFloat 16
         %fn = OpTypeFunction %half %float
          %f = OpFunction %half None %fn
          %x = OpFunctionParameter %float
      %entry = OpLabel
   %narrowed = OpFConvert %half %x
               OpReturnValue %narrowed
               OpFunctionEnd
)"));
  EXPECT_EQ(count(text, "FPRoundingMode"), 0) << text;
  const std::string rounded = captured(text, R"((%\w+) = OpFConvert %half %x\n)");
  EXPECT_EQ(count(text, "OpFConvert"), 1) << text;
  EXPECT_EQ(count(text, "FindUMsb"), 1) << text;
  const std::string back = captured(text, R"((%\w+) = OpBitcast %float %\w+\n)");
  const std::string above = captured(text, "(%\\w+) = OpFOrdGreaterThan %bool " + back + " %x\n");
  const std::string negative = captured(text, R"((%\w+) = OpFOrdLessThan %bool %x %float_0\n)");
  const std::string step = captured(text, "(%\\w+) = OpSelect %ushort " + negative + " %ushort_1 %ushort_65535\n");
  // The step is added to the half's bits: stepped = bits + step.
  const std::vector<std::string> step_sum = captured_ids(text, "(%\\w+) = OpIAdd %ushort (%\\w+) " + step + "\n");
  const std::string &stepped = step_sum[0], &bits = step_sum[1];
  EXPECT_TRUE(contains(text, bits + " = OpBitcast %ushort " + rounded + "\n")) << text;
  const std::string chosen = captured(text, "(%\\w+) = OpSelect %ushort " + above + " " + stepped + " " + bits + "\n");
  EXPECT_TRUE(contains(text, "%narrowed = OpBitcast %half " + chosen + "\n")) << text;
}

// ---------------------------------------------------------------------------
// fold_identity_pointer_casts

// A `half*` (whose pointer type carries the ArrayStride OpPtrAccessChain
// needs) cast to the `ushort*` vload_half reads through: both types point
// to ushort in the same storage class. Only loaded from and stored to, the
// cast goes (NVIDIA's driver crashed on it) and the accesses use its
// operand, memory operands kept; its name goes with it.
const std::string kUshortPointers = R"(
               OpCapability Int16
               OpCapability Int64
               OpDecorate %strided_ptr ArrayStride 2
       %void = OpTypeVoid
     %ushort = OpTypeInt 16 0
      %ulong = OpTypeInt 64 0
    %ulong_1 = OpConstant %ulong 1
%strided_ptr = OpTypePointer CrossWorkgroup %ushort
 %ushort_ptr = OpTypePointer CrossWorkgroup %ushort
         %fn = OpTypeFunction %void %strided_ptr
          %f = OpFunction %void None %fn
     %halves = OpFunctionParameter %strided_ptr
      %entry = OpLabel
 %as_ushorts = OpBitcast %ushort_ptr %halves
)";

TEST(FoldIdentityPointerCasts, ACastBetweenTypesThatDifferOnlyInDecorationsFoldsIntoItsLoadsAndStores) {
  const std::string text = run_alone("fold_identity_pointer_casts", kernel_module(kUshortPointers + R"(
      %value = OpLoad %ushort %as_ushorts Aligned 2
    %doubled = OpIAdd %ushort %value %value
               OpStore %as_ushorts %doubled Aligned 2
               OpReturn
               OpFunctionEnd
)"));
  EXPECT_EQ(count(text, "OpBitcast"), 0) << text;
  EXPECT_EQ(count(text, "%as_ushorts"), 0) << "neither the cast nor its OpName stays:\n" << text;
  EXPECT_TRUE(contains(text, "%value = OpLoad %ushort %halves Aligned 2\n")) << text;
  EXPECT_TRUE(contains(text, "OpStore %halves %doubled Aligned 2\n")) << text;
}

// An access chain's element size may come from its base's ArrayStride, so
// the cast it uses must stay, and so must the load through the same cast.
TEST(FoldIdentityPointerCasts, ACastAnAccessChainUsesStays) {
  const std::string text = run_alone("fold_identity_pointer_casts", kernel_module(kUshortPointers + R"(
      %first = OpLoad %ushort %as_ushorts Aligned 2
%second_ptr = OpPtrAccessChain %ushort_ptr %as_ushorts %ulong_1
     %second = OpLoad %ushort %second_ptr Aligned 2
        %sum = OpIAdd %ushort %first %second
               OpStore %halves %sum Aligned 2
               OpReturn
               OpFunctionEnd
)"));
  EXPECT_TRUE(contains(text, "%as_ushorts = OpBitcast %ushort_ptr %halves\n")) << text;
  EXPECT_TRUE(contains(text, "%first = OpLoad %ushort %as_ushorts Aligned 2\n")) << text;
  EXPECT_TRUE(contains(text, "%second_ptr = OpPtrAccessChain %ushort_ptr %as_ushorts %ulong_1\n")) << text;
}

// A cast to a pointer to another type (float* read as uint*) changes what
// the load reads: it is no identity, and stays.
TEST(FoldIdentityPointerCasts, ACastToAnotherPointeeStays) {
  const std::string text = run_alone("fold_identity_pointer_casts", kernel_module(R"(
       %uint = OpTypeInt 32 0
      %float = OpTypeFloat 32
  %float_ptr = OpTypePointer CrossWorkgroup %float
   %uint_ptr = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %uint %float_ptr
          %f = OpFunction %uint None %fn
     %floats = OpFunctionParameter %float_ptr
      %entry = OpLabel
   %as_uints = OpBitcast %uint_ptr %floats
       %bits = OpLoad %uint %as_uints Aligned 4
               OpReturnValue %bits
               OpFunctionEnd
)"));
  EXPECT_TRUE(contains(text, "%as_uints = OpBitcast %uint_ptr %floats\n%bits = OpLoad %uint %as_uints Aligned 4\n"))
      << text;
}

// ---------------------------------------------------------------------------
// narrow_truncated_arithmetic

// `uint index = get_group_id(0) * 16 + get_local_id(0)`: size_t arithmetic
// on zero-extended 32-bit values, truncated to uint. The low 32 bits of a
// product and a sum depend only on the low 32 bits of their operands, so
// the same tree is done on the 32-bit values (the constant narrowed), and
// the truncation becomes a copy of its root.
TEST(NarrowTruncatedArithmetic, SizeTArithmeticOnExtendedIntsTruncatedToUintIsDoneIn32Bits) {
  const std::string text = run_alone("narrow_truncated_arithmetic", kernel_module(R"(
               OpCapability Int64
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
   %ulong_16 = OpConstant %ulong 16
         %fn = OpTypeFunction %uint %uint %uint
          %f = OpFunction %uint None %fn
      %group = OpFunctionParameter %uint
      %local = OpFunctionParameter %uint
      %entry = OpLabel
    %group64 = OpUConvert %ulong %group
    %local64 = OpUConvert %ulong %local
     %scaled = OpIMul %ulong %group64 %ulong_16
        %sum = OpIAdd %ulong %scaled %local64
      %index = OpUConvert %uint %sum
               OpReturnValue %index
               OpFunctionEnd
)"));
  const std::string scaled = captured(text, R"((%\w+) = OpIMul %uint %group %uint_16\n)");
  const std::string sum = captured(text, "(%\\w+) = OpIAdd %uint " + scaled + " %local\n");
  EXPECT_TRUE(contains(text, "%index = OpCopyObject %uint " + sum + "\n")) << text;
  EXPECT_EQ(count(text, "OpUConvert %uint"), 0) << text;
}

// get_global_id(0) as lower_builtin_variables leaves it (a component of the
// widened uint3), masked to its low 32 bits and shifted, as clang writes
// `(uint)(id & 0xffffffff) << 2` in size_t: the component is taken from the
// 32-bit vector, the mask (which keeps all 32 bits) disappears, and the
// shift by a constant below 32 is done in 32 bits.
TEST(NarrowTruncatedArithmetic, AComponentOfAWidenedVectorMaskedAndShiftedNarrowsToTheUint3) {
  const std::string text = run_alone("narrow_truncated_arithmetic", kernel_module(R"(
               OpCapability Int64
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
     %v3uint = OpTypeVector %uint 3
    %v3ulong = OpTypeVector %ulong 3
    %ulong_2 = OpConstant %ulong 2
 %ulong_mask = OpConstant %ulong 4294967295
         %fn = OpTypeFunction %uint %v3uint
          %f = OpFunction %uint None %fn
        %ids = OpFunctionParameter %v3uint
      %entry = OpLabel
      %ids64 = OpUConvert %v3ulong %ids
        %id0 = OpCompositeExtract %ulong %ids64 0
     %masked = OpBitwiseAnd %ulong %id0 %ulong_mask
    %shifted = OpShiftLeftLogical %ulong %masked %ulong_2
     %offset = OpUConvert %uint %shifted
               OpReturnValue %offset
               OpFunctionEnd
)"));
  const std::string component = captured(text, R"((%\w+) = OpCompositeExtract %uint %ids 0\n)");
  const std::string shifted = captured(text, "(%\\w+) = OpShiftLeftLogical %uint " + component + " %uint_2\n");
  EXPECT_TRUE(contains(text, "%offset = OpCopyObject %uint " + shifted + "\n")) << text;
  EXPECT_EQ(count(text, "OpBitwiseAnd %uint"), 0) << text;
}

// A leaf that is no extension of a 32-bit value (here a size_t parameter)
// would need its own truncation: narrowing adds instructions instead of
// removing them, so the truncated tree stays, as does one with a shift by
// 32 or more (whose low bits the narrowed shift would not give).
TEST(NarrowTruncatedArithmetic, TreesWithALeafThatIsNoExtensionOrAWideShiftStay) {
  const std::string text = run_alone("narrow_truncated_arithmetic", kernel_module(R"(
               OpCapability Int64
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
    %ulong_1 = OpConstant %ulong 1
   %ulong_32 = OpConstant %ulong 32
         %fn = OpTypeFunction %uint %ulong %uint
          %f = OpFunction %uint None %fn
          %n = OpFunctionParameter %ulong
          %i = OpFunctionParameter %uint
      %entry = OpLabel
       %next = OpIAdd %ulong %n %ulong_1
  %truncated = OpUConvert %uint %next
        %i64 = OpUConvert %ulong %i
       %high = OpShiftLeftLogical %ulong %i64 %ulong_32
        %low = OpUConvert %uint %high
        %sum = OpIAdd %uint %truncated %low
               OpReturnValue %sum
               OpFunctionEnd
)"));
  EXPECT_TRUE(contains(text, "%next = OpIAdd %ulong %n %ulong_1\n%truncated = OpUConvert %uint %next\n")) << text;
  EXPECT_TRUE(contains(text, "%high = OpShiftLeftLogical %ulong %i64 %ulong_32\n%low = OpUConvert %uint %high\n"))
      << text;
  EXPECT_EQ(count(text, "OpCopyObject"), 0) << text;
}

// A 64-bit value that something else still uses (here stored as a size_t)
// must stay beside its 32-bit copy; only the truncation changes.
TEST(NarrowTruncatedArithmetic, A64BitValueUsedElsewhereStays) {
  const std::string text = run_alone("narrow_truncated_arithmetic", kernel_module(R"(
               OpCapability Int64
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
  %ulong_ptr = OpTypePointer CrossWorkgroup %ulong
         %fn = OpTypeFunction %uint %uint %uint %ulong_ptr
          %f = OpFunction %uint None %fn
          %a = OpFunctionParameter %uint
          %b = OpFunctionParameter %uint
        %out = OpFunctionParameter %ulong_ptr
      %entry = OpLabel
        %a64 = OpUConvert %ulong %a
        %b64 = OpUConvert %ulong %b
        %sum = OpIAdd %ulong %a64 %b64
               OpStore %out %sum Aligned 8
  %truncated = OpUConvert %uint %sum
               OpReturnValue %truncated
               OpFunctionEnd
)"));
  const std::string narrow = captured(text, R"((%\w+) = OpIAdd %uint %a %b\n)");
  EXPECT_TRUE(contains(text, "%truncated = OpCopyObject %uint " + narrow + "\n")) << text;
  EXPECT_TRUE(contains(text, "%sum = OpIAdd %ulong %a64 %b64\n")) << text;
  EXPECT_TRUE(contains(text, "OpStore %out %sum Aligned 8\n")) << text;
}

}  // namespace
}  // namespace vkcl

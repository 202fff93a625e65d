// Passes one at a time, as SPIRV-Tools tests its optimizer's: SPIR-V
// assembly in, the named pass alone (run_lowering_passes), the disassembly
// out and checked. Each pass can be debugged and changed against these
// without the rest of the lowering in the way; the end-to-end golden and
// execution tests still cover the whole.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "compile_error.h"
#include "pass_assembly.h"

namespace vkcl {
namespace {

using test::count;
using test::kernel_module;
using test::run_alone;
using test::run_passes;

// ---------------------------------------------------------------------------
// splat_select_conditions

TEST(SplatSelectConditions, AScalarConditionBetweenVectorsBecomesAVectorOfIt) {
  const std::string text = run_alone("splat_select_conditions", kernel_module(R"(
       %bool = OpTypeBool
      %float = OpTypeFloat 32
    %v4float = OpTypeVector %float 4
     %v4bool = OpTypeVector %bool 4
         %fn = OpTypeFunction %v4float %bool %v4bool %v4float %v4float %float
          %f = OpFunction %v4float None %fn
       %cond = OpFunctionParameter %bool
      %conds = OpFunctionParameter %v4bool
          %a = OpFunctionParameter %v4float
          %b = OpFunctionParameter %v4float
          %s = OpFunctionParameter %float
      %entry = OpLabel
     %scalar = OpSelect %v4float %cond %a %b
   %per_lane = OpSelect %v4float %conds %a %b
  %of_floats = OpSelect %float %cond %s %s
        %sum = OpFAdd %v4float %scalar %per_lane
               OpReturnValue %sum
               OpFunctionEnd
)"));
  // The scalar condition, splatted once, selects between the vectors.
  std::smatch splat;
  ASSERT_TRUE(std::regex_search(text, splat, std::regex(R"((%\w+) = OpCompositeConstruct %v4bool %cond %cond %cond %cond)")))
      << text;
  EXPECT_NE(text.find("%scalar = OpSelect %v4float " + splat[1].str() + " %a %b"), std::string::npos) << text;
  // A vector condition, and a scalar select of scalars, stay as they were.
  EXPECT_NE(text.find("%per_lane = OpSelect %v4float %conds %a %b"), std::string::npos) << text;
  EXPECT_NE(text.find("%of_floats = OpSelect %float %cond %s %s"), std::string::npos) << text;
  EXPECT_EQ(count(text, "OpCompositeConstruct"), 1) << text;
}

// ---------------------------------------------------------------------------
// forbid_fp_contraction

TEST(ForbidFpContraction, FloatArithmeticIsDecoratedNoContractionAndNothingElse) {
  const std::string text = run_alone("forbid_fp_contraction", kernel_module(R"(
       %uint = OpTypeInt 32 0
      %float = OpTypeFloat 32
         %fn = OpTypeFunction %float %float %float %uint
          %f = OpFunction %float None %fn
          %x = OpFunctionParameter %float
          %y = OpFunctionParameter %float
          %n = OpFunctionParameter %uint
      %entry = OpLabel
    %product = OpFMul %float %x %y
        %sum = OpFAdd %float %product %y
    %integer = OpIAdd %uint %n %n
  %converted = OpConvertUToF %float %integer
     %result = OpFSub %float %sum %converted
               OpReturnValue %result
               OpFunctionEnd
)"));
  for (const char* id : {"%product", "%sum", "%result"})
    EXPECT_NE(text.find(std::string("OpDecorate ") + id + " NoContraction"), std::string::npos) << id << "\n" << text;
  EXPECT_EQ(text.find("OpDecorate %integer"), std::string::npos) << text;
  EXPECT_EQ(text.find("OpDecorate %converted"), std::string::npos) << text;
  EXPECT_EQ(count(text, "NoContraction"), 3) << text;
}

// ---------------------------------------------------------------------------
// lower_signed_remainders

TEST(LowerSignedRemainders, SRemBecomesAnUnsignedRemainderOfMagnitudesWithTheDividendsSign) {
  const std::string text = run_alone("lower_signed_remainders", kernel_module(R"(
       %uint = OpTypeInt 32 0
         %fn = OpTypeFunction %uint %uint %uint
          %f = OpFunction %uint None %fn
          %a = OpFunctionParameter %uint
          %b = OpFunctionParameter %uint
      %entry = OpLabel
  %remainder = OpSRem %uint %a %b
   %unsigned = OpUMod %uint %a %b
        %sum = OpIAdd %uint %remainder %unsigned
               OpReturnValue %sum
               OpFunctionEnd
)"));
  EXPECT_EQ(count(text, "OpSRem|OpSMod"), 0) << text;
  // The user's OpUMod, and one on the magnitudes.
  EXPECT_EQ(count(text, "OpUMod"), 2) << text;
  EXPECT_NE(text.find("%unsigned = OpUMod %uint %a %b"), std::string::npos) << text;
  // Each operand's sign is tested once, and the magnitude's remainder is negated for a negative dividend.
  EXPECT_GE(count(text, "OpSLessThan %bool %a|OpSLessThan %bool %b"), 2) << text;
  EXPECT_GE(count(text, "OpSNegate %uint"), 1) << text;
  EXPECT_EQ(text.find("%remainder = OpSRem"), std::string::npos) << text;
}

// ---------------------------------------------------------------------------
// structurize_control_flow

// A diamond and a do-while loop of one block, as structurizecfg leaves them
// (no merge instructions): the branch gets OpSelectionMerge at its immediate
// post-dominator, the loop header OpLoopMerge with its exit.
TEST(StructurizeControlFlow, ADiamondAndADoWhileLoopGetTheirMergeInstructions) {
  const std::string text = run_alone("structurize_control_flow", kernel_module(R"(
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
     %uint_1 = OpConstant %uint 1
         %fn = OpTypeFunction %uint %bool %uint
          %f = OpFunction %uint None %fn
       %cond = OpFunctionParameter %bool
          %n = OpFunctionParameter %uint
      %entry = OpLabel
               OpBranchConditional %cond %then %else
       %then = OpLabel
               OpBranch %join
       %else = OpLabel
               OpBranch %join
       %join = OpLabel
     %picked = OpPhi %uint %uint_1 %then %n %else
               OpBranch %header
     %header = OpLabel
          %i = OpPhi %uint %picked %join %next %header
       %next = OpIAdd %uint %i %uint_1
       %more = OpULessThan %bool %next %n
               OpBranchConditional %more %header %exit
       %exit = OpLabel
               OpReturnValue %next
               OpFunctionEnd
)"));
  EXPECT_NE(text.find("OpSelectionMerge %join None\nOpBranchConditional %cond %then %else"), std::string::npos) << text;
  // A loop of one block is its own continue target.
  EXPECT_NE(text.find("OpLoopMerge %exit %header None\nOpBranchConditional %more %header %exit"), std::string::npos) << text;
  // Every conditional branch is now preceded by its merge instruction.
  EXPECT_EQ(count(text, "OpBranchConditional"), count(text, "OpSelectionMerge|OpLoopMerge")) << text;
}

// A loop whose body branches and rejoins at the latch: the selection merges
// at the latch, so the back edge moves to a continue target split off it (a
// continue target cannot also be a selection's merge).
TEST(StructurizeControlFlow, ASelectionThatMergesAtTheLatchGetsTheLatchAndTheLoopASplitContinueTarget) {
  const std::string text = run_alone("structurize_control_flow", kernel_module(R"(
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
         %fn = OpTypeFunction %uint %uint
          %f = OpFunction %uint None %fn
          %n = OpFunctionParameter %uint
      %entry = OpLabel
               OpBranch %header
     %header = OpLabel
          %i = OpPhi %uint %uint_1 %entry %next %latch
        %odd = OpBitwiseAnd %uint %i %uint_1
     %is_odd = OpIEqual %bool %odd %uint_1
               OpBranchConditional %is_odd %one %two
        %one = OpLabel
               OpBranch %latch
        %two = OpLabel
               OpBranch %latch
      %latch = OpLabel
       %step = OpPhi %uint %uint_1 %one %uint_2 %two
       %next = OpIAdd %uint %i %step
       %more = OpULessThan %bool %next %n
               OpBranchConditional %more %header %exit
       %exit = OpLabel
               OpReturnValue %next
               OpFunctionEnd
)"));
  std::smatch loop;
  ASSERT_TRUE(std::regex_search(text, loop, std::regex(R"(OpLoopMerge %exit (%\w+) None)"))) << text;
  const std::string continue_target = loop[1].str();
  EXPECT_NE(continue_target, "%latch") << text;
  EXPECT_NE(text.find("OpSelectionMerge %latch None\nOpBranchConditional %is_odd %one %two"), std::string::npos) << text;
  // The back edge now leaves the continue target.
  EXPECT_NE(text.find(continue_target + " = OpLabel"), std::string::npos) << text;
  EXPECT_EQ(count(text, "OpBranchConditional"), count(text, "OpSelectionMerge|OpLoopMerge")) << text;
}

// ---------------------------------------------------------------------------
// unrotate_loops

// The start of every unrotate_loops test: uint f(uint first, uint n), up to its entry label.
const std::string kCountingFunction = R"(
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
    %uint_10 = OpConstant %uint 10
    %uint_32 = OpConstant %uint 32
   %uint_224 = OpConstant %uint 224
   %uint_256 = OpConstant %uint 256
    %int_max = OpConstant %uint 2147483647
%int_max_m_2 = OpConstant %uint 2147483645
        %ptr = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %uint %uint %uint
          %f = OpFunction %uint None %fn
      %first = OpFunctionParameter %uint
          %n = OpFunctionParameter %uint
      %entry = OpLabel
)";

// `for (k = first; k < 256; k += 32) acc += k;` as LLVM rotates it (the
// shape of algo_gemv_local_reduce): the guard tests the first k, the latch
// `k >= 224`, which it derived from `k + 32 < 256`.
std::string rotated_counting_loop(const std::string& guard_bound, const std::string& latch_bound,
                                  const std::string& preheader = "") {
  return kCountingFunction + R"(
      %guard = OpSLessThan %bool %first )" + guard_bound + R"(
               OpBranchConditional %guard %preheader %merge
  %preheader = OpLabel
)" + preheader + R"(
               OpBranch %loop
       %loop = OpLabel
          %k = OpPhi %uint %first %preheader %next %loop
        %acc = OpPhi %uint %uint_0 %preheader %sum %loop
        %sum = OpIAdd %uint %acc %k
       %next = OpIAdd %uint %k %uint_32
       %done = OpSGreaterThanEqual %bool %k )" + latch_bound + R"(
               OpBranchConditional %done %exit %loop
       %exit = OpLabel
               OpBranch %merge
      %merge = OpLabel
     %result = OpPhi %uint %sum %exit %uint_0 %entry
               OpReturnValue %result
               OpFunctionEnd
)";
}

// The loop gets a header that holds the phis and tests `k < 256` (the
// guard's test) on them; the latch branches back to it; the guard goes, as
// the new header's first test is the guard's; M takes the sum from the
// phi that carries it.
TEST(UnrotateLoops, ACountedLoopIsTestedAtItsTopAndItsGuardGoes) {
  const std::string text = run_alone("unrotate_loops", kernel_module(rotated_counting_loop("%uint_256", "%uint_224")));
  std::smatch header;
  ASSERT_TRUE(std::regex_search(text, header, std::regex(R"((%\w+) = OpLabel\n%k = OpPhi %uint %first %preheader %next %loop\n)"
                                                         R"(%acc = OpPhi %uint %uint_0 %preheader %sum %loop\n)"
                                                         R"((%\w+) = OpSLessThan %bool %k %uint_256\n)"
                                                         R"(OpBranchConditional (%\w+) %loop %exit\n)"))) << text;
  EXPECT_EQ(header[2].str(), header[3].str()) << text;
  EXPECT_NE(text.find("OpBranch %preheader\n"), std::string::npos) << "the guard stays:\n" << text;
  EXPECT_EQ(count(text, "OpBranch " + header[1].str() + "\n"), 2) << "from the preheader and the latch:\n" << text;
  EXPECT_NE(text.find("%result = OpPhi %uint %acc %exit\n"), std::string::npos) << text;
  EXPECT_EQ(count(text, "OpBranchConditional"), 1) << text;
}

// With structurize_control_flow after it, the loop is as glslang writes a
// `for`: the merge in the header that tests, the back edge alone in the
// continue target; the module validates (run_passes' lowering validates).
TEST(UnrotateLoops, TheLoopTestedAtItsTopIsStructuredWithoutSplittingItsHeader) {
  const std::string text = run_passes({"unrotate_loops", "structurize_control_flow"},
                                      kernel_module(rotated_counting_loop("%uint_256", "%uint_224")));
  std::smatch merge;
  ASSERT_TRUE(std::regex_search(text, merge, std::regex(R"(OpLoopMerge %exit (%\w+) None\nOpBranchConditional %\w+ %loop %exit\n)")))
      << text;
  EXPECT_NE(text.find(merge[1].str() + " = OpLabel\nOpBranch "), std::string::npos) << text;
  EXPECT_EQ(count(text, "OpSelectionMerge"), 0) << text;
}

// `k + 32 < B` is `k < B - 32` only where k + 32 cannot overflow: from a
// guard `first < INT_MAX`, k reaches INT_MAX - 1, and k + 32 wraps. The
// loop stays as it was.
TEST(UnrotateLoops, ACountedLoopWhoseStepCouldOverflowStaysRotated) {
  const std::string text = run_alone("unrotate_loops", kernel_module(rotated_counting_loop("%int_max", "%int_max_m_2")));
  EXPECT_NE(text.find("OpBranchConditional %done %exit %loop"), std::string::npos) << text;
  EXPECT_NE(text.find("OpBranchConditional %guard %preheader %merge"), std::string::npos) << text;
}

// A latch bound that is not the guard's minus the step (here 256 - 32 + 1)
// proves nothing either.
TEST(UnrotateLoops, ALatchBoundThatIsNotTheGuardsStaysRotated) {
  const std::string text = run_alone("unrotate_loops", kernel_module(rotated_counting_loop("%uint_256", "%uint_256")));
  EXPECT_NE(text.find("OpBranchConditional %done %exit %loop"), std::string::npos) << text;
}

// A preheader that loads may not run when the loop does not: the guard stays,
// and the header still tests (its first test then always holds).
TEST(UnrotateLoops, APreheaderThatLoadsKeepsTheGuard) {
  const std::string text = run_alone("unrotate_loops", kernel_module(rotated_counting_loop(
      "%uint_256", "%uint_224", "        %var = OpVariable %ptr CrossWorkgroup\n     %loaded = OpLoad %uint %var\n")));
  EXPECT_NE(text.find("OpBranchConditional %guard %preheader %merge"), std::string::npos) << text;
  EXPECT_NE(text.find("OpSLessThan %bool %k %uint_256"), std::string::npos) << text;
  EXPECT_NE(text.find("%result = OpPhi %uint %acc %exit %uint_0 %entry"), std::string::npos) << text;
}

// `for (k = first; k < n; k += 32)` with n unknown: the latch tests the
// next value as the guard tests the first, so the header tests k < n.
TEST(UnrotateLoops, ALoopToAnUnknownBoundTestsTheGuardsComparisonOnThePhi) {
  const std::string text = run_alone("unrotate_loops", kernel_module(kCountingFunction + R"(
      %guard = OpSLessThan %bool %first %n
               OpBranchConditional %guard %loop %merge
       %loop = OpLabel
          %k = OpPhi %uint %first %entry %next %loop
       %next = OpIAdd %uint %k %uint_32
       %more = OpSLessThan %bool %next %n
               OpBranchConditional %more %loop %merge
      %merge = OpLabel
     %result = OpPhi %uint %next %loop %uint_0 %entry
               OpReturnValue %result
               OpFunctionEnd
)"));
  EXPECT_NE(text.find("OpSLessThan %bool %k %n\n"), std::string::npos) << text;
  EXPECT_NE(text.find("%guard = OpSLessThan %bool %first %n\nOpBranch "), std::string::npos) << text;
  EXPECT_EQ(count(text, "OpBranchConditional"), 1) << text;
}

// `for (k = first; k < n; ++k)` over unsigned k as LLVM rotates it when
// `first` is a constant: the guard `first < n`, which for 0 LLVM writes as
// `n != 0`; the latch leaves when `k + 1 >= n`.
std::string loop_guarded_by_not_zero(const std::string& first) {
  return kCountingFunction + R"(
      %guard = OpINotEqual %bool %n %uint_0
               OpBranchConditional %guard %loop %merge
       %loop = OpLabel
          %k = OpPhi %uint )" + first + R"( %entry %next %loop
       %next = OpIAdd %uint %k %uint_1
       %done = OpUGreaterThanEqual %bool %next %n
               OpBranchConditional %done %merge %loop
      %merge = OpLabel
     %result = OpPhi %uint %next %loop %uint_0 %entry
               OpReturnValue %result
               OpFunctionEnd
)";
}

// Counting from 0 (histogram's loop): on the first trip `k < n` is
// `n != 0`, on every later one the latch's test, so the header tests k < n
// and the guard goes.
TEST(UnrotateLoops, AGuardNotZeroOfALoopCountingUpFromZeroIsItsUnsignedBound) {
  const std::string text = run_alone("unrotate_loops", kernel_module(loop_guarded_by_not_zero("%uint_0")));
  EXPECT_NE(text.find("OpULessThan %bool %k %n\n"), std::string::npos) << text;
  EXPECT_EQ(count(text, "OpBranchConditional"), 1) << text;
}

// Counting from 1, the same guard proves nothing: `n != 0` does not say
// 1 < n. The loop stays rotated.
TEST(UnrotateLoops, AGuardNotZeroOfALoopCountingFromOneStaysRotated) {
  const std::string text = run_alone("unrotate_loops", kernel_module(loop_guarded_by_not_zero("%uint_1")));
  EXPECT_NE(text.find("OpBranchConditional %done %merge %loop"), std::string::npos) << text;
  EXPECT_NE(text.find("OpBranchConditional %guard %loop %merge"), std::string::npos) << text;
}

// `for (s = first; s > 0; s >>= 1)` over unsigned s: the guard `s != 0`, the
// latch `s < 2` to leave; (s >> 1) != 0 is s >= 2, so the header tests s != 0.
TEST(UnrotateLoops, AHalvingLoopTestsItsCounterAgainstZero) {
  const std::string text = run_alone("unrotate_loops", kernel_module(kCountingFunction + R"(
      %guard = OpINotEqual %bool %first %uint_0
               OpBranchConditional %guard %loop %merge
       %loop = OpLabel
          %s = OpPhi %uint %first %entry %half %loop
       %half = OpShiftRightLogical %uint %s %uint_1
       %done = OpULessThan %bool %s %uint_2
               OpBranchConditional %done %merge %loop
      %merge = OpLabel
               OpReturnValue %n
               OpFunctionEnd
)"));
  EXPECT_NE(text.find("OpINotEqual %bool %s %uint_0\n"), std::string::npos) << text;
  EXPECT_EQ(count(text, "OpBranchConditional"), 1) << text;
}

// `for (i = 0; i != 10; ++i)` has no guard (it runs at least once): the
// latch's test of i + 1 moves onto the phi, which it holds for 0. The sum
// the loop leaves is read from the phi that carries it back.
TEST(UnrotateLoops, ALoopWithoutAGuardTestsTheLatchsComparisonOnThePhi) {
  const std::string text = run_alone("unrotate_loops", kernel_module(kCountingFunction + R"(
               OpBranch %loop
       %loop = OpLabel
          %i = OpPhi %uint %uint_0 %entry %next %loop
        %acc = OpPhi %uint %first %entry %sum %loop
        %sum = OpIAdd %uint %acc %i
       %next = OpIAdd %uint %i %uint_1
       %more = OpINotEqual %bool %next %uint_10
               OpBranchConditional %more %loop %exit
       %exit = OpLabel
               OpReturnValue %sum
               OpFunctionEnd
)"));
  EXPECT_NE(text.find("OpINotEqual %bool %i %uint_10\n"), std::string::npos) << text;
  EXPECT_NE(text.find("OpReturnValue %acc\n"), std::string::npos) << text;
}

// After the loop, a header phi read there held its value of the last trip;
// in H' it holds the next one, so the read goes to a phi one trip behind
// (algo_xorshift_rng's state, which the differential test caught).
TEST(UnrotateLoops, AHeaderPhiReadAfterTheLoopIsReadOneTripBehind) {
  const std::string text = run_alone("unrotate_loops", kernel_module(kCountingFunction + R"(
               OpBranch %loop
       %loop = OpLabel
          %i = OpPhi %uint %uint_0 %entry %next %loop
       %next = OpIAdd %uint %i %uint_1
       %more = OpINotEqual %bool %next %uint_10
               OpBranchConditional %more %loop %exit
       %exit = OpLabel
               OpReturnValue %i
               OpFunctionEnd
)"));
  std::smatch behind;
  ASSERT_TRUE(std::regex_search(text, behind, std::regex(R"((%\w+) = OpPhi %uint %uint_0 %entry %i %loop\n)"))) << text;
  EXPECT_NE(text.find("OpReturnValue " + behind[1].str() + "\n"), std::string::npos) << text;
}

// The same loop from 10 would not run its first trip through a test of i != 10.
TEST(UnrotateLoops, ALoopWithoutAGuardWhoseFirstValueFailsTheTestStaysRotated) {
  const std::string text = run_alone("unrotate_loops", kernel_module(kCountingFunction + R"(
               OpBranch %loop
       %loop = OpLabel
          %i = OpPhi %uint %uint_10 %entry %next %loop
       %next = OpIAdd %uint %i %uint_1
       %more = OpINotEqual %bool %next %uint_10
               OpBranchConditional %more %loop %exit
       %exit = OpLabel
               OpReturnValue %i
               OpFunctionEnd
)"));
  EXPECT_NE(text.find("OpBranchConditional %more %loop %exit"), std::string::npos) << text;
}

// ---------------------------------------------------------------------------
// route_loop_breaks

// The start of every route_loop_breaks test: uint f(uint n, uint limit), up to its entry label.
const std::string kLoopFunction = R"(
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
       %true = OpConstantTrue %bool
        %ptr = OpTypePointer Function %uint
         %fn = OpTypeFunction %uint %uint %uint
          %f = OpFunction %uint None %fn
          %n = OpFunctionParameter %uint
      %limit = OpFunctionParameter %uint
      %entry = OpLabel
)";

// The shape structurizecfg gives `while (...) { if (stop) break; ... }`: the
// header's break sets the flag %leave (true) on its way to the latch, which
// branches on it. The break must branch to the exit instead; the latch's phis
// forget the header; the value the latch computes and the exit uses gets a
// phi in the exit, with the header's value of it copied into the header.
const std::string kLoopWithBreak = kLoopFunction + R"(
               OpBranch %header
     %header = OpLabel
          %i = OpPhi %uint %uint_1 %entry %next %latch
       %stop = OpUGreaterThan %bool %i %limit
               OpBranchConditional %stop %latch %body
       %body = OpLabel
       %step = OpIAdd %uint %i %uint_2
       %done = OpUGreaterThanEqual %bool %step %n
               OpBranch %latch
      %latch = OpLabel
      %leave = OpPhi %bool %true %header %done %body
       %next = OpPhi %uint %i %header %step %body
     %result = OpIMul %uint %next %uint_2
               OpBranchConditional %leave %exit %header
       %exit = OpLabel
               OpReturnValue %result
               OpFunctionEnd
)";

TEST(RouteLoopBreaks, ABreakThroughTheLatchBranchesToTheExitAndItsValuesMeetThere) {
  const std::string text = run_alone("route_loop_breaks", kernel_module(kLoopWithBreak));
  EXPECT_NE(text.find("OpBranchConditional %stop %exit %body"), std::string::npos) << text;
  EXPECT_NE(text.find("%leave = OpPhi %bool %done %body\n"), std::string::npos) << text;
  EXPECT_NE(text.find("%next = OpPhi %uint %step %body\n"), std::string::npos) << text;
  // The header computes what the latch would have: %result of %next = %i.
  std::smatch copy;
  ASSERT_TRUE(std::regex_search(text, copy, std::regex(R"((%\w+) = OpIMul %uint %i %uint_2)"))) << text;
  EXPECT_NE(text.find("OpPhi %uint %result %latch " + copy[1].str() + " %header"), std::string::npos) << text;
  EXPECT_EQ(count(text, "OpReturnValue %result\n"), 0) << text;
}

TEST(RouteLoopBreaks, TheBreakNeedsNoSelectionMergeAndTheLoopStaysStructured) {
  const std::string text = run_passes({"route_loop_breaks", "structurize_control_flow"}, kernel_module(kLoopWithBreak));
  // The header holds the loop merge alone; the branch split off it is a break.
  EXPECT_NE(text.find("OpLoopMerge %exit"), std::string::npos) << text;
  EXPECT_NE(text.find("OpBranchConditional %stop %exit %body"), std::string::npos) << text;
  EXPECT_EQ(count(text, "OpSelectionMerge"), 0) << text;
}

// A break inside a selection (`if (a) { if (b) break; x(); }`): the outer
// selection merges at the latch (the block with its phis, split from the
// continue target), inside the loop, not at the loop's merge, which two
// constructs cannot share. The inner branch is the break.
TEST(RouteLoopBreaks, ASelectionHoldingABreakMergesInsideTheLoop) {
  const std::string text = run_passes({"route_loop_breaks", "structurize_control_flow"}, kernel_module(kLoopFunction + R"(
               OpBranch %header
     %header = OpLabel
          %i = OpPhi %uint %uint_1 %entry %next %latch
          %a = OpULessThan %bool %i %n
               OpBranchConditional %a %inner %join
      %inner = OpLabel
          %b = OpUGreaterThan %bool %i %limit
               OpBranchConditional %b %latch %rest
       %rest = OpLabel
               OpBranch %join
       %join = OpLabel
       %done = OpUGreaterThanEqual %bool %i %n
               OpBranch %latch
      %latch = OpLabel
      %leave = OpPhi %bool %true %inner %done %join
       %next = OpIAdd %uint %i %uint_1
               OpBranchConditional %leave %exit %header
       %exit = OpLabel
               OpReturnValue %i
               OpFunctionEnd
)"));
  EXPECT_NE(text.find("OpBranchConditional %b %exit %rest"), std::string::npos) << text;
  EXPECT_NE(text.find("OpSelectionMerge %latch None\nOpBranchConditional %a %inner %join"), std::string::npos) << text;
  EXPECT_EQ(count(text, "OpSelectionMerge %exit"), 0) << text;
}

// A latch that loads (or does anything else a copy on another edge could
// not repeat) keeps its loop as structurizecfg left it.
TEST(RouteLoopBreaks, ALatchThatLoadsKeepsItsLoop) {
  const std::string text = run_alone("route_loop_breaks", kernel_module(kLoopFunction + R"(
        %var = OpVariable %ptr Function
               OpBranch %header
     %header = OpLabel
          %i = OpPhi %uint %uint_1 %entry %next %latch
       %stop = OpUGreaterThan %bool %i %n
               OpBranchConditional %stop %latch %body
       %body = OpLabel
               OpBranch %latch
      %latch = OpLabel
      %leave = OpPhi %bool %true %header %stop %body
     %loaded = OpLoad %uint %var
       %next = OpIAdd %uint %i %loaded
               OpBranchConditional %leave %exit %header
       %exit = OpLabel
               OpReturnValue %next
               OpFunctionEnd
)"));
  EXPECT_NE(text.find("OpBranchConditional %stop %latch %body"), std::string::npos) << text;
  EXPECT_NE(text.find("%leave = OpPhi %bool %true %header %stop %body"), std::string::npos) << text;
}

// ---------------------------------------------------------------------------
// lower_pointer_selection

// `__local float a[64], b[64]; *(cond ? &a[i] : &b[i])`: the two arrays
// become one of 128 floats, and the pointer select a select of the offset
// (i or 64 + i) with the pointer rebuilt after it.
const std::string kTwoLocalArrays = R"(
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
      %float = OpTypeFloat 32
    %uint_64 = OpConstant %uint 64
     %floats = OpTypeArray %float %uint_64
  %ptr_array = OpTypePointer Workgroup %floats
  %ptr_float = OpTypePointer Workgroup %float
          %a = OpVariable %ptr_array Workgroup
          %b = OpVariable %ptr_array Workgroup
)";

TEST(LowerPointerSelection, TwoArraysChosenBetweenBecomeOneAndThePointerSelectAnOffsetSelect) {
  const std::string text = run_alone("lower_pointer_selection", kernel_module(kTwoLocalArrays + R"(
         %fn = OpTypeFunction %float %bool %uint
          %f = OpFunction %float None %fn
       %cond = OpFunctionParameter %bool
          %i = OpFunctionParameter %uint
      %entry = OpLabel
         %pa = OpInBoundsAccessChain %ptr_float %a %i
         %pb = OpInBoundsAccessChain %ptr_float %b %i
     %chosen = OpSelect %ptr_float %cond %pa %pb
      %value = OpLoad %float %chosen
               OpReturnValue %value
               OpFunctionEnd
)"));
  EXPECT_EQ(count(text, R"(OpSelect %_ptr)"), 0) << text;
  EXPECT_EQ(count(text, R"(OpTypeArray %float %uint_128)"), 1) << text;
  std::smatch offset;
  ASSERT_TRUE(std::regex_search(text, offset, std::regex(R"((%\w+) = OpIAdd %uint %uint_64 %i)"))) << text;
  EXPECT_EQ(count(text, "OpSelect %uint %cond %i " + offset[1].str()), 1) << text;
  // One variable is left, of the merged type.
  EXPECT_EQ(count(text, R"(= OpVariable %_ptr_Workgroup__arr_float_uint_128 Workgroup)"), 1) << text;
  EXPECT_EQ(count(text, R"(= OpVariable)"), 1) << text;
}

// Variables of different element types cannot share one array: a located
// error in the program's terms, never invalid SPIR-V.
TEST(LowerPointerSelection, ArraysOfDifferentTypesAreAnErrorThatSaysWhy) {
  try {
    run_alone("lower_pointer_selection", kernel_module(kTwoLocalArrays + R"(
     %uints = OpTypeArray %uint %uint_64
  %ptr_uints = OpTypePointer Workgroup %uints
   %ptr_uint = OpTypePointer Workgroup %uint
          %c = OpVariable %ptr_uints Workgroup
         %fn = OpTypeFunction %float %bool %uint
          %f = OpFunction %float None %fn
       %cond = OpFunctionParameter %bool
          %i = OpFunctionParameter %uint
      %entry = OpLabel
         %pa = OpInBoundsAccessChain %ptr_float %a %i
         %pc = OpInBoundsAccessChain %ptr_uint %c %i
        %pcf = OpBitcast %ptr_float %pc
     %chosen = OpSelect %ptr_float %cond %pa %pcf
      %value = OpLoad %float %chosen
               OpReturnValue %value
               OpFunctionEnd
)"));
    ADD_FAILURE() << "no error";
  } catch (const CompileError& error) {
    EXPECT_NE(std::string(error.what()).find("chosen at run time"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace vkcl

// unroll_barrier_loops: vkcl's unrolling preferences, in the one place LLVM
// asks a target for them (TargetTransformInfo::getUnrollingPreferences).
//
// vkcl compiles without a TargetMachine, so the optimizer's costs are LLVM's
// target-independent ones and the full-unroll size threshold is O2's 150.
// A loop that contains a barrier (__spirv_ControlBarrier: barrier,
// work_group_barrier, sub_group_barrier) with a trip count ScalarEvolution
// knows is fully unrolled up to 300 instead, LLVM's threshold at O3 and the
// AMDGPU backend's default: GPU compilers unroll such loops (the Hillis-Steele
// scan's `for (offset = 1; offset < 256; offset <<= 1)`), and once unrolled
// each copy's offsets and __local addresses are constants. Such a loop is
// never unrolled partially, at run time or to an upper bound: each barrier
// copy runs exactly when the iteration it came from ran. Every other cost
// and preference is LLVM's default, as without this analysis.
//
// Trip counts need no help: ScalarEvolution evaluates a shift or multiply
// recurrence with a constant start iteration by iteration (up to 100) when
// no formula gives its exit count, so LoopFullUnrollPass already knew the
// scan's 8; what kept it rolled was its unrolled size, about 165 against 150.
//
// Not guaranteed: that a barrier loop is unrolled (the unrolled size must
// stay within the threshold, and the trip count must be a constant).
#pragma once

namespace llvm {
template <typename IRUnitT, typename... ExtraArgTs>
class AnalysisManager;
class Function;
using FunctionAnalysisManager = AnalysisManager<Function>;
}  // namespace llvm

namespace vkcl {

// LLVM's O3 full-unroll threshold (UnrollThresholdAggressive), for loops with barriers.
inline constexpr unsigned kBarrierLoopUnrollThreshold = 300;

// Registers vkcl's TargetIRAnalysis in `analyses`; call before
// PassBuilder::registerFunctionAnalyses, which keeps the first registration.
void register_barrier_loop_unrolling(llvm::FunctionAnalysisManager& analyses);

}  // namespace vkcl

// give_endless_loops_an_exit: a loop that no branch leaves (`for (;;)`
// without a break, or one LLVM proved never exits once a loop-invariant
// test was hoisted out of it) gets an exit that is never taken: its latch's
// back edge becomes `br i1 false, label %never, label %header`, and %never
// returns from the function. Runs just before LLVM's structurization passes
// (prepare_for_translation), on the inlined function.
//
// Shader SPIR-V needs a merge block for every loop (OpLoopMerge), and
// spirv/structurize_control_flow takes it from the loop's single exit; a
// loop without one had no merge block ("a loop without a single exit
// survived structurization"). OpenMM's CCMA kernel has such a loop when its
// system has no constraints: `for (int i = 0; ; i++) { ... if (column >=
// NUM_CCMA_CONSTRAINTS) break; ... }` with NUM_CCMA_CONSTRAINTS 0 makes the
// test loop-invariant, and LLVM unswitches it into a loop that never exits
// (behind a branch that is never taken at run time). unify-loop-exits and
// structurizecfg then route the new exit like any other, through the
// enclosing loops. The branch condition is the constant false: the program
// still runs forever where the loop is entered, as C says it must.
#pragma once

namespace llvm {
class Function;
class LoopInfo;
}  // namespace llvm

namespace vkcl {

// Returns whether `function` changed.
bool give_endless_loops_an_exit(llvm::Function& function, const llvm::LoopInfo& loops);

}  // namespace vkcl

// Before the translator: the LLVM intrinsics SPIRV-LLVM-Translator 15
// rejects or lowers wrongly become plain IR.
//
//   - llvm.uadd.sat, llvm.usub.sat, llvm.sadd.sat, llvm.ssub.sat, which
//     LLVM's optimizer makes of saturating arithmetic (x + y < x ? MAX :
//     x + y), the builtins' add_sat included: the translator stops with
//     "Unexpected llvm intrinsic" (and asserts on vectors).
//   - llvm.fshl and llvm.fshr (funnel shifts, which the optimizer makes of
//     rotates): the translator shifts by the full width when the amount is a
//     multiple of it, which SPIR-V leaves undefined; here a zero amount gives
//     the operand itself.
//   - freeze instructions (the optimizer adds them when it turns branches
//     into selects or unswitches a loop): the translator has no
//     translation; SPIR-V has no poison, so each becomes its operand.
//
// Scalar and vector forms alike; the module is modified in place.
#pragma once

namespace llvm {
class Module;
}

namespace vkcl {

void expand_intrinsics_for_translator(llvm::Module& module);

}  // namespace vkcl

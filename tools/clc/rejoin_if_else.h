// rejoin_if_else: undoes structurizecfg's serialization of if/else.
//
// LLVM's structurizecfg, which clc runs so that spirv/structurize_control_flow
// can place merges, turns every `if (c) A; else B;` into two ifs in a row:
//   H: br c, A, Flow        A...: br Flow
//   Flow: %p = phi [true, H], [false, A]; (phis of A's values) br %p, B, M
//   B...: br M              M: phis
// GPU compilers take a SPIR-V if/else as one construct, but two ifs as two,
// each with its own divergence bookkeeping: on lavapipe, where every branch
// is an execution-mask update and a test whether any lane is left, the
// message-passing benchmark's `if (polls < SPIN_LIMIT) sum += ...; else
// ++missed;` cost it 7% against its GLSL twin. So where Flow is exactly that
// (its predecessors H and the end of A, only phis, its branch on the phi
// that says "from H", B entered only from Flow, M entered only from Flow and
// B's end), H branches to A and B, both end in M, M's phis take A's values
// from A's end, and B reads the values Flow had for the edge from H.
// The result is still the shape structurize_control_flow expects: the if/else
// is a single-entry, single-exit region headed by H and merging at M, and no
// loop changes.
#pragma once

namespace llvm {
class Function;
}

namespace vkcl {

// Returns whether `function` changed.
bool rejoin_if_else(llvm::Function& function);

}  // namespace vkcl

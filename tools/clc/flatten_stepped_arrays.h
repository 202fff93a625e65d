// flatten_stepped_arrays: a multidimensional array whose element pointers
// step past their row becomes one flat array, before LLVM folds the step
// into an index path that Vulkan's logical addressing cannot take.
//
// C lets a pointer into an array of arrays walk the whole object:
//   int a[4][4];  int* p = &a[0][0];  p[5]   is a[1][1].
// LLVM's optimizer folds `&a[0][0] + k` into the index path a[0][k], which
// in LLVM's byte semantics is the same address; as a SPIR-V access chain it
// is an index past its dimension, out of range (a wrong answer, no error).
// After folding it looks exactly like a[0][lid] written as such, so the
// step must be seen before the optimizer runs.
//
// Runs on the unoptimized module (after inlining and SROA, which turn
// clang's pointer variables into values, and the inference of generic
// pointers' address spaces). A variable is a private one (alloca) or a
// program-scope or __local one (global) whose type holds an array of
// arrays, directly or in structs (`struct { int n; int m[4][4]; }`). Every
// pointer derived from it is followed (GEPs, casts, phis, selects); if one
// of them, other than the variable itself, is stepped (a GEP whose first
// index is not zero), the variable takes its flat type: each array of
// arrays of E becomes [N x E] (E its innermost element; a struct holding one
// becomes a new struct named ".flat"), and every derived pointer is
// rewritten to match. A pointer inside a flat array is that array and an
// element offset (32 bits: an offset in the object fits, and wrapping
// arithmetic gives it exactly); elsewhere it is the new pointer itself.
// A comparison of two pointers into one flat array compares offsets; an
// address taken as an integer is the array's plus the offset's bytes (so
// `q - p` folds to the offsets'); anything else that uses a pointer
// (accesses, calls) gets the new address, cast to the type it had.
// Variables whose pointers do not step are left alone, so `tile[y][x]` keeps
// its two indices and costs nothing more (no kernel of shaders/corpus or
// shaders/bench is flattened).
#pragma once

namespace llvm {
class Module;
}

namespace vkcl {

// Returns the number of arrays flattened.
int flatten_stepped_arrays(llvm::Module& module);

}  // namespace vkcl

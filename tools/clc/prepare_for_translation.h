// Stage 2: link vkcl's builtin library into the user's module, optimize it,
// run clc's own transforms, check it, and so make it ready for the translator.
//
// Links the embedded builtins/ bitcode (only what the module uses), makes
// every function that is not a kernel internal and always-inline, inlines
// everything into the kernels, answers the atomic builtins' questions about
// which memory a generic pointer points to and rewrites generic pointers
// whose address space is known (InferAddressSpaces), optimizes (-O2: LLVM's
// default O2 pipeline without vectorizers; -O0: only what lowering needs:
// SROA, constant folding, CFG simplification, dead code elimination), then
// reshapes the CFG the way
// spirv/structurize_control_flow expects (lowerswitch, mergereturn,
// fix-irreducible, unify-loop-exits, structurizecfg), removes lifetime
// markers, runs clc's own transforms (llvm_transforms.h: memory intrinsics,
// long vectors, odd integer widths, punned accesses, work-item dimensions past 2), checks what the
// translator and the lowering cannot fix later, and strips debug info. Calls to functions without a body are marked nomerge so
// the optimizer never merges two barriers into one with a phi operand.
//
// Compile errors, each at the call site the user wrote (inlined builtin code
// carries the location of the call it came from):
//   - recursion (OpenCL C forbids it; nothing can be inlined);
//   - __spirv_ControlBarrier / __spirv_MemoryBarrier operands, and the scope
//     and semantics of __spirv_Atomic* calls, that are not constants after
//     optimization (docs/synchronization.md, "Errors instead of guesses");
//   - an atomic whose object is behind a generic pointer that may point to
//     either __global or __local memory;
//   - a call the builtin library could not resolve, unless the translator
//     lowers it itself (see the allow-list in prepare_for_translation.cpp), and the
//     __vkcl_error_* markers builtins/ calls for undefined argument values.
//   - kernel arguments of OpenCL's opaque types (images, samplers, pipes,
//     queues) that no call reported, at the kernel;
//   - kernel-scope __local variables above kMaxStaticLocalMemory
//     (check_local_memory.h).
// Warnings (appended to `warnings`): barriers that only part of a work-group
// or sub-group may reach (check_barrier_divergence.h). Calls to prefetch()
// are removed: a hint without observable effect, with no Vulkan counterpart.
// Does not guarantee that the translator or the lowering accepts the result.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "compiler.h"

namespace llvm {
class Module;
}

namespace vkcl {

struct PreparationReport {
  // Bytes of kernel-scope __local variables by kernel name (none: absent).
  std::map<std::string, uint64_t> static_local_memory;
};

PreparationReport prepare_for_translation(llvm::Module& module, std::string_view file_name, const CompileOptions& options,
                         std::string& warnings);

}  // namespace vkcl

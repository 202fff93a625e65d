// The shape lower_to_vulkan needs of its input before any pass runs: a
// Kernel module whose ids are all defined, once, whose types are types, and
// whose functions are blocks that begin with a label, end with one
// terminator, and branch only to labels of the same function.
//
// Not a validator: SPIRV-LLVM-Translator's own output does not always pass
// spirv-val (blocks before their dominators, forward references across
// blocks, Vulkan semantics bits under the Kernel capability), so no rule of
// dominance, typing or capabilities is checked here. What this guarantees is
// that the passes, which look ids up and walk blocks, never meet a dangling
// id or a block without an end: malformed input (a fuzzer's, or a file given
// to spirv-lower) becomes a CompileError instead of a crash.
#pragma once

#include "module.h"

namespace vkcl::spirv {

// Types must be declared before they are used (no type contains itself).
// Throws CompileError("error: malformed Kernel SPIR-V: ...") naming the
// first problem and the instruction it is in.
void check_kernel_module(const Module& module);

}  // namespace vkcl::spirv

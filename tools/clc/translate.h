// Stage 3: LLVM IR → Kernel SPIR-V with SPIRV-LLVM-Translator, in process.
//
// The module must be what prepare_for_translation leaves: typed pointers, everything
// inlined into kernels, no debug info. SPIR-V 1.4 at most and no SPIR-V
// extensions; the translator's own OpenCL builtin mapping never sees a
// synchronization builtin (builtins/ has turned them into __spirv_* calls).
// The intrinsics the translator cannot take are expanded first
// (expand_intrinsics.h). The translator modifies the module.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace llvm {
class Module;
}

namespace vkcl {

// Throws CompileError with the translator's message when it fails.
std::vector<uint32_t> translate_to_spirv(llvm::Module& module, std::string_view file_name);

// The translator reports most errors by calling exit() after printing them.
// Under llvm::CrashRecoveryContext (see translate.cpp) that exit returns to
// the recovery context instead; this then gives the translator's message
// (and forgets it). Empty when the translator did not exit.
std::string take_translator_exit_message();

}  // namespace vkcl

// Stage 3: LLVM IR → Kernel SPIR-V with SPIRV-LLVM-Translator, in process
// (and, for programs given as SPIR-V, the translator's way back: read_spirv).
//
// The module must be what prepare_for_translation leaves: typed pointers, everything
// inlined into kernels, no debug info. SPIR-V 1.4 at most and no SPIR-V
// extensions; the translator's own OpenCL builtin mapping never sees a
// synchronization builtin (builtins/ has turned them into __spirv_* calls).
// The intrinsics the translator cannot take are expanded first
// (expand_intrinsics.h). The translator modifies the module.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "compile_options.h"

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace vkcl {

// Throws CompileError with the translator's message when it fails.
std::vector<uint32_t> translate_to_spirv(llvm::Module& module, std::string_view file_name);

// The other way, for programs given as SPIR-V (clCreateProgramWithIL): the
// translator's reader makes an LLVM module in `context` of an OpenCL SPIR-V
// module (SPIR-V 1.0 to 1.4, the Kernel capability, the extensions the
// reader knows), OpenCL C 1.2 builtin calls for its instructions and
// extended instructions, with `spec_constants` in place of the defaults of
// the OpSpecConstant*s decorated with their SpecId. Throws CompileError with
// the reader's message when it refuses the module.
std::unique_ptr<llvm::Module> read_spirv(std::span<const uint32_t> words, std::span<const SpecConstant> spec_constants,
                                         llvm::LLVMContext& context, std::string_view file_name);

// The translator reports most errors by calling exit() after printing them.
// Under llvm::CrashRecoveryContext (see translate.cpp) that exit returns to
// the recovery context instead; this then gives the translator's message
// (and forgets it). Empty when the translator did not exit.
std::string take_translator_exit_message();

// After a crash inside the translator (a signal, such as its assertions'
// abort, taken by the recovery context), std::cerr still writes into this
// thread's capture buffer: gives std::cerr its own buffer back. Call on the
// compiling thread once RunSafely has returned; a no-op otherwise.
void end_translator_capture();

}  // namespace vkcl

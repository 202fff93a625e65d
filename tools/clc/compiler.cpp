#include "compiler.h"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <memory>

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CrashRecoveryContext.h>
#include <llvm/Support/ErrorHandling.h>

#include "frontend.h"
#include "prepare_for_translation.h"
#include "lower_to_vulkan.h"
#include "translate.h"

namespace vkcl {
namespace {

// llvm::report_fatal_error (the translator's way of rejecting some input)
// would print and exit; under crash recovery it returns to RunSafely instead,
// and its reason becomes part of the internal-error message.
thread_local std::string fatal_error_reason;

void on_fatal_error(void*, const char* reason, bool) {
  fatal_error_reason = reason != nullptr ? reason : "";
  if (llvm::CrashRecoveryContext* context = llvm::CrashRecoveryContext::GetCurrent()) context->HandleExit(1);
  std::fprintf(stderr, "LLVM ERROR: %s\n", fatal_error_reason.c_str());  // LLVM exits next
}

}  // namespace

CompileResult compile_opencl(std::string_view source, std::string_view file_name, const CompileOptions& options,
                             std::span<const InputHeader> headers) {
  CompileResult result;
  std::exception_ptr failure;
  const char* stage = "parsing";

  // A crash inside clang, LLVM, the translator or SPIRV-Tools (a signal,
  // report_fatal_error, the translator's exit()) returns here and is reported
  // as an error. Enabling installs process-wide signal handlers that act only
  // inside RunSafely and otherwise re-raise to the handlers found before.
  llvm::CrashRecoveryContext::Enable();
  fatal_error_reason.clear();
  llvm::ScopedFatalErrorHandler fatal_error_handler(on_fatal_error);
  llvm::CrashRecoveryContext crash_recovery;
  const bool finished = crash_recovery.RunSafely([&] {
    try {
      llvm::LLVMContext context;
      context.setOpaquePointers(false);  // the translator needs typed pointers
      std::unique_ptr<llvm::Module> module = run_frontend(source, file_name, options, headers, context, result.warnings);
      stage = "linking the builtin library";
      const PreparationReport prepared = prepare_for_translation(*module, file_name, options, result.warnings);
      stage = "translating to SPIR-V";
      result.kernel_spirv = translate_to_spirv(*module, file_name);
      if (options.lower) {
        stage = "lowering to Vulkan SPIR-V";
        LoweringOptions lowering;
        lowering.memory_model = options.memory_model;
        lowering.device_scope_available = options.vulkan_device_scope;
        lowering.optimize = options.optimize;
        lowering.max_storage_buffers = options.max_storage_buffers.value_or(0);
        try {
          result.module = lower_to_vulkan(result.kernel_spirv, lowering);
        } catch (const ProgramError& error) {
          throw CompileError(std::string(file_name) + ": " + error.what());  // the lowering knows no file names
        }
        result.module.reflection.denorms_are_zero = options.denorms_are_zero;
        // Measured on the LLVM module (check_local_memory.h); the lowering
        // does not count kernel-scope __local variables itself.
        for (KernelReflection& kernel : result.module.reflection.kernels) {
          auto found = prepared.static_local_memory.find(kernel.name);
          if (found != prepared.static_local_memory.end())
            kernel.static_local_memory = std::max<uint64_t>(kernel.static_local_memory, found->second);
        }
      }
    } catch (...) {
      failure = std::current_exception();
    }
  });
  if (!finished) {
    if (std::string message = take_translator_exit_message(); !message.empty())
      throw CompileError(std::string(file_name) + ": error: SPIR-V translation failed: " + message + "\n");
    std::string text = std::string(file_name) + ": error: internal compiler error while " + stage;
    if (!fatal_error_reason.empty()) text += ": " + fatal_error_reason;
    throw CompileError(text + "; please report this input\n");
  }
  if (failure) {
    // Like clang: the warnings come before the errors that stopped compilation.
    if (!result.warnings.empty()) {
      try {
        std::rethrow_exception(failure);
      } catch (const CompileError& error) {
        throw CompileError(result.warnings + error.what());
      }
    }
    std::rethrow_exception(failure);
  }
  return result;
}

}  // namespace vkcl

#include "compiler.h"

#include <exception>
#include <memory>

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CrashRecoveryContext.h>

#include "frontend.h"
#include "link_builtins.h"
#include "translate.h"

namespace vkcl {

CompileResult compile_opencl(std::string_view source, std::string_view file_name, const CompileOptions& options) {
  CompileResult result;
  std::exception_ptr failure;
  const char* stage = "parsing";

  // A crash inside clang, LLVM, the translator or SPIRV-Tools (a signal, or
  // report_fatal_error's abort) returns here when the process has enabled
  // llvm::CrashRecoveryContext; it is reported as an internal error.
  llvm::CrashRecoveryContext crash_recovery;
  const bool finished = crash_recovery.RunSafely([&] {
    try {
      llvm::LLVMContext context;
      context.setOpaquePointers(false);  // the translator needs typed pointers
      std::unique_ptr<llvm::Module> module = run_frontend(source, file_name, options, context, result.warnings);
      stage = "linking the builtin library";
      link_builtins(*module, file_name, options);
      stage = "translating to SPIR-V";
      result.kernel_spirv = translate_to_spirv(*module, file_name);
      if (options.lower) {
        stage = "lowering to Vulkan SPIR-V";
        LoweringOptions lowering;
        lowering.memory_model = options.memory_model;
        lowering.optimize = options.optimize;
        result.module = lower_to_vulkan(result.kernel_spirv, lowering);
      }
    } catch (...) {
      failure = std::current_exception();
    }
  });
  if (!finished) {
    throw CompileError(std::string(file_name) + ": error: internal compiler error: crashed while " + stage +
                       "; please report this input\n");
  }
  if (failure) std::rethrow_exception(failure);
  return result;
}

}  // namespace vkcl

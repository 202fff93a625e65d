#include "compiler.h"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <memory>
#include <optional>

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CrashRecoveryContext.h>
#include <llvm/Support/ErrorHandling.h>
#include <llvm/Support/thread.h>

#include "frontend.h"
#include "kernel_source_info.h"
#include "link_modules.h"
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

// What a stage in progress is called in an internal error's message.
using Stage = const char*;

// The compile thread's stack. Generated kernels nest deeply (a sum of
// 200,000 terms is a left-leaning tree as deep), and clang, LLVM and the
// translator recurse over such trees; clang's own driver runs its compile
// step on a thread with a larger stack for the same reason. Only what is
// touched is committed.
constexpr unsigned kCompileStackBytes = 1u << 30;

// Runs `body(context, stage)` in a fresh LLVM context, on a thread of its
// own with a kCompileStackBytes stack, under crash recovery: every entry
// point of the compiler goes through here. A crash inside clang, LLVM, the
// translator or SPIRV-Tools (a signal, report_fatal_error, the translator's
// exit()) returns here and is reported as a CompileError naming the stage
// it happened in. Enabling installs process-wide signal handlers that act
// only inside RunSafely and otherwise re-raise to the handlers found
// before. Like clang, the warnings (which the body appends to `warnings`)
// come before the errors that stopped compilation.
template <typename Body>
void run_recovered(std::string_view file_name, const std::string& warnings, Stage initial_stage, Body&& body) {
  std::exception_ptr failure;
  std::optional<std::string> crash;  // an internal error's message
  Stage stage = initial_stage;
  auto compile = [&] {
    llvm::CrashRecoveryContext::Enable();
    fatal_error_reason.clear();
    llvm::ScopedFatalErrorHandler fatal_error_handler(on_fatal_error);
    llvm::CrashRecoveryContext crash_recovery;
    const bool finished = crash_recovery.RunSafely([&] {
      try {
        llvm::LLVMContext context;
        context.setOpaquePointers(false);  // the translator needs typed pointers
        body(context, stage);
      } catch (...) {
        failure = std::current_exception();
      }
    });
    // The capture buffer is this thread's, and goes with it.
    end_translator_capture();
    if (finished) return;
    // On this thread: the translator's exit message and the fatal error's
    // reason are this thread's.
    if (std::string message = take_translator_exit_message(); !message.empty()) {
      crash = std::string(file_name) + ": error: SPIR-V translation failed: " + message + "\n";
      return;
    }
    std::string text = std::string(file_name) + ": error: internal compiler error while " + stage;
    if (!fatal_error_reason.empty()) text += ": " + fatal_error_reason;
    crash = text + "; please report this input\n";
  };
  llvm::thread compile_thread(llvm::Optional<unsigned>(kCompileStackBytes), compile);
  compile_thread.join();
  if (crash) throw CompileError(*crash);
  if (failure) {
    if (!warnings.empty()) {
      try {
        std::rethrow_exception(failure);
      } catch (const CompileError& error) {
        throw CompileError(warnings + error.what());
      }
    }
    std::rethrow_exception(failure);
  }
}

// What every way in shares after the module exists (from clang, a link or
// the SPIR-V reader): the builtins, clc's transforms and checks, the
// translator, the lowering, and the reflection's additions.
void compile_module(llvm::Module& module, std::string_view file_name, const CompileOptions& options,
                    CompileResult& result, Stage& stage) {
  const std::map<std::string, KernelSourceInfo> source_info = read_kernel_source_info(module);
  stage = "linking the builtin library";
  const PreparationReport prepared = prepare_for_translation(module, file_name, options, result.warnings);
  stage = "translating to SPIR-V";
  result.kernel_spirv = translate_to_spirv(module, file_name);
  if (!options.lower) return;
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
  add_kernel_source_info(source_info, result.module.reflection);
}

}  // namespace

CompileResult compile_opencl(std::string_view source, std::string_view file_name, const CompileOptions& options,
                             std::span<const InputHeader> headers) {
  CompileResult result;
  run_recovered(file_name, result.warnings, "parsing", [&](llvm::LLVMContext& context, Stage& stage) {
    std::unique_ptr<llvm::Module> module = run_frontend(source, file_name, options, headers, context, result.warnings);
    compile_module(*module, file_name, options, result, stage);
  });
  return result;
}

LibraryResult compile_to_library(std::string_view source, std::string_view file_name, const CompileOptions& options,
                                 std::span<const InputHeader> headers) {
  LibraryResult result;
  run_recovered(file_name, result.warnings, "parsing", [&](llvm::LLVMContext& context, Stage& stage) {
    std::unique_ptr<llvm::Module> module = run_frontend(source, file_name, options, headers, context, result.warnings);
    stage = "writing bitcode";
    result.bitcode = write_bitcode(*module);
  });
  return result;
}

CompileResult link_libraries(std::span<const std::string> objects, std::string_view file_name,
                             const CompileOptions& options) {
  CompileResult result;
  run_recovered(file_name, result.warnings, "linking", [&](llvm::LLVMContext& context, Stage& stage) {
    std::unique_ptr<llvm::Module> module = link_modules(objects, context, file_name);
    compile_module(*module, file_name, options, result, stage);
  });
  return result;
}

LibraryResult link_to_library(std::span<const std::string> objects, std::string_view file_name) {
  LibraryResult result;
  run_recovered(file_name, result.warnings, "linking", [&](llvm::LLVMContext& context, Stage& stage) {
    std::unique_ptr<llvm::Module> module = link_modules(objects, context, file_name);
    stage = "writing bitcode";
    result.bitcode = write_bitcode(*module);
  });
  return result;
}

CompileResult compile_spirv(std::span<const uint32_t> words, std::string_view file_name,
                            const CompileOptions& options, std::span<const SpecConstant> spec_constants) {
  CompileResult result;
  run_recovered(file_name, result.warnings, "reading SPIR-V", [&](llvm::LLVMContext& context, Stage& stage) {
    std::unique_ptr<llvm::Module> module = read_spirv(words, spec_constants, context, file_name);
    compile_module(*module, file_name, options, result, stage);
  });
  return result;
}

LibraryResult compile_spirv_to_library(std::span<const uint32_t> words, std::string_view file_name,
                                       std::span<const SpecConstant> spec_constants) {
  LibraryResult result;
  run_recovered(file_name, result.warnings, "reading SPIR-V", [&](llvm::LLVMContext& context, Stage& stage) {
    std::unique_ptr<llvm::Module> module = read_spirv(words, spec_constants, context, file_name);
    stage = "writing bitcode";
    result.bitcode = write_bitcode(*module);
  });
  return result;
}

}  // namespace vkcl

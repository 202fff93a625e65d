// Stage 1: OpenCL C → LLVM IR, clang's cc1 in this process.
//
// Runs clang with the cc1 flags its driver adds for `-target spir64` (typed
// pointers, table-generated builtin declarations), line tables with columns so
// that later stages can name call sites, and no LLVM passes at all: the
// module comes out unoptimized, without optnone, for prepare_for_translation to
// optimize. The source is read from memory under `file_name`, so standard
// input works and the user's file name appears in every diagnostic.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "compiler.h"

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace vkcl {

// The cc1 arguments (without "-cc1") used for `file_name` and `options`.
std::vector<std::string> frontend_arguments(std::string_view file_name, const CompileOptions& options);

// Throws CompileError with clang's diagnostics (warnings included) when
// clang reports an error; otherwise appends any warnings to `warnings`.
std::unique_ptr<llvm::Module> run_frontend(std::string_view source, std::string_view file_name,
                                           const CompileOptions& options, llvm::LLVMContext& context,
                                           std::string& warnings);

}  // namespace vkcl

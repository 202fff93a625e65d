// Stage 1: OpenCL C → LLVM IR, clang's cc1 in this process.
//
// Runs clang with the cc1 flags its driver adds for `-target spir64` (typed
// pointers, table-generated builtin declarations), line tables with columns so
// that later stages can name call sites, and no LLVM passes at all: the
// module comes out unoptimized, without optnone, for prepare_for_translation to
// optimize. The source is read from memory under `file_name`, so standard
// input works and the user's file name appears in every diagnostic. Input
// headers (clCompileProgram's) are files of an in-memory file system laid
// over the real one, in kInputHeaderDirectory, which comes first among the
// -I directories: nothing is written to disk, and two compiles in one
// process do not see each other's headers.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "compiler.h"

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace vkcl {

// Where the input headers are, in diagnostics too ("/vkcl-input-headers/util.h:3:1: error: ...").
inline constexpr std::string_view kInputHeaderDirectory = "/vkcl-input-headers";

// The cc1 arguments (without "-cc1") used for `file_name` and `options`,
// with kInputHeaderDirectory first among the -I directories when there are input headers.
std::vector<std::string> frontend_arguments(std::string_view file_name, const CompileOptions& options,
                                            bool with_input_headers = false);

// Throws CompileError with clang's diagnostics (warnings included) when
// clang reports an error, or naming an input header whose name is not a
// relative path inside kInputHeaderDirectory; otherwise appends any
// warnings to `warnings`.
std::unique_ptr<llvm::Module> run_frontend(std::string_view source, std::string_view file_name,
                                           const CompileOptions& options, std::span<const InputHeader> headers,
                                           llvm::LLVMContext& context, std::string& warnings);

}  // namespace vkcl

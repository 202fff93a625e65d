// The compiler's error type: every stage of clc (frontend, builtin linking,
// translation, lowering, validation) reports failure by throwing CompileError
// whose message is complete, user-facing text (file:line:col where known).
#pragma once

#include <stdexcept>
#include <string>

namespace vkcl {

struct CompileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// An error in the program that the SPIR-V lowering finds: something the
// source asks for that vkcl cannot do. The lowering knows no file names (nor
// lines: the translator keeps none), so whoever names the input puts its
// name in front (compile_opencl: "kernel.cl: error: ..."). A compiler bug is
// a plain CompileError that starts "internal error: ".
struct ProgramError : CompileError {
  explicit ProgramError(const std::string& problem) : CompileError("error: " + problem) {}
};

}  // namespace vkcl

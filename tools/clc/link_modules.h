// clLinkProgram's link: compiled objects and libraries (LLVM bitcode from
// compile_to_library, compile_spirv_to_library or link_to_library) read into
// one context and linked into one module with llvm::Linker, so that a call
// in one object reaches a function (or kernel) another defines, and an
// extern variable another's definition.
//
// What every object carries once (the OpenCL C version, the SPIR version,
// the compiler's identification) is kept once, the highest version where
// they differ: the translator refuses a module that names two versions.
// A symbol defined twice, or bitcode this LLVM cannot read, is a
// CompileError naming `file_name`; an undefined function is not (the
// builtins are linked later), prepare_for_translation reports the calls to
// those that stay undefined.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace vkcl {

std::unique_ptr<llvm::Module> link_modules(std::span<const std::string> objects, llvm::LLVMContext& context,
                                           std::string_view file_name);

// The module as bitcode, what compile_to_library and link_to_library give.
std::string write_bitcode(const llvm::Module& module);

}  // namespace vkcl

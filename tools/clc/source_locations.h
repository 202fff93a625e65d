// Source locations of LLVM instructions, as clc's diagnostics print them:
// shared by the checks that run on the linked, inlined module.
#pragma once

#include <string>
#include <string_view>

namespace llvm {
class DILocation;
class Instruction;
}  // namespace llvm

namespace vkcl {

// "file:line:col" of a location, or `file_name` (the main file's name) when
// there is none (optimization may merge call sites).
std::string format_location(const llvm::DILocation* loc, std::string_view file_name);
std::string location_of(const llvm::Instruction& instruction, std::string_view file_name);

// Notes for the chain of user functions inlined between the kernel and the
// instruction: "file:line:col: note: 'helper' is called here\n" each.
std::string inlining_notes(const llvm::Instruction& instruction, std::string_view file_name);

// The source name of a function: "foo" for `_Z3fooi` and for `foo`.
std::string_view base_name(std::string_view name);

}  // namespace vkcl

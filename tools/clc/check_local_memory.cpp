#include "check_local_memory.h"

#include <algorithm>
#include <set>
#include <vector>

#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Instruction.h>
#include <llvm/IR/Module.h>

#include "compile_error.h"
#include "source_locations.h"
#include "spir_address_spaces.h"

namespace vkcl {
namespace {

bool is_kernel(const llvm::Function& function) { return function.getCallingConv() == llvm::CallingConv::SPIR_KERNEL; }

// The instructions that use `value`, looking through constant expressions
// (casts and GEPs of the variable).
void collect_uses(const llvm::Value* value, std::set<const llvm::Instruction*>& uses,
                  std::set<const llvm::Value*>& visited) {
  if (!visited.insert(value).second) return;
  for (const llvm::User* user : value->users()) {
    if (const auto* instruction = llvm::dyn_cast<llvm::Instruction>(user)) {
      uses.insert(instruction);
    } else if (llvm::isa<llvm::Constant>(user)) {
      collect_uses(user, uses, visited);
    }
  }
}

struct Variable {
  const llvm::GlobalVariable* global;
  uint64_t size;
  const llvm::Instruction* first_use;
};

// "k.scratch" (clang's name for `__local float scratch[...]` in kernel k) → "scratch".
std::string source_name(const llvm::GlobalVariable& global, const std::string& kernel) {
  std::string name = global.getName().str();
  if (name.size() > kernel.size() + 1 && name.compare(0, kernel.size() + 1, kernel + ".") == 0)
    name.erase(0, kernel.size() + 1);
  return name.empty() ? std::string("(unnamed)") : name;
}

std::string kernel_location(const llvm::Function& kernel, std::string_view file_name) {
  const llvm::DISubprogram* subprogram = kernel.getSubprogram();
  if (subprogram == nullptr || subprogram->getLine() == 0) return std::string(file_name);
  std::string file = subprogram->getFilename().str();
  return (file.empty() ? std::string(file_name) : file) + ":" + std::to_string(subprogram->getLine());
}

}  // namespace

std::map<std::string, uint64_t> check_static_local_memory(const llvm::Module& module, std::string_view file_name) {
  const llvm::DataLayout& layout = module.getDataLayout();
  std::map<const llvm::Function*, std::vector<Variable>> by_kernel;
  for (const llvm::GlobalVariable& global : module.globals()) {
    if (global.getAddressSpace() != kLocalAddressSpace) continue;
    std::set<const llvm::Instruction*> uses;
    std::set<const llvm::Value*> visited;
    collect_uses(&global, uses, visited);
    std::set<const llvm::Function*> users;
    for (const llvm::Instruction* use : uses) users.insert(use->getFunction());
    const uint64_t size = layout.getTypeAllocSize(global.getValueType()).getKnownMinValue();
    for (const llvm::Function* function : users) {
      if (function == nullptr || !is_kernel(*function)) continue;
      // The first use in program order, for the note.
      const llvm::Instruction* first = nullptr;
      for (const llvm::Instruction& instruction : llvm::instructions(*function))
        if (uses.count(&instruction) != 0) {
          first = &instruction;
          break;
        }
      by_kernel[function].push_back({&global, size, first});
    }
  }

  std::map<std::string, uint64_t> bytes;
  std::string errors;
  size_t error_count = 0;
  for (const llvm::Function& function : module) {  // in source order
    auto found = by_kernel.find(&function);
    if (found == by_kernel.end()) continue;
    const llvm::Function* kernel = found->first;
    std::vector<Variable>& variables = found->second;
    uint64_t total = 0;
    for (const Variable& variable : variables) {
      const uint64_t align = std::max<uint64_t>(1, variable.global->getAlign().valueOrOne().value());
      total = (total + align - 1) / align * align;
      // Saturating: sizes near 2^64 bytes must not wrap to a small total.
      total = variable.size > UINT64_MAX - total ? UINT64_MAX : total + variable.size;
    }
    const std::string name = kernel->getName().str();
    bytes[name] = total;
    if (total <= kMaxStaticLocalMemory) continue;
    ++error_count;
    errors += kernel_location(*kernel, file_name) + ": error: kernel '" + name + "' declares " + std::to_string(total) +
              " bytes of __local memory, more than any Vulkan device offers (vkcl allows at most " +
              std::to_string(kMaxStaticLocalMemory) + " bytes, 64 KiB, in kernel-scope __local variables)\n";
    std::stable_sort(variables.begin(), variables.end(), [](const Variable& a, const Variable& b) { return a.size > b.size; });
    for (const Variable& variable : variables)
      errors += (variable.first_use != nullptr ? location_of(*variable.first_use, file_name)
                                               : kernel_location(*kernel, file_name)) +
                ": note: __local variable '" +
                source_name(*variable.global, name) + "' (" + std::to_string(variable.size) + " bytes) is used here\n";
  }
  if (error_count != 0)
    throw CompileError(errors + std::to_string(error_count) + (error_count == 1 ? " error" : " errors") +
                       " generated.\n");
  return bytes;
}

}  // namespace vkcl

#include "source_locations.h"

#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Instruction.h>

namespace vkcl {

std::string format_location(const llvm::DILocation* loc, std::string_view file_name) {
  if (loc == nullptr || loc->getLine() == 0) return std::string(file_name);
  std::string file = loc->getFilename().str();
  if (file.empty()) file = std::string(file_name);
  std::string text = file + ":" + std::to_string(loc->getLine());
  if (loc->getColumn() != 0) text += ":" + std::to_string(loc->getColumn());
  return text;
}

std::string location_of(const llvm::Instruction& instruction, std::string_view file_name) {
  return format_location(instruction.getDebugLoc().get(), file_name);
}

std::string inlining_notes(const llvm::Instruction& instruction, std::string_view file_name) {
  std::string notes;
  for (const llvm::DILocation* loc = instruction.getDebugLoc().get(); loc != nullptr && loc->getInlinedAt() != nullptr;
       loc = loc->getInlinedAt()) {
    const llvm::DILocation* call = loc->getInlinedAt();
    if (call->getLine() == 0) continue;
    const llvm::DISubprogram* callee = loc->getScope()->getSubprogram();
    const std::string name = callee != nullptr ? callee->getName().str() : std::string();
    notes += format_location(call, file_name) + ": note: " +
             (name.empty() ? std::string("called") : "'" + name + "' is called") + " here\n";
  }
  return notes;
}

std::string_view base_name(std::string_view name) {
  if (!name.starts_with("_Z")) return name;
  size_t i = 2;
  size_t length = 0;
  while (i < name.size() && name[i] >= '0' && name[i] <= '9' && length <= name.size())
    length = length * 10 + (name[i++] - '0');
  if (length == 0 || length > name.size() - i) return name;
  return name.substr(i, length);
}

}  // namespace vkcl

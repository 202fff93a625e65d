// For spv::HasResultAndType: which word of an instruction is its result id.
#define SPV_ENABLE_UTILITY_CODE
#include "one_kernel_module.h"

#include <map>
#include <set>
#include <string>
#include <unordered_set>

#include "spirv_words.h"
#include "vkcl/error.h"

namespace vkcl::detail {
namespace {

// Where a function's instructions are (words, OpFunction to past
// OpFunctionEnd), and whom it calls.
struct FunctionExtent {
  size_t begin = 0, end = 0;
  std::set<uint32_t> callees;
};

// The target id of a debug name or decoration, or 0 for other instructions.
uint32_t named_target(const SpirvInstruction& i) {
  switch (i.opcode) {
    case spv::Op::OpName:
    case spv::Op::OpDecorate:
    case spv::Op::OpDecorateId:
    case spv::Op::OpDecorateString:
      return i.operands.empty() ? 0 : i.operands[0];
    default:
      return 0;
  }
}

}  // namespace

std::vector<uint32_t> one_kernel_module(std::span<const uint32_t> words, std::string_view kernel) {
  uint32_t kept = 0;
  size_t entry_points = 0;
  std::map<uint32_t, FunctionExtent> functions;
  std::set<uint32_t> module_variables;  // module-scope, other than Input and Output
  std::map<uint32_t, uint32_t> defined_in;  // result id -> function, for ids defined in functions
  uint32_t current = 0;  // the function being read, 0 outside functions
  for_each_instruction(words, [&](const SpirvInstruction& i) {
    if (current) {
      bool has_result = false, has_type = false;
      spv::HasResultAndType(i.opcode, &has_result, &has_type);
      if (has_result && i.operands.size() > (has_type ? 1u : 0u)) defined_in[i.operands[has_type ? 1 : 0]] = current;
    }
    switch (i.opcode) {
      case spv::Op::OpEntryPoint:
        if (i.operands.size() >= 3 && spv::ExecutionModel(i.operands[0]) == spv::ExecutionModel::GLCompute) {
          ++entry_points;
          if (string_operand(i.operands.subspan(2)) == kernel) kept = i.operands[1];
        }
        break;
      case spv::Op::OpFunction:
        if (i.operands.size() < 2) throw Error("SPIR-V: malformed OpFunction at word " + std::to_string(i.at));
        current = i.operands[1];
        functions[current].begin = i.at;
        break;
      case spv::Op::OpFunctionEnd:
        if (current) functions[current].end = i.at + i.count;
        current = 0;
        break;
      case spv::Op::OpFunctionCall:
        if (current && i.operands.size() >= 3) functions[current].callees.insert(i.operands[2]);
        break;
      case spv::Op::OpVariable:
        // Input and Output variables are the entry points' interfaces.
        if (!current && i.operands.size() >= 3 && spv::StorageClass(i.operands[2]) != spv::StorageClass::Input &&
            spv::StorageClass(i.operands[2]) != spv::StorageClass::Output)
          module_variables.insert(i.operands[1]);
        break;
      default:
        break;
    }
    return true;
  });
  if (!kept) throw Error("SPIR-V: the module has no GLCompute entry point '" + std::string(kernel) + "'");

  std::set<uint32_t> reached{kept};
  for (std::vector<uint32_t> work{kept}; !work.empty();) {
    const uint32_t f = work.back();
    work.pop_back();
    if (auto it = functions.find(f); it != functions.end())
      for (uint32_t callee : it->second.callees)
        if (reached.insert(callee).second) work.push_back(callee);
  }
  std::set<uint32_t> removed;  // functions, the ids defined in them, and variables
  for (const auto& [id, extent] : functions)
    if (!reached.count(id)) removed.insert(id);
  for (const auto& [id, function] : defined_in)
    if (!reached.count(function)) removed.insert(id);
  // Every word of the kept functions, once: a variable none of them equals
  // is not named there (one pass over the code, however many variables).
  std::unordered_set<uint32_t> named;
  for (uint32_t f : reached)
    if (auto it = functions.find(f); it != functions.end())
      named.insert(words.begin() + it->second.begin, words.begin() + it->second.end);
  for (uint32_t variable : module_variables)
    if (!named.count(variable)) removed.insert(variable);
  if (entry_points == 1 && removed.empty()) return {words.begin(), words.end()};

  std::vector<uint32_t> out(words.begin(), words.begin() + 5);
  out.reserve(words.size());
  bool in_removed_function = false;
  for_each_instruction(words, [&](const SpirvInstruction& i) {
    bool keep = true;
    switch (i.opcode) {
      case spv::Op::OpEntryPoint:
        keep = i.operands.size() >= 2 && i.operands[1] == kept;
        break;
      case spv::Op::OpExecutionMode:
      case spv::Op::OpExecutionModeId:
        keep = !i.operands.empty() && i.operands[0] == kept;
        break;
      case spv::Op::OpFunction:
        in_removed_function = removed.count(i.operands[1]) > 0;
        keep = !in_removed_function;
        break;
      case spv::Op::OpFunctionEnd:
        keep = !in_removed_function;
        in_removed_function = false;
        break;
      case spv::Op::OpVariable:
        keep = !in_removed_function && !(i.operands.size() >= 2 && removed.count(i.operands[1]));
        break;
      default:
        if (in_removed_function)
          keep = false;
        else if (uint32_t target = named_target(i))
          keep = !removed.count(target);
        break;
    }
    if (keep) out.insert(out.end(), words.begin() + i.at, words.begin() + i.at + i.count);
    return true;
  });
  return out;
}

}  // namespace vkcl::detail

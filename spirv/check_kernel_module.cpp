#include "check_kernel_module.h"

#include <spirv-tools/libspirv.h>

#include <string>
#include <unordered_map>
#include <unordered_set>

#include "compile_error.h"

namespace vkcl::spirv {
namespace {

std::string op_name(Op opcode) {
  const char* name = spvOpcodeString(static_cast<uint32_t>(opcode));
  return name != nullptr ? std::string("Op") + name : "opcode " + std::to_string(static_cast<uint32_t>(opcode));
}

[[noreturn]] void fail(const std::string& problem, const Instruction* where = nullptr) {
  std::string text = "malformed Kernel SPIR-V: " + problem;
  if (where != nullptr)
    text += " (in " + op_name(where->opcode) + (where->result_id ? " %" + std::to_string(where->result_id) : "") + ")";
  throw ProgramError(text);
}

bool is_type(Op opcode) {
  switch (opcode) {
    case Op::OpTypeVoid: case Op::OpTypeBool: case Op::OpTypeInt: case Op::OpTypeFloat: case Op::OpTypeVector:
    case Op::OpTypeMatrix: case Op::OpTypeImage: case Op::OpTypeSampler: case Op::OpTypeSampledImage:
    case Op::OpTypeArray: case Op::OpTypeRuntimeArray: case Op::OpTypeStruct: case Op::OpTypeOpaque:
    case Op::OpTypePointer: case Op::OpTypeFunction: case Op::OpTypeEvent: case Op::OpTypeDeviceEvent:
    case Op::OpTypeReserveId: case Op::OpTypeQueue: case Op::OpTypePipe: case Op::OpTypeForwardPointer:
    case Op::OpTypePipeStorage: case Op::OpTypeNamedBarrier:
      return true;
    default:
      return false;
  }
}

bool is_terminator(Op opcode) {
  switch (opcode) {
    case Op::OpBranch: case Op::OpBranchConditional: case Op::OpSwitch: case Op::OpReturn: case Op::OpReturnValue:
    case Op::OpUnreachable: case Op::OpKill: case Op::OpTerminateInvocation:
      return true;
    default:
      return false;
  }
}

// The operand indexes (into Instruction::words) that must name a label of
// the same function.
std::vector<size_t> label_operands(const Instruction& inst) {
  std::vector<size_t> labels;
  switch (inst.opcode) {
    case Op::OpBranch: labels = {0}; break;
    case Op::OpBranchConditional: labels = {1, 2}; break;
    case Op::OpSelectionMerge: labels = {0}; break;
    case Op::OpLoopMerge: labels = {0, 1}; break;
    case Op::OpSwitch:  // selector, default, then literal(s) and label per case
      for (size_t i = 1; i < inst.words.size(); ++i)
        if (inst.is_id[i]) labels.push_back(i);
      break;
    case Op::OpPhi:  // (value, parent block) pairs
      for (size_t i = 1; i < inst.words.size(); i += 2) labels.push_back(i);
      break;
    default: break;
  }
  return labels;
}

// Widths and counts SPIR-V allows, and operands that are types where a type
// is meant: the passes compute sizes, shifts and masks from these.
void check_type_shape(const Instruction& inst, const std::unordered_map<uint32_t, Op>& definitions) {
  auto is_type_id = [&](uint32_t id) {
    auto d = definitions.find(id);
    return d != definitions.end() && is_type(d->second);
  };
  auto need = [&](bool ok, const std::string& what) {
    if (!ok) fail(what, &inst);
  };
  switch (inst.opcode) {
    case Op::OpTypeInt:
      need(inst.words.size() == 2, "OpTypeInt needs a width and a signedness");
      need(inst.words[0] == 8 || inst.words[0] == 16 || inst.words[0] == 32 || inst.words[0] == 64,
           "an integer width of " + std::to_string(inst.words[0]) + " bits");
      need(inst.words[1] <= 1, "a signedness other than 0 or 1");
      break;
    case Op::OpTypeFloat:
      need(!inst.words.empty(), "OpTypeFloat needs a width");
      need(inst.words[0] == 16 || inst.words[0] == 32 || inst.words[0] == 64,
           "a floating-point width of " + std::to_string(inst.words[0]) + " bits");
      break;
    case Op::OpTypeVector: {
      need(inst.words.size() == 2 && is_type_id(inst.words[0]), "a vector of something that is not a type");
      const uint32_t n = inst.words[1];
      need(n == 2 || n == 3 || n == 4 || n == 8 || n == 16, "a vector of " + std::to_string(n) + " components");
      break;
    }
    case Op::OpTypeArray:
    case Op::OpTypeRuntimeArray:
      need(!inst.words.empty() && is_type_id(inst.words[0]), "an array of something that is not a type");
      break;
    case Op::OpTypeStruct:
      for (uint32_t member : inst.words) need(is_type_id(member), "a struct member that is not a type");
      break;
    case Op::OpTypePointer:
      need(inst.words.size() == 2 && is_type_id(inst.words[1]), "a pointer to something that is not a type");
      break;
    default:
      break;
  }
}

}  // namespace

void check_kernel_module(const Module& module) {
  if (module.memory_model.size() != 1) fail("a module needs exactly one OpMemoryModel");
  if (!module.has_capability(spv::Capability::Kernel)) fail("not a Kernel module (no Kernel capability)");

  // Every id defined once, below the bound; which ids are types, functions.
  std::unordered_map<uint32_t, Op> definitions;
  auto define = [&](const Instruction& inst) {
    if (inst.result_id == 0) return;
    if (inst.result_id >= module.bound)
      fail("%" + std::to_string(inst.result_id) + " is not below the id bound " + std::to_string(module.bound), &inst);
    if (!definitions.emplace(inst.result_id, inst.opcode).second)
      fail("%" + std::to_string(inst.result_id) + " is defined more than once", &inst);
  };
  for (const auto* section : {&module.capabilities, &module.extensions, &module.ext_inst_imports, &module.memory_model,
                              &module.entry_points, &module.execution_modes, &module.debug, &module.annotations,
                              &module.globals})
    for (const Instruction& inst : *section) define(inst);
  for (const Function& function : module.functions)
    for (const Instruction& inst : function.code) define(inst);

  auto check_uses = [&](const Instruction& inst) {
    if (inst.words.size() != inst.is_id.size()) fail("operand bookkeeping is inconsistent", &inst);
    if (inst.type_id != 0) {
      auto type = definitions.find(inst.type_id);
      if (type == definitions.end() || !is_type(type->second))
        fail("result type %" + std::to_string(inst.type_id) + " is not a type", &inst);
    }
    for (size_t i = 0; i < inst.words.size(); ++i) {
      if (!inst.is_id[i]) continue;
      // Defined somewhere in the module: forward references are fine.
      if (!definitions.count(inst.words[i]))
        fail("operand %" + std::to_string(inst.words[i]) + " is not defined", &inst);
    }
  };
  for (const auto* section : {&module.entry_points, &module.execution_modes, &module.debug, &module.annotations,
                              &module.globals})
    for (const Instruction& inst : *section) check_uses(inst);

  // Types are declared before they are used (SPIR-V 2.4), except through
  // OpTypeForwardPointer: so no type contains itself, and the passes that
  // walk types (layouts, sizes) always end.
  std::unordered_set<uint32_t> declared, forward_pointers;
  for (const Instruction& inst : module.globals) {
    check_type_shape(inst, definitions);
    if (inst.opcode == Op::OpTypeForwardPointer && !inst.words.empty()) forward_pointers.insert(inst.words[0]);
    if (is_type(inst.opcode) && inst.opcode != Op::OpTypeForwardPointer)
      for (size_t i = 0; i < inst.words.size(); ++i) {
        if (!inst.is_id[i]) continue;
        const uint32_t used = inst.words[i];
        auto definition = definitions.find(used);
        if (definition != definitions.end() && is_type(definition->second) && !declared.count(used) &&
            !forward_pointers.count(used))
          fail("type %" + std::to_string(used) + " is used before its declaration", &inst);
      }
    if (inst.result_id) declared.insert(inst.result_id);
  }

  std::unordered_set<uint32_t> function_ids;
  for (const Function& function : module.functions) {
    if (function.code.empty() || function.code.front().opcode != Op::OpFunction)
      fail("a function does not begin with OpFunction");
    if (function.code.back().opcode != Op::OpFunctionEnd)
      fail("function %" + std::to_string(function.code.front().result_id) + " does not end with OpFunctionEnd");
    function_ids.insert(function.code.front().result_id);
  }
  for (const Instruction& entry : module.entry_points)
    if (entry.words.size() < 3 || !function_ids.count(entry.words[1])) fail("the entry point is not a function", &entry);

  for (const Function& function : module.functions) {
    std::unordered_set<uint32_t> labels;
    for (const Instruction& inst : function.code)
      if (inst.opcode == Op::OpLabel) labels.insert(inst.result_id);
    // OpFunction, OpFunctionParameter*, then blocks: OpLabel ... terminator.
    check_uses(function.code.front());
    size_t i = 1;
    for (; i + 1 < function.code.size() && function.code[i].opcode == Op::OpFunctionParameter; ++i)
      check_uses(function.code[i]);
    bool in_block = false;
    for (; i + 1 < function.code.size(); ++i) {
      const Instruction& inst = function.code[i];
      check_uses(inst);
      if (inst.opcode == Op::OpLabel) {
        if (in_block) fail("a block ends without a terminator before label %" + std::to_string(inst.result_id), &inst);
        in_block = true;
        continue;
      }
      if (!in_block) fail("an instruction outside any block", &inst);
      if (inst.opcode == Op::OpFunction || inst.opcode == Op::OpFunctionParameter)
        fail("a function definition inside a function", &inst);
      for (size_t operand : label_operands(inst))
        if (operand >= inst.words.size() || !labels.count(inst.words[operand]))
          fail("a branch target or phi parent is not a block of this function", &inst);
      if (inst.opcode == Op::OpFunctionCall && (inst.words.empty() || !function_ids.count(inst.words[0])))
        fail("the callee is not a function", &inst);
      if (inst.result_id && inst.opcode != Op::OpPhi)
        for (size_t w = 0; w < inst.words.size(); ++w)
          if (inst.is_id[w] && inst.words[w] == inst.result_id) fail("an instruction uses its own result", &inst);
      if (is_terminator(inst.opcode)) in_block = false;
    }
    if (in_block) fail("the last block of function %" + std::to_string(function.code.front().result_id) +
                       " ends without a terminator");
  }
}

}  // namespace vkcl::spirv

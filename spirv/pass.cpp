#include "pass.h"

#include <algorithm>

#include "compile_error.h"

namespace vkcl::spirv {

uint32_t PushConstantBlock::add_member(uint32_t type, uint32_t size_bytes, uint32_t alignment) {
  uint32_t offset = (size + alignment - 1) / alignment * alignment;
  member_types.push_back(type);
  member_offsets.push_back(offset);
  member_alignments.push_back(alignment);
  size = offset + size_bytes;
  return uint32_t(member_types.size() - 1);
}

DefUse::DefUse(const Function& function) : function_(function) {
  for (size_t p = 0; p < function.code.size(); ++p) {
    const Instruction& i = function.code[p];
    if (i.result_id) position_[i.result_id] = p;
    for (size_t w = 0; w < i.words.size(); ++w)
      if (i.is_id[w]) uses_[i.words[w]].push_back(p);
  }
}

std::optional<size_t> DefUse::position(uint32_t id) const {
  auto it = position_.find(id);
  if (it == position_.end()) return std::nullopt;
  return it->second;
}

const Instruction* DefUse::definition(uint32_t id) const {
  const std::optional<size_t> p = position(id);
  return p ? &function_.code[*p] : nullptr;
}

const std::vector<size_t>& DefUse::uses(uint32_t id) const {
  static const std::vector<size_t> kNone;
  auto it = uses_.find(id);
  return it == uses_.end() ? kNone : it->second;
}

Function& function_by_id(Module& module, uint32_t id) {
  auto it = std::find_if(module.functions.begin(), module.functions.end(), [&](const Function& f) { return f.id() == id; });
  if (it == module.functions.end()) throw CompileError("internal error: no function %" + std::to_string(id));
  return *it;
}

ValueTypes value_types(const Module& module, const Function& function) {
  ValueTypes types;
  for (const Instruction& g : module.globals)
    if (g.result_id && g.type_id) types[g.result_id] = g.type_id;
  for (const Instruction& i : function.code)
    if (i.result_id && i.type_id) types[i.result_id] = i.type_id;
  return types;
}

size_t entry_insertion_point(const Function& function) {
  size_t i = 0;
  while (i < function.code.size() && function.code[i].opcode != Op::OpLabel) ++i;
  ++i;
  while (i < function.code.size() && function.code[i].opcode == Op::OpVariable) ++i;
  return i;
}

std::unordered_set<uint32_t> unused_values(const Function& function, const InsertionsAfter& insertions,
                                           std::vector<uint32_t> candidates, const std::function<bool(Op)>& removable) {
  std::unordered_map<uint32_t, size_t> uses, defs;
  for (size_t p = 0; p < function.code.size(); ++p) {
    Instruction copy = function.code[p];
    copy.for_each_used_id([&](uint32_t& id) { ++uses[id]; });
    if (copy.result_id) defs[copy.result_id] = p;
  }
  for (const auto& [position, instructions] : insertions)
    for (Instruction copy : instructions) copy.for_each_used_id([&](uint32_t& id) { ++uses[id]; });
  std::unordered_set<uint32_t> dead;
  while (!candidates.empty()) {
    const uint32_t id = candidates.back();
    candidates.pop_back();
    auto def = defs.find(id);
    if (def == defs.end() || uses[id] != 0 || dead.count(id)) continue;
    Instruction copy = function.code[def->second];
    if (!removable(copy.opcode)) continue;
    dead.insert(id);
    copy.for_each_used_id([&](uint32_t& used) {
      --uses[used];
      candidates.push_back(used);
    });
  }
  return dead;
}

void splice(Module& module, Function& function, InsertionsAfter& insertions, const std::unordered_set<uint32_t>& dead) {
  std::vector<Instruction> code;
  code.reserve(function.code.size() + insertions.size());
  for (size_t p = 0; p < function.code.size(); ++p) {
    if (!function.code[p].result_id || !dead.count(function.code[p].result_id)) code.push_back(std::move(function.code[p]));
    if (auto it = insertions.find(p); it != insertions.end())
      for (Instruction& i : it->second) code.push_back(std::move(i));
  }
  function.code = std::move(code);
  insertions.clear();
  if (dead.empty()) return;
  auto names_dead = [&](const Instruction& i) { return !i.words.empty() && dead.count(i.word(0)) > 0; };
  std::erase_if(module.debug, [&](const Instruction& i) {
    return (i.opcode == Op::OpName || i.opcode == Op::OpMemberName) && names_dead(i);
  });
  std::erase_if(module.annotations, names_dead);
}

uint32_t load_push_constant(Module& module, KernelState& kernel, uint32_t member, std::vector<Instruction>& out,
                            uint32_t result_id) {
  PushConstantBlock& block = kernel.push_constants;
  if (!block.variable) {
    block.struct_type = module.new_id();
    block.pointer_type = module.new_id();
    block.variable = module.new_id();
  }
  uint32_t type = block.member_types.at(member);
  uint32_t pointer = module.new_id();
  out.push_back(std::move(Instruction(Op::OpAccessChain, module.type_pointer(spv::StorageClass::PushConstant, type), pointer)
                              .id(block.variable)
                              .id(module.constant_u32(member))));
  uint32_t value = result_id ? result_id : module.new_id();
  out.push_back(std::move(Instruction(Op::OpLoad, type, value).id(pointer)));
  return value;
}

}  // namespace vkcl::spirv

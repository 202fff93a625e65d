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

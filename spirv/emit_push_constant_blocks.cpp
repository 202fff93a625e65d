// emit_push_constant_blocks: declares each kernel's push-constant block.
//
// Earlier passes appended members (arguments, ND-range fields) and emitted
// loads through ids reserved for the block; this pass defines those ids: the
// Block-decorated struct with explicit Offsets, its PushConstant pointer
// type and the variable, and records the block's size in the reflection.
//
// Argument buffers: Vulkan guarantees only 128 bytes of push constants
// (maxPushConstantsSize; lavapipe, Intel and many mobile drivers have no
// more), while OpenCL promises kernels 1024 bytes of arguments
// (CL_DEVICE_MAX_PARAMETER_SIZE): twelve pointers and three ND-range fields
// already take 144. Modules are device independent, so the choice is made
// here against the guaranteed 128: a kernel whose block would be bigger gets
// its arguments moved, at the offsets they had, into a Block struct in
// PhysicalStorageBuffer memory (each member Offset, NonWritable, Restrict),
// and the push-constant block holds an 8-byte pointer to it at offset 0
// followed by the ND-range fields (which change per dispatch: group_offset).
// The kernel loads the pointer once, first thing, and each argument load goes
// through it with an Aligned operand (the member's OpenCL alignment, which
// the host's placement of the buffer at a multiple of 128 bytes keeps, so at
// most 128). The reflection says so with
// `argument_buffer <offset of the pointer> <size>`; its `arg` offsets are
// then offsets in the argument buffer. Kernels that fit are left exactly as
// they were.
#include <algorithm>
#include <unordered_map>

#include "compile_error.h"
#include "passes.h"

namespace vkcl::spirv {
namespace {

// Vulkan's minimum for maxPushConstantsSize: what every device offers.
constexpr uint32_t kGuaranteedPushConstantBytes = 128;
// SPIR-V's Aligned memory-operand bit.
constexpr uint32_t kAligned = 0x2;

class EmitPushConstantBlocks final : public Pass {
 public:
  std::string_view name() const override { return "emit_push_constant_blocks"; }

  void run(Module& m, LoweringContext& context) override {
    for (KernelState& kernel : context.kernels) {
      PushConstantBlock& block = kernel.push_constants;
      KernelReflection& reflection = context.reflection_of(kernel);
      if (block.variable && (block.size + 3) / 4 * 4 > kGuaranteedPushConstantBytes && block.argument_members > 0)
        move_arguments_to_buffer(m, kernel, reflection);
      reflection.push_constant_size = (block.size + 3) / 4 * 4;
      if (!block.variable) continue;
      Instruction structure(Op::OpTypeStruct, 0, block.struct_type);
      for (uint32_t type : block.member_types) structure.id(type);
      m.globals.push_back(std::move(structure));
      m.globals.push_back(std::move(Instruction(Op::OpTypePointer, 0, block.pointer_type)
                                        .literal(uint32_t(spv::StorageClass::PushConstant))
                                        .id(block.struct_type)));
      m.globals.push_back(std::move(Instruction(Op::OpVariable, block.pointer_type, block.variable)
                                        .literal(uint32_t(spv::StorageClass::PushConstant))));
      m.decorate(block.struct_type, spv::Decoration::Block);
      for (uint32_t member = 0; member < block.member_types.size(); ++member)
        m.decorate_member(block.struct_type, member, spv::Decoration::Offset, std::array{block.member_offsets[member]});
      m.debug.push_back(std::move(Instruction(Op::OpName, 0, 0)
                                      .id(block.struct_type)
                                      .string(reflection.name + ".push_constants")));
    }
  }

 private:
  // Declares the argument struct and a pointer to it, rebuilds the block as
  // that pointer plus the ND-range fields, and rewrites every access.
  static void move_arguments_to_buffer(Module& m, KernelState& kernel, KernelReflection& reflection) {
    PushConstantBlock& block = kernel.push_constants;
    const uint32_t arguments = block.argument_members;

    // The arguments' struct, at their push-constant offsets.
    const uint32_t argument_struct = m.new_id();
    Instruction structure(Op::OpTypeStruct, 0, argument_struct);
    for (uint32_t member = 0; member < arguments; ++member) structure.id(block.member_types[member]);
    m.globals.push_back(std::move(structure));
    m.decorate(argument_struct, spv::Decoration::Block);
    for (uint32_t member = 0; member < arguments; ++member) {
      m.decorate_member(argument_struct, member, spv::Decoration::Offset, std::array{block.member_offsets[member]});
      m.decorate_member(argument_struct, member, spv::Decoration::NonWritable);
      m.decorate_member(argument_struct, member, spv::Decoration::Restrict);
    }
    m.debug.push_back(std::move(Instruction(Op::OpName, 0, 0).id(argument_struct).string(reflection.name + ".arguments")));
    const uint32_t argument_pointer_type = m.type_pointer(spv::StorageClass::PhysicalStorageBuffer, argument_struct);

    // The new block: the pointer at offset 0, then the ND-range fields in their order.
    PushConstantBlock rebuilt;
    rebuilt.struct_type = block.struct_type;
    rebuilt.pointer_type = block.pointer_type;
    rebuilt.variable = block.variable;
    const uint32_t pointer_member = rebuilt.add_member(argument_pointer_type, 8, 8);
    std::unordered_map<uint32_t, uint32_t> moved_fields;  // old member index -> new
    std::unordered_map<uint32_t, uint32_t> moved_offsets;  // old offset -> new
    for (uint32_t member = arguments; member < block.member_types.size(); ++member) {
      const uint32_t index = rebuilt.add_member(block.member_types[member], m.size_of(block.member_types[member]),
                                                block.member_alignments[member]);
      moved_fields[member] = index;
      moved_offsets[block.member_offsets[member]] = rebuilt.member_offsets[index];
    }
    for (NDRangeSlot& slot : reflection.ndrange) {
      auto it = moved_offsets.find(slot.offset);
      if (it == moved_offsets.end())
        throw CompileError("internal error: kernel '" + reflection.name + "': ND-range field " +
                           std::string(to_string(slot.field)) + " is not a push-constant member");
      slot.offset = it->second;
    }
    reflection.argument_buffer = ArgumentBufferSlot{rebuilt.member_offsets[pointer_member], (block.argument_bytes + 3) / 4 * 4};

    // Every access of the block: arguments through the loaded pointer, ND-range fields renumbered.
    const Function& kernel_function = function_by_id(m, kernel.function);
    const uint32_t loaded_pointer = m.new_id();
    for (Function& f : m.functions) {
      std::unordered_map<uint32_t, uint32_t> argument_chains;  // chain result -> alignment of its member
      for (Instruction& i : f.code) {
        if (i.opcode == Op::OpAccessChain && i.word(0) == block.variable) {
          auto index = m.constant_value(i.word(1));
          if (!index || i.words.size() != 2)
            throw CompileError("internal error: kernel '" + reflection.name +
                               "': a push-constant access without one constant member index");
          const auto member = uint32_t(*index);
          if (member >= arguments) {
            i.words[1] = m.constant_u32(moved_fields.at(member));
            continue;
          }
          if (f.id() != kernel_function.id())
            throw CompileError("internal error: kernel '" + reflection.name + "': an argument is read outside the kernel");
          i.type_id = m.type_pointer(spv::StorageClass::PhysicalStorageBuffer, block.member_types[member]);
          i.words[0] = loaded_pointer;
          argument_chains[i.result_id] = std::min(block.member_alignments[member], kArgumentBufferAlignment);
          continue;
        }
        if (argument_chains.empty()) continue;
        bool uses_chain = false;
        for (size_t w = 0; w < i.words.size(); ++w) uses_chain |= i.is_id[w] && argument_chains.count(i.words[w]);
        if (!uses_chain) continue;
        if (i.opcode != Op::OpLoad || i.words.size() != 1)
          throw CompileError("internal error: kernel '" + reflection.name +
                             "': an argument's push-constant member is used other than by a plain load");
        i.literal(kAligned).literal(argument_chains.at(i.word(0)));
      }
    }
    Function& function = function_by_id(m, kernel.function);
    const uint32_t pointer_to_member = m.new_id();
    const Instruction loads[] = {
        std::move(Instruction(Op::OpAccessChain, m.type_pointer(spv::StorageClass::PushConstant, argument_pointer_type),
                              pointer_to_member)
                      .id(block.variable)
                      .id(m.constant_u32(pointer_member))),
        std::move(Instruction(Op::OpLoad, argument_pointer_type, loaded_pointer).id(pointer_to_member)),
    };
    function.code.insert(function.code.begin() + ptrdiff_t(entry_insertion_point(function)), std::begin(loads),
                         std::end(loads));
    block = std::move(rebuilt);
  }
};

}  // namespace

std::unique_ptr<Pass> make_emit_push_constant_blocks() { return std::make_unique<EmitPushConstantBlocks>(); }

}  // namespace vkcl::spirv

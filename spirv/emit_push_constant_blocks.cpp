// emit_push_constant_blocks: declares each kernel's push-constant block.
//
// Earlier passes appended members (arguments, ND-range fields) and emitted
// loads through ids reserved for the block; this pass defines those ids: the
// Block-decorated struct with explicit Offsets, its PushConstant pointer
// type and the variable, and records the block's size in the reflection.
#include "passes.h"

namespace vkcl::spirv {
namespace {

class EmitPushConstantBlocks final : public Pass {
 public:
  std::string_view name() const override { return "emit_push_constant_blocks"; }

  void run(Module& m, LoweringContext& context) override {
    for (KernelState& kernel : context.kernels) {
      const PushConstantBlock& block = kernel.push_constants;
      context.reflection_of(kernel).push_constant_size = (block.size + 3) / 4 * 4;
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
                                      .string(context.reflection_of(kernel).name + ".push_constants")));
    }
  }
};

}  // namespace

std::unique_ptr<Pass> make_emit_push_constant_blocks() { return std::make_unique<EmitPushConstantBlocks>(); }

}  // namespace vkcl::spirv

// rewrite_entry_points: Kernel entry points become GLCompute entry points.
//
// SPIRV-LLVM-Translator emits, for each kernel, a wrapper function that is
// the entry point and calls the kernel's body. This pass makes the body
// itself the GLCompute entry point and deletes the wrapper; the body keeps
// its parameters, which lower_kernel_arguments removes. It records each
// kernel in the reflection, with its reqd_work_group_size (the Kernel
// LocalSize mode) and intel_reqd_sub_group_size (the SubgroupSize mode, which
// Vulkan SPIR-V does not have: the host asks for the size at pipeline
// creation instead), and declares the module's WorkgroupSize builtin as a
// spec-constant composite (spec ids 0, 1, 2) so the host picks the local
// size per pipeline. Interfaces are filled in by declare_vulkan_module.
#include <algorithm>

#include "compile_error.h"
#include "passes.h"

namespace vkcl::spirv {
namespace {

// The function a wrapper calls, or the entry point itself when it is the
// body. A wrapper, as the translator writes it, holds nothing but its
// parameters and one call of the body: an entry point that does anything
// else is the body, though it may call a function (which is not the kernel).
uint32_t kernel_body(const Function& entry_point) {
  uint32_t body = 0;
  for (const Instruction& i : entry_point.code) {
    switch (i.opcode) {
      case Op::OpFunction: case Op::OpFunctionParameter: case Op::OpLabel: case Op::OpReturn:
      case Op::OpFunctionEnd: case Op::OpLine: case Op::OpNoLine:
        break;
      case Op::OpFunctionCall:
        if (body != 0) return entry_point.id();
        body = i.word(0);
        break;
      default:
        return entry_point.id();
    }
  }
  return body != 0 ? body : entry_point.id();
}

class RewriteEntryPoints final : public Pass {
 public:
  std::string_view name() const override { return "rewrite_entry_points"; }

  void run(Module& m, LoweringContext& context) override {
    std::vector<Instruction> entry_points;
    std::vector<uint32_t> wrappers;
    for (const Instruction& ep : m.entry_points) {
      if (spv::ExecutionModel(ep.word(0)) != spv::ExecutionModel::Kernel)
        throw CompileError("internal error: entry point is not a kernel");
      uint32_t wrapper = ep.word(1);
      std::string name = ep.string_at(2);
      uint32_t body = kernel_body(function_by_id(m, wrapper));
      if (body != wrapper) wrappers.push_back(wrapper);

      KernelState& kernel = context.kernels.emplace_back();
      kernel.function = body;
      kernel.reflection_index = context.reflection.kernels.size();
      KernelReflection& reflection = context.reflection.kernels.emplace_back();
      reflection.name = name;
      for (const Instruction& mode : m.execution_modes) {
        if (mode.word(0) != wrapper) continue;
        if (spv::ExecutionMode(mode.word(1)) == spv::ExecutionMode::LocalSize)
          reflection.required_work_group_size = {mode.word(2), mode.word(3), mode.word(4)};
        if (spv::ExecutionMode(mode.word(1)) == spv::ExecutionMode::SubgroupSize)
          reflection.required_sub_group_size = mode.word(2);
      }

      entry_points.push_back(std::move(
          Instruction(Op::OpEntryPoint, 0, 0).literal(uint32_t(spv::ExecutionModel::GLCompute)).id(body).string(name)));
    }
    std::erase_if(m.functions, [&](const Function& f) { return std::ranges::count(wrappers, f.id()) > 0; });

    for (const Function& f : m.functions)
      for (const Instruction& i : f.code)
        if (i.opcode == Op::OpFunctionCall &&
            std::ranges::any_of(context.kernels, [&](const KernelState& k) { return k.function == i.word(0); }))
          throw ProgramError("calling a kernel from another kernel ('" + m.name_of(i.word(0)) +
                             "') is not supported yet");

    m.entry_points = std::move(entry_points);
    m.execution_modes.clear();
    for (const KernelState& kernel : context.kernels)
      m.execution_modes.push_back(std::move(Instruction(Op::OpExecutionMode, 0, 0)
                                                .id(kernel.function)
                                                .literal(uint32_t(spv::ExecutionMode::LocalSize))
                                                .literal(1).literal(1).literal(1)));
    context.workgroup_size = declare_workgroup_size(m);
  }

 private:
  static uint32_t declare_workgroup_size(Module& m) {
    uint32_t uint_type = m.type_int(32);
    Instruction composite(Op::OpSpecConstantComposite, m.type_vector(uint_type, 3), m.new_id());
    for (uint32_t dim = 0; dim < 3; ++dim) {
      uint32_t id = m.new_id();
      m.globals.push_back(std::move(Instruction(Op::OpSpecConstant, uint_type, id).literal(1)));
      m.decorate(id, spv::Decoration::SpecId, std::array{kWorkGroupSizeSpecIdBase + dim});
      composite.id(id);
    }
    m.decorate(composite.result_id, spv::Decoration::BuiltIn, std::array{uint32_t(spv::BuiltIn::WorkgroupSize)});
    uint32_t id = composite.result_id;
    m.globals.push_back(std::move(composite));
    return id;
  }
};

}  // namespace

std::unique_ptr<Pass> make_rewrite_entry_points() { return std::make_unique<RewriteEntryPoints>(); }

}  // namespace vkcl::spirv

// lower_kernel_arguments: kernel parameters become push constants and
// Workgroup arrays, and every kernel takes no parameters.
//
// Why push constants and buffer device addresses: OpenCL global pointers are
// plain addresses that kernels offset, cast and compare; PhysicalStorageBuffer64
// keeps that model without descriptor sets, and a push constant is the
// cheapest per-dispatch data Vulkan has. So:
//   __global / __constant T*  → a PhysicalStorageBuffer pointer member (8 bytes);
//                               the pointer type itself is rewritten by legalize_pointers
//   scalars                   → a member of the scalar's type, OpenCL alignment
//   __local T*                → a Workgroup T[n] whose length n is a spec constant
//                               (ids from 3 up), the parameter becomes &array[0]
// Member offsets and spec ids go into the reflection. Not handled yet (each a
// CompileError): by-value structs, pointers to __private memory, images.
#include <algorithm>

#include "compile_error.h"
#include "passes.h"

namespace vkcl::spirv {
namespace {

class LowerKernelArguments final : public Pass {
 public:
  std::string_view name() const override { return "lower_kernel_arguments"; }

  void run(Module& m, LoweringContext& context) override {
    for (KernelState& kernel : context.kernels) lower(m, context, kernel);
  }

 private:
  static void lower(Module& m, LoweringContext& context, KernelState& kernel) {
    Function& function = function_by_id(m, kernel.function);
    KernelReflection& reflection = context.reflection_of(kernel);
    std::vector<Instruction> prologue;

    uint32_t index = 0;
    for (const Instruction& param : function.code) {
      if (param.opcode != Op::OpFunctionParameter) continue;
      KernelArg& arg = reflection.args.emplace_back();
      arg.index = index++;
      arg.name = m.name_of(param.result_id);
      const std::string what = "kernel '" + reflection.name + "' argument " + std::to_string(arg.index) +
                               (arg.name.empty() ? "" : " ('" + arg.name + "')");
      auto storage = m.storage_class_of(param.type_id);
      if (!storage) {
        const Instruction* type = m.find_global(param.type_id);
        if (type && type->opcode == Op::OpTypeBool) throw CompileError("error: " + what + ": bool is not a valid kernel argument type");
        arg.kind = ArgKind::Scalar;
        arg.size = m.size_of(param.type_id);
        arg.offset = add_push_constant(m, kernel, param, arg.size, m.alignment_of(param.type_id), prologue);
        continue;
      }
      switch (*storage) {
        case spv::StorageClass::CrossWorkgroup:
        case spv::StorageClass::UniformConstant:
          arg.kind = *storage == spv::StorageClass::CrossWorkgroup ? ArgKind::GlobalPointer : ArgKind::ConstantPointer;
          arg.size = 8;
          arg.offset = add_push_constant(m, kernel, param, 8, 8, prologue);
          break;
        case spv::StorageClass::Workgroup:
          arg.kind = ArgKind::LocalPointer;
          arg.spec_id = context.next_spec_id++;
          arg.element_size = m.size_of(m.pointee_of(param.type_id));
          declare_local_array(m, param, arg.spec_id, prologue);
          break;
        default:
          throw CompileError("error: " + what + ": pointers to this address space (SPIR-V storage class " +
                             std::to_string(uint32_t(*storage)) + ") are not supported as kernel arguments yet");
      }
    }

    std::erase_if(function.code, [](const Instruction& i) { return i.opcode == Op::OpFunctionParameter; });
    function.code.front().words.back() = m.type_function(m.type_void());
    function.code.insert(function.code.begin() + ptrdiff_t(entry_insertion_point(function)), prologue.begin(),
                         prologue.end());
  }

  // The parameter's id becomes the value loaded from its push-constant member.
  static uint32_t add_push_constant(Module& m, KernelState& kernel, const Instruction& param, uint32_t size,
                                    uint32_t alignment, std::vector<Instruction>& prologue) {
    uint32_t member = kernel.push_constants.add_member(param.type_id, size, alignment);
    load_push_constant(m, kernel, member, prologue, param.result_id);
    return kernel.push_constants.member_offsets[member];
  }

  static void declare_local_array(Module& m, const Instruction& param, uint32_t spec_id,
                                  std::vector<Instruction>& prologue) {
    uint32_t uint_type = m.type_int(32);
    uint32_t length = m.new_id();
    m.globals.push_back(std::move(Instruction(Op::OpSpecConstant, uint_type, length).literal(1)));
    m.decorate(length, spv::Decoration::SpecId, std::array{spec_id});
    uint32_t array_type = m.new_id();
    m.globals.push_back(std::move(Instruction(Op::OpTypeArray, 0, array_type).id(m.pointee_of(param.type_id)).id(length)));
    uint32_t variable = m.new_id();
    m.globals.push_back(std::move(Instruction(Op::OpVariable, m.type_pointer(spv::StorageClass::Workgroup, array_type), variable)
                                      .literal(uint32_t(spv::StorageClass::Workgroup))));
    std::string name = m.name_of(param.result_id);
    if (!name.empty()) m.debug.push_back(std::move(Instruction(Op::OpName, 0, 0).id(variable).string(name)));
    prologue.push_back(std::move(Instruction(Op::OpAccessChain, param.type_id, param.result_id).id(variable).id(m.constant_u32(0))));
  }
};

}  // namespace

std::unique_ptr<Pass> make_lower_kernel_arguments() { return std::make_unique<LowerKernelArguments>(); }

}  // namespace vkcl::spirv

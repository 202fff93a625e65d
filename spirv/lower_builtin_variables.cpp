// lower_builtin_variables: OpenCL's work-item builtins become Vulkan builtins
// and push-constant fields, with OpenCL's ND-range semantics.
//
// The translator declares size_t builtins as v3ulong Input variables
// (Vulkan requires v3uint: GlobalInvocationId-04238) and uses some Vulkan
// lacks (GlobalOffset, GlobalSize, EnqueuedWorkgroupSize, WorkDim). Every
// load of such a variable is replaced, in place and under the same result
// id, by a computation:
//   local id          LocalInvocationId
//   group id          WorkgroupId + group_offset      (the host splits non-uniform
//                                                     ND-ranges into several dispatches)
//   local size        the WorkgroupSize spec constant  (right for edge groups too)
//   global id         WorkgroupId * enqueued local size + local id + global id base
//                     (the dispatch's first global id, a push-constant field)
//   global linear id  from the global id less the offset, and the global size
//   enqueued local size  reqd_work_group_size where the kernel has one (the
//                     host refuses any other), else a push-constant field
//   global size, global offset, num groups, work dim:
//                     push-constant fields, present only when read
//   sub-group id, sub-group local id   SubgroupId, SubgroupLocalInvocationId
//   max sub-group size                 SubgroupSize
//   sub-group size    min(SubgroupSize, local items - SubgroupId * SubgroupSize):
//                     smaller for the last sub-group of a work-group whose size
//                     is not a multiple of SubgroupSize
//   num sub-groups    ceil(local items / SubgroupSize), not NumSubgroups, which
//                     lavapipe (Mesa 22.3.6) rounds down
//   enqueued num sub-groups            ceil(enqueued local items / SubgroupSize)
// (local items: the product of the local size's components). Sub-group
// builtins declare GroupNonUniform and the subgroup_basic feature. They assume
// what Vulkan does not promise but NVIDIA and lavapipe do: sub-group i holds
// the work-items with LocalInvocationIndex i * SubgroupSize up to the next
// multiple, so only the last sub-group is partial. A kernel with
// intel_reqd_sub_group_size(N) reads the same builtins: the host creates its
// pipeline with requiredSubgroupSize = N, which makes SubgroupSize N.
// Values are computed in 32 bits; the host refuses ND-ranges that do not fit.
//
// group_offset and the global id base are added only where the specialization
// constant kOffsetsInKernelSpecId is true (its default). The host sets it
// false for an ND-range without a global offset whose split dispatches all
// fit vkCmdDispatchBase's limits: their first group is then the dispatch's
// base, in WorkgroupId already, and the driver folds the additions and their
// push-constant loads away. On a CPU device (lavapipe) every work-item paid
// for them: 2% of the instructions of vkcl-bench's histogram (callgrind).
#include <algorithm>
#include <map>

#include "compile_error.h"
#include "passes.h"

namespace vkcl::spirv {
namespace {

using spv::BuiltIn;

class KernelBuiltins {
 public:
  KernelBuiltins(Module& m, LoweringContext& context, KernelState& kernel, std::map<BuiltIn, uint32_t>& vulkan_inputs,
                 uint32_t& offsets_in_kernel)
      : m_(m), context_(context), kernel_(kernel), vulkan_inputs_(vulkan_inputs), offsets_in_kernel_(offsets_in_kernel) {
    uint32_t uint_type = m.type_int(32);
    uint_ = uint_type;
    uvec3_ = m.type_vector(uint_type, 3);
    uvec4_ = m.type_vector(uint_type, 4);
  }

  // Emits into `out` the instructions computing `builtin` as a value of `type`, defining `result`.
  void emit(BuiltIn builtin, uint32_t type, uint32_t result, std::vector<Instruction>& out) {
    out_ = &out;
    switch (builtin) {
      case BuiltIn::LocalInvocationId: return finish(vulkan_input(BuiltIn::LocalInvocationId, uvec3_), type, result);
      case BuiltIn::WorkgroupId: return finish(group_id(), type, result);
      case BuiltIn::WorkgroupSize: return finish(context_.workgroup_size, type, result);
      case BuiltIn::EnqueuedWorkgroupSize: return finish(enqueued_local_size(), type, result);
      case BuiltIn::GlobalSize: return finish(field(NDRangeField::GlobalSize), type, result);
      case BuiltIn::GlobalOffset: return finish(field(NDRangeField::GlobalOffset), type, result);
      case BuiltIn::NumWorkgroups: return finish(field(NDRangeField::NumGroups), type, result);
      case BuiltIn::WorkDim: return finish(field(NDRangeField::WorkDim), type, result);
      case BuiltIn::LocalInvocationIndex: return finish(vulkan_input(BuiltIn::LocalInvocationIndex, uint_), type, result);
      // (Each operand is emitted in its own statement: C++ leaves the order
      // in which a call's arguments are evaluated open, and the module's
      // instruction order should not depend on the compiler that built vkcl.)
      case BuiltIn::GlobalInvocationId: {
        const uint32_t group = vulkan_input(BuiltIn::WorkgroupId, uvec3_);
        const uint32_t scaled = binary(Op::OpIMul, uvec3_, group, enqueued_local_size());
        const uint32_t local_id = vulkan_input(BuiltIn::LocalInvocationId, uvec3_);
        const uint32_t local = binary(Op::OpIAdd, uvec3_, scaled, local_id);
        const uint32_t base = offset_field(NDRangeField::GlobalIdBase);
        return finish(binary(Op::OpIAdd, uvec3_, local, base), type, result);
      }
      case BuiltIn::GlobalLinearId: {
        // (z * global_size.y + y) * global_size.x + x, of the global id less the global offset.
        const uint32_t group = group_id();
        const uint32_t scaled = binary(Op::OpIMul, uvec3_, group, enqueued_local_size());
        const uint32_t local_id = vulkan_input(BuiltIn::LocalInvocationId, uvec3_);
        const uint32_t id = binary(Op::OpIAdd, uvec3_, scaled, local_id);
        const uint32_t size = field(NDRangeField::GlobalSize);
        const uint32_t z = component(id, 2), size_y = component(size, 1);
        const uint32_t z_rows = binary(Op::OpIMul, uint_, z, size_y);
        const uint32_t zy = binary(Op::OpIAdd, uint_, z_rows, component(id, 1));
        const uint32_t size_x = component(size, 0);
        const uint32_t zy_rows = binary(Op::OpIMul, uint_, zy, size_x);
        const uint32_t linear = binary(Op::OpIAdd, uint_, zy_rows, component(id, 0));
        return finish(linear, type, result);
      }
      case BuiltIn::SubgroupId:
      case BuiltIn::SubgroupLocalInvocationId: return finish(subgroup_input(builtin), type, result);
      case BuiltIn::SubgroupMaxSize: return finish(subgroup_input(BuiltIn::SubgroupSize), type, result);
      case BuiltIn::SubgroupSize: {
        uint32_t size = subgroup_input(BuiltIn::SubgroupSize);
        const uint32_t sub_group = subgroup_input(BuiltIn::SubgroupId);
        uint32_t before = binary(Op::OpIMul, uint_, sub_group, size);
        const uint32_t work_items = items(context_.workgroup_size);
        uint32_t left = binary(Op::OpISub, uint_, work_items, before);
        uint32_t partial = binary(Op::OpULessThan, m_.type_bool(), left, size);
        uint32_t value = m_.new_id();
        out_->push_back(std::move(Instruction(Op::OpSelect, uint_, value).id(partial).id(left).id(size)));
        return finish(value, type, result);
      }
      case BuiltIn::NumSubgroups: return finish(sub_groups(items(context_.workgroup_size)), type, result);
      case BuiltIn::NumEnqueuedSubgroups:
        return finish(sub_groups(items(enqueued_local_size())), type, result);
      default:
        throw ProgramError("the work-item builtin with SPIR-V BuiltIn " + std::to_string(uint32_t(builtin)) +
                           " is not supported yet");
    }
  }

 private:
  uint32_t group_id() {
    const uint32_t group = vulkan_input(BuiltIn::WorkgroupId, uvec3_);
    return binary(Op::OpIAdd, uvec3_, group, offset_field(NDRangeField::GroupOffset));
  }

  // A field the kernel adds only where the ND-range is offset in the kernel
  // (above): the field where the specialization constant holds, else 0.
  uint32_t offset_field(NDRangeField f) {
    const uint32_t value = field(f);
    if (offsets_in_kernel_ == 0) {
      const uint32_t bool_type = m_.type_bool();
      const uint32_t flag = m_.new_id();
      m_.globals.push_back(Instruction(Op::OpSpecConstantTrue, bool_type, flag));
      m_.decorate(flag, spv::Decoration::SpecId, std::array{kOffsetsInKernelSpecId});
      offsets_in_kernel_ = m_.new_id();
      m_.globals.push_back(std::move(Instruction(Op::OpSpecConstantComposite, m_.type_vector(bool_type, 3), offsets_in_kernel_)
                                         .id(flag).id(flag).id(flag)));
    }
    const uint32_t zero = m_.constant_u32(0);
    const uint32_t zeros = m_.constant_composite(uvec3_, std::array{zero, zero, zero});
    uint32_t selected = m_.new_id();
    out_->push_back(std::move(Instruction(Op::OpSelect, uvec3_, selected).id(offsets_in_kernel_).id(value).id(zeros)));
    return selected;
  }

  uint32_t enqueued_local_size() {
    const std::array<uint32_t, 3>& required = context_.reflection_of(kernel_).required_work_group_size;
    if (required[0] == 0) return field(NDRangeField::EnqueuedLocalSize);
    return m_.constant_composite(uvec3_, std::array{m_.constant_u32(required[0]), m_.constant_u32(required[1]),
                                                    m_.constant_u32(required[2])});
  }

  uint32_t subgroup_input(BuiltIn builtin) {
    m_.add_capability(spv::Capability::GroupNonUniform);
    context_.reflection.features.subgroup_basic = true;
    return vulkan_input(builtin, uint_);
  }

  // ceil(work_items / SubgroupSize)
  uint32_t sub_groups(uint32_t work_items) {
    uint32_t size = subgroup_input(BuiltIn::SubgroupSize);
    uint32_t size_minus_1 = binary(Op::OpISub, uint_, size, m_.constant_u32(1));
    return binary(Op::OpUDiv, uint_, binary(Op::OpIAdd, uint_, work_items, size_minus_1), size);
  }

  // x * y * z of a uvec3.
  uint32_t items(uint32_t size) {
    uint32_t product = component(size, 0);
    for (uint32_t d = 1; d < 3; ++d) product = binary(Op::OpIMul, uint_, product, component(size, d));
    return product;
  }

  uint32_t component(uint32_t vector, uint32_t index) {
    uint32_t value = m_.new_id();
    out_->push_back(std::move(Instruction(Op::OpCompositeExtract, uint_, value).id(vector).literal(index)));
    return value;
  }

  uint32_t binary(Op op, uint32_t type, uint32_t a, uint32_t b) {
    uint32_t id = m_.new_id();
    out_->push_back(std::move(Instruction(op, type, id).id(a).id(b)));
    return id;
  }

  uint32_t vulkan_input(BuiltIn builtin, uint32_t type) {
    auto [it, inserted] = vulkan_inputs_.try_emplace(builtin, 0);
    if (inserted) {
      it->second = m_.new_id();
      m_.globals.push_back(std::move(Instruction(Op::OpVariable, m_.type_pointer(spv::StorageClass::Input, type), it->second)
                                         .literal(uint32_t(spv::StorageClass::Input))));
      m_.decorate(it->second, spv::Decoration::BuiltIn, std::array{uint32_t(builtin)});
    }
    uint32_t value = m_.new_id();
    out_->push_back(std::move(Instruction(Op::OpLoad, type, value).id(it->second)));
    return value;
  }

  // A push-constant field as uvec3 (or uint for WorkDim).
  uint32_t field(NDRangeField f) {
    bool scalar = f == NDRangeField::WorkDim;
    auto [it, inserted] = members_.try_emplace(f, 0);
    if (inserted) {
      it->second = kernel_.push_constants.add_member(scalar ? uint_ : uvec4_, scalar ? 4 : 16, scalar ? 4 : 16);
      context_.reflection_of(kernel_).ndrange.push_back({f, kernel_.push_constants.member_offsets[it->second]});
    }
    uint32_t value = load_push_constant(m_, kernel_, it->second, *out_);
    if (scalar) return value;
    uint32_t xyz = m_.new_id();
    out_->push_back(std::move(Instruction(Op::OpVectorShuffle, uvec3_, xyz).id(value).id(value).literal(0).literal(1).literal(2)));
    return xyz;
  }

  // Converts the 32-bit value to the translator's type (ulong vectors for size_t).
  void finish(uint32_t value, uint32_t type, uint32_t result) {
    const Instruction* t = m_.find_global(type);
    const Instruction* component = t && t->opcode == Op::OpTypeVector ? m_.find_global(t->word(0)) : t;
    bool widen = component && component->opcode == Op::OpTypeInt && component->word(0) == 64;
    out_->push_back(std::move(Instruction(widen ? Op::OpUConvert : Op::OpCopyObject, type, result).id(value)));
  }

  Module& m_;
  LoweringContext& context_;
  KernelState& kernel_;
  std::map<BuiltIn, uint32_t>& vulkan_inputs_;
  // The module's v3bool of the kOffsetsInKernelSpecId constant; 0 until made.
  uint32_t& offsets_in_kernel_;
  std::map<NDRangeField, uint32_t> members_;
  std::vector<Instruction>* out_ = nullptr;
  uint32_t uint_ = 0, uvec3_ = 0, uvec4_ = 0;
};

class LowerBuiltinVariables final : public Pass {
 public:
  std::string_view name() const override { return "lower_builtin_variables"; }

  void run(Module& m, LoweringContext& context) override {
    std::map<uint32_t, BuiltIn> opencl_inputs;
    for (const Instruction& g : m.globals)
      if (g.opcode == Op::OpVariable && spv::StorageClass(g.word(0)) == spv::StorageClass::Input)
        if (auto builtin = m.decoration_literal(g.result_id, spv::Decoration::BuiltIn))
          opencl_inputs.emplace(g.result_id, BuiltIn(*builtin));

    std::map<BuiltIn, uint32_t> vulkan_inputs;
    uint32_t offsets_in_kernel = 0;
    for (KernelState& kernel : context.kernels) {
      KernelBuiltins builtins(m, context, kernel, vulkan_inputs, offsets_in_kernel);
      Function& function = function_by_id(m, kernel.function);
      std::vector<Instruction> code;
      for (Instruction& i : function.code) {
        auto it = i.opcode == Op::OpLoad ? opencl_inputs.find(i.word(0)) : opencl_inputs.end();
        if (it != opencl_inputs.end()) {
          builtins.emit(it->second, i.type_id, i.result_id, code);
        } else {
          code.push_back(std::move(i));
        }
      }
      function.code = std::move(code);
    }

    for (const Function& f : m.functions)
      for (const Instruction& i : f.code)
        for (size_t w = 0; w < i.words.size(); ++w)
          if (i.is_id[w] && opencl_inputs.count(i.words[w]))
            throw CompileError("internal error: work-item builtin variable used other than by OpLoad");
    std::erase_if(m.globals, [&](const Instruction& g) { return opencl_inputs.count(g.result_id) > 0; });
  }
};

}  // namespace

std::unique_ptr<Pass> make_lower_builtin_variables() { return std::make_unique<LowerBuiltinVariables>(); }

}  // namespace vkcl::spirv

// make_global_accesses_coherent: under the GLSL450 memory model, loads and
// stores of global memory in a kernel that fences global memory become
// Coherent, so that the fence can order them for other invocations.
//
// GLSL450 has no availability or visibility operations: a barrier with
// UniformMemory semantics only orders accesses that are Coherent (GLSL's
// `coherent`), while Workgroup memory is coherent by definition. Coherent
// must decorate a memory object declaration or a structure member, never a
// pointer value, so storage buffers (bind_storage_buffers) are decorated
// Coherent on their variables, and each access through a PhysicalStorageBuffer pointer to T
// goes through a struct { T } whose only member is Coherent:
//     %w = OpBitcast %ptr_to_wrapper %p
//     %c = OpAccessChain %ptr_to_T %w %uint_0      ; then OpLoad/OpStore %c
// Kernels with no barrier and no atomic (integer or float) whose semantics
// include UniformMemory are left alone (nothing may observe the difference);
// a relaxed atomic with UniformMemory counts too, which is safe if more than
// needed. Atomics themselves need no Coherent. Under the
// Vulkan memory model this pass does nothing: map_memory_semantics makes the
// same accesses NonPrivatePointer instead.
// Not covered: OpCopyMemory, which the lowering rejects today.
#include <unordered_map>
#include <unordered_set>

#include "passes.h"

namespace vkcl::spirv {
namespace {

using spv::StorageClass;

class MakeGlobalAccessesCoherent final : public Pass {
 public:
  std::string_view name() const override { return "make_global_accesses_coherent"; }

  void run(Module& m, LoweringContext& context) override {
    if (context.options.memory_model != MemoryModel::GLSL450) return;
    for (Function& f : m.functions)
      if (fences_global_memory(m, f)) rewrite_accesses(m, f);
  }

 private:
  static bool fences_global_memory(const Module& m, const Function& f) {
    for (const Instruction& i : f.code) {
      size_t semantics_index;
      if (i.opcode == Op::OpControlBarrier) semantics_index = 2;
      else if (i.opcode == Op::OpMemoryBarrier) semantics_index = 1;
      else if (is_atomic(i.opcode)) semantics_index = 2;  // Equal for a compare-exchange
      else continue;
      auto semantics = m.constant_value(i.word(semantics_index));
      if (semantics && (*semantics & uint32_t(spv::MemorySemanticsMask::UniformMemory))) return true;
    }
    return false;
  }

  // The PhysicalStorageBuffer pointer to a fresh struct { T } with a Coherent
  // member. Fresh, not found: a user struct of the same shape must not
  // become Coherent too.
  uint32_t coherent_wrapper_pointer(Module& m, uint32_t pointee) {
    auto [it, added] = wrapper_pointers_.try_emplace(pointee, 0);
    if (!added) return it->second;
    uint32_t wrapper = m.new_id();
    m.globals.push_back(std::move(Instruction(Op::OpTypeStruct, 0, wrapper).id(pointee)));
    m.decorate_member(wrapper, 0, spv::Decoration::Offset, std::array{0u});
    m.decorate_member(wrapper, 0, spv::Decoration::Coherent);
    it->second = m.type_pointer(StorageClass::PhysicalStorageBuffer, wrapper);
    return it->second;
  }

  void rewrite_accesses(Module& m, Function& f) {
    make_storage_buffers_coherent(m, f);
    ValueTypes types = value_types(m, f);
    std::vector<Instruction> code;
    code.reserve(f.code.size());
    for (Instruction& i : f.code) {
      if (i.opcode == Op::OpLoad || i.opcode == Op::OpStore) {
        uint32_t pointer_type = types.at(i.word(0));
        if (m.storage_class_of(pointer_type) == StorageClass::PhysicalStorageBuffer) {
          uint32_t wrapper_pointer = coherent_wrapper_pointer(m, m.pointee_of(pointer_type));
          uint32_t wrapped = m.new_id(), member = m.new_id();
          code.push_back(std::move(Instruction(Op::OpBitcast, wrapper_pointer, wrapped).id(i.word(0))));
          code.push_back(std::move(Instruction(Op::OpAccessChain, pointer_type, member).id(wrapped).id(m.constant_u32(0))));
          i.words[0] = member;
        }
      }
      code.push_back(std::move(i));
    }
    f.code = std::move(code);
  }

  // Storage buffers (bind_storage_buffers) are memory object declarations:
  // the variables the function uses are decorated Coherent themselves.
  static void make_storage_buffers_coherent(Module& m, Function& f) {
    std::unordered_set<uint32_t> buffers;
    for (const Instruction& g : m.globals)
      if (g.opcode == Op::OpVariable && StorageClass(g.word(0)) == StorageClass::StorageBuffer) buffers.insert(g.result_id);
    for (Instruction& i : f.code)
      i.for_each_used_id([&](uint32_t& id) {
        if (buffers.erase(id) && !m.has_decoration(id, spv::Decoration::Coherent))
          m.decorate(id, spv::Decoration::Coherent);
      });
  }

  std::unordered_map<uint32_t, uint32_t> wrapper_pointers_;  // pointee type → pointer to its wrapper
};

}  // namespace

std::unique_ptr<Pass> make_make_global_accesses_coherent() { return std::make_unique<MakeGlobalAccessesCoherent>(); }

}  // namespace vkcl::spirv

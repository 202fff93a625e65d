// address_dynamic_vector_components: an access chain on a global (buffer
// address) pointer whose last index picks a vector's component by a value
// not known to be in range becomes an address computation on the
// components: the chain up to the vector, cast to a pointer to the
// component type, then OpPtrAccessChain by the index.
//
// Why: a kernel that reads a `float4*` argument through a cast `float*`
// (CLBlast's GEMM kernels: `agms = (const __global float*)agm`, then
// `agms[i]`) reaches the lowering as `&agm[0][i]`: LLVM folds the cast
// into a GEP into the vector, and the translator writes that as
// OpInBoundsPtrAccessChain %agm 0 %i. In LLVM that is address arithmetic,
// and i may well be 4 or more; in SPIR-V, an index past a composite's end
// is undefined. lavapipe and NVIDIA's driver happened to compute the
// address; a driver that clamps the index, or selects among the
// components, would read the wrong element. PhysicalStorageBuffer pointers
// may be cast (OpBitcast), so the address is taken in the component type,
// where the index is the element index OpenCL C meant.
//
// Only global memory: Workgroup, Private and Function pointers cannot be
// cast (legalize_pointers refuses such casts, so the kernels that would
// need one do not compile), and storage-buffer arguments (bind_storage_buffers,
// lavapipe only) are left as they are. Runs after legalize_pointers, whose
// pointer types this reads and whose ArrayStride rule it follows.
#include "passes.h"

namespace vkcl::spirv {
namespace {

using spv::StorageClass;

bool has_element_operand(Op op) { return op == Op::OpPtrAccessChain || op == Op::OpInBoundsPtrAccessChain; }

class AddressDynamicVectorComponents final : public Pass {
 public:
  std::string_view name() const override { return "address_dynamic_vector_components"; }

  void run(Module& m, LoweringContext&) override {
    for (Function& f : m.functions) {
      ValueTypes type_of = value_types(m, f);
      std::vector<Instruction> code;
      code.reserve(f.code.size());
      for (Instruction& i : f.code) {
        if (!rewrite(m, type_of, i, code)) code.push_back(std::move(i));
      }
      f.code = std::move(code);
    }
  }

 private:
  // Emits the replacement of `chain` into `out` and returns true, or returns
  // false where it stays.
  static bool rewrite(Module& m, ValueTypes& type_of, const Instruction& chain,
                      std::vector<Instruction>& out) {
    if (!is_chain(chain.opcode) || m.storage_class_of(chain.type_id) != StorageClass::PhysicalStorageBuffer)
      return false;
    const size_t first_index = has_element_operand(chain.opcode) ? 2 : 1;
    if (chain.words.size() <= first_index) return false;
    // The type the last index selects from.
    const auto base_type = type_of.find(chain.word(0));
    if (base_type == type_of.end()) return false;
    uint32_t type = m.pointee_of(base_type->second);
    for (size_t w = first_index; w + 1 < chain.words.size(); ++w) type = selected_type(m, type, chain.word(w));
    const Instruction* vector = type ? m.find_global(type) : nullptr;
    if (!vector || vector->opcode != Op::OpTypeVector) return false;
    const uint32_t index = chain.words.back();
    const std::optional<uint64_t> constant = m.constant_value(index);
    if (constant && *constant < vector->word(1)) return false;

    // The chain up to the vector (the base itself for `p[0]` or no index).
    uint32_t to_vector = chain.word(0);
    const bool only_zero_element =
        chain.words.size() == first_index + 1 &&
        (first_index == 1 || m.constant_value(chain.word(1)).value_or(1) == 0);
    if (!only_zero_element) {
      Instruction prefix(chain.opcode, m.type_pointer(StorageClass::PhysicalStorageBuffer, type), m.new_id());
      for (size_t w = 0; w + 1 < chain.words.size(); ++w) prefix.id(chain.word(w));
      to_vector = prefix.result_id;
      type_of[to_vector] = prefix.type_id;
      out.push_back(std::move(prefix));
    }
    // The chain's own type points to the component: the cast, then the step.
    if (!m.has_decoration(chain.type_id, spv::Decoration::ArrayStride))
      m.decorate(chain.type_id, spv::Decoration::ArrayStride, std::array{m.size_of(m.pointee_of(chain.type_id))});
    Instruction cast(Op::OpBitcast, chain.type_id, m.new_id());
    cast.id(to_vector);
    type_of[cast.result_id] = chain.type_id;
    Instruction step(Op::OpPtrAccessChain, chain.type_id, chain.result_id);
    step.id(cast.result_id).id(index);
    out.push_back(std::move(cast));
    out.push_back(std::move(step));
    return true;
  }

  // The type `index` selects in the composite `type`; 0 where it cannot be told.
  static uint32_t selected_type(const Module& m, uint32_t type, uint32_t index) {
    const Instruction* t = type ? m.find_global(type) : nullptr;
    if (!t) return 0;
    switch (t->opcode) {
      case Op::OpTypeVector:
      case Op::OpTypeArray:
      case Op::OpTypeRuntimeArray:
        return t->word(0);
      case Op::OpTypeStruct: {
        const std::optional<uint64_t> member = m.constant_value(index);
        return member && *member < t->words.size() ? t->word(size_t(*member)) : 0;
      }
      default:
        return 0;
    }
  }
};

}  // namespace

std::unique_ptr<Pass> make_address_dynamic_vector_components() {
  return std::make_unique<AddressDynamicVectorComponents>();
}

}  // namespace vkcl::spirv

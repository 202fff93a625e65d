// narrow_local_indices: 64-bit array indices into Workgroup, Private and
// Function memory that are zero-extensions of 32-bit values become those
// 32-bit values.
//
// OpenCL C's size_t is 64 bits in SPIR64, so `buf[get_local_id(0)]` and
// `buf[(uint)i]` reach the lowering as OpAccessChain indices computed in 64
// bits: OpUConvert of a 32-bit value to ulong, OpCompositeExtract of a
// v3ulong OpUConvert (lower_builtin_variables widens the Vulkan builtins to
// the translator's v3ulong), or `x & 0xffffffff` on a ulong (clang's
// zero-extension of a 32-bit index through size_t; `x & m` for any constant
// m < 2^32 after instcombine), or OpSConvert of a 32-bit value (`buf[i]` with
// an int i: exact too, see narrowed_index). Each such index of an OpAccessChain or
// OpInBoundsAccessChain whose base points to Workgroup, Private or Function
// memory is replaced by the 32-bit value: the OpUConvert's operand, an
// OpCompositeExtract of the 32-bit vector, or the 32-bit `low & m` where low
// is x's 32-bit source or else an OpUConvert of x to 32 bits (its low word),
// each emitted right after the 64-bit value's definition.
//
// Why it is exact: the 64-bit index i is in [0, 2^32); the arrays indexed
// have fewer than 2^31 elements (an array type of a known larger length
// keeps its 64-bit index), so i is in bounds exactly when the 32-bit value,
// read as signed or unsigned, is the same in-bounds index, and out of
// bounds in both forms otherwise. PhysicalStorageBuffer (global) indexing
// is not touched: OpPtrAccessChain's element index is signed there, and a
// 32-bit one would address below the base pointer.
//
// Runs after legalize_pointers (every chain on such memory is then one
// OpAccessChain from its variable) and lower_builtin_variables. The 64-bit
// conversions, masks and extracts left unused are removed (with their names);
// struct member indices and constant indices are left as they are.
#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "passes.h"

namespace vkcl::spirv {
namespace {

using spv::StorageClass;

constexpr uint64_t kMaxNarrowableLength = 0x7fffffff;

bool is_local(std::optional<StorageClass> s) {
  return s == StorageClass::Workgroup || s == StorageClass::Function || s == StorageClass::Private;
}

class FunctionIndices {
 public:
  FunctionIndices(Module& m, Function& f) : m_(m), f_(f), types_(value_types(m, f)), defs_(f) {}

  void run() {
    for (size_t p = 0; p < f_.code.size(); ++p) {
      const Op op = f_.code[p].opcode;
      if (op != Op::OpAccessChain && op != Op::OpInBoundsAccessChain) continue;
      auto base_type = types_.find(f_.code[p].word(0));
      if (base_type == types_.end() || !is_local(m_.storage_class_of(base_type->second))) continue;
      uint32_t type = m_.pointee_of(base_type->second);
      for (size_t w = 1; w < f_.code[p].words.size() && type != 0; ++w) {
        const uint32_t index = f_.code[p].word(w);
        const Instruction* t = m_.find_global(type);
        if (t == nullptr) break;
        bool narrowable = false;
        switch (t->opcode) {
          case Op::OpTypeArray: {
            const std::optional<uint64_t> length = m_.constant_value(t->word(1));
            narrowable = !length || *length <= kMaxNarrowableLength;  // a specialization constant: __local memory
            type = t->word(0);
            break;
          }
          case Op::OpTypeVector:
          case Op::OpTypeMatrix:
            narrowable = true;
            type = t->word(0);
            break;
          case Op::OpTypeStruct: {
            const std::optional<uint64_t> member = m_.constant_value(index);
            type = member && *member < t->words.size() ? t->word(*member) : 0;
            break;
          }
          default: type = 0; break;
        }
        if (!narrowable) continue;
        if (const uint32_t narrow = narrowed_index(index)) {
          f_.code[p].words[w] = narrow;
          replaced_.push_back(index);
        }
      }
    }
    if (inserts_.empty() && replaced_.empty()) return;
    // The 64-bit index computations no instruction uses any more, and those
    // that only they used.
    auto removable = [](Op op) {
      return op == Op::OpUConvert || op == Op::OpSConvert || op == Op::OpBitwiseAnd || op == Op::OpCompositeExtract;
    };
    splice(m_, f_, inserts_, unused_values(f_, inserts_, replaced_, removable));
  }

 private:
  uint32_t int_width(uint32_t value) const {
    auto it = types_.find(value);
    return it == types_.end() ? 0 : m_.integer_width(it->second).value_or(0);
  }

  const Instruction* definition(uint32_t id) const { return defs_.definition(id); }

  // A 32-bit index that selects what 64-bit `index` selects in an array of
  // fewer than 2^31 elements: the value it zero-extends (narrowed), or the
  // value it sign-extends (`a[i]` with an int i): a negative i is out of
  // bounds as a 64-bit index and as a 32-bit one, read signed or unsigned.
  uint32_t narrowed_index(uint32_t index) {
    const Instruction* def = definition(index);
    if (def != nullptr && def->opcode == Op::OpSConvert && int_width(index) == 64 && int_width(def->word(0)) == 32)
      return def->word(0);
    return narrowed(index);
  }

  // A 32-bit value whose zero-extension is `id`, or 0 when `id` is not known
  // to be one; emits what it needs after `id`'s definition.
  uint32_t narrowed(uint32_t id) {
    if (auto it = narrowed_.find(id); it != narrowed_.end()) return it->second;
    // Not known while it is being worked out: a malformed module whose `and`
    // uses itself (found by the lowering fuzzer) ends here, not in a stack overflow.
    narrowed_[id] = 0;
    uint32_t result = 0;
    const Instruction* def = definition(id);
    if (def != nullptr && int_width(id) == 64) {
      if (def->opcode == Op::OpUConvert && int_width(def->word(0)) == 32) {
        result = def->word(0);
      } else if (def->opcode == Op::OpCompositeExtract && def->words.size() == 2) {
        // A component of a widened 32-bit vector (a work-item builtin).
        const Instruction* vector = definition(def->word(0));
        if (vector != nullptr && vector->opcode == Op::OpUConvert)
          if (const uint32_t component = component_of_32_bit_vector(vector->word(0)))
            result = emit_after(id, Instruction(Op::OpCompositeExtract, component, m_.new_id())
                                        .id(vector->word(0))
                                        .literal(def->word(1)));
      } else if (def->opcode == Op::OpBitwiseAnd) {
        // x & mask, mask < 2^32: the zero-extension of (x's low word) & mask.
        for (int k = 0; k < 2 && result == 0; ++k) {
          const std::optional<uint64_t> mask = m_.constant_value(def->word(k));
          if (!mask || *mask > 0xffffffffu) continue;
          const uint32_t other = def->word(1 - k);
          uint32_t low = narrowed(other);
          if (low == 0) low = emit_after(id, Instruction(Op::OpUConvert, m_.type_int(32), m_.new_id()).id(other));
          result = *mask == 0xffffffffu ? low
                                        : emit_after(id, Instruction(Op::OpBitwiseAnd, m_.type_int(32), m_.new_id())
                                                             .id(low)
                                                             .id(m_.constant_u32(uint32_t(*mask))));
        }
      }
    }
    narrowed_[id] = result;
    return result;
  }

  // The component type of `value` when it is a vector of 32-bit integers, else 0.
  uint32_t component_of_32_bit_vector(uint32_t value) const {
    auto it = types_.find(value);
    const Instruction* t = it == types_.end() ? nullptr : m_.find_global(it->second);
    if (t == nullptr || t->opcode != Op::OpTypeVector) return 0;
    const Instruction* component = m_.find_global(t->word(0));
    return component && component->opcode == Op::OpTypeInt && component->word(0) == 32 ? t->word(0) : 0;
  }

  uint32_t emit_after(uint32_t id, Instruction instruction) {
    const uint32_t result = instruction.result_id;
    types_[result] = instruction.type_id;
    inserts_[defs_.position(id).value()].push_back(std::move(instruction));
    return result;
  }

  Module& m_;
  Function& f_;
  ValueTypes types_;
  DefUse defs_;
  std::unordered_map<uint32_t, uint32_t> narrowed_;
  InsertionsAfter inserts_;
  std::vector<uint32_t> replaced_;       // 64-bit indices replaced (once per use)
};

class NarrowLocalIndices final : public Pass {
 public:
  std::string_view name() const override { return "narrow_local_indices"; }

  void run(Module& m, LoweringContext&) override {
    for (Function& f : m.functions) FunctionIndices(m, f).run();
  }
};

}  // namespace

std::unique_ptr<Pass> make_narrow_local_indices() { return std::make_unique<NarrowLocalIndices>(); }

}  // namespace vkcl::spirv

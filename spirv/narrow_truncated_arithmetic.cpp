// narrow_truncated_arithmetic: 64-bit integer arithmetic whose result is
// only kept in 32 bits is done in 32 bits.
//
// OpenCL C's size_t is 64 bits in SPIR64, so `uint x = get_group_id(0) * 16 +
// get_local_id(0)` reaches the lowering as 64-bit arithmetic truncated by an
// OpUConvert or OpSConvert to a 32-bit type. A 64-bit integer operation costs
// two or more instructions on GPUs and in lavapipe's SIMD lanes, and the
// truncation only keeps the low words. The low 32 bits of OpIAdd, OpISub,
// OpIMul, OpShiftLeftLogical (by a constant below 32), OpBitwiseAnd/Or/Xor,
// OpNot, OpSNegate and OpSelect depend only on the low 32 bits of their
// operands (arithmetic modulo 2^32), so where every leaf of the truncated
// tree is a zero- or sign-extension of a 32-bit value (OpUConvert or
// OpSConvert, or a component of a widened 32-bit vector, as
// lower_builtin_variables makes the work-item builtins) or a constant, the
// same tree on the 32-bit values gives the truncated result exactly.
//
// Each 32-bit instruction is emitted right after the 64-bit one it mirrors
// (so it is defined wherever that one is), and the truncation becomes an
// OpCopyObject of the 32-bit root; the 64-bit instructions still used
// elsewhere stay, the rest are removed (unused_values, pass.h). Scalars and
// vectors alike. A tree with any other leaf (a load,
// a phi, a function parameter, a vector constant) is left as it is:
// truncating those too would add instructions, not remove them. Runs after
// lower_builtin_variables and narrow_local_indices.
#include <unordered_map>

#include "passes.h"

namespace vkcl::spirv {
namespace {

class FunctionNarrowing {
 public:
  FunctionNarrowing(Module& m, Function& f) : m_(m), f_(f), types_(value_types(m, f)), defs_(f) {}

  void run() {
    std::vector<std::pair<size_t, uint32_t>> truncations;  // position, 32-bit root
    for (size_t p = 0; p < f_.code.size(); ++p) {
      const Instruction& i = f_.code[p];
      if (i.opcode != Op::OpUConvert && i.opcode != Op::OpSConvert) continue;
      if (width_of_type(i.type_id) != 32 || width_of_value(i.word(0)) != 64) continue;
      if (const uint32_t narrow = narrowed(i.word(0))) truncations.emplace_back(p, narrow);
    }
    for (const auto& [position, narrow] : truncations) {
      Instruction& truncation = f_.code[position];
      narrowed_roots_[position] = truncation.word(0);
      truncation.opcode = Op::OpCopyObject;
      truncation.words = {narrow};
      truncation.is_id = {true};
    }
    if (inserts_.empty()) return;
    std::vector<uint32_t> replaced;
    for (const auto& [position, root] : narrowed_roots_) replaced.push_back(root);
    splice(m_, f_, inserts_, unused_values(f_, inserts_, std::move(replaced), is_pure));
  }

 private:
  static bool is_pure(Op op) {
    switch (op) {
      case Op::OpUConvert: case Op::OpSConvert: case Op::OpCompositeExtract: case Op::OpIAdd: case Op::OpISub:
      case Op::OpIMul: case Op::OpBitwiseAnd: case Op::OpBitwiseOr: case Op::OpBitwiseXor:
      case Op::OpShiftLeftLogical: case Op::OpNot: case Op::OpSNegate: case Op::OpSelect:
        return true;
      default:
        return false;
    }
  }

  // The width of an integer scalar or vector type's components, else 0.
  uint32_t width_of_type(uint32_t type) const { return m_.integer_width(type, true).value_or(0); }
  uint32_t width_of_value(uint32_t value) const {
    auto it = types_.find(value);
    return it == types_.end() ? 0 : width_of_type(it->second);
  }
  // The 32-bit type of the shape of 64-bit `type`.
  uint32_t narrow_type(uint32_t type) {
    const Instruction* t = m_.find_global(type);
    return t->opcode == Op::OpTypeVector ? m_.type_vector(m_.type_int(32), t->word(1)) : m_.type_int(32);
  }

  // A 32-bit value equal to the low words of 64-bit `id`, or 0 when `id` is
  // no tree this pass narrows.
  uint32_t narrowed(uint32_t id) {
    if (auto it = narrowed_.find(id); it != narrowed_.end()) return it->second;
    narrowed_[id] = 0;  // while being worked out: a malformed self-reference ends here
    const uint32_t result = width_of_value(id) == 64 ? narrow_definition(id) : 0;
    narrowed_[id] = result;
    return result;
  }

  uint32_t narrow_definition(uint32_t id) {
    if (const std::optional<uint64_t> value = m_.constant_value(id); value && width_of_type(types_.at(id)) == 64)
      return m_.find_global(types_.at(id))->opcode == Op::OpTypeInt
                 ? m_.constant_int(m_.type_int(32), *value & 0xffffffffu)
                 : 0;
    const std::optional<size_t> def_at = defs_.position(id);
    if (!def_at) return 0;
    const Instruction& def = f_.code[*def_at];
    switch (def.opcode) {
      case Op::OpUConvert:
      case Op::OpSConvert:  // an extension of a 32-bit value is that value, modulo 2^32
        return width_of_value(def.word(0)) == 32 ? def.word(0) : 0;
      case Op::OpCompositeExtract: {  // a component of a widened 32-bit vector
        if (def.words.size() != 2) return 0;
        const Instruction* vector_definition = defs_.definition(def.word(0));
        if (vector_definition == nullptr) return 0;
        const Instruction& vector = *vector_definition;
        if ((vector.opcode != Op::OpUConvert && vector.opcode != Op::OpSConvert) ||
            width_of_value(vector.word(0)) != 32)
          return 0;
        return emit_after(*def_at, Instruction(Op::OpCompositeExtract, m_.type_int(32), m_.new_id())
                                              .id(vector.word(0))
                                              .literal(def.word(1)));
      }
      case Op::OpIAdd:
      case Op::OpISub:
      case Op::OpIMul:
      case Op::OpBitwiseAnd:
      case Op::OpBitwiseOr:
      case Op::OpBitwiseXor: {
        const uint32_t a = narrowed(def.word(0)), b = a ? narrowed(def.word(1)) : 0;
        if (!b) return 0;
        // clang's zero-extension through size_t, `x & 0xffffffff`, keeps all
        // 32 bits: the narrowed x itself (the SPIR-V optimizer leaves the mask).
        if (def.opcode == Op::OpBitwiseAnd) {
          if (m_.constant_value(b) == 0xffffffffu) return a;
          if (m_.constant_value(a) == 0xffffffffu) return b;
        }
        return emit_after(*def_at, Instruction(def.opcode, narrow_type(def.type_id), m_.new_id()).id(a).id(b));
      }
      case Op::OpShiftLeftLogical: {  // by a constant: bits above 32 never come down
        const std::optional<uint64_t> shift = m_.constant_value(def.word(1));
        if (!shift || *shift >= 32 || m_.find_global(types_.at(def.word(1)))->opcode != Op::OpTypeInt) return 0;
        const uint32_t a = narrowed(def.word(0));
        return a ? emit_after(*def_at, Instruction(def.opcode, narrow_type(def.type_id), m_.new_id())
                                                  .id(a)
                                                  .id(m_.constant_u32(uint32_t(*shift))))
                 : 0;
      }
      case Op::OpNot:
      case Op::OpSNegate: {
        const uint32_t a = narrowed(def.word(0));
        return a ? emit_after(*def_at, Instruction(def.opcode, narrow_type(def.type_id), m_.new_id()).id(a)) : 0;
      }
      case Op::OpSelect: {
        if (width_of_value(def.word(0)) != 0) return 0;  // the condition is a bool (or bool vector)
        const uint32_t a = narrowed(def.word(1)), b = a ? narrowed(def.word(2)) : 0;
        return b ? emit_after(*def_at, Instruction(Op::OpSelect, narrow_type(def.type_id), m_.new_id())
                                                  .id(def.word(0))
                                                  .id(a)
                                                  .id(b))
                 : 0;
      }
      default:
        return 0;
    }
  }

  uint32_t emit_after(size_t position, Instruction instruction) {
    const uint32_t result = instruction.result_id;
    types_[result] = instruction.type_id;
    inserts_[position].push_back(std::move(instruction));
    return result;
  }

  Module& m_;
  Function& f_;
  ValueTypes types_;
  DefUse defs_;
  std::unordered_map<uint32_t, uint32_t> narrowed_;
  InsertionsAfter inserts_;
  std::unordered_map<size_t, uint32_t> narrowed_roots_;  // truncation position -> its 64-bit operand
};

class NarrowTruncatedArithmetic final : public Pass {
 public:
  std::string_view name() const override { return "narrow_truncated_arithmetic"; }

  void run(Module& m, LoweringContext&) override {
    for (Function& f : m.functions) FunctionNarrowing(m, f).run();
  }
};

}  // namespace

std::unique_ptr<Pass> make_narrow_truncated_arithmetic() { return std::make_unique<NarrowTruncatedArithmetic>(); }

}  // namespace vkcl::spirv

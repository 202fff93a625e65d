// lower_signed_remainders: OpSRem and OpSMod as unsigned remainders of
// magnitudes, since Vulkan leaves them undefined for negative operands.
//
// OpenCL C's `%` on signed integers is C's: truncating, the sign of the
// result follows the dividend, and SPIRV-LLVM-Translator emits it as OpSRem.
// The Vulkan environment (appendix "Precision and Operation of SPIR-V
// Instructions") makes OpSRem and OpSMod undefined when either operand is
// negative, and drivers do differ: NVIDIA's gives other values for -7 % 5
// than lavapipe's. So
//   a srem b = sign(a) * (|a| umod |b|)
//   a smod b = r + b where r = a srem b is nonzero and its sign differs from b's, else r
// with |x| taken on the bits (x < 0 ? -x : x), which is right for the most
// negative value too: its negation has the same bits, and as an unsigned
// number that is its magnitude. A zero divisor stays undefined, as in C.
// The result type is that of the original instruction (OpenCL modules only
// have integer types of signedness 0, which OpUMod takes).
#include <algorithm>

#include "instruction_builder.h"
#include "passes.h"

namespace vkcl::spirv {
namespace {

// A signed integer (scalar or vector) as its sign and its magnitude, the
// bits of |x| read as unsigned; each computed once per operand.
struct SignAndMagnitude {
  uint32_t negative;
  uint32_t magnitude;
};

SignAndMagnitude split(InstructionBuilder& b, uint32_t type, uint32_t x) {
  const uint32_t negative = b.op(Op::OpSLessThan, b.bool_type(b.shape(type).count), {x, b.constant(type, 0)});
  return {negative, b.op(Op::OpSelect, type, {negative, b.op(Op::OpSNegate, type, {x}), x})};
}

// The remainder with the dividend's sign.
uint32_t signed_remainder(InstructionBuilder& b, uint32_t type, SignAndMagnitude dividend, SignAndMagnitude divisor) {
  const uint32_t r = b.op(Op::OpUMod, type, {dividend.magnitude, divisor.magnitude});
  return b.op(Op::OpSelect, type, {dividend.negative, b.op(Op::OpSNegate, type, {r}), r});
}

// The remainder with the divisor's sign.
uint32_t signed_modulo(InstructionBuilder& b, uint32_t type, uint32_t dividend, uint32_t divisor) {
  const uint32_t bools = b.bool_type(b.shape(type).count);
  const uint32_t zero = b.constant(type, 0);
  const SignAndMagnitude d = split(b, type, divisor);
  const uint32_t r = signed_remainder(b, type, split(b, type, dividend), d);
  const uint32_t signs_differ =
      b.op(Op::OpLogicalNotEqual, bools, {b.op(Op::OpSLessThan, bools, {r, zero}), d.negative});
  const uint32_t adjust = b.op(Op::OpLogicalAnd, bools, {signs_differ, b.op(Op::OpINotEqual, bools, {r, zero})});
  return b.op(Op::OpSelect, type, {adjust, b.op(Op::OpIAdd, type, {r, divisor}), r});
}

class LowerSignedRemainders final : public Pass {
 public:
  std::string_view name() const override { return "lower_signed_remainders"; }

  void run(Module& m, LoweringContext&) override {
    expand_instructions(m, [&](InstructionBuilder& b, Instruction& i) {
      if (i.opcode == Op::OpSRem) {
        b.finish(signed_remainder(b, i.type_id, split(b, i.type_id, i.word(0)), split(b, i.type_id, i.word(1))),
                 i.result_id);
      } else if (i.opcode == Op::OpSMod) {
        b.finish(signed_modulo(b, i.type_id, i.word(0), i.word(1)), i.result_id);
      } else {
        return false;
      }
      return true;
    });
  }
};

}  // namespace

std::unique_ptr<Pass> make_lower_signed_remainders() { return std::make_unique<LowerSignedRemainders>(); }

}  // namespace vkcl::spirv

// round_doubles_through_floor: GLSL.std.450 Trunc and RoundEven of 64-bit
// floats (scalars and vectors) become Floor, Ceil and comparisons.
//
// llvmpipe (Mesa 22.3.6, lavapipe's compiler) gets both wrong for doubles on
// some x86 hosts (seen on an AMD EPYC): RoundEven rounds ties toward zero
// (rint(1.5) = 1), neither rounds a value above 2^31 (trunc(1e15 + 0.5) =
// 1e15 + 0.5), and Trunc loses the sign of -0.0; Floor and Ceil are right
// there. A wrong rint, trunc or round-to-nearest-even conversion
// (convert_long_rte, which lower_rounding_modes makes a RoundEven) is a wrong
// answer, so doubles take the way that is right on every driver; floats,
// halves and every other instruction keep theirs. On GPUs this costs a few
// instructions per double rint or trunc, which are rare in kernels:
//   trunc(x) = x < 0 ? ceil(x) : floor(x)    (-0.0 and NaN go through floor)
//   rint(x)  = f + 1 where x - f > 0.5, or == 0.5 with f odd, else f
//              (f = floor(x)); -0.0 where x < 0 and that is 0
// Infinities and NaN come out as themselves: x - f is NaN there, and every
// comparison with NaN is false. Runs after lower_opencl_std and
// lower_rounding_modes, which emit these instructions.
#include <spirv/unified1/GLSL.std.450.h>

#include "instruction_builder.h"
#include "passes.h"

namespace vkcl::spirv {
namespace {

uint32_t truncate(InstructionBuilder& b, uint32_t type, uint32_t x) {
  const uint32_t bools = b.bool_type(b.shape(type).count);
  const uint32_t negative = b.op(Op::OpFOrdLessThan, bools, {x, b.float_constant(type, 0.0)});
  return b.op(Op::OpSelect, type,
              {negative, b.glsl(GLSLstd450Ceil, type, {x}), b.glsl(GLSLstd450Floor, type, {x})});
}

uint32_t round_even(InstructionBuilder& b, uint32_t type, uint32_t x) {
  const uint32_t bools = b.bool_type(b.shape(type).count);
  const uint32_t half = b.float_constant(type, 0.5), one = b.float_constant(type, 1.0);
  const uint32_t zero = b.float_constant(type, 0.0), two = b.float_constant(type, 2.0);
  const uint32_t f = b.glsl(GLSLstd450Floor, type, {x});
  const uint32_t fraction = b.op(Op::OpFSub, type, {x, f});
  // f is odd where f - 2 floor(f / 2) is not 0 (exact: f is an integer).
  const uint32_t halved = b.glsl(GLSLstd450Floor, type, {b.op(Op::OpFMul, type, {f, half})});
  const uint32_t odd = b.op(Op::OpFOrdNotEqual, bools, {b.op(Op::OpFSub, type, {f, b.op(Op::OpFMul, type, {halved, two})}), zero});
  const uint32_t tie_to_odd = b.op(Op::OpLogicalAnd, bools, {b.op(Op::OpFOrdEqual, bools, {fraction, half}), odd});
  const uint32_t up = b.op(Op::OpLogicalOr, bools, {b.op(Op::OpFOrdGreaterThan, bools, {fraction, half}), tie_to_odd});
  const uint32_t rounded = b.op(Op::OpSelect, type, {up, b.op(Op::OpFAdd, type, {f, one}), f});
  const uint32_t negative_zero = b.op(
      Op::OpLogicalAnd, bools,
      {b.op(Op::OpFOrdLessThan, bools, {x, zero}), b.op(Op::OpFOrdEqual, bools, {rounded, zero})});
  return b.op(Op::OpSelect, type, {negative_zero, b.float_constant(type, -0.0), rounded});
}

class RoundDoublesThroughFloor final : public Pass {
 public:
  std::string_view name() const override { return "round_doubles_through_floor"; }

  void run(Module& m, LoweringContext&) override {
    uint32_t glsl = 0;
    for (const Instruction& import : m.ext_inst_imports)
      if (import.string_at(0) == "GLSL.std.450") glsl = import.result_id;
    if (glsl == 0) return;
    expand_instructions(m, [&](InstructionBuilder& b, Instruction& i) {
      if (i.opcode != Op::OpExtInst || i.word(0) != glsl) return false;
      const uint32_t instruction = i.word(1);
      if (instruction != GLSLstd450Trunc && instruction != GLSLstd450RoundEven) return false;
      const Shape shape = b.shape(i.type_id);
      if (shape.kind != Op::OpTypeFloat || shape.width != 64) return false;
      const uint32_t x = i.word(2);
      b.finish(instruction == GLSLstd450Trunc ? truncate(b, i.type_id, x) : round_even(b, i.type_id, x), i.result_id);
      return true;
    });
  }
};

}  // namespace

std::unique_ptr<Pass> make_round_doubles_through_floor() { return std::make_unique<RoundDoublesThroughFloor>(); }

}  // namespace vkcl::spirv

// lower_rounding_modes: the rounding modes of OpenCL C conversions
// (convert_<type>_rte/_rtz/_rtp/_rtn) as code, since Vulkan takes no
// per-instruction rounding mode.
//
// SPIRV-LLVM-Translator decorates the conversion FPRoundingMode, which
// Vulkan allows only on conversions to 16-bit floats that 16-bit storage
// writes (strip_kernel_decorations drops it), while OpenCL C 3.0 §6.4.3.2
// asks for the mode to be exact. Each decorated conversion becomes:
//   - float to integer: the operand rounded to an integer first (RoundEven,
//     Ceil, Floor: exact), then converted; RTZ is what OpConvertFToS/FToU do.
//   - integer to float, and float to a narrower float (double to float,
//     float or double to half), with RTZ, RTP or RTN: the conversion as the
//     device rounds it (correctly rounded, to one of the two neighbours of
//     the exact value), converted back exactly (to the integer type, or the
//     wider float type) and compared with the operand; where it lies on the
//     wrong side, the result moves one ulp by adding +-1 to its bits (which
//     also turns an infinity into the largest finite value and 0 into the
//     smallest subnormal, as the modes ask). A result the integer type cannot
//     hold (2^31 from INT_MAX, an infinity from an int beyond half's range)
//     lies beyond the operand by definition. A half result of a narrowing
//     goes back to float by integer instructions on its bits (then to double
//     by OpFConvert, exact), not by OpFConvert of the half: a driver may fold
//     the round trip OpFConvert(OpFConvert(x)) to x, and NVIDIA's (driver
//     580, H100) behaved as if it did for float to half and back: no result
//     was ever corrected. A float result goes back to double by integer
//     instructions too (widen_float_bits): NVIDIA's flushed a subnormal
//     float that OpFConvert widened. The half's bits go through a 16-bit
//     integer, as the one-ulp step's already did, and the double is built
//     from two 32-bit words, so the module needs nothing new (Int16,
//     shaderInt16, as before) besides FindUMsb on 32-bit integers.
//   - RTE on these, conversions that are exact (widening, integers that
//     every value of fit in the float type), and integer-to-integer
//     conversions: the decoration is only dropped. RTE is then the device's
//     own rounding of conversions, as it is for conversions without a mode:
//     to nearest even on lavapipe (Vulkan also allows toward zero; a device
//     that does that would need RTE lowered here too).
// Not guaranteed: on a device that flushes subnormal float results to zero
// (lavapipe keeps them), a narrowing with RTP or RTN whose exact result is
// subnormal may give the smallest subnormal instead of that result or zero.
// Runs after lower_saturating_conversions, which leaves the decoration on the
// conversion of the clamped value. A FPRoundingMode on any other instruction
// is an internal error.
#include <cmath>
#include <string>
#include <unordered_map>

#include "compile_error.h"
#include "instruction_builder.h"
#include "passes.h"

namespace vkcl::spirv {
namespace {

using Mode = spv::FPRoundingMode;

// Significand bits (with the leading one) and the largest finite value of the binary16/32/64 formats.
int precision_of(uint32_t width) { return width == 16 ? 11 : width == 32 ? 24 : 53; }
double max_finite(uint32_t width) {
  const int emax = width == 16 ? 15 : width == 32 ? 127 : 1023;
  return std::ldexp(2.0 - std::ldexp(1.0, 1 - precision_of(width)), emax);
}

uint64_t all_ones(uint32_t width) { return width >= 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1; }

// `rounded` (a conversion's result, of float type) moved one ulp where
// `wrong` holds: away from zero where `away` holds (when `away` is an id),
// else away from zero when `always_away`, else toward zero.
uint32_t step_one_ulp(InstructionBuilder& b, uint32_t rounded, uint32_t wrong, uint32_t away, bool always_away = false) {
  const uint32_t type = b.type_of(rounded);
  const Shape s = b.shape(type);
  const uint32_t bits_type = b.int_type(s.width, s.count);
  const uint32_t bits = b.op(Op::OpBitcast, bits_type, {rounded});
  const uint32_t plus = b.constant(bits_type, 1), minus = b.constant(bits_type, all_ones(s.width));
  const uint32_t step = away ? b.op(Op::OpSelect, bits_type, {away, plus, minus}) : always_away ? plus : minus;
  const uint32_t stepped = b.op(Op::OpIAdd, bits_type, {bits, step});
  return b.op(Op::OpBitcast, type, {b.op(Op::OpSelect, bits_type, {wrong, stepped, bits})});
}

// An integer-to-float conversion `conversion` (its result id left to the caller) under a directed mode.
uint32_t directed_from_integer(InstructionBuilder& b, const Instruction& conversion, Mode mode) {
  const uint32_t x = conversion.word(0);
  const uint32_t int_type = b.type_of(x), float_type = conversion.type_id;
  const Shape from = b.shape(int_type), to = b.shape(float_type);
  const bool is_signed = conversion.opcode == Op::OpConvertSToF;
  const uint32_t bools = b.bool_type(from.count);
  const uint32_t rounded = b.op(conversion.opcode, float_type, {x});

  // Where the rounded value is 2^(width-1) (signed) or 2^width, or an
  // infinity (half has no 2^16), it does not convert back, and is beyond x.
  const double limit = std::ldexp(1.0, is_signed ? int(from.width) - 1 : int(from.width));
  const bool limit_finite = limit <= max_finite(to.width);
  const uint32_t limit_value = b.float_constant(float_type, limit_finite ? limit : max_finite(to.width));
  const uint32_t over = b.op(limit_finite ? Op::OpFOrdGreaterThanEqual : Op::OpFOrdGreaterThan, bools,
                             {rounded, limit_value});
  // Below -2^(width-1) only where that is no finite value: at -infinity.
  const uint32_t under = is_signed && !limit_finite
                             ? b.op(Op::OpFOrdLessThan, bools, {rounded, b.float_constant(float_type, -max_finite(to.width))})
                             : 0;
  const uint32_t out_of_range = under ? b.op(Op::OpLogicalOr, bools, {over, under}) : over;
  const uint32_t in_range = b.op(Op::OpSelect, float_type, {out_of_range, b.float_constant(float_type, 0.0), rounded});
  const uint32_t back = b.op(is_signed ? Op::OpConvertFToS : Op::OpConvertFToU, int_type, {in_range});
  const uint32_t in_range_test = b.op(Op::OpLogicalNot, bools, {out_of_range});
  uint32_t above = b.op(Op::OpLogicalAnd, bools,
                        {in_range_test, b.op(is_signed ? Op::OpSGreaterThan : Op::OpUGreaterThan, bools, {back, x})});
  above = b.op(Op::OpLogicalOr, bools, {over, above});
  uint32_t below = b.op(Op::OpLogicalAnd, bools,
                        {in_range_test, b.op(is_signed ? Op::OpSLessThan : Op::OpULessThan, bools, {back, x})});
  if (under) below = b.op(Op::OpLogicalOr, bools, {under, below});
  // Unsigned x: never negative, so the steps have one direction.
  const uint32_t negative = is_signed ? b.op(Op::OpSLessThan, bools, {x, b.constant(int_type, 0)}) : 0;
  switch (mode) {
    case Mode::RTZ:  // too far from zero: above a positive x, below a negative one
      return step_one_ulp(b, rounded, negative ? b.op(Op::OpSelect, bools, {negative, below, above}) : above, 0);
    case Mode::RTP:  // below x: up, which is away from zero for positive x
      return step_one_ulp(b, rounded, below, negative ? b.op(Op::OpLogicalNot, bools, {negative}) : 0, true);
    case Mode::RTN:  // above x: down, which is away from zero for negative x
      return step_one_ulp(b, rounded, above, negative, false);
    default:
      throw CompileError("internal error: no directed rounding mode\n");
  }
}

// The half (scalar or vector) `half` as a float of the same count, exactly,
// by integer instructions on its bits: sign, exponent rebiased (15 to 127;
// 31, infinity and NaN, to 255 with the fraction kept, so a NaN stays one)
// and fraction shifted to float's 23 bits; a subnormal (m * 2^-24, m of 10
// bits) normalised with FindUMsb (leading one at bit p: exponent p - 24,
// the bits below it the fraction). Every half is a normal float, so a
// device that flushes float subnormals still gets every value.
uint32_t widen_half_bits(InstructionBuilder& b, uint32_t half) {
  const uint32_t count = b.shape(b.type_of(half)).count;
  const uint32_t u16 = b.int_type(16, count), u32 = b.int_type(32, count), bools = b.bool_type(count);
  const auto k = [&](uint64_t bits) { return b.constant(u32, bits); };
  const uint32_t h = b.op(Op::OpUConvert, u32, {b.op(Op::OpBitcast, u16, {half})});
  const uint32_t sign = b.op(Op::OpShiftLeftLogical, u32, {b.op(Op::OpBitwiseAnd, u32, {h, k(0x8000)}), k(16)});
  const uint32_t exponent =
      b.op(Op::OpBitwiseAnd, u32, {b.op(Op::OpShiftRightLogical, u32, {h, k(10)}), k(0x1f)});
  const uint32_t fraction = b.op(Op::OpBitwiseAnd, u32, {h, k(0x3ff)});
  // Normal, infinity, NaN.
  const uint32_t wide_exponent = b.op(Op::OpSelect, u32,
                                      {b.op(Op::OpIEqual, bools, {exponent, k(31)}), k(255),
                                       b.op(Op::OpIAdd, u32, {exponent, k(127 - 15)})});
  const uint32_t normal = b.op(Op::OpBitwiseOr, u32,
                               {b.op(Op::OpShiftLeftLogical, u32, {wide_exponent, k(23)}),
                                b.op(Op::OpShiftLeftLogical, u32, {fraction, k(23 - 10)})});
  // Subnormal (FindUMsb of 0 is -1: shifts stay below 32, and the zero case is selected away).
  const uint32_t msb = b.glsl(GLSLstd450FindUMsb, u32, {fraction});
  const uint32_t subnormal = b.op(
      Op::OpBitwiseOr, u32,
      {b.op(Op::OpShiftLeftLogical, u32, {b.op(Op::OpIAdd, u32, {msb, k(127 - 24)}), k(23)}),
       b.op(Op::OpBitwiseAnd, u32,
            {b.op(Op::OpShiftLeftLogical, u32, {fraction, b.op(Op::OpISub, u32, {k(23), msb})}), k(0x7fffff)})});
  const uint32_t tiny = b.op(Op::OpSelect, u32,
                             {b.op(Op::OpIEqual, bools, {fraction, k(0)}), k(0), subnormal});
  const uint32_t magnitude =
      b.op(Op::OpSelect, u32, {b.op(Op::OpIEqual, bools, {exponent, k(0)}), tiny, normal});
  return b.op(Op::OpBitcast, b.float_type(32, count), {b.op(Op::OpBitwiseOr, u32, {sign, magnitude})});
}

// The float (scalar or vector) `value` as a double of the same count,
// exactly, by integer instructions on its bits, as widen_half_bits widens a
// half: exponent rebiased (127 to 1023; 255 to 2047 with the fraction kept),
// a subnormal (m * 2^-149, m of 23 bits) normalised with FindUMsb, and the
// 23-bit fraction placed at the top of double's 52. The double's two words
// are built as 32-bit integers and bitcast, per component, so the module
// needs no 64-bit integers. NVIDIA's driver (580, H100) flushed a subnormal
// float that OpFConvert widened to double, with DenormPreserve 32 declared:
// a negative result just above the subnormal boundary was then never
// corrected (convert_float_rtp(double), the CTS's conversions).
uint32_t widen_float_bits(InstructionBuilder& b, uint32_t value, uint32_t double_type) {
  const uint32_t count = b.shape(b.type_of(value)).count;
  const uint32_t u32 = b.int_type(32, count), bools = b.bool_type(count);
  const auto k = [&](uint64_t bits) { return b.constant(u32, bits); };
  const uint32_t f = b.op(Op::OpBitcast, u32, {value});
  const uint32_t sign = b.op(Op::OpBitwiseAnd, u32, {f, k(0x80000000u)});
  const uint32_t exponent = b.op(Op::OpBitwiseAnd, u32, {b.op(Op::OpShiftRightLogical, u32, {f, k(23)}), k(0xff)});
  const uint32_t fraction = b.op(Op::OpBitwiseAnd, u32, {f, k(0x7fffff)});
  // Normal, infinity, NaN.
  const uint32_t wide_exponent = b.op(Op::OpSelect, u32,
                                      {b.op(Op::OpIEqual, bools, {exponent, k(255)}), k(2047),
                                       b.op(Op::OpIAdd, u32, {exponent, k(1023 - 127)})});
  // Subnormal: leading one at bit p makes the exponent p - 149 (FindUMsb of
  // 0 is -1: shifts stay below 32, and the zero case is selected away).
  const uint32_t msb = b.glsl(GLSLstd450FindUMsb, u32, {fraction});
  const uint32_t subnormal_exponent = b.op(Op::OpIAdd, u32, {msb, k(1023 - 149)});
  const uint32_t subnormal_fraction = b.op(
      Op::OpBitwiseAnd, u32, {b.op(Op::OpShiftLeftLogical, u32, {fraction, b.op(Op::OpISub, u32, {k(23), msb})}), k(0x7fffff)});
  const uint32_t zero_exponent = b.op(Op::OpIEqual, bools, {exponent, k(0)});
  const uint32_t zero = b.op(Op::OpIEqual, bools, {fraction, k(0)});
  const uint32_t e = b.op(Op::OpSelect, u32,
                          {zero_exponent, b.op(Op::OpSelect, u32, {zero, k(0), subnormal_exponent}), wide_exponent});
  const uint32_t m = b.op(Op::OpSelect, u32, {zero_exponent, subnormal_fraction, fraction});  // 0 stays 0
  const uint32_t high = b.op(Op::OpBitwiseOr, u32,
                             {sign, b.op(Op::OpBitwiseOr, u32, {b.op(Op::OpShiftLeftLogical, u32, {e, k(20)}),
                                                                b.op(Op::OpShiftRightLogical, u32, {m, k(3)})})});
  const uint32_t low = b.op(Op::OpShiftLeftLogical, u32, {m, k(29)});
  // Little-endian: the low word first.
  const uint32_t pair = b.int_type(32, 2), scalar_double = b.float_type(64, 1);
  if (count == 1) return b.op(Op::OpBitcast, double_type, {b.op(Op::OpCompositeConstruct, pair, {low, high})});
  const uint32_t u32_scalar = b.int_type(32, 1);
  Instruction doubles(Op::OpCompositeConstruct, double_type, b.module().new_id());
  for (uint32_t c = 0; c < count; ++c) {
    const uint32_t words = b.op(Op::OpCompositeConstruct, pair,
                                {b.extract(low, u32_scalar, c), b.extract(high, u32_scalar, c)});
    doubles.id(b.op(Op::OpBitcast, scalar_double, {words}));
  }
  const uint32_t result = doubles.result_id;
  b.emit(std::move(doubles));
  return result;
}

// A narrowing float-to-float conversion under a directed mode.
uint32_t directed_narrowing(InstructionBuilder& b, const Instruction& conversion, Mode mode) {
  const uint32_t x = conversion.word(0);
  const uint32_t wide_type = b.type_of(x), narrow_type = conversion.type_id;
  const Shape wide = b.shape(wide_type), narrow = b.shape(narrow_type);
  const uint32_t bools = b.bool_type(wide.count);
  const uint32_t rounded = b.op(Op::OpFConvert, narrow_type, {x});
  // Back in the wide type, exactly. From half, on the bits: a driver may
  // fold OpFConvert(OpFConvert(x)) to x (as NVIDIA's appears to for float to
  // half and back), which would make every comparison below find no difference.
  uint32_t back;
  if (narrow.width == 16) {
    back = widen_half_bits(b, rounded);
    if (wide.width != 32) back = b.op(Op::OpFConvert, wide_type, {back});  // float to double: exact (no subnormal)
  } else {
    back = widen_float_bits(b, rounded, wide_type);
  }
  // Ordered comparisons: false for NaN, which stays as it is.
  const uint32_t negative = b.op(Op::OpFOrdLessThan, bools, {x, b.float_constant(wide_type, 0.0)});
  switch (mode) {
    case Mode::RTZ: {
      const uint32_t too_far = b.op(Op::OpFOrdGreaterThan, bools,
                                    {b.glsl(GLSLstd450FAbs, wide_type, {back}), b.glsl(GLSLstd450FAbs, wide_type, {x})});
      return step_one_ulp(b, rounded, too_far, 0);
    }
    case Mode::RTP:
      return step_one_ulp(b, rounded, b.op(Op::OpFOrdLessThan, bools, {back, x}),
                          b.op(Op::OpLogicalNot, bools, {negative}));
    case Mode::RTN:
      return step_one_ulp(b, rounded, b.op(Op::OpFOrdGreaterThan, bools, {back, x}), negative);
    default:
      throw CompileError("internal error: no directed rounding mode\n");
  }
}

class LowerRoundingModes final : public Pass {
 public:
  std::string_view name() const override { return "lower_rounding_modes"; }

  void run(Module& m, LoweringContext&) override {
    std::unordered_map<uint32_t, Mode> modes;
    for (const Instruction& a : m.annotations)
      if (a.opcode == Op::OpDecorate && spv::Decoration(a.word(1)) == spv::Decoration::FPRoundingMode)
        modes[a.word(0)] = Mode(a.word(2));
    if (modes.empty()) return;

    expand_instructions(m, [&](InstructionBuilder& b, Instruction& i) {
      auto found = i.result_id ? modes.find(i.result_id) : modes.end();
      if (found == modes.end()) return false;
      const Mode mode = found->second;
      switch (i.opcode) {
        case Op::OpConvertFToS:
        case Op::OpConvertFToU: {
          const GLSLstd450 round = mode == Mode::RTE ? GLSLstd450RoundEven
                                   : mode == Mode::RTP ? GLSLstd450Ceil
                                   : mode == Mode::RTN ? GLSLstd450Floor
                                                       : GLSLstd450Bad;
          if (round != GLSLstd450Bad) i.words[0] = b.glsl(round, b.type_of(i.word(0)), {i.word(0)});
          break;
        }
        case Op::OpConvertSToF:
        case Op::OpConvertUToF: {
          const uint32_t from = b.shape(b.type_of(i.word(0))).width, to = b.shape(i.type_id).width;
          const uint32_t magnitude_bits = i.opcode == Op::OpConvertSToF ? from - 1 : from;
          if (mode == Mode::RTE || magnitude_bits <= uint32_t(precision_of(to))) break;  // RTE, or exact
          b.finish(directed_from_integer(b, i, mode), i.result_id);
          return true;
        }
        case Op::OpFConvert: {
          const uint32_t from = b.shape(b.type_of(i.word(0))).width, to = b.shape(i.type_id).width;
          if (mode == Mode::RTE || to >= from) break;  // RTE, or exact
          b.finish(directed_narrowing(b, i, mode), i.result_id);
          return true;
        }
        case Op::OpSConvert:
        case Op::OpUConvert:
        case Op::OpSatConvertSToU:
        case Op::OpSatConvertUToS:
          break;  // integer to integer: nothing to round
        default:
          throw CompileError("internal error: FPRoundingMode on an instruction that is no conversion (%" +
                             std::to_string(i.result_id) + ", opcode " + std::to_string(uint32_t(i.opcode)) + ")\n");
      }
      return false;
    });
    std::erase_if(m.annotations, [](const Instruction& a) {
      return a.opcode == Op::OpDecorate && spv::Decoration(a.word(1)) == spv::Decoration::FPRoundingMode;
    });
  }
};

}  // namespace

std::unique_ptr<Pass> make_lower_rounding_modes() { return std::make_unique<LowerRoundingModes>(); }

}  // namespace vkcl::spirv

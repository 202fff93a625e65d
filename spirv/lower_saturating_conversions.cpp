// lower_saturating_conversions: the OpenCL C `_sat` conversions as clamps
// Vulkan accepts.
//
// SPIRV-LLVM-Translator emits convert_<type>_sat as OpSatConvertSToU and
// OpSatConvertUToS (Kernel capability only) when the signedness changes, and
// otherwise as OpSConvert, OpUConvert, OpConvertFToS or OpConvertFToU
// decorated SaturatedConversion (Kernel only too: strip_kernel_decorations
// drops it). Each becomes what OpenCL C 3.0 §6.4.3.3 asks: the value clamped
// to the destination type's range, and NaN converted to 0. Integer sources
// are clamped by comparisons in the source type, then truncated or extended;
// floating-point sources are clamped to the nearest values of their own type
// inside the destination's range (exact: integer bounds commute with every
// rounding mode), converted, and values beyond a bound the source type cannot
// hold exactly (2^31 - 1 in float, the integer range of half) select the
// destination's minimum or maximum. NaN is tested on the bits, so a driver's
// "no NaN" assumptions cannot change the result.
//
// Runs before lower_rounding_modes: a FPRoundingMode decoration on a
// float-to-integer conversion moves to the conversion of the clamped value,
// where that pass applies it. Any other instruction decorated
// SaturatedConversion is an internal error.
#include <algorithm>
#include <cmath>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "compile_error.h"
#include "instruction_builder.h"
#include "passes.h"

namespace vkcl::spirv {
namespace {

using i128 = __int128;

uint64_t low_bits(i128 value, uint32_t width) {
  const uint64_t bits = uint64_t(value);
  return width >= 64 ? bits : bits & ((uint64_t(1) << width) - 1);
}
i128 int_min(uint32_t width, bool is_signed) { return is_signed ? -(i128(1) << (width - 1)) : 0; }
i128 int_max(uint32_t width, bool is_signed) {
  return is_signed ? (i128(1) << (width - 1)) - 1 : (i128(1) << width) - 1;
}

// The binary16/32/64 formats: significand bits (with the leading one) and the largest exponent.
struct FloatFormat {
  int precision;
  int max_exponent;
  double max_finite() const { return std::ldexp(2.0 - std::ldexp(1.0, 1 - precision), max_exponent); }
};
FloatFormat format_of(uint32_t width) {
  switch (width) {
    case 16: return {11, 15};
    case 32: return {24, 127};
    case 64: return {53, 1023};
    default: throw CompileError("internal error: no " + std::to_string(width) + "-bit floating-point format\n");
  }
}

// NaN as a test on the bits: |x| above infinity's bits.
uint32_t is_nan(InstructionBuilder& b, uint32_t x) {
  const Shape s = b.shape(b.type_of(x));
  const uint32_t bits_type = b.int_type(s.width, s.count);
  const uint64_t sign = uint64_t(1) << (s.width - 1);
  const uint64_t infinity = s.width == 64 ? 0x7ff0000000000000ull : s.width == 32 ? 0x7f800000ull : 0x7c00ull;
  const uint32_t magnitude =
      b.op(Op::OpBitwiseAnd, bits_type, {b.op(Op::OpBitcast, bits_type, {x}), b.constant(bits_type, sign - 1)});
  return b.op(Op::OpUGreaterThan, b.bool_type(s.count), {magnitude, b.constant(bits_type, infinity)});
}

// x clamped to the range of an integer type of `width` bits and signedness
// `to_signed`, then converted to `result_type`; x is an integer of signedness `from_signed`.
uint32_t saturate_integer(InstructionBuilder& b, uint32_t x, bool from_signed, uint32_t result_type, bool to_signed) {
  const uint32_t type = b.type_of(x);
  const Shape from = b.shape(type), to = b.shape(result_type);
  const uint32_t bools = b.bool_type(from.count);
  uint32_t value = x;
  if (int_min(to.width, to_signed) > int_min(from.width, from_signed)) {  // only for signed sources
    const uint32_t lo = b.constant(type, low_bits(int_min(to.width, to_signed), from.width));
    value = b.op(Op::OpSelect, type, {b.op(Op::OpSLessThan, bools, {value, lo}), lo, value});
  }
  if (int_max(to.width, to_signed) < int_max(from.width, from_signed)) {
    const uint32_t hi = b.constant(type, low_bits(int_max(to.width, to_signed), from.width));
    const Op greater = from_signed ? Op::OpSGreaterThan : Op::OpUGreaterThan;
    value = b.op(Op::OpSelect, type, {b.op(greater, bools, {value, hi}), hi, value});
  }
  if (to.width == from.width) return value;
  // Narrowing keeps the low bits of a value that now fits; widening extends
  // the sign only where the clamped value can be negative.
  const Op convert = to.width > from.width && from_signed && to_signed ? Op::OpSConvert : Op::OpUConvert;
  return b.op(convert, result_type, {value});
}

// convert_<integer>_sat from a floating-point x; `conversion` is the original
// instruction, whose result the clamped conversion gets a new id for.
uint32_t saturate_float(InstructionBuilder& b, const Instruction& conversion, uint32_t& converted) {
  const uint32_t x = conversion.word(0);
  const uint32_t type = b.type_of(x);
  const Shape from = b.shape(type), to = b.shape(conversion.type_id);
  const bool to_signed = conversion.opcode == Op::OpConvertFToS;
  const FloatFormat format = format_of(from.width);
  const uint32_t bools = b.bool_type(from.count);

  // The destination's bounds as values of the source type: exact where the
  // type holds them, else the nearest inside the range.
  const int magnitude_bits = to_signed ? int(to.width) - 1 : int(to.width);  // max = 2^k - 1, min = -2^k or 0
  const bool max_exact = magnitude_bits <= format.precision;
  const double hi = std::min(max_exact ? std::ldexp(1.0, magnitude_bits) - 1
                                       : std::ldexp(1.0, magnitude_bits) - std::ldexp(1.0, magnitude_bits - format.precision),
                             format.max_finite());
  const bool min_exact = !to_signed || magnitude_bits <= format.max_exponent;
  const double lo = !to_signed ? 0.0 : min_exact ? -std::ldexp(1.0, magnitude_bits) : -format.max_finite();
  const uint32_t lo_value = b.float_constant(type, lo), hi_value = b.float_constant(type, hi);

  const uint32_t not_nan = b.op(Op::OpSelect, type, {is_nan(b, x), b.float_constant(type, 0.0), x});
  uint32_t clamped = b.op(Op::OpSelect, type, {b.op(Op::OpFOrdLessThan, bools, {not_nan, lo_value}), lo_value, not_nan});
  clamped = b.op(Op::OpSelect, type, {b.op(Op::OpFOrdGreaterThan, bools, {clamped, hi_value}), hi_value, clamped});
  converted = b.op(conversion.opcode, conversion.type_id, {clamped});
  uint32_t result = converted;
  if (!min_exact) {
    const uint32_t min = b.constant(conversion.type_id, low_bits(int_min(to.width, to_signed), to.width));
    result = b.op(Op::OpSelect, conversion.type_id, {b.op(Op::OpFOrdLessThan, bools, {not_nan, lo_value}), min, result});
  }
  if (!max_exact) {
    const uint32_t max = b.constant(conversion.type_id, low_bits(int_max(to.width, to_signed), to.width));
    result = b.op(Op::OpSelect, conversion.type_id, {b.op(Op::OpFOrdGreaterThan, bools, {not_nan, hi_value}), max, result});
  }
  return result;
}

class LowerSaturatingConversions final : public Pass {
 public:
  std::string_view name() const override { return "lower_saturating_conversions"; }

  void run(Module& m, LoweringContext&) override {
    std::unordered_set<uint32_t> saturated;
    for (const Instruction& a : m.annotations)
      if (a.opcode == Op::OpDecorate && spv::Decoration(a.word(1)) == spv::Decoration::SaturatedConversion)
        saturated.insert(a.word(0));
    std::unordered_map<uint32_t, uint32_t> moved_rounding;  // original float-to-int result -> new conversion

    expand_instructions(m, [&](InstructionBuilder& b, Instruction& i) {
      const bool decorated = i.result_id && saturated.count(i.result_id);
      switch (i.opcode) {
        case Op::OpSatConvertSToU:
        case Op::OpSatConvertUToS: {
          const bool from_signed = i.opcode == Op::OpSatConvertSToU;
          b.finish(saturate_integer(b, i.word(0), from_signed, i.type_id, !from_signed), i.result_id);
          return true;
        }
        case Op::OpSConvert:
        case Op::OpUConvert:
          if (!decorated) break;
          b.finish(saturate_integer(b, i.word(0), i.opcode == Op::OpSConvert, i.type_id, i.opcode == Op::OpSConvert),
                   i.result_id);
          return true;
        case Op::OpConvertFToS:
        case Op::OpConvertFToU:
          if (!decorated) break;
          {
            uint32_t converted = 0;
            const uint32_t result = saturate_float(b, i, converted);
            // Without selects after it, the conversion itself takes the original id.
            if (result != converted) moved_rounding[i.result_id] = converted;
            b.finish(result, i.result_id);
          }
          return true;
        default:
          if (decorated)
            throw CompileError("internal error: SaturatedConversion on an instruction that is no conversion (%" +
                               std::to_string(i.result_id) + ", opcode " + std::to_string(uint32_t(i.opcode)) + ")\n");
          break;
      }
      return false;
    });

    std::erase_if(m.annotations, [](const Instruction& a) {
      return a.opcode == Op::OpDecorate && spv::Decoration(a.word(1)) == spv::Decoration::SaturatedConversion;
    });
    for (Instruction& a : m.annotations) {
      if (a.opcode != Op::OpDecorate || spv::Decoration(a.word(1)) != spv::Decoration::FPRoundingMode) continue;
      if (auto moved = moved_rounding.find(a.word(0)); moved != moved_rounding.end()) a.words[0] = moved->second;
    }
  }
};

}  // namespace

std::unique_ptr<Pass> make_lower_saturating_conversions() { return std::make_unique<LowerSaturatingConversions>(); }

}  // namespace vkcl::spirv

// lower_opencl_std: OpenCL.std extended instructions, and the core
// instructions only the Kernel environment allows, become GLSL.std.450 and
// core SPIR-V that Vulkan accepts.
//
// builtins/LOWERING.md is the table of where every OpenCL C math, integer,
// common, geometric and relational builtin is lowered; this pass implements
// its "pass" rows. What SPIRV-LLVM-Translator emits as OpenCL.std (for the
// builtins that builtins/ leaves undefined, and for LLVM intrinsics such as
// llvm.fmuladd, llvm.fabs, llvm.smax or llvm.ctlz) is rewritten here only
// where the result is exact, or where Vulkan's precision meets OpenCL's
// requirement (mad: "a correctly rounded fma, or a multiply followed by an
// add, both correctly rounded", which is what Vulkan promises for
// GLSL.std.450 Fma), or where OpenCL leaves the precision to the
// implementation (native_*) or allows 8192 ulp (half_exp, half_sqrt, ...).
// Any other OpenCL.std instruction is a compile error naming the builtin:
// builtins/ should have defined it, and no Vulkan driver has to accept
// OpenCL.std. clc asks the same question (lower_opencl_std.h) before
// translation, so that the error names the call's file:line:col; this
// pass's own error, without a location, is for calls it did not foresee.
//
// Also rewritten, wherever they come from: OpBitCount and OpBitReverse on
// 8-, 16- and 64-bit integers (Vulkan takes 32-bit ones only,
// VUID-StandaloneSpirv-Base-04781), and OpIsFinite, OpIsNormal,
// OpSignBitSet, OpOrdered, OpUnordered and OpLessOrGreater (Kernel
// capability), which become integer tests on the value's bits, so that no
// "assume no NaN" optimization a Vulkan driver may apply changes them.
//
// Does not guarantee anything about OpenCL.std instructions it does not know
// (vloadn, shuffle, printf, ...): they are errors too.
#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/OpenCL.std.h>

#include <algorithm>
#include <cstring>
#include <initializer_list>
#include <optional>
#include <string>

#include "compile_error.h"
#include "instruction_builder.h"
#include "lower_opencl_std.h"
#include "passes.h"

namespace vkcl::spirv {
namespace {

namespace cl = OpenCLLIB;

// Names as the SPIR-V grammar spells them (extinst.opencl.std.100.grammar.json).
struct OpenCLStdName {
  uint32_t opcode;
  const char* name;
};
constexpr OpenCLStdName kOpenCLStdNames[] = {
    {0, "acos"}, {1, "acosh"}, {2, "acospi"}, {3, "asin"}, {4, "asinh"}, {5, "asinpi"}, {6, "atan"}, {7, "atan2"},
    {8, "atanh"}, {9, "atanpi"}, {10, "atan2pi"}, {11, "cbrt"}, {12, "ceil"}, {13, "copysign"}, {14, "cos"},
    {15, "cosh"}, {16, "cospi"}, {17, "erfc"}, {18, "erf"}, {19, "exp"}, {20, "exp2"}, {21, "exp10"},
    {22, "expm1"}, {23, "fabs"}, {24, "fdim"}, {25, "floor"}, {26, "fma"}, {27, "fmax"}, {28, "fmin"},
    {29, "fmod"}, {30, "fract"}, {31, "frexp"}, {32, "hypot"}, {33, "ilogb"}, {34, "ldexp"}, {35, "lgamma"},
    {36, "lgamma_r"}, {37, "log"}, {38, "log2"}, {39, "log10"}, {40, "log1p"}, {41, "logb"}, {42, "mad"},
    {43, "maxmag"}, {44, "minmag"}, {45, "modf"}, {46, "nan"}, {47, "nextafter"}, {48, "pow"}, {49, "pown"},
    {50, "powr"}, {51, "remainder"}, {52, "remquo"}, {53, "rint"}, {54, "rootn"}, {55, "round"}, {56, "rsqrt"},
    {57, "sin"}, {58, "sincos"}, {59, "sinh"}, {60, "sinpi"}, {61, "sqrt"}, {62, "tan"}, {63, "tanh"},
    {64, "tanpi"}, {65, "tgamma"}, {66, "trunc"}, {67, "half_cos"}, {68, "half_divide"}, {69, "half_exp"},
    {70, "half_exp2"}, {71, "half_exp10"}, {72, "half_log"}, {73, "half_log2"}, {74, "half_log10"},
    {75, "half_powr"}, {76, "half_recip"}, {77, "half_rsqrt"}, {78, "half_sin"}, {79, "half_sqrt"},
    {80, "half_tan"}, {81, "native_cos"}, {82, "native_divide"}, {83, "native_exp"}, {84, "native_exp2"},
    {85, "native_exp10"}, {86, "native_log"}, {87, "native_log2"}, {88, "native_log10"}, {89, "native_powr"},
    {90, "native_recip"}, {91, "native_rsqrt"}, {92, "native_sin"}, {93, "native_sqrt"}, {94, "native_tan"},
    {95, "fclamp"}, {96, "degrees"}, {97, "fmax_common"}, {98, "fmin_common"}, {99, "mix"}, {100, "radians"},
    {101, "step"}, {102, "smoothstep"}, {103, "sign"}, {104, "cross"}, {105, "distance"}, {106, "length"},
    {107, "normalize"}, {108, "fast_distance"}, {109, "fast_length"}, {110, "fast_normalize"}, {141, "s_abs"},
    {142, "s_abs_diff"}, {143, "s_add_sat"}, {144, "u_add_sat"}, {145, "s_hadd"}, {146, "u_hadd"},
    {147, "s_rhadd"}, {148, "u_rhadd"}, {149, "s_clamp"}, {150, "u_clamp"}, {151, "clz"}, {152, "ctz"},
    {153, "s_mad_hi"}, {154, "u_mad_sat"}, {155, "s_mad_sat"}, {156, "s_max"}, {157, "u_max"}, {158, "s_min"},
    {159, "u_min"}, {160, "s_mul_hi"}, {161, "rotate"}, {162, "s_sub_sat"}, {163, "u_sub_sat"},
    {164, "u_upsample"}, {165, "s_upsample"}, {166, "popcount"}, {167, "s_mad24"}, {168, "u_mad24"},
    {169, "s_mul24"}, {170, "u_mul24"}, {171, "vloadn"}, {172, "vstoren"}, {173, "vload_half"},
    {174, "vload_halfn"}, {175, "vstore_half"}, {176, "vstore_half_r"}, {177, "vstore_halfn"},
    {178, "vstore_halfn_r"}, {179, "vloada_halfn"}, {180, "vstorea_halfn"}, {181, "vstorea_halfn_r"},
    {182, "shuffle"}, {183, "shuffle2"}, {184, "printf"}, {185, "prefetch"}, {186, "bitselect"}, {187, "select"},
    {201, "u_abs"}, {202, "u_abs_diff"}, {203, "u_mul_hi"}, {204, "u_mad_hi"},
};

std::string opencl_std_name(uint32_t opcode) {
  for (const OpenCLStdName& entry : kOpenCLStdNames)
    if (entry.opcode == opcode) return entry.name;
  return "instruction " + std::to_string(opcode);
}

// The OpenCL C builtin an OpenCL.std instruction comes from: s_abs is abs,
// fmax_common is max, vloadn is vload<n>.
std::string builtin_name(uint32_t opcode) {
  std::string name = opencl_std_name(opcode);
  if (name.starts_with("s_") || name.starts_with("u_")) name.erase(0, 2);
  if (name.ends_with("_common")) name = name.substr(1, name.size() - 1 - 7);  // fmax_common -> max
  if (name == "fclamp") name = "clamp";
  return name;
}

// The GLSL.std.450 instruction computing exactly what an OpenCL.std one
// computes, with the same operands (see builtins/LOWERING.md for why each
// meets OpenCL's precision).
std::optional<GLSLstd450> direct_glsl(uint32_t opcode) {
  switch (opcode) {
    case cl::Fabs: return GLSLstd450FAbs;
    case cl::Floor: return GLSLstd450Floor;
    case cl::Ceil: return GLSLstd450Ceil;
    case cl::Trunc: return GLSLstd450Trunc;
    case cl::Rint: return GLSLstd450RoundEven;
    case cl::Mad: return GLSLstd450Fma;
    case cl::Fmin: return GLSLstd450NMin;
    case cl::Fmax: return GLSLstd450NMax;
    case cl::FClamp: return GLSLstd450NClamp;
    case cl::FMin_common: return GLSLstd450FMin;
    case cl::FMax_common: return GLSLstd450FMax;
    case cl::SAbs: return GLSLstd450SAbs;
    case cl::SMin: return GLSLstd450SMin;
    case cl::SMax: return GLSLstd450SMax;
    case cl::UMin: return GLSLstd450UMin;
    case cl::UMax: return GLSLstd450UMax;
    case cl::SClamp: return GLSLstd450SClamp;
    case cl::UClamp: return GLSLstd450UClamp;
    case cl::Native_sqrt: case cl::Half_sqrt: return GLSLstd450Sqrt;
    case cl::Native_rsqrt: case cl::Half_rsqrt: return GLSLstd450InverseSqrt;
    case cl::Native_exp: case cl::Half_exp: return GLSLstd450Exp;
    case cl::Native_exp2: case cl::Half_exp2: return GLSLstd450Exp2;
    case cl::Native_log: return GLSLstd450Log;
    case cl::Native_log2: return GLSLstd450Log2;
    case cl::Native_sin: return GLSLstd450Sin;
    case cl::Native_cos: return GLSLstd450Cos;
    case cl::Native_tan: return GLSLstd450Tan;
    case cl::Native_powr: return GLSLstd450Pow;
    default: return std::nullopt;
  }
}

// Whether lower_extended rewrites `opcode` on `element`.
bool has_vulkan_lowering(uint32_t opcode, const OpenCLStdElement& element) {
  const bool is_float = element.kind == OpenCLStdElement::Kind::kFloat;
  // rsqrt: InverseSqrt is 2 ulp in Vulkan, as OpenCL asks, for float only
  // (double precision is only "at least that of single precision").
  if (opcode == cl::Rsqrt) return is_float && element.width == 32;
  if (direct_glsl(opcode)) return true;
  switch (opcode) {
    case cl::Copysign: case cl::UAbs: case cl::Clz: case cl::Ctz: case cl::Popcount: case cl::UMul_hi:
    case cl::SMul_hi: case cl::Rotate: case cl::Select: case cl::Bitselect: case cl::Native_divide:
    case cl::Half_divide:
      return true;
    case cl::Native_recip: case cl::Half_recip: case cl::Native_exp10: case cl::Half_exp10: case cl::Native_log10:
      // rounded_float_constant makes float and double constants only.
      return is_float && (element.width == 32 || element.width == 64);
    default:
      return false;
  }
}

// Zero-extends or truncates an integer to `type`.
uint32_t convert(InstructionBuilder& b, uint32_t value, uint32_t type) {
  return b.type_of(value) == type ? value : b.op(Op::OpUConvert, type, {value});
}

// ---------------------------------------------------------------------------
// Bit operations that Vulkan takes on 32-bit integers only.

// Count leading (`leading`) or trailing zeros of `x`, any integer width.
uint32_t count_zeros(InstructionBuilder& b, uint32_t x, bool leading) {
  const uint32_t type = b.type_of(x);
  const Shape s = b.shape(type);
  const uint32_t u32 = b.int_type(32, s.count);
  const uint32_t bools = b.bool_type(s.count);
  const uint32_t zero = b.constant(u32, 0);
  // For one 32-bit word (zero-extended from `width` bits): FindUMsb and
  // FindILsb return -1 for 0, which makes clz = (width - 1) - msb exact for
  // 0 too; ctz needs the select.
  auto word_count = [&](uint32_t word, uint32_t width) {
    if (leading) {
      const uint32_t msb = b.glsl(GLSLstd450FindUMsb, u32, {word});
      return b.op(Op::OpISub, u32, {b.constant(u32, width - 1), msb});
    }
    const uint32_t lsb = b.glsl(GLSLstd450FindILsb, u32, {word});
    const uint32_t is_zero = b.op(Op::OpIEqual, bools, {word, zero});
    return b.op(Op::OpSelect, u32, {is_zero, b.constant(u32, width), lsb});
  };
  if (s.width <= 32) return convert(b, word_count(convert(b, x, u32), s.width), type);
  // 64 bits: the two halves.
  const uint32_t low = convert(b, x, u32);
  const uint32_t high = convert(b, b.op(Op::OpShiftRightLogical, type, {x, b.constant(type, 32)}), u32);
  const uint32_t first = leading ? high : low, second = leading ? low : high;
  const uint32_t first_zero = b.op(Op::OpIEqual, bools, {first, zero});
  const uint32_t in_second = b.op(Op::OpIAdd, u32, {b.constant(u32, 32), word_count(second, 32)});
  return convert(b, b.op(Op::OpSelect, u32, {first_zero, in_second, word_count(first, 32)}), type);
}

uint32_t bit_count(InstructionBuilder& b, uint32_t x, uint32_t result_type) {
  const Shape s = b.shape(b.type_of(x));
  const uint32_t u32 = b.int_type(32, s.count);
  if (s.width <= 32) return convert(b, b.op(Op::OpBitCount, u32, {convert(b, x, u32)}), result_type);
  const uint32_t type = b.type_of(x);
  const uint32_t low = convert(b, x, u32);
  const uint32_t high = convert(b, b.op(Op::OpShiftRightLogical, type, {x, b.constant(type, 32)}), u32);
  const uint32_t sum = b.op(Op::OpIAdd, u32, {b.op(Op::OpBitCount, u32, {low}), b.op(Op::OpBitCount, u32, {high})});
  return convert(b, sum, result_type);
}

uint32_t bit_reverse(InstructionBuilder& b, uint32_t x) {
  const uint32_t type = b.type_of(x);
  const Shape s = b.shape(type);
  const uint32_t u32 = b.int_type(32, s.count);
  if (s.width < 32) {
    const uint32_t reversed = b.op(Op::OpBitReverse, u32, {convert(b, x, u32)});
    return convert(b, b.op(Op::OpShiftRightLogical, u32, {reversed, b.constant(u32, 32 - s.width)}), type);
  }
  const uint32_t low = convert(b, x, u32);
  const uint32_t high = convert(b, b.op(Op::OpShiftRightLogical, type, {x, b.constant(type, 32)}), u32);
  const uint32_t new_high = convert(b, b.op(Op::OpBitReverse, u32, {low}), type);
  const uint32_t new_low = convert(b, b.op(Op::OpBitReverse, u32, {high}), type);
  return b.op(Op::OpBitwiseOr, type, {b.op(Op::OpShiftLeftLogical, type, {new_high, b.constant(type, 32)}), new_low});
}

// ---------------------------------------------------------------------------
// Integer functions

uint32_t mul_hi(InstructionBuilder& b, Module& m, uint32_t x, uint32_t y, bool is_signed) {
  const uint32_t type = b.type_of(x);
  const Shape s = b.shape(type);
  if (s.width < 32) {
    // Exact in 32 bits; the high half is the product shifted right.
    const uint32_t u32 = b.int_type(32, s.count);
    const Op extend = is_signed ? Op::OpSConvert : Op::OpUConvert;
    const uint32_t product = b.op(Op::OpIMul, u32, {b.op(extend, u32, {x}), b.op(extend, u32, {y})});
    const Op shift = is_signed ? Op::OpShiftRightArithmetic : Op::OpShiftRightLogical;
    return convert(b, b.op(shift, u32, {product, b.constant(u32, s.width)}), type);
  }
  // OpUMulExtended / OpSMulExtended: a struct {low, high}.
  uint32_t pair = 0;
  for (const Instruction& g : m.globals)
    if (g.opcode == Op::OpTypeStruct && g.words.size() == 2 && g.word(0) == type && g.word(1) == type &&
        !m.has_decoration(g.result_id, spv::Decoration::Block))
      pair = g.result_id;
  if (pair == 0) {
    pair = m.new_id();
    m.globals.push_back(std::move(Instruction(Op::OpTypeStruct, 0, pair).id(type).id(type)));
  }
  const uint32_t both = b.op(is_signed ? Op::OpSMulExtended : Op::OpUMulExtended, pair, {x, y});
  return b.extract(both, type, 1);
}

// rotate(v, i): v << (i mod width) | v >> ((width - i) mod width); SPIR-V
// shifts by the full width or more are undefined, hence the masks.
uint32_t rotate(InstructionBuilder& b, uint32_t v, uint32_t i) {
  const uint32_t type = b.type_of(v);
  const Shape s = b.shape(type);
  const uint32_t mask = b.constant(type, s.width - 1);
  const uint32_t left = b.op(Op::OpBitwiseAnd, type, {i, mask});
  const uint32_t right = b.op(Op::OpBitwiseAnd, type, {b.op(Op::OpISub, type, {b.constant(type, 0), i}), mask});
  return b.op(Op::OpBitwiseOr, type, {b.op(Op::OpShiftLeftLogical, type, {v, left}),
                                      b.op(Op::OpShiftRightLogical, type, {v, right})});
}

// ---------------------------------------------------------------------------
// Floating-point bits

uint64_t sign_bit(uint32_t width) { return uint64_t(1) << (width - 1); }
uint64_t exponent_mask(uint32_t width) {
  return width == 64 ? 0x7ff0000000000000ull : width == 32 ? 0x7f800000ull : 0x7c00ull;
}
uint64_t smallest_normal(uint32_t width) {
  return width == 64 ? 0x0010000000000000ull : width == 32 ? 0x00800000ull : 0x0400ull;
}

// The bits of a float value as unsigned integers of the same width.
uint32_t bits_of(InstructionBuilder& b, uint32_t x) {
  const Shape s = b.shape(b.type_of(x));
  return b.op(Op::OpBitcast, b.int_type(s.width, s.count), {x});
}
// |x| as bits.
uint32_t magnitude_bits(InstructionBuilder& b, uint32_t x) {
  const uint32_t bits = bits_of(b, x);
  const uint32_t type = b.type_of(bits);
  return b.op(Op::OpBitwiseAnd, type, {bits, b.constant(type, sign_bit(b.shape(type).width) - 1)});
}
uint32_t is_nan(InstructionBuilder& b, uint32_t x) {
  const Shape s = b.shape(b.type_of(x));
  const uint32_t magnitude = magnitude_bits(b, x);
  return b.op(Op::OpUGreaterThan, b.bool_type(s.count),
              {magnitude, b.constant(b.type_of(magnitude), exponent_mask(s.width))});
}

uint32_t copysign(InstructionBuilder& b, uint32_t x, uint32_t y) {
  const uint32_t type = b.type_of(x);
  const uint32_t magnitude = magnitude_bits(b, x);
  const uint32_t bits_type = b.type_of(magnitude);
  const uint32_t sign = b.op(Op::OpBitwiseAnd, bits_type,
                             {bits_of(b, y), b.constant(bits_type, sign_bit(b.shape(type).width))});
  return b.op(Op::OpBitcast, type, {b.op(Op::OpBitwiseOr, bits_type, {magnitude, sign})});
}

// The Kernel-only relational instructions, as tests on the bits.
uint32_t relational(InstructionBuilder& b, Op opcode, uint32_t result_type, uint32_t x, uint32_t y) {
  const Shape s = b.shape(b.type_of(x));
  switch (opcode) {
    case Op::OpIsFinite: {
      const uint32_t magnitude = magnitude_bits(b, x);
      return b.op(Op::OpULessThan, result_type, {magnitude, b.constant(b.type_of(magnitude), exponent_mask(s.width))});
    }
    case Op::OpIsNormal: {
      // smallest normal <= |x| < infinity, as one unsigned comparison.
      const uint32_t magnitude = magnitude_bits(b, x);
      const uint32_t type = b.type_of(magnitude);
      const uint32_t offset = b.op(Op::OpISub, type, {magnitude, b.constant(type, smallest_normal(s.width))});
      return b.op(Op::OpULessThan, result_type,
                  {offset, b.constant(type, exponent_mask(s.width) - smallest_normal(s.width))});
    }
    case Op::OpSignBitSet: {
      const uint32_t bits = bits_of(b, x);
      const uint32_t type = b.type_of(bits);
      return b.op(Op::OpUGreaterThanEqual, result_type, {bits, b.constant(type, sign_bit(s.width))});
    }
    case Op::OpOrdered:
      return b.op(Op::OpLogicalNot, result_type, {b.op(Op::OpLogicalOr, result_type, {is_nan(b, x), is_nan(b, y)})});
    case Op::OpUnordered:
      return b.op(Op::OpLogicalOr, result_type, {is_nan(b, x), is_nan(b, y)});
    case Op::OpLessOrGreater:
      return b.op(Op::OpFOrdNotEqual, result_type, {x, y});
    default:
      throw CompileError("internal error: not a Kernel relational instruction");
  }
}

bool is_kernel_relational(Op opcode) {
  switch (opcode) {
    case Op::OpIsFinite: case Op::OpIsNormal: case Op::OpSignBitSet: case Op::OpOrdered: case Op::OpUnordered:
    case Op::OpLessOrGreater:
      return true;
    default:
      return false;
  }
}

// select(a, b, c): b where c is nonzero (scalars) or has its most
// significant bit set (vectors), else a. bitselect(a, b, c): bits of b where
// c's bits are set, else bits of a.
uint32_t select(InstructionBuilder& b, uint32_t a, uint32_t bb, uint32_t c) {
  const uint32_t type = b.type_of(a);
  const uint32_t c_type = b.type_of(c);
  const Shape s = b.shape(c_type);
  const uint32_t take_b = s.count == 1
                              ? b.op(Op::OpINotEqual, b.bool_type(1), {c, b.constant(c_type, 0)})
                              : b.op(Op::OpSLessThan, b.bool_type(s.count), {c, b.constant(c_type, 0)});
  return b.op(Op::OpSelect, type, {take_b, bb, a});
}

uint32_t bitselect(InstructionBuilder& b, uint32_t a, uint32_t bb, uint32_t c) {
  const uint32_t type = b.type_of(a);
  const Shape s = b.shape(type);
  const bool is_float = s.kind == Op::OpTypeFloat;
  auto bits = [&](uint32_t v) { return is_float ? bits_of(b, v) : v; };
  const uint32_t ba = bits(a), bb_bits = bits(bb), bc = bits(c);
  const uint32_t bits_type = b.type_of(ba);
  const uint32_t not_c = b.op(Op::OpNot, bits_type, {bc});
  const uint32_t result = b.op(Op::OpBitwiseOr, bits_type, {b.op(Op::OpBitwiseAnd, bits_type, {ba, not_c}),
                                                            b.op(Op::OpBitwiseAnd, bits_type, {bb_bits, bc})});
  return is_float ? b.op(Op::OpBitcast, type, {result}) : result;
}

// ---------------------------------------------------------------------------

// `value` rounded to the float or double `type` (InstructionBuilder::float_constant
// takes exact values only; these are constants such as log2(10)).
uint32_t rounded_float_constant(InstructionBuilder& b, uint32_t type, double value) {
  const Shape s = b.shape(type);
  if (s.width != 32 && s.width != 64) throw CompileError("internal error: no float constant of width " + std::to_string(s.width));
  if (s.width == 32) {
    const float f = float(value);
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    return b.constant(type, bits);
  }
  uint64_t bits;
  std::memcpy(&bits, &value, 8);
  return b.constant(type, bits);
}

class LowerOpenCLStd final : public Pass {
 public:
  std::string_view name() const override { return "lower_opencl_std"; }

  void run(Module& m, LoweringContext&) override {
    std::vector<uint32_t> opencl_std;
    for (const Instruction& import : m.ext_inst_imports)
      if (import.string_at(0) == "OpenCL.std") opencl_std.push_back(import.result_id);
    expand_instructions(m, [&](InstructionBuilder& b, Instruction& i) {
      if (i.opcode == Op::OpExtInst && std::ranges::count(opencl_std, i.word(0))) {
        lower_extended(m, b, i);
      } else if (i.opcode == Op::OpBitCount && b.shape(b.type_of(i.word(0))).width != 32) {
        b.finish(bit_count(b, i.word(0), i.type_id), i.result_id);
      } else if (i.opcode == Op::OpBitReverse && b.shape(i.type_id).width != 32) {
        b.finish(bit_reverse(b, i.word(0)), i.result_id);
      } else if (is_kernel_relational(i.opcode)) {
        b.finish(relational(b, i.opcode, i.type_id, i.word(0), i.words.size() > 1 ? i.word(1) : 0), i.result_id);
      } else {
        return false;
      }
      return true;
    });
    std::erase_if(m.ext_inst_imports, [&](const Instruction& i) { return std::ranges::count(opencl_std, i.result_id) > 0; });
  }

 private:
  static void lower_extended(Module& m, InstructionBuilder& b, const Instruction& i) {
    const uint32_t opcode = i.word(1);
    std::vector<uint32_t> args(i.words.begin() + 2, i.words.end());
    auto arg = [&](size_t n) { return args.at(n); };
    const uint32_t type = i.type_id;
    const Shape shape = b.shape(type);
    OpenCLStdElement element;
    element.kind = shape.kind == Op::OpTypeFloat ? OpenCLStdElement::Kind::kFloat
                   : shape.kind == Op::OpTypeInt ? OpenCLStdElement::Kind::kInteger
                                                 : OpenCLStdElement::Kind::kNone;
    element.width = shape.width;
    element.components = shape.count;
    if (std::string problem = opencl_std_lowering_problem(opcode, element); !problem.empty())
      throw ProgramError(problem);
    if (opcode == cl::Rsqrt) return b.finish(b.glsl(GLSLstd450InverseSqrt, type, args), i.result_id);
    if (std::optional<GLSLstd450> glsl = direct_glsl(opcode)) {
      b.finish(b.glsl(*glsl, type, args), i.result_id);
      return;
    }
    switch (opcode) {
      case cl::Copysign: return b.finish(copysign(b, arg(0), arg(1)), i.result_id);
      case cl::UAbs: return b.finish(arg(0), i.result_id);
      case cl::Clz: return b.finish(count_zeros(b, arg(0), true), i.result_id);
      case cl::Ctz: return b.finish(count_zeros(b, arg(0), false), i.result_id);
      case cl::Popcount: return b.finish(bit_count(b, arg(0), type), i.result_id);
      case cl::UMul_hi: return b.finish(mul_hi(b, m, arg(0), arg(1), false), i.result_id);
      case cl::SMul_hi: return b.finish(mul_hi(b, m, arg(0), arg(1), true), i.result_id);
      case cl::Rotate: return b.finish(rotate(b, arg(0), arg(1)), i.result_id);
      case cl::Select: return b.finish(select(b, arg(0), arg(1), arg(2)), i.result_id);
      case cl::Bitselect: return b.finish(bitselect(b, arg(0), arg(1), arg(2)), i.result_id);
      case cl::Native_divide: case cl::Half_divide:
        return b.finish(b.op(Op::OpFDiv, type, {arg(0), arg(1)}), i.result_id);
      case cl::Native_recip: case cl::Half_recip:
        return b.finish(b.op(Op::OpFDiv, type, {rounded_float_constant(b, type, 1.0), arg(0)}), i.result_id);
      case cl::Native_exp10: case cl::Half_exp10: {
        const uint32_t scaled = b.op(Op::OpFMul, type, {arg(0), rounded_float_constant(b, type, 3.321928094887362)});
        return b.finish(b.glsl(GLSLstd450Exp2, type, {scaled}), i.result_id);
      }
      case cl::Native_log10: {
        const uint32_t log2 = b.glsl(GLSLstd450Log2, type, {arg(0)});
        return b.finish(b.op(Op::OpFMul, type, {log2, rounded_float_constant(b, type, 0.30102999566398120)}), i.result_id);
      }
      default: break;
    }
    throw CompileError("internal error: lower_opencl_std claims OpenCL.std " + opencl_std_name(opcode) +
                       " but has no rewrite for it");
  }
};

}  // namespace

std::unique_ptr<Pass> make_lower_opencl_std() { return std::make_unique<LowerOpenCLStd>(); }

std::optional<uint32_t> opencl_std_opcode(std::string_view name) {
  for (const OpenCLStdName& entry : kOpenCLStdNames)
    if (name == entry.name) return entry.opcode;
  return std::nullopt;
}

std::string opencl_std_lowering_problem(uint32_t opcode, const OpenCLStdElement& element) {
  if (has_vulkan_lowering(opcode, element)) return {};
  using Kind = OpenCLStdElement::Kind;
  const std::string type = element.kind == Kind::kFloat
                               ? (element.width == 64 ? "double" : element.width == 16 ? "half" : "float")
                               : (element.kind == Kind::kInteger ? std::to_string(element.width) + "-bit integer" : "");
  return "the OpenCL C builtin '" + builtin_name(opcode) + "'" +
         (type.empty() ? std::string() : " on " + type + (element.components > 1 ? " vectors" : "")) +
         " is not supported: vkcl's builtin library does not define it, and OpenCL.std " + opencl_std_name(opcode) +
         " has no Vulkan lowering that meets OpenCL's precision (builtins/LOWERING.md)";
}

}  // namespace vkcl::spirv

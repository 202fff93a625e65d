// OpenCL C integer functions (OpenCL C 6.15.3) that are not one SPIR-V
// instruction: abs_diff, add_sat, sub_sat, hadd, rhadd, mad_hi, mad_sat,
// upsample, mad24 and mul24, for every integer type and vector width. All
// exact. The others (abs, clamp, clz, ctz, popcount, max, min, mul_hi,
// rotate) are left to the translator, whose OpenCL.std instructions
// spirv/lower_opencl_std turns into GLSL.std.450 and core SPIR-V
// (builtins/LOWERING.md).
//
// Arithmetic that may wrap is done on the unsigned type: signed overflow is
// undefined in OpenCL C, and clang would use that. Each body is written once
// for scalars and vectors: relational operators on vectors give -1/0 masks
// that ?: selects with, on scalars 1/0.

#include "math/vkcl_math.h"

// `M(T, U, N, ...)` for N = scalar, 2, 3, 4, 8, 16.
#define FOR_EACH_WIDTH(M, T, U, ...) \
  M(T, U, , __VA_ARGS__) M(T, U, 2, __VA_ARGS__) M(T, U, 3, __VA_ARGS__) M(T, U, 4, __VA_ARGS__) \
  M(T, U, 8, __VA_ARGS__) M(T, U, 16, __VA_ARGS__)

// ---------------------------------------------------------------------------
// abs_diff, hadd, rhadd, mad_hi, add_sat, sub_sat

#define SIGNED_FUNCTIONS(T, U, N, MIN, MAX)                                                     \
  U##N VKCL_OVERLOAD abs_diff(T##N x, T##N y) {                                                 \
    return x > y ? (U##N)(as_##U##N(x) - as_##U##N(y)) : (U##N)(as_##U##N(y) - as_##U##N(x));  \
  }                                                                                             \
  T##N VKCL_OVERLOAD add_sat(T##N x, T##N y) {                                                  \
    const T##N sum = as_##T##N((U##N)(as_##U##N(x) + as_##U##N(y)));                            \
    /* Overflow: x and y have one sign, the wrapped sum the other. */                           \
    const T##N overflow = (T##N)((x ^ sum) & (y ^ sum));                                        \
    return overflow < (T##N)0 ? (x < (T##N)0 ? (T##N)(MIN) : (T##N)(MAX)) : sum;                \
  }                                                                                             \
  T##N VKCL_OVERLOAD sub_sat(T##N x, T##N y) {                                                  \
    const T##N difference = as_##T##N((U##N)(as_##U##N(x) - as_##U##N(y)));                     \
    const T##N overflow = (T##N)((x ^ y) & (x ^ difference));                                   \
    return overflow < (T##N)0 ? (x < (T##N)0 ? (T##N)(MIN) : (T##N)(MAX)) : difference;         \
  }                                                                                             \
  COMMON_FUNCTIONS(T, U, N)

#define UNSIGNED_FUNCTIONS(T, U, N, MAX)                                                        \
  T##N VKCL_OVERLOAD abs_diff(T##N x, T##N y) { return x > y ? (T##N)(x - y) : (T##N)(y - x); } \
  T##N VKCL_OVERLOAD add_sat(T##N x, T##N y) {                                                  \
    const T##N sum = (T##N)(x + y);                                                             \
    return sum < x ? (T##N)(MAX) : sum;                                                         \
  }                                                                                             \
  T##N VKCL_OVERLOAD sub_sat(T##N x, T##N y) { return x < y ? (T##N)0 : (T##N)(x - y); }        \
  COMMON_FUNCTIONS(T, U, N)

// (x + y) >> 1 and (x + y + 1) >> 1 without overflow; the shifts of signed
// values are arithmetic, as OpenCL's are.
#define COMMON_FUNCTIONS(T, U, N)                                                               \
  T##N VKCL_OVERLOAD hadd(T##N x, T##N y) { return (T##N)((x >> 1) + (y >> 1) + (x & y & (T##N)1)); } \
  T##N VKCL_OVERLOAD rhadd(T##N x, T##N y) {                                                    \
    return (T##N)((x >> 1) + (y >> 1) + ((x | y) & (T##N)1));                                  \
  }                                                                                             \
  T##N VKCL_OVERLOAD mad_hi(T##N a, T##N b, T##N c) {                                           \
    return as_##T##N((U##N)(as_##U##N(mul_hi(a, b)) + as_##U##N(c)));                           \
  }

FOR_EACH_WIDTH(SIGNED_FUNCTIONS, char, uchar, CHAR_MIN, CHAR_MAX)
FOR_EACH_WIDTH(SIGNED_FUNCTIONS, short, ushort, SHRT_MIN, SHRT_MAX)
FOR_EACH_WIDTH(SIGNED_FUNCTIONS, int, uint, INT_MIN, INT_MAX)
FOR_EACH_WIDTH(SIGNED_FUNCTIONS, long, ulong, LONG_MIN, LONG_MAX)
FOR_EACH_WIDTH(UNSIGNED_FUNCTIONS, uchar, uchar, UCHAR_MAX)
FOR_EACH_WIDTH(UNSIGNED_FUNCTIONS, ushort, ushort, USHRT_MAX)
FOR_EACH_WIDTH(UNSIGNED_FUNCTIONS, uint, uint, UINT_MAX)
FOR_EACH_WIDTH(UNSIGNED_FUNCTIONS, ulong, ulong, ULONG_MAX)

// ---------------------------------------------------------------------------
// mad_sat: a * b + c, saturated.

// char, short (and their unsigned types): exact in the wider W.
#define MAD_SAT_WIDENED(T, U, N, W, MIN, MAX)                                                   \
  T##N VKCL_OVERLOAD mad_sat(T##N a, T##N b, T##N c) {                                          \
    const W##N r = convert_##W##N(a) * convert_##W##N(b) + convert_##W##N(c);                   \
    return convert_##T##N(clamp(r, (W##N)(MIN), (W##N)(MAX)));                                 \
  }
FOR_EACH_WIDTH(MAD_SAT_WIDENED, char, uchar, int, CHAR_MIN, CHAR_MAX)
FOR_EACH_WIDTH(MAD_SAT_WIDENED, short, ushort, int, SHRT_MIN, SHRT_MAX)
FOR_EACH_WIDTH(MAD_SAT_WIDENED, uchar, uchar, uint, 0, UCHAR_MAX)
FOR_EACH_WIDTH(MAD_SAT_WIDENED, ushort, ushort, uint, 0, USHRT_MAX)

// int, long: the double-width product as (mul_hi, low half), plus c with its
// sign extension and the carry out of the low half; the result fits when the
// high half is the sign extension of the low half.
#define MAD_SAT_SIGNED(T, U, N, MIN, MAX)                                                       \
  T##N VKCL_OVERLOAD mad_sat(T##N a, T##N b, T##N c) {                                          \
    const U##N low = (U##N)(as_##U##N(a) * as_##U##N(b));                                       \
    const U##N sum = (U##N)(low + as_##U##N(c));                                                \
    const U##N high = (U##N)(as_##U##N(mul_hi(a, b)) + (c < (T##N)0 ? (U##N)(-1) : (U##N)0) +   \
                             (sum < low ? (U##N)1 : (U##N)0));                                  \
    const U##N sign_of_sum = as_##T##N(sum) < (T##N)0 ? (U##N)(-1) : (U##N)0;                   \
    return high == sign_of_sum ? as_##T##N(sum)                                                 \
                               : (as_##T##N(high) < (T##N)0 ? (T##N)(MIN) : (T##N)(MAX));       \
  }
#define MAD_SAT_UNSIGNED(T, U, N, MAX)                                                          \
  T##N VKCL_OVERLOAD mad_sat(T##N a, T##N b, T##N c) {                                          \
    const T##N low = (T##N)(a * b);                                                             \
    const T##N sum = (T##N)(low + c);                                                           \
    return ((mul_hi(a, b) != (T##N)0) | (sum < low)) ? (T##N)(MAX) : sum;                       \
  }
FOR_EACH_WIDTH(MAD_SAT_SIGNED, int, uint, INT_MIN, INT_MAX)
FOR_EACH_WIDTH(MAD_SAT_SIGNED, long, ulong, LONG_MIN, LONG_MAX)
FOR_EACH_WIDTH(MAD_SAT_UNSIGNED, uint, uint, UINT_MAX)
FOR_EACH_WIDTH(MAD_SAT_UNSIGNED, ulong, ulong, ULONG_MAX)

// ---------------------------------------------------------------------------
// upsample(hi, lo) = hi << bits(lo) | lo, in the type twice as wide.

#define UPSAMPLE(H, L, N, R, UR, BITS)                                                          \
  R##N VKCL_OVERLOAD upsample(H##N hi, L##N lo) {                                               \
    return as_##R##N((UR##N)((UR##N)(convert_##UR##N(hi) << BITS) | convert_##UR##N(lo)));     \
  }
FOR_EACH_WIDTH(UPSAMPLE, char, uchar, short, ushort, 8)
FOR_EACH_WIDTH(UPSAMPLE, uchar, uchar, ushort, ushort, 8)
FOR_EACH_WIDTH(UPSAMPLE, short, ushort, int, uint, 16)
FOR_EACH_WIDTH(UPSAMPLE, ushort, ushort, uint, uint, 16)
FOR_EACH_WIDTH(UPSAMPLE, int, uint, long, ulong, 32)
FOR_EACH_WIDTH(UPSAMPLE, uint, uint, ulong, ulong, 32)

// ---------------------------------------------------------------------------
// mul24, mad24: defined for operands that fit in 24 bits, where the 32-bit
// product is exact; other operands give the wrapped 32-bit product
// (OpenCL: implementation-defined).

#define MUL24(T, U, N, unused)                                                                  \
  T##N VKCL_OVERLOAD mul24(T##N x, T##N y) { return as_##T##N((U##N)(as_##U##N(x) * as_##U##N(y))); } \
  T##N VKCL_OVERLOAD mad24(T##N x, T##N y, T##N z) {                                            \
    return as_##T##N((U##N)(as_##U##N(x) * as_##U##N(y) + as_##U##N(z)));                       \
  }
FOR_EACH_WIDTH(MUL24, int, uint, 0)
FOR_EACH_WIDTH(MUL24, uint, uint, 0)

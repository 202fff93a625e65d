// The math functions of OpenCL C 6.15.2 for half (cl_khr_fp16), every
// vector width, every address space of an output pointer.
//
// Why one file for half rather than a third instance of the float/double
// templates: every half is exactly a float, every float function here is
// within a few float ulp (2^-13 of a half ulp per float ulp), and the
// product of two halves is exact in float. So a half function is its float
// function on the widened operands, rounded to half once: within 0.5 half
// ulp plus a sliver, inside OpenCL's half limits (cl_khr_fp16's table, and
// the CTS's math_brute_force half_ulps: 2 for most, 1.5 for sqrt, 1 for
// rsqrt, 0 for the exact ones). The exact functions stay exact that way:
// fmod, remainder, remquo, modf, frexp, logb, ilogb, round, maxmag and
// minmag give results that are halves already (the conversion is exact),
// and ldexp's float result is rounded to half once. What needs more:
//   - fma: the float sum of the exact product and c would be a second
//     rounding; it is rounded to odd instead (exact two-sum), which a
//     following rounding to the 13-bit-narrower half makes correct.
//   - fdim: one half subtraction (correctly rounded in Vulkan), not a float
//     one rounded again.
//   - fract: the float result below 1 can round up to 1.0 in half; it is
//     limited to the largest half below 1, as OpenCL defines it.
//   - nextafter and nan: on the half's bits.
// Left to the translator and spirv/lower_opencl_std (builtins/LOWERING.md):
// fabs, copysign, ceil, floor, trunc, rint, fmin, fmax and mad, exact (or,
// for mad, as loose as OpenCL allows) on 16-bit floats as they are.
//
// A conversion from half to float or back is OpFConvert: correctly rounded
// in Vulkan, to nearest even as every other vkcl rounding (builtins/
// LOWERING.md). A device that flushes half subnormals (no CL_FP_DENORM for
// half: api/opencl/device_info.cpp) may flush them in it, which OpenCL
// allows there.

#include "math/vkcl_math.h"

#pragma OPENCL EXTENSION cl_khr_fp16 : enable

// Each float function is called through a helper defined before the half
// overload of its name: once this file declares `sin(half)`, clang no longer
// looks `sin` up in its table of builtins, and sin(float) would not be found
// (vkcl_math.h).

// half F(half)
#define HALF_VIA_FLOAT_1(F)                                                                      \
  static inline float F##_in_float(float x) { return F(x); }                                     \
  half VKCL_OVERLOAD F(half x) { return (half)F##_in_float((float)x); }                          \
  VKCL_VECTORIZE_1(half, F, half)

// half F(half, half)
#define HALF_VIA_FLOAT_2(F)                                                                      \
  static inline float F##_in_float(float x, float y) { return F(x, y); }                         \
  half VKCL_OVERLOAD F(half x, half y) { return (half)F##_in_float((float)x, (float)y); }        \
  VKCL_VECTORIZE_2(half, F, half, half)

// half F(half, int)
#define HALF_VIA_FLOAT_2_INT(F)                                                                  \
  static inline float F##_in_float(float x, int n) { return F(x, n); }                           \
  half VKCL_OVERLOAD F(half x, int n) { return (half)F##_in_float((float)x, n); }                \
  VKCL_VECTORIZE_2(half, F, half, int)

// half F(half, P* out): the float function's second result `o` becomes the
// half-side P with (P)o (rounded for sincos; exact for the others).
#define HALF_OUT_SPACE(F, P, AS)                                                                 \
  VKCL_OUT_VIA_PRIVATE(half, F, half, P, AS)                                                     \
  VKCL_VECTORIZE_OUT(half, F, half, P, AS)
#define HALF_VIA_FLOAT_OUT(F, P, FP)                                                             \
  static inline float F##_in_float(float x, __private FP* out) { return F(x, out); }            \
  half VKCL_OVERLOAD F(half x, __private P* out) {                                               \
    FP o;                                                                                        \
    const half r = (half)F##_in_float((float)x, &o);                                             \
    *out = (P)o;                                                                                 \
    return r;                                                                                    \
  }                                                                                              \
  VKCL_VECTORIZE_OUT(half, F, half, P, __private)                                                \
  VKCL_FOR_EACH_OUT_SPACE(HALF_OUT_SPACE, F, P)

HALF_VIA_FLOAT_1(acos)
HALF_VIA_FLOAT_1(acosh)
HALF_VIA_FLOAT_1(acospi)
HALF_VIA_FLOAT_1(asin)
HALF_VIA_FLOAT_1(asinh)
HALF_VIA_FLOAT_1(asinpi)
HALF_VIA_FLOAT_1(atan)
HALF_VIA_FLOAT_1(atanh)
HALF_VIA_FLOAT_1(atanpi)
HALF_VIA_FLOAT_1(cbrt)
HALF_VIA_FLOAT_1(cos)
HALF_VIA_FLOAT_1(cosh)
HALF_VIA_FLOAT_1(cospi)
HALF_VIA_FLOAT_1(erf)
HALF_VIA_FLOAT_1(erfc)
HALF_VIA_FLOAT_1(exp)
HALF_VIA_FLOAT_1(exp2)
HALF_VIA_FLOAT_1(exp10)
HALF_VIA_FLOAT_1(expm1)
HALF_VIA_FLOAT_1(lgamma)
HALF_VIA_FLOAT_1(log)
HALF_VIA_FLOAT_1(log2)
HALF_VIA_FLOAT_1(log10)
HALF_VIA_FLOAT_1(log1p)
HALF_VIA_FLOAT_1(logb)
HALF_VIA_FLOAT_1(round)
HALF_VIA_FLOAT_1(rsqrt)
HALF_VIA_FLOAT_1(sin)
HALF_VIA_FLOAT_1(sinh)
HALF_VIA_FLOAT_1(sinpi)
HALF_VIA_FLOAT_1(sqrt)
HALF_VIA_FLOAT_1(tan)
HALF_VIA_FLOAT_1(tanh)
HALF_VIA_FLOAT_1(tanpi)
HALF_VIA_FLOAT_1(tgamma)

HALF_VIA_FLOAT_2(atan2)
HALF_VIA_FLOAT_2(atan2pi)
HALF_VIA_FLOAT_2(fmod)
HALF_VIA_FLOAT_2(hypot)
HALF_VIA_FLOAT_2(maxmag)
HALF_VIA_FLOAT_2(minmag)
HALF_VIA_FLOAT_2(pow)
HALF_VIA_FLOAT_2(powr)
HALF_VIA_FLOAT_2(remainder)

HALF_VIA_FLOAT_2_INT(pown)
HALF_VIA_FLOAT_2_INT(rootn)
HALF_VIA_FLOAT_2_INT(ldexp)
VKCL_VECTORIZE_2_SCALAR(half, ldexp, half, int)

static inline int ilogb_in_float(float x) { return ilogb(x); }
int VKCL_OVERLOAD ilogb(half x) { return ilogb_in_float((float)x); }
VKCL_VECTORIZE_1(int, ilogb, half)

HALF_VIA_FLOAT_OUT(frexp, int, int)
HALF_VIA_FLOAT_OUT(lgamma_r, int, int)
HALF_VIA_FLOAT_OUT(modf, half, float)
HALF_VIA_FLOAT_OUT(sincos, half, float)

// remquo(x, y, *quo): the remainder is a half already, and the quotient the
// same number, so its low 7 bits and sign are the float function's.
static inline float remquo_in_float(float x, float y, __private int* quo) { return remquo(x, y, quo); }
half VKCL_OVERLOAD remquo(half x, half y, __private int* quo) {
  return (half)remquo_in_float((float)x, (float)y, quo);
}
#define REMQUO_SPACE(AS)                                                                         \
  VKCL_OUT_VIA_PRIVATE_2(half, remquo, half, half, int, AS)                                      \
  VKCL_VECTORIZE_2_OUT(half, remquo, half, half, int, AS)
VKCL_VECTORIZE_2_OUT(half, remquo, half, half, int, __private)
REMQUO_SPACE(__global)
REMQUO_SPACE(__local)
REMQUO_SPACE(__generic)

// fract(x, *iptr) = fmin(x - floor(x), the largest half below 1): the float
// result is below 1 but may round to 1.0 in half (x = -2^-24: 1 - 2^-24),
// so it is limited in float first, on its bits (NaN passes: its bits are
// above 1.0's). floor(x) is a half.
#define HALF_ONE_BELOW_ONE 0x1.ffcp-1f
static inline float fract_in_float(float x, __private float* iptr) { return fract(x, iptr); }
half VKCL_OVERLOAD fract(half x, __private half* iptr) {
  float whole;
  float f = fract_in_float((float)x, &whole);
  const uint bits = as_uint(f);
  if (bits > as_uint(HALF_ONE_BELOW_ONE) && bits <= as_uint(1.0f)) f = HALF_ONE_BELOW_ONE;
  *iptr = (half)whole;
  return (half)f;
}
VKCL_VECTORIZE_OUT(half, fract, half, half, __private)
VKCL_FOR_EACH_OUT_SPACE(HALF_OUT_SPACE, fract, half)

// fma(a, b, c), correctly rounded. a * b is exact in float (11 x 11
// significant bits, exponents from 2^-48 to 2^32), and the float sum s of it
// and c comes with its exact error e (two-sum). Rounded to odd (s, or its
// neighbour towards the exact sum where e != 0 and s is even), the sum keeps
// the sticky information a rounding to half (11 bits, 13 fewer than float's
// 24) needs, so that one rounding to half gives the correctly rounded fma.
// Infinite or NaN operands: s is the IEEE result already.
half VKCL_OVERLOAD fma(half a, half b, half c) {
  const float product = (float)a * (float)b;
  float error;
  const float sum = __vkcl_two_sum_f(product, (float)c, &error);
  if (!__vkcl_isfinite_f(sum)) return (half)sum;
  const uint sum_bits = as_uint(sum), error_bits = as_uint(error);
  uint odd = sum_bits;
  if ((error_bits & VKCL_FLOAT_ABS) != 0 && (sum_bits & 1u) == 0) {
    // Towards the exact sum: away from zero where e has s's sign, else towards it
    // (s is not 0 here: a two-sum with a zero sum is exact).
    odd = ((sum_bits ^ error_bits) & VKCL_FLOAT_SIGN) == 0 ? sum_bits + 1u : sum_bits - 1u;
  }
  return (half)as_float(odd);
}
VKCL_VECTORIZE_3(half, fma, half, half, half)

// fdim(x, y): x - y where x > y, else +0; NaN if either is. One half
// subtraction, correctly rounded.
#define HALF_ABS 0x7fffu
#define HALF_INF 0x7c00u
static inline int half_isnan(half x) { return (as_ushort(x) & HALF_ABS) > HALF_INF; }
half VKCL_OVERLOAD fdim(half x, half y) {
  if (half_isnan(x) || half_isnan(y)) return as_half((ushort)0x7e00u);
  return x > y ? x - y : (half)0.0f;
}
VKCL_VECTORIZE_2(half, fdim, half, half)

// nan(nancode): a quiet NaN carrying nancode in its significand.
half VKCL_OVERLOAD nan(ushort nancode) { return as_half((ushort)(0x7e00u | (nancode & 0x1ffu))); }
VKCL_VECTORIZE_1(half, nan, ushort)

// nextafter(x, y) on the bits, as manipulation.inc's: the half numbers in
// order as integers (-0 and +0 both 0).
static inline short half_ordered(half x) {
  const short bits = as_short(x);
  return bits < 0 ? (short)-(bits & (short)HALF_ABS) : bits;
}
half VKCL_OVERLOAD nextafter(half x, half y) {
  if (half_isnan(x) || half_isnan(y)) return x + y;
  const short ox = half_ordered(x), oy = half_ordered(y);
  if (ox == oy) return y;
  const ushort bits = as_ushort(x);
  if ((bits & HALF_ABS) == 0)  // +-0: the smallest subnormal towards y
    return as_half((ushort)((as_ushort(y) & 0x8000u) | 1u));
  return as_half((ushort)((ox < oy) == (as_short(x) >= 0) ? bits + 1u : bits - 1u));
}
VKCL_VECTORIZE_2(half, nextafter, half, half)

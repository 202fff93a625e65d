// sqrt for float and double, correctly rounded (OpenCL asks <= 3 ulp for
// float and correct rounding for double), and rsqrt for double (<= 2 ulp).
// rsqrt for float is GLSL.std.450 InverseSqrt, 2 ulp in Vulkan as in OpenCL
// (builtins/LOWERING.md).
//
// Vulkan's GLSL.std.450 Sqrt is only "inherited from 1.0 / inversesqrt()"
// (about 4.5 ulp), and for double only "at least single precision". It is
// the first guess here: x = X * 2^(2k) with X an integer in [2^46, 2^48)
// (float) or [2^104, 2^106) (double), so that sqrt(x) = sqrt(X) * 2^k with
// sqrt(X) in [2^23, 2^24) or [2^52, 2^53); the correctly rounded integer Y
// of sqrt(X) is the one with Y^2 - Y < X <= Y^2 + Y (sqrt(X) is never a
// half-integer), checked exactly in integers and corrected one step at a
// time. Float uses 32-bit words only; double, 64-bit ones.

#include "math/vkcl_math.h"

float VKCL_OVERLOAD __spirv_ocl_native_sqrt(float);
#ifdef VKCL_FP64
double VKCL_OVERLOAD __spirv_ocl_native_sqrt(double);
#endif

// Steps in each direction: the first guess is a few ulp off at worst.
#define MAX_CORRECTION_STEPS 16

// ---------------------------------------------------------------------------
// float

// (hi, lo) > (hi2, lo2) for 64-bit numbers as 32-bit words.
static inline int greater_2x32(uint hi, uint lo, uint hi2, uint lo2) { return hi > hi2 || (hi == hi2 && lo > lo2); }

float VKCL_OVERLOAD sqrt(float x) {
  const uint bits = as_uint(x);
  // NaN, negative (not -0), +-0 and +inf.
  if (bits > VKCL_FLOAT_INF) return (bits & VKCL_FLOAT_ABS) == 0 ? x : __vkcl_quiet_nan_f();
  if (bits == 0 || bits == VKCL_FLOAT_INF) return x;

  int biased = (int)(bits >> 23);
  uint m = bits & 0x7fffffu;
  if (biased == 0) {  // subnormal: normalize
    const int shift = (int)clz(m) - 8;
    m <<= shift;
    biased = 1 - shift;
  } else {
    m |= 0x800000u;
  }
  // x = m * 2^(biased - 150); X = m * 2^(23 + odd) makes the exponent left even.
  const int odd = (biased - 150 - 23) & 1;
  const int half_exponent = (biased - 150 - 23 - odd) >> 1;  // sqrt(x) = sqrt(X) * 2^half_exponent
  const uint x_hi = m >> (9 - odd), x_lo = m << (23 + odd);

  uint y = (uint)__spirv_ocl_native_sqrt((float)m * (odd ? 16777216.0f : 8388608.0f));
  y = clamp(y, 0x800000u, 0x1000000u);
  for (int i = 0; i < MAX_CORRECTION_STEPS; ++i) {  // while X > Y^2 + Y: Y + 1
    const uint sq_lo = y * y, sq_hi = mul_hi(y, y);
    const uint up_lo = sq_lo + y, up_hi = sq_hi + (up_lo < sq_lo ? 1u : 0u);
    if (!greater_2x32(x_hi, x_lo, up_hi, up_lo)) break;
    ++y;
  }
  for (int i = 0; i < MAX_CORRECTION_STEPS; ++i) {  // while X <= Y^2 - Y: Y - 1
    const uint sq_lo = y * y, sq_hi = mul_hi(y, y);
    const uint down_lo = sq_lo - y, down_hi = sq_hi - (sq_lo < y ? 1u : 0u);
    if (greater_2x32(x_hi, x_lo, down_hi, down_lo)) break;
    --y;
  }
  // y <= 2^24 is exact as a float; the power of two is in the normal range.
  return (float)y * __vkcl_pow2_f(half_exponent);
}

VKCL_VECTORIZE_1(float, sqrt, float)

// ---------------------------------------------------------------------------
// double

#ifdef VKCL_FP64

static inline int greater_2x64(ulong hi, ulong lo, ulong hi2, ulong lo2) { return hi > hi2 || (hi == hi2 && lo > lo2); }

double VKCL_OVERLOAD sqrt(double x) {
  const ulong bits = as_ulong(x);
  if (bits > VKCL_DOUBLE_INF) return (bits & VKCL_DOUBLE_ABS) == 0 ? x : __vkcl_quiet_nan_d();
  if (bits == 0 || bits == VKCL_DOUBLE_INF) return x;

  int biased = (int)(bits >> 52);
  ulong m = bits & 0xffffffffffffful;
  if (biased == 0) {
    const int shift = (int)clz(m) - 11;
    m <<= shift;
    biased = 1 - shift;
  } else {
    m |= 1ul << 52;
  }
  // x = m * 2^(biased - 1075); X = m * 2^(52 + odd).
  const int odd = (biased - 1075 - 52) & 1;
  const int half_exponent = (biased - 1075 - 52 - odd) >> 1;
  const ulong x_hi = m >> (12 - odd), x_lo = m << (52 + odd);

  // The first guess may be single-precision accurate only; two Newton steps
  // in double bring it to a few ulp.
  const double xd = (double)m * (odd ? 0x1p53 : 0x1p52);
  double g = __spirv_ocl_native_sqrt(xd);
  g = 0.5 * (g + xd / g);
  g = 0.5 * (g + xd / g);
  ulong y = (ulong)g;
  y = clamp(y, 1ul << 52, 1ul << 53);
  for (int i = 0; i < MAX_CORRECTION_STEPS; ++i) {
    const ulong sq_lo = y * y, sq_hi = mul_hi(y, y);
    const ulong up_lo = sq_lo + y, up_hi = sq_hi + (up_lo < sq_lo ? 1ul : 0ul);
    if (!greater_2x64(x_hi, x_lo, up_hi, up_lo)) break;
    ++y;
  }
  for (int i = 0; i < MAX_CORRECTION_STEPS; ++i) {
    const ulong sq_lo = y * y, sq_hi = mul_hi(y, y);
    const ulong down_lo = sq_lo - y, down_hi = sq_hi - (sq_lo < y ? 1ul : 0ul);
    if (greater_2x64(x_hi, x_lo, down_hi, down_lo)) break;
    --y;
  }
  return (double)y * __vkcl_pow2_d(half_exponent);
}

VKCL_VECTORIZE_1(double, sqrt, double)

// 1 / sqrt(x): the correctly rounded root, then one division (<= 1 ulp
// where the division is correctly rounded). rsqrt(+-0) = +-inf, rsqrt(inf) = 0.
double VKCL_OVERLOAD rsqrt(double x) { return 1.0 / sqrt(x); }

VKCL_VECTORIZE_1(double, rsqrt, double)

#endif  // VKCL_FP64

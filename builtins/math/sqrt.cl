// sqrt for float (<= 1 ulp; OpenCL asks <= 3) and double (correctly
// rounded, as OpenCL asks), every vector width, and rsqrt for double
// (<= 2 ulp). rsqrt for float is GLSL.std.450 InverseSqrt, 2 ulp in Vulkan
// as in OpenCL (builtins/LOWERING.md).
//
// Vulkan's GLSL.std.450 Sqrt is only "inherited from 1.0 / inversesqrt()"
// (about 4.5 ulp), and for double only "at least single precision". Both
// start from the float InverseSqrt (2 ulp) instead. Float refines it by one
// Newton step (below).
// Double: x = X * 2^(2k) with X an integer in [2^104, 2^106), so that
// sqrt(x) = sqrt(X) * 2^k with sqrt(X) in [2^52, 2^53); the correctly
// rounded integer Y of sqrt(X) is the one with Y^2 - Y < X <= Y^2 + Y
// (sqrt(X) is never a half-integer), checked exactly in 64-bit integers and
// corrected one step at a time.

#include "math/vkcl_math.h"

// Not written once for float and double (as builtins/math/*.inc are): float
// takes one Newton step, double two and then an exact integer check of the
// rounding; different algorithms.

float VKCL_OVERLOAD __spirv_ocl_native_rsqrt(float);

// ---------------------------------------------------------------------------
// float: x = xs * 2^(2h) with xs in [1, 4), taken from the bits (a subnormal
// through its significand). With r = Vulkan's InverseSqrt of xs (2 ulp),
// y0 = xs * r is a few ulp off; one Newton step y1 = y0 + (xs - y0^2) r / 2
// whose residual is exact (Dekker's product, and xs - y0^2's head is exact
// by Sterbenz's lemma) follows. From any y0 within 2^-20 of sqrt(xs), the
// step's own error is below 2^-40 and the correction's rounding below
// 2^-18 ulp, so y1 is within 0.5 ulp plus that: 1 ulp at most, mostly
// correctly rounded (OpenCL asks 3). The scaling by 2^h is exact: the root
// of any float is a normal float. InverseSqrt rather than Sqrt and a
// division: one instruction on GPUs, where those are several. Arguments in
// [2^-64, 2^64) need no scaling and take the step directly.

// The root of x in [2^-64, 2^64): there Dekker's product is exact (its
// pieces stay normal) and so is xs - y0^2's head.
static inline float newton_sqrt_f(float x) {
  const float r = __spirv_ocl_native_rsqrt(x);
  const float y0 = x * r;
  float square_error;
  const float square = __vkcl_two_product_f(y0, y0, &square_error);
  const float residual = (x - square) - square_error;
  return y0 + residual * (0.5f * r);
}

float VKCL_OVERLOAD sqrt(float x) {
  const uint bits = as_uint(x);
  // NaN, negative (not -0), +-0 and +inf.
  if (bits > VKCL_FLOAT_INF) return (bits & VKCL_FLOAT_ABS) == 0 ? x : __vkcl_quiet_nan_f();
  if (bits == 0 || bits == VKCL_FLOAT_INF) return x;
  if (bits - 0x1f800000u < 0x40000000u) return newton_sqrt_f(x);  // x in [2^-64, 2^64)

  int biased = (int)(bits >> 23);
  uint fraction = bits & 0x7fffffu;
  if (biased == 0) {  // subnormal: normalize
    const int shift = (int)clz(fraction) - 8;
    fraction = (fraction << shift) & 0x7fffffu;
    biased = 1 - shift;
  }
  const int exponent = biased - 127;  // x = 1.fraction * 2^exponent
  const int odd = exponent & 1;
  const int half_exponent = (exponent - odd) >> 1;
  const float xs = as_float(((uint)(127 + odd) << 23) | fraction);
  return newton_sqrt_f(xs) * __vkcl_pow2_f(half_exponent);
}

VKCL_VECTORIZE_1(float, sqrt, float)

// ---------------------------------------------------------------------------
// double

#ifdef VKCL_FP64

static inline int greater_2x64(ulong hi, ulong lo, ulong hi2, ulong lo2) { return hi > hi2 || (hi == hi2 && lo > lo2); }

// x = xs * 2^(2h) with xs in [1, 4) as for float. y0 = xs * r with r the
// float InverseSqrt of xs (2^-20 or better); two Newton steps with exact
// residuals (Dekker) and r / 2 as 1 / (2 y0) take it to 2^-40, then to
// within 0.5 ulp plus 2^-9 ulp. So the correctly rounded root is Y = y * 2^52
// or a neighbour, decided exactly in integers with X = xs * 2^104:
// Y^2 - Y < X <= Y^2 + Y.
double VKCL_OVERLOAD sqrt(double x) {
  const ulong bits = as_ulong(x);
  if (bits > VKCL_DOUBLE_INF) return (bits & VKCL_DOUBLE_ABS) == 0 ? x : __vkcl_quiet_nan_d();
  if (bits == 0 || bits == VKCL_DOUBLE_INF) return x;

  int biased = (int)(bits >> 52);
  ulong fraction = bits & 0xffffffffffffful;
  if (biased == 0) {
    const int shift = (int)clz(fraction) - 11;
    fraction = (fraction << shift) & 0xffffffffffffful;
    biased = 1 - shift;
  }
  const int exponent = biased - 1023;
  const int odd = exponent & 1;
  const int half_exponent = (exponent - odd) >> 1;
  const double xs = as_double(((ulong)(1023 + odd) << 52) | fraction);

  const float r = __spirv_ocl_native_rsqrt((float)xs);
  double y = xs * (double)r;
  const double half_reciprocal = 0.5 * (double)r;
  for (int step = 0; step < 2; ++step) {
    double square_error;
    const double square = __vkcl_two_product_d(y, y, &square_error);
    y = y + ((xs - square) - square_error) * half_reciprocal;
  }

  ulong root = (ulong)(y * 0x1p52);
  const ulong significand = fraction | (1ul << 52);
  const ulong x_hi = significand >> (12 - odd), x_lo = significand << (52 + odd);
  const ulong sq_lo = root * root, sq_hi = mul_hi(root, root);
  const ulong up_lo = sq_lo + root, up_hi = sq_hi + (up_lo < sq_lo ? 1ul : 0ul);
  const ulong down_lo = sq_lo - root, down_hi = sq_hi - (sq_lo < root ? 1ul : 0ul);
  if (greater_2x64(x_hi, x_lo, up_hi, up_lo)) {
    ++root;
  } else if (!greater_2x64(x_hi, x_lo, down_hi, down_lo)) {
    --root;
  }
  return (double)root * __vkcl_pow2_d(half_exponent - 52);  // exact: normal
}

VKCL_VECTORIZE_1(double, sqrt, double)

// 1 / sqrt(x): the correctly rounded root, then one division (<= 1 ulp
// where the division is correctly rounded). rsqrt(+-0) = +-inf, rsqrt(inf) = 0.
double VKCL_OVERLOAD rsqrt(double x) { return 1.0 / sqrt(x); }

VKCL_VECTORIZE_1(double, rsqrt, double)

#endif  // VKCL_FP64

// exp, exp2, exp10 and expm1 for float, every vector width (OpenCL: <= 3
// ulp each), and half_exp-free helpers the hyperbolic functions share.
// Vulkan's GLSL.std.450 Exp is only 3 + 2|x| ulp (up to about 180), so it
// is not used.
//
// Method (as fdlibm's): x = n * ln2 + r with |r| <= ln2 / 2, n an integer;
// the reduction subtracts n * ln2 in two pieces (Cody and Waite), the first
// with 12 significant bits so that n * piece is exact and the difference
// with x is exact too; e^r is a Taylor polynomial whose truncation error is
// below 2^-27; the result is e^r * 2^n, scaled in at most two exact steps
// and one rounding (subnormal results included). exp2 and exp10 reduce by
// 1 and log10(2) and evaluate 2^r and 10^r by their own Taylor series.
// expm1 uses the series of e^r - 1 directly near 0 (|x| < 0.7), where
// e^x - 1 would cancel, and 2^n * expm1(r) + (2^n - 1) elsewhere.
// Measured worst cases on lavapipe are in tests/host/math_builtins_test.cpp's
// output.

#include "math/vkcl_math.h"

// ln(2), log10(2) as a 12-bit head and a tail.
#define LN2_HI_F 0x1.62ep-1f
#define LN2_LO_F 0x1.0bfbe8p-15f
#define LOG10_2_HI_F 0x1.344p-2f
#define LOG10_2_LO_F 0x1.3509f8p-18f
#define LOG2E_F 0x1.715476p+0f
#define LOG2_10_F 0x1.a934fp+1f

// p * 2^n for p in [0.5, 2] and any n: one rounding at most, infinity past
// the largest float, zero far below the smallest.
float __vkcl_scale_f(float p, int n) {
  if (n > 127) {
    p *= 0x1p127f;
    n = min(n - 127, 127);
  } else if (n < -126) {
    p *= 0x1p-100f;  // still normal: exact
    n = max(n + 100, -126);
  }
  return p * __vkcl_pow2_f(n);
}

// e^r for |r| <= 0.35: Taylor to r^7 (truncation below 2^-27 relative).
static inline float exp_poly_f(float r) {
  float p = 0x1.a01a02p-13f;
  p = mad(p, r, 0x1.6c16c2p-10f);
  p = mad(p, r, 0x1.111112p-7f);
  p = mad(p, r, 0x1.555556p-5f);
  p = mad(p, r, 0x1.555556p-3f);
  p = mad(p, r, 0x1.0p-1f);
  p = mad(p, r, 1.0f);
  return mad(p, r, 1.0f);
}

// e^x * 2^-k without overflowing before the scaling (sinh and cosh near
// the top of the range use k = 1). x must not be NaN.
float __vkcl_exp_scaled_f(float x, int k) {
  if (x > 100.0f) return as_float(VKCL_FLOAT_INF);
  if (x < -104.0f) return 0.0f;
  const float n = rint(x * LOG2E_F);
  const float r = (x - n * LN2_HI_F) - n * LN2_LO_F;
  return __vkcl_scale_f(exp_poly_f(r), (int)n - k);
}

float VKCL_OVERLOAD exp(float x) {
  if (__vkcl_isnan_f(x)) return x;
  return __vkcl_exp_scaled_f(x, 0);
}

static inline float exp2_poly_f(float r);

float VKCL_OVERLOAD exp2(float x) {
  if (__vkcl_isnan_f(x)) return x;
  if (x > 130.0f) return as_float(VKCL_FLOAT_INF);
  if (x < -151.0f) return 0.0f;
  const float n = rint(x);
  return __vkcl_scale_f(exp2_poly_f(x - n), (int)n);  // x - n is exact, |x - n| <= 1/2
}

// 2^r for |r| <= 1/2 (and a little more): sum (r ln2)^k / k!, to k = 8.
static inline float exp2_poly_f(float r) {
  float p = 0x1.62c022p-20f;
  p = mad(p, r, 0x1.ffcbfcp-17f);
  p = mad(p, r, 0x1.430912p-13f);
  p = mad(p, r, 0x1.5d87fep-10f);
  p = mad(p, r, 0x1.3b2ab6p-7f);
  p = mad(p, r, 0x1.c6b08ep-5f);
  p = mad(p, r, 0x1.ebfbep-3f);
  p = mad(p, r, 0x1.62e43p-1f);
  return mad(p, r, 1.0f);
}

// 2^(hi + lo) for |lo| tiny next to hi, for pow: hi's fraction and lo
// together as the argument of the exp2 polynomial.
float __vkcl_exp2_extended_f(float hi, float lo) {
  if (__vkcl_isnan_f(hi)) return hi;
  if (hi > 130.0f) return as_float(VKCL_FLOAT_INF);
  if (hi < -151.0f) return 0.0f;
  const float n = rint(hi);
  const float r = (hi - n) + lo;  // hi - n is exact
  return __vkcl_scale_f(exp2_poly_f(r), (int)n);
}

float VKCL_OVERLOAD exp10(float x) {
  if (__vkcl_isnan_f(x)) return x;
  if (x > 40.0f) return as_float(VKCL_FLOAT_INF);
  if (x < -46.0f) return 0.0f;
  const float n = rint(x * LOG2_10_F);
  const float r = (x - n * LOG10_2_HI_F) - n * LOG10_2_LO_F;  // |r| <= log10(2) / 2
  // 10^r = sum (r ln10)^k / k!, to k = 8.
  float p = 0x1.4116bp-6f;
  p = mad(p, r, 0x1.16e4ep-4f);
  p = mad(p, r, 0x1.a7ed7p-3f);
  p = mad(p, r, 0x1.142ap-1f);
  p = mad(p, r, 0x1.2bd76p+0f);
  p = mad(p, r, 0x1.04705ap+1f);
  p = mad(p, r, 0x1.53524cp+1f);
  p = mad(p, r, 0x1.26bb1cp+1f);
  p = mad(p, r, 1.0f);
  return __vkcl_scale_f(p, (int)n);
}

// e^r - 1 for |r| <= 0.7: r + r^2 * (1/2 + r/6 + ... + r^8/10!).
static inline float expm1_poly_f(float r) {
  float p = 0x1.27e4fcp-22f;
  p = mad(p, r, 0x1.71de3ap-19f);
  p = mad(p, r, 0x1.a01a02p-16f);
  p = mad(p, r, 0x1.a01a02p-13f);
  p = mad(p, r, 0x1.6c16c2p-10f);
  p = mad(p, r, 0x1.111112p-7f);
  p = mad(p, r, 0x1.555556p-5f);
  p = mad(p, r, 0x1.555556p-3f);
  p = mad(p, r, 0x1.0p-1f);
  return mad(r * r, p, r);
}

float VKCL_OVERLOAD expm1(float x) {
  if (__vkcl_isnan_f(x)) return x;
  if (x > 100.0f) return as_float(VKCL_FLOAT_INF);
  if (x < -17.5f) return -1.0f;  // e^x < 2^-25: rounds to -1
  if (fabs(x) < 0x1p-24f) return x;  // x^2/2 is below half an ulp; keeps expm1(-0) = -0
  if (fabs(x) < 0.7f) return expm1_poly_f(x);
  const float n = rint(x * LOG2E_F);
  const float r = (x - n * LN2_HI_F) - n * LN2_LO_F;
  const float e = expm1_poly_f(r);
  const int k = (int)n;
  if (k > 24) return __vkcl_scale_f(1.0f + e, k) - 1.0f;
  // 2^k - 1 is exact for -24 <= k <= 24, and 2^k * e is exact.
  const float p = __vkcl_pow2_f(k);
  return mad(p, e, p - 1.0f);
}

VKCL_VECTORIZE_1(float, exp, float)
VKCL_VECTORIZE_1(float, exp2, float)
VKCL_VECTORIZE_1(float, exp10, float)
VKCL_VECTORIZE_1(float, expm1, float)

// erf, erfc, tgamma, lgamma and lgamma_r for float, every vector width
// (OpenCL: erf, erfc, tgamma <= 16 ulp; lgamma implementation-defined).
//
// erf and erfc (the intervals of fdlibm): |x| < 0.84375, x + x P(x^2);
// to 1.25, erfc(1 + s) as a polynomial in s; beyond, erfc(x) =
// exp(-x^2) G(1/x) / x with x^2 as an exact head and tail and G =
// x erfc(x) e^(x^2) fitted in 1/x on [1.25, 2.5] and [2.5, 10.1], the
// exponential scaled by 2^30 so that subnormal results round once; erf is
// 1 - erfc there. tgamma: Gamma(1 + y) = P(y) fitted on [0, 1], with the
// recurrence up to 8, Stirling's series above (its power x^(x - 1/2) e^-x
// through log2 and exp2 with head and tail, as pow), and the reflection
// formula below 0. lgamma: log|tgamma| below 8, Stirling's series above, the
// reflection formula for negative x. All fits from polynomials.py's method
// (Chebyshev, mpmath), 3e-9 or better.

#include "math/vkcl_math.h"

#define LOG2E_HI_F 0x1.715476p+0f
#define LOG2E_LO_F 0x1.4ae0cp-26f
#define HALF_LOG2_TWO_PI_F 0x1.53643ap+0f       // log2(2 pi) / 2 (head)
#define HALF_LOG2_TWO_PI_LO_F -0x1.6ce442p-26f  // (tail)
#define HALF_LN_TWO_PI_F 0x1.d67f1cp-1f          // log(2 pi) / 2
#define PI_F 0x1.921fb6p+1f

// erf(x) / x - 1 as a polynomial in z = x^2, |x| < 0.84375.
static inline float erf_small_f(float x) {
  const float z = x * x;
  float p = -0x1.6f194p-17f;
  p = mad(p, z, 0x1.e75adcp-14f);
  p = mad(p, z, -0x1.bed6dp-11f);
  p = mad(p, z, 0x1.564db8p-8f);
  p = mad(p, z, -0x1.b82c42p-6f);
  p = mad(p, z, 0x1.ce2f1ep-4f);
  p = mad(p, z, -0x1.812746p-2f);
  p = mad(p, z, 0x1.06eba8p-3f);
  return mad(x, p, x);
}

// erfc(1 + s) for s in [-0.15625, 0.25].
static inline float erfc_middle_f(float s) {
  float c = -0x1.adf8fap-7f;
  c = mad(c, s, -0x1.28a552p-8f);
  c = mad(c, s, 0x1.1b00b8p-4f);
  c = mad(c, s, -0x1.1b5f86p-4f);
  c = mad(c, s, -0x1.1b60ap-3f);
  c = mad(c, s, 0x1.a911eep-2f);
  c = mad(c, s, -0x1.a911fp-2f);
  return mad(c, s, 0x1.422616p-3f);
}

// erfc(a) for a in [1.25, 10.1]: exp(-a^2) G(1/a) / a.
static inline float erfc_tail_f(float a) {
  const float t = 1.0f / a;
  float g;
  if (a < 2.5f) {
    const float u = t - 0.6f;
    g = 0x1.e8f514p-5f;
    g = mad(g, u, -0x1.44e8dep-5f);
    g = mad(g, u, -0x1.4b0e3cp-8f);
    g = mad(g, u, 0x1.a101fap-5f);
    g = mad(g, u, -0x1.595d32p-4f);
    g = mad(g, u, 0x1.4891bcp-4f);
    g = mad(g, u, -0x1.caed04p-8f);
    g = mad(g, u, -0x1.5efcep-3f);
    g = mad(g, u, 0x1.f9a9fap-2f);
  } else {
    const float u = t - 0.25f;
    g = -0x1.8221c2p-1f;
    g = mad(g, u, -0x1.ae94fap-6f);
    g = mad(g, u, 0x1.a5d79p-2f);
    g = mad(g, u, -0x1.1888dp-2f);
    g = mad(g, u, -0x1.cc45e2p-6f);
    g = mad(g, u, 0x1.c193f2p-3f);
    g = mad(g, u, -0x1.57a046p-3f);
    g = mad(g, u, -0x1.e94134p-4f);
    g = mad(g, u, 0x1.18932cp-1f);
  }
  float square_lo;
  const float square = __vkcl_two_product_f(a, a, &square_lo);
  // e^-(square + square_lo) = e^-square (1 - square_lo), times 2^30.
  const float e = __vkcl_exp_scaled_f(-square, -30);
  return (e * ((1.0f - square_lo) * g * t)) * 0x1p-30f;
}

float VKCL_OVERLOAD erf(float x) {
  if (__vkcl_isnan_f(x)) return x;
  const float a = fabs(x);
  if (a < 0.84375f) return erf_small_f(x);
  float r;
  if (a < 1.25f) r = 1.0f - erfc_middle_f(a - 1.0f);
  else if (a < 3.92f) r = 1.0f - erfc_tail_f(a);
  else r = 1.0f;  // 1 - erf(3.92) < 2^-25
  return copysign(r, x);
}

float VKCL_OVERLOAD erfc(float x) {
  if (__vkcl_isnan_f(x)) return x;
  const float a = fabs(x);
  if (a < 0.84375f) return 1.0f - erf_small_f(x);
  float r;
  if (a < 1.25f) r = erfc_middle_f(a - 1.0f);
  else if (a < 10.1f) r = erfc_tail_f(a);
  else r = 0.0f;  // below half the smallest subnormal
  return x < 0.0f ? 2.0f - r : r;
}

// Gamma(1 + y) for y in [0, 1].
static inline float gamma1p_f(float y) {
  float p = -0x1.65187cp-7f;
  p = mad(p, y, 0x1.3865d2p-4f);
  p = mad(p, y, -0x1.fb68e2p-3f);
  p = mad(p, y, 0x1.03181p-1f);
  p = mad(p, y, -0x1.80e4b2p-1f);
  p = mad(p, y, 0x1.cf8e1cp-1f);
  p = mad(p, y, -0x1.eb98ccp-1f);
  p = mad(p, y, 0x1.f4d1d6p-1f);
  p = mad(p, y, -0x1.d07308p-1f);
  p = mad(p, y, 0x1.fa6328p-1f);
  p = mad(p, y, -0x1.2788c4p-1f);
  return mad(p, y, 1.0f);
}

// Stirling's series S(t) = 1 + t/12 + t^2/288 - ..., t = 1/x <= 1/8.
static inline float stirling_series_f(float t) {
  float s = 0x1.9b0ff6p-11f;        // 163879 / 209018880
  s = mad(s, t, -0x1.e13ce4p-13f);  // -571 / 2488320
  s = mad(s, t, -0x1.5f7268p-9f);   // -139 / 51840
  s = mad(s, t, 0x1.c71c72p-9f);    // 1 / 288
  s = mad(s, t, 0x1.555556p-4f);    // 1 / 12
  return mad(s, t, 1.0f);
}

// Gamma(x) * 2^-k for x >= 1/2 (finite).
static inline float gamma_positive_f(float x, int k) {
  if (x < 1.0f) return gamma1p_f(x) / x * __vkcl_pow2_f(-k);
  if (x <= 8.0f) {
    float product = 1.0f, y = x;
    while (y >= 2.0f) {  // at most 6 exact subtractions
      y -= 1.0f;
      product *= y;
    }
    return product * gamma1p_f(y - 1.0f) * __vkcl_pow2_f(-k);
  }
  // sqrt(2 pi) x^(x - 1/2) e^-x S(1/x) = 2^((x - 1/2) log2(x) - x log2(e) + log2(2 pi)/2) S(1/x).
  float l_lo;
  const float l_hi = __vkcl_log2_extended_f(x, &l_lo);
  const float m = x - 0.5f;  // exact for x <= 2^22
  float p_lo;
  const float p_hi = __vkcl_two_product_f(m, l_hi, &p_lo);
  p_lo += m * l_lo;
  float q_lo;
  const float q_hi = __vkcl_two_product_f(x, LOG2E_HI_F, &q_lo);
  q_lo += x * LOG2E_LO_F;
  float e_lo;
  const float e_hi = __vkcl_two_sum_f(p_hi, -q_hi, &e_lo);
  e_lo += (p_lo - q_lo) + HALF_LOG2_TWO_PI_LO_F;
  float sum_lo;
  const float sum = __vkcl_two_sum_f(e_hi, HALF_LOG2_TWO_PI_F - (float)k, &sum_lo);
  return __vkcl_exp2_extended_f(sum, sum_lo + e_lo) * stirling_series_f(1.0f / x);
}

float VKCL_OVERLOAD tgamma(float x) {
  if (__vkcl_isnan_f(x)) return x;
  const float infinity = as_float(VKCL_FLOAT_INF);
  if (x == infinity) return x;
  if (x == -infinity) return __vkcl_quiet_nan_f();
  if (x == 0.0f) return copysign(infinity, x);
  if (x < 0.0f && trunc(x) == x) return __vkcl_quiet_nan_f();
  if (x > 35.05f) return infinity;
  if (x >= 0.5f) return gamma_positive_f(x, 0);
  // Reflection: Gamma(x) = pi / (sin(pi x) Gamma(1 - x)).
  if (x < -42.0f) return copysign(0.0f, sinpi(x));  // |Gamma(x)| < 2^-150
  const float s = sinpi(x);
  if (x > -0.5f) return PI_F / (s * gamma_positive_f(1.0f - x, 0));  // 1 - x in (1, 1.5)
  // Gamma(1 - x) = -x Gamma(-x), whose argument is exact (1 - x is not);
  // it may overflow: carry 2^-64 outside.
  return (PI_F / (s * (-x * gamma_positive_f(-x, 64)))) * 0x1p-64f;
}

// log|Gamma(x)| for x > 0.
static inline float lgamma_positive_f(float x) {
  if (x < 0x1p-20f) return -log(x) - 0x1.2788dp-1f * x;  // -log(x) - Euler's gamma x
  if (x < 8.0f) return log(gamma_positive_f(x, 0));
  // (x - 1/2) log(x) - x + log(2 pi)/2 + 1/(12x) - 1/(360x^3) + 1/(1260x^5).
  const float t = 1.0f / x, t2 = t * t;
  const float series = t * mad(t2, mad(t2, 0x1.a01a02p-11f, -0x1.6c16c2p-9f), 0x1.555556p-4f);
  return mad(x - 0.5f, log(x), HALF_LN_TWO_PI_F - x) + series;
}

float VKCL_OVERLOAD lgamma_r(float x, __private int* signp) {
  if (__vkcl_isnan_f(x)) {
    *signp = 0;
    return x;
  }
  const float infinity = as_float(VKCL_FLOAT_INF);
  if (__vkcl_isinf_f(x)) {
    *signp = x > 0.0f ? 1 : 0;
    return infinity;
  }
  if (x == 0.0f || (x < 0.0f && trunc(x) == x)) {
    *signp = 0;  // OpenCL: 0 for zero and the negative integers
    return infinity;
  }
  if (x > 0.0f) {
    *signp = 1;
    return lgamma_positive_f(x);
  }
  // log|Gamma(x)| = log(pi / |sin(pi x)|) - log|Gamma(1 - x)|.
  const float s = sinpi(x);
  *signp = s < 0.0f ? -1 : 1;
  if (x > -0x1p-20f) return -log(-x) - 0x1.2788dp-1f * x;
  return log(PI_F / fabs(s)) - lgamma_positive_f(1.0f - x);
}

float VKCL_OVERLOAD lgamma(float x) {
  int sign;
  return lgamma_r(x, &sign);
}

VKCL_VECTORIZE_1(float, erf, float)
VKCL_VECTORIZE_1(float, erfc, float)
VKCL_VECTORIZE_1(float, tgamma, float)
VKCL_VECTORIZE_1(float, lgamma, float)
VKCL_VECTORIZE_OUT(float, lgamma_r, float, int, __private)
#define LGAMMA_R_SPACE(T, AS)                        \
  VKCL_OUT_VIA_PRIVATE(T, lgamma_r, T, int, AS)      \
  VKCL_VECTORIZE_OUT(T, lgamma_r, T, int, AS)
VKCL_FOR_EACH_OUT_SPACE(LGAMMA_R_SPACE, float)

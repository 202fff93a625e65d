// erf, erfc, tgamma, lgamma and lgamma_r for float and double, every vector
// width (OpenCL: erf, erfc, tgamma <= 16 ulp; lgamma implementation-defined).
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

// Not written once for float and double (as builtins/math/*.inc are): the
// approximations differ in their intervals and reductions, not only in
// their coefficients (double's tail has three intervals, tgamma a fit
// around 1.5 and the recurrence to 16, lgamma a log Stirling series).

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

// ---------------------------------------------------------------------------
// double: the same method with double fits (erf 15, erfc middle 17, the
// tail's G on [1.25, 2.5], [2.5, 6] and [6, 27.3] at degrees 20, 18, 14;
// Gamma(1.5 + y) for |y| <= 1/2 at degree 24; 1e-19 or better), the
// recurrence up to 16, and log Stirling's series to its x^-15 term above.

#ifdef VKCL_FP64

#define LOG2E_HI_D 0x1.71547652b82fep+0
#define LOG2E_LO_D 0x1.777d0ffda0d24p-56
#define HALF_LOG2_TWO_PI_D 0x1.536439a4c6efcp+0
#define HALF_LOG2_TWO_PI_LO_D -0x1.49e49a361efebp-54
#define HALF_LN_TWO_PI_D 0x1.d67f1c864beb5p-1
#define EULER_D 0x1.2788cfc6fb619p-1
#define PI_D 0x1.921fb54442d18p+1

static inline double erf_small_d(double x) {
  const double z = x * x;
  double p = -0x1.679500f125d29p-46;
  p = mad(p, z, 0x1.e0f025d6feadbp-42);
  p = mad(p, z, -0x1.d63ec9f01ed9bp-38);
  p = mad(p, z, 0x1.9e49f1feb3ed4p-34);
  p = mad(p, z, -0x1.51d59d81968d7p-30);
  p = mad(p, z, 0x1.fcc55947316bfp-27);
  p = mad(p, z, -0x1.5f742e2c1e895p-23);
  p = mad(p, z, 0x1.b9e6c9d70652p-20);
  p = mad(p, z, -0x1.f4d25c3de8d7p-17);
  p = mad(p, z, 0x1.f9a326f9b7f56p-14);
  p = mad(p, z, -0x1.c02db40040b64p-11);
  p = mad(p, z, 0x1.565bcd0e6a53fp-8);
  p = mad(p, z, -0x1.b82ce31288b51p-6);
  p = mad(p, z, 0x1.ce2f21a042be2p-4);
  p = mad(p, z, -0x1.812746b0379e7p-2);
  p = mad(p, z, 0x1.06eba8214db69p-3);
  return mad(x, p, x);
}

static inline double erfc_middle_d(double s) {
  double c = -0x1.e2a4b5937de0fp-21;
  c = mad(c, s, 0x1.1775b1fd3e961p-19);
  c = mad(c, s, 0x1.6febff48afcb7p-18);
  c = mad(c, s, -0x1.8dc086951624fp-16);
  c = mad(c, s, -0x1.3a03d05fe0fp-16);
  c = mad(c, s, 0x1.a38bcf6252bb7p-13);
  c = mad(c, s, -0x1.66b6afad17e8p-14);
  c = mad(c, s, -0x1.4176c43b1f8a8p-10);
  c = mad(c, s, 0x1.ee30d99620a19p-10);
  c = mad(c, s, 0x1.391146bb9aff6p-8);
  c = mad(c, s, -0x1.f096fd702f246p-7);
  c = mad(c, s, -0x1.2e45a565ad5bcp-8);
  c = mad(c, s, 0x1.1b614b0f52819p-4);
  c = mad(c, s, -0x1.1b614b0f52819p-4);
  c = mad(c, s, -0x1.1b614b0f52819p-3);
  c = mad(c, s, 0x1.a911f096fbc26p-2);
  c = mad(c, s, -0x1.a911f096fbc26p-2);
  c = mad(c, s, 0x1.4226162fbddd5p-3);
  return c;
}

static inline double erfc_tail_d(double a) {
  const double t = 1.0 / a;
  double g;
  if (a < 2.5) {
    const double u = t - 0.6;
    g = 0x1.549ede0608d66p-3;
    g = mad(g, u, -0x1.2d6c36588a756p-3);
    g = mad(g, u, 0x1.04da3817578c2p-4);
    g = mad(g, u, -0x1.9d3d515c732b4p-8);
    g = mad(g, u, -0x1.3aee54464fc85p-5);
    g = mad(g, u, 0x1.164e586b98356p-4);
    g = mad(g, u, -0x1.34a87169d4f09p-4);
    g = mad(g, u, 0x1.f6930ce31dad5p-5);
    g = mad(g, u, -0x1.03ef7950791dbp-5);
    g = mad(g, u, -0x1.2af1a37890b43p-8);
    g = mad(g, u, 0x1.3112914f90981p-5);
    g = mad(g, u, -0x1.d12720daac7e4p-5);
    g = mad(g, u, 0x1.cf139f484a958p-5);
    g = mad(g, u, -0x1.1afcfd67ade88p-5);
    g = mad(g, u, -0x1.44f82d3c24fe1p-8);
    g = mad(g, u, 0x1.9fc00ba807f59p-5);
    g = mad(g, u, -0x1.595e44b95765p-4);
    g = mad(g, u, 0x1.4893856aefb1ep-4);
    g = mad(g, u, -0x1.caecf71ee670ap-8);
    g = mad(g, u, -0x1.5efce00ff7b3ap-3);
    g = mad(g, u, 0x1.f9a9f95f6f1bdp-2);
  } else if (a < 6.0) {
    const double u = t - 0.28;
    g = -0x1.945cabb43a5d8p+5;
    g = mad(g, u, 0x1.08db995be5731p+6);
    g = mad(g, u, -0x1.1693557c557c6p+5);
    g = mad(g, u, 0x1.3e777ff596bcap+2);
    g = mad(g, u, 0x1.d95849668218p+2);
    g = mad(g, u, -0x1.e50b85e08359p+2);
    g = mad(g, u, 0x1.c1c92fb4e2f1bp+1);
    g = mad(g, u, -0x1.fda2fbfeafc85p-5);
    g = mad(g, u, -0x1.50453f806f64ep+0);
    g = mad(g, u, 0x1.1d08c06c87274p+0);
    g = mad(g, u, -0x1.6ccee2048de78p-2);
    g = mad(g, u, -0x1.ca01b210227efp-3);
    g = mad(g, u, 0x1.80e18932a74bap-2);
    g = mad(g, u, -0x1.9cc236260e1b9p-3);
    g = mad(g, u, -0x1.046ba52e619a1p-4);
    g = mad(g, u, 0x1.b6146a2c63fc7p-3);
    g = mad(g, u, -0x1.2f9de7d4bdae2p-3);
    g = mad(g, u, -0x1.080a1745cdc14p-3);
    g = mad(g, u, 0x1.16aa77a4e30b3p-1);
  } else {
    const double u = t - 0.1;
    g = 0x1.997970a72c98p+7;
    g = mad(g, u, 0x1.a51beb450ef16p+4);
    g = mad(g, u, -0x1.9c898be1b6a54p+5);
    g = mad(g, u, 0x1.25d26a3b90a74p+3);
    g = mad(g, u, 0x1.0696591698f8dp+3);
    g = mad(g, u, -0x1.2cd18dde7836cp+2);
    g = mad(g, u, -0x1.34c8c1b999c54p-1);
    g = mad(g, u, 0x1.8678e8771f569p+0);
    g = mad(g, u, -0x1.347fc2665549dp-2);
    g = mad(g, u, -0x1.da3e10bbd978ep-2);
    g = mad(g, u, 0x1.262da9d7bdf59p-2);
    g = mad(g, u, 0x1.332eb6a066cfdp-3);
    g = mad(g, u, -0x1.08649d748ba47p-2);
    g = mad(g, u, -0x1.c0d0c85b2fa04p-5);
    g = mad(g, u, 0x1.1f711f3bfe6b6p-1);
  }
  double square_lo;
  const double square = __vkcl_two_product_d(a, a, &square_lo);
  const double e = __vkcl_exp_scaled_d(-square, -60);
  return (e * ((1.0 - square_lo) * g * t)) * 0x1p-60;
}

double VKCL_OVERLOAD erf(double x) {
  if (__vkcl_isnan_d(x)) return x;
  const double a = fabs(x);
  if (a < 0.84375) return erf_small_d(x);
  double r;
  if (a < 1.25) r = 1.0 - erfc_middle_d(a - 1.0);
  else if (a < 6.0) r = 1.0 - erfc_tail_d(a);
  else r = 1.0;  // 1 - erf(6) < 2^-54
  return copysign(r, x);
}

double VKCL_OVERLOAD erfc(double x) {
  if (__vkcl_isnan_d(x)) return x;
  const double a = fabs(x);
  if (a < 0.84375) return 1.0 - erf_small_d(x);
  double r;
  if (a < 1.25) r = erfc_middle_d(a - 1.0);
  else if (a < 27.3) r = erfc_tail_d(a);
  else r = 0.0;
  return x < 0.0 ? 2.0 - r : r;
}

// Gamma(1.5 + y) for |y| <= 1/2.
static inline double gamma_middle_d(double y) {
  double p = 0x1.571048987b3f4p-14;
  p = mad(p, y, -0x1.014c228143cdfp-13);
  p = mad(p, y, 0x1.d7b524c422ef9p-15);
  p = mad(p, y, -0x1.61c720aac13b9p-14);
  p = mad(p, y, 0x1.c197ade68f084p-13);
  p = mad(p, y, -0x1.513093cab3125p-12);
  p = mad(p, y, 0x1.d52144292085bp-12);
  p = mad(p, y, -0x1.5fd54421cbad4p-11);
  p = mad(p, y, 0x1.0a301c8ff5f16p-10);
  p = mad(p, y, -0x1.8f3ca7c3f1052p-10);
  p = mad(p, y, 0x1.2b2c7ea75c4c2p-9);
  p = mad(p, y, -0x1.c09e6e65d05f1p-9);
  p = mad(p, y, 0x1.504eca2779ba9p-8);
  p = mad(p, y, -0x1.f7fc7c04512dbp-8);
  p = mad(p, y, 0x1.7991dcbf878dp-7);
  p = mad(p, y, -0x1.1a2c29007308cp-6);
  p = mad(p, y, 0x1.a752c6b194816p-6);
  p = mad(p, y, -0x1.374fd5ce815dep-5);
  p = mad(p, y, 0x1.e022b74349385p-5);
  p = mad(p, y, -0x1.3d88cfe501adp-4);
  p = mad(p, y, 0x1.283bd374eb2dap-3);
  p = mad(p, y, -0x1.b77ac1ca2ec36p-4);
  p = mad(p, y, 0x1.a8c4dba620d57p-2);
  p = mad(p, y, 0x1.08ea88ee561b2p-5);
  p = mad(p, y, 0x1.c5bf891b4ef6bp-1);
  return p;
}

// log(S(x)) for Stirling's Gamma(x) = sqrt(2 pi) x^(x - 1/2) e^-x S(x), x >= 16:
// sum B_2k / (2k (2k - 1) x^(2k - 1)) to k = 8.
static inline double stirling_log_series_d(double x) {
  const double t = 1.0 / x, z = t * t;
  double s = -0x1.e4286cb0f5398p-6;
  s = mad(s, z, 0x1.a41a41a41a41ap-8);
  s = mad(s, z, -0x1.f6ab0d9993c7dp-10);
  s = mad(s, z, 0x1.b951e2b18ff23p-11);
  s = mad(s, z, -0x1.3813813813814p-11);
  s = mad(s, z, 0x1.a01a01a01a01ap-11);
  s = mad(s, z, -0x1.6c16c16c16c17p-9);
  s = mad(s, z, 0x1.5555555555555p-4);
  return s * t;
}

// Gamma(x) * 2^-k for x >= 1/2 (finite).
static inline double gamma_positive_d(double x, int k) {
  if (x < 1.0) return gamma_middle_d(x - 0.5) / x * __vkcl_pow2_d(-k);
  if (x < 16.0) {
    double product = 1.0, y = x;
    while (y >= 2.0) {
      y -= 1.0;
      product *= y;
    }
    return product * gamma_middle_d(y - 1.5) * __vkcl_pow2_d(-k);
  }
  double l_lo;
  const double l_hi = __vkcl_log2_extended_d(x, &l_lo);
  const double m = x - 0.5;
  double p_lo;
  const double p_hi = __vkcl_two_product_d(m, l_hi, &p_lo);
  p_lo += m * l_lo;
  double q_lo;
  const double q_hi = __vkcl_two_product_d(x, LOG2E_HI_D, &q_lo);
  q_lo += x * LOG2E_LO_D;
  double e_lo;
  const double e_hi = __vkcl_two_sum_d(p_hi, -q_hi, &e_lo);
  e_lo += (p_lo - q_lo) + HALF_LOG2_TWO_PI_LO_D + stirling_log_series_d(x) * LOG2E_HI_D;
  double sum_lo;
  const double sum = __vkcl_two_sum_d(e_hi, HALF_LOG2_TWO_PI_D - (double)k, &sum_lo);
  return __vkcl_exp2_extended_d(sum, sum_lo + e_lo);
}

double VKCL_OVERLOAD tgamma(double x) {
  if (__vkcl_isnan_d(x)) return x;
  const double infinity = as_double(VKCL_DOUBLE_INF);
  if (x == infinity) return x;
  if (x == -infinity) return __vkcl_quiet_nan_d();
  if (x == 0.0) return copysign(infinity, x);
  if (x < 0.0 && trunc(x) == x) return __vkcl_quiet_nan_d();
  if (x > 171.7) return infinity;
  if (x >= 0.5) return gamma_positive_d(x, 0);
  if (x < -185.0) return copysign(0.0, sinpi(x));
  const double s = sinpi(x);
  if (x > -0.5) return PI_D / (s * gamma_positive_d(1.0 - x, 0));
  return (PI_D / (s * (-x * gamma_positive_d(-x, 512)))) * 0x1p-512;
}

static inline double lgamma_positive_d(double x) {
  if (x < 0x1p-54) return -log(x) - EULER_D * x;
  if (x < 16.0) return log(gamma_positive_d(x, 0));
  return mad(x - 0.5, log(x), HALF_LN_TWO_PI_D - x) + stirling_log_series_d(x);
}

double VKCL_OVERLOAD lgamma_r(double x, __private int* signp) {
  if (__vkcl_isnan_d(x)) {
    *signp = 0;
    return x;
  }
  const double infinity = as_double(VKCL_DOUBLE_INF);
  if (__vkcl_isinf_d(x)) {
    *signp = x > 0.0 ? 1 : 0;
    return infinity;
  }
  if (x == 0.0 || (x < 0.0 && trunc(x) == x)) {
    *signp = 0;
    return infinity;
  }
  if (x > 0.0) {
    *signp = 1;
    return lgamma_positive_d(x);
  }
  const double s = sinpi(x);
  *signp = s < 0.0 ? -1 : 1;
  if (x > -0x1p-54) return -log(-x) - EULER_D * x;
  return log(PI_D / fabs(s)) - lgamma_positive_d(1.0 - x);
}

double VKCL_OVERLOAD lgamma(double x) {
  int sign;
  return lgamma_r(x, &sign);
}

VKCL_VECTORIZE_1(double, erf, double)
VKCL_VECTORIZE_1(double, erfc, double)
VKCL_VECTORIZE_1(double, tgamma, double)
VKCL_VECTORIZE_1(double, lgamma, double)
VKCL_VECTORIZE_OUT(double, lgamma_r, double, int, __private)
VKCL_FOR_EACH_OUT_SPACE(LGAMMA_R_SPACE, double)

#endif  // VKCL_FP64

// log, log2, log10 and log1p for float and double (OpenCL: <= 3 ulp, log1p
// <= 2), every vector width, and half_log, half_log2, half_log10 (<= 8192
// ulp: the same functions). The method for double is below, at its code.
// Vulkan's GLSL.std.450 Log is only absolute-2^-21 accurate in [0.5, 2], so
// no ulp bound near 1: not used.
//
// Method: x = m * 2^k with m in [sqrt(2)/2, sqrt(2)), f = m - 1 (exact);
// log(1 + f) = f - f^2/2 + f^3 R(f) with R a Chebyshev fit
// (builtins/math/polynomials.py "log", degree 9, 5e-9) whose share of the
// result is below 7%; log(x) = k ln2 + log(1 + f) with ln2 in two pieces.
// log2 and log10 multiply log(1 + f) by log2(e) or log10(e) as a head and
// tail with an exact product (Dekker), so the constant's rounding does not
// show. log1p adds the rounding error of 1 + x (exact, Knuth's two-sum) back
// as error / (1 + x).
// No division in any of them: Vulkan's division is only 2.5 ulp.

#include "math/vkcl_math.h"

// Not written once for float and double (as builtins/math/*.inc are): the
// methods differ (float: a polynomial on m in [sqrt(2)/2, sqrt(2)); double:
// a 16-entry table and a Taylor series, see "double" below).

#define LN2_HI_F 0x1.62ep-1f
#define LN2_LO_F 0x1.0bfbe8p-15f
#define LOG10_2_HI_F 0x1.344p-2f
#define LOG10_2_LO_F 0x1.3509f8p-18f
#define LOG2E_HI_F 0x1.715476p+0f
#define LOG2E_LO_F 0x1.4ae0cp-26f
#define LOG10E_HI_F 0x1.bcb7b2p-2f
#define LOG10E_LO_F -0x1.5b235ep-27f

// log(1 + f) - f for f in [sqrt(2)/2 - 1, sqrt(2) - 1].
static inline float log1p_tail_f(float f) {
  float r = -0x1.fc06e2p-5f;
  r = mad(r, f, 0x1.af581ep-4f);
  r = mad(r, f, -0x1.b4116ap-4f);
  r = mad(r, f, 0x1.c41b8cp-4f);
  r = mad(r, f, -0x1.fdfb82p-4f);
  r = mad(r, f, 0x1.249688p-3f);
  r = mad(r, f, -0x1.555c54p-3f);
  r = mad(r, f, 0x1.9999a8p-3f);
  r = mad(r, f, -0x1.fffff2p-3f);
  r = mad(r, f, 0x1.555556p-2f);
  return (f * f) * mad(f, r, -0.5f);
}

// For finite x > 0: x = m * 2^k with m in [sqrt(2)/2, sqrt(2)); returns m - 1.
// A subnormal x through its significand (vkcl_math.h), not x * 2^32, which a
// device that flushes float subnormals makes 0.
static inline float reduce_f(float x, int* k) {
  int exponent;
  const uint bits = as_uint(__vkcl_normalize_f(x, &exponent));
  // m in [1, 2); then into [sqrt(2)/2, sqrt(2)).
  uint m = (bits & 0x007fffffu) | 0x3f800000u;
  exponent += (int)(bits >> 23) - 127;
  if (m >= 0x3fb504f3u) {  // sqrt(2) rounded down
    m -= 0x00800000u;      // m / 2
    ++exponent;
  }
  *k = exponent;
  return as_float(m) - 1.0f;
}

// NaN, negative, zero and infinite arguments: the result, or 0 when x is an
// ordinary positive number.
static inline int special_log_f(float x, float* result) {
  const uint bits = as_uint(x);
  if ((bits & VKCL_FLOAT_ABS) > VKCL_FLOAT_INF) return *result = x, 1;                 // NaN
  if ((bits & VKCL_FLOAT_ABS) == 0) return *result = -as_float(VKCL_FLOAT_INF), 1;      // +-0
  if (bits & VKCL_FLOAT_SIGN) return *result = __vkcl_quiet_nan_f(), 1;                 // < 0
  if (bits == VKCL_FLOAT_INF) return *result = x, 1;                                    // +inf
  return 0;
}

// k ln2 + f + tail with one rounding after the exact sum of k ln2's head and
// f (k * head is exact): ln2 - 0.35 cancels, and two roundings would be 2 ulp.
static inline float combine_f(float kf, float f, float tail) {
  float error;
  const float sum = __vkcl_two_sum_f(kf * LN2_HI_F, f, &error);
  return sum + (error + mad(kf, LN2_LO_F, tail));
}

float VKCL_OVERLOAD log(float x) {
  float special;
  if (special_log_f(x, &special)) return special;
  int k;
  const float f = reduce_f(x, &k);
  const float tail = log1p_tail_f(f);
  if (k == 0) return f + tail;
  return combine_f((float)k, f, tail);
}

// log(1 + f) times a constant given as head + tail, as head + *error.
static inline float scaled_log1p_f(float f, float c_hi, float c_lo, float* error) {
  const float tail = log1p_tail_f(f);
  float l_lo;
  const float l_hi = __vkcl_fast_two_sum_f(f, tail, &l_lo);  // f + tail exactly
  float p_lo;
  const float p_hi = __vkcl_two_product_f(l_hi, c_hi, &p_lo);
  *error = p_lo + (l_hi * c_lo + l_lo * c_hi);
  return p_hi;
}

float VKCL_OVERLOAD log2(float x) {
  float special;
  if (special_log_f(x, &special)) return special;
  int k;
  const float f = reduce_f(x, &k);
  float lo;
  const float hi = scaled_log1p_f(f, LOG2E_HI_F, LOG2E_LO_F, &lo);
  if (k == 0) return hi + lo;
  float sum_lo;
  const float sum = __vkcl_fast_two_sum_f((float)k, hi, &sum_lo);  // |k| >= 1 > |hi|
  return sum + (sum_lo + lo);
}

float VKCL_OVERLOAD log10(float x) {
  float special;
  if (special_log_f(x, &special)) return special;
  int k;
  const float f = reduce_f(x, &k);
  float lo;
  const float hi = scaled_log1p_f(f, LOG10E_HI_F, LOG10E_LO_F, &lo);
  if (k == 0) return hi + lo;
  const float kf = (float)k;
  float sum_lo;
  const float sum = __vkcl_two_sum_f(kf * LOG10_2_HI_F, hi, &sum_lo);  // k * head is exact
  return sum + (sum_lo + mad(kf, LOG10_2_LO_F, lo));
}

float VKCL_OVERLOAD log1p(float x) {
  if (__vkcl_isnan_f(x)) return x;
  if (x < -1.0f) return __vkcl_quiet_nan_f();
  if (x == -1.0f) return -as_float(VKCL_FLOAT_INF);
  if (x == as_float(VKCL_FLOAT_INF)) return x;
  if (x >= -0x1.2bec34p-2f && x < 0x1.a827ap-2f) return x + log1p_tail_f(x);  // [sqrt(2)/2 - 1, sqrt(2) - 1)
  // 1 + x = u + error exactly; log(1 + x) = log(u) + error / u to first order.
  float error;
  const float u = __vkcl_two_sum_f(1.0f, x, &error);
  int k;
  const float f = reduce_f(u, &k);
  const float c = error / u;
  return combine_f((float)k, f, log1p_tail_f(f) + c);
}

// log2(x) for finite x > 0 as hi + *lo, about 2^-28 relative: the terms of
// log1p(f) = f - f^2/2 + f^3 R(f) that matter carried exactly (f^2 as an
// exact product), times log2(e) as head and tail, plus k. For pow.
float __vkcl_log2_extended_f(float x, float* lo) {
  int k;
  const float f = reduce_f(x, &k);
  float square_error;
  const float square = __vkcl_two_product_f(f, f, &square_error);
  float r = -0x1.fc06e2p-5f;
  r = mad(r, f, 0x1.af581ep-4f);
  r = mad(r, f, -0x1.b4116ap-4f);
  r = mad(r, f, 0x1.c41b8cp-4f);
  r = mad(r, f, -0x1.fdfb82p-4f);
  r = mad(r, f, 0x1.249688p-3f);
  r = mad(r, f, -0x1.555c54p-3f);
  r = mad(r, f, 0x1.9999a8p-3f);
  r = mad(r, f, -0x1.fffff2p-3f);
  r = mad(r, f, 0x1.555556p-2f);
  const float cube_part = (square * f) * r;
  // f - square/2 (both exact) as l_hi + l_lo, then the small terms.
  float l_lo;
  const float l_hi = __vkcl_two_sum_f(f, -0.5f * square, &l_lo);
  l_lo += cube_part - 0.5f * square_error;
  float p_lo;
  const float p_hi = __vkcl_two_product_f(l_hi, LOG2E_HI_F, &p_lo);
  p_lo += l_hi * LOG2E_LO_F + l_lo * LOG2E_HI_F;
  float s_lo;
  const float s_hi = __vkcl_two_sum_f((float)k, p_hi, &s_lo);
  return __vkcl_fast_two_sum_f(s_hi, s_lo + p_lo, lo);
}

VKCL_VECTORIZE_1(float, log, float)
VKCL_VECTORIZE_1(float, log2, float)
VKCL_VECTORIZE_1(float, log10, float)
VKCL_VECTORIZE_1(float, log1p, float)

float VKCL_OVERLOAD half_log(float x) { return log(x); }
float VKCL_OVERLOAD half_log2(float x) { return log2(x); }
float VKCL_OVERLOAD half_log10(float x) { return log10(x); }
VKCL_VECTORIZE_1(float, half_log, float)
VKCL_VECTORIZE_1(float, half_log2, float)
VKCL_VECTORIZE_1(float, half_log10, float)

// ---------------------------------------------------------------------------
// double. log(x) = k ln2 + log(m), m in [1, 2); with j the top four bits of
// m's fraction and r_j a 12-bit approximation of 1 / (1 + (j + 1/2)/16),
// m r_j = 1 + u exactly (an exact product; |u| < 0.031) and log(m) =
// log1p(u) - log(r_j), the table's logarithms as head + tail (mpmath). Near
// 1 (|x - 1| < 1/16), where the table's term would cancel, log1p(x - 1)
// directly. log1p(u) = u - u^2/2 + u^3 R(u) with R's Taylor series to
// u^12/15; u and u^2/2 exact, so the sum is good to about 2^-66: enough for
// pow, whose error is the exponent's absolute error.

#ifdef VKCL_FP64

#define LN2_HI_D 0x1.62e42fefa39efp-1
#define LN2_LO_D 0x1.abc9e3b39803fp-56
#define LOG2E_HI_D 0x1.71547652b82fep+0
#define LOG2E_LO_D 0x1.777d0ffda0d24p-56
#define LOG10E_HI_D 0x1.bcb7b1526e50ep-2
#define LOG10E_LO_D 0x1.95355baaafad3p-57

// The table: for j, the top 4 fraction bits of m, r_j (12 bits) near 1 / m
// and log(1 / r_j) as a head and tail. __constant tables (constant memory
// where the driver places them) rather than chains of selects.
__constant double __vkcl_log_table_r_d[16] = {0x1.f08p-1, 0x1.d42p-1, 0x1.bacp-1, 0x1.a42p-1, 0x1.8fap-1, 0x1.7dp-1, 0x1.6c2p-1, 0x1.5cap-1, 0x1.4e6p-1, 0x1.414p-1, 0x1.352p-1, 0x1.29ep-1, 0x1.1f8p-1, 0x1.15cp-1, 0x1.0cap-1, 0x1.042p-1};
__constant double __vkcl_log_table_hi_d[16] = {0x1.f7a9b16782856p-6, 0x1.6ef528c056a2cp-4, 0x1.299d30c606ea7p-3, 0x1.9509aa0044f8fp-3, 0x1.fb7d86eee3b9p-3, 0x1.2e9e2bce12286p-2, 0x1.5d01dc49ff2e8p-2, 0x1.898d38a89347ep-2, 0x1.b44977c148f1bp-2, 0x1.dd4aa04e1c4b6p-2, 0x1.02582a5c9d123p-1, 0x1.15533d3b8d7b3p-1, 0x1.2779e1ec93ecap-1, 0x1.39240dde5ce92p-1, 0x1.4a3e862342525p-1, 0x1.5ab505b39040bp-1};
__constant double __vkcl_log_table_lo_d[16] = {-0x1.36c720c147756p-60, -0x1.8b5d9f2b77346p-58, -0x1.ff0c47ee4eafbp-57, 0x1.9d6d34d717c19p-58, -0x1.8736e025ebdaep-59, 0x1.8251a3b83d97ap-62, 0x1.5719f4bda516fp-58, -0x1.99f8e1d0a8e2ep-56, -0x1.cbc04ad924ae5p-56, 0x1.44b7c06bf4a85p-58, -0x1.c9d8b38f3a0d3p-56, 0x1.ca8b0d3c3336p-60, 0x1.19b99acdbc5cap-55, 0x1.edf55bac59b95p-55, -0x1.59b021ee6f171p-59, -0x1.3b0a1335380bbp-55};

// log1p(u) - u + u^2/2 = u^3 R(u) for |u| <= 1/16.
static inline double log1p_cube_term_d(double u) {
  double r = 0x1.1111111111111p-4;  // 1/15
  r = mad(r, u, -0x1.2492492492492p-4);
  r = mad(r, u, 0x1.3b13b13b13b14p-4);
  r = mad(r, u, -0x1.5555555555555p-4);
  r = mad(r, u, 0x1.745d1745d1746p-4);
  r = mad(r, u, -0x1.999999999999ap-4);
  r = mad(r, u, 0x1.c71c71c71c71cp-4);
  r = mad(r, u, -0x1.0p-3);
  r = mad(r, u, 0x1.2492492492492p-3);
  r = mad(r, u, -0x1.5555555555555p-3);
  r = mad(r, u, 0x1.999999999999ap-3);
  r = mad(r, u, -0x1.0p-2);
  r = mad(r, u, 0x1.5555555555555p-2);
  return (u * u) * u * r;
}

// log1p(u_hi + u_lo) as hi + *lo for |u| <= 1/16 and |u_lo| tiny.
static inline double log1p_small_d(double u_hi, double u_lo, double* lo) {
  double square_error;
  const double square = __vkcl_two_product_d(u_hi, u_hi, &square_error);
  double error;
  const double hi = __vkcl_two_sum_d(u_hi, -0.5 * square, &error);
  *lo = error + (u_lo - (0.5 * square_error + u_hi * u_lo) + log1p_cube_term_d(u_hi));
  return hi;
}

// log(x) as hi + *lo, for finite x > 0.
double __vkcl_log_extended_d(double x, double* lo) {
  if (x >= 0.9375 && x < 1.0625) return log1p_small_d(x - 1.0, 0.0, lo);  // x - 1 is exact
  int k;
  const ulong bits = as_ulong(__vkcl_normalize_d(x, &k));  // a subnormal through its significand
  k += (int)(bits >> 52) - 1023;
  const double m = as_double((bits & 0x000ffffffffffffful) | 0x3ff0000000000000ul);  // [1, 2)
  const int j = (int)((bits >> 48) & 15u);
  double product_error;
  const double product = __vkcl_two_product_d(m, __vkcl_log_table_r_d[j], &product_error);
  double l_lo;
  const double l_hi = log1p_small_d(product - 1.0, product_error, &l_lo);  // product - 1 is exact
  // k ln2 + table + log1p(u), the large parts summed exactly.
  const double kd = (double)k;
  double k_lo;
  const double k_hi = __vkcl_two_product_d(kd, LN2_HI_D, &k_lo);
  double e1, e2;
  const double s1 = __vkcl_two_sum_d(k_hi, __vkcl_log_table_hi_d[j], &e1);
  const double s2 = __vkcl_two_sum_d(s1, l_hi, &e2);
  return __vkcl_fast_two_sum_d(s2, e1 + e2 + (k_lo + kd * LN2_LO_D + __vkcl_log_table_lo_d[j] + l_lo), lo);
}

// NaN, negative, zero and infinite arguments (as special_log_f).
static inline int special_log_d(double x, double* result) {
  const ulong bits = as_ulong(x);
  if ((bits & VKCL_DOUBLE_ABS) > VKCL_DOUBLE_INF) return *result = x, 1;
  if ((bits & VKCL_DOUBLE_ABS) == 0) return *result = -as_double(VKCL_DOUBLE_INF), 1;
  if (bits & VKCL_DOUBLE_SIGN) return *result = __vkcl_quiet_nan_d(), 1;
  if (bits == VKCL_DOUBLE_INF) return *result = x, 1;
  return 0;
}

double VKCL_OVERLOAD log(double x) {
  double special;
  if (special_log_d(x, &special)) return special;
  double lo;
  const double hi = __vkcl_log_extended_d(x, &lo);
  return hi + lo;
}

// log(x) times a constant c_hi + c_lo, as hi + *lo.
static inline double scaled_log_d(double x, double c_hi, double c_lo, double* lo) {
  double l_lo;
  const double l_hi = __vkcl_log_extended_d(x, &l_lo);
  double p_lo;
  const double p_hi = __vkcl_two_product_d(l_hi, c_hi, &p_lo);
  return __vkcl_fast_two_sum_d(p_hi, p_lo + (l_hi * c_lo + l_lo * c_hi), lo);
}

double __vkcl_log2_extended_d(double x, double* lo) { return scaled_log_d(x, LOG2E_HI_D, LOG2E_LO_D, lo); }

double VKCL_OVERLOAD log2(double x) {
  double special;
  if (special_log_d(x, &special)) return special;
  double lo;
  const double hi = scaled_log_d(x, LOG2E_HI_D, LOG2E_LO_D, &lo);
  return hi + lo;
}

double VKCL_OVERLOAD log10(double x) {
  double special;
  if (special_log_d(x, &special)) return special;
  double lo;
  const double hi = scaled_log_d(x, LOG10E_HI_D, LOG10E_LO_D, &lo);
  return hi + lo;
}

double VKCL_OVERLOAD log1p(double x) {
  if (__vkcl_isnan_d(x)) return x;
  if (x < -1.0) return __vkcl_quiet_nan_d();
  if (x == -1.0) return -as_double(VKCL_DOUBLE_INF);
  if (x == as_double(VKCL_DOUBLE_INF)) return x;
  if (fabs(x) < 0x1p-54) return x;  // keeps log1p(-0) = -0
  double lo;
  if (fabs(x) < 0.0625) {
    const double hi = log1p_small_d(x, 0.0, &lo);
    return hi + lo;
  }
  // 1 + x = u + error exactly; log(1 + x) = log(u) + error / u.
  double error;
  const double u = __vkcl_two_sum_d(1.0, x, &error);
  const double hi = __vkcl_log_extended_d(u, &lo);
  return hi + (lo + error / u);
}

VKCL_VECTORIZE_1(double, log, double)
VKCL_VECTORIZE_1(double, log2, double)
VKCL_VECTORIZE_1(double, log10, double)
VKCL_VECTORIZE_1(double, log1p, double)

#endif  // VKCL_FP64

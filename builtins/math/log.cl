// log, log2, log10 and log1p for float (OpenCL: <= 3 ulp, log1p <= 2), every
// vector width, and half_log, half_log2, half_log10 (<= 8192 ulp: the same
// functions). Vulkan's GLSL.std.450 Log is only absolute-2^-21 accurate in
// [0.5, 2], so no ulp bound near 1: not used.
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
static inline float reduce_f(float x, int* k) {
  uint bits = as_uint(x);
  int exponent = 0;
  if (bits < 0x00800000u) {  // subnormal: scale by 2^32 first
    bits = as_uint(x * 0x1p32f);
    exponent = -32;
  }
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

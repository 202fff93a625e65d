// pow, powr, pown, rootn and half_powr for float, every vector width
// (OpenCL: <= 16 ulp; half_powr <= 8192: powr).
//
// x^y = 2^(y log2|x|): log2|x| as a head and tail good to about 2^-28
// (log.cl), times y with an exact product, and 2^ of the result with its
// tail (exp.cl), which keeps the error within a few ulp wherever the result
// is a finite nonzero float. pown takes n as the exact sum of two floats
// (an int has up to 31 bits); rootn multiplies by 1/n as a head and tail.
// The special cases are C99 F.9.4.4's and OpenCL's own lists for powr,
// pown and rootn, handled before the general path.

#include "math/vkcl_math.h"

// 2^((y_hi + y_lo) * log2(a)) for finite a > 0.
static inline float pow_positive_f(float a, float y_hi, float y_lo) {
  float l_lo;
  const float l_hi = __vkcl_log2_extended_f(a, &l_lo);
  // |y| > 2^64 and a != 1: |y log2(a)| > 2^41, the result is 0 or infinity
  // (and the exact product's splitting would overflow).
  if (fabs(y_hi) > 0x1p64f) return __vkcl_exp2_extended_f(l_hi * y_hi, 0.0f);
  float p_lo;
  const float p_hi = __vkcl_two_product_f(l_hi, y_hi, &p_lo);
  p_lo += l_hi * y_lo + l_lo * y_hi;
  float lo;
  const float hi = __vkcl_fast_two_sum_f(p_hi, p_lo, &lo);
  // Far outside [-151, 130]: the product's tail does not matter (and may be inf - inf).
  if (__vkcl_isinf_f(p_hi)) return __vkcl_exp2_extended_f(p_hi, 0.0f);
  return __vkcl_exp2_extended_f(hi, lo);
}

static inline int is_integer_f(float y) { return __vkcl_isfinite_f(y) && trunc(y) == y; }
static inline int is_odd_integer_f(float y) {
  return is_integer_f(y) && fabs(y) < 0x1p24f && ((int)y & 1) != 0;
}

float VKCL_OVERLOAD pow(float x, float y) {
  const float infinity = as_float(VKCL_FLOAT_INF);
  const float ay = fabs(y), ax = fabs(x);
  if (ay == 0.0f || x == 1.0f) return 1.0f;  // even for NaN
  if (__vkcl_isnan_f(x) || __vkcl_isnan_f(y)) return x + y;
  const int odd = is_odd_integer_f(y);
  if (ax == 0.0f) {
    if (y < 0.0f) return odd ? copysign(infinity, x) : infinity;
    return odd ? x : 0.0f;
  }
  if (__vkcl_isinf_f(y)) {
    if (ax == 1.0f) return 1.0f;  // pow(-1, +-inf)
    return (ax < 1.0f) == (y < 0.0f) ? infinity : 0.0f;
  }
  if (__vkcl_isinf_f(x)) {
    const float magnitude = y < 0.0f ? 0.0f : infinity;
    return x < 0.0f && odd ? -magnitude : magnitude;
  }
  if (x < 0.0f && !is_integer_f(y)) return __vkcl_quiet_nan_f();
  const float r = pow_positive_f(ax, y, 0.0f);
  return x < 0.0f && odd ? -r : r;
}

float VKCL_OVERLOAD powr(float x, float y) {
  const float infinity = as_float(VKCL_FLOAT_INF);
  if (__vkcl_isnan_f(x) || __vkcl_isnan_f(y)) return x + y;
  if (x < 0.0f) return __vkcl_quiet_nan_f();
  if (x == 0.0f) {
    if (y == 0.0f) return __vkcl_quiet_nan_f();
    return y < 0.0f ? infinity : 0.0f;
  }
  if (__vkcl_isinf_f(x)) {
    if (y == 0.0f) return __vkcl_quiet_nan_f();
    return y < 0.0f ? 0.0f : infinity;
  }
  if (x == 1.0f) return __vkcl_isinf_f(y) ? __vkcl_quiet_nan_f() : 1.0f;
  if (y == 0.0f) return 1.0f;
  if (__vkcl_isinf_f(y)) return (x < 1.0f) == (y < 0.0f) ? infinity : 0.0f;
  return pow_positive_f(x, y, 0.0f);
}

float VKCL_OVERLOAD pown(float x, int n) {
  const float infinity = as_float(VKCL_FLOAT_INF);
  if (n == 0) return 1.0f;
  if (__vkcl_isnan_f(x)) return x;
  const int odd = n & 1;
  const float ax = fabs(x);
  if (ax == 0.0f) {
    if (n < 0) return odd ? copysign(infinity, x) : infinity;
    return odd ? x : 0.0f;
  }
  if (__vkcl_isinf_f(x)) {
    const float magnitude = n < 0 ? 0.0f : infinity;
    return x < 0.0f && odd ? -magnitude : magnitude;
  }
  // n exactly as n_hi + n_lo.
  const float n_hi = (float)n;
  const float n_lo = (float)(n - (int)n_hi);
  const float r = pow_positive_f(ax, n_hi, n_lo);
  return x < 0.0f && odd ? -r : r;
}

float VKCL_OVERLOAD rootn(float x, int n) {
  const float infinity = as_float(VKCL_FLOAT_INF);
  if (n == 0 || __vkcl_isnan_f(x)) return __vkcl_quiet_nan_f();
  const int odd = n & 1;
  if (x < 0.0f && !odd) return __vkcl_quiet_nan_f();
  const float ax = fabs(x);
  if (ax == 0.0f) {
    if (n < 0) return odd ? copysign(infinity, x) : infinity;
    return odd ? x : 0.0f;
  }
  if (__vkcl_isinf_f(x)) {
    const float magnitude = n < 0 ? 0.0f : infinity;
    return copysign(magnitude, x);
  }
  // 1/n as head and tail: head * n + tail * n = 1 up to far below the head's ulp.
  const float nf = (float)n;
  const float head = 1.0f / nf;
  float error;
  const float product = __vkcl_two_product_f(head, nf, &error);
  const float tail = ((1.0f - product) - error) / nf;
  const float r = pow_positive_f(ax, head, tail);
  return copysign(r, x);
}

float VKCL_OVERLOAD half_powr(float x, float y) { return powr(x, y); }

VKCL_VECTORIZE_2(float, pow, float, float)
VKCL_VECTORIZE_2(float, powr, float, float)
VKCL_VECTORIZE_2(float, pown, float, int)
VKCL_VECTORIZE_2(float, rootn, float, int)
VKCL_VECTORIZE_2(float, half_powr, float, float)

// pow, powr, pown, rootn for float and double and half_powr for float,
// every vector width
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

// Not written once for float and double (as builtins/math/*.inc are): float's
// special cases take x apart on its bits (for devices that flush
// subnormals, below) and pown splits n into two floats; double compares and
// converts n exactly. The same cases, different steps.

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

// x's zero, sign and magnitude come from its bits: on a device that flushes
// float subnormals (vkcl_math.h), x == 0 and !(x < 0) hold for a subnormal
// x, and fabs may flush it; a subnormal x must take the general path, whose
// log2 takes it apart on its bits, not come back as it is (pow(x, 3) = x).
// (A subnormal y is 1 or 0 there, consistently: y == 0 first.)
float VKCL_OVERLOAD pow(float x, float y) {
  const float infinity = as_float(VKCL_FLOAT_INF);
  const float ay = fabs(y), ax = as_float(as_uint(x) & VKCL_FLOAT_ABS);
  if (ay == 0.0f || x == 1.0f) return 1.0f;  // even for NaN
  if (__vkcl_isnan_f(x) || __vkcl_isnan_f(y)) return x + y;
  const int odd = is_odd_integer_f(y);
  const int negative = __vkcl_signbit_f(x);
  if (as_uint(ax) == 0) {
    if (y < 0.0f) return odd ? copysign(infinity, x) : infinity;
    return odd ? x : 0.0f;
  }
  if (__vkcl_isinf_f(y)) {
    if (ax == 1.0f) return 1.0f;  // pow(-1, +-inf)
    return (ax < 1.0f) == (y < 0.0f) ? infinity : 0.0f;
  }
  if (__vkcl_isinf_f(x)) {
    const float magnitude = y < 0.0f ? 0.0f : infinity;
    return negative && odd ? -magnitude : magnitude;
  }
  if (negative && !is_integer_f(y)) return __vkcl_quiet_nan_f();
  const float r = pow_positive_f(ax, y, 0.0f);
  return negative && odd ? -r : r;
}

float VKCL_OVERLOAD powr(float x, float y) {
  const float infinity = as_float(VKCL_FLOAT_INF);
  if (__vkcl_isnan_f(x) || __vkcl_isnan_f(y)) return x + y;
  const uint magnitude = as_uint(x) & VKCL_FLOAT_ABS;  // on the bits, as in pow
  if (magnitude != 0 && __vkcl_signbit_f(x)) return __vkcl_quiet_nan_f();
  if (magnitude == 0) {
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
  const float ax = as_float(as_uint(x) & VKCL_FLOAT_ABS);  // on the bits, as in pow
  const int negative = __vkcl_signbit_f(x);
  if (as_uint(ax) == 0) {
    if (n < 0) return odd ? copysign(infinity, x) : infinity;
    return odd ? x : 0.0f;
  }
  if (__vkcl_isinf_f(x)) {
    const float magnitude = n < 0 ? 0.0f : infinity;
    return negative && odd ? -magnitude : magnitude;
  }
  // n exactly as n_hi + n_lo.
  const float n_hi = (float)n;
  const float n_lo = (float)(n - (int)n_hi);
  const float r = pow_positive_f(ax, n_hi, n_lo);
  return negative && odd ? -r : r;
}

float VKCL_OVERLOAD rootn(float x, int n) {
  const float infinity = as_float(VKCL_FLOAT_INF);
  if (n == 0 || __vkcl_isnan_f(x)) return __vkcl_quiet_nan_f();
  const int odd = n & 1;
  const float ax = as_float(as_uint(x) & VKCL_FLOAT_ABS);  // on the bits, as in pow
  if (as_uint(ax) != 0 && __vkcl_signbit_f(x) && !odd) return __vkcl_quiet_nan_f();
  if (as_uint(ax) == 0) {
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

// ---------------------------------------------------------------------------
// double: the same, with log2 as head and tail good to about 2^-66 (log.cl's
// table method), so the exponent's absolute error stays far below an ulp of
// the result even near overflow (|y log2 x| <= 1075).

#ifdef VKCL_FP64

static inline double pow_positive_d(double a, double y_hi, double y_lo) {
  double l_lo;
  const double l_hi = __vkcl_log2_extended_d(a, &l_lo);
  if (fabs(y_hi) > 0x1p64) return __vkcl_exp2_extended_d(l_hi * y_hi, 0.0);
  double p_lo;
  const double p_hi = __vkcl_two_product_d(l_hi, y_hi, &p_lo);
  if (__vkcl_isinf_d(p_hi)) return __vkcl_exp2_extended_d(p_hi, 0.0);
  p_lo += l_hi * y_lo + l_lo * y_hi;
  double lo;
  const double hi = __vkcl_fast_two_sum_d(p_hi, p_lo, &lo);
  return __vkcl_exp2_extended_d(hi, lo);
}

static inline int is_integer_d(double y) { return __vkcl_isfinite_d(y) && trunc(y) == y; }
static inline int is_odd_integer_d(double y) {
  return is_integer_d(y) && fabs(y) < 0x1p53 && ((long)y & 1) != 0;
}

double VKCL_OVERLOAD pow(double x, double y) {
  const double infinity = as_double(VKCL_DOUBLE_INF);
  const double ay = fabs(y), ax = fabs(x);
  if (ay == 0.0 || x == 1.0) return 1.0;
  if (__vkcl_isnan_d(x) || __vkcl_isnan_d(y)) return x + y;
  const int odd = is_odd_integer_d(y);
  if (ax == 0.0) {
    if (y < 0.0) return odd ? copysign(infinity, x) : infinity;
    return odd ? x : 0.0;
  }
  if (__vkcl_isinf_d(y)) {
    if (ax == 1.0) return 1.0;
    return (ax < 1.0) == (y < 0.0) ? infinity : 0.0;
  }
  if (__vkcl_isinf_d(x)) {
    const double magnitude = y < 0.0 ? 0.0 : infinity;
    return x < 0.0 && odd ? -magnitude : magnitude;
  }
  if (x < 0.0 && !is_integer_d(y)) return __vkcl_quiet_nan_d();
  const double r = pow_positive_d(ax, y, 0.0);
  return x < 0.0 && odd ? -r : r;
}

double VKCL_OVERLOAD powr(double x, double y) {
  const double infinity = as_double(VKCL_DOUBLE_INF);
  if (__vkcl_isnan_d(x) || __vkcl_isnan_d(y)) return x + y;
  if (x < 0.0) return __vkcl_quiet_nan_d();
  if (x == 0.0) {
    if (y == 0.0) return __vkcl_quiet_nan_d();
    return y < 0.0 ? infinity : 0.0;
  }
  if (__vkcl_isinf_d(x)) {
    if (y == 0.0) return __vkcl_quiet_nan_d();
    return y < 0.0 ? 0.0 : infinity;
  }
  if (x == 1.0) return __vkcl_isinf_d(y) ? __vkcl_quiet_nan_d() : 1.0;
  if (y == 0.0) return 1.0;
  if (__vkcl_isinf_d(y)) return (x < 1.0) == (y < 0.0) ? infinity : 0.0;
  return pow_positive_d(x, y, 0.0);
}

double VKCL_OVERLOAD pown(double x, int n) {
  const double infinity = as_double(VKCL_DOUBLE_INF);
  if (n == 0) return 1.0;
  if (__vkcl_isnan_d(x)) return x;
  const int odd = n & 1;
  const double ax = fabs(x);
  if (ax == 0.0) {
    if (n < 0) return odd ? copysign(infinity, x) : infinity;
    return odd ? x : 0.0;
  }
  if (__vkcl_isinf_d(x)) {
    const double magnitude = n < 0 ? 0.0 : infinity;
    return x < 0.0 && odd ? -magnitude : magnitude;
  }
  const double r = pow_positive_d(ax, (double)n, 0.0);  // an int is exact in a double
  return x < 0.0 && odd ? -r : r;
}

double VKCL_OVERLOAD rootn(double x, int n) {
  const double infinity = as_double(VKCL_DOUBLE_INF);
  if (n == 0 || __vkcl_isnan_d(x)) return __vkcl_quiet_nan_d();
  const int odd = n & 1;
  if (x < 0.0 && !odd) return __vkcl_quiet_nan_d();
  const double ax = fabs(x);
  if (ax == 0.0) {
    if (n < 0) return odd ? copysign(infinity, x) : infinity;
    return odd ? x : 0.0;
  }
  if (__vkcl_isinf_d(x)) return copysign(n < 0 ? 0.0 : infinity, x);
  const double nd = (double)n;
  const double head = 1.0 / nd;
  double error;
  const double product = __vkcl_two_product_d(head, nd, &error);
  const double tail = ((1.0 - product) - error) / nd;
  return copysign(pow_positive_d(ax, head, tail), x);
}

VKCL_VECTORIZE_2(double, pow, double, double)
VKCL_VECTORIZE_2(double, powr, double, double)
VKCL_VECTORIZE_2(double, pown, double, int)
VKCL_VECTORIZE_2(double, rootn, double, int)

#endif  // VKCL_FP64

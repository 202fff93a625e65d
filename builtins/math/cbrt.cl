// cbrt and hypot for float and double, every vector width (OpenCL: cbrt <= 2 ulp,
// hypot <= 4).
//
// cbrt: |x| = m * 2^(3q) with m in [1, 8); a first guess from the bits
// (the exponent divided by 3), three Newton steps, then one last step whose
// residual m - y^3 is computed exactly (Dekker products), which leaves the
// root within about half an ulp; then * 2^q.
// hypot: scaled by a power of two that brings the larger magnitude near 1,
// so that no square overflows or underflows, then the correctly rounded
// sqrt; +inf if either is infinite (even with a NaN), as C99 F.9.4.3 says.

#include "math/vkcl_math.h"

float VKCL_OVERLOAD cbrt(float x) {
  if (!__vkcl_isfinite_f(x) || x == 0.0f) return x;  // NaN, +-inf, +-0
  float a = fabs(x);
  int q_adjust = 0;
  if (a < 0x1p-126f) {  // subnormal: 2^24 = (2^8)^3
    a *= 0x1p24f;
    q_adjust = -8;
  }
  const uint bits = as_uint(a);
  const int e = (int)(bits >> 23) - 127;
  const int q = e >= 0 ? e / 3 : -((2 - e) / 3);  // floor(e / 3)
  const int rest = e - 3 * q;                     // 0, 1 or 2
  const float m = as_float((bits & 0x7fffffu) | ((uint)(127 + rest) << 23));  // [1, 8)
  // The bits of m divided by 3, plus a constant that centres the guess: within 4%.
  float y = as_float(as_uint(m) / 3u + 0x2a5137a0u);
  for (int i = 0; i < 3; ++i) y = y - (y * y * y - m) / (3.0f * y * y);
  // m - y^3 exactly, then one more step.
  float square_error, cube_error;
  const float square = __vkcl_two_product_f(y, y, &square_error);
  const float cube = __vkcl_two_product_f(square, y, &cube_error);
  const float residual = ((m - cube) - cube_error) - square_error * y;
  y += residual / (3.0f * square);
  return copysign(y * __vkcl_pow2_f(q + q_adjust), x);
}

float VKCL_OVERLOAD hypot(float x, float y) {
  if (__vkcl_isinf_f(x) || __vkcl_isinf_f(y)) return as_float(VKCL_FLOAT_INF);
  if (__vkcl_isnan_f(x) || __vkcl_isnan_f(y)) return x + y;
  const float ax = fabs(x), ay = fabs(y);
  const float larger = fmax(ax, ay);
  if (larger == 0.0f) return 0.0f;
  // larger = 2^k * [1, 2); subnormals through a 2^32 scale.
  int k = (int)(as_uint(larger) >> 23) - 127;
  if (larger < 0x1p-126f) k = (int)(as_uint(larger * 0x1p32f) >> 23) - 127 - 32;
  const int k1 = k / 2, k2 = k - k1;
  const float down = __vkcl_pow2_f(-k1), down2 = __vkcl_pow2_f(-k2);
  const float a = ax * down * down2, b = ay * down * down2;
  return sqrt(mad(a, a, b * b)) * __vkcl_pow2_f(k1) * __vkcl_pow2_f(k2);
}

VKCL_VECTORIZE_1(float, cbrt, float)
VKCL_VECTORIZE_2(float, hypot, float, float)

// ---------------------------------------------------------------------------
// double: the float root as the first guess (2^-23), two Newton steps, and the
// exact-residual step.

#ifdef VKCL_FP64

double VKCL_OVERLOAD cbrt(double x) {
  if (!__vkcl_isfinite_d(x) || x == 0.0) return x;
  double a = fabs(x);
  int q_adjust = 0;
  if (a < 0x1p-1022) {  // subnormal: 2^54 = (2^18)^3
    a *= 0x1p54;
    q_adjust = -18;
  }
  const ulong bits = as_ulong(a);
  const int e = (int)(bits >> 52) - 1023;
  const int q = e >= 0 ? e / 3 : -((2 - e) / 3);
  const int rest = e - 3 * q;
  const double m = as_double((bits & 0x000ffffffffffffful) | ((ulong)(1023 + rest) << 52));  // [1, 8)
  double y = (double)cbrt((float)m);
  for (int i = 0; i < 2; ++i) y = y - (y * y * y - m) / (3.0 * y * y);
  double square_error, cube_error;
  const double square = __vkcl_two_product_d(y, y, &square_error);
  const double cube = __vkcl_two_product_d(square, y, &cube_error);
  const double residual = ((m - cube) - cube_error) - square_error * y;
  y += residual / (3.0 * square);
  return copysign(y * __vkcl_pow2_d(q + q_adjust), x);
}

double VKCL_OVERLOAD hypot(double x, double y) {
  if (__vkcl_isinf_d(x) || __vkcl_isinf_d(y)) return as_double(VKCL_DOUBLE_INF);
  if (__vkcl_isnan_d(x) || __vkcl_isnan_d(y)) return x + y;
  const double ax = fabs(x), ay = fabs(y);
  const double larger = fmax(ax, ay);
  if (larger == 0.0) return 0.0;
  int k = (int)(as_ulong(larger) >> 52) - 1023;
  if (larger < 0x1p-1022) k = (int)(as_ulong(larger * 0x1p64) >> 52) - 1023 - 64;
  const int k1 = k / 2, k2 = k - k1;
  const double down = __vkcl_pow2_d(-k1), down2 = __vkcl_pow2_d(-k2);
  const double a = ax * down * down2, b = ay * down * down2;
  return sqrt(mad(a, a, b * b)) * __vkcl_pow2_d(k1) * __vkcl_pow2_d(k2);
}

VKCL_VECTORIZE_1(double, cbrt, double)
VKCL_VECTORIZE_2(double, hypot, double, double)

#endif  // VKCL_FP64

// cbrt and hypot for float and double, every vector width (OpenCL: cbrt <= 2 ulp,
// hypot <= 4).
//
// cbrt: |x| = m * 2^(3q) with m in [1, 8); a first guess 2^(log2(m) / 3)
// from Vulkan's Log2 and Exp2 (absolute 2^-21 and 3 ulp for log2 here, 3 +
// 2|x| ulp for exp2: within 2^-20 of the root), then Newton steps whose
// residual m - y^3 is computed exactly (Dekker products): one for float, two
// for double, each squaring the error, which leaves the root within about
// half an ulp; then * 2^q.
// hypot: unless the larger magnitude is in [2^-50, 2^60), scaled by a power
// of two that brings it near 1 (exactly, subnormals included), so that no
// square overflows or underflows; then sqrt; +inf if either is infinite
// (even with a NaN), as C99 F.9.4.3 says.

#include "math/vkcl_math.h"

// Not written once for float and double (as builtins/math/*.inc are): the
// algorithms differ. cbrt: float takes one step dividing by 3 y^2, double
// two steps with a single-precision reciprocal of the guess. hypot: float
// takes an unscaled path for the larger magnitude in [2^-50, 2^60) and
// scales only outside it, double always scales.

// Zeros and subnormals are told apart on the bits, and a subnormal is
// normalized through its significand (vkcl_math.h): on a device that flushes
// float subnormals, x == 0 holds for a subnormal x (which came back as it
// was) and x * 2^24 is 0.
float VKCL_OVERLOAD __spirv_ocl_native_exp2(float);
float VKCL_OVERLOAD __spirv_ocl_native_log2(float);

// The cube root of m in [1, 8) within 2^-20 (above).
static inline float cbrt_guess_f(float m) {
  return __spirv_ocl_native_exp2(__spirv_ocl_native_log2(m) * 0x1.555556p-2f);
}

float VKCL_OVERLOAD cbrt(float x) {
  const uint magnitude = as_uint(x) & VKCL_FLOAT_ABS;
  if (magnitude == 0 || magnitude >= VKCL_FLOAT_INF) return x;  // +-0, +-inf, NaN
  int shift;
  const uint bits = as_uint(__vkcl_normalize_f(as_float(magnitude), &shift));  // |x| = bits * 2^shift
  const int e = (int)(bits >> 23) - 127 + shift;
  const int q = e >= 0 ? e / 3 : -((2 - e) / 3);  // floor(e / 3)
  const int rest = e - 3 * q;                     // 0, 1 or 2
  const float m = as_float((bits & 0x7fffffu) | ((uint)(127 + rest) << 23));  // [1, 8)
  float y = cbrt_guess_f(m);
  // m - y^3 exactly, then one step.
  float square_error, cube_error;
  const float square = __vkcl_two_product_f(y, y, &square_error);
  const float cube = __vkcl_two_product_f(square, y, &cube_error);
  const float residual = ((m - cube) - cube_error) - square_error * y;
  y += residual / (3.0f * square);
  return copysign(y * __vkcl_pow2_f(q), x);  // |x| >= 2^-149: q >= -50
}

float VKCL_OVERLOAD hypot(float x, float y) {
  if (__vkcl_isinf_f(x) || __vkcl_isinf_f(y)) return as_float(VKCL_FLOAT_INF);
  if (__vkcl_isnan_f(x) || __vkcl_isnan_f(y)) return x + y;
  const uint ax = as_uint(x) & VKCL_FLOAT_ABS, ay = as_uint(y) & VKCL_FLOAT_ABS;
  const uint larger = max(ax, ay);
  // The larger in [2^-50, 2^60): no square overflows, and a square that
  // underflows (the smaller below 2^-63, so 2^-13 of the larger) is below an
  // ulp of the other, even flushed to 0 on a device that flushes float
  // subnormals; no scaling is needed. (From 2^-60, a flushed square of
  // 2^-65 lost 2^-10 of the sum on the H100.)
  if (larger - 0x26800000u < 0x37000000u) {
    const float a = as_float(ax), b = as_float(ay);
    return sqrt(mad(a, a, b * b));
  }
  if (larger == 0) return 0.0f;
  // larger = 2^k * [1, 2), subnormals included; both scaled by 2^-k. Below
  // 2^-22, by __vkcl_scale_up_f (2^-k <= 2^149 in one step), which takes a
  // subnormal through its significand: a device that flushes float
  // subnormals would make x * 2^-k of a subnormal x 0.
  const int k = __vkcl_exponent_f(as_float(larger));
  float a, b;
  if (k < -22) {
    a = __vkcl_scale_up_f(as_float(ax), -k);
    b = __vkcl_scale_up_f(as_float(ay), -k);
  } else {
    const int k1 = k / 2, k2 = k - k1;
    const float down = __vkcl_pow2_f(-k1), down2 = __vkcl_pow2_f(-k2);
    a = as_float(ax) * down * down2;
    b = as_float(ay) * down * down2;
  }
  const int k1 = k / 2, k2 = k - k1;
  return sqrt(mad(a, a, b * b)) * __vkcl_pow2_f(k1) * __vkcl_pow2_f(k2);
}

VKCL_VECTORIZE_1(float, cbrt, float)
VKCL_VECTORIZE_2(float, hypot, float, float)

// ---------------------------------------------------------------------------
// double: the same guess, and two exact-residual steps with 1 / (3 y^2) of
// the guess in single precision (its error only scales the correction):
// 2^-20, 2^-40, below 2^-60, then the last rounding.

#ifdef VKCL_FP64

double VKCL_OVERLOAD cbrt(double x) {
  const ulong magnitude = as_ulong(x) & VKCL_DOUBLE_ABS;
  if (magnitude == 0 || magnitude >= VKCL_DOUBLE_INF) return x;
  int shift;
  const ulong bits = as_ulong(__vkcl_normalize_d(as_double(magnitude), &shift));
  const int e = (int)(bits >> 52) - 1023 + shift;
  const int q = e >= 0 ? e / 3 : -((2 - e) / 3);
  const int rest = e - 3 * q;
  const double m = as_double((bits & 0x000ffffffffffffful) | ((ulong)(1023 + rest) << 52));  // [1, 8)
  const float guess = cbrt_guess_f((float)m);
  const double reciprocal = (double)(1.0f / (3.0f * guess * guess));
  double y = (double)guess;
  for (int step = 0; step < 2; ++step) {
    double square_error, cube_error;
    const double square = __vkcl_two_product_d(y, y, &square_error);
    const double cube = __vkcl_two_product_d(square, y, &cube_error);
    const double residual = ((m - cube) - cube_error) - square_error * y;
    y += residual * reciprocal;
  }
  return copysign(y * __vkcl_pow2_d(q), x);
}

double VKCL_OVERLOAD hypot(double x, double y) {
  if (__vkcl_isinf_d(x) || __vkcl_isinf_d(y)) return as_double(VKCL_DOUBLE_INF);
  if (__vkcl_isnan_d(x) || __vkcl_isnan_d(y)) return x + y;
  const ulong ax = as_ulong(x) & VKCL_DOUBLE_ABS, ay = as_ulong(y) & VKCL_DOUBLE_ABS;
  const ulong larger = max(ax, ay);
  if (larger == 0) return 0.0;
  const int k = __vkcl_exponent_d(as_double(larger));
  double a, b;
  if (k < -52) {
    a = __vkcl_scale_up_d(as_double(ax), -k);
    b = __vkcl_scale_up_d(as_double(ay), -k);
  } else {
    const int k1 = k / 2, k2 = k - k1;
    const double down = __vkcl_pow2_d(-k1), down2 = __vkcl_pow2_d(-k2);
    a = as_double(ax) * down * down2;
    b = as_double(ay) * down * down2;
  }
  const int k1 = k / 2, k2 = k - k1;
  return sqrt(mad(a, a, b * b)) * __vkcl_pow2_d(k1) * __vkcl_pow2_d(k2);
}

VKCL_VECTORIZE_1(double, cbrt, double)
VKCL_VECTORIZE_2(double, hypot, double, double)

#endif  // VKCL_FP64

// asin, acos, atan, atan2 and asinpi, acospi, atanpi, atan2pi for float,
// every vector width (OpenCL: asin, acos <= 4 ulp; atan, asinpi, acospi,
// atanpi <= 5; atan2, atan2pi <= 6). Vulkan's GLSL.std.450 Atan is 4096 ulp:
// not used.
//
// atan: |x| <= tan(pi/8) directly, t + t^3 A(t^2) (polynomials.py "atan",
// 1.8e-9); up to tan(3pi/8) as pi/4 + atan((|x| - 1) / (|x| + 1)); beyond
// as pi/2 - atan(1/|x|); the constants as head + tail. asin: |x| <= 1/2
// directly, x + x^3 S(x^2) ("asin", 1.5e-9); beyond as pi/2 - 2 asin(s)
// with s = sqrt((1 - |x|)/2), whose argument is exact and root correctly
// rounded (fdlibm's reduction). acos from the same pieces. The *pi variants
// multiply by 1/pi (head + tail) and give their exact special values
// (atanpi(inf) = 0.5, atan2pi(+-0, -0) = +-1, ...) exactly.

#include "math/vkcl_math.h"

#define PIO4_HI_F 0x1.921fb6p-1f
#define PIO4_LO_F -0x1.777a5cp-26f
#define PIO2_HI_F 0x1.921fb6p+0f
#define PIO2_LO_F -0x1.777a5cp-25f
#define PI_HI_F 0x1.921fb6p+1f
#define PI_LO_F -0x1.777a5cp-24f
#define INV_PI_HI_F 0x1.45f306p-2f
#define INV_PI_LO_F 0x1.b9391p-27f

// atan(t) for |t| <= tan(pi/8).
static inline float atan_poly_f(float t) {
  const float z = t * t;
  float a = 0x1.9d8b24p-5f;
  a = mad(a, z, -0x1.614448p-4f);
  a = mad(a, z, 0x1.c57baep-4f);
  a = mad(a, z, -0x1.248a18p-3f);
  a = mad(a, z, 0x1.99997cp-3f);
  a = mad(a, z, -0x1.555556p-2f);
  return mad(t * z, a, t);
}

// atan(a) for a >= 0, not NaN.
static inline float atan_positive_f(float a) {
  if (a <= 0x1.a8279ap-2f) return atan_poly_f(a);
  if (a <= 0x1.3504f4p+1f) return PIO4_HI_F + (atan_poly_f((a - 1.0f) / (a + 1.0f)) + PIO4_LO_F);
  if (a > 0x1p26f) return PIO2_HI_F + PIO2_LO_F;
  return PIO2_HI_F - (atan_poly_f(1.0f / a) - PIO2_LO_F);
}

float VKCL_OVERLOAD atan(float x) {
  if (__vkcl_isnan_f(x)) return x;
  return copysign(atan_positive_f(fabs(x)), x);
}

// asin(a) for a in [0, 1/2].
static inline float asin_poly_f(float a) {
  const float z = a * a;
  float s = 0x1.fb7ca4p-6f;
  s = mad(s, z, 0x1.5a80ap-7f);
  s = mad(s, z, 0x1.82db24p-6f);
  s = mad(s, z, 0x1.efedf8p-6f);
  s = mad(s, z, 0x1.6dc0fp-5f);
  s = mad(s, z, 0x1.33331ep-4f);
  s = mad(s, z, 0x1.555556p-3f);
  return mad(a * z, s, a);
}

float VKCL_OVERLOAD asin(float x) {
  if (__vkcl_isnan_f(x)) return x;
  const float a = fabs(x);
  if (a > 1.0f) return __vkcl_quiet_nan_f();
  float r;
  if (a <= 0.5f) {
    r = asin_poly_f(a);
  } else {
    const float s = sqrt((1.0f - a) * 0.5f);  // exact argument
    r = PIO2_HI_F - (2.0f * asin_poly_f(s) - PIO2_LO_F);
  }
  return copysign(r, x);
}

float VKCL_OVERLOAD acos(float x) {
  if (__vkcl_isnan_f(x)) return x;
  const float a = fabs(x);
  if (a > 1.0f) return __vkcl_quiet_nan_f();
  if (a <= 0.5f) return PIO2_HI_F - (copysign(asin_poly_f(a), x) - PIO2_LO_F);
  const float s = sqrt((1.0f - a) * 0.5f);
  const float twice = 2.0f * asin_poly_f(s);
  return x > 0.0f ? twice : PI_HI_F - (twice - PI_LO_F);
}

// atan2(y, x), or atan2pi(y, x) when `in_pi`: the special cases of C99
// F.9.1.4 (and their exact atan2pi values), then atan of the smaller over
// the larger magnitude, with pi/2 and pi as head + tail.
static inline float atan2_any_f(float y, float x, int in_pi) {
  if (__vkcl_isnan_f(x) || __vkcl_isnan_f(y)) return x + y;
  const float pi = in_pi ? 1.0f : PI_HI_F + PI_LO_F;
  const float half_pi = in_pi ? 0.5f : PIO2_HI_F + PIO2_LO_F;
  const float quarter_pi = in_pi ? 0.25f : PIO4_HI_F + PIO4_LO_F;
  const int x_negative = as_int(x) < 0;
  const float ax = fabs(x), ay = fabs(y);
  float r;
  if (ay == 0.0f) {
    r = x_negative ? pi : 0.0f;
  } else if (__vkcl_isinf_f(ay)) {
    r = __vkcl_isinf_f(ax) ? (x_negative ? (in_pi ? 0.75f : 0x1.2d97c8p+1f) : quarter_pi) : half_pi;
  } else if (ax == 0.0f) {
    r = half_pi;
  } else if (__vkcl_isinf_f(ax)) {
    r = x_negative ? pi : 0.0f;
  } else {
    // angle in [0, pi/2]; then pi - angle for x < 0.
    float angle_hi, angle_lo = 0.0f;
    if (ay <= ax) {
      angle_hi = atan_positive_f(ay / ax);
    } else {
      angle_hi = PIO2_HI_F;
      angle_lo = PIO2_LO_F - atan_positive_f(ax / ay);
    }
    if (x_negative) {
      angle_hi = PI_HI_F - angle_hi;
      angle_lo = PI_LO_F - angle_lo;
    }
    if (!in_pi) {
      r = angle_hi + angle_lo;
    } else {
      r = mad(angle_hi, INV_PI_HI_F, mad(angle_hi, INV_PI_LO_F, angle_lo * INV_PI_HI_F));
    }
  }
  return copysign(r, y);
}

float VKCL_OVERLOAD atan2(float y, float x) { return atan2_any_f(y, x, 0); }
float VKCL_OVERLOAD atan2pi(float y, float x) { return atan2_any_f(y, x, 1); }

// x / pi for x the result of asin, acos or atan.
static inline float over_pi_f(float x) { return mad(x, INV_PI_HI_F, x * INV_PI_LO_F); }

float VKCL_OVERLOAD asinpi(float x) { return over_pi_f(asin(x)); }
float VKCL_OVERLOAD acospi(float x) { return over_pi_f(acos(x)); }
float VKCL_OVERLOAD atanpi(float x) {
  if (__vkcl_isinf_f(x)) return copysign(0.5f, x);
  return over_pi_f(atan(x));
}

VKCL_VECTORIZE_1(float, asin, float)
VKCL_VECTORIZE_1(float, acos, float)
VKCL_VECTORIZE_1(float, atan, float)
VKCL_VECTORIZE_2(float, atan2, float, float)
VKCL_VECTORIZE_1(float, asinpi, float)
VKCL_VECTORIZE_1(float, acospi, float)
VKCL_VECTORIZE_1(float, atanpi, float)
VKCL_VECTORIZE_2(float, atan2pi, float, float)

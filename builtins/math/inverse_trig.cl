// asin, acos, atan, atan2 and asinpi, acospi, atanpi, atan2pi for float
// and double, every vector width (OpenCL: asin, acos <= 4 ulp; atan, asinpi, acospi,
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

// atan(a) for a >= 0, not NaN. The three ranges share one division and one
// polynomial on a selected argument, and select the result: no branches,
// which a sub-group with arguments in two ranges would run one after the
// other. (a itself is selected, not divided by 1: Vulkan's division need not
// be exact even then.)
static inline float atan_positive_f(float a) {
  const int small = a <= 0x1.a8279ap-2f, middle = a <= 0x1.3504f4p+1f;
  const float quotient = (middle ? a - 1.0f : 1.0f) / (middle ? a + 1.0f : a);
  const float p = atan_poly_f(small ? a : quotient);
  const float large = a > 0x1p26f ? PIO2_HI_F + PIO2_LO_F : PIO2_HI_F - (p - PIO2_LO_F);
  return small ? p : (middle ? PIO4_HI_F + (p + PIO4_LO_F) : large);
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

// asin and acos: both ranges share the polynomial, on a or on
// s = sqrt((1 - a) / 2) (exact argument), and select the result, as atan.
// (For |x| > 1, s is NaN and the NaN result is selected anyway; |x| <= 1
// is tested on the bits, as NaN tests are in this library.)
float VKCL_OVERLOAD asin(float x) {
  const float a = fabs(x);
  const int small = a <= 0.5f;
  const float s = sqrt((1.0f - a) * 0.5f);
  const float p = asin_poly_f(small ? a : s);
  const float r = small ? p : PIO2_HI_F - (2.0f * p - PIO2_LO_F);
  const float nan = __vkcl_isnan_f(x) ? x : __vkcl_quiet_nan_f();
  return (as_uint(x) & VKCL_FLOAT_ABS) <= 0x3f800000u ? copysign(r, x) : nan;  // |x| <= 1, on the bits
}

float VKCL_OVERLOAD acos(float x) {
  const float a = fabs(x);
  const int small = a <= 0.5f;
  const float s = sqrt((1.0f - a) * 0.5f);
  const float p = asin_poly_f(small ? a : s);
  const float twice = 2.0f * p;
  const float r = small ? PIO2_HI_F - (copysign(p, x) - PIO2_LO_F) : (x > 0.0f ? twice : PI_HI_F - (twice - PI_LO_F));
  const float nan = __vkcl_isnan_f(x) ? x : __vkcl_quiet_nan_f();
  return (as_uint(x) & VKCL_FLOAT_ABS) <= 0x3f800000u ? r : nan;
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
  const uint x_bits = as_uint(x) & VKCL_FLOAT_ABS, y_bits = as_uint(y) & VKCL_FLOAT_ABS;
  float ax = as_float(x_bits), ay = as_float(y_bits);
  float r;
  if (y_bits == 0) {
    r = x_negative ? pi : 0.0f;
  } else if (__vkcl_isinf_f(ay)) {
    r = __vkcl_isinf_f(ax) ? (x_negative ? (in_pi ? 0.75f : 0x1.2d97c8p+1f) : quarter_pi) : half_pi;
  } else if (x_bits == 0) {
    r = half_pi;
  } else if (__vkcl_isinf_f(ax)) {
    r = x_negative ? pi : 0.0f;
  } else {
    // The smaller magnitude over the larger. Vulkan specifies OpFDiv only
    // for divisors in [2^-126, 2^126], and a device that flushes float
    // subnormals (NVIDIA's; vkcl_math.h) divides by way of the reciprocal,
    // which is 0 beyond 2^126 (atan2(100, 2^128) was 0), and flushes a
    // subnormal operand: both are scaled by the same power of two first,
    // down by 2^-4 from 2^126 on, up by 2^64 (exactly, subnormals through
    // their significands) when the smaller is subnormal and the larger below
    // 2^62. Zeros and the comparisons are on the bits for the same reason.
    const uint larger = max(x_bits, y_bits), smaller = min(x_bits, y_bits);
    if (larger >= 0x7e800000u) {
      ax *= 0x1p-4f;
      ay *= 0x1p-4f;
    } else if (smaller < 0x00800000u && larger < 0x5e800000u) {
      ax = __vkcl_scale_up_f(ax, 64);
      ay = __vkcl_scale_up_f(ay, 64);
    }
    // angle in [0, pi/2]; then pi - angle for x < 0.
    // One division and one atan on the selected operands.
    const int x_larger = y_bits <= x_bits;
    const float angle = atan_positive_f((x_larger ? ay : ax) / (x_larger ? ax : ay));
    float angle_hi = x_larger ? angle : PIO2_HI_F;
    float angle_lo = x_larger ? 0.0f : PIO2_LO_F - angle;
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


// ---------------------------------------------------------------------------
// double: the same reductions; the fits are polynomials.py's double entries
// (atan degree 11, asin degree 13), constants as head + tail.

#ifdef VKCL_FP64

#define PIO4_HI_D 0x1.921fb54442d18p-1
#define PIO4_LO_D 0x1.1a62633145c07p-55
#define PIO2_HI_D 0x1.921fb54442d18p+0
#define PIO2_LO_D 0x1.1a62633145c07p-54
#define PI_HI_D 0x1.921fb54442d18p+1
#define PI_LO_D 0x1.1a62633145c07p-53
#define THREE_PIO4_D 0x1.2d97c7f3321d2p+1
#define INV_PI_HI_D 0x1.45f306dc9c883p-2
#define INV_PI_LO_D -0x1.6b01ec5417056p-56

static inline double atan_poly_d(double t) {
  const double z = t * t;
  double a = 0x1.0ad36a455cafbp-6;
  a = mad(a, z, -0x1.1b33b923aa954p-5);
  a = mad(a, z, 0x1.74ddd408bb4c1p-5);
  a = mad(a, z, -0x1.ac7a938b69c93p-5);
  a = mad(a, z, 0x1.e19a13b9fc6dfp-5);
  a = mad(a, z, -0x1.110e880a7a521p-4);
  a = mad(a, z, 0x1.3b1392d9e785cp-4);
  a = mad(a, z, -0x1.745d165df3f95p-4);
  a = mad(a, z, 0x1.c71c71c304b68p-4);
  a = mad(a, z, -0x1.249249248d7eep-3);
  a = mad(a, z, 0x1.9999999999953p-3);
  a = mad(a, z, -0x1.5555555555555p-2);
  return mad(t * z, a, t);
}

static inline double atan_positive_d(double a) {
  if (a <= 0x1.a827999fcef32p-2) return atan_poly_d(a);  // tan(pi/8)
  if (a <= 0x1.3504f333f9de6p+1) return PIO4_HI_D + (atan_poly_d((a - 1.0) / (a + 1.0)) + PIO4_LO_D);
  if (a > 0x1p60) return PIO2_HI_D + PIO2_LO_D;
  return PIO2_HI_D - (atan_poly_d(1.0 / a) - PIO2_LO_D);
}

double VKCL_OVERLOAD atan(double x) {
  if (__vkcl_isnan_d(x)) return x;
  return copysign(atan_positive_d(fabs(x)), x);
}

static inline double asin_poly_d(double a) {
  const double z = a * a;
  double s = 0x1.e529c6fce9bb4p-6;
  s = mad(s, z, -0x1.3b416bb7d9257p-6);
  s = mad(s, z, 0x1.406192d124629p-6);
  s = mad(s, z, 0x1.8f193743418ffp-9);
  s = mad(s, z, 0x1.31622469ce5adp-7);
  s = mad(s, z, 0x1.3b49de7121487p-7);
  s = mad(s, z, 0x1.7b027ee1dd585p-7);
  s = mad(s, z, 0x1.c990ad3d8fdcap-7);
  s = mad(s, z, 0x1.1c4efce23019fp-6);
  s = mad(s, z, 0x1.6e8ba123e494cp-6);
  s = mad(s, z, 0x1.f1c71c7a52ba3p-6);
  s = mad(s, z, 0x1.6db6db6dac1e0p-5);
  s = mad(s, z, 0x1.3333333333388p-4);
  s = mad(s, z, 0x1.5555555555555p-3);
  return mad(a * z, s, a);
}

double VKCL_OVERLOAD asin(double x) {
  if (__vkcl_isnan_d(x)) return x;
  const double a = fabs(x);
  if (a > 1.0) return __vkcl_quiet_nan_d();
  double r;
  if (a <= 0.5) {
    r = asin_poly_d(a);
  } else {
    const double s = sqrt((1.0 - a) * 0.5);
    r = PIO2_HI_D - (2.0 * asin_poly_d(s) - PIO2_LO_D);
  }
  return copysign(r, x);
}

double VKCL_OVERLOAD acos(double x) {
  if (__vkcl_isnan_d(x)) return x;
  const double a = fabs(x);
  if (a > 1.0) return __vkcl_quiet_nan_d();
  if (a <= 0.5) return PIO2_HI_D - (copysign(asin_poly_d(a), x) - PIO2_LO_D);
  const double s = sqrt((1.0 - a) * 0.5);
  const double twice = 2.0 * asin_poly_d(s);
  return x > 0.0 ? twice : PI_HI_D - (twice - PI_LO_D);
}

static inline double atan2_any_d(double y, double x, int in_pi) {
  if (__vkcl_isnan_d(x) || __vkcl_isnan_d(y)) return x + y;
  const double pi = in_pi ? 1.0 : PI_HI_D + PI_LO_D;
  const double half_pi = in_pi ? 0.5 : PIO2_HI_D + PIO2_LO_D;
  const double quarter_pi = in_pi ? 0.25 : PIO4_HI_D + PIO4_LO_D;
  const int x_negative = as_long(x) < 0;
  const double ax = fabs(x), ay = fabs(y);
  double r;
  if (ay == 0.0) {
    r = x_negative ? pi : 0.0;
  } else if (__vkcl_isinf_d(ay)) {
    r = __vkcl_isinf_d(ax) ? (x_negative ? (in_pi ? 0.75 : THREE_PIO4_D) : quarter_pi) : half_pi;
  } else if (ax == 0.0) {
    r = half_pi;
  } else if (__vkcl_isinf_d(ax)) {
    r = x_negative ? pi : 0.0;
  } else {
    double angle_hi, angle_lo = 0.0;
    if (ay <= ax) {
      angle_hi = atan_positive_d(ay / ax);
    } else {
      angle_hi = PIO2_HI_D;
      angle_lo = PIO2_LO_D - atan_positive_d(ax / ay);
    }
    if (x_negative) {
      angle_hi = PI_HI_D - angle_hi;
      angle_lo = PI_LO_D - angle_lo;
    }
    r = in_pi ? mad(angle_hi, INV_PI_HI_D, mad(angle_hi, INV_PI_LO_D, angle_lo * INV_PI_HI_D)) : angle_hi + angle_lo;
  }
  return copysign(r, y);
}


#endif  // VKCL_FP64

// The wrappers and the *pi variants are written once (inverse_trig.inc).
// atan, asin, acos and atan2 are not: float's select both ranges' results
// without branches and take subnormals and zeros apart on the bits (for
// devices that flush them), double's branch and compare, different steps.
#define VKCL_BODY "math/inverse_trig.inc"
#include "math/vkcl_math_types.inc"

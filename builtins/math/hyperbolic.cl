// sinh, cosh, tanh, asinh, acosh and atanh for float and double, every
// vector width
// (OpenCL: sinh, cosh, asinh, acosh <= 4 ulp; tanh, atanh <= 5).
//
// sinh: |x| < 1 Taylor (x + x^3/3! + ... + x^15/15!); below 88,
// (e - 1/e)/2 with e = exp(|x|); above, e^|x|/2 scaled without overflow.
// cosh: (e + 1/e)/2 likewise. tanh: |x| <= 0.55 x + x^3 H(x^2)
// (polynomials.py "tanh"), then 1 - 2/(exp(2|x|) + 1), then +-1 from 9.1.
// asinh, atanh: x + x^3 P(x^2) for |x| <= 1/2 ("asinh", "atanh"), then
// through log1p or log as fdlibm does; acosh through log1p below 2, log
// above, log(x) + ln2 for huge x.
//
// sinh, cosh, tanh and atanh are written once (hyperbolic.inc), with each
// type's polynomials and thresholds here. asinh and acosh are not: double
// takes fdlibm's log(2a + 1 / (a + sqrt(a^2 + 1))) path from 2 up to 2^28,
// float one log1p path from 1/2 up to 2^12 (see asinh), different steps.

#include "math/vkcl_math.h"

#define LN2_F 0x1.62e43p-1f
// Where e^a / 2 is computed scaled (sinh, cosh), and tanh's polynomial and
// +-1 bounds (1 - tanh(9.1) < 2^-25).
#define SINH_SCALED_F 88.0f
#define TANH_POLY_MAX_F 0.55f
#define TANH_ONE_F 9.1f

// x + x^3/3! + ... + x^15/15!.
static inline float sinh_poly_f(float a) {
  const float z = a * a;
  float p = 0x1.ae7f3ep-41f;
  p = mad(p, z, 0x1.612462p-33f);
  p = mad(p, z, 0x1.ae6456p-26f);
  p = mad(p, z, 0x1.71de3ap-19f);
  p = mad(p, z, 0x1.a01a02p-13f);
  p = mad(p, z, 0x1.111112p-7f);
  p = mad(p, z, 0x1.555556p-3f);
  return mad(a * z, p, a);
}

// H(z) of tanh's x + x^3 H(x^2), P(z) of atanh's x + x^3 P(x^2).
static inline float tanh_poly_f(float z) {
  float h = -0x1.fa3d1cp-11f;
  h = mad(h, z, 0x1.be44c4p-9f);
  h = mad(h, z, -0x1.2136fep-7f);
  h = mad(h, z, 0x1.663f2cp-6f);
  h = mad(h, z, -0x1.ba1b3cp-5f);
  h = mad(h, z, 0x1.11111p-3f);
  h = mad(h, z, -0x1.555556p-2f);
  return h;
}
static inline float atanh_poly_f(float z) {
  float c = 0x1.4392f4p-3f;
  c = mad(c, z, 0x1.3208eep-6f);
  c = mad(c, z, 0x1.684f14p-4f);
  c = mad(c, z, 0x1.6ecd06p-4f);
  c = mad(c, z, 0x1.c779c8p-4f);
  c = mad(c, z, 0x1.2490cep-3f);
  c = mad(c, z, 0x1.99999ep-3f);
  c = mad(c, z, 0x1.555556p-2f);
  return c;
}

// ---------------------------------------------------------------------------
// double: the same method; sinh's Taylor series to x^21, tanh, asinh and
// atanh from polynomials.py's double fits (degrees 12, 13, 15).

#ifdef VKCL_FP64

#define LN2_D 0x1.62e42fefa39efp-1
#define SINH_SCALED_D 709.0
#define TANH_POLY_MAX_D 0.55
#define TANH_ONE_D 22.0

static inline double sinh_poly_d(double a) {
  const double z = a * a;
  double p = 0x1.71b8ef6dcf572p-66;
  p = mad(p, z, 0x1.2f49b46814157p-57);
  p = mad(p, z, 0x1.952c77030ad4ap-49);
  p = mad(p, z, 0x1.ae7f3e733b81fp-41);
  p = mad(p, z, 0x1.6124613a86d09p-33);
  p = mad(p, z, 0x1.ae64567f544e4p-26);
  p = mad(p, z, 0x1.71de3a556c734p-19);
  p = mad(p, z, 0x1.a01a01a01a01ap-13);
  p = mad(p, z, 0x1.1111111111111p-7);
  p = mad(p, z, 0x1.5555555555555p-3);
  return mad(a * z, p, a);
}
static inline double tanh_poly_d(double z) {
  double h = -0x1.93edec43fd5a2p-19;
  h = mad(h, z, 0x1.bfb8722b58696p-17);
  h = mad(h, z, -0x1.3f58d7db175f6p-15);
  h = mad(h, z, 0x1.94e894340e4b0p-14);
  h = mad(h, z, -0x1.f5520c3b9ff15p-13);
  h = mad(h, z, 0x1.3556886ef1283p-11);
  h = mad(h, z, -0x1.7da34f4c64329p-10);
  h = mad(h, z, 0x1.d6d3d028aad5bp-9);
  h = mad(h, z, -0x1.226e355c62325p-7);
  h = mad(h, z, 0x1.664f4882ba306p-6);
  h = mad(h, z, -0x1.ba1ba1ba1b95bp-5);
  h = mad(h, z, 0x1.1111111111111p-3);
  h = mad(h, z, -0x1.5555555555555p-2);
  return h;
}
static inline double atanh_poly_d(double z) {
  double c = 0x1.f44a45827d7dfp-3;
  c = mad(c, z, -0x1.d7fa997960979p-3);
  c = mad(c, z, 0x1.99e9ba7522d12p-3);
  c = mad(c, z, -0x1.d71b6680ef06fp-6);
  c = mad(c, z, 0x1.da1313b6b83fbp-5);
  c = mad(c, z, 0x1.47de315605576p-5);
  c = mad(c, z, 0x1.8a1049c21acd3p-5);
  c = mad(c, z, 0x1.aec0afc8cd3d3p-5);
  c = mad(c, z, 0x1.e1e98b868d42ap-5);
  c = mad(c, z, 0x1.1110dd97402b9p-4);
  c = mad(c, z, 0x1.3b13b3172e8a5p-4);
  c = mad(c, z, 0x1.745d173a8fa8dp-4);
  c = mad(c, z, 0x1.c71c71c7458aap-4);
  c = mad(c, z, 0x1.249249249221dp-3);
  c = mad(c, z, 0x1.999999999999bp-3);
  c = mad(c, z, 0x1.5555555555555p-2);
  return c;
}

#endif  // VKCL_FP64

#define VKCL_BODY "math/hyperbolic.inc"
#include "math/vkcl_math_types.inc"

// ---------------------------------------------------------------------------
// asinh and acosh, each type its own (above).

float VKCL_OVERLOAD asinh(float x) {
  if (!__vkcl_isfinite_f(x)) return x;  // NaN, +-inf
  const float a = fabs(x);
  float r;
  if (a <= 0.5f) {
    const float z = a * a;
    float b = -0x1.d54308p-8f;
    b = mad(b, z, 0x1.f64038p-7f);
    b = mad(b, z, -0x1.69452ap-6f);
    b = mad(b, z, 0x1.f15564p-6f);
    b = mad(b, z, -0x1.6db48ap-5f);
    b = mad(b, z, 0x1.33332ep-4f);
    b = mad(b, z, -0x1.555556p-3f);
    r = mad(a * z, b, a);
  } else if (a < 0x1p12f) {
    // log1p(a + a^2 / (1 + sqrt(1 + a^2))): one path from 1/2 up (fdlibm
    // takes log(2a + 1 / (a + sqrt(a^2 + 1))) from 2, as accurate here; a
    // GPU runs both where arguments on either side share a sub-group).
    const float z = a * a;
    r = log1p(a + z / (1.0f + sqrt(1.0f + z)));
  } else {
    r = log(a) + LN2_F;
  }
  return copysign(r, x);
}

float VKCL_OVERLOAD acosh(float x) {
  if (__vkcl_isnan_f(x)) return x;
  if (x < 1.0f) return __vkcl_quiet_nan_f();
  if (x < 0x1p12f) {  // one path, as for asinh (fdlibm changes at 2)
    const float t = x - 1.0f;  // exact
    return log1p(t + sqrt(mad(2.0f, t, t * t)));
  }
  return log(x) + LN2_F;  // +inf for +inf
}

VKCL_VECTORIZE_1(float, asinh, float)
VKCL_VECTORIZE_1(float, acosh, float)

#ifdef VKCL_FP64

double VKCL_OVERLOAD asinh(double x) {
  if (!__vkcl_isfinite_d(x)) return x;
  const double a = fabs(x);
  double r;
  if (a <= 0.5) {
    const double z = a * a;
  double b = 0x1.3aea190ec9c4cp-10;
  b = mad(b, z, -0x1.c4d1e35fafe2fp-9);
  b = mad(b, z, 0x1.6b898216ec2dep-8);
  b = mad(b, z, -0x1.cf0b87411ad1cp-8);
  b = mad(b, z, 0x1.115bdce54bef0p-7);
  b = mad(b, z, -0x1.3fa631285b5d0p-7);
  b = mad(b, z, 0x1.7a81f729025f6p-7);
  b = mad(b, z, -0x1.c9993672d2f98p-7);
  b = mad(b, z, 0x1.1c4ec2917266dp-6);
  b = mad(b, z, -0x1.6e8ba2d619e4dp-6);
  b = mad(b, z, 0x1.f1c71c716e95ap-6);
  b = mad(b, z, -0x1.6db6db6db66d6p-5);
  b = mad(b, z, 0x1.3333333333330p-4);
  b = mad(b, z, -0x1.5555555555555p-3);
    r = mad(a * z, b, a);
  } else if (a < 2.0) {
    const double z = a * a;
    r = log1p(a + z / (1.0 + sqrt(1.0 + z)));
  } else if (a < 0x1p28) {
    r = log(2.0 * a + 1.0 / (a + sqrt(mad(a, a, 1.0))));
  } else {
    r = log(a) + LN2_D;
  }
  return copysign(r, x);
}

double VKCL_OVERLOAD acosh(double x) {
  if (__vkcl_isnan_d(x)) return x;
  if (x < 1.0) return __vkcl_quiet_nan_d();
  if (x < 2.0) {
    const double t = x - 1.0;
    return log1p(t + sqrt(mad(2.0, t, t * t)));
  }
  if (x < 0x1p28) return log(2.0 * x - 1.0 / (x + sqrt(mad(x, x, -1.0))));
  return log(x) + LN2_D;
}

VKCL_VECTORIZE_1(double, asinh, double)
VKCL_VECTORIZE_1(double, acosh, double)

#endif  // VKCL_FP64

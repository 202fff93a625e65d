// sinh, cosh, tanh, asinh, acosh and atanh for float, every vector width
// (OpenCL: sinh, cosh, asinh, acosh <= 4 ulp; tanh, atanh <= 5).
//
// sinh: |x| < 1 Taylor (x + x^3/3! + ... + x^15/15!); below 88,
// (e - 1/e)/2 with e = exp(|x|); above, e^|x|/2 scaled without overflow.
// cosh: (e + 1/e)/2 likewise. tanh: |x| <= 0.55 x + x^3 H(x^2)
// (polynomials.py "tanh"), then 1 - 2/(exp(2|x|) + 1), then +-1 from 9.1.
// asinh, atanh: x + x^3 P(x^2) for |x| <= 1/2 ("asinh", "atanh"), then
// through log1p or log as fdlibm does; acosh through log1p below 2, log
// above, log(x) + ln2 for huge x.

#include "math/vkcl_math.h"

#define LN2_F 0x1.62e43p-1f

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

float VKCL_OVERLOAD sinh(float x) {
  if (__vkcl_isnan_f(x)) return x;
  const float a = fabs(x);
  float r;
  if (a < 1.0f) {
    r = sinh_poly_f(a);
  } else if (a < 88.0f) {
    const float e = exp(a);
    r = 0.5f * (e - 1.0f / e);
  } else {
    r = __vkcl_exp_scaled_f(a, 1);  // e^a / 2; e^-a is far below its ulp
  }
  return copysign(r, x);
}

float VKCL_OVERLOAD cosh(float x) {
  if (__vkcl_isnan_f(x)) return x;
  const float a = fabs(x);
  if (a < 88.0f) {
    const float e = exp(a);
    return 0.5f * (e + 1.0f / e);
  }
  return __vkcl_exp_scaled_f(a, 1);
}

float VKCL_OVERLOAD tanh(float x) {
  if (__vkcl_isnan_f(x)) return x;
  const float a = fabs(x);
  float r;
  if (a <= 0.55f) {
    const float z = a * a;
    float h = -0x1.fa3d1cp-11f;
    h = mad(h, z, 0x1.be44c4p-9f);
    h = mad(h, z, -0x1.2136fep-7f);
    h = mad(h, z, 0x1.663f2cp-6f);
    h = mad(h, z, -0x1.ba1b3cp-5f);
    h = mad(h, z, 0x1.11111p-3f);
    h = mad(h, z, -0x1.555556p-2f);
    r = mad(a * z, h, a);
  } else if (a < 9.1f) {
    r = 1.0f - 2.0f / (exp(2.0f * a) + 1.0f);
  } else {
    r = 1.0f;  // 1 - tanh(9.1) < 2^-25
  }
  return copysign(r, x);
}

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
  } else if (a < 2.0f) {
    // log1p(a + a^2 / (1 + sqrt(1 + a^2)))
    const float z = a * a;
    r = log1p(a + z / (1.0f + sqrt(1.0f + z)));
  } else if (a < 0x1p12f) {
    // log(2a + 1 / (a + sqrt(a^2 + 1)))
    r = log(2.0f * a + 1.0f / (a + sqrt(mad(a, a, 1.0f))));
  } else {
    r = log(a) + LN2_F;
  }
  return copysign(r, x);
}

float VKCL_OVERLOAD acosh(float x) {
  if (__vkcl_isnan_f(x)) return x;
  if (x < 1.0f) return __vkcl_quiet_nan_f();
  if (x < 2.0f) {
    const float t = x - 1.0f;  // exact
    return log1p(t + sqrt(mad(2.0f, t, t * t)));
  }
  if (x < 0x1p12f) return log(2.0f * x - 1.0f / (x + sqrt(mad(x, x, -1.0f))));
  return log(x) + LN2_F;  // +inf for +inf
}

float VKCL_OVERLOAD atanh(float x) {
  if (__vkcl_isnan_f(x)) return x;
  const float a = fabs(x);
  if (a > 1.0f) return __vkcl_quiet_nan_f();
  float r;
  if (a <= 0.5f) {
    const float z = a * a;
    float c = 0x1.4392f4p-3f;
    c = mad(c, z, 0x1.3208eep-6f);
    c = mad(c, z, 0x1.684f14p-4f);
    c = mad(c, z, 0x1.6ecd06p-4f);
    c = mad(c, z, 0x1.c779c8p-4f);
    c = mad(c, z, 0x1.2490cep-3f);
    c = mad(c, z, 0x1.99999ep-3f);
    c = mad(c, z, 0x1.555556p-2f);
    r = mad(a * z, c, a);
  } else {
    r = 0.5f * log1p(2.0f * a / (1.0f - a));  // 1 - a is exact; a = 1 gives +inf
  }
  return copysign(r, x);
}

VKCL_VECTORIZE_1(float, sinh, float)
VKCL_VECTORIZE_1(float, cosh, float)
VKCL_VECTORIZE_1(float, tanh, float)
VKCL_VECTORIZE_1(float, asinh, float)
VKCL_VECTORIZE_1(float, acosh, float)
VKCL_VECTORIZE_1(float, atanh, float)

// exp, exp2, exp10 and expm1 for float and double, every vector width
// (OpenCL: <= 3 ulp each), and the scaled and extended exponentials that
// hyperbolic.cl, pow.cl and special.cl share.
// Vulkan's GLSL.std.450 Exp is only 3 + 2|x| ulp (up to about 180), so it
// is not used.
//
// Method (as fdlibm's): x = n * ln2 + r with |r| <= ln2 / 2, n an integer;
// the reduction subtracts n * ln2 in two pieces (Cody and Waite), the first
// with 12 significant bits so that n * piece is exact and the difference
// with x is exact too; e^r is a Taylor polynomial whose truncation error is
// below 2^-27; the result is e^r * 2^n, scaled in at most two exact steps
// and one rounding (subnormal results included). exp2 and exp10 reduce by
// 1 and log10(2) and evaluate 2^r and 10^r by their own Taylor series.
// expm1 uses the series of e^r - 1 directly near 0 (|x| < 0.7), where
// e^x - 1 would cancel, and 2^n * expm1(r) + (2^n - 1) elsewhere.
// Measured worst cases on lavapipe are in tests/host/math_builtins_test.cpp's
// output.

#include "math/vkcl_math.h"

// ln(2), log10(2) as a 12-bit head and a tail.
#define LN2_HI_F 0x1.62ep-1f
#define LN2_LO_F 0x1.0bfbe8p-15f
#define LOG10_2_HI_F 0x1.344p-2f
#define LOG10_2_LO_F 0x1.3509f8p-18f
#define LOG2E_F 0x1.715476p+0f
#define LOG2_10_F 0x1.a934fp+1f
// expm1: above EXPM1_INF infinity, below EXPM1_MINUS_ONE -1 (e^x < 2^-25),
// below EXPM1_TINY in magnitude x itself (x^2/2 is below half an ulp),
// below EXPM1_POLY_MAX the polynomial alone.
#define EXPM1_INF_F 100.0f
#define EXPM1_MINUS_ONE_F -17.5f
#define EXPM1_TINY_F 0x1p-24f
#define EXPM1_POLY_MAX_F 0.7f

// p * 2^n for p in [0.5, 2] and any n: one rounding at most, infinity past
// the largest float, zero far below the smallest. Two factors, both normal
// powers of two: the first keeps p normal and exact (or overflows, where
// the result does too), the second rounds once. No branches: this is in
// every exponential's path, and a GPU pays for each branch.
float __vkcl_scale_f(float p, int n) {
  const int first = clamp(n, -100, 127);
  const int second = clamp(n - first, -126, 127);
  return (p * __vkcl_pow2_f(first)) * __vkcl_pow2_f(second);
}

// e^r for |r| <= 0.35: Taylor to r^7 (truncation below 2^-27 relative).
static inline float exp_poly_f(float r) {
  float p = 0x1.a01a02p-13f;
  p = mad(p, r, 0x1.6c16c2p-10f);
  p = mad(p, r, 0x1.111112p-7f);
  p = mad(p, r, 0x1.555556p-5f);
  p = mad(p, r, 0x1.555556p-3f);
  p = mad(p, r, 0x1.0p-1f);
  p = mad(p, r, 1.0f);
  return mad(p, r, 1.0f);
}

// An exponential's result for x, computed on x clamped to the range where
// it is neither 0 nor infinite: there `result`, above it infinity, below it
// 0; NaN stays NaN.
static inline float clamped_exp_result_f(float x, float clamped, float result) {
  const float outside = x > clamped ? as_float(VKCL_FLOAT_INF) : 0.0f;
  return __vkcl_isnan_f(x) ? x : (x == clamped ? result : outside);
}

// e^x * 2^-k without overflowing before the scaling (sinh and cosh near
// the top of the range use k = 1); NaN stays NaN. Computed for x clamped to
// the range where the result is neither 0 nor infinite, then selected.
float __vkcl_exp_scaled_f(float x, int k) {
  const float clamped = clamp(x, -104.0f, 100.0f);
  const float n = rint(clamped * LOG2E_F);
  const float r = (clamped - n * LN2_HI_F) - n * LN2_LO_F;
  const float result = __vkcl_scale_f(exp_poly_f(r), (int)n - k);
  return clamped_exp_result_f(x, clamped, result);
}

float VKCL_OVERLOAD exp(float x) { return __vkcl_exp_scaled_f(x, 0); }

static inline float exp2_poly_f(float r);

float VKCL_OVERLOAD exp2(float x) {
  const float clamped = clamp(x, -151.0f, 130.0f);
  const float n = rint(clamped);
  const float result = __vkcl_scale_f(exp2_poly_f(clamped - n), (int)n);  // exact difference, |x - n| <= 1/2
  return clamped_exp_result_f(x, clamped, result);
}

// 2^r for |r| <= 1/2 (and a little more): sum (r ln2)^k / k!, to k = 8.
static inline float exp2_poly_f(float r) {
  float p = 0x1.62c022p-20f;
  p = mad(p, r, 0x1.ffcbfcp-17f);
  p = mad(p, r, 0x1.430912p-13f);
  p = mad(p, r, 0x1.5d87fep-10f);
  p = mad(p, r, 0x1.3b2ab6p-7f);
  p = mad(p, r, 0x1.c6b08ep-5f);
  p = mad(p, r, 0x1.ebfbep-3f);
  p = mad(p, r, 0x1.62e43p-1f);
  return mad(p, r, 1.0f);
}

// 2^(hi + lo) for |lo| tiny next to hi, for pow: hi's fraction and lo
// together as the argument of the exp2 polynomial.
float __vkcl_exp2_extended_f(float hi, float lo) {
  const float clamped = clamp(hi, -151.0f, 130.0f);
  const float n = rint(clamped);
  const float r = (clamped - n) + lo;  // clamped - n is exact
  const float result = __vkcl_scale_f(exp2_poly_f(r), (int)n);
  return clamped_exp_result_f(hi, clamped, result);
}

float VKCL_OVERLOAD exp10(float x) {
  const float clamped = clamp(x, -46.0f, 40.0f);
  const float n = rint(clamped * LOG2_10_F);
  const float r = (clamped - n * LOG10_2_HI_F) - n * LOG10_2_LO_F;  // |r| <= log10(2) / 2
  // 10^r = sum (r ln10)^k / k!, to k = 8.
  float p = 0x1.4116bp-6f;
  p = mad(p, r, 0x1.16e4ep-4f);
  p = mad(p, r, 0x1.a7ed7p-3f);
  p = mad(p, r, 0x1.142ap-1f);
  p = mad(p, r, 0x1.2bd76p+0f);
  p = mad(p, r, 0x1.04705ap+1f);
  p = mad(p, r, 0x1.53524cp+1f);
  p = mad(p, r, 0x1.26bb1cp+1f);
  p = mad(p, r, 1.0f);
  const float result = __vkcl_scale_f(p, (int)n);
  return clamped_exp_result_f(x, clamped, result);
}

// e^r - 1 for |r| <= 0.7: r + r^2 * (1/2 + r/6 + ... + r^8/10!).
static inline float expm1_poly_f(float r) {
  float p = 0x1.27e4fcp-22f;
  p = mad(p, r, 0x1.71de3ap-19f);
  p = mad(p, r, 0x1.a01a02p-16f);
  p = mad(p, r, 0x1.a01a02p-13f);
  p = mad(p, r, 0x1.6c16c2p-10f);
  p = mad(p, r, 0x1.111112p-7f);
  p = mad(p, r, 0x1.555556p-5f);
  p = mad(p, r, 0x1.555556p-3f);
  p = mad(p, r, 0x1.0p-1f);
  return mad(r * r, p, r);
}


// ---------------------------------------------------------------------------
// double: the same method; ln2 and log10(2) heads have 32 bits (n has at most
// 11), and the Taylor polynomials reach r^13 or r^14 (truncation below
// 2^-57).

#ifdef VKCL_FP64

#define LN2_HI_D 0x1.62e42feep-1
#define LN2_LO_D 0x1.a39ef35793c76p-33
#define LOG10_2_HI_D 0x1.34413508p-2
#define LOG10_2_LO_D 0x1.f79fef311f12bp-34
#define LOG2E_D 0x1.71547652b82fep+0
#define LOG2_10_D 0x1.a934f0979a371p+1
#define EXPM1_INF_D 720.0
#define EXPM1_MINUS_ONE_D -38.0  // e^x < 2^-54
#define EXPM1_TINY_D 0x1p-54
#define EXPM1_POLY_MAX_D 0.7

double __vkcl_scale_d(double p, int n) {
  if (n > 1023) {
    p *= 0x1p1023;
    n = min(n - 1023, 1023);
  } else if (n < -1022) {
    p *= 0x1p-1000;
    n = max(n + 1000, -1022);
  }
  return p * __vkcl_pow2_d(n);
}

// e^r for |r| <= 0.35: Taylor to r^13.
static inline double exp_poly_d(double r) {
  double p = 0x1.6124613a86d09p-33;
  p = mad(p, r, 0x1.1eed8eff8d898p-29);
  p = mad(p, r, 0x1.ae64567f544e4p-26);
  p = mad(p, r, 0x1.27e4fb7789f5cp-22);
  p = mad(p, r, 0x1.71de3a556c734p-19);
  p = mad(p, r, 0x1.a01a01a01a01ap-16);
  p = mad(p, r, 0x1.a01a01a01a01ap-13);
  p = mad(p, r, 0x1.6c16c16c16c17p-10);
  p = mad(p, r, 0x1.1111111111111p-7);
  p = mad(p, r, 0x1.5555555555555p-5);
  p = mad(p, r, 0x1.5555555555555p-3);
  p = mad(p, r, 0x1.0p-1);
  p = mad(p, r, 1.0);
  return mad(p, r, 1.0);
}

double __vkcl_exp_scaled_d(double x, int k) {
  if (x > 720.0) return as_double(VKCL_DOUBLE_INF);
  if (x < -750.0) return 0.0;
  const double n = rint(x * LOG2E_D);
  const double r = (x - n * LN2_HI_D) - n * LN2_LO_D;
  return __vkcl_scale_d(exp_poly_d(r), (int)n - k);
}

double VKCL_OVERLOAD exp(double x) {
  if (__vkcl_isnan_d(x)) return x;
  return __vkcl_exp_scaled_d(x, 0);
}

// 2^r for |r| <= 1/2 (and a little more): sum (r ln2)^k / k!, to k = 14.
static inline double exp2_poly_d(double r) {
  double p = 0x1.314964d5878a9p-44;
  p = mad(p, r, 0x1.816193166d0f9p-40);
  p = mad(p, r, 0x1.c3bd650fc2986p-36);
  p = mad(p, r, 0x1.e8cac7351bb25p-32);
  p = mad(p, r, 0x1.e4cf5158b8ecap-28);
  p = mad(p, r, 0x1.b5253d395e7c4p-24);
  p = mad(p, r, 0x1.62c0223a5c824p-20);
  p = mad(p, r, 0x1.ffcbfc588b0c7p-17);
  p = mad(p, r, 0x1.430912f86c787p-13);
  p = mad(p, r, 0x1.5d87fe78a6731p-10);
  p = mad(p, r, 0x1.3b2ab6fba4e77p-7);
  p = mad(p, r, 0x1.c6b08d704a0cp-5);
  p = mad(p, r, 0x1.ebfbdff82c58fp-3);
  p = mad(p, r, 0x1.62e42fefa39efp-1);
  return mad(p, r, 1.0);
}

double VKCL_OVERLOAD exp2(double x) {
  if (__vkcl_isnan_d(x)) return x;
  if (x > 1030.0) return as_double(VKCL_DOUBLE_INF);
  if (x < -1080.0) return 0.0;
  const double n = rint(x);
  return __vkcl_scale_d(exp2_poly_d(x - n), (int)n);
}

double __vkcl_exp2_extended_d(double hi, double lo) {
  if (__vkcl_isnan_d(hi)) return hi;
  if (hi > 1030.0) return as_double(VKCL_DOUBLE_INF);
  if (hi < -1080.0) return 0.0;
  const double n = rint(hi);
  return __vkcl_scale_d(exp2_poly_d((hi - n) + lo), (int)n);
}

double VKCL_OVERLOAD exp10(double x) {
  if (__vkcl_isnan_d(x)) return x;
  if (x > 310.0) return as_double(VKCL_DOUBLE_INF);
  if (x < -330.0) return 0.0;
  const double n = rint(x * LOG2_10_D);
  const double r = (x - n * LOG10_2_HI_D) - n * LOG10_2_LO_D;
  // 10^r = sum (r ln10)^k / k!, to k = 14.
  double p = 0x1.6a9e984b8a6bfp-20;
  p = mad(p, r, 0x1.1398ad2c41708p-17);
  p = mad(p, r, 0x1.84fe12df80be4p-15);
  p = mad(p, r, 0x1.facfd5d909d64p-13);
  p = mad(p, r, 0x1.2ea52b2d182afp-10);
  p = mad(p, r, 0x1.4897c45d93d42p-8);
  p = mad(p, r, 0x1.4116b05fdaa5dp-6);
  p = mad(p, r, 0x1.16e4dfc333a87p-4);
  p = mad(p, r, 0x1.a7ed70847c8b6p-3);
  p = mad(p, r, 0x1.1429ffd1d4d76p-1);
  p = mad(p, r, 0x1.2bd7609fd98c4p+0);
  p = mad(p, r, 0x1.0470591de2ca4p+1);
  p = mad(p, r, 0x1.53524c73cea69p+1);
  p = mad(p, r, 0x1.26bb1bbb55516p+1);
  p = mad(p, r, 1.0);
  return __vkcl_scale_d(p, (int)n);
}

// e^r - 1 for |r| <= 0.7: r + r^2 (1/2! + r/3! + ... + r^15/17!).
static inline double expm1_poly_d(double r) {
  double p = 0x1.952c77030ad4ap-49;
  p = mad(p, r, 0x1.ae7f3e733b81fp-45);
  p = mad(p, r, 0x1.ae7f3e733b81fp-41);
  p = mad(p, r, 0x1.93974a8c07c9dp-37);
  p = mad(p, r, 0x1.6124613a86d09p-33);
  p = mad(p, r, 0x1.1eed8eff8d898p-29);
  p = mad(p, r, 0x1.ae64567f544e4p-26);
  p = mad(p, r, 0x1.27e4fb7789f5cp-22);
  p = mad(p, r, 0x1.71de3a556c734p-19);
  p = mad(p, r, 0x1.a01a01a01a01ap-16);
  p = mad(p, r, 0x1.a01a01a01a01ap-13);
  p = mad(p, r, 0x1.6c16c16c16c17p-10);
  p = mad(p, r, 0x1.1111111111111p-7);
  p = mad(p, r, 0x1.5555555555555p-5);
  p = mad(p, r, 0x1.5555555555555p-3);
  p = mad(p, r, 0x1.0p-1);
  return mad(r * r, p, r);
}


#endif  // VKCL_FP64

// expm1 is written once (exp.inc); exp, exp2, exp10 and the scaled and
// extended forms are not: float's compute on x clamped to the finite range
// and select the result without branches, double's branch on the range
// first and scale in __vkcl_scale_d with branches, different steps.
#define VKCL_BODY "math/exp.inc"
#include "math/vkcl_math_types.inc"

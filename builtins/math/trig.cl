// sin, cos, tan, sincos, sinpi, cospi, tanpi for float and double and
// half_sin, half_cos, half_tan for float, every vector width (OpenCL: sin, cos, sincos, sinpi,
// cospi <= 4 ulp; tan <= 5; tanpi <= 6; half_ <= 8192: the same functions).
// Vulkan's GLSL.std.450 Sin is only absolute-2^-11 accurate, and only in
// [-pi, pi]: not used.
//
// Argument reduction is exact for every float (Payne and Hanek, in 32-bit
// integers): |x| = m * 2^e with m a 24-bit integer; the 96 bits of 2/pi
// that matter for this e (those that make x * 2/pi's last two integer bits
// and 62 bits of its fraction; the bits before them give multiples of 4)
// times m is a 120-bit product, whose top bits are the quadrant and the
// rest the remainder, rounded to the nearest quadrant and multiplied by
// pi/2 as a head and tail (Dekker). sin and cos of the reduced r in
// [-pi/4, pi/4] are Taylor polynomials (truncation below 2^-28), tan is
// r + r^3 T(r^2) (builtins/math/polynomials.py "tan", 1.9e-9) and -1/tan in
// odd quadrants; the tail of r enters to first order. sinpi, cospi and
// tanpi reduce exactly in floating point (x - n/2 for the nearest half
// integer) and multiply by pi as a head and tail.

#include "math/vkcl_math.h"

#define PIO2_HI_F 0x1.921fb6p+0f
#define PIO2_LO_F -0x1.777a5cp-25f
#define PI_HI_F 0x1.921fb6p+1f
#define PI_LO_F -0x1.777a5cp-24f
// Below these sin(x) and tan(x) are x: x^3/6, x^3/3 are below half an ulp.
#define SIN_TINY_F 0x1p-12f
#define TAN_TINY_F 0x1p-13f

// Word i of the bits of 2/pi after the binary point, after two words of
// zeros. (A chain of selects rather than a __constant table: program-scope
// constants need a lowering of their own.)
static inline uint two_over_pi_word(int i) {
  uint w = 0u;
  w = i == 2 ? 0xa2f9836eu : w;
  w = i == 3 ? 0x4e441529u : w;
  w = i == 4 ? 0xfc2757d1u : w;
  w = i == 5 ? 0xf534ddc0u : w;
  w = i == 6 ? 0xdb629599u : w;
  w = i == 7 ? 0x3c439041u : w;
  w = i == 8 ? 0xfe5163abu : w;
  w = i == 9 ? 0xdebbc561u : w;
  return w;
}

// 32 bits of the table starting at bit `q` (0 = the first bit of word 0).
static inline uint bits_at(int q) {
  const int word = q >> 5, offset = q & 31;
  const uint first = two_over_pi_word(word), second = two_over_pi_word(word + 1);
  return offset == 0 ? first : (first << offset) | (second >> (32 - offset));
}

// |x| >= pi/4, finite: x = quadrant * pi/2 + (*hi + *lo), |hi + lo| <= pi/4.
static inline int reduce_large_f(float x, float* hi, float* lo) {
  const uint bits = as_uint(x) & VKCL_FLOAT_ABS;
  const uint m = (bits & 0x7fffffu) | 0x800000u;  // |x| >= pi/4 is normal
  const int e = (int)(bits >> 23) - 150;            // |x| = m * 2^e
  // The 96 bits of 2/pi from bit e - 2 after the point: m * W * 2^-94 = x * 2/pi mod 4.
  const int q = e - 2 + 64;
  const uint w2 = bits_at(q), w1 = bits_at(q + 32), w0 = bits_at(q + 64);
  const uint p0 = m * w0;
  const uint p1a = mul_hi(m, w0), p1b = m * w1;
  const uint p1 = p1a + p1b;
  const uint c1 = p1 < p1a ? 1u : 0u;
  const uint p2a = mul_hi(m, w1), p2b = m * w2;
  const uint p2 = p2a + p2b + c1;  // the product's bits 64..95 (bits 94, 95: quadrant mod 4)
  int quadrant = (int)(p2 >> 30);
  // The fraction's top 64 bits (product bits 93..30).
  uint u_hi = (p2 << 2) | (p1 >> 30), u_lo = (p1 << 2) | (p0 >> 30);
  float sign = 1.0f;
  if (u_hi & 0x80000000u) {  // fraction >= 1/2: to the next quadrant, negative remainder
    ++quadrant;
    u_lo = ~u_lo + 1u;
    u_hi = ~u_hi + (u_lo == 0 ? 1u : 0u);
    sign = -1.0f;
  }
  // Normalize and convert: 48 significant bits as two floats.
  int shift = u_hi != 0 ? (int)clz(u_hi) : 32 + (int)clz(u_lo);
  if (shift >= 32) {
    u_hi = u_lo;
    u_lo = 0;
    shift -= 32;
  }
  if (shift > 0) {
    u_hi = (u_hi << shift) | (u_lo >> (32 - shift));
    u_lo <<= shift;
  }
  const float f_hi = (float)(u_hi >> 8) * __vkcl_pow2_f(-24 - shift);
  const float f_lo = (float)(((u_hi & 0xffu) << 16) | (u_lo >> 16)) * __vkcl_pow2_f(-48 - shift);
  // r = (f_hi + f_lo) * pi/2.
  float error;
  const float p = __vkcl_two_product_f(f_hi, PIO2_HI_F, &error);
  const float tail = error + (f_hi * PIO2_LO_F + f_lo * PIO2_HI_F);
  float r_lo;
  const float r_hi = __vkcl_fast_two_sum_f(p, tail, &r_lo);
  *hi = sign * r_hi;
  *lo = sign * r_lo;
  if (as_int(x) < 0) {
    *hi = -*hi;
    *lo = -*lo;
    quadrant = -quadrant;
  }
  return quadrant & 3;
}

// pi/4 <= |x| <= 2^7 pi/2 (0x1.921f00p+7): the Cody-Waite reduction of
// fdlibm's float __ieee754_rem_pio2f. pi/2 is split into pieces whose low
// bits are zero, so n times each piece is exact for n < 2^7; a second and a
// third piece are subtracted only when the first leaves cancellation (the
// result's exponent 8 or 25 below x's), giving hi + lo to 40, 57 or 74 bits.
// The Payne-Hanek path above gives the same quadrant and a remainder as
// accurate, at several times the cost (three words of 2/pi through chains of
// selects, a 120-bit product, a normalization); arguments this small are the
// common case, as in the corpus's math_trig ([-10, 10]). Measured on lavapipe
// over 2.2M arguments in this range, the floats nearest multiples of pi/2
// among them: sin 0.88 ulp, cos 0.83, tan 2.37 (bounds 4, 4, 5).
#define PIO2_1_F 0x1.921f00p+0f   /* the first 17 bits of pi/2 */
#define PIO2_1T_F 0x1.6a8886p-17f /* pi/2 - PIO2_1_F */
#define PIO2_2_F 0x1.6a8800p-17f  /* the next 17 bits */
#define PIO2_2T_F 0x1.0b4610p-34f /* pi/2 - PIO2_1_F - PIO2_2_F */
#define PIO2_3_F 0x1.0b4600p-34f  /* the next 17 bits */
#define PIO2_3T_F 0x1.1a6264p-54f /* pi/2 - PIO2_1_F - PIO2_2_F - PIO2_3_F */
static inline int reduce_medium_f(float x, float* hi, float* lo) {
  const float t = fabs(x);
  const int n = (int)mad(t, 0x1.45f306p-1f, 0.5f);  // nearest to |x| 2/pi (mad: either rounding picks a valid n)
  const float fn = (float)n;
  float r = t - fn * PIO2_1_F;  // exact
  float w = fn * PIO2_1T_F;
  float y = r - w;
  const int exponent = (int)(as_uint(t) >> 23);
  if (exponent - (int)((as_uint(y) >> 23) & 0xffu) > 8) {  // cancellation: the next 17 bits
    float u = r;
    w = fn * PIO2_2_F;
    r = u - w;
    w = fn * PIO2_2T_F - ((u - r) - w);
    y = r - w;
    if (exponent - (int)((as_uint(y) >> 23) & 0xffu) > 25) {
      u = r;
      w = fn * PIO2_3_F;
      r = u - w;
      w = fn * PIO2_3T_F - ((u - r) - w);
      y = r - w;
    }
  }
  const float y_lo = (r - y) - w;
  if (as_int(x) < 0) {
    *hi = -y;
    *lo = -y_lo;
    return -n & 3;
  }
  *hi = y;
  *lo = y_lo;
  return n & 3;
}

// Arguments below pi/4 take the medium reduction too (n = 0 leaves hi = x
// and lo = 0, exactly), so that most arguments share one path; Payne-Hanek
// (also what infinities and NaNs reach, to no effect) is a branch of its own.
static inline int reduce_f(float x, float* hi, float* lo) {
  if (fabs(x) <= 0x1.921f00p+7f) return reduce_medium_f(x, hi, lo);
  return reduce_large_f(x, hi, lo);
}

// sin(r + lo) and cos(r + lo) for |r| <= pi/4 and |lo| tiny next to r.
static inline float sin_poly_f(float r, float lo) {
  const float z = r * r;
  float s = -0x1.ae6456p-26f;
  s = mad(s, z, 0x1.71de3ap-19f);
  s = mad(s, z, -0x1.a01a02p-13f);
  s = mad(s, z, 0x1.111112p-7f);
  s = mad(s, z, -0x1.555556p-3f);
  return r + (mad(r * z, s, lo));
}

static inline float cos_poly_f(float r, float lo) {
  const float z = r * r;
  float c = 0x1.1eed8ep-29f;
  c = mad(c, z, -0x1.27e4fcp-22f);
  c = mad(c, z, 0x1.a01a02p-16f);
  c = mad(c, z, -0x1.6c16c2p-10f);
  c = mad(c, z, 0x1.555556p-5f);
  const float half_z = 0.5f * z;
  const float w = 1.0f - half_z;
  // 1 - z/2 + z^2 c, with the rounding of 1 - z/2 added back (fdlibm).
  return w + (((1.0f - w) - half_z) + mad(z * z, c, -r * lo));
}

// tan(r + lo) for |r| <= pi/4, or -1/tan(r + lo) when `odd`.
static inline float tan_poly_f(float r, float lo, int odd) {
  const float z = r * r;
  float t = 0x1.d50a9ep-10f;
  t = mad(t, z, 0x1.27efb6p-35f);
  t = mad(t, z, 0x1.22047ap-8f);
  t = mad(t, z, 0x1.1a1b9ep-7f);
  t = mad(t, z, 0x1.66fc0ap-6f);
  t = mad(t, z, 0x1.ba14d8p-5f);
  t = mad(t, z, 0x1.11111ep-3f);
  t = mad(t, z, 0x1.555556p-2f);
  const float tan_r = r + mad(r * z, t, 0.0f);
  const float result = tan_r + (1.0f + tan_r * tan_r) * lo;
  return odd ? -1.0f / result : result;
}

// x = n/2 + r with n = rint(2x), |r| <= 1/4, exactly; pi * r as hi + lo;
// returns n mod 4. From 2^24 on every float is an even integer.
// Below 2^-90, pi x (the result of sinpi and tanpi there, to far below an
// ulp) is computed on x * 2^64 and scaled back, as hi alone: Dekker's exact
// product splits x into halves whose lower one, and the product's error, are
// subnormal for |x| below about 2^-100, and a device that flushes float
// subnormals (NVIDIA's; vkcl_math.h) drops them (sinpi(0x1.5d69a8p-114) was
// 945 ulp off, tgamma through sinpi 879). x * 2^64 itself is exact, a
// subnormal x included (__vkcl_scale_up_f).
static inline int reduce_pi_f(float x, float* hi, float* lo) {
  const uint magnitude = as_uint(x) & VKCL_FLOAT_ABS;
  if (magnitude - 0x12800000u >= 0x4b800000u - 0x12800000u) {  // outside [2^-90, 2^24)
    *lo = 0.0f;
    if (magnitude >= 0x4b800000u) {
      *hi = 0.0f;
      return 0;
    }
    const float scaled = __vkcl_scale_up_f(x, 64);
    float error;
    const float p = __vkcl_two_product_f(scaled, PI_HI_F, &error);
    *hi = (p + mad(scaled, PI_LO_F, error)) * 0x1p-64f;
    return 0;
  }
  const float n = rint(2.0f * x);
  const float r = x - 0.5f * n;  // exact
  float error;
  const float p = __vkcl_two_product_f(r, PI_HI_F, &error);
  *hi = __vkcl_fast_two_sum_f(p, mad(r, PI_LO_F, error), lo);
  return (int)n & 3;
}


// ---------------------------------------------------------------------------
// double: the same method in 64-bit words. |x| = m * 2^e with m a 53-bit
// integer; 192 bits of 2/pi from bit e - 2 after the point (a table of 19
// words, after a word of zeros) times m; the quadrant is the product's bits
// 190 and 191 and the remainder the 128 bits below, about 66 of which are
// significant at worst (no double is closer than about 2^-61 to a multiple
// of pi/2). Taylor polynomials to r^17 (sin) and r^18 (cos) on [-pi/4, pi/4]
// (truncation below 2^-60); tan's fit is polynomials.py's "tan" for double
// at degree 15.

#ifdef VKCL_FP64

#define PIO2_HI_D 0x1.921fb54442d18p+0
#define PIO2_LO_D 0x1.1a62633145c07p-54
#define PI_HI_D 0x1.921fb54442d18p+1
#define PI_LO_D 0x1.1a62633145c07p-53
#define SIN_TINY_D 0x1p-27
#define TAN_TINY_D 0x1p-28

// Word i of the bits of 2/pi after the binary point, after one word of zeros.
static inline ulong two_over_pi_word_d(int i) {
  ulong w = 0ul;
  w = i == 1 ? 0xa2f9836e4e441529ul : w;
  w = i == 2 ? 0xfc2757d1f534ddc0ul : w;
  w = i == 3 ? 0xdb6295993c439041ul : w;
  w = i == 4 ? 0xfe5163abdebbc561ul : w;
  w = i == 5 ? 0xb7246e3a424dd2e0ul : w;
  w = i == 6 ? 0x06492eea09d1921cul : w;
  w = i == 7 ? 0xfe1deb1cb129a73eul : w;
  w = i == 8 ? 0xe88235f52ebb4484ul : w;
  w = i == 9 ? 0xe99c7026b45f7e41ul : w;
  w = i == 10 ? 0x3991d639835339f4ul : w;
  w = i == 11 ? 0x9c845f8bbdf9283bul : w;
  w = i == 12 ? 0x1ff897ffde05980ful : w;
  w = i == 13 ? 0xef2f118b5a0a6d1ful : w;
  w = i == 14 ? 0x6d367ecf27cb09b7ul : w;
  w = i == 15 ? 0x4f463f669e5fea2dul : w;
  w = i == 16 ? 0x7527bac7ebe5f17bul : w;
  w = i == 17 ? 0x3d0739f78a5292eaul : w;
  w = i == 18 ? 0x6bfb5fb11f8d5d08ul : w;
  w = i == 19 ? 0x56033046fc7b6babul : w;
  return w;
}

// 64 bits of the table starting at bit q.
static inline ulong bits_at_d(int q) {
  const int word = q >> 6, offset = q & 63;
  const ulong first = two_over_pi_word_d(word), second = two_over_pi_word_d(word + 1);
  return offset == 0 ? first : (first << offset) | (second >> (64 - offset));
}

// |x| >= pi/4, finite: x = quadrant * pi/2 + (*hi + *lo).
static inline int reduce_large_d(double x, double* hi, double* lo) {
  const ulong bits = as_ulong(x) & VKCL_DOUBLE_ABS;
  const ulong m = (bits & 0x000ffffffffffffful) | 0x0010000000000000ul;
  const int e = (int)(bits >> 52) - 1075;  // |x| = m * 2^e
  // x * 2/pi mod 4 = m * W * 2^-190 with W the 192 table bits from bit q.
  const int q = e + 62;
  const ulong w2 = bits_at_d(q), w1 = bits_at_d(q + 64), w0 = bits_at_d(q + 128);
  const ulong p0 = m * w0;
  const ulong p1a = mul_hi(m, w0), p1b = m * w1;
  const ulong p1 = p1a + p1b;
  const ulong c1 = p1 < p1a ? 1ul : 0ul;
  const ulong p2 = mul_hi(m, w1) + m * w2 + c1;  // bits 128..191
  int quadrant = (int)(p2 >> 62);
  ulong u_hi = (p2 << 2) | (p1 >> 62), u_lo = (p1 << 2) | (p0 >> 62);  // fraction bits 189..62
  double sign = 1.0;
  if (u_hi & 0x8000000000000000ul) {
    ++quadrant;
    u_lo = ~u_lo + 1ul;
    u_hi = ~u_hi + (u_lo == 0 ? 1ul : 0ul);
    sign = -1.0;
  }
  int shift = u_hi != 0 ? (int)clz(u_hi) : 64 + (int)clz(u_lo);
  if (shift >= 64) {
    u_hi = u_lo;
    u_lo = 0;
    shift -= 64;
  }
  if (shift > 0) {
    u_hi = (u_hi << shift) | (u_lo >> (64 - shift));
    u_lo <<= shift;
  }
  const double f_hi = (double)(u_hi >> 11) * __vkcl_pow2_d(-53 - shift);
  const double f_lo = (double)(((u_hi & 0x7fful) << 42) | (u_lo >> 22)) * __vkcl_pow2_d(-106 - shift);
  double error;
  const double p = __vkcl_two_product_d(f_hi, PIO2_HI_D, &error);
  const double tail = error + (f_hi * PIO2_LO_D + f_lo * PIO2_HI_D);
  double r_lo;
  const double r_hi = __vkcl_fast_two_sum_d(p, tail, &r_lo);
  *hi = sign * r_hi;
  *lo = sign * r_lo;
  if (as_long(x) < 0) {
    *hi = -*hi;
    *lo = -*lo;
    quadrant = -quadrant;
  }
  return quadrant & 3;
}

// |x| <= 2^19 pi/2: fdlibm's __ieee754_rem_pio2, as reduce_medium_f for
// float. pi/2 in pieces of 33 bits (n < 2^20, so n times a piece is exact);
// the second and third pieces only where the first leaves cancellation (16
// or 49 bits), giving hi + lo to 85, 118 or 151 bits. Payne-Hanek's 64-bit
// integer products cost GPUs many times as much, and arguments this small
// are the common case.
#define PIO2_1_D 0x1.921fb544p+0       /* the first 33 bits of pi/2 */
#define PIO2_1T_D 0x1.0b4611a626331p-34 /* pi/2 - PIO2_1_D */
#define PIO2_2_D 0x1.0b4611a6p-34      /* the next 33 bits */
#define PIO2_2T_D 0x1.3198a2e037073p-69 /* pi/2 - PIO2_1_D - PIO2_2_D */
#define PIO2_3_D 0x1.3198a2ep-69       /* the next 33 bits */
#define PIO2_3T_D 0x1.b839a252049c1p-104 /* pi/2 - PIO2_1_D - PIO2_2_D - PIO2_3_D */
static inline int reduce_medium_d(double x, double* hi, double* lo) {
  const double t = fabs(x);
  const int n = (int)(t * 0x1.45f306dc9c883p-1 + 0.5);  // nearest to |x| 2/pi (either rounding is a valid n)
  const double fn = (double)n;
  double r = t - fn * PIO2_1_D;  // exact
  double w = fn * PIO2_1T_D;
  double y = r - w;
  const int exponent = (int)(as_ulong(t) >> 52);
  if (exponent - (int)((as_ulong(y) >> 52) & 0x7ffu) > 16) {  // cancellation: the next 33 bits
    double u = r;
    w = fn * PIO2_2_D;
    r = u - w;
    w = fn * PIO2_2T_D - ((u - r) - w);
    y = r - w;
    if (exponent - (int)((as_ulong(y) >> 52) & 0x7ffu) > 49) {
      u = r;
      w = fn * PIO2_3_D;
      r = u - w;
      w = fn * PIO2_3T_D - ((u - r) - w);
      y = r - w;
    }
  }
  const double y_lo = (r - y) - w;
  if (as_long(x) < 0) {
    *hi = -y;
    *lo = -y_lo;
    return -n & 3;
  }
  *hi = y;
  *lo = y_lo;
  return n & 3;
}

// Small arguments take the medium reduction too (n = 0: hi = x, lo = 0).
static inline int reduce_d(double x, double* hi, double* lo) {
  if (fabs(x) <= 0x1.921fb54442d18p+19) return reduce_medium_d(x, hi, lo);
  return reduce_large_d(x, hi, lo);
}

static inline double sin_poly_d(double r, double lo) {
  const double z = r * r;
  double s = 0x1.952c77030ad4ap-49;
  s = mad(s, z, -0x1.ae7f3e733b81fp-41);
  s = mad(s, z, 0x1.6124613a86d09p-33);
  s = mad(s, z, -0x1.ae64567f544e4p-26);
  s = mad(s, z, 0x1.71de3a556c734p-19);
  s = mad(s, z, -0x1.a01a01a01a01ap-13);
  s = mad(s, z, 0x1.1111111111111p-7);
  s = mad(s, z, -0x1.5555555555555p-3);
  return r + mad(r * z, s, lo);
}

static inline double cos_poly_d(double r, double lo) {
  const double z = r * r;
  double c = -0x1.6827863b97d97p-53;
  c = mad(c, z, 0x1.ae7f3e733b81fp-45);
  c = mad(c, z, -0x1.93974a8c07c9dp-37);
  c = mad(c, z, 0x1.1eed8eff8d898p-29);
  c = mad(c, z, -0x1.27e4fb7789f5cp-22);
  c = mad(c, z, 0x1.a01a01a01a01ap-16);
  c = mad(c, z, -0x1.6c16c16c16c17p-10);
  c = mad(c, z, 0x1.5555555555555p-5);
  const double half_z = 0.5 * z;
  const double w = 1.0 - half_z;
  return w + (((1.0 - w) - half_z) + mad(z * z, c, -r * lo));
}

static inline double tan_poly_d(double r, double lo, int odd) {
  const double z = r * r;
  double t = 0x1.090d7f0e7cdbap-18;
  t = mad(t, z, -0x1.46fee54eb56fdp-17);
  t = mad(t, z, 0x1.47c6450c63687p-16);
  t = mad(t, z, -0x1.5629f83918912p-17);
  t = mad(t, z, 0x1.c6ce88efb7998p-16);
  t = mad(t, z, 0x1.1c9dc42563c4dp-15);
  t = mad(t, z, 0x1.9e442245f7eccp-14);
  t = mad(t, z, 0x1.f4827866d91b9p-13);
  t = mad(t, z, 0x1.35639716825dap-11);
  t = mad(t, z, 0x1.7da2a66ef5c08p-10);
  t = mad(t, z, 0x1.d6d3d9595bd98p-9);
  t = mad(t, z, 0x1.226e353ec9d1p-7);
  t = mad(t, z, 0x1.664f48834f964p-6);
  t = mad(t, z, 0x1.ba1ba1ba1a515p-5);
  t = mad(t, z, 0x1.111111111111bp-3);
  t = mad(t, z, 0x1.5555555555555p-2);
  const double tan_r = r + r * z * t;
  const double result = tan_r + (1.0 + tan_r * tan_r) * lo;
  return odd ? -1.0 / result : result;
}

// x = n/2 + r exactly; pi * r as hi + lo; n mod 4. From 2^53 on every double is even.
static inline int reduce_pi_d(double x, double* hi, double* lo) {
  if (fabs(x) >= 0x1p53) {
    *hi = *lo = 0.0;
    return 0;
  }
  const double n = rint(2.0 * x);
  const double r = x - 0.5 * n;
  double error;
  const double p = __vkcl_two_product_d(r, PI_HI_D, &error);
  *hi = __vkcl_fast_two_sum_d(p, mad(r, PI_LO_D, error), lo);
  return (int)((long)n & 3);
}

#endif  // VKCL_FP64

// sin, cos, tan, sincos, sinpi, cospi and tanpi are written once
// (trig.inc) on each type's reductions (reduce, reduce_pi) and polynomials
// (sin_poly, cos_poly, tan_poly). The reductions are not shared: float's
// Payne-Hanek works on 32-bit words of 2/pi and its reduce_pi takes tiny
// arguments apart for devices that flush subnormals; double's uses 64-bit
// words and needs neither.
#define SINCOS_SPACE(T, AS)                        \
  VKCL_OUT_VIA_PRIVATE(T, sincos, T, T, AS)        \
  VKCL_VECTORIZE_OUT(T, sincos, T, T, AS)
#define VKCL_BODY "math/trig.inc"
#include "math/vkcl_math_types.inc"

float VKCL_OVERLOAD half_sin(float x) { return sin(x); }
float VKCL_OVERLOAD half_cos(float x) { return cos(x); }
float VKCL_OVERLOAD half_tan(float x) { return tan(x); }
VKCL_VECTORIZE_1(float, half_sin, float)
VKCL_VECTORIZE_1(float, half_cos, float)
VKCL_VECTORIZE_1(float, half_tan, float)

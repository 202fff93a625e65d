// fma(a, b, c): a * b + c rounded once (OpenCL: correctly rounded), for
// float and double, every vector width.
//
// Vulkan's GLSL.std.450 Fma is only "inherited from OpFMul followed by
// OpFAdd" (it may or may not be fused), so it serves mad() and contracted
// a * b + c, never fma(). This is the exact computation in integers: the
// product of the significands (48 bits for float, in a ulong; 106 bits for
// double, in two), c aligned to it with a sticky bit for what falls off,
// their sum or difference, and one rounding to nearest even, with subnormal
// results and overflow. Operands that are zero, infinite or NaN take the
// floating-point path, where IEEE 754 already gives fma's answer.
//
// Float fma needs 64-bit integers (the Int64 capability).

#include "math/vkcl_math.h"

// Not written once for float and double (as builtins/math/*.inc are): float's
// product fits one ulong, double's needs the 128-bit pairs below, with
// their own alignment and rounding code; different algorithms.

// ---------------------------------------------------------------------------
// float

// A finite nonzero |x| as m * 2^q with m in [2^23, 2^24).
static inline uint decode_f(float x, int* q) {
  const uint bits = as_uint(x) & VKCL_FLOAT_ABS;
  const int biased = (int)(bits >> 23);
  uint m = bits & 0x7fffffu;
  if (biased == 0) {
    const int shift = (int)clz(m) - 8;
    *q = -149 - shift;
    return m << shift;
  }
  *q = biased - 150;
  return m | 0x800000u;
}

// x >> n with every bit shifted out ORed into bit 0.
static inline ulong shift_right_sticky_64(ulong x, int n) {
  if (n <= 0) return x;
  if (n >= 64) return x != 0 ? 1ul : 0ul;
  return (x >> n) | ((x & ((1ul << n) - 1)) != 0 ? 1ul : 0ul);
}

// The float nearest to (-1)^negative * s * 2^q, s > 0.
static inline float round_pack_f(ulong s, int q, uint negative) {
  const int lead = 63 - (int)clz(s);
  const int e = lead + q;
  if (e > 127) return as_float((negative << 31) | VKCL_FLOAT_INF);
  // Bits to drop: down to 24 significant bits, or to the 2^-149 place for a subnormal result.
  const int shift = e >= -126 ? lead - 23 : -149 - q;
  uint kept;
  if (shift <= 0) {
    kept = (uint)(s << -shift);
  } else {
    // t = kept bits, then the rounding bit, then a sticky bit.
    const ulong t = shift == 1 ? s << 1 : shift_right_sticky_64(s, shift - 2);
    const uint round_up = (t & 2) != 0 && (t & 5) != 0;
    kept = (uint)(t >> 2) + round_up;
  }
  // The hidden bit of a normal `kept` carries into the exponent field, and
  // so does rounding up to 2^24 (or, for a subnormal, up to 2^23).
  const uint bits = e >= -126 ? ((uint)(e + 126) << 23) + kept : kept;
  return as_float((negative << 31) | bits);
}

float VKCL_OVERLOAD fma(float a, float b, float c) {
  if (!__vkcl_isfinite_f(a) || !__vkcl_isfinite_f(b) || __vkcl_isnan_f(c)) return a * b + c;
  if (__vkcl_isinf_f(c)) return c;
  // A zero product is exact, and so is the sum's one rounding; with c zero
  // the rounding of the product is the only one (and keeps its sign).
  if ((as_uint(a) & VKCL_FLOAT_ABS) == 0 || (as_uint(b) & VKCL_FLOAT_ABS) == 0) return a * b + c;
  if ((as_uint(c) & VKCL_FLOAT_ABS) == 0) return a * b;

  int qa, qb, qc;
  const ulong product = (ulong)decode_f(a, &qa) * (ulong)decode_f(b, &qb);  // [2^46, 2^48)
  const uint product_negative = (as_uint(a) ^ as_uint(b)) >> 31;
  const uint c_negative = as_uint(c) >> 31;
  // Both at the top of 63 bits: the product's bits 15..62, c's 39..62. The
  // one with the smaller exponent moves right; it loses bits only when it is
  // far below the other, where one sticky bit carries all they mean.
  ulong p = product << 15, r = (ulong)decode_f(c, &qc) << 39;
  int q = qa + qb - 15;
  const int qr = qc - 39;
  if (q >= qr) {
    r = shift_right_sticky_64(r, q - qr);
  } else {
    p = shift_right_sticky_64(p, qr - q);
    q = qr;
  }
  ulong s;
  uint negative;
  if (product_negative == c_negative) {
    s = p + r;
    negative = c_negative;
  } else if (p >= r) {
    s = p - r;
    negative = product_negative;
  } else {
    s = r - p;
    negative = c_negative;
  }
  if (s == 0) return 0.0f;  // exact cancellation is +0 when rounding to nearest
  return round_pack_f(s, q, negative);
}

VKCL_VECTORIZE_3(float, fma, float, float, float)

// ---------------------------------------------------------------------------
// double, with 128-bit integers as (high, low) pairs

#ifdef VKCL_FP64

typedef struct {
  ulong hi, lo;
} u128;

static inline u128 make_u128(ulong hi, ulong lo) {
  u128 r = {hi, lo};
  return r;
}

static inline u128 add_u128(u128 a, u128 b) {
  const ulong lo = a.lo + b.lo;
  return make_u128(a.hi + b.hi + (lo < a.lo ? 1ul : 0ul), lo);
}

// a - b for a >= b.
static inline u128 sub_u128(u128 a, u128 b) {
  return make_u128(a.hi - b.hi - (a.lo < b.lo ? 1ul : 0ul), a.lo - b.lo);
}

static inline int ge_u128(u128 a, u128 b) { return a.hi > b.hi || (a.hi == b.hi && a.lo >= b.lo); }

static inline u128 shift_right_sticky_128(u128 x, int n) {
  if (n <= 0) return x;
  if (n >= 128) return make_u128(0, (x.hi | x.lo) != 0 ? 1ul : 0ul);
  if (n >= 64) {
    const int m = n - 64;
    const ulong lost = x.lo | (m == 0 ? 0ul : x.hi & ((1ul << m) - 1));
    return make_u128(0, (x.hi >> m) | (lost != 0 ? 1ul : 0ul));
  }
  const ulong lost = x.lo & ((1ul << n) - 1);
  return make_u128(x.hi >> n, (x.lo >> n) | (x.hi << (64 - n)) | (lost != 0 ? 1ul : 0ul));
}

// A finite nonzero |x| as m * 2^q with m in [2^52, 2^53).
static inline ulong decode_d(double x, int* q) {
  const ulong bits = as_ulong(x) & VKCL_DOUBLE_ABS;
  const int biased = (int)(bits >> 52);
  const ulong m = bits & 0xffffffffffffful;
  if (biased == 0) {
    const int shift = (int)clz(m) - 11;
    *q = -1074 - shift;
    return m << shift;
  }
  *q = biased - 1075;
  return m | (1ul << 52);
}

static inline double round_pack_d(u128 s, int q, ulong negative) {
  const int lead = s.hi != 0 ? 127 - (int)clz(s.hi) : 63 - (int)clz(s.lo);
  const int e = lead + q;
  if (e > 1023) return as_double((negative << 63) | VKCL_DOUBLE_INF);
  const int shift = e >= -1022 ? lead - 52 : -1074 - q;
  ulong kept;
  if (shift <= 0) {
    kept = s.lo << -shift;  // lead <= 52: s is in the low half
  } else {
    const ulong t = shift == 1 ? s.lo << 1 : shift_right_sticky_128(s, shift - 2).lo;
    const ulong round_up = (t & 2) != 0 && (t & 5) != 0 ? 1ul : 0ul;
    kept = (t >> 2) + round_up;
  }
  const ulong bits = e >= -1022 ? ((ulong)(e + 1022) << 52) + kept : kept;
  return as_double((negative << 63) | bits);
}

double VKCL_OVERLOAD fma(double a, double b, double c) {
  if (!__vkcl_isfinite_d(a) || !__vkcl_isfinite_d(b) || __vkcl_isnan_d(c)) return a * b + c;
  if (__vkcl_isinf_d(c)) return c;
  if ((as_ulong(a) & VKCL_DOUBLE_ABS) == 0 || (as_ulong(b) & VKCL_DOUBLE_ABS) == 0) return a * b + c;
  if ((as_ulong(c) & VKCL_DOUBLE_ABS) == 0) return a * b;

  int qa, qb, qc;
  const ulong ma = decode_d(a, &qa), mb = decode_d(b, &qb);
  const ulong product_hi = mul_hi(ma, mb), product_lo = ma * mb;  // [2^104, 2^106)
  const ulong product_negative = (as_ulong(a) ^ as_ulong(b)) >> 63;
  const ulong c_negative = as_ulong(c) >> 63;
  // The product's bits 20..125, c's 73..125.
  u128 p = make_u128((product_hi << 20) | (product_lo >> 44), product_lo << 20);
  u128 r = make_u128(decode_d(c, &qc) << 9, 0);
  int q = qa + qb - 20;
  const int qr = qc - 73;
  if (q >= qr) {
    r = shift_right_sticky_128(r, q - qr);
  } else {
    p = shift_right_sticky_128(p, qr - q);
    q = qr;
  }
  u128 s;
  ulong negative;
  if (product_negative == c_negative) {
    s = add_u128(p, r);
    negative = c_negative;
  } else if (ge_u128(p, r)) {
    s = sub_u128(p, r);
    negative = product_negative;
  } else {
    s = sub_u128(r, p);
    negative = c_negative;
  }
  if ((s.hi | s.lo) == 0) return 0.0;
  return round_pack_d(s, q, negative);
}

VKCL_VECTORIZE_3(double, fma, double, double, double)

#endif  // VKCL_FP64

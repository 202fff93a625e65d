// fmod, remainder and remquo for float and double, every vector width, with
// remquo's pointer in any address space. All exact (OpenCL: 0 ulp): the
// remainder is computed by long division of the significands in integers,
// one quotient bit per step (at most 277 steps for float, 2098 for double),
// and put together as a float from its bits.
// remquo gives the low 7 bits of the quotient, with the sign of x / y.

#include "math/vkcl_math.h"

// Everything is done in integers, the result included (encode), never with
// float arithmetic on the operands: on a device that flushes float
// subnormals (vkcl_math.h) a subnormal operand or remainder would be 0 (and
// remainder(x, y) of the largest subnormal x and y = 2^-126 came back as x,
// remquo(2^-126, that x) as 0 with quotient 2, neither the right result nor
// the flushed inputs').
#define DEFINE_REMAINDER(T, U, SUFFIX, MANTISSA, BIAS)                                           \
  /* A finite nonzero |x| as m * 2^q with m in [2^MANTISSA, 2^(MANTISSA + 1)). */               \
  static inline U decode_##SUFFIX(U magnitude, int* q) {                                         \
    const int biased = (int)(magnitude >> MANTISSA);                                             \
    const U m = magnitude & (((U)1 << MANTISSA) - 1);                                            \
    if (biased == 0) {                                                                           \
      const int shift = (int)clz(m) - (int)(sizeof(U) * 8 - 1 - MANTISSA);                       \
      *q = 1 - BIAS - MANTISSA - shift;                                                          \
      return m << shift;                                                                         \
    }                                                                                            \
    *q = biased - BIAS - MANTISSA;                                                               \
    return m | ((U)1 << MANTISSA);                                                               \
  }                                                                                              \
  /* The bits of m * 2^q for 0 <= m < 2^(MANTISSA + 1), a number that is representable (a      \
     remainder is exact): normalized, or shifted into a subnormal (dropping only zero bits). */  \
  static inline U encode_##SUFFIX(U m, int q) {                                                  \
    if (m == 0) return 0;                                                                        \
    const int shift = (int)clz(m) - (int)(sizeof(U) * 8 - 1 - MANTISSA);                         \
    const int biased = q - shift + MANTISSA + BIAS;                                              \
    m <<= shift;                                                                                 \
    if (biased <= 0) return m >> (1 - biased);                                                   \
    return ((U)biased << MANTISSA) | (m & (((U)1 << MANTISSA) - 1));                             \
  }                                                                                              \
  /* |x| mod |y| = *r * 2^qy for finite x, finite nonzero y with |x| >= |y|, *r < my, and the  \
     low 7 bits of the quotient; my = decode(|y|) and qy its exponent. The partial remainder   \
     (below 2^(MANTISSA + 2)) and the quotient bits share one integer, the quotient above bit  \
     MANTISSA + 2 (at least 7 bits), so that one shift steps both: the loop's one value. (A     \
     quotient kept apart, or its parity taken after the loop from the last comparison, came    \
     out wrong on lavapipe (Mesa 22.3) where the work-items of one SIMD group ran the loop a    \
     different number of times: remainder(2.5, 1) was -0.5, remquo(5.5, 1) gave 8.) */          \
  static inline uint divide_##SUFFIX(U ax, U my, int qy, U* r) {                                 \
    const int quotient_shift = MANTISSA + 2;                                                     \
    const U low = ((U)1 << quotient_shift) - 1;                                                  \
    int qx;                                                                                      \
    U w = decode_##SUFFIX(ax, &qx);                                                              \
    for (int n = qx - qy;; --n) {                                                                \
      if ((w & low) >= my) w += ((U)1 << quotient_shift) - my;                                   \
      if (n == 0) break;                                                                         \
      w <<= 1;                                                                                   \
    }                                                                                            \
    *r = w & low;                                                                                \
    return (uint)(w >> quotient_shift);                                                          \
  }                                                                                              \
  T VKCL_OVERLOAD fmod(T x, T y) {                                                               \
    const U ax = as_##U(x) & (U)VKCL_##SUFFIX##_ABS, ay = as_##U(y) & (U)VKCL_##SUFFIX##_ABS;     \
    if (ay == 0 || ax >= (U)VKCL_##SUFFIX##_INF || ay > (U)VKCL_##SUFFIX##_INF)                  \
      return __vkcl_isnan_##SUFFIX(x) ? x + y : __vkcl_quiet_nan_##SUFFIX();                     \
    if (ax < ay) return x;                                                                       \
    int qy;                                                                                      \
    const U my = decode_##SUFFIX(ay, &qy);                                                       \
    U r;                                                                                         \
    divide_##SUFFIX(ax, my, qy, &r);                                                             \
    return as_##T(encode_##SUFFIX(r, qy) | (as_##U(x) & (U)VKCL_##SUFFIX##_SIGN));               \
  }                                                                                              \
  /* x - n * y with n the integer nearest x / y (even on ties): the remainder r of |x| / |y| in \
     [0, |y|), and |y| - r instead (one more in the quotient, the other sign) where r > |y| / 2 \
     or r = |y| / 2 with the quotient odd, compared and subtracted as integers in units of the  \
     smaller exponent (exact: r and |y| - r are representable). */                              \
  T VKCL_OVERLOAD remquo(T x, T y, __private int* quo) {                                         \
    const U ax = as_##U(x) & (U)VKCL_##SUFFIX##_ABS, ay = as_##U(y) & (U)VKCL_##SUFFIX##_ABS;     \
    *quo = 0;                                                                                    \
    if (ay == 0 || ax >= (U)VKCL_##SUFFIX##_INF || ay > (U)VKCL_##SUFFIX##_INF)                  \
      return __vkcl_isnan_##SUFFIX(x) ? x + y : __vkcl_quiet_nan_##SUFFIX();                     \
    if (ay == (U)VKCL_##SUFFIX##_INF || ax == 0) return x;                                       \
    int qy;                                                                                      \
    U my = decode_##SUFFIX(ay, &qy);                                                             \
    uint q = 0;                                                                                  \
    U r;                                                                                         \
    int unit = qy; /* r and my count units of 2^unit */                                         \
    if (ax >= ay) {                                                                              \
      q = divide_##SUFFIX(ax, my, qy, &r);                                                       \
    } else {                                                                                     \
      r = decode_##SUFFIX(ax, &unit);                                                            \
      /* |x| < |y| / 2 where |x|'s exponent is 2 or more below |y|'s: x is the remainder. */     \
      if (qy - unit > 1) return x;                                                               \
      my <<= qy - unit; /* < 2^(MANTISSA + 2) */                                                 \
    }                                                                                            \
    const int negate = r > my - r || (r == my - r && (q & 1) != 0);                              \
    if (negate) {                                                                                \
      r = my - r;                                                                                \
      ++q;                                                                                       \
    }                                                                                            \
    const int magnitude = (int)(q & 0x7fu);                                                      \
    *quo = (as_##U(x) ^ as_##U(y)) >> (sizeof(U) * 8 - 1) ? -magnitude : magnitude;              \
    /* A zero remainder has the sign of x. */                                                    \
    const U sign = (as_##U(x) & (U)VKCL_##SUFFIX##_SIGN) ^ (negate ? (U)VKCL_##SUFFIX##_SIGN : 0); \
    return as_##T(encode_##SUFFIX(r, unit) | sign);                                              \
  }                                                                                              \
  T VKCL_OVERLOAD remainder(T x, T y) {                                                          \
    int quo;                                                                                     \
    return remquo(x, y, &quo);                                                                   \
  }                                                                                              \
  VKCL_VECTORIZE_2(T, fmod, T, T)                                                                \
  VKCL_VECTORIZE_2(T, remainder, T, T)                                                           \
  VKCL_VECTORIZE_2_OUT(T, remquo, T, T, int, __private)                                          \
  VKCL_FOR_EACH_OUT_SPACE(REMQUO_SPACE, T)

#define REMQUO_SPACE(T, AS)                                                                      \
  VKCL_OUT_VIA_PRIVATE_2(T, remquo, T, T, int, AS)                                               \
  VKCL_VECTORIZE_2_OUT(T, remquo, T, T, int, AS)

#define VKCL_f_ABS VKCL_FLOAT_ABS
#define VKCL_f_INF VKCL_FLOAT_INF
#define VKCL_f_SIGN VKCL_FLOAT_SIGN
DEFINE_REMAINDER(float, uint, f, 23, 127)

#ifdef VKCL_FP64
#define VKCL_d_ABS VKCL_DOUBLE_ABS
#define VKCL_d_INF VKCL_DOUBLE_INF
#define VKCL_d_SIGN VKCL_DOUBLE_SIGN
DEFINE_REMAINDER(double, ulong, d, 52, 1023)
#endif

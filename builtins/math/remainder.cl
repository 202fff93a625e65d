// fmod, remainder and remquo for float and double, every vector width, with
// remquo's pointer in any address space. All exact (OpenCL: 0 ulp): the
// remainder is computed by long division of the significands in integers,
// one quotient bit per step (at most 277 steps for float, 2098 for double).
// remquo gives the low 7 bits of the quotient, with the sign of x / y.

#include "math/vkcl_math.h"

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
  /* |x| mod |y| for finite x, finite nonzero y with |x| >= |y|, and the low bits of the        \
     quotient. */                                                                                \
  static inline T divide_##SUFFIX(U ax, U ay, uint* quotient) {                                  \
    int qx, qy;                                                                                  \
    U mx = decode_##SUFFIX(ax, &qx);                                                             \
    const U my = decode_##SUFFIX(ay, &qy);                                                       \
    uint q = 0;                                                                                  \
    for (int n = qx - qy;; --n) {                                                                \
      q <<= 1;                                                                                   \
      if (mx >= my) {                                                                            \
        mx -= my;                                                                                \
        q |= 1;                                                                                  \
      }                                                                                          \
      if (n == 0) break;                                                                         \
      mx <<= 1;                                                                                  \
    }                                                                                            \
    *quotient = q;                                                                               \
    /* mx * 2^qy is the exact remainder, so ldexp's rounding changes nothing. */                \
    return ldexp((T)mx, qy);                                                                     \
  }                                                                                              \
  T VKCL_OVERLOAD fmod(T x, T y) {                                                               \
    const U ax = as_##U(x) & (U)VKCL_##SUFFIX##_ABS, ay = as_##U(y) & (U)VKCL_##SUFFIX##_ABS;     \
    if (ay == 0 || ax >= (U)VKCL_##SUFFIX##_INF || ay > (U)VKCL_##SUFFIX##_INF)                  \
      return __vkcl_isnan_##SUFFIX(x) ? x + y : __vkcl_quiet_nan_##SUFFIX();                     \
    if (ax < ay) return x;                                                                       \
    uint quotient;                                                                               \
    return copysign(divide_##SUFFIX(ax, ay, &quotient), x);                                      \
  }                                                                                              \
  /* x - n * y with n the integer nearest x / y (even on ties). */                              \
  T VKCL_OVERLOAD remquo(T x, T y, __private int* quo) {                                         \
    const U ax = as_##U(x) & (U)VKCL_##SUFFIX##_ABS, ay = as_##U(y) & (U)VKCL_##SUFFIX##_ABS;     \
    *quo = 0;                                                                                    \
    if (ay == 0 || ax >= (U)VKCL_##SUFFIX##_INF || ay > (U)VKCL_##SUFFIX##_INF)                  \
      return __vkcl_isnan_##SUFFIX(x) ? x + y : __vkcl_quiet_nan_##SUFFIX();                     \
    if (ay == (U)VKCL_##SUFFIX##_INF) return x;                                                  \
    uint q = 0;                                                                                  \
    T r = as_##T(ax);                                                                            \
    if (ax >= ay) r = divide_##SUFFIX(ax, ay, &q);                                               \
    /* r in [0, |y|): round the quotient to nearest. r + r may overflow to inf, and then it is  \
       greater than |y| indeed. */                                                               \
    const T fy = as_##T(ay);                                                                     \
    if (r + r > fy || (r + r == fy && (q & 1) != 0)) {                                           \
      r -= fy;                                                                                   \
      ++q;                                                                                       \
    }                                                                                            \
    const int magnitude = (int)(q & 0x7fu);                                                      \
    *quo = (as_##U(x) ^ as_##U(y)) >> (sizeof(U) * 8 - 1) ? -magnitude : magnitude;              \
    /* A zero remainder has the sign of x. */                                                    \
    return as_##T(as_##U(r) ^ (as_##U(x) & (U)VKCL_##SUFFIX##_SIGN));                            \
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

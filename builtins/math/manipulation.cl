// The functions that take floating-point numbers apart or step through
// them, for float and double, every vector width, all exact: frexp, ldexp,
// ilogb, logb, nan, nextafter, maxmag and minmag. (copysign and fabs are bit
// operations in spirv/lower_opencl_std.)

#include "math/vkcl_math.h"

// One set of definitions per type: T, its same-size integer types I and U,
// the bits of its significand, its exponent bias, and 2^SCALE to bring a
// subnormal into the normal range.
#define DEFINE_MANIPULATION(T, I, U, SUFFIX, MANTISSA, BIAS, SCALE_UP)                           \
  T VKCL_OVERLOAD ldexp(T x, int n); /* frexp uses it */                                         \
  /* The unbiased exponent of a finite nonzero x, subnormals included. */                        \
  static inline int exponent_of_##SUFFIX(T x) {                                                  \
    const U magnitude = as_##U(x) & (U)VKCL_##SUFFIX##_ABS;                                      \
    if ((magnitude >> MANTISSA) != 0) return (int)(magnitude >> MANTISSA) - BIAS;                \
    return (int)((as_##U(x * SCALE_UP) & (U)VKCL_##SUFFIX##_ABS) >> MANTISSA) - BIAS - SCALE_BITS_##SUFFIX; \
  }                                                                                              \
  /* x = m * 2^e with 0.5 <= |m| < 1; 0, inf and NaN come back with e = 0. */                    \
  T VKCL_OVERLOAD frexp(T x, __private int* e) {                                                 \
    const U magnitude = as_##U(x) & (U)VKCL_##SUFFIX##_ABS;                                      \
    if (magnitude == 0 || magnitude >= (U)VKCL_##SUFFIX##_INF) {                                 \
      *e = 0;                                                                                    \
      return x;                                                                                  \
    }                                                                                            \
    const int exponent = exponent_of_##SUFFIX(x);                                                \
    *e = exponent + 1;                                                                           \
    return ldexp(x, -(exponent + 1));                                                            \
  }                                                                                              \
  /* x * 2^n, correctly rounded: at most one multiplication is inexact (the last). */           \
  T VKCL_OVERLOAD ldexp(T x, int n) {                                                            \
    const int max_exponent = BIAS, min_exponent = 1 - BIAS;                                      \
    T y = x;                                                                                     \
    if (n > max_exponent) {                                                                      \
      y *= __vkcl_pow2_##SUFFIX(max_exponent);                                                   \
      n -= max_exponent;                                                                         \
      if (n > max_exponent) {                                                                    \
        y *= __vkcl_pow2_##SUFFIX(max_exponent);                                                 \
        n -= max_exponent;                                                                       \
        n = min(n, max_exponent);                                                                \
      }                                                                                          \
    } else if (n < min_exponent) {                                                               \
      /* Steps of 2^(min_exponent + MANTISSA + 1) keep intermediate results normal. */           \
      const int step = min_exponent + MANTISSA + 1;                                              \
      y *= __vkcl_pow2_##SUFFIX(step);                                                           \
      n -= step;                                                                                 \
      if (n < min_exponent) {                                                                    \
        y *= __vkcl_pow2_##SUFFIX(step);                                                         \
        n -= step;                                                                               \
        n = max(n, min_exponent);                                                                \
      }                                                                                          \
    }                                                                                            \
    return y * __vkcl_pow2_##SUFFIX(n);                                                          \
  }                                                                                              \
  int VKCL_OVERLOAD ilogb(T x) {                                                                 \
    const U magnitude = as_##U(x) & (U)VKCL_##SUFFIX##_ABS;                                      \
    if (magnitude == 0) return FP_ILOGB0;                                                        \
    if (magnitude > (U)VKCL_##SUFFIX##_INF) return FP_ILOGBNAN;                                  \
    if (magnitude == (U)VKCL_##SUFFIX##_INF) return INT_MAX;                                     \
    return exponent_of_##SUFFIX(x);                                                              \
  }                                                                                              \
  T VKCL_OVERLOAD logb(T x) {                                                                    \
    const U magnitude = as_##U(x) & (U)VKCL_##SUFFIX##_ABS;                                      \
    if (magnitude == 0) return -as_##T((U)VKCL_##SUFFIX##_INF);                                  \
    if (magnitude >= (U)VKCL_##SUFFIX##_INF) return as_##T(magnitude);                           \
    return (T)exponent_of_##SUFFIX(x);                                                           \
  }                                                                                              \
  /* The next representable number after x towards y. */                                       \
  T VKCL_OVERLOAD nextafter(T x, T y) {                                                          \
    if (__vkcl_isnan_##SUFFIX(x) || __vkcl_isnan_##SUFFIX(y)) return x + y;                      \
    if (x == y) return y;                                                                        \
    const U bits = as_##U(x);                                                                    \
    if ((bits & (U)VKCL_##SUFFIX##_ABS) == 0) /* +-0: the smallest subnormal towards y */        \
      return as_##T((as_##U(y) & (U)VKCL_##SUFFIX##_SIGN) | (U)1);                               \
    /* Away from zero when y is further out on x's side. */                                     \
    return as_##T((x < y) == (as_##I(x) >= 0) ? bits + (U)1 : bits - (U)1);                      \
  }                                                                                              \
  T VKCL_OVERLOAD maxmag(T x, T y) {                                                             \
    const T ax = fabs(x), ay = fabs(y);                                                          \
    return ax > ay ? x : (ay > ax ? y : fmax(x, y));                                             \
  }                                                                                              \
  T VKCL_OVERLOAD minmag(T x, T y) {                                                             \
    const T ax = fabs(x), ay = fabs(y);                                                          \
    return ax < ay ? x : (ay < ax ? y : fmin(x, y));                                             \
  }                                                                                              \
  VKCL_VECTORIZE_OUT(T, frexp, T, int, __private)                                                \
  VKCL_FOR_EACH_OUT_SPACE(FREXP_SPACE, T)                                                        \
  VKCL_VECTORIZE_2(T, ldexp, T, int)                                                             \
  VKCL_VECTORIZE_2_SCALAR(T, ldexp, T, int)                                                      \
  VKCL_VECTORIZE_1(int, ilogb, T)                                                                \
  VKCL_VECTORIZE_1(T, logb, T)                                                                   \
  VKCL_VECTORIZE_2(T, nextafter, T, T)                                                           \
  VKCL_VECTORIZE_2(T, maxmag, T, T)                                                              \
  VKCL_VECTORIZE_2(T, minmag, T, T)

#define FREXP_SPACE(T, AS)                                                                       \
  VKCL_OUT_VIA_PRIVATE(T, frexp, T, int, AS)                                                     \
  VKCL_VECTORIZE_OUT(T, frexp, T, int, AS)

#define VKCL_f_ABS VKCL_FLOAT_ABS
#define VKCL_f_INF VKCL_FLOAT_INF
#define VKCL_f_SIGN VKCL_FLOAT_SIGN
#define SCALE_BITS_f 32
DEFINE_MANIPULATION(float, int, uint, f, 23, 127, 0x1p32f)

// nan(nancode): a quiet NaN carrying nancode in its significand.
float VKCL_OVERLOAD nan(uint nancode) { return as_float(0x7fc00000u | (nancode & 0x3fffffu)); }
VKCL_VECTORIZE_1(float, nan, uint)

#ifdef VKCL_FP64
#define VKCL_d_ABS VKCL_DOUBLE_ABS
#define VKCL_d_INF VKCL_DOUBLE_INF
#define VKCL_d_SIGN VKCL_DOUBLE_SIGN
#define SCALE_BITS_d 64
DEFINE_MANIPULATION(double, long, ulong, d, 52, 1023, 0x1p64)

double VKCL_OVERLOAD nan(ulong nancode) {
  return as_double(0x7ff8000000000000ul | (nancode & 0x7fffffffffffful));
}
VKCL_VECTORIZE_1(double, nan, ulong)
#endif

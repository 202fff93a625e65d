// The functions that take floating-point numbers apart or step through
// them, for float and double, every vector width, all exact: frexp, ldexp,
// ilogb, logb, nan, nextafter, maxmag and minmag. (copysign and fabs are bit
// operations in spirv/lower_opencl_std.)

#include "math/vkcl_math.h"

// One set of definitions per type: T, its same-size integer types I and U,
// the bits of its significand and its exponent bias.
//
// Numbers are taken apart and compared on their bits, never by float
// arithmetic on a possibly subnormal x or by float comparisons (ldexp
// multiplies normal numbers only): on a device that flushes float subnormals
// (NVIDIA's; vkcl_math.h), x * 2^32 is 0 and x == 0 is true for a subnormal
// x, and OpenCL wants these functions exact for every input the device keeps
// (OpenCL C 3.0 §7.5.3: else the result for the flushed input).
#define DEFINE_MANIPULATION(T, I, U, SUFFIX, MANTISSA, BIAS)                                     \
  /* x = m * 2^e with 0.5 <= |m| < 1; 0, inf and NaN come back with e = 0. m from the bits of x  \
     normalized (vkcl_math.h): its significand with the exponent field of 0.5. */                \
  T VKCL_OVERLOAD frexp(T x, __private int* e) {                                                 \
    const U magnitude = as_##U(x) & (U)VKCL_##SUFFIX##_ABS;                                      \
    if (magnitude == 0 || magnitude >= (U)VKCL_##SUFFIX##_INF) {                                 \
      *e = 0;                                                                                    \
      return x;                                                                                  \
    }                                                                                            \
    int shift;                                                                                   \
    const U bits = as_##U(__vkcl_normalize_##SUFFIX(x, &shift));                                 \
    *e = (int)((bits & (U)VKCL_##SUFFIX##_ABS) >> MANTISSA) - (BIAS - 1) + shift;                \
    return as_##T((bits & ~((U)VKCL_##SUFFIX##_INF)) | ((U)(BIAS - 1) << MANTISSA));             \
  }                                                                                              \
  /* x * 2^n, correctly rounded: at most one multiplication is inexact (the last). A subnormal  \
     x is taken as its normalized significand times 2^(n + shift). */                            \
  T VKCL_OVERLOAD ldexp(T x, int n) {                                                            \
    const int max_exponent = BIAS, min_exponent = 1 - BIAS;                                      \
    int shift;                                                                                   \
    T y = __vkcl_normalize_##SUFFIX(x, &shift);                                                  \
    if (shift != 0) n = max(n, -8 * BIAS) + shift; /* no int overflow; still far below 0 */       \
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
    return __vkcl_exponent_##SUFFIX(x);                                                          \
  }                                                                                              \
  T VKCL_OVERLOAD logb(T x) {                                                                    \
    const U magnitude = as_##U(x) & (U)VKCL_##SUFFIX##_ABS;                                      \
    if (magnitude == 0) return -as_##T((U)VKCL_##SUFFIX##_INF);                                  \
    if (magnitude >= (U)VKCL_##SUFFIX##_INF) return as_##T(magnitude);                           \
    return (T)__vkcl_exponent_##SUFFIX(x);                                                       \
  }                                                                                              \
  /* x's bits as an integer in the order of the numbers (-0 and +0 both 0), for NaN-free       \
     comparisons of subnormals too. */                                                           \
  static inline I ordered_##SUFFIX(T x) {                                                        \
    const I bits = as_##I(x);                                                                    \
    return bits < 0 ? -(bits & (I)VKCL_##SUFFIX##_ABS) : bits;                                   \
  }                                                                                              \
  /* The next representable number after x towards y, on the bits (a subnormal result too). */ \
  T VKCL_OVERLOAD nextafter(T x, T y) {                                                          \
    if (__vkcl_isnan_##SUFFIX(x) || __vkcl_isnan_##SUFFIX(y)) return x + y;                      \
    const I ox = ordered_##SUFFIX(x), oy = ordered_##SUFFIX(y);                                  \
    if (ox == oy) return y;                                                                      \
    const U bits = as_##U(x);                                                                    \
    if ((bits & (U)VKCL_##SUFFIX##_ABS) == 0) /* +-0: the smallest subnormal towards y */        \
      return as_##T((as_##U(y) & (U)VKCL_##SUFFIX##_SIGN) | (U)1);                               \
    /* Away from zero when y is further out on x's side. */                                     \
    return as_##T((ox < oy) == (as_##I(x) >= 0) ? bits + (U)1 : bits - (U)1);                    \
  }                                                                                              \
  /* maxmag and minmag compare magnitudes as integers; a NaN gives the other operand, equal     \
     magnitudes fmax and fmin (the operand without, or with, the sign bit). */                   \
  T VKCL_OVERLOAD maxmag(T x, T y) {                                                             \
    const U ax = as_##U(x) & (U)VKCL_##SUFFIX##_ABS, ay = as_##U(y) & (U)VKCL_##SUFFIX##_ABS;     \
    if (ax > (U)VKCL_##SUFFIX##_INF) return y;                                                   \
    if (ay > (U)VKCL_##SUFFIX##_INF) return x;                                                   \
    if (ax != ay) return ax > ay ? x : y;                                                        \
    return as_##I(x) < 0 ? y : x;                                                                \
  }                                                                                              \
  T VKCL_OVERLOAD minmag(T x, T y) {                                                             \
    const U ax = as_##U(x) & (U)VKCL_##SUFFIX##_ABS, ay = as_##U(y) & (U)VKCL_##SUFFIX##_ABS;     \
    if (ax > (U)VKCL_##SUFFIX##_INF) return y;                                                   \
    if (ay > (U)VKCL_##SUFFIX##_INF) return x;                                                   \
    if (ax != ay) return ax < ay ? x : y;                                                        \
    return as_##I(x) < 0 ? x : y;                                                                \
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
DEFINE_MANIPULATION(float, int, uint, f, 23, 127)

// nan(nancode): a quiet NaN carrying nancode in its significand.
float VKCL_OVERLOAD nan(uint nancode) { return as_float(0x7fc00000u | (nancode & 0x3fffffu)); }
VKCL_VECTORIZE_1(float, nan, uint)

#ifdef VKCL_FP64
#define VKCL_d_ABS VKCL_DOUBLE_ABS
#define VKCL_d_INF VKCL_DOUBLE_INF
#define VKCL_d_SIGN VKCL_DOUBLE_SIGN
DEFINE_MANIPULATION(double, long, ulong, d, 52, 1023)

double VKCL_OVERLOAD nan(ulong nancode) {
  return as_double(0x7ff8000000000000ul | (nancode & 0x7fffffffffffful));
}
VKCL_VECTORIZE_1(double, nan, ulong)
#endif

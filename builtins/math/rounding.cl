// round, fract, modf and fdim for float and double, every vector width, and
// the __global/__local/__private/generic forms of fract's and modf's
// pointer. All exact. ceil, floor, rint and trunc are GLSL.std.450 Ceil,
// Floor, RoundEven and Trunc (spirv/lower_opencl_std); GLSL's Round rounds
// halfway cases in a direction of the implementation's choosing, so round()
// is here. Signs of zero come from copysign (bit operations), never from
// what a driver that may "ignore the sign of a zero" computes.

#include "math/vkcl_math.h"

// fract and modf tell zeros and subnormals apart on the bits: on a device
// that flushes float subnormals (vkcl_math.h), x == 0 holds for a subnormal
// x, and floor(x) may or may not flush it (NVIDIA's keeps it: floor(-x) =
// -1), so fract(-x) came back as -x with *iptr = -1, which is neither
// fract's result for x nor for -0.
#define DEFINE_ROUNDING(T, I, U, SUFFIX, ONE_BELOW_ONE)                                          \
  /* Halfway cases away from zero. x - trunc(x) is exact. */                                     \
  T VKCL_OVERLOAD round(T x) {                                                                   \
    const T t = trunc(x);                                                                        \
    return copysign(fabs(x - t) >= (T)0.5 ? t + copysign((T)1, x) : t, x);                       \
  }                                                                                              \
  /* x - floor(x), never 1 (the largest number below 1 instead); fract(-0) = -0, fract(+-inf) = \
     +-0, fract(NaN) = NaN with NaN in *iptr. A zero or subnormal x (exponent field 0) on the   \
     bits: +-0 and a positive x are their own fract (*iptr = +-0), a negative one's is 1 - |x|  \
     rounded, which is 1, so the number below 1 (*iptr = -1). */                                \
  T VKCL_OVERLOAD fract(T x, __private T* iptr) {                                                \
    const U bits = as_##U(x);                                                                    \
    if ((bits & (U)VKCL_##SUFFIX##_INF) == 0) {                                                  \
      const int below_zero = (bits & (U)VKCL_##SUFFIX##_ABS) != 0 && as_##I(x) < 0;              \
      *iptr = below_zero ? (T)-1 : as_##T(bits & (U)VKCL_##SUFFIX##_SIGN);                       \
      return below_zero ? (T)(ONE_BELOW_ONE) : x;                                                \
    }                                                                                            \
    const T f = floor(x);                                                                        \
    *iptr = copysign(f, x);                                                                      \
    if (__vkcl_isinf_##SUFFIX(x)) return copysign((T)0, x);                                      \
    return fmin(x - f, (T)(ONE_BELOW_ONE));                                                      \
  }                                                                                              \
  /* OpenCL: *iptr = trunc(value); return copysign(isinf(value) ? 0 : value - *iptr, value).    \
     Below 1 in magnitude (subnormals and zeros included) that is x itself, taken on the bits   \
     (x - 0 would flush a subnormal x). */                                                       \
  T VKCL_OVERLOAD modf(T x, __private T* iptr) {                                                 \
    const T t = trunc(x);                                                                        \
    *iptr = copysign(t, x);                                                                      \
    if ((as_##U(x) & (U)VKCL_##SUFFIX##_ABS) < as_##U((T)1)) return x;                           \
    return copysign(__vkcl_isinf_##SUFFIX(x) ? (T)0 : x - t, x);                                 \
  }                                                                                              \
  /* x - y if x > y, +0 if x <= y, NaN if either is NaN. */                                      \
  T VKCL_OVERLOAD fdim(T x, T y) {                                                               \
    if (__vkcl_isnan_##SUFFIX(x) || __vkcl_isnan_##SUFFIX(y)) return __vkcl_quiet_nan_##SUFFIX(); \
    return x > y ? x - y : (T)0;                                                                 \
  }                                                                                              \
  VKCL_VECTORIZE_1(T, round, T)                                                                  \
  VKCL_VECTORIZE_2(T, fdim, T, T)                                                                \
  VKCL_VECTORIZE_OUT(T, fract, T, T, __private)                                                  \
  VKCL_VECTORIZE_OUT(T, modf, T, T, __private)                                                   \
  DEFINE_OUT_SPACES(T, fract)                                                                    \
  DEFINE_OUT_SPACES(T, modf)

#define OUT_SPACE(T, F, AS)                                                                      \
  VKCL_OUT_VIA_PRIVATE(T, F, T, T, AS)                                                           \
  VKCL_VECTORIZE_OUT(T, F, T, T, AS)
#define DEFINE_OUT_SPACES(T, F) VKCL_FOR_EACH_OUT_SPACE(OUT_SPACE, T, F)

#define VKCL_f_ABS VKCL_FLOAT_ABS
#define VKCL_f_INF VKCL_FLOAT_INF
#define VKCL_f_SIGN VKCL_FLOAT_SIGN
DEFINE_ROUNDING(float, int, uint, f, 0x1.fffffep-1f)
#ifdef VKCL_FP64
#define VKCL_d_ABS VKCL_DOUBLE_ABS
#define VKCL_d_INF VKCL_DOUBLE_INF
#define VKCL_d_SIGN VKCL_DOUBLE_SIGN
DEFINE_ROUNDING(double, long, ulong, d, 0x1.fffffffffffffp-1)
#endif

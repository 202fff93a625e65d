// OpenCL C common functions (OpenCL C 6.15.4) for float and double, every
// vector width: degrees, radians, mix, step, smoothstep and sign. clamp, max
// and min are left to the translator (OpenCL.std fclamp, fmax_common,
// fmin_common), which spirv/lower_opencl_std maps to GLSL.std.450 NClamp,
// FMax and FMin (builtins/LOWERING.md).
//
// Precision (OpenCL full profile): degrees and radians <= 2 ulp (one
// correctly rounded multiplication by a correctly rounded constant: <= 1
// ulp), mix within 1e-3 absolute, smoothstep within 1e-5 absolute, step and
// sign exact.

#include "math/vkcl_math.h"

// `M(T, N, ...)` for N = scalar, 2, 3, 4, 8, 16.
#define FOR_EACH_WIDTH(M, T, ...) \
  M(T, , __VA_ARGS__) M(T, 2, __VA_ARGS__) M(T, 3, __VA_ARGS__) M(T, 4, __VA_ARGS__) M(T, 8, __VA_ARGS__) \
  M(T, 16, __VA_ARGS__)

#define COMMON(T, N, I, U, SIGN, ABS, INF, D2R, R2D)                                            \
  T##N VKCL_OVERLOAD degrees(T##N radians) { return radians * (T)(R2D); }                        \
  T##N VKCL_OVERLOAD radians(T##N degrees) { return degrees * (T)(D2R); }                        \
  T##N VKCL_OVERLOAD mix(T##N x, T##N y, T##N a) { return x + (y - x) * a; }                     \
  T##N VKCL_OVERLOAD step(T##N edge, T##N x) { return x < edge ? (T##N)(0) : (T##N)(1); }        \
  T##N VKCL_OVERLOAD smoothstep(T##N edge0, T##N edge1, T##N x) {                                \
    const T##N t = clamp((x - edge0) / (edge1 - edge0), (T##N)(0), (T##N)(1));                   \
    return t * t * ((T##N)(3) - (T##N)(2) * t);                                                  \
  }                                                                                              \
  /* 1 for x > 0, -1 for x < 0, x itself for +-0, and +0 for NaN. */                            \
  T##N VKCL_OVERLOAD sign(T##N x) {                                                              \
    const U##N bits = as_##U##N(x);                                                              \
    const U##N magnitude = bits & (U##N)(ABS);                                                   \
    const U##N one_with_sign = (bits & (U##N)(SIGN)) | as_##U##N((T##N)(1));                     \
    return magnitude > (U##N)(INF) ? (T##N)(0)                                                   \
                                   : as_##T##N(magnitude == (U##N)(0) ? bits : one_with_sign);  \
  }
// The overloads with a scalar weight or edge (OpenCL C: "gentypef ... float").
#define COMMON_SCALAR_ARGUMENTS(T, N, ...)                                                      \
  T##N VKCL_OVERLOAD mix(T##N x, T##N y, T a) { return mix(x, y, (T##N)(a)); }                   \
  T##N VKCL_OVERLOAD step(T edge, T##N x) { return step((T##N)(edge), x); }                      \
  T##N VKCL_OVERLOAD smoothstep(T edge0, T edge1, T##N x) {                                      \
    return smoothstep((T##N)(edge0), (T##N)(edge1), x);                                          \
  }

// pi/180 and 180/pi, correctly rounded to each type by the compiler.
#define DEGREES_TO_RADIANS 0.017453292519943295769236907684886127
#define RADIANS_TO_DEGREES 57.295779513082320876798154814105170

FOR_EACH_WIDTH(COMMON, float, int, uint, VKCL_FLOAT_SIGN, VKCL_FLOAT_ABS, VKCL_FLOAT_INF, DEGREES_TO_RADIANS,
               RADIANS_TO_DEGREES)
COMMON_SCALAR_ARGUMENTS(float, 2)
COMMON_SCALAR_ARGUMENTS(float, 3)
COMMON_SCALAR_ARGUMENTS(float, 4)
COMMON_SCALAR_ARGUMENTS(float, 8)
COMMON_SCALAR_ARGUMENTS(float, 16)

#ifdef VKCL_FP64
FOR_EACH_WIDTH(COMMON, double, long, ulong, VKCL_DOUBLE_SIGN, VKCL_DOUBLE_ABS, VKCL_DOUBLE_INF,
               DEGREES_TO_RADIANS, RADIANS_TO_DEGREES)
COMMON_SCALAR_ARGUMENTS(double, 2)
COMMON_SCALAR_ARGUMENTS(double, 3)
COMMON_SCALAR_ARGUMENTS(double, 4)
COMMON_SCALAR_ARGUMENTS(double, 8)
COMMON_SCALAR_ARGUMENTS(double, 16)
#endif

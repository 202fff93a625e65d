// The common (OpenCL C 6.15.4) and geometric (6.15.5) functions for half
// (cl_khr_fp16), every width each is declared for: degrees, radians, mix,
// step, smoothstep and sign; dot, cross, length, distance and normalize.
// clamp, max and min are the translator's, as for float (common.cl).
//
// As builtins/math/half.cl says: a half is exactly a float, so each function
// is its float function (common.cl, geometric.cl) on the widened operands,
// rounded to half once. That is well inside OpenCL's half tolerances
// (degrees and radians <= 2 ulp, mix and smoothstep absolute, dot and cross
// absolute in half's epsilon, length, distance and normalize within a few
// ulp), and the float code's scaling keeps a sum of squares of halves from
// overflowing (65504^2 is a float; 4 of them too) or underflowing. step and
// sign are exact in half itself.

#include "math/vkcl_math.h"

#pragma OPENCL EXTENSION cl_khr_fp16 : enable

// `M(N)` for N = scalar, 2, 3, 4, 8, 16, and for the geometric widths.
#define FOR_EACH_WIDTH(M) M() M(2) M(3) M(4) M(8) M(16)
#define FOR_EACH_GEOMETRIC_WIDTH(M) M() M(2) M(3) M(4)
#define FOR_EACH_VECTOR_WIDTH(M) M(2) M(3) M(4) M(8) M(16)

// Every float function is called through a helper defined before the half
// overload of its name (builtins/math/half.cl says why).
#define FLOAT_HELPERS(N)                                                                          \
  static inline float##N degrees_in_float##N(float##N x) { return degrees(x); }                  \
  static inline float##N radians_in_float##N(float##N x) { return radians(x); }                  \
  static inline float##N mix_in_float##N(float##N x, float##N y, float##N a) { return mix(x, y, a); } \
  static inline float##N smoothstep_in_float##N(float##N e0, float##N e1, float##N x) {           \
    return smoothstep(e0, e1, x);                                                                \
  }
FOR_EACH_WIDTH(FLOAT_HELPERS)
#define GEOMETRIC_FLOAT_HELPERS(N)                                                                \
  static inline float dot_in_float##N(float##N p, float##N q) { return dot(p, q); }              \
  static inline float length_in_float##N(float##N p) { return length(p); }                       \
  static inline float distance_in_float##N(float##N p, float##N q) { return distance(p, q); }    \
  static inline float##N normalize_in_float##N(float##N p) { return normalize(p); }
FOR_EACH_GEOMETRIC_WIDTH(GEOMETRIC_FLOAT_HELPERS)
static inline float3 cross_in_float3(float3 p, float3 q) { return cross(p, q); }
static inline float4 cross_in_float4(float4 p, float4 q) { return cross(p, q); }

#define HALF_COMMON(N)                                                                            \
  half##N VKCL_OVERLOAD degrees(half##N x) {                                                     \
    return convert_half##N(degrees_in_float##N(convert_float##N(x)));                            \
  }                                                                                              \
  half##N VKCL_OVERLOAD radians(half##N x) {                                                     \
    return convert_half##N(radians_in_float##N(convert_float##N(x)));                            \
  }                                                                                              \
  half##N VKCL_OVERLOAD mix(half##N x, half##N y, half##N a) {                                   \
    return convert_half##N(mix_in_float##N(convert_float##N(x), convert_float##N(y), convert_float##N(a))); \
  }                                                                                              \
  half##N VKCL_OVERLOAD step(half##N edge, half##N x) { return x < edge ? (half##N)(0) : (half##N)(1); } \
  half##N VKCL_OVERLOAD smoothstep(half##N e0, half##N e1, half##N x) {                          \
    return convert_half##N(                                                                      \
        smoothstep_in_float##N(convert_float##N(e0), convert_float##N(e1), convert_float##N(x))); \
  }                                                                                              \
  /* 1 for x > 0, -1 for x < 0, x itself for +-0, and +0 for NaN. */                            \
  half##N VKCL_OVERLOAD sign(half##N x) {                                                        \
    const ushort##N bits = as_ushort##N(x);                                                      \
    const ushort##N magnitude = (ushort##N)(bits & (ushort##N)(0x7fff));                         \
    const ushort##N one_with_sign = (ushort##N)((bits & (ushort##N)(0x8000)) | (ushort##N)(0x3c00)); \
    return magnitude > (ushort##N)(0x7c00) ? (half##N)(0)                                        \
                                           : as_half##N((ushort##N)(magnitude == (ushort##N)(0) ? bits : one_with_sign)); \
  }
FOR_EACH_WIDTH(HALF_COMMON)

// The overloads with a scalar weight or edge (OpenCL C: "gentypeh ... half").
#define HALF_COMMON_SCALAR_ARGUMENTS(N)                                                           \
  half##N VKCL_OVERLOAD mix(half##N x, half##N y, half a) { return mix(x, y, (half##N)(a)); }    \
  half##N VKCL_OVERLOAD step(half edge, half##N x) { return step((half##N)(edge), x); }          \
  half##N VKCL_OVERLOAD smoothstep(half e0, half e1, half##N x) {                                \
    return smoothstep((half##N)(e0), (half##N)(e1), x);                                          \
  }
FOR_EACH_VECTOR_WIDTH(HALF_COMMON_SCALAR_ARGUMENTS)

#define HALF_GEOMETRIC(N)                                                                         \
  half VKCL_OVERLOAD dot(half##N p, half##N q) {                                                 \
    return (half)dot_in_float##N(convert_float##N(p), convert_float##N(q));                      \
  }                                                                                              \
  half VKCL_OVERLOAD length(half##N p) { return (half)length_in_float##N(convert_float##N(p)); }  \
  half VKCL_OVERLOAD distance(half##N p, half##N q) {                                            \
    return (half)distance_in_float##N(convert_float##N(p), convert_float##N(q));                 \
  }                                                                                              \
  half##N VKCL_OVERLOAD normalize(half##N p) {                                                   \
    return convert_half##N(normalize_in_float##N(convert_float##N(p)));                          \
  }
FOR_EACH_GEOMETRIC_WIDTH(HALF_GEOMETRIC)

half3 VKCL_OVERLOAD cross(half3 p, half3 q) {
  return convert_half3(cross_in_float3(convert_float3(p), convert_float3(q)));
}
half4 VKCL_OVERLOAD cross(half4 p, half4 q) {
  return convert_half4(cross_in_float4(convert_float4(p), convert_float4(q)));
}

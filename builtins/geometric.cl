// OpenCL C geometric functions (OpenCL C 6.15.5) for float and double
// scalars and 2-, 3- and 4-vectors: dot, cross, length, distance,
// normalize, and for float fast_length, fast_distance and fast_normalize.
//
// Precision (OpenCL full profile): dot and cross within their absolute
// tolerances (plain correctly rounded products and sums); length, distance
// and normalize within 3 + ... ulp (float) and 0.5 + ... ulp (double): the
// vector is scaled by a power of two that brings its largest component near
// 1 (exact), so that no square overflows or underflows ("without overflow or
// extraordinary precision loss due to underflow"), then the correctly
// rounded sqrt of builtins/math/sqrt.cl. The fast_ variants are half_sqrt
// and half_rsqrt of the sum of squares (8192 ulp), as OpenCL defines them.
// Every width goes through the 4-vector code, padded with zeros.

#include "math/vkcl_math.h"

// Tiny vectors (every component below 2^-(SCALE - 2) in magnitude) are
// first scaled up by 2^SCALE with __vkcl_scale_up (vkcl_math.h), which
// takes a subnormal component through its significand: on a device that
// flushes float subnormals (NVIDIA's), a subnormal component, or the
// subnormal difference of two tiny ones in distance, would otherwise be 0
// (distance of components near 2^-124 came back 0, or 600 ulp off). The
// scale is exact, and the length comes back by one rounding.
#define DEFINE_GEOMETRIC(T, I, U, SUFFIX, MANTISSA, BIAS, SCALE, TINY_BITS)                      \
  static inline T dot4_##SUFFIX(T##4 p, T##4 q) { return p.x * q.x + p.y * q.y + p.z * q.z + p.w * q.w; } \
  /* The power of two s = 2^-k with |largest component| * s in [1, 2), as (2^-k1, 2^-k2) whose \
     product is s (one factor alone may not be representable), and 2^k as (2^k1, 2^k2). For a   \
     normal largest (tiny vectors are scaled up first). */                                       \
  static inline void scale_of_##SUFFIX(U largest, T##2* down, T##2* up) {                        \
    const int k = (int)(largest >> MANTISSA) - BIAS;                                             \
    const int k1 = k / 2, k2 = k - k1;                                                           \
    *down = (T##2)(__vkcl_pow2_##SUFFIX(-k1), __vkcl_pow2_##SUFFIX(-k2));                       \
    *up = (T##2)(__vkcl_pow2_##SUFFIX(k1), __vkcl_pow2_##SUFFIX(k2));                           \
  }                                                                                              \
  static inline U largest_of_##SUFFIX(U##4 magnitude) {                                          \
    return max(max(magnitude.x, magnitude.y), max(magnitude.z, magnitude.w));                    \
  }                                                                                              \
  /* p * 2^SCALE, exactly, for components below 2^-(SCALE - 2) (or any, when they are 0). */    \
  static inline T##4 scale_up4_##SUFFIX(T##4 p) {                                                \
    return (T##4)(__vkcl_scale_up_##SUFFIX(p.x, SCALE), __vkcl_scale_up_##SUFFIX(p.y, SCALE),    \
                  __vkcl_scale_up_##SUFFIX(p.z, SCALE), __vkcl_scale_up_##SUFFIX(p.w, SCALE));   \
  }                                                                                              \
  /* any() of a vector comparison: a chain of || of the components would become an i4 bitcast  \
     in LLVM, which the translator rejects. */                                                   \
  static inline int any_##SUFFIX(U##4 magnitude, U limit) { return any(magnitude > (U##4)(limit)); } \
  /* sqrt(dot(a, a)) for finite a >= 0 whose largest component is normal. */                    \
  static inline T length_scaled_##SUFFIX(T##4 a, U largest) {                                    \
    T##2 down, up;                                                                               \
    scale_of_##SUFFIX(largest, &down, &up);                                                      \
    const T##4 scaled = a * down.x * down.y;                                                     \
    return sqrt(dot4_##SUFFIX(scaled, scaled)) * up.x * up.y;                                    \
  }                                                                                              \
  /* sqrt(dot(p, p)); +inf if a component is infinite, else NaN if one is NaN. */               \
  static inline T length4_##SUFFIX(T##4 p) {                                                     \
    const U##4 magnitude = as_##U##4(p) & (U##4)(VKCL_##SUFFIX##_ABS);                           \
    if (any_##SUFFIX(magnitude, (U)VKCL_##SUFFIX##_INF - 1)) {                                   \
      if (any(magnitude == (U##4)(VKCL_##SUFFIX##_INF))) return as_##T((U)VKCL_##SUFFIX##_INF);  \
      return __vkcl_quiet_nan_##SUFFIX();                                                        \
    }                                                                                            \
    const T##4 a = as_##T##4(magnitude);                                                         \
    const U largest = largest_of_##SUFFIX(magnitude);                                            \
    if (largest == 0) return (T)0;                                                               \
    if (largest < (U)(TINY_BITS)) {                                                              \
      const T##4 up = scale_up4_##SUFFIX(a);                                                     \
      return length_scaled_##SUFFIX(up, largest_of_##SUFFIX(as_##U##4(up))) * __vkcl_pow2_##SUFFIX(-(SCALE)); \
    }                                                                                            \
    return length_scaled_##SUFFIX(a, largest);                                                   \
  }                                                                                              \
  /* length(p - q). Where the components that differ are all tiny, their differences (maybe     \
     subnormal) are taken scaled up, and the length scaled back; the others are equal. */        \
  static inline T distance4_##SUFFIX(T##4 p, T##4 q) {                                           \
    const U##4 larger = max(as_##U##4(p) & (U##4)(VKCL_##SUFFIX##_ABS), as_##U##4(q) & (U##4)(VKCL_##SUFFIX##_ABS)); \
    const I##4 tiny = larger < (U##4)(TINY_BITS);                                                \
    if (all(tiny | (as_##U##4(p) == as_##U##4(q) & larger < (U##4)(VKCL_##SUFFIX##_INF)))) {     \
      const T##4 zero = (T##4)(0);                                                               \
      const T##4 d = scale_up4_##SUFFIX(select(zero, p, tiny)) - scale_up4_##SUFFIX(select(zero, q, tiny)); \
      return length4_##SUFFIX(d) * __vkcl_pow2_##SUFFIX(-(SCALE));                               \
    }                                                                                            \
    return length4_##SUFFIX(p - q);                                                              \
  }                                                                                              \
  /* p / length(p), with OpenCL's special cases: all zeros stay, a NaN makes every component    \
     NaN, infinite components become +-1 and the finite ones +-0. A tiny p is scaled up first   \
     (the direction stays). */                                                                   \
  static inline T##4 normalize4_##SUFFIX(T##4 p) {                                               \
    const U##4 bits = as_##U##4(p);                                                              \
    const U##4 magnitude = bits & (U##4)(VKCL_##SUFFIX##_ABS);                                   \
    const U##4 sign = bits & (U##4)(VKCL_##SUFFIX##_SIGN);                                       \
    if (any_##SUFFIX(magnitude, (U)VKCL_##SUFFIX##_INF)) return (T##4)(__vkcl_quiet_nan_##SUFFIX()); \
    if (any(magnitude == (U##4)(VKCL_##SUFFIX##_INF)))                                            \
      p = as_##T##4(sign | (magnitude == (U##4)(VKCL_##SUFFIX##_INF) ? as_##U##4((T##4)(1)) : (U##4)(0))); \
    U largest = largest_of_##SUFFIX(as_##U##4(p) & (U##4)(VKCL_##SUFFIX##_ABS));                 \
    if (largest == 0) return p;                                                                  \
    if (largest < (U)(TINY_BITS)) {                                                              \
      p = scale_up4_##SUFFIX(p);                                                                 \
      largest = largest_of_##SUFFIX(as_##U##4(p) & (U##4)(VKCL_##SUFFIX##_ABS));                 \
    }                                                                                            \
    T##2 down, up;                                                                               \
    scale_of_##SUFFIX(largest, &down, &up);                                                      \
    const T##4 scaled = p * down.x * down.y;                                                     \
    return scaled / sqrt(dot4_##SUFFIX(scaled, scaled));                                         \
  }                                                                                              \
  T VKCL_OVERLOAD dot(T p, T q) { return p * q; }                                                \
  T VKCL_OVERLOAD dot(T##2 p, T##2 q) { return p.x * q.x + p.y * q.y; }                          \
  T VKCL_OVERLOAD dot(T##3 p, T##3 q) { return p.x * q.x + p.y * q.y + p.z * q.z; }              \
  T VKCL_OVERLOAD dot(T##4 p, T##4 q) { return dot4_##SUFFIX(p, q); }                            \
  T##3 VKCL_OVERLOAD cross(T##3 p, T##3 q) {                                                     \
    return (T##3)(p.y * q.z - p.z * q.y, p.z * q.x - p.x * q.z, p.x * q.y - p.y * q.x);          \
  }                                                                                              \
  T##4 VKCL_OVERLOAD cross(T##4 p, T##4 q) { return (T##4)(cross(p.xyz, q.xyz), (T)0); }         \
  T VKCL_OVERLOAD length(T p) { return as_##T(as_##U(p) & (U)VKCL_##SUFFIX##_ABS); }             \
  T VKCL_OVERLOAD length(T##2 p) { return length4_##SUFFIX((T##4)(p, (T)0, (T)0)); }             \
  T VKCL_OVERLOAD length(T##3 p) { return length4_##SUFFIX((T##4)(p, (T)0)); }                   \
  T VKCL_OVERLOAD length(T##4 p) { return length4_##SUFFIX(p); }                                 \
  T VKCL_OVERLOAD distance(T p, T q) {                                                            \
    const U larger = max(as_##U(p) & (U)VKCL_##SUFFIX##_ABS, as_##U(q) & (U)VKCL_##SUFFIX##_ABS); \
    if (larger < (U)(TINY_BITS))                                                                 \
      return fabs(__vkcl_scale_up_##SUFFIX(p, SCALE) - __vkcl_scale_up_##SUFFIX(q, SCALE)) *     \
             __vkcl_pow2_##SUFFIX(-(SCALE));                                                     \
    return fabs(p - q);                                                                          \
  }                                                                                              \
  T VKCL_OVERLOAD distance(T##2 p, T##2 q) {                                                     \
    return distance4_##SUFFIX((T##4)(p, (T)0, (T)0), (T##4)(q, (T)0, (T)0));                     \
  }                                                                                              \
  T VKCL_OVERLOAD distance(T##3 p, T##3 q) { return distance4_##SUFFIX((T##4)(p, (T)0), (T##4)(q, (T)0)); } \
  T VKCL_OVERLOAD distance(T##4 p, T##4 q) { return distance4_##SUFFIX(p, q); }                  \
  T VKCL_OVERLOAD normalize(T p) { return normalize4_##SUFFIX((T##4)(p, (T)0, (T)0, (T)0)).x; }  \
  T##2 VKCL_OVERLOAD normalize(T##2 p) { return normalize4_##SUFFIX((T##4)(p, (T)0, (T)0)).xy; } \
  T##3 VKCL_OVERLOAD normalize(T##3 p) { return normalize4_##SUFFIX((T##4)(p, (T)0)).xyz; }      \
  T##4 VKCL_OVERLOAD normalize(T##4 p) { return normalize4_##SUFFIX(p); }

#define VKCL_f_ABS VKCL_FLOAT_ABS
#define VKCL_f_INF VKCL_FLOAT_INF
#define VKCL_f_SIGN VKCL_FLOAT_SIGN
DEFINE_GEOMETRIC(float, int, uint, f, 23, 127, 64, 0x20800000u)  // 2^64; below 2^-62

#ifdef VKCL_FP64
#define VKCL_d_ABS VKCL_DOUBLE_ABS
#define VKCL_d_INF VKCL_DOUBLE_INF
#define VKCL_d_SIGN VKCL_DOUBLE_SIGN
DEFINE_GEOMETRIC(double, long, ulong, d, 52, 1023, 512, 0x2010000000000000ul)  // 2^512; below 2^-510
#endif

// fast_length(p) = half_sqrt(dot(p, p)); fast_normalize(p) = p * half_rsqrt(dot(p, p)), or p when
// every component is 0.
#define DEFINE_FAST(N)                                                                           \
  float VKCL_OVERLOAD fast_length(float##N p) { return half_sqrt(dot(p, p)); }                   \
  float VKCL_OVERLOAD fast_distance(float##N p, float##N q) { return fast_length(p - q); }       \
  float##N VKCL_OVERLOAD fast_normalize(float##N p) {                                            \
    const float sum = dot(p, p);                                                                 \
    return sum == 0.0f ? p : p * half_rsqrt(sum);                                                \
  }
DEFINE_FAST()
DEFINE_FAST(2)
DEFINE_FAST(3)
DEFINE_FAST(4)

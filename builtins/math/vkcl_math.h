// Shared by the math, integer, common, geometric and relational builtins:
// overload macros that define every vector width from the scalar function,
// and bit-level helpers.
//
// Every file that includes this one computes in the precision it writes:
// FP_CONTRACT is off, so a * b + c is two correctly rounded operations (the
// error-free transformations and argument reductions here depend on that;
// spirv/forbid_fp_contraction keeps Vulkan drivers from fusing them), and
// mad() is what asks for "fma or multiply-then-add". NaN, infinity and sign
// tests look at the bits, never at comparisons a Vulkan driver may fold by
// assuming there are no NaNs.
#pragma once

#pragma OPENCL FP_CONTRACT OFF
#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define VKCL_FP64 1
#endif

#define VKCL_OVERLOAD __attribute__((overloadable))

// A call to a builtin this library defines sees only the overloads defined
// above it in the same file (clang's table of builtin declarations is not
// consulted once the name is declared), so a double argument could silently
// become a float. Such conversions are errors here.
#pragma clang diagnostic error "-Wimplicit-float-conversion"

// ---------------------------------------------------------------------------
// Vector overloads from scalar ones, component by component. Widths 4, 8 and
// 16 split into halves, so each level calls the one below. Each VKCL_X(...)
// expands its arguments before VKCL_X_ pastes the widths onto them, so that a
// type may be a macro (VKCL_T in a template, vkcl_math_types.inc).

// R F(T a)
#define VKCL_VECTORIZE_1_(R, F, T)                                                              \
  R##2 VKCL_OVERLOAD F(T##2 a) { return (R##2)(F(a.s0), F(a.s1)); }                           \
  R##3 VKCL_OVERLOAD F(T##3 a) { return (R##3)(F(a.s0), F(a.s1), F(a.s2)); }                  \
  R##4 VKCL_OVERLOAD F(T##4 a) { return (R##4)(F(a.lo), F(a.hi)); }                           \
  R##8 VKCL_OVERLOAD F(T##8 a) { return (R##8)(F(a.lo), F(a.hi)); }                           \
  R##16 VKCL_OVERLOAD F(T##16 a) { return (R##16)(F(a.lo), F(a.hi)); }
#define VKCL_VECTORIZE_1(...) VKCL_VECTORIZE_1_(__VA_ARGS__)

// R F(T a, U b)
#define VKCL_VECTORIZE_2_(R, F, T, U)                                                           \
  R##2 VKCL_OVERLOAD F(T##2 a, U##2 b) { return (R##2)(F(a.s0, b.s0), F(a.s1, b.s1)); }       \
  R##3 VKCL_OVERLOAD F(T##3 a, U##3 b) {                                                      \
    return (R##3)(F(a.s0, b.s0), F(a.s1, b.s1), F(a.s2, b.s2));                               \
  }                                                                                            \
  R##4 VKCL_OVERLOAD F(T##4 a, U##4 b) { return (R##4)(F(a.lo, b.lo), F(a.hi, b.hi)); }       \
  R##8 VKCL_OVERLOAD F(T##8 a, U##8 b) { return (R##8)(F(a.lo, b.lo), F(a.hi, b.hi)); }       \
  R##16 VKCL_OVERLOAD F(T##16 a, U##16 b) { return (R##16)(F(a.lo, b.lo), F(a.hi, b.hi)); }
#define VKCL_VECTORIZE_2(...) VKCL_VECTORIZE_2_(__VA_ARGS__)

// R F(T a, U b) with a scalar b (ldexp(floatn, int), fmax(floatn, float), ...).
#define VKCL_VECTORIZE_2_SCALAR_(R, F, T, U)                                                    \
  R##2 VKCL_OVERLOAD F(T##2 a, U b) { return (R##2)(F(a.s0, b), F(a.s1, b)); }                \
  R##3 VKCL_OVERLOAD F(T##3 a, U b) { return (R##3)(F(a.s0, b), F(a.s1, b), F(a.s2, b)); }    \
  R##4 VKCL_OVERLOAD F(T##4 a, U b) { return (R##4)(F(a.lo, b), F(a.hi, b)); }                \
  R##8 VKCL_OVERLOAD F(T##8 a, U b) { return (R##8)(F(a.lo, b), F(a.hi, b)); }                \
  R##16 VKCL_OVERLOAD F(T##16 a, U b) { return (R##16)(F(a.lo, b), F(a.hi, b)); }
#define VKCL_VECTORIZE_2_SCALAR(...) VKCL_VECTORIZE_2_SCALAR_(__VA_ARGS__)

// R F(T a, U b, V c)
#define VKCL_VECTORIZE_3_(R, F, T, U, V)                                                        \
  R##2 VKCL_OVERLOAD F(T##2 a, U##2 b, V##2 c) {                                              \
    return (R##2)(F(a.s0, b.s0, c.s0), F(a.s1, b.s1, c.s1));                                  \
  }                                                                                            \
  R##3 VKCL_OVERLOAD F(T##3 a, U##3 b, V##3 c) {                                              \
    return (R##3)(F(a.s0, b.s0, c.s0), F(a.s1, b.s1, c.s1), F(a.s2, b.s2, c.s2));             \
  }                                                                                            \
  R##4 VKCL_OVERLOAD F(T##4 a, U##4 b, V##4 c) { return (R##4)(F(a.lo, b.lo, c.lo), F(a.hi, b.hi, c.hi)); } \
  R##8 VKCL_OVERLOAD F(T##8 a, U##8 b, V##8 c) { return (R##8)(F(a.lo, b.lo, c.lo), F(a.hi, b.hi, c.hi)); } \
  R##16 VKCL_OVERLOAD F(T##16 a, U##16 b, V##16 c) {                                          \
    return (R##16)(F(a.lo, b.lo, c.lo), F(a.hi, b.hi, c.hi));                                 \
  }
#define VKCL_VECTORIZE_3(...) VKCL_VECTORIZE_3_(__VA_ARGS__)

// R F(T a, AS P* out): the scalar function for __private pointers does the
// work; each vector result collects its components' outputs in private
// memory first.
#define VKCL_VECTORIZE_OUT_(R, F, T, P, AS)                                                     \
  R##2 VKCL_OVERLOAD F(T##2 a, AS P##2* out) {                                                 \
    P o0, o1;                                                                                  \
    R##2 r = (R##2)(F(a.s0, &o0), F(a.s1, &o1));                                               \
    *out = (P##2)(o0, o1);                                                                     \
    return r;                                                                                  \
  }                                                                                            \
  R##3 VKCL_OVERLOAD F(T##3 a, AS P##3* out) {                                                 \
    P o0, o1, o2;                                                                              \
    R##3 r = (R##3)(F(a.s0, &o0), F(a.s1, &o1), F(a.s2, &o2));                                 \
    *out = (P##3)(o0, o1, o2);                                                                 \
    return r;                                                                                  \
  }                                                                                            \
  VKCL_VECTORIZE_OUT_HALVES(R, F, T, P, AS, 4, 2)                                              \
  VKCL_VECTORIZE_OUT_HALVES(R, F, T, P, AS, 8, 4)                                              \
  VKCL_VECTORIZE_OUT_HALVES(R, F, T, P, AS, 16, 8)
#define VKCL_VECTORIZE_OUT(...) VKCL_VECTORIZE_OUT_(__VA_ARGS__)
#define VKCL_VECTORIZE_OUT_HALVES(R, F, T, P, AS, N, H)                                        \
  R##N VKCL_OVERLOAD F(T##N a, AS P##N* out) {                                                 \
    P##H lo, hi;                                                                               \
    R##N r = (R##N)(F(a.lo, &lo), F(a.hi, &hi));                                               \
    *out = (P##N)(lo, hi);                                                                     \
    return r;                                                                                  \
  }

// R F(T a, U b, AS P* out) (remquo)
#define VKCL_VECTORIZE_2_OUT_(R, F, T, U, P, AS)                                                \
  R##2 VKCL_OVERLOAD F(T##2 a, U##2 b, AS P##2* out) {                                         \
    P o0, o1;                                                                                  \
    R##2 r = (R##2)(F(a.s0, b.s0, &o0), F(a.s1, b.s1, &o1));                                   \
    *out = (P##2)(o0, o1);                                                                     \
    return r;                                                                                  \
  }                                                                                            \
  R##3 VKCL_OVERLOAD F(T##3 a, U##3 b, AS P##3* out) {                                         \
    P o0, o1, o2;                                                                              \
    R##3 r = (R##3)(F(a.s0, b.s0, &o0), F(a.s1, b.s1, &o1), F(a.s2, b.s2, &o2));               \
    *out = (P##3)(o0, o1, o2);                                                                 \
    return r;                                                                                  \
  }                                                                                            \
  VKCL_VECTORIZE_2_OUT_HALVES(R, F, T, U, P, AS, 4, 2)                                         \
  VKCL_VECTORIZE_2_OUT_HALVES(R, F, T, U, P, AS, 8, 4)                                         \
  VKCL_VECTORIZE_2_OUT_HALVES(R, F, T, U, P, AS, 16, 8)
#define VKCL_VECTORIZE_2_OUT(...) VKCL_VECTORIZE_2_OUT_(__VA_ARGS__)
#define VKCL_VECTORIZE_2_OUT_HALVES(R, F, T, U, P, AS, N, H)                                   \
  R##N VKCL_OVERLOAD F(T##N a, U##N b, AS P##N* out) {                                         \
    P##H lo, hi;                                                                               \
    R##N r = (R##N)(F(a.lo, b.lo, &lo), F(a.hi, b.hi, &hi));                                   \
    *out = (P##N)(lo, hi);                                                                     \
    return r;                                                                                  \
  }

// The scalar function for a non-private address space, through a private
// temporary: R F(T a, AS P* out).
#define VKCL_OUT_VIA_PRIVATE(R, F, T, P, AS)                                                   \
  R VKCL_OVERLOAD F(T a, AS P* out) {                                                          \
    P o;                                                                                       \
    R r = F(a, &o);                                                                            \
    *out = o;                                                                                  \
    return r;                                                                                  \
  }
#define VKCL_OUT_VIA_PRIVATE_2(R, F, T, U, P, AS)                                              \
  R VKCL_OVERLOAD F(T a, U b, AS P* out) {                                                     \
    P o;                                                                                       \
    R r = F(a, b, &o);                                                                         \
    *out = o;                                                                                  \
    return r;                                                                                  \
  }

// Every address space a pointer argument of an OpenCL C 1.2 program (global,
// local, private) or of a 2.0/3.0 program (generic) can be in.
#define VKCL_FOR_EACH_OUT_SPACE(M, ...) \
  M(__VA_ARGS__, __global) M(__VA_ARGS__, __local) M(__VA_ARGS__, __generic)

// ---------------------------------------------------------------------------
// Names in templates (builtins/math/*.inc, included once per type by
// vkcl_math_types.inc): VKCL_FN(name) is name_f or name_d, the helper of
// that name for the type being defined (VKCL_FN(__vkcl_isnan) is
// __vkcl_isnan_f for float); VKCL_CONST(NAME) is NAME_F or NAME_D, a
// constant the including file defines for each type.
#define VKCL_CAT_(a, b) a##b
#define VKCL_CAT(a, b) VKCL_CAT_(a, b)
#define VKCL_FN(name) VKCL_CAT(name##_, VKCL_SUFFIX)
#define VKCL_CONST(name) VKCL_CAT(name##_, VKCL_SUFFIX_UPPER)

// ---------------------------------------------------------------------------
// Float bits. `as_uint`/`as_ulong` of the value: the tests below never
// depend on how a driver treats NaN in comparisons.

#define VKCL_FLOAT_SIGN 0x80000000u
#define VKCL_FLOAT_ABS 0x7fffffffu
#define VKCL_FLOAT_INF 0x7f800000u
#define VKCL_DOUBLE_SIGN 0x8000000000000000ul
#define VKCL_DOUBLE_ABS 0x7ffffffffffffffful
#define VKCL_DOUBLE_INF 0x7ff0000000000000ul

static inline int __vkcl_isnan_f(float x) { return (as_uint(x) & VKCL_FLOAT_ABS) > VKCL_FLOAT_INF; }
static inline int __vkcl_isinf_f(float x) { return (as_uint(x) & VKCL_FLOAT_ABS) == VKCL_FLOAT_INF; }
static inline int __vkcl_isfinite_f(float x) { return (as_uint(x) & VKCL_FLOAT_ABS) < VKCL_FLOAT_INF; }
static inline int __vkcl_signbit_f(float x) { return as_int(x) < 0; }
static inline float __vkcl_quiet_nan_f(void) { return as_float(0x7fc00000u); }

#ifdef VKCL_FP64
static inline int __vkcl_isnan_d(double x) { return (as_ulong(x) & VKCL_DOUBLE_ABS) > VKCL_DOUBLE_INF; }
static inline int __vkcl_isinf_d(double x) { return (as_ulong(x) & VKCL_DOUBLE_ABS) == VKCL_DOUBLE_INF; }
static inline int __vkcl_isfinite_d(double x) { return (as_ulong(x) & VKCL_DOUBLE_ABS) < VKCL_DOUBLE_INF; }
static inline int __vkcl_signbit_d(double x) { return as_long(x) < 0; }
static inline double __vkcl_quiet_nan_d(void) { return as_double(0x7ff8000000000000ul); }
#endif

// 2^n for an integer n in [-126, 127] (float) / [-1022, 1023] (double), exactly.
static inline float __vkcl_pow2_f(int n) { return as_float((uint)(n + 127) << 23); }
#ifdef VKCL_FP64
static inline double __vkcl_pow2_d(int n) { return as_double((ulong)(n + 1023) << 52); }
#endif

// ---------------------------------------------------------------------------
// Subnormals without float arithmetic. A device may flush float subnormals
// to zero in every float instruction, operands and results: OpenCL allows it
// for float where the device does not report CL_FP_DENORM (OpenCL C 3.0
// §7.2, and §7.5.3 for what the functions may then return), NVIDIA's Vulkan
// driver does it (the H100's, with shaderDenormPreserveFloat32 = false, so
// that DenormPreserve cannot be asked for), and Vulkan lets any driver do it
// where a module declares no denorm mode. There, x * 0x1p32f is 0 for a
// subnormal x and x == 0 is true. So a subnormal is taken apart on its bits:
// its significand m (the bits below the exponent field), converted from an
// integer, is exactly x * 2^149 (float; m < 2^23 is exact, and a conversion
// from an integer flushes nothing) or x * 2^1074 (double; fp64 subnormals
// are kept everywhere, OpenCL C 3.0 §7.2, but the code is the same). Zero,
// infinity and NaN are told apart on the bits too, never by comparisons.

// For finite x: a float y that is normal or zero, of x's sign, with
// x = y * 2^*shift exactly (*shift is 0, or -149 for a subnormal or zero x).
static inline float __vkcl_normalize_f(float x, int* shift) {
  const uint bits = as_uint(x);
  const int tiny = (bits & VKCL_FLOAT_INF) == 0;  // exponent field 0: zero or subnormal
  *shift = tiny ? -149 : 0;
  return tiny ? as_float(as_uint((float)(bits & 0x007fffffu)) | (bits & VKCL_FLOAT_SIGN)) : x;
}
// The unbiased exponent of a finite nonzero x, subnormals included
// (ilogb(x)), from the bits alone.
static inline int __vkcl_exponent_f(float x) {
  int shift;
  const uint bits = as_uint(__vkcl_normalize_f(x, &shift));
  return (int)((bits >> 23) & 0xffu) - 127 + shift;
}
// x * 2^n exactly where that is normal (or zero) and finite, x a subnormal
// too (multiplied through its significand, never itself): 23 <= n <= 127 for
// any x, up to 149 for a zero or subnormal x.
static inline float __vkcl_scale_up_f(float x, int n) {
  int shift;
  const float y = __vkcl_normalize_f(x, &shift);
  return y * __vkcl_pow2_f(n + shift);
}

// ---------------------------------------------------------------------------
// Error-free transformations (Dekker, Knuth), exact when every operation is
// rounded to nearest and nothing overflows or underflows; vkcl keeps each
// operation as written (FP_CONTRACT off here, NoContraction in SPIR-V).

// a * b = result + *error, for |a|, |b| < 2^100.
static inline float __vkcl_two_product_f(float a, float b, float* error) {
  const float product = a * b;
  const float sa = a * 4097.0f, sb = b * 4097.0f;  // Veltkamp: 12 + 12 bits
  const float ah = sa - (sa - a), al = a - ah;
  const float bh = sb - (sb - b), bl = b - bh;
  *error = ((ah * bh - product) + ah * bl + al * bh) + al * bl;
  return product;
}
// a + b = result + *error for |a| >= |b| (or a == 0).
static inline float __vkcl_fast_two_sum_f(float a, float b, float* error) {
  const float sum = a + b;
  *error = b - (sum - a);
  return sum;
}
// a + b = result + *error, any order.
static inline float __vkcl_two_sum_f(float a, float b, float* error) {
  const float sum = a + b;
  const float b_part = sum - a;
  *error = (a - (sum - b_part)) + (b - b_part);
  return sum;
}

// Shared between the files of builtins/math (defined in exp.cl and log.cl).
float __vkcl_scale_f(float p, int n);
float __vkcl_exp_scaled_f(float x, int k);
float __vkcl_exp2_extended_f(float hi, float lo);
float __vkcl_log2_extended_f(float x, float* lo);

#ifdef VKCL_FP64
// The same for double (Veltkamp's split by 2^27 + 1), for |a|, |b| < 2^900.
static inline double __vkcl_two_product_d(double a, double b, double* error) {
  const double product = a * b;
  const double sa = a * 134217729.0, sb = b * 134217729.0;
  const double ah = sa - (sa - a), al = a - ah;
  const double bh = sb - (sb - b), bl = b - bh;
  *error = ((ah * bh - product) + ah * bl + al * bh) + al * bl;
  return product;
}
static inline double __vkcl_fast_two_sum_d(double a, double b, double* error) {
  const double sum = a + b;
  *error = b - (sum - a);
  return sum;
}
static inline double __vkcl_two_sum_d(double a, double b, double* error) {
  const double sum = a + b;
  const double b_part = sum - a;
  *error = (a - (sum - b_part)) + (b - b_part);
  return sum;
}

// The same as __vkcl_normalize_f, __vkcl_exponent_f and __vkcl_scale_up_f
// (*shift = -1074; 52 <= n <= 1023, up to 1074 for a zero or subnormal x).
static inline double __vkcl_normalize_d(double x, int* shift) {
  const ulong bits = as_ulong(x);
  const int tiny = (bits & VKCL_DOUBLE_INF) == 0;
  *shift = tiny ? -1074 : 0;
  return tiny ? as_double(as_ulong((double)(bits & 0x000ffffffffffffful)) | (bits & VKCL_DOUBLE_SIGN)) : x;
}
static inline int __vkcl_exponent_d(double x) {
  int shift;
  const ulong bits = as_ulong(__vkcl_normalize_d(x, &shift));
  return (int)((bits >> 52) & 0x7fful) - 1023 + shift;
}
static inline double __vkcl_scale_up_d(double x, int n) {
  int shift;
  const double y = __vkcl_normalize_d(x, &shift);
  return y * __vkcl_pow2_d(n + shift);
}

double __vkcl_scale_d(double p, int n);
double __vkcl_exp_scaled_d(double x, int k);
double __vkcl_exp2_extended_d(double hi, double lo);
double __vkcl_log_extended_d(double x, double* lo);
double __vkcl_log2_extended_d(double x, double* lo);
#endif

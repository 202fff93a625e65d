// The OpenCL C math, common, geometric and relational builtins on the
// device, against references computed here: each function runs over special
// values (+-0, +-inf, NaN, subnormals, the largest and smallest normals,
// halfway cases, large arguments) and a few thousand random ones, as float
// and (where the device has shaderFloat64) double, as scalars and as
// 4-vectors. Exact functions must match bit for bit (any NaN for NaN, the
// sign of zero included); the others must stay within OpenCL's full-profile
// bound, measured in ulp of the reference (computed in long double, or by the
// host's correctly rounded libm where the function is exact). Each test
// prints the worst case per function, in words.
//
// Denormals: OpenCL lets a device flush float subnormals (inputs and
// results, "Edge Case Behavior in Flush To Zero Mode"); a probe finds out
// what this device does, and where it flushes, the flushed alternatives are
// accepted for float. Double subnormals are always checked. The tests
// FloatFlushToZero and GeometricFloatFlushToZero run the float functions
// again as a flushing device (NVIDIA's) would, emulated in the modules
// (emulate_flush_to_zero.h), so that code that is wrong only there shows
// here too.
//
// Built with build_program from api/vkcl/source_program.h (OpenCL C 3.0).
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "test_device.h"
#include "vkcl/source_program.h"
#ifdef VKCL_TEST_EMULATE_FLUSH_TO_ZERO
#include "emulate_flush_to_zero.h"
#endif

namespace vkcl {
namespace {

// Set while a test runs the functions as a device that flushes float
// subnormals would (emulate_flush_to_zero.h).
bool emulating_flush_to_zero = false;

// build_program, or with the module rewritten to flush float subnormals.
Program build_test_program(std::string_view source, std::string_view file_name, CompileOptions options = {}) {
#ifdef VKCL_TEST_EMULATE_FLUSH_TO_ZERO
  if (emulating_flush_to_zero) {
    VulkanModule module = compile_module_for(test::device().features(), source, file_name, std::move(options));
    return Program(test::device(), test::emulate_float_flush_to_zero(module.words), std::move(module.reflection));
  }
#endif
  return build_program(test::device(), source, file_name, std::move(options));
}

// OpenCL C 3.0 (ctz and the generic address space need 2.0 or later).
CompileOptions cl30() {
  CompileOptions options;
  options.cl_std = OpenCLStd::CL3_0;
  return options;
}

using ld = long double;

// ---------------------------------------------------------------------------
// Types

template <typename T>
struct Traits;
template <>
struct Traits<float> {
  using Bits = uint32_t;
  static constexpr const char* name = "float";
  static constexpr const char* int_name = "int";
  static constexpr int mantissa = 23, min_exponent = -126, max_exponent = 127;
};
template <>
struct Traits<double> {
  using Bits = uint64_t;
  static constexpr const char* name = "double";
  static constexpr const char* int_name = "int";
  static constexpr int mantissa = 52, min_exponent = -1022, max_exponent = 1023;
};

template <typename T>
typename Traits<T>::Bits bits_of(T x) {
  return std::bit_cast<typename Traits<T>::Bits>(x);
}

template <typename T>
std::string hex(T x) {
  if (std::isnan(x)) return "nan";
  char text[64];
  std::snprintf(text, sizeof text, "%La", (ld)x);
  return text;
}

// OpenCL's ulp of the (exact) reference: the gap at its exponent, the
// smallest subnormal's below the normal range, and the largest finite's gap
// beyond it.
template <typename T>
ld ulp_of(ld reference) {
  using X = Traits<T>;
  const ld r = std::fabs(reference);
  if (r < std::ldexp(1.0L, X::min_exponent)) return std::ldexp(1.0L, X::min_exponent - X::mantissa);
  int e;
  std::frexp(r, &e);  // r in [2^(e-1), 2^e)
  e = std::min(e, X::max_exponent + 1);
  return std::ldexp(1.0L, e - 1 - X::mantissa);
}

// |got - reference| in ulp; an infinity counts as 2^(max_exponent + 1) when
// the reference is finite (OpenCL/Vulkan: a result beyond the largest finite
// number may be infinite).
template <typename T>
ld ulp_error(T got, ld reference) {
  if (std::isnan(reference)) return std::isnan(got) ? 0 : INFINITY;
  if (std::isnan(got)) return INFINITY;
  if (std::isinf(reference)) return got == reference ? 0 : INFINITY;
  // An exact zero's sign is part of the result (sin(-0) = -0, log(1) = +0, ...).
  if (reference == 0 && got == 0) return std::signbit(reference) == std::signbit(got) ? 0 : INFINITY;
  // A reference at least halfway past the largest finite number rounds to infinity.
  const ld overflow = std::ldexp(2.0L - std::ldexp(1.0L, -Traits<T>::mantissa - 1), Traits<T>::max_exponent);
  if (std::fabs(reference) >= overflow && std::isinf(got) && std::signbit(got) == std::signbit(reference)) return 0;
  ld g = got;
  if (std::isinf(got)) g = std::copysign(std::ldexp(1.0L, Traits<T>::max_exponent + 1), (ld)got);
  return std::fabs(g - reference) / ulp_of<T>(reference);
}

template <typename T>
bool same(T got, T expected) {
  if (std::isnan(expected)) return std::isnan(got);
  return bits_of(got) == bits_of(expected);
}

template <typename T>
bool is_subnormal(T x) {
  return x != 0 && std::fabs(x) < std::numeric_limits<T>::min();
}

// ---------------------------------------------------------------------------
// Inputs

template <typename T>
std::vector<T> special_values() {
  using L = std::numeric_limits<T>;
  std::vector<T> v = {0,
                      1,
                      0.5,
                      1.5,
                      2.5,
                      3,
                      0.25,
                      std::nextafter(T(0.5), T(0)),
                      std::nextafter(T(0.5), T(1)),
                      std::nextafter(T(1), T(0)),
                      std::nextafter(T(1), T(2)),
                      T(3.14159265358979323846),
                      T(1.5707963267948966),
                      T(100.5),
                      T(1e-30),
                      T(1e30),
                      T(88.7),
                      T(-103.9),
                      std::ldexp(T(1), L::digits - 1),
                      std::ldexp(T(1), L::digits - 1) + 1,
                      std::ldexp(T(1), L::digits) + 2,
                      L::min(),
                      std::nextafter(L::min(), T(0)),
                      L::denorm_min(),
                      L::max(),
                      L::infinity(),
                      L::quiet_NaN(),
                      T(1e10),
                      T(123456.789),
                      T(0.1)};
  const size_t n = v.size();
  for (size_t i = 0; i < n; ++i) v.push_back(-v[i]);
  return v;
}

template <typename T>
T random_bits(std::mt19937_64& rng) {
  return std::bit_cast<T>(typename Traits<T>::Bits(rng()));
}

// Random values: any bit pattern, then moderate ones, then ones in [-2, 2].
template <typename T>
T random_value(std::mt19937_64& rng, int kind) {
  switch (kind % 3) {
    case 0: return random_bits<T>(rng);
    case 1: return std::uniform_real_distribution<T>(-1000, 1000)(rng);
    default: return std::uniform_real_distribution<T>(-2, 2)(rng);
  }
}

template <typename T>
struct Inputs {
  std::vector<T> a, b, c;
  size_t size() const { return a.size(); }
  void add(T x, T y, T z) {
    a.push_back(x);
    b.push_back(y);
    c.push_back(z);
  }
};

// Specials (all combinations up to the arity, the third operand from a
// shorter list) and `random_count` random cases, a multiple of 4 in all.
template <typename T>
Inputs<T> make_inputs(int arity, size_t random_count, uint64_t seed) {
  Inputs<T> in;
  std::mt19937_64 rng(seed);
  const std::vector<T> s = special_values<T>();
  if (arity == 1) {
    for (T x : s) in.add(x, 0, 0);
    // The floats nearest n pi/2 for n up to 2^7 + 2 and their neighbours:
    // where sin, cos and tan's Cody-Waite reduction (|x| <= 2^7 pi/2,
    // builtins/math/trig.cl) cancels most, and just past its end.
    for (int n = 1; n <= 130; ++n)
      for (T sign : {T(1), T(-1)}) {
        T x = sign * T(n * 1.57079632679489661923L);
        for (int step = 0; step < 2; ++step) x = std::nextafter(x, T(0));
        for (int step = 0; step < 5; ++step, x = std::nextafter(x, sign * std::numeric_limits<T>::infinity()))
          in.add(x, 0, 0);
      }
  } else if (arity == 2) {
    for (T x : s)
      for (T y : s) in.add(x, y, 0);
  } else {
    const std::vector<T> few = {0, -0.0, 1, -1.5, std::numeric_limits<T>::infinity(), std::numeric_limits<T>::quiet_NaN(),
                                std::numeric_limits<T>::min(), std::numeric_limits<T>::denorm_min(),
                                std::numeric_limits<T>::max(), T(0.1)};
    for (T x : few)
      for (T y : few)
        for (T z : few) in.add(x, y, z);
  }
  for (size_t i = 0; i < random_count; ++i) {
    const int kind = int(i % 3);
    in.add(random_value<T>(rng, kind), random_value<T>(rng, kind), random_value<T>(rng, kind));
  }
  while (in.size() % 4) in.add(1, 1, 1);
  return in;
}

// ---------------------------------------------------------------------------
// Functions

enum class Check {
  Exact,     // bit for bit against `exact`
  Ulp,       // within `bound` ulp of `reference`
  Absolute,  // within `bound` of `reference`
};

template <typename T>
struct Function {
  std::string name;
  std::string body;  // OpenCL C: computes r (V) and/or k (I) from x, y, z (V)
  int arity = 1;
  Check check = Check::Exact;
  double bound = 0;
  std::function<T(T, T, T)> exact;           // Check::Exact
  std::function<T(T, T, T)> alternative;     // another exact result that is also right
  std::function<ld(ld, ld, ld)> reference;   // Ulp, Absolute
  std::function<int(T, T, T)> exact_int;     // k, where the body sets it
  bool vector_true_is_minus_one = false;     // relational: a 4-vector's "true" is -1, a scalar's 1
  std::function<T(T, T, T)> exact_vector;    // Check::Exact in a 4-vector, where it differs (select)
  std::function<void(T&, T&, T&)> adapt;     // makes a random input valid for the function
  bool vector = true;                        // also as a 4-vector
  bool ftz_alternatives = true;              // flushed subnormals are acceptable (float only)
  std::string domain;                        // in words, when the inputs are restricted
  std::vector<std::pair<T, T>> ranges;       // 1000 more uniform random x (or (x, y)) in each
};

template <typename T>
Function<T> exact1(std::string name, std::function<T(T)> f) {
  Function<T> fn;
  fn.name = name;
  fn.body = "r = " + name + "(x);";
  fn.exact = [f](T x, T, T) { return f(x); };
  return fn;
}
template <typename T>
Function<T> exact2(std::string name, std::function<T(T, T)> f) {
  Function<T> fn;
  fn.name = name;
  fn.body = "r = " + name + "(x, y);";
  fn.arity = 2;
  fn.exact = [f](T x, T y, T) { return f(x, y); };
  return fn;
}
template <typename T>
Function<T> exact3(std::string name, std::function<T(T, T, T)> f) {
  Function<T> fn;
  fn.name = name;
  fn.body = "r = " + name + "(x, y, z);";
  fn.arity = 3;
  fn.exact = f;
  return fn;
}
template <typename T>
Function<T> ulp1(std::string name, double bound, std::function<ld(ld)> f) {
  Function<T> fn;
  fn.name = name;
  fn.body = "r = " + name + "(x);";
  fn.check = Check::Ulp;
  fn.bound = bound;
  fn.reference = [f](ld x, ld, ld) { return f(x); };
  return fn;
}

template <typename T>
T fract_reference(T x) {
  if (std::isnan(x)) return x;  // not fmin's answer: fmin(NaN, c) is c
  if (std::isinf(x)) return std::copysign(T(0), x);
  if (x == 0) return x;
  return std::fmin(x - std::floor(x), std::nextafter(T(1), T(0)));
}

template <typename T>
int ilogb_reference(T x) {
  if (std::isnan(x)) return INT_MAX;  // OpenCL's FP_ILOGBNAN
  if (x == 0) return INT_MIN;         // FP_ILOGB0
  if (std::isinf(x)) return INT_MAX;
  return std::ilogb(x);
}

// OpenCL's fmin/fmax: a NaN operand (quiet or signaling: OpenCL has no
// signaling NaNs) gives the other one. The host's fmin turns a signaling NaN
// into NaN.
template <typename T>
T fmin_reference(T x, T y) {
  if (std::isnan(x)) return y;
  if (std::isnan(y)) return x;
  return std::fmin(x, y);
}
template <typename T>
T fmax_reference(T x, T y) {
  if (std::isnan(x)) return y;
  if (std::isnan(y)) return x;
  return std::fmax(x, y);
}

// The other zero where x and y are zeros of opposite signs, else exact(x,
// y): an alternative for fmax, fmin, maxmag and minmag. OpenCL C's fmin and
// fmax "behave as defined by C99" (and the spec compares them with IEEE
// 754-2008 minNum/maxNum); C99 F.9.9.2 only calls it ideal that fmax(-0, +0)
// be +0, and minNum/maxNum leave the sign of a zero result from (+0, -0)
// unspecified. maxmag and minmag are fmax and fmin where |x| == |y|. So for
// (+0, -0) and (-0, +0) either zero is right (lavapipe gives the host's,
// NVIDIA's H100 driver the other); everything else stays bit for bit.
template <typename T>
std::function<T(T, T, T)> either_zero_of_opposite_zeros(T (*exact)(T, T)) {
  return [exact](T x, T y, T) {
    const T r = exact(x, y);
    return x == 0 && y == 0 && std::signbit(x) != std::signbit(y) ? -r : r;
  };
}

template <typename T>
T maxmag_reference(T x, T y) {
  if (std::fabs(x) > std::fabs(y)) return x;
  if (std::fabs(y) > std::fabs(x)) return y;
  return fmax_reference(x, y);
}
template <typename T>
T minmag_reference(T x, T y) {
  if (std::fabs(x) < std::fabs(y)) return x;
  if (std::fabs(y) < std::fabs(x)) return y;
  return fmin_reference(x, y);
}

// sin(pi x), cos(pi x), tan(pi x) with OpenCL's exact values at integers
// and half-integers. x = n/2 + r exactly (n = rint(2x), |r| <= 1/4), so pi
// times the small r keeps its relative precision.
struct PiReduced {
  int quadrant;  // n mod 4
  ld r;
};
PiReduced reduce_pi(ld x) {
  const ld n = std::nearbyint(2 * x);
  const ld r = x - n / 2;
  const long long q = (long long)std::fmod(std::fabs(n), 4.0L);
  return {int(n < 0 ? (4 - q) % 4 : q), r};
}
constexpr ld kPi = 3.141592653589793238462643383279502884L;
ld sinpi_reference(ld x) {
  if (!std::isfinite(x)) return NAN;
  const auto [q, r] = reduce_pi(x);
  if (r == 0 && q % 2 == 0) return std::copysign(0.0L, x);
  const ld v = q % 2 ? std::cos(kPi * r) : std::sin(kPi * r);
  return q >= 2 ? -v : v;
}
ld cospi_reference(ld x) {
  if (!std::isfinite(x)) return NAN;
  const auto [q, r] = reduce_pi(x);
  if (r == 0 && q % 2 == 1) return 0;
  const ld v = q % 2 ? std::sin(kPi * r) : std::cos(kPi * r);
  return (q == 1 || q == 2) ? -v : v;
}
ld tanpi_reference(ld x) {
  if (!std::isfinite(x)) return NAN;
  const auto [q, r] = reduce_pi(x);
  if (r == 0) {
    if (q == 0) return std::copysign(0.0L, x);
    if (q == 2) return std::copysign(0.0L, -x);
    return q == 1 ? INFINITY : -INFINITY;
  }
  const ld t = std::tan(kPi * r);
  return q % 2 ? -1 / t : t;
}

ld atan2pi_reference(ld y, ld x) {
  // The exact values OpenCL lists come out of atan2 / pi exactly enough in long double.
  return std::atan2(y, x) / 3.141592653589793238462643383279502884L;
}

// C99 F.9.4.4 and OpenCL's additions, over long double.
ld pow_reference(ld x, ld y) { return std::pow(x, y); }
ld powr_reference(ld x, ld y) {
  if (std::isnan(x) || std::isnan(y) || x < 0) return NAN;
  if (x == 0) return y == 0 ? NAN : (y < 0 ? INFINITY : 0);
  if (std::isinf(x)) return y == 0 ? NAN : (y < 0 ? 0 : INFINITY);
  if (x == 1) return std::isinf(y) ? NAN : 1;
  return std::pow(x, y);
}
ld pown_reference(ld x, int n) {
  if (n == 0) return 1;
  return std::pow(x, (ld)n);
}
ld rootn_reference(ld x, int n) {
  if (n == 0 || std::isnan(x)) return NAN;
  const bool odd = n % 2 != 0;
  if (x < 0 && !odd) return NAN;
  if (x == 0) return n < 0 ? (odd ? std::copysign(INFINITY, x) : INFINITY) : (odd ? x : 0);
  const ld r = std::pow(std::fabs(x), 1.0L / n);
  return x < 0 ? -r : r;
}

template <typename T>
T sign_reference(T x) {
  if (std::isnan(x)) return 0;
  if (x > 0) return 1;
  if (x < 0) return -1;
  return x;
}

template <typename T>
std::vector<Function<T>> functions() {
  constexpr bool is_float = std::is_same_v<T, float>;
  std::vector<Function<T>> f;
  f.push_back(exact1<T>("fabs", [](T x) { return std::fabs(x); }));
  f.push_back(exact1<T>("ceil", [](T x) { return std::ceil(x); }));
  f.push_back(exact1<T>("floor", [](T x) { return std::floor(x); }));
  f.push_back(exact1<T>("trunc", [](T x) { return std::trunc(x); }));
  f.push_back(exact1<T>("rint", [](T x) { return std::nearbyint(x); }));
  f.push_back(exact1<T>("round", [](T x) { return std::round(x); }));
  // Float sqrt is within 1 ulp (OpenCL asks 3; builtins/math/sqrt.cl), double
  // sqrt correctly rounded (as OpenCL asks).
  if constexpr (is_float)
    f.push_back(ulp1<T>("sqrt", 1, [](ld x) { return std::sqrt(x); }));
  else
    f.push_back(exact1<T>("sqrt", [](T x) { return std::sqrt(x); }));
  f.push_back(exact1<T>("logb", [](T x) { return std::logb(x); }));
  f.push_back(exact1<T>("sign", sign_reference<T>));
  f.push_back(exact2<T>("copysign", [](T x, T y) { return std::copysign(x, y); }));
  f.push_back(exact2<T>("fdim", [](T x, T y) { return std::fdim(x, y); }));
  f.push_back(exact2<T>("nextafter", [](T x, T y) { return std::nextafter(x, y); }));
  {
    auto maxmag = exact2<T>("maxmag", maxmag_reference<T>);
    auto minmag = exact2<T>("minmag", minmag_reference<T>);
    maxmag.alternative = either_zero_of_opposite_zeros<T>(maxmag_reference<T>);
    minmag.alternative = either_zero_of_opposite_zeros<T>(minmag_reference<T>);
    f.push_back(maxmag);
    f.push_back(minmag);
  }
  f.push_back(exact2<T>("fmod", [](T x, T y) { return std::fmod(x, y); }));
  f.push_back(exact2<T>("remainder", [](T x, T y) { return std::remainder(x, y); }));
  f.push_back(exact2<T>("step", [](T edge, T x) { return x < edge ? T(0) : T(1); }));
  f.push_back(exact3<T>("fma", [](T x, T y, T z) { return std::fma(x, y, z); }));
  {
    // fmin/fmax: either zero for (+0, -0), as for maxmag/minmag.
    auto fmin = exact2<T>("fmin", fmin_reference<T>);
    auto fmax = exact2<T>("fmax", fmax_reference<T>);
    fmin.alternative = either_zero_of_opposite_zeros<T>(fmin_reference<T>);
    fmax.alternative = either_zero_of_opposite_zeros<T>(fmax_reference<T>);
    f.push_back(fmin);
    f.push_back(fmax);
  }
  {
    // min/max/clamp: undefined for NaN and infinity (min, max) and for lo > hi (clamp).
    auto finite = [](T& v) {
      if (!std::isfinite(v)) v = 1;
    };
    T (*min_of)(T, T) = [](T x, T y) { return y < x ? y : x; };
    T (*max_of)(T, T) = [](T x, T y) { return x < y ? y : x; };
    auto min = exact2<T>("min", min_of);
    auto max = exact2<T>("max", max_of);
    // Zeros of opposite signs are left out below (GLSL's FMin and FMax may
    // give either), but a flushed subnormal makes one: either zero then.
    min.alternative = either_zero_of_opposite_zeros<T>(min_of);
    max.alternative = either_zero_of_opposite_zeros<T>(max_of);
    min.adapt = max.adapt = [finite](T& x, T& y, T&) {
      finite(x);
      finite(y);
      if (x == 0 && y == 0) y = x;
    };
    min.domain = max.domain = "finite x, y";
    f.push_back(min);
    f.push_back(max);
    auto clamp = exact3<T>("clamp", [](T x, T lo, T hi) { return fmin_reference(fmax_reference(x, lo), hi); });
    clamp.alternative = [](T x, T lo, T hi) {  // the other zero, where a flushed bound makes opposite zeros
      const T r = fmin_reference(fmax_reference(x, lo), hi);
      const bool opposite = (x == 0 && std::signbit(x) != std::signbit(r)) ||
                            (lo == 0 && std::signbit(lo) != std::signbit(r)) ||
                            (hi == 0 && std::signbit(hi) != std::signbit(r));
      return r == 0 && opposite ? -r : r;
    };
    clamp.adapt = [](T& x, T& lo, T& hi) {
      if (std::isnan(lo)) lo = -1;
      if (std::isnan(hi)) hi = 1;
      if (lo > hi) std::swap(lo, hi);
      if (x == 0 && (lo == 0 || hi == 0)) lo = hi = x;
      if (lo == 0 && hi == 0) hi = lo;
    };
    clamp.domain = "lo <= hi";
    f.push_back(clamp);
  }
  {
    auto fract = exact1<T>("fract", fract_reference<T>);
    fract.body = "r = fract(x, &w); r2 = w;";
    f.push_back(fract);
    auto modf = exact1<T>("modf", [](T x) {
      T i;
      return std::modf(x, &i);
    });
    modf.body = "r = modf(x, &w); r2 = w;";
    f.push_back(modf);
    auto frexp = exact1<T>("frexp", [](T x) {
      int e;
      return std::frexp(x, &e);
    });
    frexp.body = "r = frexp(x, &k);";
    frexp.exact_int = [](T x, T, T) {
      int e = 0;
      if (std::isfinite(x)) std::frexp(x, &e);
      return e;
    };
    f.push_back(frexp);
    auto ilogb = exact1<T>("ilogb", [](T) { return T(0); });
    ilogb.body = "r = 0; k = ilogb(x);";
    ilogb.exact_int = [](T x, T, T) { return ilogb_reference(x); };
    f.push_back(ilogb);
    // ldexp(x, n) for n = (int)y clamped to +-2200.
    auto ldexp = exact2<T>("ldexp", [](T x, T y) { return std::ldexp(x, (int)y); });
    ldexp.body = "r = ldexp(x, convert_I(y));";
    ldexp.adapt = [](T& x, T& y, T&) {
      if (!std::isfinite(y) || std::fabs(y) > 2200) y = std::fmod(std::isfinite(y) ? y : T(7), T(300));
      y = std::trunc(y);
      (void)x;
    };
    ldexp.domain = "n = (int)y in [-2200, 2200]";
    f.push_back(ldexp);
    auto remquo = exact2<T>("remquo", [](T x, T y) {
      int q;
      return std::remquo(x, y, &q);
    });
    remquo.body = "r = remquo(x, y, &k);";
    // The quotient's low 7 bits and sign where x / y is small enough to know them here.
    remquo.exact_int = [](T x, T y, T) -> int {
      if (!std::isfinite(x) || std::isnan(y) || y == 0) return 0;
      if (std::isinf(y)) return 0;
      const ld q = std::nearbyint(((ld)x - (ld)std::remainder(x, y)) / (ld)y);
      if (std::fabs(q) >= 0x1p60L) return INT_MIN;  // not checked
      const int magnitude = int(std::fmod(std::fabs(q), 128.0L));
      return std::signbit(x) != std::signbit(y) ? -magnitude : magnitude;
    };
    f.push_back(remquo);
    auto nan = exact1<T>("nan", [](T x) {
      using B = typename Traits<T>::Bits;
      const B code = bits_of(x) & (std::is_same_v<T, float> ? B(0x3fffff) : B(0x7ffffffffffffull));
      return std::bit_cast<T>(B(bits_of(std::numeric_limits<T>::quiet_NaN()) | code));
    });
    nan.body = is_float ? "r = nan(as_U(x));" : "r = nan(as_U(x));";
    f.push_back(nan);
  }
  {
    // Either a correctly rounded fma or a correctly rounded multiply and add.
    auto mad = exact3<T>("mad", [](T x, T y, T z) { return std::fma(x, y, z); });
    mad.alternative = [](T x, T y, T z) {
      volatile T product = x * y;
      return T(product + z);
    };
    f.push_back(mad);
  }
  f.push_back(ulp1<T>("rsqrt", 2, [](ld x) { return 1 / std::sqrt(x); }));
  f.push_back(ulp1<T>("degrees", 2, [](ld x) { return x * (180 / 3.141592653589793238462643383279502884L); }));
  f.push_back(ulp1<T>("radians", 2, [](ld x) { return x * (3.141592653589793238462643383279502884L / 180); }));
  {
    Function<T> mix;
    mix.name = "mix";
    mix.body = "r = mix(x, y, z);";
    mix.arity = 3;
    mix.check = Check::Absolute;
    mix.bound = 1e-3;
    mix.reference = [](ld x, ld y, ld a) { return x + (y - x) * a; };
    mix.adapt = [](T& x, T& y, T& a) {
      auto moderate = [](T& v) {
        if (!std::isfinite(v) || std::fabs(v) > 1000) v = std::isfinite(v) ? std::fmod(v, T(1000)) : T(2);
      };
      moderate(x);
      moderate(y);
      a = std::isfinite(a) ? std::fabs(std::fmod(a, T(1))) : T(0.25);
    };
    mix.domain = "|x|, |y| <= 1000, a in [0, 1]";
    f.push_back(mix);
    Function<T> smoothstep;
    smoothstep.name = "smoothstep";
    smoothstep.body = "r = smoothstep(x, y, z);";
    smoothstep.arity = 3;
    smoothstep.check = Check::Absolute;
    smoothstep.bound = 1e-5;
    smoothstep.reference = [](ld e0, ld e1, ld x) {
      const ld t = std::fmin(std::fmax((x - e0) / (e1 - e0), 0.0L), 1.0L);
      return t * t * (3 - 2 * t);
    };
    smoothstep.adapt = [](T& e0, T& e1, T& x) {
      auto moderate = [](T& v) {
        if (!std::isfinite(v) || std::fabs(v) > 1000) v = std::isfinite(v) ? std::fmod(v, T(1000)) : T(2);
      };
      moderate(e0);
      moderate(e1);
      moderate(x);
      if (e0 > e1) std::swap(e0, e1);
      if (e1 - e0 < T(1e-3)) e1 = e0 + 1;
    };
    smoothstep.domain = "edge0 < edge1, all within +-1000";
    f.push_back(smoothstep);
  }
  // Exponentials and logarithms.
  {
    f.push_back(ulp1<T>("exp", 3, [](ld x) { return std::exp(x); }));
    f.push_back(ulp1<T>("exp2", 3, [](ld x) { return std::exp2(x); }));
    f.push_back(ulp1<T>("exp10", 3, [](ld x) { return std::pow(10.0L, x); }));
    f.push_back(ulp1<T>("expm1", 3, [](ld x) { return std::expm1(x); }));
    f.push_back(ulp1<T>("log", 3, [](ld x) { return std::log(x); }));
    f.push_back(ulp1<T>("log2", 3, [](ld x) { return std::log2(x); }));
    f.push_back(ulp1<T>("log10", 3, [](ld x) { return std::log10(x); }));
    f.push_back(ulp1<T>("log1p", 2, [](ld x) { return std::log1p(x); }));
    if constexpr (is_float) {
      f.push_back(ulp1<T>("half_log", 8192, [](ld x) { return std::log(x); }));
      f.push_back(ulp1<T>("half_log2", 8192, [](ld x) { return std::log2(x); }));
      f.push_back(ulp1<T>("half_log10", 8192, [](ld x) { return std::log10(x); }));
      for (auto* fn : {&f[f.size() - 3], &f[f.size() - 2], &f[f.size() - 1]}) fn->vector = false;
    }
    // Where the results are neither 0, 1 nor infinite.
    for (Function<T>& fn : f) {
      if (fn.name == "exp" || fn.name == "expm1") fn.ranges = {{is_float ? -104 : -745, is_float ? 89 : 709}, {-2, 2}};
      if (fn.name == "exp2") fn.ranges = {{is_float ? -150 : -1075, is_float ? 128 : 1024}, {-2, 2}};
      if (fn.name == "exp10") fn.ranges = {{is_float ? -46 : -324, is_float ? 39 : 308}, {-1, 1}};
      if (fn.name.find("log") != std::string::npos && fn.name != "logb") fn.ranges = {{0, 4}, {0.5, 2}, {0, 1e6}};
      if (fn.name == "log1p") fn.ranges = {{-1, 4}, {-0.5, 0.5}, {0, 1e6}};
    }
  }
  // Trigonometric functions.
  {
    f.push_back(ulp1<T>("sin", 4, [](ld x) { return std::sin(x); }));
    f.push_back(ulp1<T>("cos", 4, [](ld x) { return std::cos(x); }));
    f.push_back(ulp1<T>("tan", 5, [](ld x) { return std::tan(x); }));
    auto sincos = ulp1<T>("sincos", 4, [](ld x) { return std::sin(x); });
    sincos.body = "r = sincos(x, &w);";
    f.push_back(sincos);
    auto sincos_cos = ulp1<T>("sincos_cos", 4, [](ld x) { return std::cos(x); });
    sincos_cos.body = "w = sincos(x, &r);";
    f.push_back(sincos_cos);
    f.push_back(ulp1<T>("sinpi", 4, sinpi_reference));
    f.push_back(ulp1<T>("cospi", 4, cospi_reference));
    f.push_back(ulp1<T>("tanpi", 6, tanpi_reference));
    for (const char* name : {"half_sin", "half_cos", "half_tan"}) {
      if (!is_float) break;
      const std::string full = std::string(name).substr(5);
      f.push_back(ulp1<T>(name, 8192, [full](ld x) {
        return full == "sin" ? std::sin(x) : full == "cos" ? std::cos(x) : std::tan(x);
      }));
      f.back().vector = false;
      f.back().adapt = [](T& x, T&, T&) {
        if (!std::isfinite(x) || std::fabs(x) > 65536) x = std::isfinite(x) ? std::fmod(x, T(65536)) : T(1);
      };
      f.back().domain = "|x| <= 2^16";
    }
    for (Function<T>& fn : f) {
      if (fn.name.find("sin") == std::string::npos && fn.name.find("cos") == std::string::npos &&
          fn.name.find("tan") == std::string::npos)
        continue;
      if (fn.name.ends_with("pi")) fn.ranges = {{-4, 4}, {is_float ? -0x1p23 : -0x1p52, is_float ? 0x1p23 : 0x1p52}, {-0.5, 0.5}};
      else fn.ranges = {{-10, 10}, {-1e4, 1e4}, {-1e30, 1e30}};
    }
  }
  // Inverse trigonometric, hyperbolic, power, root, error and gamma functions.
  {
    constexpr ld pi = 3.141592653589793238462643383279502884L;
    f.push_back(ulp1<T>("asin", 4, [](ld x) { return std::asin(x); }));
    f.push_back(ulp1<T>("acos", 4, [](ld x) { return std::acos(x); }));
    f.push_back(ulp1<T>("atan", 5, [](ld x) { return std::atan(x); }));
    f.push_back(ulp1<T>("asinpi", 5, [](ld x) { return std::asin(x) / pi; }));
    f.push_back(ulp1<T>("acospi", 5, [](ld x) { return std::acos(x) / pi; }));
    f.push_back(ulp1<T>("atanpi", 5, [](ld x) { return std::atan(x) / pi; }));
    auto two = [](std::string name, double bound, std::function<ld(ld, ld)> r) {
      Function<T> fn;
      fn.name = name;
      fn.body = "r = " + name + "(x, y);";
      fn.arity = 2;
      fn.check = Check::Ulp;
      fn.bound = bound;
      fn.reference = [r](ld x, ld y, ld) { return r(x, y); };
      return fn;
    };
    f.push_back(two("atan2", 6, [](ld y, ld x) { return std::atan2(y, x); }));
    f.push_back(two("atan2pi", 6, [](ld y, ld x) { return atan2pi_reference(y, x); }));
    f.push_back(ulp1<T>("sinh", 4, [](ld x) { return std::sinh(x); }));
    f.push_back(ulp1<T>("cosh", 4, [](ld x) { return std::cosh(x); }));
    f.push_back(ulp1<T>("tanh", 5, [](ld x) { return std::tanh(x); }));
    f.push_back(ulp1<T>("asinh", 4, [](ld x) { return std::asinh(x); }));
    f.push_back(ulp1<T>("acosh", 4, [](ld x) { return std::acosh(x); }));
    f.push_back(ulp1<T>("atanh", 5, [](ld x) { return std::atanh(x); }));
    f.push_back(ulp1<T>("cbrt", 2, [](ld x) { return std::cbrt(x); }));
    f.push_back(two("hypot", 4, [](ld x, ld y) { return std::hypot(x, y); }));
    f.push_back(two("pow", 16, pow_reference));
    f.push_back(two("powr", 16, powr_reference));
    if (is_float) {
      f.push_back(two("half_powr", 8192, powr_reference));
      f.back().vector = false;
    }
    auto pown = two("pown", 16, [](ld x, ld n) { return pown_reference(x, (int)n); });
    pown.body = "r = pown(x, convert_I(y));";
    auto rootn = two("rootn", 16, [](ld x, ld n) { return rootn_reference(x, (int)n); });
    rootn.body = "r = rootn(x, convert_I(y));";
    pown.adapt = rootn.adapt = [](T& x, T& n, T&) {
      (void)x;
      if (!std::isfinite(n) || std::fabs(n) > 1e9) n = std::isfinite(n) ? std::fmod(n, T(1000)) : T(3);
      n = std::trunc(n);
    };
    pown.domain = rootn.domain = "n = (int)y";
    f.push_back(pown);
    f.push_back(rootn);
    {
      f.push_back(ulp1<T>("erf", 16, [](ld x) { return std::erf(x); }));
      f.push_back(ulp1<T>("erfc", 16, [](ld x) { return std::erfc(x); }));
      f.push_back(ulp1<T>("tgamma", 16, [](ld x) { return std::tgamma(x); }));
      // lgamma: implementation-defined precision; checked loosely (2^-16 relative or absolute).
      Function<T> lgamma = ulp1<T>("lgamma", 0x1p-16, [](ld x) { return std::lgamma(x); });
      lgamma.check = Check::Absolute;
      lgamma.reference = [](ld x, ld, ld) { return std::lgamma(x); };
      lgamma.domain = "|error| <= 2^-16 * max(1, |lgamma|)";
      f.push_back(lgamma);
      auto lgamma_r = lgamma;
      lgamma_r.name = "lgamma_r";
      lgamma_r.body = "r = lgamma_r(x, &k);";
      lgamma_r.exact_int = [](T x, T, T) {
        if (std::isnan(x) || x == 0 || (x < 0 && std::trunc(x) == x) || x == -INFINITY) return 0;
        int sign = 1;
        (void)::lgammal_r((ld)x, &sign);
        return sign;
      };
      f.push_back(lgamma_r);
    }
    for (Function<T>& fn : f) {
      if (fn.name == "asin" || fn.name == "acos" || fn.name == "asinpi" || fn.name == "acospi" || fn.name == "atanh")
        fn.ranges = {{-1, 1}, {-0.01, 0.01}, {0.45, 0.55}};
      if (fn.name == "atan" || fn.name == "atanpi" || fn.name == "asinh" || fn.name == "tanh" || fn.name == "sinh" ||
          fn.name == "cosh")
        fn.ranges = {{-3, 3}, {-100, 100}, {-0.6, 0.6}, {is_float ? -90 : -710, is_float ? 90 : 710}};
      if (fn.name == "acosh") fn.ranges = {{1, 3}, {1, 1e5}};
      if (fn.name == "cbrt") fn.ranges = {{-10, 10}, {-1e30, 1e30}};
      if (fn.name == "atan2" || fn.name == "atan2pi") fn.ranges = {{-10, 10}, {-1e10, 1e10}};
      // hypot also near 2^-56, where the smaller's square is subnormal and
      // still counts (a flushing device lost it there: math/cbrt.cl).
      if (fn.name == "hypot") fn.ranges = {{-10, 10}, {-1e10, 1e10}, {-1e-17, 1e-17}};
      if (fn.name == "pow" || fn.name == "powr" || fn.name == "half_powr") fn.ranges = {{0, 4}, {-1, 1}, {0.9, 1.1}};
      if (fn.name == "pown" || fn.name == "rootn") fn.ranges = {{-4, 4}, {-40, 40}};
      if (fn.name == "erf" || fn.name == "erfc") fn.ranges = {{-5, 5}, {-1.3, 1.3}, {is_float ? -11 : -28, is_float ? 11 : 28}};
      if (fn.name == "tgamma" || fn.name.starts_with("lgamma"))
        fn.ranges = {{-5, 5}, {0, is_float ? 36 : 172}, {is_float ? -45 : -186, 0}};
    }
  }
  // Relational: 1/0 for scalars, -1/0 for vectors.
  {
    using B = typename Traits<T>::Bits;
    auto relation = [&](std::string name, std::function<bool(T, T)> r, int arity) {
      Function<T> fn;
      fn.name = name;
      fn.arity = arity;
      fn.body = "k = convert_I(" + name + (arity == 1 ? "(x));" : "(x, y));");
      fn.exact = [](T, T, T) { return T(0); };
      fn.exact_int = [r](T x, T y, T) { return r(x, y) ? 1 : 0; };
      fn.vector_true_is_minus_one = true;
      f.push_back(fn);
    };
    relation("isequal", [](T x, T y) { return x == y; }, 2);
    relation("isnotequal", [](T x, T y) { return x != y; }, 2);
    relation("isgreater", [](T x, T y) { return x > y; }, 2);
    relation("isgreaterequal", [](T x, T y) { return x >= y; }, 2);
    relation("isless", [](T x, T y) { return x < y; }, 2);
    relation("islessequal", [](T x, T y) { return x <= y; }, 2);
    relation("islessgreater", [](T x, T y) { return x < y || x > y; }, 2);
    relation("isordered", [](T x, T y) { return !std::isnan(x) && !std::isnan(y); }, 2);
    relation("isunordered", [](T x, T y) { return std::isnan(x) || std::isnan(y); }, 2);
    relation("isfinite", [](T x, T) { return std::isfinite(x); }, 1);
    relation("isinf", [](T x, T) { return std::isinf(x); }, 1);
    relation("isnan", [](T x, T) { return std::isnan(x); }, 1);
    relation("isnormal", [](T x, T) { return std::isnormal(x); }, 1);
    relation("signbit", [](T x, T) { return std::signbit(x); }, 1);
    // select(a, b, c): b where c (z's bits as a signed integer) is nonzero (scalar) or negative (vector).
    Function<T> select = exact3<T>("select", [](T x, T y, T z) { return bits_of(z) != 0 ? y : x; });
    select.body = "r = select(x, y, as_S(z));";
    select.exact_vector = [](T x, T y, T z) { return (bits_of(z) >> (sizeof(T) * 8 - 1)) != 0 ? y : x; };
    f.push_back(select);
    f.push_back(exact3<T>("bitselect", [](T x, T y, T z) {
      return std::bit_cast<T>(B((bits_of(x) & ~bits_of(z)) | (bits_of(y) & bits_of(z))));
    }));
  }
  // Native functions: implementation-defined precision; loosely, to see that they are wired to the
  // right instruction.
  if constexpr (is_float) {
    auto native = [](std::string name, double bound, std::function<ld(ld)> ref, T lo, T hi) {
      Function<T> fn = ulp1<T>(name, bound, ref);
      fn.check = Check::Absolute;
      fn.adapt = [lo, hi](T& x, T&, T&) {
        if (!std::isfinite(x)) x = lo;
        x = lo + std::fabs(std::fmod(x, hi - lo));
      };
      fn.domain = "x in [" + hex(lo) + ", " + hex(hi) + "], absolute error only";
      fn.vector = false;
      return fn;
    };
    f.push_back(native("native_sqrt", 1e-3, [](ld x) { return std::sqrt(x); }, 0, 100));
    f.push_back(native("native_rsqrt", 1e-3, [](ld x) { return 1 / std::sqrt(x); }, 1, 100));
    f.push_back(native("native_exp", 1e-3, [](ld x) { return std::exp(x); }, -5, 2));
    f.push_back(native("native_exp2", 1e-3, [](ld x) { return std::exp2(x); }, -5, 2));
    f.push_back(native("native_exp10", 1e-2, [](ld x) { return std::pow(10.0L, x); }, -3, 1));
    f.push_back(native("native_log", 1e-3, [](ld x) { return std::log(x); }, 0.5, 100));
    f.push_back(native("native_log2", 1e-3, [](ld x) { return std::log2(x); }, 0.5, 100));
    f.push_back(native("native_log10", 1e-3, [](ld x) { return std::log10(x); }, 0.5, 100));
    f.push_back(native("native_sin", 1e-3, [](ld x) { return std::sin(x); }, -3, 3));
    f.push_back(native("native_cos", 1e-3, [](ld x) { return std::cos(x); }, -3, 3));
    f.push_back(native("native_tan", 1e-2, [](ld x) { return std::tan(x); }, -1, 1));
    f.push_back(native("native_recip", 1e-3, [](ld x) { return 1 / x; }, 1, 100));
    f.push_back(native("half_recip", 1e-3, [](ld x) { return 1 / x; }, 1, 100));
    // half_: <= 8192 ulp.
    for (auto& fn : {ulp1<T>("half_sqrt", 8192, [](ld x) { return std::sqrt(x); }),
                     ulp1<T>("half_rsqrt", 8192, [](ld x) { return 1 / std::sqrt(x); }),
                     ulp1<T>("half_exp", 8192, [](ld x) { return std::exp(x); }),
                     ulp1<T>("half_exp2", 8192, [](ld x) { return std::exp2(x); }),
                     ulp1<T>("half_exp10", 8192, [](ld x) { return std::pow(10.0L, x); })}) {
      Function<T> h = fn;
      h.vector = false;
      h.adapt = [](T& x, T&, T&) {
        if (!std::isfinite(x)) x = 1;
        x = std::fmod(x, T(30));
      };
      h.domain = "|x| < 30";
      f.push_back(h);
    }
  }
  return f;
}

// ---------------------------------------------------------------------------
// The program: one kernel per function, scalar and 4-vector.

// One kernel per function: work-item n computes element n as a scalar
// (results at [0, count)) and, for n < count / 4, 4-vector n (results at
// [count, 2 count)). One pipeline per function keeps the validation layer's
// per-pipeline cost down.
template <typename T>
std::string kernel_source(const Function<T>& f, size_t count) {
  const std::string t = Traits<T>::name;
  const std::string u = std::is_same_v<T, float> ? "uint" : "ulong";
  const std::string s_name = std::is_same_v<T, float> ? "int" : "long";
  std::ostringstream s;
  s << "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    << "__kernel void test(__global const " << t << "* a, __global const " << t << "* b, __global const " << t
    << "* c, __global " << t << "* out, __global " << t << "* out2, __global int* kout) {\n"
    << "  const size_t n = get_global_id(0);\n";
  for (int width : {1, 4}) {
    if (width == 4 && !f.vector) continue;
    const std::string suffix = width == 1 ? "" : "4";
    const std::string v = t + suffix, i = "int" + suffix;
    std::string body = f.body;
    for (auto [from, to] : {std::pair<std::string, std::string>{"convert_I", "convert_" + i},
                            {"as_U", "as_" + u + suffix}, {"as_S", "as_" + s_name + suffix}}) {
      for (size_t p; (p = body.find(from)) != std::string::npos;) body.replace(p, from.size(), to);
    }
    const std::string base = width == 1 ? "" : " + " + std::to_string(count);
    auto in = [&](const char* name) { return "((__global const " + v + "*)" + name + ")[n]"; };
    auto out = [&](const char* name, const std::string& type) {
      return "((__global " + type + "*)(" + name + base + "))[n]";
    };
    s << "  " << (width == 4 ? "if (n < " + std::to_string(count / 4) + ") " : "") << "{\n"
      << "    const " << v << " x = " << in("a") << ", y = " << in("b") << ", z = " << in("c") << ";\n"
      << "    " << v << " r = 0, r2 = 0, w = 0;\n"
      << "    " << i << " k = 0;\n"
      << "    " << body << "\n"
      << "    " << out("out", v) << " = r;\n    " << out("out2", v) << " = r2;\n    " << out("kout", i)
      << " = k;\n  }\n";
  }
  s << "}\n";
  return s.str();
}

// Does the device flush float subnormals (x * y with x subnormal, y = 1), or
// does a test emulate one that does?
bool flushes_float_subnormals() {
  static const bool flushes = [] {
    Program program = build_program(test::device(),
                                    "__kernel void probe(__global float* p) { p[2] = p[0] * p[1]; }", "probe.cl");
    Kernel k = program.kernel("probe");
    Buffer buffer(test::device(), 16);
    buffer.write(std::vector<float>{std::numeric_limits<float>::denorm_min() * 3, 1.0f, -1.0f, 0.0f});
    k.set_arg("p", buffer);
    test::device().run(k, NDRange::make({1}));
    const float result = buffer.read<float>(3)[2];
    std::printf("vkcl device: float subnormals are %s\n", result == 0 ? "flushed to zero" : "preserved");
    return result == 0;
  }();
  return flushes || emulating_flush_to_zero;
}

struct Worst {
  ld error = 0;
  std::string where;
  size_t failures = 0;
  std::vector<std::string> examples;
};

template <typename T>
std::string call_text(const Function<T>& f, T x, T y, T z) {
  std::string text = f.name + "(" + hex(x);
  if (f.arity > 1) text += ", " + hex(y);
  if (f.arity > 2) text += ", " + hex(z);
  return text + ")";
}

// The inputs a device that flushes subnormals may have seen instead.
template <typename T>
std::vector<std::array<T, 3>> flushed_inputs(T x, T y, T z) {
  std::vector<std::array<T, 3>> alternatives = {{x, y, z}};
  const T in[3] = {x, y, z};
  for (int i = 0; i < 3; ++i) {
    if (!is_subnormal(in[i])) continue;
    const size_t n = alternatives.size();
    for (size_t a = 0; a < n; ++a)
      for (T zero : {T(0), T(-0.0)}) {
        auto alt = alternatives[a];
        alt[i] = zero;
        alternatives.push_back(alt);
      }
  }
  return alternatives;
}

template <typename T>
void check_function(const Function<T>& f, const Inputs<T>& in, const std::vector<T>& out, const std::vector<T>& out2,
                    const std::vector<int>& kout, int width, bool flush, Worst& worst) {
  const bool ftz = flush && std::is_same_v<T, float> && f.ftz_alternatives;
  for (size_t n = 0; n < in.size(); ++n) {
    const T x = in.a[n], y = in.b[n], z = in.c[n];
    const auto alternatives = ftz ? flushed_inputs(x, y, z) : std::vector<std::array<T, 3>>{{x, y, z}};
    bool ok = false;
    ld error = INFINITY;
    std::string expected;
    for (const auto& [ax, ay, az] : alternatives) {
      if (f.check == Check::Exact) {
        const T e = width > 1 && f.exact_vector ? f.exact_vector(ax, ay, az) : f.exact(ax, ay, az);
        bool match = same(out[n], e) || (ftz && is_subnormal(e) && out[n] == 0) ||
                     (f.alternative && same(out[n], f.alternative(ax, ay, az)));
        if (f.name == "fract" || f.name == "modf") {
          T i;
          const T whole = f.name == "fract" ? std::copysign(std::floor(ax), ax) : (std::modf(ax, &i), i);
          match = match && same(out2[n], whole);
        }
        if (f.exact_int) {
          int k = f.exact_int(ax, ay, az);
          if (width > 1 && f.vector_true_is_minus_one) k = -k;
          if (k != INT_MIN || f.name == "ilogb") match = match && kout[n] == k;
        }
        if (match) ok = true, error = 0;
        if (expected.empty()) expected = hex(e);
      } else {
        const ld r = f.reference(ax, ay, az);
        ld e = f.check == Check::Ulp ? ulp_error<T>(out[n], r)
                                     : (std::isnan(r) ? (std::isnan(out[n]) ? 0 : INFINITY) : std::fabs(out[n] - r));
        if (f.name.starts_with("lgamma") && std::fabs(r) > std::numeric_limits<T>::max())
          e = std::isinf(out[n]) ? 0 : INFINITY;
        else if (f.name.starts_with("lgamma") && std::isfinite(r)) e /= std::max(1.0L, std::fabs(r));
        if (f.name.starts_with("lgamma") && std::isinf(r)) e = out[n] == r ? 0 : INFINITY;
        if (ftz && f.check == Check::Ulp && std::fabs(r) < std::numeric_limits<T>::min() && out[n] == 0) e = 0;
        error = std::min(error, e);
        if (e <= f.bound) ok = true;
        if (expected.empty()) expected = hex((T)r);
      }
      if (ok) break;
    }
    if (f.check != Check::Exact && error > worst.error && std::isfinite(error)) {
      worst.error = error;
      worst.where = call_text(f, x, y, z) + " = " + hex(out[n]) + ", reference " + expected;
    }
    if (!ok) {
      ++worst.failures;
      if (worst.examples.size() < 5) {
        std::string text = call_text(f, x, y, z) + (width > 1 ? " (in a 4-vector)" : "") + " = " + hex(out[n]);
        if (f.exact_int) text += ", k = " + std::to_string(kout[n]);
        if (f.name == "fract" || f.name == "modf") text += ", *iptr = " + hex(out2[n]);
        text += ", expected " + expected;
        if (f.check != Check::Exact) text += " (error " + std::to_string((double)error) + ")";
        worst.examples.push_back(text);
      }
    }
  }
}

template <typename T>
void run_functions(const char* title) {
  const std::vector<Function<T>> fs = functions<T>();
  const bool flush = flushes_float_subnormals();
  std::printf("%-14s %-6s %12s  worst case\n", "function", "type", "worst ulp");
  uint64_t seed = 1;
  for (const Function<T>& f : fs) {
    Inputs<T> in = make_inputs<T>(f.arity, f.arity == 1 ? 3000 : 4000, seed++);
    {
      std::mt19937_64 rng(seed * 7919);
      for (const auto& [lo, hi] : f.ranges)
        for (int i = 0; i < 1000; ++i) {
          std::uniform_real_distribution<T> d(lo, hi);
          in.add(d(rng), d(rng), d(rng));
        }
      while (in.size() % 4) in.add(1, 1, 1);
    }
    if (f.adapt)
      for (size_t n = 0; n < in.size(); ++n) f.adapt(in.a[n], in.b[n], in.c[n]);
    const size_t count = in.size();
    Buffer a(test::device(), count * sizeof(T)), b(test::device(), count * sizeof(T)),
        c(test::device(), count * sizeof(T)), out(test::device(), 2 * count * sizeof(T)),
        out2(test::device(), 2 * count * sizeof(T)), kout(test::device(), 2 * count * sizeof(int));
    a.write(in.a);
    b.write(in.b);
    c.write(in.c);
    // One small program per function: the validation layer checks a module
    // once per pipeline, so one module of every kernel would cost minutes.
    Program program = build_test_program(kernel_source<T>(f, count), f.name + "_" + title + ".cl", cl30());
    Kernel k = program.kernel("test");
    k.set_arg("a", a);
    k.set_arg("b", b);
    k.set_arg("c", c);
    k.set_arg("out", out);
    k.set_arg("out2", out2);
    k.set_arg("kout", kout);
    test::device().run(k, NDRange::make({count}));
    const std::vector<T> results = out.read<T>(2 * count), results2 = out2.read<T>(2 * count);
    const std::vector<int> kresults = kout.read<int>(2 * count);
    Worst worst;
    for (int width : {1, 4}) {
      if (width == 4 && !f.vector) continue;
      const size_t base = width == 1 ? 0 : count;
      check_function(f, in, std::vector<T>(results.begin() + base, results.begin() + base + count),
                     std::vector<T>(results2.begin() + base, results2.begin() + base + count),
                     std::vector<int>(kresults.begin() + base, kresults.begin() + base + count), width, flush, worst);
    }
    const std::string measured = f.check == Check::Exact ? "exact" : std::to_string((double)worst.error);
    std::printf("%-14s %-6s %12s  %s%s\n", f.name.c_str(), Traits<T>::name, measured.c_str(),
                f.check == Check::Exact ? "bit for bit" : worst.where.c_str(),
                f.domain.empty() ? "" : (" [" + f.domain + "]").c_str());
    if (worst.failures) {
      std::string text;
      for (const std::string& e : worst.examples) text += "\n  " + e;
      ADD_FAILURE() << f.name << " (" << Traits<T>::name << "): " << worst.failures << " of " << count
                    << " results wrong (bound: "
                    << (f.check == Check::Exact ? std::string("exact") : std::to_string(f.bound)) << "), e.g." << text;
    }
  }
}

// ---------------------------------------------------------------------------
// Geometric functions: dot, cross, length, distance, normalize (and fast_*
// for float), for scalars and 2-, 3-, 4-vectors, every vector held in a
// 4-vector buffer element.

template <typename T>
std::string geometric_source() {
  const std::string t = Traits<T>::name, t4 = t + "4";
  constexpr bool is_float = std::is_same_v<T, float>;
  std::ostringstream s;
  s << "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
  const char* swizzle[] = {"", ".x", ".xy", ".xyz", ""};
  for (int n = 1; n <= 4; ++n) {
    const std::string pad[] = {"", ", 0, 0, 0", ", 0, 0", ", 0", ""};
    auto widen = [&](const std::string& e) { return "(" + t4 + ")(" + e + pad[n] + ")"; };
    s << "__kernel void geometric_" << n << "(__global const " << t4 << "* a, __global const " << t4 << "* b, __global "
      << t << "* s, __global " << t4 << "* v) {\n"
      << "  const size_t i = get_global_id(0);\n"
      << "  const " << t4 << " pa = a[i], qa = b[i];\n"
      << "  const " << (n == 1 ? t : t + std::to_string(n)) << " p = pa" << swizzle[n] << ", q = qa" << swizzle[n]
      << ";\n"
      << "  s[5 * i] = dot(p, q);\n  s[5 * i + 1] = length(p);\n  s[5 * i + 2] = distance(p, q);\n"
      << "  v[3 * i] = " << widen("normalize(p)") << ";\n"
      << "  v[3 * i + 1] = " << (n >= 3 ? widen("cross(p, q)") : "(" + t4 + ")(0)") << ";\n";
    if (is_float)
      s << "  s[5 * i + 3] = fast_length(p);\n  s[5 * i + 4] = fast_distance(p, q);\n"
        << "  v[3 * i + 2] = " << widen("fast_normalize(p)") << ";\n";
    s << "}\n";
  }
  return s.str();
}

template <typename T>
void run_geometric() {
  using L = std::numeric_limits<T>;
  constexpr bool is_float = std::is_same_v<T, float>;
  constexpr ld eps = L::epsilon();
  Program program = build_test_program(geometric_source<T>(), std::string("geometric_") + Traits<T>::name + ".cl",
                                       cl30());
  // Operands: random vectors of one scale or of mixed scales, huge and tiny
  // ones (no overflow or underflow allowed), subnormal, zero, infinite and NaN components.
  std::mt19937_64 rng(7);
  std::vector<std::array<T, 4>> p, q;
  std::vector<bool> moderate;  // fast_* are undefined where the sum of squares leaves the normal range
  auto component = [&](int scale) {
    return std::ldexp(std::uniform_real_distribution<T>(-1, 1)(rng), scale);
  };
  const int huge = is_float ? 120 : 1000, tiny = is_float ? -120 : -1000;
  for (int i = 0; i < 2000; ++i) {
    std::array<T, 4> x, y;
    const int kind = i % 8;
    const int scale = kind == 0 ? huge : kind == 1 ? tiny : std::uniform_int_distribution<int>(-20, 20)(rng);
    for (int c = 0; c < 4; ++c) {
      const int s = kind == 2 ? std::uniform_int_distribution<int>(-30, 30)(rng) : scale;
      x[c] = component(s);
      y[c] = component(s);
    }
    if (kind == 3) x[i % 4] = L::denorm_min() * T(i % 50);
    if (kind == 4 && i % 24 == 4) x = {0, 0, 0, 0};
    if (kind == 5 && i % 40 == 5) x[(i / 8) % 4] = (i % 80 == 5) ? L::infinity() : -L::infinity();
    if (kind == 6 && i % 40 == 6) x[(i / 8) % 4] = L::quiet_NaN();
    if (kind == 7 && i % 80 == 7) x[0] = L::infinity(), x[1] = L::quiet_NaN();
    p.push_back(x);
    q.push_back(y);
    moderate.push_back(kind >= 2 && kind != 3 && std::isfinite(x[0] + x[1] + x[2] + x[3]));
  }
  const size_t count = p.size();
  Buffer a(test::device(), count * 4 * sizeof(T)), b(test::device(), count * 4 * sizeof(T)),
      sb(test::device(), count * 5 * sizeof(T)), vb(test::device(), count * 12 * sizeof(T));
  a.write(p);
  b.write(q);
  bool flush = is_float && flushes_float_subnormals();
  for (int n = 1; n <= 4; ++n) {
    Kernel k = program.kernel("geometric_" + std::to_string(n));
    k.set_arg("a", a);
    k.set_arg("b", b);
    k.set_arg("s", sb);
    k.set_arg("v", vb);
    test::device().run(k, NDRange::make({count}));
    const std::vector<T> sv = sb.read<T>(count * 5), vv = vb.read<T>(count * 12);
    std::map<std::string, Worst> worst;
    const std::string width = n == 1 ? std::string(Traits<T>::name) : Traits<T>::name + std::to_string(n);
    auto record = [&](const std::string& name, size_t i, ld error, ld bound, const std::string& got, ld ref) {
      Worst& w = worst[name];
      auto vector_text = [&](const std::array<T, 4>& x) {
        std::string text = "(";
        for (int c = 0; c < n; ++c) text += (c ? ", " : "") + hex(x[c]);
        return text + ")";
      };
      const std::string where = name + vector_text(p[i]) + (name == "dot" || name == "distance" || name == "cross" ||
                                                              name == "fast_distance" ? ", " + vector_text(q[i]) : "") +
                                " = " + got + ", reference " + hex((T)ref);
      if (std::isfinite(error) && error > w.error) w.error = error, w.where = where;
      if (!(error <= bound)) {
        if (w.failures++ < 5) w.examples.push_back(where + " (error " + std::to_string((double)error) + ")");
      }
    };
    for (size_t i = 0; i < count; ++i) {
      const auto& x = p[i];
      const auto& y = q[i];
      bool any_nan = false, any_inf = false, any_subnormal = false;
      ld max = 0, sum = 0, diff = 0;
      for (int c = 0; c < n; ++c) {
        any_nan |= std::isnan(x[c]);
        any_inf |= std::isinf(x[c]);
        any_subnormal |= is_subnormal(x[c]) || is_subnormal(y[c]);
        max = std::max({max, std::fabs((ld)x[c]), std::fabs((ld)y[c])});
        sum += (ld)x[c] * x[c];
        const ld d = (ld)T(x[c] - y[c]);
        diff += d * d;
      }
      if (flush && any_subnormal) continue;  // flushed operands: not this test's concern
      const T* s5 = &sv[5 * i];
      const T* v12 = &vv[12 * i];
      // length: +inf if a component is infinite, else NaN if one is NaN.
      if (any_inf) {
        record("length", i, s5[1] == L::infinity() ? 0 : INFINITY, 0, hex(s5[1]), INFINITY);
      } else if (any_nan) {
        record("length", i, std::isnan(s5[1]) ? 0 : INFINITY, 0, hex(s5[1]), NAN);
      } else {
        const double bound = (is_float ? 3 : 0.5) + 0.5 * (0.5 * n + 0.5 * (n - 1));
        // A device that flushes may return 0 for a subnormal result.
        auto error_of = [&](T got, ld reference) {
          return flush && std::fabs(reference) < L::min() && got == 0 ? ld(0) : ulp_error<T>(got, reference);
        };
        record("length", i, error_of(s5[1], std::sqrt(sum)), bound, hex(s5[1]), std::sqrt(sum));
        // distance: the bound counts the subtraction's rounding (1.5 n instead of 0.5 n).
        ld exact_diff = 0;
        for (int c = 0; c < n; ++c) exact_diff += ((ld)x[c] - y[c]) * ((ld)x[c] - y[c]);
        const double dbound = (is_float ? 3 : 0.5) + 1.5 * n + 0.5 * (n - 1);
        if (std::isfinite((ld)T(std::sqrt(exact_diff))))
          record("distance", i, error_of(s5[2], std::sqrt(exact_diff)), dbound, hex(s5[2]), std::sqrt(exact_diff));
        // dot: absolute max * max * 2(n - 1) * eps (at least one product's rounding).
        ld dot = 0;
        for (int c = 0; c < n; ++c) dot += (ld)x[c] * y[c];
        const ld tolerance = max * max * std::max(2 * (n - 1), 1) * eps;
        if (std::isfinite((T)(max * max)))
          record("dot", i, std::fabs((ld)s5[0] - dot) / std::max(tolerance, L::denorm_min() + 0.0L), 1, hex(s5[0]), dot);
        if (n >= 3 && std::isfinite((T)(max * max))) {
          const ld cr[3] = {(ld)x[1] * y[2] - (ld)x[2] * y[1], (ld)x[2] * y[0] - (ld)x[0] * y[2],
                            (ld)x[0] * y[1] - (ld)x[1] * y[0]};
          ld e = 0;
          for (int c = 0; c < 3; ++c) e = std::max(e, std::fabs((ld)v12[4 + c] - cr[c]));
          if (n == 4 && v12[7] != 0) e = INFINITY;
          record("cross", i, e / std::max(max * max * 3 * eps, L::denorm_min() + 0.0L), 1, hex(v12[4]), cr[0]);
        }
      }
      // normalize
      {
        const double bound = (is_float ? 2.5 : 1.5) + 0.5 * n + 0.5 * (n - 1);
        std::array<ld, 4> v{};
        bool zero = true;
        for (int c = 0; c < n; ++c) {
          v[c] = x[c];
          zero &= x[c] == 0;
        }
        ld e = 0;
        if (any_nan) {
          for (int c = 0; c < n; ++c) e = std::max(e, std::isnan(v12[c]) ? ld(0) : ld(INFINITY));
        } else if (zero) {
          for (int c = 0; c < n; ++c) e = std::max(e, same(v12[c], x[c]) ? ld(0) : ld(INFINITY));
        } else {
          if (any_inf)
            for (int c = 0; c < n; ++c) v[c] = std::isinf(x[c]) ? std::copysign(1.0L, (ld)x[c]) : std::copysign(0.0L, (ld)x[c]);
          ld norm = 0;
          for (int c = 0; c < n; ++c) norm += v[c] * v[c];
          norm = std::sqrt(norm);
          for (int c = 0; c < n; ++c) e = std::max(e, ulp_error<T>(v12[c], v[c] / norm));
        }
        ld shown = any_nan || zero ? (ld)x[0] : v[0];
        if (!any_nan && !zero) {
          ld norm = 0;
          for (int c = 0; c < n; ++c) norm += v[c] * v[c];
          shown = v[0] / std::sqrt(norm);
        }
        record("normalize", i, e, bound, hex(v12[0]), shown);
      }
      if (is_float && moderate[i] && sum > 1e-30L && sum < 1e30L) {
        const double bound = 8192 + 0.5 * n + 0.5 * (n - 1);
        record("fast_length", i, ulp_error<T>(s5[3], std::sqrt(sum)), bound, hex(s5[3]), std::sqrt(sum));
        ld norm = std::sqrt(sum), e = 0;
        for (int c = 0; c < n; ++c) e = std::max(e, ulp_error<T>(v12[8 + c], x[c] / norm));
        record("fast_normalize", i, e, bound + 0.5, hex(v12[8]), x[0] / norm);
        if (diff > 1e-30L && diff < 1e30L)
          record("fast_distance", i, ulp_error<T>(s5[4], std::sqrt(diff)), 8192 + 1.5 * n + 0.5 * (n - 1), hex(s5[4]),
                 std::sqrt(diff));
      }
    }
    for (auto& [name, w] : worst) {
      const bool tolerance = name == "dot" || name == "cross";
      std::printf("%-14s %-7s %10.6f %s  %s\n", name.c_str(), width.c_str(), (double)w.error,
                  tolerance ? "of tol." : "ulp    ", w.where.c_str());
      if (w.failures) {
        std::string text;
        for (const std::string& e : w.examples) text += "\n  " + e;
        ADD_FAILURE() << name << " on " << width << ": " << w.failures << " of " << count << " wrong, e.g." << text;
      }
    }
  }
}

TEST(MathBuiltins, Float) { run_functions<float>("float"); }

TEST(MathBuiltins, GeometricFloat) { run_geometric<float>(); }

// The float functions on a device that flushes float subnormals (NVIDIA's),
// emulated: each result must be the right one or the one for the inputs
// with subnormals flushed (a subnormal result may be 0).
class FlushToZero {
 public:
  FlushToZero() { emulating_flush_to_zero = true; }
  ~FlushToZero() { emulating_flush_to_zero = false; }
};
TEST(MathBuiltins, FloatFlushToZero) {
#ifndef VKCL_TEST_EMULATE_FLUSH_TO_ZERO
  GTEST_SKIP() << "built without the compiler: no emulation of flushing devices";
#endif
  FlushToZero emulation;
  run_functions<float>("float_ftz");
}
TEST(MathBuiltins, GeometricFloatFlushToZero) {
#ifndef VKCL_TEST_EMULATE_FLUSH_TO_ZERO
  GTEST_SKIP() << "built without the compiler: no emulation of flushing devices";
#endif
  FlushToZero emulation;
  run_geometric<float>();
}

TEST(MathBuiltins, GeometricDouble) {
  if (!test::device().features().shader_float64) GTEST_SKIP() << "the device has no shaderFloat64";
  run_geometric<double>();
}

TEST(MathBuiltins, Double) {
  if (!test::device().features().shader_float64) GTEST_SKIP() << "the device has no shaderFloat64";
  run_functions<double>("double");
}

}  // namespace
}  // namespace vkcl

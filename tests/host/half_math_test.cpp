// The OpenCL C builtins on half (cl_khr_fp16) on the device, against
// references computed here in long double: every unary function over all
// 65536 halves, the binary ones over a grid of special and random halves
// (every pair), fma over special and random triples; as scalars and as
// 4-vectors (vload4/vstore4 on half pointers). Exact and correctly rounded
// functions (OpenCL: 0 ulp) must match the reference rounded to half bit for
// bit (any NaN for NaN, the sign of zero included); the others must stay
// within cl_khr_fp16's bounds as the CTS's math_brute_force sets them
// (half_ulps: 2 for most, tan 2.5, sqrt 1.5, rsqrt and x / y 1, erf, erfc,
// tgamma and the pow family 4), in ulp of the exact reference. Each test
// prints the worst case per function.
//
// Subnormal halves: a probe finds out whether the device keeps them in half
// arithmetic; where it flushes them (OpenCL allows that where
// CL_DEVICE_HALF_FP_CONFIG has no CL_FP_DENORM), cases with a subnormal
// operand or result are left out.
//
// Built with build_program (OpenCL C 3.0); skipped on a device without
// shaderFloat16, shaderInt16 and storageBuffer16BitAccess (no cl_khr_fp16).
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "test_device.h"
#include "vkcl/source_program.h"

namespace vkcl {
namespace {

using ld = long double;
using Half = _Float16;

const ld kPi = std::acos(-1.0L);

Half half_of_bits(uint16_t bits) { return std::bit_cast<Half>(bits); }
uint16_t bits_of(Half h) { return std::bit_cast<uint16_t>(h); }
bool is_nan(Half h) { return (bits_of(h) & 0x7fff) > 0x7c00; }
bool is_subnormal(Half h) { return (bits_of(h) & 0x7c00) == 0 && (bits_of(h) & 0x3ff) != 0; }
// Correctly rounded to nearest even (GCC's conversion from long double rounds once).
Half round_to_half(ld x) { return Half(x); }

std::string text(ld x) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%La", x);
  return buffer;
}
std::string text(Half h) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%a (0x%04x)", double(h), bits_of(h));
  return buffer;
}

// OpenCL's ulp of the exact reference, for half (10 bits below the leading
// one, exponents -14 to 15).
ld ulp_of(ld reference) {
  const ld r = std::fabs(reference);
  if (r < 0x1p-14L) return 0x1p-24L;
  int e;
  std::frexp(r, &e);
  e = std::min(e, 16);
  return std::ldexp(1.0L, e - 1 - 10);
}

// |got - reference| in ulp; an infinity beyond the largest half counts as
// 2^16, and a reference at least halfway past the largest half rounds to
// infinity (as math_builtins_test's ulp_error).
ld ulp_error(Half got, ld reference) {
  const ld g = ld(got);
  if (std::isnan(reference)) return std::isnan(g) ? 0 : INFINITY;
  if (std::isnan(g)) return INFINITY;
  if (std::isinf(reference)) return g == reference ? 0 : INFINITY;
  if (reference == 0 && g == 0) return std::signbit(reference) == std::signbit(g) ? 0 : INFINITY;
  const ld overflow = 65520.0L;  // halfway between 65504 and 2^16
  if (std::fabs(reference) >= overflow && std::isinf(g) && std::signbit(g) == std::signbit(reference)) return 0;
  const ld finite = std::isinf(g) ? std::copysign(65536.0L, g) : g;
  return std::fabs(finite - reference) / ulp_of(reference);
}

bool same(Half got, Half expected) {
  if (is_nan(expected)) return is_nan(got);
  return bits_of(got) == bits_of(expected);
}

// ---------------------------------------------------------------------------
// Inputs

std::vector<Half> all_halves() {
  std::vector<Half> all(65536);
  for (uint32_t i = 0; i < 65536; ++i) all[i] = half_of_bits(uint16_t(i));
  return all;
}

// Special values, then random halves (finite and not NaN), `count` in all.
std::vector<Half> grid(size_t count, uint32_t seed) {
  std::vector<Half> values;
  for (uint16_t bits : {0x0000, 0x0001, 0x0002, 0x03ff, 0x0400, 0x0401, 0x07ff, 0x3400, 0x3800, 0x3bff, 0x3c00,
                        0x3c01, 0x3e00, 0x4000, 0x4200, 0x4248, 0x4900, 0x5640, 0x7bff, 0x7c00, 0x7e00, 0x1000,
                        0x2e66, 0x6400})
    for (uint16_t sign : {0x0000, 0x8000}) values.push_back(half_of_bits(uint16_t(bits | sign)));
  std::mt19937 random(seed);
  while (values.size() < count) {
    const uint16_t bits = uint16_t(random());
    if ((bits & 0x7c00) != 0x7c00) values.push_back(half_of_bits(bits));
  }
  return values;
}

std::vector<int> exponents() {
  std::vector<int> n = {0, 1, -1, 2, -2, 3, -3, 5, -5, 10, -10, 15, -15, 16, -16, 24, -24, 25, -25, 30, -30,
                        31, -31, 40, -40, 1000, -1000, INT_MAX, INT_MIN};
  for (int i = 4; i < 40; i += 7) n.push_back(i);
  return n;
}

struct Inputs {
  std::vector<Half> x, y, z;
  std::vector<int> n;
  size_t size() const { return x.size(); }
  void add(Half a, Half b, Half c, int k) {
    x.push_back(a);
    y.push_back(b);
    z.push_back(c);
    n.push_back(k);
  }
};

Inputs unary_inputs() {
  Inputs in;
  for (Half h : all_halves()) in.add(h, Half(0), Half(0), 0);
  return in;
}
Inputs binary_inputs() {
  Inputs in;
  const std::vector<Half> values = grid(256, 1);
  for (Half a : values)
    for (Half b : values) in.add(a, b, Half(0), 0);
  return in;
}
Inputs ternary_inputs() {
  Inputs in;
  const std::vector<Half> values = grid(40, 2);
  for (Half a : values)
    for (Half b : values)
      for (Half c : values) in.add(a, b, c, 0);
  // Random triples, many with a product near -c (cancellation, ties).
  std::mt19937 random(3);
  auto finite = [&] {
    uint16_t bits;
    do bits = uint16_t(random()); while ((bits & 0x7c00) == 0x7c00);
    return half_of_bits(bits);
  };
  for (int i = 0; i < 60000; ++i) {
    const Half a = finite(), b = finite();
    const Half c = i % 2 ? finite() : Half(-(ld(a) * ld(b)) * (1 + ld(int(random() % 64) - 32) * 0x1p-12L));
    in.add(a, b, c, 0);
  }
  // Triples where fma computed in float and rounded to half would be off
  // (the float sum rounds onto a midpoint between halves): about one random
  // triple in 60000, so they are searched for here.
  int hard = 0;
  for (int tries = 0; hard < 400 && tries < 50000000; ++tries) {
    const Half a = finite(), b = finite(), c = finite();
    const Half exact = round_to_half(std::fma(ld(a), ld(b), ld(c)));
    const Half in_float = Half(float(a) * float(b) + float(c));
    if (!is_nan(exact) && bits_of(exact) != bits_of(in_float)) {
      in.add(a, b, c, 0);
      ++hard;
    }
  }
  return in;
}
Inputs half_int_inputs() {
  Inputs in;
  for (Half a : grid(200, 4))
    for (int k : exponents()) in.add(a, Half(0), Half(0), k);
  return in;
}

// ---------------------------------------------------------------------------
// Functions

struct Results {
  Half res, res2;
  int ires;
};

enum class Arity { kUnary, kBinary, kTernary, kHalfInt };

// Checks one case; returns "" or what is wrong, and sets `error` to its ulp
// error where the function is measured so.
using Check = std::function<std::string(Half x, Half y, Half z, int n, const Results& got, int width, ld& error)>;

struct Function {
  std::string name;     // for messages
  std::string snippet;  // OpenCL C setting res, res2 and/or ires from x, y, z, n (types T, I, U)
  Arity arity;
  Check check;
};

// res against a reference: exact (bits of the reference rounded to half) or within `ulps`.
Check result_within(std::function<ld(ld, ld, ld, int)> reference, double ulps) {
  return [reference, ulps](Half x, Half y, Half z, int n, const Results& got, int, ld& error) -> std::string {
    const ld want = reference(ld(x), ld(y), ld(z), n);
    if (ulps == 0) {
      if (same(got.res, round_to_half(want))) return "";
      return "got " + text(got.res) + ", want " + text(round_to_half(want));
    }
    error = ulp_error(got.res, want);
    if (error <= ulps) return "";
    return "got " + text(got.res) + ", want " + text(want) + " (" + std::to_string(double(error)) + " ulp)";
  };
}

Function unary(const std::string& name, std::function<ld(ld)> reference, double ulps) {
  return {name, "res = " + name + "(x);", Arity::kUnary,
          result_within([reference](ld x, ld, ld, int) { return reference(x); }, ulps)};
}
Function binary(const std::string& name, std::function<ld(ld, ld)> reference, double ulps) {
  return {name, "res = " + name + "(x, y);", Arity::kBinary,
          result_within([reference](ld x, ld y, ld, int) { return reference(x, y); }, ulps)};
}
Function with_int(const std::string& name, std::function<ld(ld, int)> reference, double ulps) {
  return {name, "res = " + name + "(x, n);", Arity::kHalfInt,
          result_within([reference](ld x, ld, ld, int n) { return reference(x, n); }, ulps)};
}
Function operation(const std::string& name, const std::string& op, std::function<ld(ld, ld)> reference,
                   double ulps) {
  return {name, "res = x " + op + " y;", Arity::kBinary,
          result_within([reference](ld x, ld y, ld, int) { return reference(x, y); }, ulps)};
}

// A relational function: 1 or 0 as a scalar, -1 or 0 in a vector.
Function relational(const std::string& name, Arity arity, std::function<bool(ld, ld)> reference) {
  return {name, "ires = convert_I(" + name + (arity == Arity::kUnary ? "(x));" : "(x, y));"), arity,
          [reference](Half x, Half y, Half, int, const Results& got, int width, ld&) -> std::string {
            const int want = reference(ld(x), ld(y)) ? (width == 1 ? 1 : -1) : 0;
            if (got.ires == want) return "";
            return "got " + std::to_string(got.ires) + ", want " + std::to_string(want);
          }};
}

ld sinpi_reference(ld x) {
  if (std::isinf(x)) return NAN;
  const ld r = x - 2 * std::round(x / 2);  // exact, in [-1, 1]
  if (r == 0 || std::fabs(r) == 1) return std::copysign(0.0L, x);
  return std::sin(kPi * r);
}
ld cospi_reference(ld x) {
  if (std::isinf(x)) return NAN;
  const ld r = std::fabs(x - 2 * std::round(x / 2));
  if (r == 0.5L) return 0;
  return std::cos(kPi * r);
}
ld tanpi_reference(ld x) {
  if (std::isinf(x)) return NAN;
  const ld r = x - std::round(x);  // exact, in [-0.5, 0.5]
  const bool odd = std::fmod(std::fabs(std::floor(x)), 2.0L) == 1;
  if (std::fabs(r) == 0.5L) return odd ? -INFINITY : INFINITY;
  if (r == 0) {
    const bool odd_integer = std::fmod(std::fabs(x), 2.0L) == 1;
    return std::copysign(0.0L, odd_integer ? -x : x);
  }
  return std::tan(kPi * r);
}
ld rootn_reference(ld x, int n) {
  if (n == 0 || std::isnan(x)) return NAN;
  const bool odd = n % 2 != 0;
  if (x < 0 && !odd) return NAN;
  if (x == 0) {
    if (n < 0) return odd ? std::copysign(INFINITY, x) : INFINITY;
    return odd ? x : 0.0L;
  }
  const ld magnitude = std::pow(std::fabs(x), 1.0L / ld(n));
  return x < 0 ? -magnitude : magnitude;
}
ld powr_reference(ld x, ld y) {
  if (std::isnan(x) || std::isnan(y) || x < 0) return NAN;
  if (x == 0) {
    if (y == 0) return NAN;
    return y < 0 ? INFINITY : 0.0L;
  }
  if (std::isinf(x) && y == 0) return NAN;
  if (x == 1) return std::isinf(y) ? NAN : 1.0L;
  return std::pow(x, y);
}
ld maxmag_reference(ld x, ld y) {
  if (std::isnan(x)) return y;
  if (std::isnan(y)) return x;
  if (std::fabs(x) > std::fabs(y)) return x;
  if (std::fabs(y) > std::fabs(x)) return y;
  return std::signbit(x) ? y : x;
}
ld minmag_reference(ld x, ld y) {
  if (std::isnan(x)) return y;
  if (std::isnan(y)) return x;
  if (std::fabs(x) < std::fabs(y)) return x;
  if (std::fabs(y) < std::fabs(x)) return y;
  return std::signbit(x) ? x : y;
}
ld fdim_reference(ld x, ld y) {
  if (std::isnan(x) || std::isnan(y)) return NAN;
  return x > y ? x - y : 0.0L;
}
// fmin and fmax of +0 and -0 may be either (OpenCL, and GLSL NMin/NMax).
Function min_or_max(const std::string& name, bool is_max) {
  return {name, "res = " + name + "(x, y);", Arity::kBinary,
          [is_max](Half x, Half y, Half, int, const Results& got, int, ld&) -> std::string {
            const ld a = ld(x), b = ld(y);
            if (a == 0 && b == 0 && ld(got.res) == 0) return "";
            const Half want = round_to_half(is_max ? std::fmax(a, b) : std::fmin(a, b));
            return same(got.res, want) ? "" : "got " + text(got.res) + ", want " + text(want);
          }};
}
ld sign_reference(ld x) {
  if (std::isnan(x)) return 0;
  if (x == 0) return x;
  return x > 0 ? 1 : -1;
}

// nextafter on the bits of halves.
Half next_after(Half x, Half y) {
  if (is_nan(x) || is_nan(y)) return half_of_bits(0x7e00);
  if (ld(x) == ld(y)) return y;
  const uint16_t bits = bits_of(x);
  if ((bits & 0x7fff) == 0) return half_of_bits(uint16_t((bits_of(y) & 0x8000) | 1));
  const bool away = (ld(x) < ld(y)) == !std::signbit(ld(x));
  return half_of_bits(uint16_t(away ? bits + 1 : bits - 1));
}

std::vector<Function> functions() {
  std::vector<Function> f;
  // Within OpenCL's half bounds (math_brute_force's half_ulps).
  f.push_back(unary("acos", [](ld x) { return std::acos(x); }, 2));
  f.push_back(unary("acosh", [](ld x) { return std::acosh(x); }, 2));
  f.push_back(unary("acospi", [](ld x) { return std::acos(x) / kPi; }, 2));
  f.push_back(unary("asin", [](ld x) { return std::asin(x); }, 2));
  f.push_back(unary("asinh", [](ld x) { return std::asinh(x); }, 2));
  f.push_back(unary("asinpi", [](ld x) { return std::asin(x) / kPi; }, 2));
  f.push_back(unary("atan", [](ld x) { return std::atan(x); }, 2));
  f.push_back(unary("atanh", [](ld x) { return std::atanh(x); }, 2));
  f.push_back(unary("atanpi", [](ld x) { return std::atan(x) / kPi; }, 2));
  f.push_back(unary("cbrt", [](ld x) { return std::cbrt(x); }, 2));
  f.push_back(unary("cos", [](ld x) { return std::cos(x); }, 2));
  f.push_back(unary("cosh", [](ld x) { return std::cosh(x); }, 2));
  f.push_back(unary("cospi", cospi_reference, 2));
  f.push_back(unary("erf", [](ld x) { return std::erf(x); }, 4));
  f.push_back(unary("erfc", [](ld x) { return std::erfc(x); }, 4));
  f.push_back(unary("exp", [](ld x) { return std::exp(x); }, 2));
  f.push_back(unary("exp2", [](ld x) { return std::exp2(x); }, 2));
  f.push_back(unary("exp10", [](ld x) { return std::pow(10.0L, x); }, 2));
  f.push_back(unary("expm1", [](ld x) { return std::expm1(x); }, 2));
  f.push_back(unary("log", [](ld x) { return std::log(x); }, 2));
  f.push_back(unary("log2", [](ld x) { return std::log2(x); }, 2));
  f.push_back(unary("log10", [](ld x) { return std::log10(x); }, 2));
  f.push_back(unary("log1p", [](ld x) { return std::log1p(x); }, 2));
  f.push_back(unary("rsqrt", [](ld x) { return 1 / std::sqrt(x); }, 1));
  f.push_back(unary("sin", [](ld x) { return std::sin(x); }, 2));
  f.push_back(unary("sinh", [](ld x) { return std::sinh(x); }, 2));
  f.push_back(unary("sinpi", sinpi_reference, 2));
  f.push_back(unary("sqrt", [](ld x) { return std::sqrt(x); }, 1.5));
  f.push_back(unary("tan", [](ld x) { return std::tan(x); }, 2.5));
  f.push_back(unary("tanh", [](ld x) { return std::tanh(x); }, 2));
  f.push_back(unary("tanpi", tanpi_reference, 2));
  f.push_back(unary("tgamma", [](ld x) { return std::tgamma(x); }, 4));
  f.push_back(unary("degrees", [](ld x) { return x * (180 / kPi); }, 2));
  f.push_back(unary("radians", [](ld x) { return x * (kPi / 180); }, 2));
  f.push_back(binary("atan2", [](ld y, ld x) { return std::atan2(y, x); }, 2));
  f.push_back(binary("atan2pi", [](ld y, ld x) { return std::atan2(y, x) / kPi; }, 2));
  f.push_back(binary("hypot", [](ld x, ld y) { return std::hypot(x, y); }, 2));
  f.push_back(binary("pow", [](ld x, ld y) { return std::pow(x, y); }, 4));
  f.push_back(binary("powr", powr_reference, 4));
  f.push_back(with_int("pown", [](ld x, int n) { return std::pow(x, ld(n)); }, 4));
  f.push_back(with_int("rootn", rootn_reference, 4));
  f.push_back(operation("divide", "/", [](ld x, ld y) { return x / y; }, 1));
  // Exact, or correctly rounded.
  f.push_back(unary("fabs", [](ld x) { return std::fabs(x); }, 0));
  f.push_back(unary("ceil", [](ld x) { return std::ceil(x); }, 0));
  f.push_back(unary("floor", [](ld x) { return std::floor(x); }, 0));
  f.push_back(unary("trunc", [](ld x) { return std::trunc(x); }, 0));
  f.push_back(unary("rint", [](ld x) { return std::rint(x); }, 0));
  f.push_back(unary("round", [](ld x) { return std::round(x); }, 0));
  f.push_back(unary("logb", [](ld x) { return std::logb(x); }, 0));
  f.push_back(unary("sign", sign_reference, 0));
  f.push_back(binary("copysign", [](ld x, ld y) { return std::copysign(x, y); }, 0));
  f.push_back(min_or_max("fmin", false));
  f.push_back(min_or_max("fmax", true));
  f.push_back(binary("fdim", fdim_reference, 0));
  f.push_back(binary("fmod", [](ld x, ld y) { return std::fmod(x, y); }, 0));
  f.push_back(binary("remainder", [](ld x, ld y) { return std::remainder(x, y); }, 0));
  f.push_back(binary("maxmag", maxmag_reference, 0));
  f.push_back(binary("minmag", minmag_reference, 0));
  f.push_back(binary("step", [](ld edge, ld x) { return x < edge ? 0.0L : 1.0L; }, 0));
  f.push_back(with_int("ldexp", [](ld x, int n) { return std::ldexp(x, std::clamp(n, -100, 100)); }, 0));
  f.push_back(operation("add", "+", [](ld x, ld y) { return x + y; }, 0));
  f.push_back(operation("subtract", "-", [](ld x, ld y) { return x - y; }, 0));
  f.push_back(operation("multiply", "*", [](ld x, ld y) { return x * y; }, 0));
  f.push_back({"fma", "res = fma(x, y, z);", Arity::kTernary,
               result_within([](ld x, ld y, ld z, int) { return std::fma(x, y, z); }, 0)});
  f.push_back({"nextafter", "res = nextafter(x, y);", Arity::kBinary,
               [](Half x, Half y, Half, int, const Results& got, int, ld&) -> std::string {
                 const Half want = next_after(x, y);
                 return same(got.res, want) ? "" : "got " + text(got.res) + ", want " + text(want);
               }});
  f.push_back({"nan", "res = nan(as_U(x));", Arity::kUnary,
               [](Half, Half, Half, int, const Results& got, int, ld&) -> std::string {
                 return is_nan(got.res) ? "" : "got " + text(got.res) + ", want a NaN";
               }});
  f.push_back({"ilogb", "ires = ilogb(x);", Arity::kUnary,
               [](Half x, Half, Half, int, const Results& got, int, ld&) -> std::string {
                 const ld v = ld(x);
                 const int want = std::isnan(v) ? INT_MAX : v == 0 ? INT_MIN : std::isinf(v) ? INT_MAX : std::ilogb(v);
                 return got.ires == want ? "" : "got " + std::to_string(got.ires) + ", want " + std::to_string(want);
               }});
  f.push_back({"frexp", "I e; res = frexp(x, &e); ires = e;", Arity::kUnary,
               [](Half x, Half, Half, int, const Results& got, int, ld&) -> std::string {
                 int e = 0;
                 const ld m = std::frexp(ld(x), &e);
                 const bool finite = std::isfinite(ld(x));
                 if (same(got.res, round_to_half(m)) && (!finite || got.ires == e)) return "";
                 return "got " + text(got.res) + " * 2^" + std::to_string(got.ires) + ", want " + text(m) + " * 2^" +
                        std::to_string(e);
               }});
  f.push_back({"modf", "T whole; res = modf(x, &whole); res2 = whole;", Arity::kUnary,
               [](Half x, Half, Half, int, const Results& got, int, ld&) -> std::string {
                 ld whole;
                 const ld fraction = std::modf(ld(x), &whole);
                 if (same(got.res, round_to_half(fraction)) && same(got.res2, round_to_half(whole))) return "";
                 return "got " + text(got.res) + " and " + text(got.res2) + ", want " + text(fraction) + " and " +
                        text(whole);
               }});
  f.push_back({"fract", "T whole; res = fract(x, &whole); res2 = whole;", Arity::kUnary,
               [](Half x, Half, Half, int, const Results& got, int, ld&) -> std::string {
                 const ld v = ld(x);
                 const ld whole = std::floor(v);
                 Half fraction;
                 if (std::isnan(v)) fraction = x;
                 else if (std::isinf(v)) fraction = Half(std::copysign(0.0L, v));
                 else if (v == 0) fraction = x;
                 else fraction = std::min(round_to_half(v - whole), half_of_bits(0x3bff));
                 if (same(got.res, fraction) && same(got.res2, round_to_half(whole))) return "";
                 return "got " + text(got.res) + " and " + text(got.res2) + ", want " + text(fraction) + " and " +
                        text(whole);
               }});
  f.push_back({"sincos", "T c; res = sincos(x, &c); res2 = c;", Arity::kUnary,
               [](Half x, Half, Half, int, const Results& got, int, ld& error) -> std::string {
                 const ld s = std::sin(ld(x)), c = std::cos(ld(x));
                 error = std::max(ulp_error(got.res, s), ulp_error(got.res2, c));
                 if (error <= 2) return "";
                 return "got " + text(got.res) + " and " + text(got.res2) + ", want " + text(s) + " and " + text(c);
               }});
  f.push_back({"remquo", "I q; res = remquo(x, y, &q); ires = q;", Arity::kBinary,
               [](Half x, Half y, Half, int, const Results& got, int, ld&) -> std::string {
                 const ld r = std::remainder(ld(x), ld(y));
                 if (!same(got.res, round_to_half(r))) return "got " + text(got.res) + ", want " + text(r);
                 if (std::isnan(r)) return "";
                 // The low 7 bits of the integral quotient (exact in long double), with the sign of x / y.
                 const ld quotient = std::fabs((ld(x) - r) / ld(y));
                 const int low = int(std::fmod(quotient, 128.0L));
                 const int want = std::signbit(ld(x)) != std::signbit(ld(y)) ? -low : low;
                 return got.ires == want ? "" : "quotient " + std::to_string(got.ires) + ", want " + std::to_string(want);
               }});
  // Relational.
  f.push_back(relational("isequal", Arity::kBinary, [](ld x, ld y) { return x == y; }));
  f.push_back(relational("isnotequal", Arity::kBinary, [](ld x, ld y) { return x != y; }));
  f.push_back(relational("isgreater", Arity::kBinary, [](ld x, ld y) { return x > y; }));
  f.push_back(relational("isgreaterequal", Arity::kBinary, [](ld x, ld y) { return x >= y; }));
  f.push_back(relational("isless", Arity::kBinary, [](ld x, ld y) { return x < y; }));
  f.push_back(relational("islessequal", Arity::kBinary, [](ld x, ld y) { return x <= y; }));
  f.push_back(relational("islessgreater", Arity::kBinary, [](ld x, ld y) { return x < y || x > y; }));
  f.push_back(relational("isordered", Arity::kBinary, [](ld x, ld y) { return !std::isnan(x) && !std::isnan(y); }));
  f.push_back(relational("isunordered", Arity::kBinary, [](ld x, ld y) { return std::isnan(x) || std::isnan(y); }));
  f.push_back(relational("isnan", Arity::kUnary, [](ld x, ld) { return std::isnan(x); }));
  f.push_back(relational("isinf", Arity::kUnary, [](ld x, ld) { return std::isinf(x); }));
  f.push_back(relational("isfinite", Arity::kUnary, [](ld x, ld) { return std::isfinite(x); }));
  f.push_back(relational("isnormal", Arity::kUnary, [](ld x, ld) { return std::isfinite(x) && std::fabs(x) >= 0x1p-14L; }));
  f.push_back(relational("signbit", Arity::kUnary, [](ld x, ld) { return std::signbit(x); }));
  return f;
}

// ---------------------------------------------------------------------------
// Running

std::string kernel_source(const Function& f, int width) {
  const std::string w = width == 1 ? "" : std::to_string(width);
  std::string s = "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n";
  s += "#define T half" + w + "\n#define I int" + w + "\n#define U ushort" + w + "\n";
  s += "#define convert_I convert_int" + w + "\n#define as_U as_ushort" + w + "\n";
  if (width == 1) {
    s += "#define LOAD(p) ((p)[i])\n#define STORE(v, p) ((p)[i] = (v))\n";
  } else {
    s += "#define LOAD(p) vload" + w + "(i, p)\n#define STORE(v, p) vstore" + w + "((v), i, p)\n";
  }
  s += R"CL(
__kernel void run(__global const half* xs, __global const half* ys, __global const half* zs,
                  __global const int* ns, __global half* res_out, __global half* res2_out, __global int* ires_out) {
  const size_t i = get_global_id(0);
  const T x = LOAD(xs), y = LOAD(ys), z = LOAD(zs);
  const I n = LOAD(ns);
  T res = (T)(0), res2 = (T)(0);
  I ires = (I)(0);
)CL";
  s += "  " + f.snippet + "\n";
  s += "  STORE(res, res_out);\n  STORE(res2, res2_out);\n  STORE(ires, ires_out);\n}\n";
  return s;
}

// Inputs are padded to a multiple of this: work-groups of 64 for every
// width (1, 2, 3, 4, 8, 16 components a work-item).
constexpr size_t kPadding = 64 * 48;

std::vector<Results> run_on_device(const Function& f, int width, const Inputs& in) {
  CompileOptions options;
  options.cl_std = OpenCLStd::CL3_0;
  Program program = build_program(test::device(), kernel_source(f, width), f.name + ".cl", options);
  Kernel kernel = program.kernel("run");
  const size_t count = in.size();  // a multiple of kPadding
  Buffer xs(test::device(), count * 2), ys(test::device(), count * 2), zs(test::device(), count * 2);
  Buffer ns(test::device(), count * 4), res(test::device(), count * 2), res2(test::device(), count * 2),
      ires(test::device(), count * 4);
  xs.write(in.x);
  ys.write(in.y);
  zs.write(in.z);
  ns.write(in.n);
  kernel.set_arg("xs", xs);
  kernel.set_arg("ys", ys);
  kernel.set_arg("zs", zs);
  kernel.set_arg("ns", ns);
  kernel.set_arg("res_out", res);
  kernel.set_arg("res2_out", res2);
  kernel.set_arg("ires_out", ires);
  test::device().run(kernel, NDRange::make({count / width}, {64}));
  const std::vector<Half> r = res.read<Half>(count), r2 = res2.read<Half>(count);
  const std::vector<int> ri = ires.read<int>(count);
  std::vector<Results> results(count);
  for (size_t i = 0; i < count; ++i) results[i] = {r[i], r2[i], ri[i]};
  return results;
}

// Whether the device keeps half subnormals: 2^-14 * 0.5 and 2^-24 * 1.
bool keeps_subnormals() {
  static const bool keeps = [] {
    Function probe{"probe", "res = x * y;", Arity::kBinary, nullptr};
    Inputs in;
    in.add(half_of_bits(0x0400), Half(0.5), Half(0), 0);
    in.add(half_of_bits(0x0001), Half(1), Half(0), 0);
    while (in.size() % kPadding) in.add(Half(1), Half(1), Half(0), 0);
    const std::vector<Results> got = run_on_device(probe, 1, in);
    const bool kept = bits_of(got[0].res) == 0x0200 && bits_of(got[1].res) == 0x0001;
    std::printf("half subnormals: %s\n", kept ? "kept" : "flushed (cases with them are left out)");
    return kept;
  }();
  return keeps;
}

bool device_has_fp16() {
  const ModuleFeatures& f = test::device().features();
  return f.shader_float16 && f.shader_int16 && f.storage_buffer_16bit;
}

void run_function(const Function& f) {
  Inputs in;
  switch (f.arity) {
    case Arity::kUnary: in = unary_inputs(); break;
    case Arity::kBinary: in = binary_inputs(); break;
    case Arity::kTernary: in = ternary_inputs(); break;
    case Arity::kHalfInt: in = half_int_inputs(); break;
  }
  while (in.size() % kPadding) in.add(Half(1), Half(1), Half(1), 1);
  const bool subnormals = keeps_subnormals();
  for (int width : {1, 4}) {
    SCOPED_TRACE(f.name + " width " + std::to_string(width));
    const std::vector<Results> got = run_on_device(f, width, in);
    int failures = 0;
    ld worst = 0;
    std::string worst_case;
    for (size_t i = 0; i < in.size(); ++i) {
      if (!subnormals && (is_subnormal(in.x[i]) || is_subnormal(in.y[i]) || is_subnormal(in.z[i]) ||
                          is_subnormal(got[i].res) || is_subnormal(got[i].res2)))
        continue;
      ld error = 0;
      const std::string problem = f.check(in.x[i], in.y[i], in.z[i], in.n[i], got[i], width, error);
      if (error > worst) {
        worst = error;
        worst_case = "x = " + text(in.x[i]) + ", y = " + text(in.y[i]);
      }
      if (!problem.empty() && ++failures <= 5) {
        std::string args = "x = " + text(in.x[i]);
        if (f.arity == Arity::kBinary || f.arity == Arity::kTernary) args += ", y = " + text(in.y[i]);
        if (f.arity == Arity::kTernary) args += ", z = " + text(in.z[i]);
        if (f.arity == Arity::kHalfInt) args += ", n = " + std::to_string(in.n[i]);
        ADD_FAILURE() << f.name << "(" << args << ") on half" << (width == 1 ? "" : "4") << ": " << problem;
      }
    }
    EXPECT_EQ(failures, 0) << f.name << " width " << width << ": " << failures << " of " << in.size() << " wrong";
    if (width == 1)
      std::printf("%-15s %6zu cases, worst %.3Lf ulp%s%s\n", f.name.c_str(), in.size(), worst,
                  worst_case.empty() ? "" : " at ", worst_case.c_str());
  }
}

// ctest's test names show the parameter: its name, not its bytes.
void PrintTo(const Function& f, std::ostream* os) { *os << f.name; }

class HalfMath : public ::testing::TestWithParam<Function> {};

TEST_P(HalfMath, MatchesTheReference) {
  if (!device_has_fp16()) GTEST_SKIP() << "no cl_khr_fp16 on this device (shaderFloat16, shaderInt16, 16-bit storage)";
  run_function(GetParam());
}

INSTANTIATE_TEST_SUITE_P(Functions, HalfMath, ::testing::ValuesIn(functions()),
                         [](const ::testing::TestParamInfo<Function>& info) { return info.param.name; });

// Every half function compiles and runs for every width, and agrees with its
// scalar self: a 16-wide and a 3-wide call of each family's shape give the
// scalar results component by component.
TEST(HalfMathWidths, WideVectorsAgreeWithScalars) {
  if (!device_has_fp16()) GTEST_SKIP() << "no cl_khr_fp16 on this device";
  Inputs in;
  const std::vector<Half> values = grid(96, 5);
  for (size_t i = 0; i < values.size(); ++i)
    in.add(values[i], values[(i * 7) % values.size()], values[(i * 13) % values.size()], int(i % 11) - 5);
  for (const Function& f : functions()) {
    if (f.name == "nan") continue;
    const std::vector<Results> scalar = run_on_device(f, 1, in);
    for (int width : {2, 3, 8, 16}) {
      Inputs padded = in;
      while (padded.size() % kPadding) padded.add(Half(1), Half(1), Half(1), 1);
      const std::vector<Results> wide = run_on_device(f, width, padded);
      for (size_t i = 0; i < in.size(); ++i) {
        const bool agree = same(wide[i].res, scalar[i].res) && same(wide[i].res2, scalar[i].res2) &&
                           (wide[i].ires == scalar[i].ires ||
                            // relational: -1 in vectors, 1 in scalars
                            (f.snippet.starts_with("ires = convert_I") && wide[i].ires == -scalar[i].ires));
        EXPECT_TRUE(agree) << f.name << " on half" << width << ", x = " << text(in.x[i]) << ", y = " << text(in.y[i])
                           << ": " << text(wide[i].res) << " / " << wide[i].ires << " vs scalar " << text(scalar[i].res)
                           << " / " << scalar[i].ires;
        if (!agree) break;
      }
    }
  }
}

// A half kernel on a device without half arithmetic (simulated by withholding
// shaderFloat16) compiles, as clc always defines cl_khr_fp16, and is refused
// when loaded, naming the feature: never a crash or a wrong answer.
TEST(HalfMathDevice, AHalfModuleOnADeviceWithoutFloat16IsRefused) {
  if (!test::device().features().shader_float16) GTEST_SKIP() << "the device has no shaderFloat16 to withhold";
  DeviceOptions options;
  options.withheld_features.shader_float16 = true;
  Device lesser = Device::create(options);
  EXPECT_FALSE(lesser.features().shader_float16);
  CompileOptions compile;
  compile.cl_std = OpenCLStd::CL3_0;
  test::expect_error(
      [&] {
        build_program(lesser,
                      "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
                      "__kernel void k(__global half* p) { p[0] = sin(p[1]) / p[2]; }",
                      "half.cl", compile);
      },
      {"the module needs features that", "shader_float16"});
}

}  // namespace
}  // namespace vkcl

// The OpenCL C explicit conversions (OpenCL C 3.0 §6.4.3) on the device,
// exactly: convert_<type>[_sat][_rte|_rtz|_rtp|_rtn] between every integer
// type, half (where the device has shaderFloat16 and 16-bit storage), float
// and double (where it has shaderFloat64), as scalars and as 4-vectors. Each result is compared bit for bit with a reference
// computed here in exact arithmetic (128-bit integers, significands rounded
// by hand): saturation clamps to the destination's range and turns NaN into
// 0; float-to-integer rounds to an integer in the mode (rtz by default);
// integer-to-float and narrowing float conversions round to the format in the mode
// (rte by default), overflowing to infinity or the largest finite value as
// IEEE 754 says for each mode. Inputs: each type's edge values, values
// around 2^11, 2^24 and 2^53 (ties included), halves, NaN, infinities, the integer
// types' bounds as floats and their neighbours, and random values of every
// magnitude.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "test_device.h"
#include "vkcl/source_program.h"

namespace vkcl {
namespace {

using i128 = __int128;
using u128 = unsigned __int128;

struct Type {
  const char* name;
  int bits;
  bool is_signed;
  bool is_float;
  int bytes() const { return bits / 8; }
  i128 min() const { return is_signed ? -(i128(1) << (bits - 1)) : 0; }
  i128 max() const { return is_signed ? (i128(1) << (bits - 1)) - 1 : (i128(1) << bits) - 1; }
  i128 wrap(i128 v) const {
    const i128 modulus = i128(1) << bits;
    v %= modulus;
    if (v < 0) v += modulus;
    if (is_signed && v > max()) v -= modulus;
    return v;
  }
};

const Type kInts[] = {{"char", 8, true, false},   {"uchar", 8, false, false}, {"short", 16, true, false},
                      {"ushort", 16, false, false}, {"int", 32, true, false},   {"uint", 32, false, false},
                      {"long", 64, true, false},  {"ulong", 64, false, false}};
const Type kHalf{"half", 16, true, true};
const Type kFloat{"float", 32, true, true};
const Type kDouble{"double", 64, true, true};

enum class Mode { Default, RTE, RTZ, RTP, RTN };
const Mode kModes[] = {Mode::Default, Mode::RTE, Mode::RTZ, Mode::RTP, Mode::RTN};
const char* suffix(Mode m) {
  switch (m) {
    case Mode::RTE: return "_rte";
    case Mode::RTZ: return "_rtz";
    case Mode::RTP: return "_rtp";
    case Mode::RTN: return "_rtn";
    default: return "";
  }
}

// The binary16/32/64 formats: significand bits, the exponent of the
// smallest subnormal's bit, the largest finite value.
struct Format {
  int precision;
  int min_unit;
  double max_finite;
};
Format format_of(int bits) {
  return bits == 16 ? Format{11, -24, 65504.0} : bits == 32 ? Format{24, -149, FLT_MAX} : Format{53, -1074, DBL_MAX};
}

// The binary16 bits of a value that half holds exactly, and back.
uint16_t half_bits(double v) {
  const uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  const double a = std::fabs(v);
  if (std::isnan(v)) return 0x7e00;
  if (std::isinf(a)) return sign | 0x7c00;
  if (a < 0x1p-14) return sign | uint16_t(a * 0x1p24);  // subnormal
  int e;
  std::frexp(a, &e);
  e -= 1;  // a = 1.f * 2^e
  return sign | uint16_t((e + 15) << 10) | uint16_t(std::ldexp(a, 10 - e) - 1024);
}
double half_value(uint16_t bits) {
  const double sign = bits & 0x8000 ? -1.0 : 1.0;
  const int exponent = (bits >> 10) & 31, fraction = bits & 1023;
  if (exponent == 31) return fraction ? NAN : sign * INFINITY;
  if (exponent == 0) return sign * std::ldexp(fraction, -24);
  return sign * std::ldexp(1024 + fraction, exponent - 25);
}

// The bits of a value of floating-point type t (which holds it exactly), and back.
uint64_t real_bits(const Type& t, double v) {
  if (t.bits == 16) return half_bits(v);
  if (t.bits == 32) return std::bit_cast<uint32_t>(float(v));
  return std::bit_cast<uint64_t>(v);
}
double real_value(const Type& t, uint64_t bits) {
  if (t.bits == 16) return half_value(uint16_t(bits));
  if (t.bits == 32) return std::bit_cast<float>(uint32_t(bits));
  return std::bit_cast<double>(bits);
}

// A source value: an integer, or a real (half and float sources widened to double, exactly).
struct Value {
  i128 integer = 0;
  double real = 0;
};

// ---------------------------------------------------------------------------
// References

// x rounded to an integer in mode m (exact in double: its fraction bits are below 2^52).
double round_to_integer(double x, Mode m) {
  switch (m) {
    case Mode::RTP: return std::ceil(x);
    case Mode::RTN: return std::floor(x);
    case Mode::RTE: {
      const double f = std::floor(x), d = x - f;
      if (d != 0.5) return d < 0.5 ? f : f + 1;
      return std::fmod(f, 2.0) == 0 ? f : f + 1;
    }
    default: return std::trunc(x);
  }
}

// convert_<to>[_sat]<m>(x) for a real x; nullopt where OpenCL leaves it undefined (out of range without _sat).
std::optional<i128> real_to_integer(double x, const Type& to, bool sat, Mode m) {
  if (std::isnan(x)) return sat ? std::optional<i128>(0) : std::nullopt;
  const double r = round_to_integer(x, m);
  const double above = std::ldexp(1.0, to.is_signed ? to.bits - 1 : to.bits);  // max + 1
  const double lowest = to.is_signed ? -above : 0.0;
  if (r >= above) return sat ? std::optional<i128>(to.max()) : std::nullopt;
  if (r < lowest) return sat ? std::optional<i128>(to.min()) : std::nullopt;
  return i128(r);
}

// sign * q * 2^e, rounded to `precision` significand bits with the exponent
// of its last bit at least `min_unit` and the result at most `max_finite`
// (beyond it: infinity or max_finite as the mode says).
double round_to_format(bool negative, u128 q, int e, Mode m, int precision, int min_unit, double max_finite) {
  if (q == 0) return negative ? -0.0 : 0.0;
  const int bits = 128 - (q >> 64 ? std::countl_zero(uint64_t(q >> 64)) : 64 + std::countl_zero(uint64_t(q)));
  int shift = std::max(bits - precision, min_unit - e);
  if (shift > 0) {
    u128 kept, rest, half;
    if (shift >= 127) {
      kept = 0, rest = q, half = ~u128(0);  // far below the smallest unit: less than half of it
    } else {
      kept = q >> shift, rest = q & ((u128(1) << shift) - 1), half = u128(1) << (shift - 1);
    }
    bool up = false;
    switch (m) {
      case Mode::RTZ: break;
      case Mode::RTP: up = rest != 0 && !negative; break;
      case Mode::RTN: up = rest != 0 && negative; break;
      default: up = rest > half || (rest == half && (kept & 1)); break;
    }
    q = kept + (up ? 1 : 0);
    e += shift;
  }
  double magnitude = std::ldexp(double(q), e);  // q has at most precision + 1 bits: exact
  if (magnitude > max_finite) {
    const bool to_infinity = m == Mode::Default || m == Mode::RTE || (m == Mode::RTP && !negative) ||
                             (m == Mode::RTN && negative);
    magnitude = to_infinity ? INFINITY : max_finite;
  }
  return negative ? -magnitude : magnitude;
}

double integer_to_real(i128 v, const Type& to, Mode m) {
  const bool negative = v < 0;
  const u128 magnitude = negative ? u128(-v) : u128(v);
  const Format f = format_of(to.bits);
  return round_to_format(negative, magnitude, 0, m, f.precision, f.min_unit, f.max_finite);
}

// x (a double) rounded to the floating-point type `to`.
double real_to_real(double x, const Type& to, Mode m) {
  if (std::isnan(x) || std::isinf(x) || x == 0 || to.bits == 64) return x;
  int e;
  const double fraction = std::frexp(std::fabs(x), &e);  // |x| = fraction * 2^e, fraction in [0.5, 1)
  const u128 q = u128(std::ldexp(fraction, 53));
  const Format f = format_of(to.bits);
  return round_to_format(x < 0, q, e - 53, m, f.precision, f.min_unit, f.max_finite);
}

// ---------------------------------------------------------------------------
// Inputs

std::vector<Value> integer_inputs(const Type& t, std::mt19937_64& rng) {
  std::vector<i128> v = {0, 1, 2, 3, t.max(), t.max() - 1, t.max() / 2, t.max() / 2 + 1, t.min(), t.min() + 1,
                         t.min() / 2, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff, 0x10000};
  if (t.is_signed) v.insert(v.end(), {-1, -2, -3, -0x80, -0x81, -0x8000, -0x8001});
  // Around the float and double precisions: exact values, ties, values between.
  for (int k : {11, 12, 15, 16, 24, 25, 31, 32, 53, 54, 62, 63})
    for (int j = -5; j <= 5; ++j)
      for (i128 base : {i128(1) << k, (i128(1) << k) + (i128(1) << (k - 10)), (i128(3) << (k - 1))}) {
        v.push_back(base + j);
        v.push_back(-(base + j));
      }
  for (int i = 0; i < 600; ++i) v.push_back(i128(int64_t(rng() >> (rng() % 64))) * (rng() % 2 ? 1 : -1));
  for (int i = 0; i < 200; ++i) v.push_back(i128(int64_t(rng())));
  std::vector<Value> values;
  for (i128 x : v) values.push_back({t.wrap(x), 0});
  return values;
}

std::vector<Value> real_inputs(const Type& t, std::mt19937_64& rng) {
  std::vector<double> v = {NAN, -NAN, INFINITY, -INFINITY, 0.0, -0.0, FLT_MAX, -FLT_MAX, FLT_MIN, -FLT_MIN};
  for (double h : {0.25, 0.5, 0.75, 1.0, 1.5, 2.5, 3.5, 126.5, 127.5, 128.5, 254.5, 255.5, 256.5, 32766.5, 32767.5,
                   32768.5, 65535.5, 65536.5, 1e-30, 1e30}) {
    v.push_back(h);
    v.push_back(-h);
  }
  // The integer types' bounds (2^k) and their neighbours in this type.
  for (int k : {7, 8, 15, 16, 23, 24, 31, 32, 52, 53, 63, 64, 127, 128}) {
    const double p = std::ldexp(1.0, k);
    const double ulp = std::ldexp(1.0, k - format_of(t.bits).precision);
    for (double x : {p, p - ulp / 2, p + ulp, p - 1, p + 1, p - 0.5, p + 0.5}) {
      v.push_back(x);
      v.push_back(-x);
    }
  }
  for (double x : {65504.0, 65519.0, 65520.0, 65536.0, 0x1p-14, 0x1p-24, 0x1p-25, 0x1.8p-25, 1.0 + 0x1p-11,
                   1.0 + 0x1p-12, 2049.0, 2051.0, 1e-10}) {  // float-to-half: the half range's edges
    v.push_back(x);
    v.push_back(-x);
  }
  if (t.bits == 64) {  // double-to-float: the float range's edges, below and above
    for (double x : {double(FLT_MAX) * (1 + 0x1p-30), double(FLT_MAX) * (1 + 0x1p-24), 0x1p128, 0x1p-126 * (1 + 0x1p-30),
                     0x1p-126 * (1 - 0x1p-30), 1.0 + 0x1p-24, 1.0 + 0x1p-25, 1.0 + 0x1p-24 + 0x1p-40, DBL_MAX}) {
      v.push_back(x);
      v.push_back(-x);
    }
    for (int i = 0; i < 300; ++i) {  // random doubles in the float range
      const double x = std::ldexp(1.0 + double(rng() >> 11) * 0x1p-53, int(rng() % 250) - 125);
      v.push_back(rng() % 2 ? x : -x);
    }
  }
  std::uniform_real_distribution<double> unit(1.0, 2.0);
  for (int i = 0; i < 500; ++i) {  // every magnitude an integer conversion meets
    double x = std::ldexp(unit(rng), int(rng() % 72) - 4);
    if (i % 3 == 0) x = std::floor(x) + 0.5;  // a tie for _rte
    v.push_back(rng() % 2 ? x : -x);
  }
  std::vector<Value> values;
  // Each as the nearest value of t (overflowing to infinity).
  for (double x : v) values.push_back({0, real_to_real(x, t, Mode::RTE)});
  return values;
}

// ---------------------------------------------------------------------------
// One program per source type: every conversion of an element of `in`, as
// scalars and as 4-vectors, written to its own region of `out`.

struct Conversion {
  const Type* to;
  bool sat;
  Mode mode;
  size_t offset = 0;  // of the scalar results; the vector results follow
  std::string call(int width) const {
    const std::string w = width == 1 ? "" : std::to_string(width);
    return std::string("convert_") + to->name + w + (sat ? "_sat" : "") + suffix(mode);
  }
};

std::string literal(const Type& t, const Value& v) {
  std::ostringstream s;
  if (t.is_float) {
    s.precision(std::numeric_limits<double>::max_digits10);
    s << v.real;
    if (!std::isnan(v.real)) s << " (" << std::hexfloat << v.real << ")";
  } else {
    s << (v.integer < 0 ? "-" : "") << uint64_t(v.integer < 0 ? -v.integer : v.integer);
  }
  return s.str();
}

std::string result_text(const Type& t, uint64_t bits) {
  std::ostringstream s;
  if (t.is_float) {
    const double d = real_value(t, bits);
    s.precision(std::numeric_limits<double>::max_digits10);
    s << d << " (" << std::hexfloat << d << ")";
  } else {
    const i128 v = t.wrap(i128(bits));
    s << (v < 0 ? "-" : "") << uint64_t(v < 0 ? -v : v);
  }
  return s.str();
}

// The reference's bits, or nullopt where any result is allowed.
std::optional<uint64_t> expected_bits(const Type& from, const Conversion& c, const Value& x) {
  const Type& to = *c.to;
  if (!to.is_float) {
    std::optional<i128> r = from.is_float ? real_to_integer(x.real, to, c.sat, c.mode)
                                          : std::optional<i128>(c.sat ? std::clamp(x.integer, to.min(), to.max())
                                                                      : to.wrap(x.integer));
    if (!r) return std::nullopt;
    const uint64_t bits = uint64_t(*r);
    return to.bits == 64 ? bits : bits & ((uint64_t(1) << to.bits) - 1);
  }
  const double r = from.is_float ? real_to_real(x.real, to, c.mode) : integer_to_real(x.integer, to, c.mode);
  return real_bits(to, r);  // a NaN: compared as any NaN below
}

bool is_nan_bits(const Type& t, uint64_t bits) {
  if (!t.is_float) return false;
  if (t.bits == 16) return (bits & 0x7fff) > 0x7c00;
  return t.bits == 32 ? (bits & 0x7fffffff) > 0x7f800000 : (bits & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
}

std::vector<Conversion> conversions_from(const Type& from, bool halves, bool doubles) {
  std::vector<Conversion> list;
  for (const Type& to : kInts) {
    if (!from.is_float) {
      list.push_back({&to, true, Mode::Default});
      continue;
    }
    for (Mode m : kModes) list.push_back({&to, true, m});
    for (Mode m : kModes) list.push_back({&to, false, m});  // compared only where the result is in range
  }
  for (const Type* to : {&kHalf, &kFloat, &kDouble}) {
    if ((to == &kDouble && !doubles) || (to == &kHalf && !halves)) continue;
    for (Mode m : kModes) list.push_back({to, false, m});
  }
  return list;
}

std::string source_for(const Type& from, std::vector<Conversion>& list, size_t count, size_t& out_bytes, bool halves,
                       bool doubles) {
  std::ostringstream s;
  if (halves) s << "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n";
  if (doubles) s << "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
  s
    << "__kernel void test(__global const " << from.name << "* in, __global uchar* out) {\n"
    << "  const size_t n = get_global_id(0);\n"
    << "  const " << from.name << " x = in[n];\n"
    << "  const " << from.name << "4 x4 = ((__global const " << from.name << "4*)in)[n / 4];\n";
  out_bytes = 0;
  for (Conversion& c : list) {
    c.offset = out_bytes;
    const size_t bytes = (count * c.to->bytes() + 63) / 64 * 64;
    out_bytes += 2 * bytes;
    s << "  ((__global " << c.to->name << "*)(out + " << c.offset << "))[n] = " << c.call(1) << "(x);\n"
      << "  if (n % 4 == 0) ((__global " << c.to->name << "4*)(out + " << c.offset + bytes << "))[n / 4] = "
      << c.call(4) << "(x4);\n";
  }
  s << "}\n";
  return s.str();
}

template <typename T>
std::vector<std::byte> bytes_of(const std::vector<T>& values) {
  std::vector<std::byte> bytes(values.size() * sizeof(T));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

void check_conversions_from(const Type& from) {
  const ModuleFeatures& features = test::device().features();
  const bool doubles = features.shader_float64;
  const bool halves = features.shader_float16 && features.storage_buffer_16bit;
  if (from.is_float && from.bits == 64 && !doubles) GTEST_SKIP() << "the device has no shaderFloat64";
  if (from.is_float && from.bits == 16 && !halves) GTEST_SKIP() << "the device has no shaderFloat16 or 16-bit storage";
  std::mt19937_64 rng(from.bits * 2 + from.is_signed + (from.is_float ? 100 : 0));
  std::vector<Value> inputs = from.is_float ? real_inputs(from, rng) : integer_inputs(from, rng);
  const size_t count = (inputs.size() + 63) / 64 * 64;
  inputs.resize(count, Value{});

  std::vector<std::byte> in(count * from.bytes());
  for (size_t n = 0; n < count; ++n) {
    const uint64_t v = from.is_float ? real_bits(from, inputs[n].real) : uint64_t(inputs[n].integer);
    std::memcpy(in.data() + n * from.bytes(), &v, from.bytes());  // little-endian
  }

  std::vector<Conversion> list = conversions_from(from, halves, doubles);
  size_t out_bytes = 0;
  const std::string source = source_for(from, list, count, out_bytes, halves, doubles);
  CompileOptions options;
  options.cl_std = OpenCLStd::CL1_2;
  Program program = build_program(test::device(), source, std::string("convert_from_") + from.name + ".cl", options);
  Kernel k = program.kernel("test");
  Buffer in_buffer(test::device(), in.size()), out_buffer(test::device(), out_bytes);
  in_buffer.write(std::span<const std::byte>(in));
  k.set_arg("in", in_buffer);
  k.set_arg("out", out_buffer);
  test::device().run(k, NDRange::make({count}));
  std::vector<std::byte> out(out_bytes);
  out_buffer.read(std::span<std::byte>(out));

  size_t checked = 0;
  for (const Conversion& c : list) {
    const size_t bytes = (count * c.to->bytes() + 63) / 64 * 64;
    for (int width : {1, 4}) {
      size_t failures = 0;
      std::string examples;
      for (size_t n = 0; n < count; ++n) {
        const std::optional<uint64_t> expected = expected_bits(from, c, inputs[n]);
        if (!expected) continue;
        uint64_t got = 0;
        std::memcpy(&got, out.data() + c.offset + (width == 4 ? bytes : 0) + n * c.to->bytes(), c.to->bytes());
        ++checked;
        if (got == *expected || (is_nan_bits(*c.to, got) && is_nan_bits(*c.to, *expected))) continue;
        if (++failures <= 5)
          examples += "\n  " + c.call(width) + "(" + from.name + " " + literal(from, inputs[n]) +
                      ") = " + result_text(*c.to, got) + ", expected " + result_text(*c.to, *expected);
      }
      if (failures)
        ADD_FAILURE() << c.call(width) << " from " << from.name << (width == 4 ? "4" : "") << ": " << failures
                      << " results wrong, e.g." << examples;
    }
  }
  std::printf("conversions from %s: %zu conversions, %zu results checked exactly\n", from.name, list.size(), checked);
}

TEST(Conversions, FromChar) { check_conversions_from(kInts[0]); }
TEST(Conversions, FromUchar) { check_conversions_from(kInts[1]); }
TEST(Conversions, FromShort) { check_conversions_from(kInts[2]); }
TEST(Conversions, FromUshort) { check_conversions_from(kInts[3]); }
TEST(Conversions, FromInt) { check_conversions_from(kInts[4]); }
TEST(Conversions, FromUint) { check_conversions_from(kInts[5]); }
TEST(Conversions, FromLong) { check_conversions_from(kInts[6]); }
TEST(Conversions, FromUlong) { check_conversions_from(kInts[7]); }
TEST(Conversions, FromHalf) { check_conversions_from(kHalf); }
TEST(Conversions, FromFloat) { check_conversions_from(kFloat); }
TEST(Conversions, FromDouble) { check_conversions_from(kDouble); }

// A real truncated to an integer and back is +0.0 for x in (-1, 0): the
// integer 0 has no sign. lavapipe (Mesa 22.3.6) folded the two conversions
// into a truncation that keeps the sign unless the module declares
// SignedZeroInfNanPreserve, which the runtime now adds (host/preserve_denormals.h).
TEST(Conversions, RealToIntegerAndBackHasNoNegativeZero) {
  const bool doubles = test::device().features().shader_float64;
  const std::string source = std::string(doubles ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" : "") +
                             "kernel void test(global const float* x, global float* f" +
                             (doubles ? ", global double* d" : "") +
                             ") {\n"
                             "  size_t i = get_global_id(0);\n"
                             "  f[i] = (float)(int)x[i];\n" +
                             (doubles ? "  d[i] = (double)(long)(x[i] / 7.0);\n" : "") + "}\n";
  Program program = build_program(test::device(), source, "round_trip.cl");
  Kernel k = program.kernel("test");
  const std::vector<float> inputs = {-0.5f, -0.25f, -0.999f, -1e-30f, -0.0f, -6.5f, 0.5f, -1.5f};
  Buffer x(test::device(), inputs.size() * 4), f(test::device(), inputs.size() * 4), d(test::device(), inputs.size() * 8);
  x.write(inputs);
  k.set_arg("x", x);
  k.set_arg("f", f);
  if (doubles) k.set_arg("d", d);
  test::device().run(k, NDRange::make({inputs.size()}));
  const std::vector<float> fs = f.read<float>(inputs.size());
  for (size_t n = 0; n < inputs.size(); ++n) {
    const float expected = float(int(inputs[n]));
    EXPECT_EQ(std::bit_cast<uint32_t>(fs[n]), std::bit_cast<uint32_t>(expected))
        << "(float)(int)" << inputs[n] << " = " << fs[n];
  }
  if (!doubles) return;
  const std::vector<double> ds = d.read<double>(inputs.size());
  for (size_t n = 0; n < inputs.size(); ++n) {
    const double expected = double((long long)(double(inputs[n]) / 7.0));
    EXPECT_EQ(std::bit_cast<uint64_t>(ds[n]), std::bit_cast<uint64_t>(expected))
        << "(double)(long)(" << inputs[n] << " / 7.0) = " << ds[n];
  }
}

}  // namespace
}  // namespace vkcl

// Half as a storage format on the device: vload_half, vload_halfn,
// vloada_halfn, vstore_half, vstore_halfn and vstorea_halfn with every
// rounding mode (builtins/vload_store_half.cl), from float and double,
// through __global, __constant, __local, __private and generic pointers, at
// every width. Each result is checked bit for bit against a reference
// computed here by a different method: half values from ldexp, and rounding
// by finding the two halves around the input in a table of every finite
// half and comparing with their exact midpoint.
//
// The inputs are every half bit pattern (loads), and for stores every half
// value, every midpoint between neighbouring halves and its neighbours on
// both sides (ties and near-ties, in the normal and the subnormal range),
// values around the largest half and 2^16, float and double subnormals,
// infinities, NaNs with payloads, and random values; for double also the
// neighbours of midpoints a float cannot hold, which a conversion through
// float would round twice.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "test_device.h"
#include "vkcl/source_program.h"

namespace vkcl {
namespace {

// ---------------------------------------------------------------------------
// The kernels. `form` picks the function and width (kForms), `mode` the
// rounding suffix (kModes); vload1/vstore1 and the *_half1 names stand for
// the scalar forms, so that one macro covers every width.

constexpr const char* kSource = R"CL(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable  // __private half arrays
#ifdef WITH_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#define vload1(i, p) ((p)[i])
#define vstore1(v, i, p) ((p)[i] = (v))
#define vload_half1 vload_half
#define vstore_half1 vstore_half
#define vstore_half1_rte vstore_half_rte
#define vstore_half1_rtz vstore_half_rtz
#define vstore_half1_rtp vstore_half_rtp
#define vstore_half1_rtn vstore_half_rtn

// ACCESS(F, N, S) for each function F of PLAIN or ALIGNED (vload_half,
// vloada_half, ...) of width N whose element group i starts at half i * S.
#define FORMS(ACCESS, PLAIN, ALIGNED)                                                  \
  switch (form) {                                                                      \
    case 0: ACCESS(PLAIN##1, 1, 1); break;                                             \
    case 1: ACCESS(PLAIN##2, 2, 2); break;                                             \
    case 2: ACCESS(PLAIN##3, 3, 3); break;                                             \
    case 3: ACCESS(PLAIN##4, 4, 4); break;                                             \
    case 4: ACCESS(PLAIN##8, 8, 8); break;                                             \
    case 5: ACCESS(PLAIN##16, 16, 16); break;                                          \
    case 6: ACCESS(ALIGNED##2, 2, 2); break;                                           \
    case 7: ACCESS(ALIGNED##3, 3, 4); break;                                           \
    case 8: ACCESS(ALIGNED##4, 4, 4); break;                                           \
    case 9: ACCESS(ALIGNED##8, 8, 8); break;                                           \
    case 10: ACCESS(ALIGNED##16, 16, 16); break;                                       \
  }

// Loads: out[i * N + k] is the half at i * S + k.
#define LOAD_GLOBAL(F, N, S) vstore##N(F(i, h), i, out)
#define LOAD_LOCAL(F, N, S)                                                            \
  for (int k = 0; k < N; ++k) raw_local[l * S + k] = bits[i * S + k];                  \
  vstore##N(F(l, scratch), i, out)
#define LOAD_PRIVATE(F, N, S)                                                          \
  for (int k = 0; k < N; ++k) raw_private[S + k] = bits[i * S + k];                    \
  vstore##N(F(1, tmp), i, out)
#define LOAD_GENERIC(F, N, S) vstore##N(F(i, g), i, out)

__kernel void load_global(__global const half* h, __global float* out, int form) {
  const size_t i = get_global_id(0);
  FORMS(LOAD_GLOBAL, vload_half, vloada_half)
}
__kernel void load_constant(__constant half* h, __global float* out, int form) {
  const size_t i = get_global_id(0);
  FORMS(LOAD_GLOBAL, vload_half, vloada_half)
}
__kernel void load_local(__global const ushort* bits, __global float* out, __local half* scratch, int form) {
  const size_t i = get_global_id(0), l = get_local_id(0);
  __local ushort* raw_local = (__local ushort*)scratch;
  FORMS(LOAD_LOCAL, vload_half, vloada_half)
}
__kernel void load_private(__global const ushort* bits, __global float* out, int form) {
  const size_t i = get_global_id(0);
  half tmp[48];
  ushort* raw_private = (ushort*)tmp;
  FORMS(LOAD_PRIVATE, vload_half, vloada_half)
}
__kernel void load_generic(__global const half* h, __global float* out, int form) {
  const size_t i = get_global_id(0);
  const half* g = h;
  FORMS(LOAD_GENERIC, vload_half, vloada_half)
}

// Stores: the N values from x[i * N] go to the halves at i * S + k, those
// of each rounding mode to their own `total` halves of out.
#define MODES(F, V, I, P)                                                              \
  switch (mode) {                                                                      \
    case 0: F(V, I, P); break;                                                         \
    case 1: F##_rte(V, I, P); break;                                                   \
    case 2: F##_rtz(V, I, P); break;                                                   \
    case 3: F##_rtp(V, I, P); break;                                                   \
    case 4: F##_rtn(V, I, P); break;                                                   \
  }
#define STORE_GLOBAL(F, N, S) MODES(F, vload##N(i, x), i, out_mode)
#define STORE_LOCAL(F, N, S)                                                           \
  MODES(F, vload##N(i, x), l, scratch)                                                 \
  for (int k = 0; k < N; ++k) out_mode[i * S + k] = raw_local[l * S + k];
#define STORE_PRIVATE(F, N, S)                                                         \
  MODES(F, vload##N(i, x), 1, tmp)                                                     \
  for (int k = 0; k < N; ++k) out_mode[i * S + k] = raw_private[S + k];
#define STORE_GENERIC(F, N, S) MODES(F, vload##N(i, x), i, g)

__kernel void store_global(__global const T* x, __global half* out, int form, uint total) {
  const size_t i = get_global_id(0);
  for (int mode = 0; mode < 5; ++mode) {
    __global half* out_mode = out + mode * total;
    FORMS(STORE_GLOBAL, vstore_half, vstorea_half)
  }
}
__kernel void store_local(__global const T* x, __global ushort* out, __local half* scratch, int form, uint total) {
  const size_t i = get_global_id(0), l = get_local_id(0);
  __local ushort* raw_local = (__local ushort*)scratch;
  for (int mode = 0; mode < 5; ++mode) {
    __global ushort* out_mode = out + mode * total;
    FORMS(STORE_LOCAL, vstore_half, vstorea_half)
  }
}
__kernel void store_private(__global const T* x, __global ushort* out, int form, uint total) {
  const size_t i = get_global_id(0);
  half tmp[48];
  ushort* raw_private = (ushort*)tmp;
  for (int mode = 0; mode < 5; ++mode) {
    __global ushort* out_mode = out + mode * total;
    FORMS(STORE_PRIVATE, vstore_half, vstorea_half)
  }
}
__kernel void store_generic(__global const T* x, __global half* out, int form, uint total) {
  const size_t i = get_global_id(0);
  for (int mode = 0; mode < 5; ++mode) {
    half* g = out + mode * total;
    FORMS(STORE_GENERIC, vstore_half, vstorea_half)
  }
}
)CL";

struct Form {
  const char* name;
  uint32_t width;   // N: values per element group
  uint32_t stride;  // S: halves from one group to the next
};
constexpr std::array<Form, 11> kForms = {{
    {"vload_half / vstore_half", 1, 1},
    {"vload_half2 / vstore_half2", 2, 2},
    {"vload_half3 / vstore_half3", 3, 3},
    {"vload_half4 / vstore_half4", 4, 4},
    {"vload_half8 / vstore_half8", 8, 8},
    {"vload_half16 / vstore_half16", 16, 16},
    {"vloada_half2 / vstorea_half2", 2, 2},
    {"vloada_half3 / vstorea_half3", 3, 4},
    {"vloada_half4 / vstorea_half4", 4, 4},
    {"vloada_half8 / vstorea_half8", 8, 8},
    {"vloada_half16 / vstorea_half16", 16, 16},
}};

enum class Mode { kDefault, kRte, kRtz, kRtp, kRtn };
constexpr std::array<Mode, 5> kModes = {Mode::kDefault, Mode::kRte, Mode::kRtz, Mode::kRtp, Mode::kRtn};
constexpr std::array<const char*, 5> kModeSuffixes = {"", "_rte", "_rtz", "_rtp", "_rtn"};

// The local size of every run, and the halves each work-item's __local slot holds.
constexpr uint32_t kLocalSize = 64;
constexpr uint32_t kSlotHalves = 16;
// Values that make whole work-groups of element groups at every width (1, 2,
// 3, 4, 8, 16) and stride: a partial last work-group would be a second
// pipeline per width, each of these large kernels taking seconds to build
// under the validation layer.
constexpr uint32_t kWholeGroups = kLocalSize * 48;

Program& program(bool with_double) {
  // The device first: statics are destroyed in reverse order, and these
  // programs must go before it and before the driver's exit handlers.
  test::device();
  static std::array<std::optional<Program>, 2> programs;
  std::optional<Program>& p = programs[with_double ? 1 : 0];
  if (!p) {
    CompileOptions options;
    options.cl_std = OpenCLStd::CL2_0;  // generic pointers
    options.defines = {with_double ? "T=double" : "T=float"};
    if (with_double) options.defines.push_back("WITH_DOUBLE");
    p = build_program(test::device(), kSource, "half_storage.cl", options);
  }
  return *p;
}

// ---------------------------------------------------------------------------
// The reference

// A half's value; infinity and NaN are not asked for.
double half_value(uint16_t h) {
  const int exponent = (h >> 10) & 0x1f;
  const int mantissa = h & 0x3ff;
  const double magnitude = exponent == 0 ? std::ldexp(double(mantissa), -24)
                                         : std::ldexp(double(1024 + mantissa), exponent - 25);
  return (h & 0x8000) ? -magnitude : magnitude;
}

// vload_half's result: exact, a NaN quiet with its payload kept.
uint32_t reference_load(uint16_t h) {
  const uint32_t sign = uint32_t(h & 0x8000) << 16;
  const uint32_t mantissa = h & 0x3ff;
  if ((h & 0x7c00) == 0x7c00) return sign | 0x7f800000u | (mantissa << 13) | (mantissa ? 0x400000u : 0);
  return std::bit_cast<uint32_t>(float(half_value(h)));
}

// The nonnegative finite halves in order, then 2^16 standing for infinity
// (the next value a half would have): IEEE 754 rounds to infinity exactly
// when rounding with an unbounded exponent would give 2^16 or more.
const std::vector<double>& half_ladder() {
  static const std::vector<double> ladder = [] {
    std::vector<double> values;
    for (uint32_t h = 0; h < 0x7c00; ++h) values.push_back(half_value(uint16_t(h)));
    values.push_back(65536.0);
    return values;
  }();
  return ladder;
}

// vstore_half's bits for a finite or infinite x in `mode`, by search and
// exact comparison (every input and every midpoint of halves is a double).
uint16_t reference_store(double x, Mode mode) {
  const uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  const double a = std::fabs(x);
  if (std::isinf(a)) return sign | 0x7c00;
  const std::vector<double>& ladder = half_ladder();
  const size_t low = size_t(std::upper_bound(ladder.begin(), ladder.end(), a) - ladder.begin()) - 1;
  const bool negative = sign != 0;
  auto away_from_zero = [&](bool nearest_up) {
    switch (mode) {
      case Mode::kDefault: case Mode::kRte: return nearest_up;
      case Mode::kRtz: return false;
      case Mode::kRtp: return !negative;
      case Mode::kRtn: return negative;
    }
    return false;
  };
  if (low == ladder.size() - 1)  // 2^16 or more
    return sign | (away_from_zero(true) ? 0x7c00 : 0x7bff);
  if (ladder[low] == a) return uint16_t(sign | low);
  const double midpoint = (ladder[low] + ladder[low + 1]) / 2;  // exact
  const bool nearest_up = a > midpoint || (a == midpoint && (low & 1) != 0);
  return uint16_t(sign | (away_from_zero(nearest_up) ? low + 1 : low));
}

// A NaN keeps its sign and the top of its payload, and becomes quiet.
uint16_t reference_store_nan_float(uint32_t bits) {
  return uint16_t(((bits >> 16) & 0x8000) | 0x7e00 | ((bits & 0x7fffff) >> 13));
}
uint16_t reference_store_nan_double(uint64_t bits) {
  return uint16_t(((bits >> 48) & 0x8000) | 0x7e00 | ((bits & 0xfffffffffffffull) >> 42));
}

// ---------------------------------------------------------------------------
// Inputs

// Values around the largest half and the subnormal halves' edges, float
// extremes, infinities and NaNs (quiet and signaling, with payloads), each
// with both signs.
std::vector<float> float_specials() {
  std::vector<float> v;
  const float specials[] = {
      65504.0f, 65519.0f, 65519.99f, 65520.0f, 65520.01f, 65535.0f, 65536.0f, 65537.0f, 1e10f,
      std::numeric_limits<float>::max(), std::numeric_limits<float>::infinity(),
      std::numeric_limits<float>::min(), std::numeric_limits<float>::denorm_min(),
      std::nextafter(std::numeric_limits<float>::min(), 0.0f), 0x1p-25f, 0x1.000002p-25f, 0x1.fffffep-26f,
      0x1p-24f, 0x1.8p-24f, 0x1.7ffffep-24f, 0x1p-14f, 0x1.ffcp-15f, 0x1.ffep-15f, 0x1.ffdffep-15f, 0.0f,
  };
  for (float s : specials) {
    v.push_back(s);
    v.push_back(-s);
  }
  for (uint32_t nan : {0x7fc00000u, 0x7f800001u, 0x7fbfffffu, 0x7fffffffu, 0x7f802000u, 0x7fa00000u, 0xffc00000u,
                       0xff800001u, 0xffd55555u})
    v.push_back(std::bit_cast<float>(nan));
  return v;
}

std::vector<float> float_inputs() {
  std::vector<float> v;
  for (uint32_t h = 0; h < 0x10000; ++h) {
    if ((h & 0x7c00) == 0x7c00) continue;
    v.push_back(float(half_value(uint16_t(h))));
  }
  const std::vector<double>& ladder = half_ladder();
  for (size_t i = 0; i + 1 < ladder.size(); ++i) {
    const float midpoint = float((ladder[i] + ladder[i + 1]) / 2);  // exact: 12 significant bits
    for (float m : {midpoint, std::nextafter(midpoint, 0.0f), std::nextafter(midpoint, 1e30f)}) {
      v.push_back(m);
      v.push_back(-m);
    }
  }
  for (float s : float_specials()) v.push_back(s);
  std::mt19937 random(20260522);
  for (int k = 0; k < 10000; ++k) {
    // Exponents from well below the subnormal halves to above the largest.
    const uint32_t exponent = 95 + random() % 55;
    v.push_back(std::bit_cast<float>(uint32_t((random() & 0x807fffffu) | (exponent << 23))));
  }
  for (int k = 0; k < 4000; ++k) v.push_back(std::bit_cast<float>(uint32_t(random())));
  return v;
}

std::vector<double> double_specials() {
  std::vector<double> v;
  for (float f : float_specials()) v.push_back(double(f));
  const double specials[] = {
      std::numeric_limits<double>::max(), std::numeric_limits<double>::min(),
      std::numeric_limits<double>::denorm_min(), 0x1p-25, std::nextafter(0x1p-25, 1.0), std::nextafter(0x1p-25, 0.0),
      65520.0, std::nextafter(65520.0, 0.0), std::nextafter(65520.0, 1e300), 1e300,
  };
  for (double s : specials) {
    v.push_back(s);
    v.push_back(-s);
  }
  for (uint64_t nan : {0x7ff8000000000000ull, 0x7ff0000000000001ull, 0x7ff7ffffffffffffull, 0xfff0040000000000ull,
                       0x7ff4000000000000ull})
    v.push_back(std::bit_cast<double>(nan));
  return v;
}

std::vector<double> double_inputs() {
  std::vector<double> v;
  for (float f : float_inputs()) v.push_back(double(f));
  // One double ulp from a midpoint: through float it would be the midpoint,
  // a tie, and round to even; directly it rounds to the nearer side.
  const std::vector<double>& ladder = half_ladder();
  for (size_t i = 0; i + 1 < ladder.size(); ++i) {
    const double midpoint = (ladder[i] + ladder[i + 1]) / 2;
    for (double m : {std::nextafter(midpoint, 0.0), std::nextafter(midpoint, 1e300)}) {
      v.push_back(m);
      v.push_back(-m);
    }
  }
  for (double s : double_specials()) v.push_back(s);
  std::mt19937_64 random(20260523);
  for (int k = 0; k < 10000; ++k) {
    const uint64_t exponent = 1023 - 32 + random() % 55;
    v.push_back(std::bit_cast<double>((random() & 0x800fffffffffffffull) | (exponent << 52)));
  }
  for (int k = 0; k < 4000; ++k) v.push_back(std::bit_cast<double>(random()));
  return v;
}

uint16_t reference_store_of(float x, Mode mode) {
  return std::isnan(x) ? reference_store_nan_float(std::bit_cast<uint32_t>(x)) : reference_store(double(x), mode);
}
uint16_t reference_store_of(double x, Mode mode) {
  return std::isnan(x) ? reference_store_nan_double(std::bit_cast<uint64_t>(x)) : reference_store(x, mode);
}

template <typename T>
std::string bits_of(T x) {
  std::ostringstream text;
  text << "0x" << std::hex << (sizeof(T) == 4 ? uint64_t(std::bit_cast<uint32_t>(float(x)))
                                              : std::bit_cast<uint64_t>(double(x)));
  return text.str();
}

// Reports at most a few mismatches per call in words; counts the rest.
class Mismatches {
 public:
  explicit Mismatches(std::string what) : what_(std::move(what)) {}
  ~Mismatches() { EXPECT_EQ(count_, 0u) << what_ << ": " << count_ << " wrong results"; }
  void add(const std::string& detail) {
    if (count_++ < 8) ADD_FAILURE() << what_ << ": " << detail;
  }

 private:
  std::string what_;
  size_t count_ = 0;
};

// ---------------------------------------------------------------------------
// Loads

enum class Space { kGlobal, kConstant, kLocal, kPrivate, kGeneric };
const char* space_name(Space s) {
  switch (s) {
    case Space::kGlobal: return "__global";
    case Space::kConstant: return "__constant";
    case Space::kLocal: return "__local";
    case Space::kPrivate: return "__private";
    case Space::kGeneric: return "generic";
  }
  return "";
}

void check_loads(Space space) {
  // Every half, and from the start again up to a size every width divides
  // into whole work-groups.
  std::vector<uint16_t> halves(kWholeGroups * 22);
  for (uint32_t h = 0; h < halves.size(); ++h) halves[h] = uint16_t(h);
  Buffer input(test::device(), halves.size() * 2);
  input.write(halves);
  const char* kernel_name = space == Space::kGlobal     ? "load_global"
                            : space == Space::kConstant ? "load_constant"
                            : space == Space::kLocal    ? "load_local"
                            : space == Space::kPrivate  ? "load_private"
                                                        : "load_generic";
  Kernel kernel = program(false).kernel(kernel_name);
  kernel.set_arg(0, input);
  if (space == Space::kLocal) kernel.set_local_arg("scratch", kLocalSize * kSlotHalves * 2);
  for (int32_t form = 0; form < int32_t(kForms.size()); ++form) {
    const Form& f = kForms[form];
    const uint32_t groups = uint32_t(halves.size()) / f.stride;
    Buffer output(test::device(), size_t(groups) * f.width * 4);
    kernel.set_arg("out", output);
    kernel.set_arg("form", form);
    test::device().run(kernel, NDRange::make({groups}, {kLocalSize}));
    const std::vector<uint32_t> got = output.read<uint32_t>(size_t(groups) * f.width);
    Mismatches wrong(std::string(f.name) + " from " + space_name(space) + " memory");
    for (uint32_t i = 0; i < groups; ++i)
      for (uint32_t k = 0; k < f.width; ++k) {
        const uint16_t h = halves[i * f.stride + k];
        const uint32_t expected = reference_load(h), actual = got[i * f.width + k];
        if (actual != expected) {
          std::ostringstream detail;
          detail << std::hex << "group " << std::dec << i << " component " << k << ": half 0x" << std::hex << h
                 << " gave float 0x" << actual << ", expected 0x" << expected;
          wrong.add(detail.str());
        }
      }
  }
}

// Half is only storage here: the modules read and write its bits as ushort,
// so they need 16-bit integers and 16-bit storage, never shaderFloat16
// (spirv/declare_vulkan_module), in any address space.
TEST(HalfStorage, NeedsNoFloat16) {
  EXPECT_FALSE(program(false).reflection().features.shader_float16);
  if (test::device().features().shader_float64) {
    EXPECT_FALSE(program(true).reflection().features.shader_float16);
  }
}

TEST(HalfStorage, LoadsOfEveryHalfFromGlobalMemory) { check_loads(Space::kGlobal); }
TEST(HalfStorage, LoadsFromConstantMemory) { check_loads(Space::kConstant); }
TEST(HalfStorage, LoadsFromLocalMemory) { check_loads(Space::kLocal); }
TEST(HalfStorage, LoadsFromPrivateMemory) { check_loads(Space::kPrivate); }
TEST(HalfStorage, LoadsThroughGenericPointers) { check_loads(Space::kGeneric); }

// ---------------------------------------------------------------------------
// Stores

constexpr uint16_t kUntouched = 0xabcd;  // the fourth half of each vstorea_half3 group

// Runs every form of `space` (all when `all_forms`, else the scalar form
// only) in every mode on `inputs`, and checks every half written.
template <typename T>
void check_stores(Space space, const std::vector<T>& all_inputs, bool all_forms) {
  const bool with_double = std::is_same_v<T, double>;
  if (with_double && !test::device().features().shader_float64) GTEST_SKIP() << "the device lacks float64";
  std::vector<T> inputs = all_inputs;
  while (inputs.size() % kWholeGroups != 0) inputs.push_back(T(1));
  Buffer input(test::device(), inputs.size() * sizeof(T));
  input.write(inputs);
  const char* kernel_name = space == Space::kGlobal  ? "store_global"
                            : space == Space::kLocal ? "store_local"
                            : space == Space::kPrivate ? "store_private"
                                                       : "store_generic";
  Kernel kernel = program(with_double).kernel(kernel_name);
  kernel.set_arg("x", input);
  if (space == Space::kLocal) kernel.set_local_arg("scratch", kLocalSize * kSlotHalves * 2);
  for (int32_t form = 0; form < (all_forms ? int32_t(kForms.size()) : 1); ++form) {
    const Form& f = kForms[form];
    const uint32_t groups = uint32_t(inputs.size() / f.width);
    const uint32_t halves = groups * f.stride;  // per mode
    Buffer output(test::device(), size_t(halves) * kModes.size() * 2);
    output.fill(kUntouched);
    kernel.set_arg("out", output);
    kernel.set_arg("form", form);
    kernel.set_arg("total", halves);
    test::device().run(kernel, NDRange::make({groups}, {kLocalSize}));
    const std::vector<uint16_t> all = output.read<uint16_t>(size_t(halves) * kModes.size());
    for (size_t m = 0; m < kModes.size(); ++m) {
      const uint16_t* got = &all[m * halves];
      std::string name = f.name;
      name = name.substr(name.find("/ ") + 2) + kModeSuffixes[m] + " of " + (with_double ? "double" : "float") +
             " to " + space_name(space) + " memory";
      Mismatches wrong(name);
      for (uint32_t i = 0; i < groups; ++i)
        for (uint32_t k = 0; k < f.stride; ++k) {
          const uint16_t actual = got[size_t(i) * f.stride + k];
          const T x = k < f.width ? inputs[size_t(i) * f.width + k] : T(0);
          const uint16_t expected = k < f.width ? reference_store_of(x, kModes[m]) : kUntouched;
          if (actual == expected) continue;
          std::ostringstream detail;
          detail << "group " << i << " component " << k << ": ";
          if (k < f.width) detail << x << " (" << bits_of(x) << ")";
          else detail << "the padding half";
          detail << std::hex << " became 0x" << actual << ", expected 0x" << expected;
          wrong.add(detail.str());
        }
    }
  }
}

// Every input through the scalar form to global memory, float and double.
TEST(HalfStorage, FloatStoresRoundEveryInputInEveryMode) { check_stores(Space::kGlobal, float_inputs(), false); }
TEST(HalfStorage, DoubleStoresRoundEveryInputOnceInEveryMode) {
  check_stores(Space::kGlobal, double_inputs(), false);
}

// Every width, address space and mode on the specials and every `step`th
// input: the conversions are the ones checked above; what differs here is
// the functions around them (addresses, strides, components, modes).
template <typename T>
std::vector<T> sample(const std::vector<T>& all, const std::vector<T>& specials, size_t step) {
  std::vector<T> some = specials;
  for (size_t i = 0; i < all.size(); i += step) some.push_back(all[i]);
  return some;
}

TEST(HalfStorage, FloatStoresOfEveryWidthToGlobalMemory) {
  check_stores(Space::kGlobal, sample(float_inputs(), float_specials(), 37), true);
}
TEST(HalfStorage, FloatStoresOfEveryWidthToLocalMemory) {
  check_stores(Space::kLocal, sample(float_inputs(), float_specials(), 151), true);
}
TEST(HalfStorage, FloatStoresOfEveryWidthToPrivateMemory) {
  check_stores(Space::kPrivate, sample(float_inputs(), float_specials(), 151), true);
}
TEST(HalfStorage, FloatStoresOfEveryWidthThroughGenericPointers) {
  check_stores(Space::kGeneric, sample(float_inputs(), float_specials(), 151), true);
}
TEST(HalfStorage, DoubleStoresOfEveryWidthToGlobalMemory) {
  check_stores(Space::kGlobal, sample(double_inputs(), double_specials(), 37), true);
}
TEST(HalfStorage, DoubleStoresOfEveryWidthToLocalMemory) {
  check_stores(Space::kLocal, sample(double_inputs(), double_specials(), 151), true);
}
TEST(HalfStorage, DoubleStoresOfEveryWidthToPrivateMemory) {
  check_stores(Space::kPrivate, sample(double_inputs(), double_specials(), 151), true);
}
TEST(HalfStorage, DoubleStoresOfEveryWidthThroughGenericPointers) {
  check_stores(Space::kGeneric, sample(double_inputs(), double_specials(), 151), true);
}

}  // namespace
}  // namespace vkcl

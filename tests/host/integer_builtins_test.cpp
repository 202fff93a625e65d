// The OpenCL C integer builtins on the device, exactly: every function for
// every integer type, as scalars and as 4-vectors (whose code differs: no
// integer promotion), over the edge values of the type (0, +-1, the minimum
// and maximum, powers of two and their neighbours, alternating bits) in all
// combinations, and random values; each result compared with a reference
// computed here in 128-bit arithmetic.
#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <span>
#include <climits>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "test_device.h"
#include "vkcl/source_program.h"

// The function table below names only the fields each entry needs.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace vkcl {
namespace {

// OpenCL C 3.0 (ctz and the generic address space need 2.0 or later).
CompileOptions cl30() {
  CompileOptions options;
  options.cl_std = OpenCLStd::CL3_0;
  return options;
}

using i128 = __int128;

struct IntType {
  const char* name;
  int bits;
  bool is_signed;
  i128 min() const { return is_signed ? -(i128(1) << (bits - 1)) : 0; }
  i128 max() const { return is_signed ? (i128(1) << (bits - 1)) - 1 : (i128(1) << bits) - 1; }
  // A value of this type from its bits (the low `bits` of v).
  i128 wrap(i128 v) const {
    const i128 modulus = i128(1) << bits;
    v %= modulus;
    if (v < 0) v += modulus;
    if (is_signed && v > max()) v -= modulus;
    return v;
  }
  std::string unsigned_name() const { return is_signed ? std::string("u") + name : name; }
};

const IntType kTypes[] = {{"char", 8, true},   {"uchar", 8, false}, {"short", 16, true}, {"ushort", 16, false},
                          {"int", 32, true},   {"uint", 32, false}, {"long", 64, true},  {"ulong", 64, false}};

const IntType& unsigned_of(const IntType& t) {
  for (const IntType& u : kTypes)
    if (u.bits == t.bits && !u.is_signed) return u;
  return t;
}
const IntType* wider_of(const IntType& t) {
  for (const IntType& w : kTypes)
    if (w.bits == 2 * t.bits && w.is_signed == t.is_signed) return &w;
  return nullptr;
}

i128 clz(const IntType& t, i128 x) {
  const uint64_t u = uint64_t(unsigned_of(t).wrap(x));
  return u == 0 ? t.bits : std::countl_zero(u) - (64 - t.bits);
}
i128 ctz(const IntType& t, i128 x) {
  const uint64_t u = uint64_t(unsigned_of(t).wrap(x));
  return u == 0 ? t.bits : std::countr_zero(u);
}
i128 floor_shift(i128 v, int n) { return v >= 0 ? v >> n : -((-v + (i128(1) << n) - 1) >> n); }

// The high half of x * y; ulong's product needs 128 unsigned bits.
i128 mul_hi(const IntType& t, i128 x, i128 y) {
  if (!t.is_signed) return i128((unsigned __int128)x * (unsigned __int128)y >> t.bits);
  return floor_shift(x * y, t.bits);
}

struct IntFunction {
  std::string name;
  int arity;
  // The result's type (the argument type unless said otherwise).
  std::function<const IntType*(const IntType&)> result_type = [](const IntType& t) { return &t; };
  std::function<i128(const IntType&, i128, i128, i128)> reference;
  std::function<bool(const IntType&)> applies = [](const IntType&) { return true; };
  std::function<void(const IntType&, i128&, i128&, i128&)> adapt;
  std::string args;  // the call's arguments, default x, y, z by arity
  std::function<i128(const IntType&, i128, i128, i128)> vector_reference;  // where a 4-vector's differs
  bool scalar_only = false;                                                 // any, all: a vector gives one int
};

std::vector<IntFunction> int_functions() {
  std::vector<IntFunction> f;
  auto unsigned_result = [](const IntType& t) { return &unsigned_of(t); };
  auto sat = [](const IntType& t, i128 v) { return std::min(std::max(v, t.min()), t.max()); };
  f.push_back({"abs", 1, unsigned_result, [](const IntType& t, i128 x, i128, i128) { return unsigned_of(t).wrap(x < 0 ? -x : x); }});
  f.push_back({"abs_diff", 2, unsigned_result,
               [](const IntType& t, i128 x, i128 y, i128) { return unsigned_of(t).wrap(x > y ? x - y : y - x); }});
  f.push_back({"add_sat", 2, {}, [sat](const IntType& t, i128 x, i128 y, i128) { return sat(t, x + y); }});
  f.push_back({"sub_sat", 2, {}, [sat](const IntType& t, i128 x, i128 y, i128) { return sat(t, x - y); }});
  f.push_back({"hadd", 2, {}, [](const IntType&, i128 x, i128 y, i128) { return floor_shift(x + y, 1); }});
  f.push_back({"rhadd", 2, {}, [](const IntType&, i128 x, i128 y, i128) { return floor_shift(x + y + 1, 1); }});
  f.push_back({"max", 2, {}, [](const IntType&, i128 x, i128 y, i128) { return std::max(x, y); }});
  f.push_back({"min", 2, {}, [](const IntType&, i128 x, i128 y, i128) { return std::min(x, y); }});
  IntFunction clamp{"clamp", 3, {}, [](const IntType&, i128 x, i128 lo, i128 hi) { return std::min(std::max(x, lo), hi); }};
  clamp.adapt = [](const IntType&, i128&, i128& lo, i128& hi) {
    if (lo > hi) std::swap(lo, hi);
  };
  f.push_back(clamp);
  f.push_back({"clz", 1, {}, [](const IntType& t, i128 x, i128, i128) { return clz(t, x); }});
  f.push_back({"ctz", 1, {}, [](const IntType& t, i128 x, i128, i128) { return ctz(t, x); }});
  f.push_back({"popcount", 1, {}, [](const IntType& t, i128 x, i128, i128) {
                 return i128(std::popcount(uint64_t(unsigned_of(t).wrap(x))));
               }});
  f.push_back({"mul_hi", 2, {}, [](const IntType& t, i128 x, i128 y, i128) { return mul_hi(t, x, y); }});
  f.push_back({"mad_hi", 3, {}, [](const IntType& t, i128 x, i128 y, i128 z) { return t.wrap(mul_hi(t, x, y) + z); }});
  f.push_back({"mad_sat", 3, {}, [sat](const IntType& t, i128 x, i128 y, i128 z) -> i128 {
                 if (t.is_signed) return sat(t, x * y + z);  // |x * y| <= 2^126
                 const unsigned __int128 sum = (unsigned __int128)x * (unsigned __int128)y + (unsigned __int128)z;
                 return sum > (unsigned __int128)t.max() ? t.max() : i128(sum);
               }});
  f.push_back({"rotate", 2, {}, [](const IntType& t, i128 x, i128 y, i128) {
                 const uint64_t u = uint64_t(unsigned_of(t).wrap(x));
                 const int n = int(uint64_t(unsigned_of(t).wrap(y)) % t.bits);
                 const uint64_t mask = t.bits == 64 ? ~0ull : (1ull << t.bits) - 1;
                 const uint64_t r = n == 0 ? u : ((u << n) | (u >> (t.bits - n))) & mask;
                 return t.wrap(r);
               }});
  IntFunction upsample{"upsample", 2, [](const IntType& t) { return wider_of(t); },
                       [](const IntType& t, i128 hi, i128 lo, i128) {
                         return wider_of(t)->wrap((hi << t.bits) | unsigned_of(t).wrap(lo));
                       }};
  upsample.applies = [](const IntType& t) { return t.bits < 64; };
  upsample.args = "x, as_U(y)";
  f.push_back(upsample);
  auto in_24_bits = [](const IntType& t, i128& x, i128& y, i128& z) {
    auto fit = [&](i128& v) { v = t.is_signed ? (v % (i128(1) << 23)) : (v % (i128(1) << 24)); };
    fit(x);
    fit(y);
    (void)z;
  };
  IntFunction mul24{"mul24", 2, {}, [](const IntType& t, i128 x, i128 y, i128) { return t.wrap(x * y); }};
  IntFunction mad24{"mad24", 3, {}, [](const IntType& t, i128 x, i128 y, i128 z) { return t.wrap(x * y + z); }};
  mul24.applies = mad24.applies = [](const IntType& t) { return t.bits == 32; };
  mul24.adapt = mad24.adapt = in_24_bits;
  f.push_back(mul24);
  f.push_back(mad24);
  // Relational functions on integers.
  auto msb = [](const IntType& t, i128 v) { return (uint64_t(unsigned_of(t).wrap(v)) >> (t.bits - 1)) != 0; };
  f.push_back({"bitselect", 3, {}, [](const IntType& t, i128 x, i128 y, i128 z) {
                 const IntType& u = unsigned_of(t);
                 return t.wrap((u.wrap(x) & ~u.wrap(z)) | (u.wrap(y) & u.wrap(z)));
               }});
  IntFunction select{"select", 3, {}, [](const IntType&, i128 x, i128 y, i128 z) { return z != 0 ? y : x; }};
  select.vector_reference = [msb](const IntType& t, i128 x, i128 y, i128 z) { return msb(t, z) ? y : x; };
  f.push_back(select);
  auto int_result = [](const IntType&) { return &kTypes[4]; };
  for (const char* name : {"any", "all"}) {
    IntFunction fn{name, 1, int_result, [msb](const IntType& t, i128 x, i128, i128) { return i128(msb(t, x)); }};
    fn.applies = [](const IntType& t) { return t.is_signed; };
    fn.scalar_only = true;
    f.push_back(fn);
  }
  return f;
}

std::vector<i128> edge_values(const IntType& t) {
  std::vector<i128> v = {0, 1, 2, 3, t.max(), t.max() - 1, t.max() / 2, t.max() / 2 + 1, t.min(), t.min() + 1,
                         t.min() / 2, t.wrap(0x5555555555555555ll), t.wrap(0x2AAAAAAAAAAAAAAAll), 0x7f, 0x80};
  if (t.is_signed) v.insert(v.end(), {-1, -2, -3, -0x80});
  for (int b = 4; b < t.bits - 1; b += 5) v.insert(v.end(), {i128(1) << b, (i128(1) << b) - 1});
  for (i128& x : v) x = t.wrap(x);
  return v;
}

std::string literal(const IntType& t, i128 v) {
  std::ostringstream s;
  if (v < 0) s << "-" << uint64_t(-v);
  else s << uint64_t(v);
  return s.str() + " (" + t.name + ")";
}

std::string vector_name(const IntType& t, int width) {
  return width == 1 ? t.name : std::string(t.name) + std::to_string(width);
}

// Where each type's operands and results live in the kernel's two byte
// buffers: `count` elements of every type, 64-byte aligned regions.
struct Layout {
  size_t count = 0;
  size_t in_bytes = 0, out_bytes = 0;
  size_t a[8], b[8], c[8], out[8];  // byte offsets, per type (kTypes order)
};

Layout layout_for(const IntFunction& f, size_t count) {
  Layout l;
  l.count = count;
  auto align = [](size_t x) { return (x + 63) / 64 * 64; };
  for (size_t t = 0; t < 8; ++t) {
    const IntType& type = kTypes[t];
    const size_t bytes = align(count * type.bits / 8);
    l.a[t] = l.in_bytes;
    l.b[t] = l.a[t] + bytes;
    l.c[t] = l.b[t] + bytes;
    l.in_bytes = l.c[t] + bytes;
    const IntType& r = f.result_type && f.applies(type) ? *f.result_type(type) : type;
    l.out[t] = l.out_bytes;
    l.out_bytes += align(count * r.bits / 8) * 2;  // scalar results, then the 4-vector kernel's
  }
  return l;
}

// One kernel per function: work-item n computes element n of every type as
// a scalar and, for n < count / 4, 4-vector n of every type.
std::string source_for(const IntFunction& f, const Layout& l) {
  std::ostringstream s;
  s << "__kernel void test(__global const uchar* in, __global uchar* out) {\n"
    << "  const size_t n = get_global_id(0);\n";
  for (size_t t = 0; t < 8; ++t) {
    const IntType& type = kTypes[t];
    if (!f.applies(type)) continue;
    const IntType& r = f.result_type ? *f.result_type(type) : type;
    for (int width : {1, 4}) {
      if (width == 4 && f.scalar_only) continue;
      const std::string v = vector_name(type, width), rv = vector_name(r, width);
      std::string args = f.args.empty() ? (f.arity == 1 ? "x" : f.arity == 2 ? "x, y" : "x, y, z") : f.args;
      for (size_t p; (p = args.find("as_U")) != std::string::npos;)
        args.replace(p, 4, "as_" + vector_name(unsigned_of(type), width));
      const size_t out = l.out[t] + (width == 4 ? l.count * r.bits / 8 : 0);
      s << "  " << (width == 4 ? "if (n < " + std::to_string(l.count / 4) + ") " : "") << "{\n"
        << "    const " << v << " x = ((__global const " << v << "*)(in + " << l.a[t] << "))[n];\n"
        << "    const " << v << " y = ((__global const " << v << "*)(in + " << l.b[t] << "))[n];\n"
        << "    const " << v << " z = ((__global const " << v << "*)(in + " << l.c[t] << "))[n];\n"
        << "    ((__global " << rv << "*)(out + " << out << "))[n] = " << f.name << "(" << args << ");\n"
        << "  }\n";
    }
  }
  s << "}\n";
  return s.str();
}

void store(std::vector<std::byte>& bytes, size_t offset, const IntType& t, const std::vector<i128>& values) {
  for (size_t n = 0; n < values.size(); ++n) {
    const uint64_t v = uint64_t(values[n]);
    std::memcpy(bytes.data() + offset + n * t.bits / 8, &v, t.bits / 8);  // little-endian
  }
}

i128 load(const std::vector<std::byte>& bytes, size_t offset, const IntType& t, size_t n) {
  uint64_t v = 0;
  std::memcpy(&v, bytes.data() + offset + n * t.bits / 8, t.bits / 8);
  return t.wrap(i128(v));
}

TEST(IntegerBuiltins, AllTypes) {
  std::mt19937_64 rng(42);
  size_t checked = 0;
  for (const IntFunction& f : int_functions()) {
    // The operands per type: edge values in all combinations, then random ones.
    std::vector<i128> a[8], b[8], c[8];
    size_t count = 0;
    for (size_t t = 0; t < 8; ++t) {
      const IntType& type = kTypes[t];
      if (!f.applies(type)) continue;
      const std::vector<i128> edges = edge_values(type);
      auto add = [&](i128 x, i128 y, i128 z) {
        if (f.adapt) f.adapt(type, x, y, z);
        a[t].push_back(type.wrap(x));
        b[t].push_back(type.wrap(y));
        c[t].push_back(type.wrap(z));
      };
      for (i128 x : edges)
        for (i128 y : f.arity > 1 ? edges : std::vector<i128>{0})
          for (i128 z : f.arity > 2 ? std::vector<i128>{0, -1, type.max(), type.min()} : std::vector<i128>{0})
            add(x, y, z);
      for (int i = 0; i < 600; ++i) add(i128(int64_t(rng())), i128(int64_t(rng())), i128(int64_t(rng())));
      count = std::max(count, a[t].size());
    }
    count = (count + 3) / 4 * 4;
    const Layout l = layout_for(f, count);
    std::vector<std::byte> in(l.in_bytes);
    for (size_t t = 0; t < 8; ++t) {
      const IntType& type = kTypes[t];
      if (!f.applies(type)) continue;
      for (auto* v : {&a[t], &b[t], &c[t]}) v->resize(count, 0);
      store(in, l.a[t], type, a[t]);
      store(in, l.b[t], type, b[t]);
      store(in, l.c[t], type, c[t]);
    }
    Program program = build_program(test::device(), source_for(f, l), f.name + ".cl",
                                    cl30());
    Kernel k = program.kernel("test");
    Buffer in_buffer(test::device(), l.in_bytes), out_buffer(test::device(), l.out_bytes);
    in_buffer.write(std::span<const std::byte>(in));
    k.set_arg("in", in_buffer);
    k.set_arg("out", out_buffer);
    test::device().run(k, NDRange::make({count}));
    std::vector<std::byte> out(l.out_bytes);
    out_buffer.read(std::span<std::byte>(out));

    for (size_t t = 0; t < 8; ++t) {
      const IntType& type = kTypes[t];
      if (!f.applies(type)) continue;
      const IntType& r = f.result_type ? *f.result_type(type) : type;
      for (int width : {1, 4}) {
        if (width == 4 && f.scalar_only) continue;
        const size_t base = l.out[t] + (width == 4 ? count * r.bits / 8 : 0);
        size_t failures = 0;
        std::string examples;
        for (size_t n = 0; n < count; ++n) {
          const i128 got = load(out, base, r, n);
          const auto& reference = width > 1 && f.vector_reference ? f.vector_reference : f.reference;
          const i128 expected = r.wrap(reference(type, a[t][n], b[t][n], c[t][n]));
          ++checked;
          if (got == expected) continue;
          if (++failures <= 5) {
            examples += "\n  " + f.name + "(" + literal(type, a[t][n]);
            if (f.arity > 1) examples += ", " + literal(type, b[t][n]);
            if (f.arity > 2) examples += ", " + literal(type, c[t][n]);
            examples += ") = " + literal(r, got) + ", expected " + literal(r, expected);
          }
        }
        if (failures)
          ADD_FAILURE() << f.name << " on " << vector_name(type, width) << ": " << failures << " of " << count
                        << " results wrong, e.g." << examples;
      }
    }
  }
  std::printf("integer builtins: %zu results checked exactly\n", checked);
}

}  // namespace
}  // namespace vkcl

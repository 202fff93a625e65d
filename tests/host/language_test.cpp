// The OpenCL C language features of issue 4 that the lowering had refused,
// run on the device and checked against references computed here: __local
// and __private pointers chosen at run time (ping-pong buffers), program-
// scope __constant arrays and private arrays with constant initializers,
// structs and unions passed by value and held in global buffers with
// OpenCL's layout, 8- and 16-component vectors, async work-group copies, and
// the sub-group collective functions. Each program is built from source in
// process, as a user would (build_program).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <numeric>
#include <random>
#include <span>
#include <string>

#include "test_device.h"
#include "vkcl/source_program.h"

namespace vkcl {
namespace {

Program& program(const char* source, OpenCLStd std = OpenCLStd::CL2_0) {
  // The device first: statics are destroyed in reverse order, and these
  // programs must go before it and before the driver's exit handlers.
  test::device();
  static std::map<const char*, Program> programs;
  if (auto it = programs.find(source); it != programs.end()) return it->second;
  CompileOptions options;
  options.cl_std = std;
  return programs.emplace(source, build_program(test::device(), source, "language.cl", options)).first->second;
}

template <typename T>
Buffer buffer_of(const std::vector<T>& values) {
  Buffer buffer(test::device(), values.size() * sizeof(T));
  buffer.write(values);
  return buffer;
}

template <typename T>
std::vector<T> iota_values(size_t n, T first = T(0)) {
  std::vector<T> values(n);
  std::iota(values.begin(), values.end(), first);
  return values;
}

void run(const Kernel& kernel, uint64_t global, uint64_t local) {
  test::device().run(kernel, NDRange::make({global}, {local}));
}

// ---------------------------------------------------------------------------
// Pointers to __local and __private memory chosen at run time

constexpr const char* kPointerSource = R"CL(
// Hillis-Steele inclusive scan of each work-group's values: ping-pong between
// two kernel-scope __local arrays, swapped after every step.
__kernel void scan_kernel_scope(__global const int* in, __global int* out) {
  __local int a[128], b[128];
  const int l = get_local_id(0), n = get_local_size(0);
  a[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  __local int *src = a, *dst = b;
  for (int offset = 1; offset < n; offset *= 2) {
    dst[l] = l >= offset ? src[l] + src[l - offset] : src[l];
    barrier(CLK_LOCAL_MEM_FENCE);
    __local int* t = src;
    src = dst;
    dst = t;
  }
  out[get_global_id(0)] = src[l];
}

// The same with __local pointer arguments of different sizes, and a
// kernel-scope array as a third buffer in the rotation.
__kernel void scan_arguments(__global const int* in, __global int* out, __local int* x, __local int* y) {
  __local int z[128];
  const int l = get_local_id(0), n = get_local_size(0);
  x[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  __local int *src = x, *dst = y, *spare = z;
  for (int offset = 1; offset < n; offset *= 2) {
    dst[l] = l >= offset ? src[l] + src[l - offset] : src[l];
    barrier(CLK_LOCAL_MEM_FENCE);
    __local int* t = src;
    src = dst;
    dst = spare;
    spare = t;
  }
  out[get_global_id(0)] = src[l];
}

// Private arrays chosen by a select and by branches, indexed at run time.
__kernel void private_choice(__global const int* in, __global int* out) {
  const int g = get_global_id(0);
  int even[8], odd[8];
  for (int i = 0; i < 8; ++i) {
    even[i] = in[g] * i;
    odd[i] = in[g] + i;
  }
  int* p = (g & 1) ? odd : even;
  int* q;
  if (in[g] > 50) q = even + 2;
  else q = odd + 1;
  const int k = in[g] & 3;
  p[k] += 1000;
  out[g] = p[k] + q[k] + p[(k + 5) & 7];
}
)CL";

std::vector<int32_t> scan_reference(const std::vector<int32_t>& in, uint32_t local) {
  std::vector<int32_t> out(in.size());
  for (size_t i = 0; i < in.size(); ++i) out[i] = (i % local == 0 ? 0 : out[i - 1]) + in[i];
  return out;
}

TEST(Language, PingPongLocalBuffersScan) {
  constexpr uint32_t local = 128, groups = 6, n = local * groups;
  std::vector<int32_t> in(n);
  std::mt19937 rng(5);
  for (int32_t& v : in) v = int32_t(rng() % 1000) - 500;
  const std::vector<int32_t> want = scan_reference(in, local);
  Buffer input = buffer_of(in);
  {
    Buffer output(test::device(), n * 4);
    Kernel k = program(kPointerSource).kernel("scan_kernel_scope");
    k.set_arg("in", input);
    k.set_arg("out", output);
    run(k, n, local);
    EXPECT_EQ(output.read<int32_t>(n), want);
  }
  {
    Buffer output(test::device(), n * 4);
    Kernel k = program(kPointerSource).kernel("scan_arguments");
    k.set_arg("in", input);
    k.set_arg("out", output);
    k.set_local_arg("x", local * 4);
    k.set_local_arg("y", local * 4 * 2);  // a different size: the offsets are specialization constants
    run(k, n, local);
    EXPECT_EQ(output.read<int32_t>(n), want);
  }
}

TEST(Language, PrivateArraysChosenAtRunTime) {
  constexpr uint32_t n = 256;
  std::vector<int32_t> in(n);
  for (uint32_t i = 0; i < n; ++i) in[i] = int32_t((i * 37) % 101);
  Buffer input = buffer_of(in), output(test::device(), n * 4);
  Kernel k = program(kPointerSource).kernel("private_choice");
  k.set_arg("in", input);
  k.set_arg("out", output);
  run(k, n, 64);
  std::vector<int32_t> want(n);
  for (uint32_t g = 0; g < n; ++g) {
    int32_t even[8], odd[8];
    for (int i = 0; i < 8; ++i) {
      even[i] = in[g] * i;
      odd[i] = in[g] + i;
    }
    int32_t* p = (g & 1) ? odd : even;
    int32_t* q = in[g] > 50 ? even + 2 : odd + 1;
    const int k = in[g] & 3;
    p[k] += 1000;
    want[g] = p[k] + q[k] + p[(k + 5) & 7];
  }
  EXPECT_EQ(output.read<int32_t>(n), want);
}

// Vector arrays in __local and __private memory read and written as their
// components through cast pointers, at unaligned offsets (the CTS's
// vload_local, vload_private and vstore_private): LLVM makes of these a
// cast, a component index past a vector's end, and a vector load from
// element pointers; retype_punned_accesses gives each access its component.
constexpr const char* kComponentViewSource = R"CL(
kernel void vload_local(local uchar2* shared, global const uchar2* src, global const uint* offsets,
                        global const uint* shifts, global uchar2* out) {
  const int tid = get_global_id(0);
  if (get_local_id(0) == 0)
    for (int i = 0; i < 64; i++) shared[i] = src[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[tid] = vload2(offsets[tid], ((local uchar*)shared) + shifts[tid]);
}
kernel void vstore_private(global const int4* src, global const uint* offsets, global int* out, uint shift) {
  int4 storage[8];
  const int tid = get_global_id(0);
  for (int i = 0; i < 8; i++) storage[i] = (int4)(-1);
  vstore4(src[tid], offsets[tid], ((private int*)storage) + shift);
  const private int* p = ((private int*)storage) + 4 * offsets[tid] + shift;
  for (int i = 0; i < 4; i++) out[4 * tid + i] = p[i];
}
)CL";

TEST(Language, VectorArraysReadAndWrittenAsTheirComponents) {
  Program& p = program(kComponentViewSource, OpenCLStd::CL3_0);
  {
    constexpr uint32_t n = 32;
    std::vector<uint8_t> bytes(128);
    for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = uint8_t(i * 7 + 3);
    std::vector<uint32_t> offsets(n), shifts(n);
    for (uint32_t t = 0; t < n; ++t) offsets[t] = (t * 5) % 60, shifts[t] = t % 3;
    Buffer src = buffer_of(bytes), off = buffer_of(offsets), sh = buffer_of(shifts), out(test::device(), n * 2);
    Kernel k = p.kernel("vload_local");
    k.set_local_arg("shared", 128);
    k.set_arg("src", src);
    k.set_arg("offsets", off);
    k.set_arg("shifts", sh);
    k.set_arg("out", out);
    run(k, n, n);
    std::vector<uint8_t> want(n * 2);
    for (uint32_t t = 0; t < n; ++t)
      for (int c = 0; c < 2; ++c) want[2 * t + c] = bytes[2 * offsets[t] + shifts[t] + c];
    EXPECT_EQ(out.read<uint8_t>(n * 2), want);
  }
  for (uint32_t shift : {0u, 1u, 3u}) {
    constexpr uint32_t n = 16;
    std::vector<int32_t> src(4 * n);
    for (size_t i = 0; i < src.size(); ++i) src[i] = int32_t(i * 11 + 1);
    std::vector<uint32_t> offsets(n);
    for (uint32_t t = 0; t < n; ++t) offsets[t] = t % 7;
    Buffer in = buffer_of(src), off = buffer_of(offsets), out(test::device(), n * 16);
    Kernel k = p.kernel("vstore_private");
    k.set_arg("src", in);
    k.set_arg("offsets", off);
    k.set_arg("out", out);
    k.set_arg("shift", shift);
    run(k, n, 16);
    EXPECT_EQ(out.read<int32_t>(4 * n), src) << "shift " << shift;
  }
}

// Arrays of arrays walked through a pointer to an element, past its row, as
// C allows (tools/clc/flatten_stepped_arrays.h): in __private, __local and
// __constant memory, of scalars, vectors and structs, with pointers stepped
// in loops, compared, chosen and stepped back. Before the flattening, LLVM
// folded `&a[0][0] + k` into a[0][k], and `p[5]` read 3 for 5.
constexpr const char* kSteppedArraySource = R"CL(
__constant int table[3][4] = {{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, 11}};
typedef struct { int x; float y; } pair;

__kernel void private_rows(__global int* out, int k) {
  int a[4][4];
  for (int i = 0; i < 4; i++) for (int j = 0; j < 4; j++) a[i][j] = i * 4 + j;
  int* p = &a[0][0];
  out[get_global_id(0)] = p[k + get_global_id(0)];
}

__kernel void local_rows(__global int* out, int k) {
  __local int a[4][4];
  const int l = get_local_id(0);
  for (int j = 0; j < 4; j++) a[l][j] = l * 4 + j;
  barrier(CLK_LOCAL_MEM_FENCE);
  __local int* p = &a[0][0];
  out[get_global_id(0)] = p[k + l] + a[l][3 - l] * 100;
}

__kernel void walked(__global int* out, int k) {
  int a[3][5];
  int* p = &a[0][0];
  for (int* q = p; q < p + 15; q++) *q = (int)(q - p) * 2;
  int sum = 0;
  int* end = &a[2][4];
  for (int* q = &a[1][3]; q <= end; q++) sum += *q;
  int* r = &a[2][0];
  out[get_global_id(0)] = sum * 1000 + r[k - 7 + (int)get_global_id(0)];
}

__kernel void vectors(__global int* out, int k) {
  int4 v[2][2];
  for (int i = 0; i < 2; i++) for (int j = 0; j < 2; j++) v[i][j] = (int4)(i, j, 10 * i + j, 7);
  int4* p = &v[0][0];
  const int g = get_global_id(0);
  out[g] = p[k + g].z * 10 + v[g & 1][1].y;
}

__kernel void structs(__global int* out, int k) {
  pair s[2][3];
  for (int i = 0; i < 2; i++) for (int j = 0; j < 3; j++) { s[i][j].x = i * 3 + j; s[i][j].y = 0.5f * (i * 3 + j); }
  pair* p = &s[0][0];
  const int g = get_global_id(0);
  out[g] = (int)(p[k + g].y * 2.0f) * 10 + s[1][g % 3].x;
}

__kernel void constants(__global int* out, int k) {
  __constant int* p = &table[0][0];
  const int g = get_global_id(0);
  out[g] = p[k + g] * 100 + table[g % 3][1];
}

__kernel void chosen(__global int* out, int k) {
  int a[2][4];
  for (int i = 0; i < 8; i++) a[i / 4][i % 4] = i + 1;
  const int g = get_global_id(0);
  int* p = (g & 1) ? &a[1][0] : &a[0][2];
  out[g] = p[k] + (p == &a[1][0] ? 100 : 0);
}

// Arrays of arrays in structs: a struct's, and each of an array of structs'.
typedef struct { int n; int m[4][4]; } matrix;
__kernel void struct_member(__global int* out, int k) {
  matrix s;
  s.n = 7;
  for (int i = 0; i < 4; i++) for (int j = 0; j < 4; j++) s.m[i][j] = i * 4 + j;
  int* p = &s.m[0][0];
  out[get_global_id(0)] = p[k + get_global_id(0)] + s.n * 100;
}

typedef struct { float w; int m[2][2]; } cell;
__kernel void struct_array_members(__global int* out, int k) {
  __local cell c[2];
  const int l = get_local_id(0);
  if (l < 2) {
    c[l].w = l;
    for (int i = 0; i < 4; i++) c[l].m[i / 2][i % 2] = l * 10 + i;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  __local int* p = &c[1].m[0][0];
  out[get_global_id(0)] = p[k + (l & 1)] + (int)c[1].w * 100;
}

// A row of a flattened array is an int array like x, so the choice between
// them is one the lowering takes (before, `different types`).
__kernel void chosen_with_a_row(__global int* out, int k) {
  __local int x[4];
  __local int y[2][2];
  const int l = get_local_id(0);
  x[l & 3] = 10 + l;
  y[(l >> 1) & 1][l & 1] = 20 + l;
  barrier(CLK_LOCAL_MEM_FENCE);
  __local int* p = k ? x : &y[1][0];
  out[get_global_id(0)] = p[l & 1] + (k ? 0 : p[(l & 1) - 2] * 100);
}
)CL";

TEST(Language, ArraysOfArraysWalkedThroughAnElementPointer) {
  Program& p = program(kSteppedArraySource, OpenCLStd::CL3_0);
  constexpr uint32_t n = 4;
  struct Case {
    const char* kernel;
    int32_t k;
    std::vector<int32_t> want;
  };
  // Each `want` worked out by hand from the kernel, element offsets in the
  // whole array (a[i][j] at i * columns + j).
  const Case cases[] = {
      {"private_rows", 5, {5, 6, 7, 8}},
      {"private_rows", 0, {0, 1, 2, 3}},
      {"private_rows", 12, {12, 13, 14, 15}},
      // p[5 + l] = 5 + l; a[l][3 - l] = 3l + 3.
      {"local_rows", 5, {305, 606, 907, 1208}},
      // a[1][3]..a[2][4] are offsets 8..14, each twice its offset: 154;
      // r[k - 7 + g] from a[2][0] (offset 10) with k = 5 is offset 8 + g.
      {"walked", 5, {154016, 154018, 154020, 154022}},
      // p[g].z is 0, 1, 10, 11 and v[g & 1][1].y is 1.
      {"vectors", 0, {1, 11, 101, 111}},
      // p[1 + g].y * 2 = 1 + g; s[1][g % 3].x = 3 + g % 3.
      {"structs", 1, {13, 24, 35, 43}},
      // p[5 + g] = 5 + g; table[g % 3][1] = 1, 5, 9, 1.
      {"constants", 5, {501, 605, 709, 801}},
      // p[1] is a[0][3] = 4 for even g, a[1][1] = 6 (+100) for odd.
      {"chosen", 1, {4, 106, 4, 106}},
      // From y's second row: y[1][l & 1] = 22 + (l & 1), and two back
      // y[0][l & 1] = 20 + (l & 1); from x: x[l & 1].
      {"chosen_with_a_row", 0, {2022, 2123, 2022, 2123}},
      {"chosen_with_a_row", 1, {10, 11, 10, 11}},
      // p[5 + g] = 5 + g, and s.n = 7.
      {"struct_member", 5, {705, 706, 707, 708}},
      // c[1].m's offsets 2 and 3 hold 12 and 13; c[1].w = 1.
      {"struct_array_members", 2, {112, 113, 112, 113}},
  };
  for (const Case& c : cases) {
    Buffer out(test::device(), n * sizeof(int32_t));
    Kernel kernel = p.kernel(c.kernel);
    kernel.set_arg("out", out);
    kernel.set_arg("k", c.k);
    run(kernel, n, n);
    EXPECT_EQ(out.read<int32_t>(n), c.want) << c.kernel << " k=" << c.k;
  }
}

// Harder choices: a __local argument and a kernel-scope array with pointer
// arithmetic on the choice, arrays of structs chosen whole, __local scalars.
constexpr const char* kPointerEdgeSource = R"CL(
__kernel void arithmetic_on_choice(__global int* out, __local int* la, int n) {
  __local int kb[32];
  const int l = get_local_id(0);
  la[l] = l;
  kb[l] = 100 + l;
  barrier(CLK_LOCAL_MEM_FENCE);
  __local int* p = la;
  int sum = 0;
  for (int s = 0; s < n; ++s) {
    sum += p[l & 7];
    p = (s & 1) ? la + 1 : kb + 2;
  }
  out[get_global_id(0)] = sum + p[3];
}

typedef struct { int x; int y[4]; } P;
__kernel void struct_arrays(__global int* out, __global const int* in) {
  const int g = get_global_id(0), c = in[g], i = in[g + 64];
  P a[4], b[4];
  for (int q = 0; q < 4; ++q) {
    a[q].x = q;
    b[q].x = -q;
    for (int r = 0; r < 4; ++r) {
      a[q].y[r] = q * r + c;
      b[q].y[r] = q + r;
    }
  }
  P* p = c ? &a[i & 3] : &b[(i + 1) & 3];
  int* y = c > 5 ? &p->y[1] : &p->y[2];
  out[g] = p->x + y[i & 1];
}

__kernel void local_scalars(__global int* out, int c) {
  __local int x, y;
  if (get_local_id(0) == 0) {
    x = 11;
    y = 22;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  __local int* p = (get_local_id(0) & c) ? &x : &y;
  out[get_global_id(0)] = *p;
}
)CL";

TEST(Language, PointerChoicesWithArithmeticStructsAndScalars) {
  {
    constexpr uint32_t local = 32, n_steps = 5;
    Buffer out(test::device(), local * 4);
    Kernel k = program(kPointerEdgeSource).kernel("arithmetic_on_choice");
    k.set_arg("out", out);
    k.set_local_arg("la", local * 4);
    k.set_arg("n", int32_t(n_steps));
    run(k, local, local);
    std::vector<int32_t> got = out.read<int32_t>(local);
    for (int32_t l = 0; l < int32_t(local); ++l) {
      std::vector<int32_t> la(local), kb(local);
      for (int32_t j = 0; j < int32_t(local); ++j) {
        la[j] = j;
        kb[j] = 100 + j;
      }
      const int32_t* p = la.data();
      int32_t sum = 0;
      for (uint32_t s = 0; s < n_steps; ++s) {
        sum += p[l & 7];
        p = (s & 1) ? la.data() + 1 : kb.data() + 2;
      }
      EXPECT_EQ(got[l], sum + p[3]) << l;
    }
  }
  {
    constexpr uint32_t n = 64;
    std::vector<int32_t> in(n * 2);
    for (uint32_t g = 0; g < n; ++g) {
      in[g] = int32_t(g % 9);
      in[g + n] = int32_t(g * 5);
    }
    Buffer input = buffer_of(in), out(test::device(), n * 4);
    Kernel k = program(kPointerEdgeSource).kernel("struct_arrays");
    k.set_arg("out", out);
    k.set_arg("in", input);
    run(k, n, 16);
    std::vector<int32_t> got = out.read<int32_t>(n);
    for (uint32_t g = 0; g < n; ++g) {
      const int32_t c = in[g], i = in[g + n];
      struct Q {
        int32_t x, y[4];
      } a[4], b[4];
      for (int q = 0; q < 4; ++q) {
        a[q].x = q;
        b[q].x = -q;
        for (int r = 0; r < 4; ++r) {
          a[q].y[r] = q * r + c;
          b[q].y[r] = q + r;
        }
      }
      Q* p = c ? &a[i & 3] : &b[(i + 1) & 3];
      int32_t* y = c > 5 ? &p->y[1] : &p->y[2];
      EXPECT_EQ(got[g], p->x + y[i & 1]) << g;
    }
  }
  {
    Buffer out(test::device(), 64 * 4);
    Kernel k = program(kPointerEdgeSource).kernel("local_scalars");
    k.set_arg("out", out);
    k.set_arg("c", int32_t(2));
    run(k, 64, 64);
    std::vector<int32_t> got = out.read<int32_t>(64);
    for (uint32_t l = 0; l < 64; ++l) EXPECT_EQ(got[l], (l & 2) ? 11 : 22) << l;
  }
}

// ---------------------------------------------------------------------------
// Program-scope __constant arrays and initialized private arrays

constexpr const char* kConstantSource = R"CL(
__constant float weights[5] = {0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f};
__constant int primes[8] = {2, 3, 5, 7, 11, 13, 17, 19};
__constant int squares[8] = {0, 1, 4, 9, 16, 25, 36, 49};
typedef struct { int dx; float scale; } Tap;
__constant Tap taps[3] = {{-1, 0.5f}, {0, 2.0f}, {1, 0.5f}};

// A 5-tap convolution; `taps` comes from an argument, so the loop stays a
// loop and weights[] is read at run-time indices.
__kernel void convolve(__global const float* in, __global float* out, int n, int count) {
  const int i = get_global_id(0);
  float sum = 0.0f;
  for (int k = 0; k < count; ++k) {
    const int j = i + k - count / 2;
    sum += weights[k] * in[j < 0 ? 0 : j >= n ? n - 1 : j];
  }
  out[i] = sum;
}

// Private arrays with constant initializers (clang makes __constant copies
// of them): read at run-time indices, one of them modified first.
__kernel void tables(__global const int* index, __global int* out) {
  const int g = get_global_id(0), i = index[g] & 7;
  int table[8] = {3, 1, 4, 1, 5, 9, 2, 6};
  int scratch[8] = {0};
  int counts[6] = {10, 20, 30, 40, 50, 60};
  counts[g % 6] += g;
  scratch[i] = table[7 - i];
  __constant int* chosen = (g & 1) ? primes : squares;
  out[g] = table[i] * 1000 + scratch[i] * 100 + chosen[i] + counts[i % 6] * 10000;
}

__kernel void struct_table(__global const float* in, __global float* out, int n, int count) {
  const int i = get_global_id(0);
  float sum = 0.0f;
  for (int k = 0; k < count; ++k) {
    const int j = i + taps[k].dx;
    sum += taps[k].scale * in[j < 0 ? 0 : j >= n ? n - 1 : j];
  }
  out[i] = sum;
}
)CL";

Program& constant_program(bool optimize) {
  // The device first: statics are destroyed in reverse order, and these
  // programs must go before it and before the driver's exit handlers.
  test::device();
  static std::map<bool, Program> programs;
  if (auto it = programs.find(optimize); it != programs.end()) return it->second;
  CompileOptions options;
  options.optimize = optimize;
  return programs.emplace(optimize, build_program(test::device(), kConstantSource, "constants.cl", options))
      .first->second;
}

class ConstantArrays : public ::testing::TestWithParam<bool> {};

TEST_P(ConstantArrays, ConvolutionReadsProgramScopeWeights) {
  constexpr int32_t n = 300;
  std::vector<float> in(n);
  for (int32_t i = 0; i < n; ++i) in[i] = float((i * 13) % 17) - 8.0f;
  Buffer input = buffer_of(in), output(test::device(), n * 4);
  const float weights[5] = {0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f};
  Kernel k = constant_program(GetParam()).kernel("convolve");
  k.set_arg("in", input);
  k.set_arg("out", output);
  k.set_arg("n", n);
  k.set_arg("count", 5);
  run(k, n, 50);
  std::vector<float> got = output.read<float>(n);
  for (int32_t i = 0; i < n; ++i) {
    float sum = 0.0f;
    for (int32_t t = 0; t < 5; ++t) sum += weights[t] * in[std::clamp(i + t - 2, 0, n - 1)];
    EXPECT_EQ(got[i], sum) << i;
  }
  Kernel s = constant_program(GetParam()).kernel("struct_table");
  s.set_arg("in", input);
  s.set_arg("out", output);
  s.set_arg("n", n);
  s.set_arg("count", 3);
  run(s, n, 50);
  got = output.read<float>(n);
  for (int32_t i = 0; i < n; ++i) {
    const float want = 0.5f * in[std::max(i - 1, 0)] + 2.0f * in[i] + 0.5f * in[std::min(i + 1, n - 1)];
    EXPECT_EQ(got[i], want) << i;
  }
}

TEST_P(ConstantArrays, InitializedPrivateArraysAndChosenTables) {
  constexpr uint32_t n = 240;
  std::vector<int32_t> index(n);
  for (uint32_t i = 0; i < n; ++i) index[i] = int32_t(i * 7 + 3);
  Buffer input = buffer_of(index), output(test::device(), n * 4);
  Kernel k = constant_program(GetParam()).kernel("tables");
  k.set_arg("index", input);
  k.set_arg("out", output);
  run(k, n, 48);
  const int32_t table[8] = {3, 1, 4, 1, 5, 9, 2, 6}, primes[8] = {2, 3, 5, 7, 11, 13, 17, 19},
                squares[8] = {0, 1, 4, 9, 16, 25, 36, 49};
  std::vector<int32_t> want(n);
  for (uint32_t g = 0; g < n; ++g) {
    const int32_t i = index[g] & 7;
    int32_t counts[6] = {10, 20, 30, 40, 50, 60};
    counts[g % 6] += int32_t(g);
    want[g] = table[i] * 1000 + table[7 - i] * 100 + ((g & 1) ? primes : squares)[i] + counts[i % 6] * 10000;
  }
  EXPECT_EQ(output.read<int32_t>(n), want);
}

INSTANTIATE_TEST_SUITE_P(Language, ConstantArrays, ::testing::Bool(),
                         [](const auto& info) { return info.param ? "O2" : "O0"; });

// ---------------------------------------------------------------------------
// Structs and unions: by value, and in global buffers

constexpr const char* kStructSource = R"CL(
typedef struct { float scale; int offset; float2 shift; char tag; } Params;
typedef union { uint4 words; float f[4]; ulong halves[2]; } Bits;
typedef struct { float w[6]; int n; } Weights;

__kernel void apply(__global float* data, Params p) {
  const int i = get_global_id(0);
  data[i] = data[i] * p.scale + p.offset + p.shift.y + p.tag;
}

__kernel void unions(__global uint* out, Bits b) {
  out[0] = as_uint(b.f[2]);
  out[1] = b.words.w;
  out[2] = (uint)(b.halves[0] >> 32);
  out[3] = (uint)b.halves[1];
}

// A run-time index into a by-value struct: a private copy.
__kernel void weighted(__global const float* in, __global float* out, Weights w) {
  const int i = get_global_id(0);
  float sum = 0.0f;
  for (int k = 0; k < w.n; ++k) sum += w.w[k] * in[i + k];
  out[i] = sum;
}

__kernel void narrow(__global int* out, char c, uchar u, short s, ushort us, int x) {
  out[get_global_id(0)] = c * 1000000 + u * 10000 + s * 100 + us + x;
}

// Records in a buffer at OpenCL's layout: read, updated in place, and a
// union in a buffer read through its other member.
typedef struct { int a; char b; float3 c; short d; } Rec;
typedef struct { Rec r; ulong tag; uchar flags[3]; } Outer;
typedef union { float f; uint u; } FloatBits;
__kernel void records(__global Outer* items, __global float* sums, __global const FloatBits* bits,
                      __global uint* raw) {
  const int i = get_global_id(0);
  __global Outer* o = &items[i];
  sums[i] = o->r.a + o->r.b + o->r.c.z + o->r.d + o->flags[2];
  o->r.d = (short)(i * 3);
  o->r.c.x += 1.0f;
  o->tag = (ulong)i << 40;
  raw[i] = bits[i].u;
}
)CL";

struct alignas(8) Params {
  float scale;
  int32_t offset;
  float shift[2];
  int8_t tag;
};
static_assert(sizeof(Params) == 24);

union alignas(16) Bits {
  uint32_t words[4];
  float f[4];
  uint64_t halves[2];
};

struct Weights {
  float w[6];
  int32_t n;
};

// OpenCL's layout of Rec and Outer: float3 is 16 bytes, aligned to 16.
struct alignas(16) Rec {
  int32_t a;
  int8_t b;
  int8_t pad0[11];
  float c[4];
  int16_t d;
  int8_t pad1[14];
};
static_assert(sizeof(Rec) == 48);
struct alignas(16) Outer {
  Rec r;
  uint64_t tag;
  uint8_t flags[3];
  uint8_t pad[5];
};
static_assert(sizeof(Outer) == 64);

TEST(Language, StructsPassedByValue) {
  constexpr uint32_t n = 64;
  std::vector<float> data = iota_values<float>(n);
  Buffer buffer = buffer_of(data);
  Kernel k = program(kStructSource).kernel("apply");
  Params p{2.0f, -3, {0.5f, 0.25f}, 7};
  k.set_arg("data", buffer);
  k.set_arg("p", p);
  run(k, n, 32);
  std::vector<float> got = buffer.read<float>(n);
  for (uint32_t i = 0; i < n; ++i) EXPECT_EQ(got[i], data[i] * 2.0f - 3.0f + 0.25f + 7.0f) << i;

  Buffer out(test::device(), 16);
  Kernel u = program(kStructSource).kernel("unions");
  Bits b{};
  b.words[0] = 0x11111111u;
  b.words[1] = 0x22222222u;
  b.f[2] = 1.5f;
  b.words[3] = 0x44444444u;
  u.set_arg("out", out);
  u.set_arg("b", b);
  run(u, 1, 1);
  EXPECT_EQ(out.read<uint32_t>(4), (std::vector<uint32_t>{0x3FC00000u, 0x44444444u, 0x22222222u, 0x3FC00000u}));

  std::vector<float> in = iota_values<float>(n + 6, 1.0f);
  Buffer input = buffer_of(in), output(test::device(), n * 4);
  Kernel w = program(kStructSource).kernel("weighted");
  Weights weights{{1.0f, -2.0f, 0.5f, 4.0f, 8.0f, 16.0f}, 4};
  w.set_arg("in", input);
  w.set_arg("out", output);
  w.set_arg("w", weights);
  run(w, n, 16);
  got = output.read<float>(n);
  for (uint32_t i = 0; i < n; ++i)
    EXPECT_EQ(got[i], 1.0f * in[i] - 2.0f * in[i + 1] + 0.5f * in[i + 2] + 4.0f * in[i + 3]) << i;
}

TEST(Language, NarrowScalarArguments) {
  Buffer out(test::device(), 4);
  Kernel k = program(kStructSource).kernel("narrow");
  k.set_arg("out", out);
  k.set_arg("c", int8_t(-7));
  k.set_arg("u", uint8_t(200));
  k.set_arg("s", int16_t(-300));
  k.set_arg("us", uint16_t(60000));
  k.set_arg("x", int32_t(5));
  run(k, 1, 1);
  EXPECT_EQ(out.read<int32_t>(1)[0], -7 * 1000000 + 200 * 10000 - 300 * 100 + 60000 + 5);
}

TEST(Language, StructsInGlobalBuffersHaveOpenCLLayout) {
  constexpr uint32_t n = 40;
  std::vector<Outer> items(n);
  std::vector<uint32_t> bits(n);
  for (uint32_t i = 0; i < n; ++i) {
    Outer& o = items[i];
    o = Outer{};
    o.r.a = int32_t(i * 10);
    o.r.b = int8_t(-int32_t(i));
    o.r.c[0] = float(i);
    o.r.c[2] = 0.5f * float(i);
    o.r.d = int16_t(1000 - i);
    o.flags[2] = uint8_t(i + 100);
    float f = 1.0f / float(i + 1);
    std::memcpy(&bits[i], &f, 4);
  }
  Buffer buffer(test::device(), n * sizeof(Outer));
  buffer.write(std::as_bytes(std::span(items)));
  Buffer sums(test::device(), n * 4), bit_buffer = buffer_of(bits), raw(test::device(), n * 4);
  Kernel k = program(kStructSource).kernel("records");
  k.set_arg("items", buffer);
  k.set_arg("sums", sums);
  k.set_arg("bits", bit_buffer);
  k.set_arg("raw", raw);
  run(k, n, 8);
  std::vector<Outer> after(n);
  buffer.read(std::as_writable_bytes(std::span(after)));
  std::vector<float> got = sums.read<float>(n);
  for (uint32_t i = 0; i < n; ++i) {
    const Outer& o = items[i];
    EXPECT_EQ(got[i], float(o.r.a + o.r.b) + o.r.c[2] + float(o.r.d) + float(o.flags[2])) << i;
    EXPECT_EQ(after[i].r.d, int16_t(i * 3)) << i;
    EXPECT_EQ(after[i].r.c[0], float(i) + 1.0f) << i;
    EXPECT_EQ(after[i].r.a, o.r.a) << i;
    EXPECT_EQ(after[i].r.b, o.r.b) << i;
    EXPECT_EQ(after[i].tag, uint64_t(i) << 40) << i;
    EXPECT_EQ(after[i].flags[2], o.flags[2]) << i;
  }
  EXPECT_EQ(raw.read<uint32_t>(n), bits);
}

// ---------------------------------------------------------------------------
// Vectors of 8 and 16 components

constexpr const char* kVectorSource = R"CL(
__kernel void wide(__global const float* in, __global float* out, __global int* iout, float8 bias, uint lane) {
  const int i = get_global_id(0);
  float16 x = vload16(i, in);
  float8 y = x.lo * 2.0f + x.hi;
  const uint16 reverse = (uint16)(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  float16 r = shuffle(x, reverse) + (float16)(y, y) + (float16)(bias, bias);
  const float16 d = r - 100.0f;
  r = select(d, -d, d < 0.0f) + (x * x - 1.0f);
  vstore16(r, i, out);
  int16 n = convert_int16(x);
  int16 m = n * 3 - (n >> 1);
  m = select(m, -m, n > (int16)8);
  int8 s = shuffle2(m.lo, m.hi, (uint8)(0, 9, 2, 27, lane, lane + 8, 6, 15));
  vstore8(s, 0, iout + 9 * i);
  iout[9 * i + 8] = x[lane & 15] > 20.0f ? (int)m[lane & 15] : as_int16(x).s3;
}

// 8-component vectors in __local and __private memory, and char16 arithmetic.
__kernel void local_vectors(__global const uchar* in, __global uchar* out, __global long* lout) {
  __local uchar16 tile[32];
  const int l = get_local_id(0);
  tile[l] = vload16(get_global_id(0), in);
  barrier(CLK_LOCAL_MEM_FENCE);
  uchar16 v = tile[31 - l];
  uchar16 sum = v + (uchar16)(200);
  uchar16 w = select(sum, (uchar16)(255), sum < v) ^ ((v << 3) | (v >> 5));
  vstore16(w, get_global_id(0), out);
  long8 acc[2];
  acc[0] = convert_long8(v.lo) << 32;
  acc[1] = convert_long8(v.hi) * (long8)(-1, 2, -3, 4, -5, 6, -7, 8);
  vstore8(acc[l & 1] + acc[(l + 1) & 1], get_global_id(0), lout);
}
)CL";

constexpr const char* kVectorEdgeSource = R"CL(
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
// A char16 argument, long16 and double8 arithmetic, bitcasts between widths,
// and a private array of float16 indexed at run time.
__kernel void mixed(__global double* out, __global long* lout, char16 c, int i, int j) {
  long16 w = convert_long16(c) * (long16)(1, -2, 3, -4, 5, -6, 7, -8, 9, -10, 11, -12, 13, -14, 15, -16);
  double8 v = convert_double8(w.lo) * 0.5 + convert_double8(w.hi);
  vstore8(v, 0, out);
  char16 b = as_char16(w.s01) + c;
  vstore16(convert_long16(b), 0, lout);
  float16 arr[4];
  for (int q = 0; q < 4; ++q) arr[q] = (float16)(q * 100) + (float16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  arr[j & 3].s3 = -7.0f;
  out[8] = arr[i & 3][j & 15];
  out[9] = arr[j & 3][3];
}
)CL";

TEST(Language, WideVectorArgumentsBitcastsAndPrivateArrays) {
  if (!test::device().features().shader_float64) GTEST_SKIP() << "the device lacks float64";
  std::array<int8_t, 16> c;
  for (int k = 0; k < 16; ++k) c[k] = int8_t(k * 9 - 70);
  Buffer out(test::device(), 10 * 8), lout(test::device(), 16 * 8);
  Kernel k = program(kVectorEdgeSource).kernel("mixed");
  k.set_arg("out", out);
  k.set_arg("lout", lout);
  k.set_arg("c", c);
  k.set_arg("i", int32_t(6));
  k.set_arg("j", int32_t(19));
  run(k, 1, 1);
  std::vector<double> got = out.read<double>(10);
  std::vector<int64_t> lgot = lout.read<int64_t>(16);
  int64_t w[16];
  for (int q = 0; q < 16; ++q) w[q] = int64_t(c[q]) * ((q % 2 == 0) ? (q + 1) : -(q + 1));
  for (int q = 0; q < 8; ++q) EXPECT_EQ(got[q], double(w[q]) * 0.5 + double(w[q + 8])) << q;
  int8_t bytes[16];
  std::memcpy(bytes, w, 16);  // as_char16(w.s01): little-endian bytes of w[0], w[1]
  for (int q = 0; q < 16; ++q) EXPECT_EQ(lgot[q], int64_t(int8_t(bytes[q] + c[q]))) << q;
  // arr[2] is 200 + k, arr[3].s3 is -7: arr[6 & 3][19 & 15] = arr[2][3], arr[3][3].
  EXPECT_EQ(got[8], 203.0);
  EXPECT_EQ(got[9], -7.0);
}

TEST(Language, SixteenComponentFloatVectors) {
  constexpr uint32_t groups = 4, local = 8, n = groups * local;
  constexpr uint32_t lane = 5;
  std::vector<float> in(n * 16);
  for (uint32_t i = 0; i < in.size(); ++i) in[i] = float(int32_t(i * 7 % 61) - 20);
  std::array<float, 8> bias;  // a float8 argument: 32 bytes of lavapipe's 128 of push constants
  for (uint32_t c = 0; c < 8; ++c) bias[c] = float(c) * 0.5f;
  Buffer input = buffer_of(in), output(test::device(), n * 64), iout(test::device(), n * 9 * 4);
  Kernel k = program(kVectorSource).kernel("wide");
  k.set_arg("in", input);
  k.set_arg("out", output);
  k.set_arg("iout", iout);
  k.set_arg("bias", bias);
  k.set_arg("lane", lane);
  run(k, n, local);
  std::vector<float> got = output.read<float>(n * 16);
  std::vector<int32_t> igot = iout.read<int32_t>(n * 9);
  for (uint32_t i = 0; i < n; ++i) {
    const float* x = &in[i * 16];
    float y[8], r[16];
    int32_t m[16];
    for (int c = 0; c < 8; ++c) y[c] = x[c] * 2.0f + x[c + 8];
    for (int c = 0; c < 16; ++c) {
      r[c] = x[15 - c] + y[c % 8] + bias[c % 8];
      r[c] = std::fabs(r[c] - 100.0f) + (x[c] * x[c] - 1.0f);  // exact: small integers
      EXPECT_EQ(got[i * 16 + c], r[c]) << i << "." << c;
      const int32_t nn = int32_t(x[c]);
      m[c] = nn * 3 - (nn >> 1);
      if (nn > 8) m[c] = -m[c];
    }
    // Mask components count modulo 16 (27 is 11): x's 8 components, then y's.
    const int32_t s[8] = {m[0], m[9], m[2], m[11], m[lane], m[lane + 8], m[6], m[15]};
    for (int c = 0; c < 8; ++c) EXPECT_EQ(igot[i * 9 + c], s[c]) << i << "." << c;
    int32_t bits3;
    std::memcpy(&bits3, &x[3], 4);
    EXPECT_EQ(igot[i * 9 + 8], x[lane] > 20.0f ? m[lane] : bits3) << i;
  }
}

TEST(Language, EightAndSixteenComponentVectorsInLocalAndPrivateMemory) {
  constexpr uint32_t local = 32, groups = 3, n = local * groups;
  std::vector<uint8_t> in(n * 16);
  for (uint32_t i = 0; i < in.size(); ++i) in[i] = uint8_t(i * 29 + 7);
  Buffer input = buffer_of(in), output(test::device(), n * 16), lout(test::device(), n * 64);
  Kernel k = program(kVectorSource).kernel("local_vectors");
  k.set_arg("in", input);
  k.set_arg("out", output);
  k.set_arg("lout", lout);
  run(k, n, local);
  std::vector<uint8_t> got = output.read<uint8_t>(n * 16);
  std::vector<int64_t> lgot = lout.read<int64_t>(n * 8);
  const int64_t factors[8] = {-1, 2, -3, 4, -5, 6, -7, 8};
  for (uint32_t g = 0; g < n; ++g) {
    const uint32_t l = g % local, source = g - l + (local - 1 - l);
    const uint8_t* v = &in[source * 16];
    for (int c = 0; c < 16; ++c) {
      const uint8_t sat = uint8_t(std::min(255, v[c] + 200));
      const uint8_t rot = uint8_t((v[c] << 3) | (v[c] >> 5));
      EXPECT_EQ(got[g * 16 + c], uint8_t(sat ^ rot)) << g << "." << c;
    }
    for (int c = 0; c < 8; ++c)
      EXPECT_EQ(lgot[g * 8 + c], (int64_t(v[c]) << 32) + int64_t(v[c + 8]) * factors[c]) << g << "." << c;
  }
}

// ---------------------------------------------------------------------------
// Async work-group copies

constexpr const char* kAsyncSource = R"CL(
// Each work-group copies its tile in, reverses it through local memory, and
// copies it out again; the strided forms gather every `stride`-th element.
__kernel void reverse_tiles(__global const float* in, __global float* out, __local float* tile) {
  const size_t n = get_local_size(0) * 2, base = get_group_id(0) * n;
  event_t e = async_work_group_copy(tile, in + base, n, 0);
  wait_group_events(1, &e);
  __local float* t = tile;
  const size_t l = get_local_id(0);
  float a = t[l], b = t[n - 1 - l];
  barrier(CLK_LOCAL_MEM_FENCE);
  t[l] = b;
  t[n - 1 - l] = a;
  barrier(CLK_LOCAL_MEM_FENCE);
  e = async_work_group_copy(out + base, tile, n, 0);
  wait_group_events(1, &e);
}

__kernel void gather_scatter(__global const int4* in, __global int4* out, uint stride) {
  __local int4 tile[32];
  event_t e = async_work_group_strided_copy(tile, in + get_group_id(0), 32, stride, 0);
  wait_group_events(1, &e);
  for (size_t i = get_local_id(0); i < 32; i += get_local_size(0)) tile[i] *= 2;
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t f = async_work_group_strided_copy(out + get_group_id(0), tile, 32, stride, e);
  wait_group_events(1, &f);
}

__kernel void copy_chars(__global const char3* in, __global char3* out) {
  __local char3 tile[50];
  event_t events[2];
  events[0] = async_work_group_copy(tile, in, 25, 0);
  events[1] = async_work_group_copy(tile + 25, in + 25, 25, 0);
  prefetch(in, 50);
  wait_group_events(2, events);
  if (get_local_id(0) < 50) tile[get_local_id(0)] += (char3)(1, 2, 3);
  barrier(CLK_LOCAL_MEM_FENCE);
  wait_group_events(1, events + 1);
  event_t e = async_work_group_copy(out, tile, 50, 0);
  wait_group_events(1, &e);
}
)CL";

TEST(Language, AsyncWorkGroupCopyReversesTiles) {
  constexpr uint32_t local = 64, groups = 9, n = local * 2 * groups;
  std::vector<float> in = iota_values<float>(n, 1.0f);
  Buffer input = buffer_of(in), output(test::device(), n * sizeof(float));
  Kernel k = program(kAsyncSource).kernel("reverse_tiles");
  k.set_arg("in", input);
  k.set_arg("out", output);
  k.set_local_arg("tile", local * 2 * sizeof(float));
  run(k, local * groups, local);
  std::vector<float> want(n);
  for (uint32_t g = 0; g < groups; ++g)
    for (uint32_t i = 0; i < local * 2; ++i) want[g * local * 2 + i] = in[g * local * 2 + local * 2 - 1 - i];
  EXPECT_EQ(output.read<float>(n), want);
}

TEST(Language, AsyncWorkGroupStridedCopyGathersAndScatters) {
  constexpr uint32_t groups = 3, stride = 5, count = 32 * stride;
  std::vector<int32_t> in(count * 4);
  for (uint32_t i = 0; i < in.size(); ++i) in[i] = int32_t(i * 7 - 100);
  Buffer input = buffer_of(in), output = buffer_of(std::vector<int32_t>(count * 4, -1));
  Kernel k = program(kAsyncSource).kernel("gather_scatter");
  k.set_arg("in", input);
  k.set_arg("out", output);
  k.set_arg("stride", stride);
  run(k, 16 * groups, 16);  // fewer work-items than elements: each copies two
  std::vector<int32_t> want(count * 4, -1);
  for (uint32_t g = 0; g < groups; ++g)
    for (uint32_t i = 0; i < 32; ++i)
      for (uint32_t c = 0; c < 4; ++c) want[(g + i * stride) * 4 + c] = in[(g + i * stride) * 4 + c] * 2;
  EXPECT_EQ(output.read<int32_t>(count * 4), want);
}

TEST(Language, AsyncWorkGroupCopyOfThreeComponentVectorsWithEventLists) {
  std::vector<int8_t> in(50 * 4);
  for (uint32_t i = 0; i < in.size(); ++i) in[i] = int8_t(i % 4 == 3 ? 0 : i);
  Buffer input = buffer_of(in), output = buffer_of(std::vector<int8_t>(50 * 4, 0));
  Kernel k = program(kAsyncSource).kernel("copy_chars");
  k.set_arg("in", input);
  k.set_arg("out", output);
  run(k, 64, 64);
  std::vector<int8_t> got = output.read<int8_t>(50 * 4);
  for (uint32_t i = 0; i < 50; ++i)
    for (uint32_t c = 0; c < 3; ++c) EXPECT_EQ(got[i * 4 + c], int8_t(in[i * 4 + c] + c + 1)) << i << "." << c;
}

// ---------------------------------------------------------------------------
// Sub-group collectives

constexpr const char* kSubgroupSource = R"CL(
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
// Each work-item records where it is (sub-group id, local id, size) and what
// every collective gave it; the host regroups the inputs and recomputes.
#define FIELDS 24
__kernel void collectives(__global const int* in, __global const float* fin, __global const long* lin,
                          __global int* out, __global float* fout, __global long* lout,
                          __global double* dout, uint lane) {
  const size_t g = get_global_id(0);
  const int x = in[g];
  const float f = fin[g];
  const long l = lin[g];
  __global int* o = out + g * FIELDS;
  o[0] = get_sub_group_id();
  o[1] = get_sub_group_local_id();
  o[2] = get_sub_group_size();
  o[3] = sub_group_reduce_add(x);
  o[4] = sub_group_reduce_min(x);
  o[5] = sub_group_reduce_max(x);
  o[6] = sub_group_scan_inclusive_add(x);
  o[7] = sub_group_scan_exclusive_add(x);
  o[8] = sub_group_scan_exclusive_min(x);
  o[9] = sub_group_scan_inclusive_max(x);
  o[10] = sub_group_broadcast(x, 0);
  o[11] = sub_group_broadcast(x, lane);  // a run-time id: OpGroupNonUniformShuffle
  o[12] = sub_group_all(x > -1000);
  o[13] = sub_group_any(x == 7);
  o[14] = (int)sub_group_reduce_max((uint)x);
  o[15] = (int)sub_group_scan_exclusive_min((uint)x);
  o[16] = sub_group_elect();
  o[17] = sub_group_shuffle_xor(x, 1u);
  o[18] = sub_group_shuffle_down(x, 1u);
  o[19] = sub_group_ballot_bit_count(sub_group_ballot(x & 1));
  o[20] = sub_group_non_uniform_reduce_xor(x);
  o[21] = sub_group_non_uniform_scan_inclusive_mul(x % 3 + 1);
  o[22] = sub_group_reduce_add((short)x);
  o[23] = sub_group_non_uniform_reduce_logical_or(x == 3);
  fout[g * 3 + 0] = sub_group_reduce_add(f);
  fout[g * 3 + 1] = sub_group_scan_exclusive_max(f);
  fout[g * 3 + 2] = sub_group_broadcast(f, lane);
  lout[g * 2 + 0] = sub_group_scan_inclusive_add(l);
  lout[g * 2 + 1] = sub_group_reduce_min(l);
  dout[g] = sub_group_reduce_add((double)f);
}
)CL";

constexpr const char* kClusteredSource = R"CL(
__kernel void clustered(__global const int* in, __global int* out) {
  out[get_global_id(0)] = sub_group_clustered_reduce_add(in[get_global_id(0)], 4u);
}
)CL";

TEST(Language, SubGroupCollectivesMatchTheHostReference) {
  const ModuleFeatures& features = test::device().features();
  if (!features.subgroup_arithmetic || !features.subgroup_extended_types || !features.shader_float64)
    GTEST_SKIP() << "the device lacks sub-group arithmetic, extended types or float64";
  // 60 work-items per group: the last sub-group is partial unless the
  // sub-group size divides 60.
  constexpr uint32_t local = 60, groups = 5, n = local * groups, fields = 24;
  std::mt19937 rng(11);
  std::vector<int32_t> in(n);
  std::vector<float> fin(n);
  std::vector<int64_t> lin(n);
  for (uint32_t i = 0; i < n; ++i) {
    in[i] = int32_t(rng() % 201) - 100;
    fin[i] = float(int32_t(rng() % 64) - 32) * 0.5f;
    lin[i] = (int64_t(rng()) << 20) - (int64_t(1) << 40);
  }
  Buffer ib = buffer_of(in), fb = buffer_of(fin), lb = buffer_of(lin);
  Buffer out(test::device(), n * fields * 4), fout(test::device(), n * 3 * 4), lout(test::device(), n * 16),
      dout(test::device(), n * 8);
  Kernel k = program(kSubgroupSource).kernel("collectives");
  constexpr uint32_t lane = 2;
  k.set_arg("in", ib);
  k.set_arg("fin", fb);
  k.set_arg("lin", lb);
  k.set_arg("out", out);
  k.set_arg("fout", fout);
  k.set_arg("lout", lout);
  k.set_arg("dout", dout);
  k.set_arg("lane", lane);
  run(k, n, local);
  const std::vector<int32_t> o = out.read<int32_t>(n * fields);
  const std::vector<float> fo = fout.read<float>(n * 3);
  const std::vector<int64_t> lo = lout.read<int64_t>(n * 2);
  const std::vector<double> dob = dout.read<double>(n);

  // Sub-group s of a work-group holds local ids s*S .. s*S+S-1 (checked).
  const uint32_t size = uint32_t(o[2]);  // the first sub-group is full
  ASSERT_GT(size, 0u);
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t l = i % local;
    ASSERT_EQ(uint32_t(o[i * fields + 0]), l / size) << i;
    ASSERT_EQ(uint32_t(o[i * fields + 1]), l % size) << i;
    ASSERT_EQ(uint32_t(o[i * fields + 2]), std::min(size, local - l / size * size)) << i;
  }
  for (uint32_t first = 0; first < n;) {
    const uint32_t l = first % local, count = std::min(size, local - l);
    auto lane_of = [&](uint32_t j) { return first + j; };
    int32_t sum = 0, mn = INT32_MAX, mx = INT32_MIN, xr = 0, ones = 0, any3 = 0;
    uint32_t umx = 0;
    int16_t ssum = 0;
    float fsum = 0;
    double dsum = 0;
    int64_t lmin = INT64_MAX;
    for (uint32_t j = 0; j < count; ++j) {
      const int32_t v = in[lane_of(j)];
      sum += v;
      mn = std::min(mn, v);
      mx = std::max(mx, v);
      umx = std::max(umx, uint32_t(v));
      xr ^= v;
      ones += v & 1;
      any3 |= v == 3;
      ssum = int16_t(ssum + int16_t(v));
      fsum += fin[lane_of(j)];
      dsum += double(fin[lane_of(j)]);
      lmin = std::min(lmin, lin[lane_of(j)]);
    }
    int32_t prefix = 0, prefix_min = INT32_MAX, prefix_max = INT32_MIN, prefix_mul = 1;
    uint32_t prefix_umin = UINT32_MAX;
    float prefix_fmax = -std::numeric_limits<float>::infinity();
    int64_t lprefix = 0;
    for (uint32_t j = 0; j < count; ++j) {
      const uint32_t i = lane_of(j);
      const int32_t* r = &o[i * fields];
      const int32_t v = in[i];
      SCOPED_TRACE("work-item " + std::to_string(i));
      EXPECT_EQ(r[3], sum);
      EXPECT_EQ(r[4], mn);
      EXPECT_EQ(r[5], mx);
      EXPECT_EQ(r[7], prefix);
      EXPECT_EQ(r[8], prefix_min);
      prefix += v;
      prefix_min = std::min(prefix_min, v);
      prefix_max = std::max(prefix_max, v);
      EXPECT_EQ(r[6], prefix);
      EXPECT_EQ(r[9], prefix_max);
      EXPECT_EQ(r[10], in[first]);
      EXPECT_EQ(r[11], in[first + lane]);
      EXPECT_EQ(r[12], 1);
      EXPECT_EQ(r[13] != 0, std::any_of(&in[first], &in[first] + count, [](int32_t w) { return w == 7; }));
      EXPECT_EQ(uint32_t(r[14]), umx);
      EXPECT_EQ(uint32_t(r[15]), prefix_umin);
      prefix_umin = std::min(prefix_umin, uint32_t(v));
      EXPECT_EQ(r[16], j == 0 ? 1 : 0);
      if ((j ^ 1) < count) {
        EXPECT_EQ(r[17], in[first + (j ^ 1)]);
      }
      if (j + 1 < count) {
        EXPECT_EQ(r[18], in[i + 1]);
      }
      EXPECT_EQ(r[19], ones);
      EXPECT_EQ(r[20], xr);
      prefix_mul *= v % 3 + 1;
      EXPECT_EQ(r[21], prefix_mul);
      EXPECT_EQ(int16_t(r[22]), ssum);
      EXPECT_EQ(r[23] != 0, any3 != 0);
      EXPECT_EQ(fo[i * 3 + 0], fsum);
      EXPECT_EQ(fo[i * 3 + 1], prefix_fmax);
      prefix_fmax = std::max(prefix_fmax, fin[i]);
      EXPECT_EQ(fo[i * 3 + 2], fin[first + lane]);
      lprefix += lin[i];
      EXPECT_EQ(lo[i * 2 + 0], lprefix);
      EXPECT_EQ(lo[i * 2 + 1], lmin);
      EXPECT_EQ(dob[i], dsum);
    }
    first += count;
  }
}

TEST(Language, ClusteredReductionsNeedTheirFeature) {
  if (test::device().features().subgroup_clustered) {
    constexpr uint32_t n = 256;
    std::vector<int32_t> in = iota_values<int32_t>(n);
    Buffer ib = buffer_of(in), ob(test::device(), n * 4);
    Kernel k = program(kClusteredSource).kernel("clustered");
    k.set_arg("in", ib);
    k.set_arg("out", ob);
    run(k, n, 64);
    std::vector<int32_t> got = ob.read<int32_t>(n);
    for (uint32_t i = 0; i < n; ++i) EXPECT_EQ(got[i], (i / 4 * 4) * 4 + 6) << i;
  } else {
    test::expect_error([] { program(kClusteredSource); }, {"subgroup_clustered"});
  }
}

// ---------------------------------------------------------------------------
// Signed remainders: C's truncating `%`, whose result takes the dividend's
// sign, for every sign of either operand and the extreme values. Vulkan
// leaves OpSRem undefined for negative operands (NVIDIA's driver differs
// from lavapipe's there); spirv/lower_signed_remainders makes it defined.

// ---------------------------------------------------------------------------
// if/else (tools/clc/rejoin_if_else.cpp turns structurizecfg's two ifs back
// into one): values from either arm, a nested if/else and a loop in an arm,
// an if/else inside a loop carrying values around it.

constexpr const char* kIfElseSource = R"CL(
__kernel void branches(__global const int* in, __global int* out) {
  const int i = get_global_id(0), n = get_global_size(0);
  const int x = in[i];
  int a, b;
  if (x > 0) a = x * 3; else a = in[(i + 1) % n] - x;
  if ((x & 3) == 1) {
    b = a + 1;
  } else {
    if (x < -5) b = a * 2; else b = -a;
    for (int k = 0; k < (x & 7); ++k) b += k * x;
  }
  int s = 0, t = 0;
  for (int k = 0; k < 5; ++k) {
    if ((x + k) % 3 == 0) s += k; else t -= in[(i + k) % n];
  }
  out[4 * i] = a;
  out[4 * i + 1] = b;
  out[4 * i + 2] = s;
  out[4 * i + 3] = t;
}
)CL";

TEST(Language, IfElseArmsNestedAndInLoops) {
  const int n = 64;
  std::vector<int32_t> in(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 37) % n - 20;  // -20..43, every value once
  Kernel k = program(kIfElseSource).kernel("branches");
  Buffer input = buffer_of(in), output(test::device(), 4 * n * sizeof(int32_t));
  k.set_arg("in", input);
  k.set_arg("out", output);
  run(k, n, 16);
  const std::vector<int32_t> got = output.read<int32_t>(4 * n);
  for (int i = 0; i < n; ++i) {
    const int x = in[i];
    const int a = x > 0 ? x * 3 : in[(i + 1) % n] - x;
    int b;
    if ((x & 3) == 1) {
      b = a + 1;
    } else {
      b = x < -5 ? a * 2 : -a;
      for (int j = 0; j < (x & 7); ++j) b += j * x;
    }
    int s = 0, t = 0;
    for (int j = 0; j < 5; ++j) {
      if ((x + j) % 3 == 0) s += j;
      else t -= in[(i + j) % n];
    }
    const int want[4] = {a, b, s, t};
    for (int f = 0; f < 4; ++f) EXPECT_EQ(got[4 * i + f], want[f]) << "work-item " << i << " (x = " << x << "), value " << f;
  }
}

constexpr const char* kRemainderSource = R"CL(
__kernel void remainders(__global int* a, __global const int* b, __global long* la, __global const long* lb,
                         __global char4* ca, __global const char4* cb, __global short* sa, __global const short* sb) {
  const size_t i = get_global_id(0);  // each remainder replaces its dividend
  a[i] %= b[i];
  la[i] %= lb[i];
  ca[i] %= cb[i];  // vectors of char: no promotion to int
  sa[i] = sa[i] % sb[i];
}
)CL";

// Every pair of `dividends` x `divisors` but the one that overflows (MIN % -1).
template <typename T>
std::pair<std::vector<T>, std::vector<T>> remainder_operands() {
  const T lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
  const std::vector<T> dividends = {lo, T(lo + 1), T(lo / 3), -7, -6, -5, -1, 0, 1, 5, 6, 7, T(hi / 3), T(hi - 1), hi};
  const std::vector<T> divisors = {lo, T(lo + 1), -7, -5, -3, -2, -1, 1, 2, 3, 5, 7, T(hi - 1), hi};
  std::vector<T> a, b;
  for (T x : dividends)
    for (T y : divisors)
      if (!(x == lo && y == T(-1))) {
        a.push_back(x);
        b.push_back(y);
      }
  return {a, b};
}

TEST(Language, SignedRemainderTakesTheDividendsSign) {
  const auto [a, b] = remainder_operands<int32_t>();
  const auto [la, lb] = remainder_operands<int64_t>();
  const auto [ca, cb] = remainder_operands<int8_t>();
  const auto [sa, sb] = remainder_operands<int16_t>();
  const size_t n = std::max({a.size(), la.size(), ca.size(), sa.size()});
  // Each list repeated to n items; the char list to 4n, so every char4 lane sees every pair.
  auto repeat = []<typename T>(const std::vector<T>& v, size_t count) {
    std::vector<T> out(count);
    for (size_t i = 0; i < count; ++i) out[i] = v[i % v.size()];
    return out;
  };
  const std::vector<int32_t> ia = repeat(a, n), ib = repeat(b, n);
  const std::vector<int64_t> ila = repeat(la, n), ilb = repeat(lb, n);
  const std::vector<int8_t> ica = repeat(ca, 4 * n), icb = repeat(cb, 4 * n);
  const std::vector<int16_t> isa = repeat(sa, n), isb = repeat(sb, n);

  Kernel k = program(kRemainderSource).kernel("remainders");
  Buffer r = buffer_of(ia), lr = buffer_of(ila), cr = buffer_of(ica), sr = buffer_of(isa);
  Buffer divisors[] = {buffer_of(ib), buffer_of(ilb), buffer_of(icb), buffer_of(isb)};
  k.set_arg("a", r);
  k.set_arg("b", divisors[0]);
  k.set_arg("la", lr);
  k.set_arg("lb", divisors[1]);
  k.set_arg("ca", cr);
  k.set_arg("cb", divisors[2]);
  k.set_arg("sa", sr);
  k.set_arg("sb", divisors[3]);
  test::device().run(k, NDRange::make({n}));

  const std::vector<int32_t> got = r.read<int32_t>(n);
  const std::vector<int64_t> lgot = lr.read<int64_t>(n);
  const std::vector<int8_t> cgot = cr.read<int8_t>(4 * n);
  const std::vector<int16_t> sgot = sr.read<int16_t>(n);
  int wrong = 0;
  auto check = [&](const char* type, auto x, auto y, auto result, auto want) {
    if (result == want || ++wrong > 20) return;
    ADD_FAILURE() << type << " " << int64_t(x) << " % " << int64_t(y) << " = " << int64_t(result) << ", expected "
                  << int64_t(want);
  };
  for (size_t i = 0; i < n; ++i) {
    check("int", ia[i], ib[i], got[i], ia[i] % ib[i]);
    check("long", ila[i], ilb[i], lgot[i], ila[i] % ilb[i]);
    check("short", isa[i], isb[i], sgot[i], int16_t(isa[i] % isb[i]));
  }
  for (size_t i = 0; i < 4 * n; ++i) check("char", ica[i], icb[i], cgot[i], int8_t(ica[i] % icb[i]));
}

// size_t arithmetic truncated to uint wraps modulo 2^32 exactly as in 64 bits
// and then truncated (spirv/narrow_truncated_arithmetic computes it in 32).
constexpr const char* kTruncationSource = R"CL(
__kernel void truncated(__global const uint* a, __global const uint* b, __global uint* out) {
  const size_t i = get_global_id(0);
  const size_t x = a[i], y = b[i];
  out[4 * i + 0] = (uint)(x * y + i);
  out[4 * i + 1] = (uint)((x << 7) - y * 3u);
  out[4 * i + 2] = (uint)(~x ^ (y | (i << 20)));
  out[4 * i + 3] = (uint)(x > y ? x * 5u : -y);
}
)CL";

TEST(Language, TruncatedSizeTArithmeticWraps) {
  const std::vector<uint32_t> a = {0u, 1u, 0xffffffffu, 0x80000000u, 0x12345678u, 0xdeadbeefu, 65536u, 3u};
  const std::vector<uint32_t> b = {0xffffffffu, 0xfffffffeu, 0xffffffffu, 2u, 0x9abcdef0u, 7u, 65536u, 0x80000001u};
  Kernel k = program(kTruncationSource).kernel("truncated");
  Buffer in_a = buffer_of(a), in_b = buffer_of(b), out(test::device(), a.size() * 16);
  k.set_arg("a", in_a);
  k.set_arg("b", in_b);
  k.set_arg("out", out);
  test::device().run(k, NDRange::make({a.size()}));
  const std::vector<uint32_t> got = out.read<uint32_t>(4 * a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    const uint64_t x = a[i], y = b[i];
    const uint32_t want[4] = {uint32_t(x * y + i), uint32_t((x << 7) - y * 3u), uint32_t(~x ^ (y | (uint64_t(i) << 20))),
                              uint32_t(x > y ? x * 5u : -y)};
    for (int j = 0; j < 4; ++j) EXPECT_EQ(got[4 * i + j], want[j]) << "item " << i << ", expression " << j;
  }
}

}  // namespace
}  // namespace vkcl

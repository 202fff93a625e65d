// __private and __local memory read as another type than it was declared
// with, and its addresses as integers (tools/clc/lower_reinterpreted_memory),
// run on the device and checked against results computed here: byte, short,
// word and vector views of one array in both directions at run-time
// indices, through structs and arrays of structs and through generic
// pointers; 3-component vectors read as their components; alignment tests,
// round trips and differences of addresses; and __local bytes written by
// neighbouring work-items at once. The first kernel is the minimal trigger
// from hashcat's shared.cl.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <numeric>
#include <vector>

#include "test_device.h"
#include "vkcl/source_program.h"

namespace vkcl {
namespace {

constexpr const char* kSource = R"CL(
__kernel void hashcat_trigger(__global uint* o) {
  uint a[4];
  for (int i = 0; i < 4; i++) a[i] = o[i];
  __private uchar* p = (__private uchar*)a;
  o[4] = p[o[5]];
}

__kernel void hashcat_trigger_local(__global uint* o) {
  __local uint a[4];
  if (get_local_id(0) == 0)
    for (int i = 0; i < 4; i++) a[i] = o[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  __local uchar* p = (__local uchar*)a;
  if (get_local_id(0) == 0) o[4] = p[o[5]];
}

// Bytes written at run-time positions, read back as words, shorts and a
// uchar4; a short written, read back as bytes (char types may read any
// object; other types only their own, as in C99, which LLVM's alias
// analysis relies on).
__kernel void views(__global const uint* in, __global uint* out) {
  const uint g = get_global_id(0);
  uint w[4] = {0, 0, 0, 0};
  uchar* b = (uchar*)w;
  for (uint i = 0; i < 16; i++) b[(i * 5 + g) & 15] = (uchar)(in[i] + g);
  ushort* s = (ushort*)w;
  uchar4* q = (uchar4*)w;
  uint r = w[0] ^ w[1] ^ w[2] ^ w[3];
  r += s[g & 7] + ((uint)q[g & 3].y << 16);
  s[(g + 1) & 7] = (ushort)0xbeef;
  r ^= b[2 * ((g + 1) & 7)] + ((uint)b[2 * ((g + 1) & 7) + 1] << 8) + ((uint)b[g & 15] << 24);
  out[g] = r;
}

typedef struct {
  uchar tag;
  uint v[3];
  ushort h;
} record;

// An array of structs read as words and as bytes.
__kernel void structs(__global uint* out) {
  const uint g = get_global_id(0);
  record rs[2];
  for (int i = 0; i < 2; i++) {
    rs[i].tag = (uchar)(i + g);
    for (int j = 0; j < 3; j++) rs[i].v[j] = 0x01010101u * (uchar)(10 * i + j + g);
    rs[i].h = (ushort)(1000 + i);
  }
  uint* words = (uint*)rs;  // 5 words a record: tag and padding, v[3], h and padding
  uchar* bytes = (uchar*)rs;
  out[g] = words[1 + (g % 3)] + words[6] + bytes[0] + bytes[20] + (uint)bytes[16 + 20 * (g & 1)] * 65536u;
}

// piglit's v3i32-stack-array: int3 elements chosen at run time, read and
// written whole and as components.
__kernel void int3_stack(__global int3* out, __global const int* in) {
  int3 stack[2];
  stack[in[0]].s0 = 4;
  stack[in[0]].s1 = 5;
  stack[in[0]].s2 = 6;
  stack[in[1]].s0 = 7;
  stack[in[1]].s1 = 8;
  stack[in[1]].s2 = 9;
  out[0] = stack[in[0]];
  out[1] = stack[in[1]];
  int* flat = (int*)stack;
  out[2] = (int3)(flat[in[2]], flat[4 + in[2]], vload3(0, flat + 4 * in[1]).s0);
}

// Addresses as integers: aligned as declared (piglit's realign-stack, the
// CTS's kernel_memory_alignment), turned back into pointers, subtracted.
__kernel void addresses(__global uint* out, uint k) {
  volatile int4 a16 = 0;
  volatile long16 a128 = 0;
  char2 pair[3];
  int arr[8];
  for (int i = 0; i < 8; i++) arr[i] = 100 + i;
  uint flags = 0;
  flags |= ((uintptr_t)&a16 % 16 == 0) << 0;
  flags |= ((uintptr_t)&a128 % 128 == 0) << 1;
  flags |= ((uintptr_t)&pair[1] % 2 == 0) << 2;
  flags |= ((uintptr_t)arr != 0) << 3;
  uintptr_t at = (uintptr_t)&arr[k & 7];
  private int* back = (private int*)(at + sizeof(int));
  out[0] = flags;
  out[1] = *back;
  out[2] = (uint)(back - arr);
  out[3] = (uint)((uchar*)&arr[6] - (uchar*)&arr[1]);
}

// Neighbouring work-items write neighbouring bytes of one __local word at
// once; the words hold every byte afterwards.
__kernel void local_bytes(__global const uchar* in, __global uint* out) {
  __local uint words[64];
  const uint l = get_local_id(0);
  __local uchar* bytes = (__local uchar*)words;
  bytes[l] = in[get_global_id(0)] ^ (uchar)l;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l < 64) out[get_group_id(0) * 64 + l] = words[l];
}

// A __local int3 array read as ints, and a generic pointer to a byte view
// of private words (OpenCL C 2.0).
__kernel void local_int3_and_generic(__global int* out) {
  __local int3 t[4];
  const uint l = get_local_id(0);
  if (l < 4) t[l] = (int3)(10 * l, 10 * l + 1, 10 * l + 2);
  barrier(CLK_LOCAL_MEM_FENCE);
  __local int* flat = (__local int*)t;
  uint w[2] = {0x04030201u, 0x08070605u};
  uchar* any = (uchar*)w;  // the generic address space
  out[l] = flat[(l % 3) + 4 * (l / 3 % 4)] + 1000 * any[l & 7];
}

// A __local argument (its array sized by the host) read as float4s and as
// bytes, then written as bytes by neighbouring work-items and read as words.
__kernel void local_argument(__global float* out, __local float* scratch) {
  const uint l = get_local_id(0);
  scratch[l] = (float)l * 1.5f;
  barrier(CLK_LOCAL_MEM_FENCE);
  __local float4* quads = (__local float4*)scratch;
  __local uchar* bytes = (__local uchar*)scratch;
  float4 q = quads[l / 4];
  float r = q.x + q.y + q.z + q.w + bytes[4 * l + 3];
  barrier(CLK_LOCAL_MEM_FENCE);
  bytes[l] = (uchar)(l + 1);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[l] = r + (float)(((__local uint*)scratch)[l / 4] & 0xffu);
}
)CL";

Program& program() {
  test::device();
  static std::map<int, Program> programs;
  if (auto it = programs.find(0); it != programs.end()) return it->second;
  CompileOptions options;
  options.cl_std = OpenCLStd::CL2_0;
  return programs.emplace(0, build_program(test::device(), kSource, "reinterpreted.cl", options)).first->second;
}

template <typename T>
Buffer buffer_of(const std::vector<T>& values) {
  Buffer buffer(test::device(), values.size() * sizeof(T));
  buffer.write(values);
  return buffer;
}

void run(const Kernel& kernel, uint64_t global, uint64_t local) {
  test::device().run(kernel, NDRange::make({global}, {local}));
}

TEST(ReinterpretedMemory, HashcatsMinimalTriggerInPrivateAndLocalMemory) {
  for (const char* name : {"hashcat_trigger", "hashcat_trigger_local"})
    for (uint32_t index : {0u, 1u, 6u, 11u, 15u}) {
      const std::vector<uint32_t> words = {0x44332211u, 0x88776655u, 0xccbbaa99u, 0x00ffeeddu, 0, index};
      Buffer o = buffer_of(words);
      Kernel k = program().kernel(name);
      k.set_arg("o", o);
      run(k, 1, 1);
      uint8_t bytes[16];
      std::memcpy(bytes, words.data(), 16);
      EXPECT_EQ(o.read<uint32_t>(6)[4], bytes[index]) << name << " byte " << index;
    }
}

TEST(ReinterpretedMemory, ByteShortWordAndVectorViewsAgree) {
  constexpr uint32_t n = 32;
  std::vector<uint32_t> in(16);
  for (uint32_t i = 0; i < 16; ++i) in[i] = i * 37 + 5;
  Buffer input = buffer_of(in), out(test::device(), n * 4);
  Kernel k = program().kernel("views");
  k.set_arg("in", input);
  k.set_arg("out", out);
  run(k, n, n);
  std::vector<uint32_t> want(n);
  for (uint32_t g = 0; g < n; ++g) {
    uint32_t w[4] = {0, 0, 0, 0};
    auto* b = reinterpret_cast<uint8_t*>(w);
    for (uint32_t i = 0; i < 16; ++i) b[(i * 5 + g) & 15] = uint8_t(in[i] + g);
    uint16_t s[8];
    std::memcpy(s, w, 16);
    uint32_t r = w[0] ^ w[1] ^ w[2] ^ w[3];
    r += s[g & 7] + (uint32_t(b[4 * (g & 3) + 1]) << 16);
    s[(g + 1) & 7] = 0xbeef;
    std::memcpy(w, s, 16);
    r ^= b[2 * ((g + 1) & 7)] + (uint32_t(b[2 * ((g + 1) & 7) + 1]) << 8) + (uint32_t(b[g & 15]) << 24);
    want[g] = r;
  }
  EXPECT_EQ(out.read<uint32_t>(n), want);
}

TEST(ReinterpretedMemory, StructsReadAsWordsAndBytes) {
  constexpr uint32_t n = 8;
  Buffer out(test::device(), n * 4);
  Kernel k = program().kernel("structs");
  k.set_arg("out", out);
  run(k, n, n);
  std::vector<uint32_t> want(n);
  for (uint32_t g = 0; g < n; ++g) {
    // OpenCL's layout: tag at 0, v at 4..15, h at 16, 20 bytes a record.
    auto v = [&](uint32_t i, uint32_t j) { return 0x01010101u * uint8_t(10 * i + j + g); };
    const uint32_t h_low = (1000 + (g & 1)) & 0xff;
    want[g] = v(0, g % 3) + v(1, 0) + uint8_t(g) + uint8_t(1 + g) + h_low * 65536u;
  }
  EXPECT_EQ(out.read<uint32_t>(n), want);
}

TEST(ReinterpretedMemory, Int3ArraysOnTheStackChosenAndReadAsInts) {
  // in[0], in[1] as piglit's cases; in[2] the component read through ints.
  for (const std::vector<int32_t>& in : {std::vector<int32_t>{0, 1, 2}, std::vector<int32_t>{1, 0, 1}}) {
    Buffer input = buffer_of(in), out(test::device(), 3 * 16);
    Kernel k = program().kernel("int3_stack");
    k.set_arg("out", out);
    k.set_arg("in", input);
    run(k, 1, 1);
    const std::vector<int32_t> got = out.read<int32_t>(12);
    const int32_t first[3] = {4, 5, 6}, second[3] = {7, 8, 9};
    const int32_t* stack[2] = {in[0] == 0 ? first : second, in[0] == 0 ? second : first};
    EXPECT_EQ(std::vector<int32_t>(got.begin(), got.begin() + 3), std::vector<int32_t>(first, first + 3));
    EXPECT_EQ(std::vector<int32_t>(got.begin() + 4, got.begin() + 7), std::vector<int32_t>(second, second + 3));
    // flat[c] is stack[0][c], flat[4 + c] stack[1][c]; vload3 from stack[in[1]]'s first component.
    const int32_t c = in[2];
    const int32_t* chosen = stack[in[1]];
    EXPECT_EQ(got[8], stack[0][c]);
    EXPECT_EQ(got[9], stack[1][c]);
    EXPECT_EQ(got[10], chosen[0]) << "vload3";
  }
}

TEST(ReinterpretedMemory, AddressesAsIntegersAreAlignedRoundTripAndSubtract) {
  for (uint32_t k : {0u, 3u, 6u}) {
    Buffer out(test::device(), 16);
    Kernel kernel = program().kernel("addresses");
    kernel.set_arg("out", out);
    kernel.set_arg("k", k);
    run(kernel, 1, 1);
    EXPECT_EQ(out.read<uint32_t>(4), (std::vector<uint32_t>{0xf, 100 + k + 1, k + 1, 20})) << "k " << k;
  }
}

TEST(ReinterpretedMemory, LocalBytesWrittenByNeighbouringWorkItemsAtOnce) {
  constexpr uint32_t local = 256, groups = 4;
  std::vector<uint8_t> in(local * groups);
  for (size_t i = 0; i < in.size(); ++i) in[i] = uint8_t(i * 13 + 7);
  Buffer input = buffer_of(in), out(test::device(), groups * 64 * 4);
  Kernel k = program().kernel("local_bytes");
  k.set_arg("in", input);
  k.set_arg("out", out);
  run(k, local * groups, local);
  std::vector<uint32_t> want(groups * 64);
  for (uint32_t g = 0; g < groups; ++g)
    for (uint32_t w = 0; w < 64; ++w) {
      uint32_t word = 0;
      for (uint32_t b = 0; b < 4; ++b) word |= uint32_t(uint8_t(in[g * local + 4 * w + b] ^ (4 * w + b))) << (8 * b);
      want[g * 64 + w] = word;
    }
  EXPECT_EQ(out.read<uint32_t>(groups * 64), want);
}

TEST(ReinterpretedMemory, LocalInt3AsIntsAndGenericByteViews) {
  constexpr uint32_t n = 16;
  Buffer out(test::device(), n * 4);
  Kernel k = program().kernel("local_int3_and_generic");
  k.set_arg("out", out);
  run(k, n, n);
  std::vector<int32_t> want(n);
  for (uint32_t l = 0; l < n; ++l) {
    const uint32_t vector = l / 3 % 4, component = l % 3;
    want[l] = int32_t(10 * vector + component) + 1000 * int32_t((l & 7) + 1);
  }
  EXPECT_EQ(out.read<int32_t>(n), want);
}

TEST(ReinterpretedMemory, ALocalArgumentReadAsFloat4sAndBytes) {
  constexpr uint32_t n = 32;
  Buffer out(test::device(), n * 4);
  Kernel k = program().kernel("local_argument");
  k.set_arg("out", out);
  k.set_local_arg("scratch", n * 4);
  run(k, n, n);
  std::vector<float> scratch(n);
  for (uint32_t l = 0; l < n; ++l) scratch[l] = float(l) * 1.5f;
  std::vector<uint8_t> bytes(n * 4);
  std::memcpy(bytes.data(), scratch.data(), bytes.size());
  std::vector<float> want(n);
  for (uint32_t l = 0; l < n; ++l) {
    const uint32_t v = l / 4;
    // After the byte stores, word l / 4's low byte is byte 4 (l / 4), which is 4 (l / 4) + 1.
    want[l] = scratch[4 * v] + scratch[4 * v + 1] + scratch[4 * v + 2] + scratch[4 * v + 3] + float(bytes[4 * l + 3]) +
              float(4 * v + 1);
  }
  EXPECT_EQ(out.read<float>(n), want);
}

}  // namespace
}  // namespace vkcl

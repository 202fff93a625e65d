// Kernels whose arguments do not fit in Vulkan's guaranteed 128 bytes of push
// constants (lavapipe's maxPushConstantsSize) run with an argument buffer:
// sixteen global pointers each read and written with its own constant (a
// wrong offset mixes two up), a 160-byte struct by value, arguments changed
// between runs, several enqueues in one submission and several submissions
// in flight at once each with their own values, set_arg's checks as before,
// the reflection checks that guard the argument buffer, and by-value vectors
// of 8- and 16-bit components (32-bit words in the push constants or the
// argument buffer, rebuilt in the kernel) written back byte for byte.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <map>
#include <numeric>
#include <span>
#include <string>
#include <vector>

#include "test_device.h"
#include "vkcl/source_program.h"

namespace vkcl {
namespace {

// a_k[i] = a_k[i] * 3 + (k + 1) * n + get_global_id(0) for each of 16 pointers.
constexpr const char* kSixteenSource = R"CL(
#define STEP(k) a##k[i - get_global_offset(0)] = a##k[i - get_global_offset(0)] * 3 + (k + 1) * n + (int)i;
__kernel void sixteen(__global int* a0, __global int* a1, __global int* a2, __global int* a3,
                      __global int* a4, __global int* a5, __global int* a6, __global int* a7,
                      __global int* a8, __global int* a9, __global int* a10, __global int* a11,
                      __global int* a12, __global int* a13, __global int* a14, __global int* a15, int n) {
  size_t i = get_global_id(0);
  STEP(0) STEP(1) STEP(2) STEP(3) STEP(4) STEP(5) STEP(6) STEP(7)
  STEP(8) STEP(9) STEP(10) STEP(11) STEP(12) STEP(13) STEP(14) STEP(15)
}

typedef struct { int v[38]; long l; } Big;  // 160 bytes
__kernel void big(__global long* out, Big b, int k, __global long* out2) {
  size_t i = get_global_id(0);
  out[i] = b.v[(i + k) % 38] + b.l;  // a run-time index: a private copy of b
  out2[i] = b.v[5] * 1000 + k;       // constant offsets: words read directly
}

__kernel void fits(__global int* a, int n) { a[get_global_id(0)] += n; }
)CL";

struct Big {
  int32_t v[38];
  int64_t l;
};
static_assert(sizeof(Big) == 160);

// Pointers by address, whatever the device's default (storage buffers on
// lavapipe): here the pointers are what overflows the push constants.
CompileOptions by_address() {
  CompileOptions options;
  options.max_storage_buffers = 0;
  return options;
}

Program& program() {
  test::device();  // first, so that it outlives the program
  static Program p = build_program(test::device(), kSixteenSource, "arguments.cl", by_address());
  return p;
}

constexpr int kPointers = 16;

// Sixteen buffers of n ints, buffer k holding k * 100000 + i + salt.
struct Sixteen {
  std::vector<Buffer> buffers;
  size_t n;
  int salt;
  explicit Sixteen(size_t count, int salt_ = 0) : n(count), salt(salt_) {
    for (int k = 0; k < kPointers; ++k) {
      std::vector<int32_t> values(n);
      for (size_t i = 0; i < n; ++i) values[i] = k * 100000 + int32_t(i) + salt;
      buffers.emplace_back(test::device(), n * sizeof(int32_t)).write(values);
    }
  }
  void set_args(Kernel& kernel, int32_t scalar) const {
    for (int k = 0; k < kPointers; ++k) kernel.set_arg(k, buffers[k]);
    kernel.set_arg(kPointers, scalar);
  }
  // After a run with each of `scalars` as n, over global offset `offset`.
  void expect(const std::vector<int32_t>& scalars, size_t offset) const {
    for (int k = 0; k < kPointers; ++k) {
      std::vector<int32_t> got = buffers[k].read<int32_t>(n);
      for (size_t i = 0; i < n; ++i) {
        int32_t want = k * 100000 + int32_t(i) + salt;
        for (int32_t s : scalars) want = want * 3 + (k + 1) * s + int32_t(i + offset);
        ASSERT_EQ(got[i], want) << "pointer " << k << " element " << i;
      }
    }
  }
};

TEST(KernelArgumentBuffer, ReflectionSaysWhichKernelsHaveOne) {
  const KernelReflection& sixteen = program().kernel("sixteen").reflection();
  ASSERT_TRUE(sixteen.argument_buffer.has_value());
  EXPECT_EQ(sixteen.argument_buffer->size, 132u);
  EXPECT_LE(sixteen.push_constant_size, 128u);
  ASSERT_TRUE(program().kernel("big").reflection().argument_buffer.has_value());
  EXPECT_FALSE(program().kernel("fits").reflection().argument_buffer.has_value());
}

// A non-uniform range with an offset: two dispatches, each with its own
// group_offset in the push constants beside the argument buffer's address.
TEST(KernelArgumentBuffer, SixteenPointersEachReadAndWritten) {
  Kernel kernel = program().kernel("sixteen");
  Sixteen data(1000);
  data.set_args(kernel, 7);
  test::device().run(kernel, NDRange::make({1000}, {64}, {5}));
  data.expect({7}, 5);
}

TEST(KernelArgumentBuffer, SecondRunSeesTheNewArguments) {
  Kernel kernel = program().kernel("sixteen");
  Sixteen first(300), second(300, 11);
  first.set_args(kernel, 2);
  test::device().run(kernel, NDRange::make({300}, {32}));
  first.expect({2}, 0);
  second.set_args(kernel, -9);
  test::device().run(kernel, NDRange::make({300}, {32}));
  second.expect({-9}, 0);
  first.expect({2}, 0);  // untouched by the second run
  // Only the scalar changes: the buffers run again with it.
  kernel.set_arg(kPointers, 4);
  test::device().run(kernel, NDRange::make({300}, {32}));
  second.expect({-9, 4}, 0);
}

// One submission of several enqueues, each snapshotting its own arguments.
TEST(KernelArgumentBuffer, EnqueuesInOneSubmissionKeepTheirOwnArguments) {
  Kernel kernel = program().kernel("sixteen");
  std::vector<Sixteen> sets;
  for (int s = 0; s < 3; ++s) sets.emplace_back(200, s * 7);
  CommandList commands(test::device());
  for (int s = 0; s < 3; ++s) {
    sets[s].set_args(kernel, 10 * (s + 1));
    commands.enqueue(kernel, NDRange::make({200}, {64}));
  }
  // The same set again with another scalar: the in-order queue sees the first result.
  kernel.set_arg(kPointers, 5);
  commands.enqueue(kernel, NDRange::make({200}, {64}));
  test::device().submit(commands).wait();
  sets[0].expect({10}, 0);
  sets[1].expect({20}, 0);
  sets[2].expect({30, 5}, 0);
}

// Several submissions in flight at once, the kernel's arguments changed
// between them: each submission's argument buffer holds its own values.
TEST(KernelArgumentBuffer, SubmissionsInFlightKeepTheirOwnArguments) {
  Kernel kernel = program().kernel("sixteen");
  constexpr int kSubmissions = 12;  // more than the spare argument buffers the device keeps
  std::vector<Sixteen> sets;
  for (int s = 0; s < kSubmissions; ++s) sets.emplace_back(256, s);
  std::vector<Event> events;
  for (int s = 0; s < kSubmissions; ++s) {
    sets[s].set_args(kernel, s + 1);
    CommandList commands(test::device());
    commands.enqueue(kernel, NDRange::make({256}, {64}));
    events.push_back(test::device().submit(commands));
  }
  for (Event& e : events) e.wait();
  for (int s = 0; s < kSubmissions; ++s) {
    SCOPED_TRACE("submission " + std::to_string(s));
    sets[s].expect({s + 1}, 0);
  }
  // A CommandList submitted twice copies its arguments twice.
  Sixteen again(64, 3);
  again.set_args(kernel, 6);
  CommandList commands(test::device());
  commands.enqueue(kernel, NDRange::make({64}, {64}));
  Event first = test::device().submit(commands);
  Event second = test::device().submit(commands);
  first.wait();
  second.wait();
  again.expect({6, 6}, 0);
}

TEST(KernelArgumentBuffer, LargeStructByValue) {
  Kernel kernel = program().kernel("big");
  constexpr size_t n = 100;
  Buffer out(test::device(), n * sizeof(int64_t)), out2(test::device(), n * sizeof(int64_t));
  for (int run = 0; run < 2; ++run) {
    Big b{};
    for (int j = 0; j < 38; ++j) b.v[j] = 1000 * run + j * 3 + 1;
    b.l = (int64_t(1) << 40) + run;
    const int32_t k = 5 + run;
    kernel.set_arg("out", out);
    kernel.set_arg("b", b);
    kernel.set_arg("k", k);
    kernel.set_arg("out2", out2);
    test::device().run(kernel, NDRange::make({n}, {32}));
    std::vector<int64_t> got = out.read<int64_t>(n), got2 = out2.read<int64_t>(n);
    for (size_t i = 0; i < n; ++i) {
      ASSERT_EQ(got[i], b.v[(i + k) % 38] + b.l) << "run " << run << " element " << i;
      ASSERT_EQ(got2[i], int64_t(b.v[5]) * 1000 + k) << "run " << run << " element " << i;
    }
  }
}

TEST(KernelArgumentBuffer, SetArgChecksAsBefore) {
  Kernel kernel = program().kernel("sixteen");
  Buffer buffer(test::device(), 64);
  test::expect_error([&] { kernel.set_arg(kPointers, int64_t(1)); },
                     {"kernel 'sixteen' argument 16 (n) takes 4 bytes; the value given has 8"});
  test::expect_error([&] { kernel.set_arg(3, int32_t(1)); }, {"argument 3 (a3) is a global_pointer; pass a Buffer"});
  test::expect_error([&] { kernel.set_arg(kPointers, buffer); }, {"argument 16 (n) is a scalar, not a global"});
  test::expect_error([&] { kernel.set_arg(17, buffer); }, {"has 17 argument(s); there is no argument 17"});
  test::expect_error([&] { kernel.set_arg(0, buffer, 64); }, {"offset 64 is not inside the buffer of 64 bytes"});
  Kernel big = program().kernel("big");
  test::expect_error([&] { big.set_arg("b", std::array<int32_t, 39>{}); },
                     {"argument 1 (b) takes 160 bytes; the value given has 156"});
  for (int k = 0; k < kPointers; ++k)
    if (k != 9) kernel.set_arg(k, buffer);
  test::expect_error([&] { test::device().run(kernel, NDRange::make({16}, {16})); },
                     {"kernel 'sixteen': argument(s) not set: 9 (a9), 16 (n)"});
}

// Each argument written back at its own place in `out` (bytes; a
// 3-component vector only its 3 components), the half2 as its bits.
constexpr const char* kNarrowSource = R"CL(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#define NARROW_PARAMETERS __global uchar* out, char2 a, uchar3 b, uchar4 c, char8 d, uchar16 e, short f, short2 g, \
                          short3 h, ushort4 i, half2 j
#define WRITE_NARROW                                        \
  vstore2(a, 0, (__global char*)(out + 0));                 \
  vstore3(b, 0, out + 4);                                   \
  vstore4(c, 0, out + 8);                                   \
  vstore8(d, 0, (__global char*)(out + 16));                \
  vstore16(e, 0, out + 32);                                 \
  *(__global short*)(out + 48) = f;                         \
  vstore2(g, 0, (__global short*)(out + 52));               \
  vstore3(h, 0, (__global short*)(out + 56));               \
  vstore4(i, 0, (__global ushort*)(out + 64));              \
  vstore2(as_ushort2(j), 0, (__global ushort*)(out + 72));

__kernel void narrow(NARROW_PARAMETERS) { WRITE_NARROW }

// 76 bytes of those and 64 more: an argument buffer.
__kernel void narrow_in_buffer(NARROW_PARAMETERS, ulong8 pad) {
  WRITE_NARROW
  vstore8(pad, 0, (__global ulong*)(out + 80));
}
)CL";

// The narrow arguments: name, reflected size, the bytes the kernel writes
// (the rest of the size is a 3-component vector's padding) and where.
struct NarrowArg {
  const char* name;
  size_t size, written, at;
};
constexpr NarrowArg kNarrowArgs[] = {
    {"a", 2, 2, 0},   {"b", 4, 3, 4},   {"c", 4, 4, 8},   {"d", 8, 8, 16},  {"e", 16, 16, 32},
    {"f", 2, 2, 48},  {"g", 4, 4, 52},  {"h", 8, 6, 56},  {"i", 8, 8, 64},  {"j", 4, 4, 72},
};
constexpr size_t kNarrowOut = 144;
constexpr uint8_t kUntouched = 0xee;

// Bytes with every sign and high-bit case: 0x81, 0x7f, 0xff, 0x80 (shorts
// 0x7f81, -129 (0xff7f), -32768 (0x8000), -1, ...), a different run per
// argument and per round.
std::vector<uint8_t> narrow_bytes(size_t size, size_t argument, int round) {
  static constexpr uint8_t kPatterns[] = {0x81, 0x7f, 0xff, 0x80, 0x00, 0x01, 0xfe, 0x55, 0xaa, 0x7e, 0x3c, 0xc3};
  std::vector<uint8_t> bytes(size);
  for (size_t b = 0; b < size; ++b)
    bytes[b] = kPatterns[(b + argument * 5 + size_t(round) * 7) % std::size(kPatterns)];
  return bytes;
}

Program& narrow_program() {
  test::device();
  static Program p = build_program(test::device(), kNarrowSource, "narrow.cl", by_address());
  return p;
}

void run_narrow(const char* kernel_name, bool with_pad) {
  Kernel kernel = narrow_program().kernel(kernel_name);
  EXPECT_EQ(kernel.reflection().argument_buffer.has_value(), with_pad);
  const ModuleFeatures& features = narrow_program().reflection().features;
  EXPECT_FALSE(features.shader_float16);  // the half2 is only bits
  Buffer out(test::device(), kNarrowOut);
  for (int round = 0; round < 3; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    out.write(std::vector<uint8_t>(kNarrowOut, kUntouched));
    std::vector<uint8_t> want(kNarrowOut, kUntouched);
    kernel.set_arg("out", out);
    for (size_t a = 0; a < std::size(kNarrowArgs); ++a) {
      const NarrowArg& arg = kNarrowArgs[a];
      std::vector<uint8_t> bytes = narrow_bytes(arg.size, a, round);
      kernel.set_arg_bytes(kernel.arg_index(arg.name), std::as_bytes(std::span(bytes)));
      std::copy_n(bytes.begin(), arg.written, want.begin() + ptrdiff_t(arg.at));
    }
    if (with_pad) {
      std::vector<uint8_t> pad = narrow_bytes(64, 99, round);
      kernel.set_arg_bytes(kernel.arg_index("pad"), std::as_bytes(std::span(pad)));
      std::copy(pad.begin(), pad.end(), want.begin() + 80);
    }
    test::device().run(kernel, NDRange::make({1}, {1}));
    const std::vector<uint8_t> got = out.read<uint8_t>(kNarrowOut);
    for (size_t byte = 0; byte < kNarrowOut; ++byte) {
      std::string which = "padding";
      for (const NarrowArg& arg : kNarrowArgs)
        if (byte >= arg.at && byte < arg.at + arg.size) which = arg.name;
      if (byte >= 80) which = "pad";
      EXPECT_EQ(int(got[byte]), int(want[byte])) << "byte " << byte << " (" << which << ")";
    }
  }
}

TEST(KernelNarrowArguments, VectorsOf8And16BitsInThePushConstants) { run_narrow("narrow", false); }

TEST(KernelNarrowArguments, VectorsOf8And16BitsInTheArgumentBuffer) { run_narrow("narrow_in_buffer", true); }

// Half vectors computed on (Float16): each component converted to float.
TEST(KernelNarrowArguments, HalfVectorsComputedOn) {
  if (!test::device().features().shader_float16) GTEST_SKIP() << "the device lacks shaderFloat16";
  static constexpr const char* kSource = R"CL(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void halves(__global float* out, half2 j, half3 k, half8 l, half h) {
  out[0] = j.x; out[1] = j.y;
  out[2] = k.x; out[3] = k.y; out[4] = k.z;
  out[5] = l.s0; out[6] = l.s1; out[7] = l.s2; out[8] = l.s3; out[9] = l.s4; out[10] = l.s5; out[11] = l.s6; out[12] = l.s7;
  out[13] = h;
}
__kernel void halves_in_buffer(__global float* out, half2 j, half3 k, half8 l, half h, long16 pad) {
  out[0] = j.x; out[1] = j.y;
  out[2] = k.x; out[3] = k.y; out[4] = k.z;
  out[5] = l.s0; out[6] = l.s1; out[7] = l.s2; out[8] = l.s3; out[9] = l.s4; out[10] = l.s5; out[11] = l.s6; out[12] = l.s7;
  out[13] = h + (float)(pad.sf - 7);
}
)CL";
  Program program = build_program(test::device(), kSource, "halves.cl", by_address());
  // 1, -2, 65504, -0, 0.333..., -65504, 0.5, 2^-14 (the smallest normal), 3, -1.5, 1024, 0.099975
  static constexpr uint16_t kHalves[] = {0x3c00, 0xc000, 0x7bff, 0x8000, 0x3555, 0xfbff, 0x3800,
                                         0x0400, 0x4200, 0xbe00, 0x6400, 0x2e66, 0x3c00, 0xc000};
  auto to_float = [](uint16_t h) {
    const uint32_t sign = uint32_t(h >> 15) << 31, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
    uint32_t bits = sign;
    if (exponent != 0) bits |= ((exponent - 15 + 127) << 23) | (mantissa << 13);  // no subnormals or infinities here
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
  };
  for (const char* name : {"halves", "halves_in_buffer"}) {
    SCOPED_TRACE(name);
    Kernel kernel = program.kernel(name);
    EXPECT_EQ(kernel.reflection().argument_buffer.has_value(), std::string(name) == "halves_in_buffer");
    for (int round = 0; round < 2; ++round) {
      uint16_t v[14];
      for (size_t c = 0; c < 14; ++c) v[c] = kHalves[(c + size_t(round) * 5) % 14];
      Buffer out(test::device(), 14 * sizeof(float));
      kernel.set_arg("out", out);
      kernel.set_arg("j", std::array<uint16_t, 2>{v[0], v[1]});
      kernel.set_arg("k", std::array<uint16_t, 4>{v[2], v[3], v[4], 0x7e00});  // a NaN as padding
      std::array<uint16_t, 8> l;
      std::copy_n(v + 5, 8, l.begin());
      kernel.set_arg("l", l);
      kernel.set_arg("h", v[13]);
      if (std::string(name) == "halves_in_buffer") {
        std::array<int64_t, 16> pad{};
        pad[15] = 7;
        kernel.set_arg("pad", pad);
      }
      test::device().run(kernel, NDRange::make({1}, {1}));
      const std::vector<float> got = out.read<float>(14);
      for (size_t c = 0; c < 14; ++c) {
        uint32_t got_bits, want_bits;
        const float want = to_float(v[c]);
        std::memcpy(&got_bits, &got[c], 4);
        std::memcpy(&want_bits, &want, 4);
        EXPECT_EQ(got_bits, want_bits) << "round " << round << " value " << c << ": " << got[c] << " for " << want;
      }
    }
  }
}

// What the host checks in a reflection that has an argument buffer.
TEST(KernelArgumentBuffer, ReflectionChecks) {
  test::device();
  const std::vector<uint32_t> words =
      compile_module_for(test::device().features(), kSixteenSource, "arguments.cl").words;
  const ModuleReflection original = program().reflection();
  auto expect_refused = [&](auto change, std::initializer_list<std::string_view> message) {
    ModuleReflection r = original;
    KernelReflection& k = r.kernels.at(0);
    ASSERT_EQ(k.name, "sixteen");
    change(k);
    test::expect_error([&] { Program(test::device(), words, r); }, message);
  };
  expect_refused([](KernelReflection& k) { k.args.at(16).offset = 130; },
                 {"kernel 'sixteen'", "argument 16 (n): bytes [130, 134) are outside the argument buffer of 132 bytes"});
  expect_refused([](KernelReflection& k) { k.argument_buffer->offset = 60; },
                 {"the argument buffer's address at offset 60 is not an aligned 8 bytes inside the push-constant "
                  "block of 64 bytes"});
  expect_refused([](KernelReflection& k) { k.argument_buffer->offset = 16; },
                 {"ndrange field", "overlaps the argument buffer's address at offset 16"});
  expect_refused([](KernelReflection& k) { k.argument_buffer->size = kMaxArgumentBufferSize + 4; },
                 {"its arguments take 65540 bytes; vkcl passes at most 65536"});
  // Still bigger than the device's push constants: the error names the limit.
  ModuleReflection too_big = original;
  too_big.kernels.at(0).push_constant_size = 4096;
  Program loaded(test::device(), words, too_big);
  test::expect_error([&] { loaded.kernel("sixteen"); },
                     {"kernel 'sixteen' needs 4096 bytes of push constants", "maxPushConstantsSize = "});
}

}  // namespace
}  // namespace vkcl

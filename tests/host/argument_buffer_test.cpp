// Kernels whose arguments do not fit in Vulkan's guaranteed 128 bytes of push
// constants (lavapipe's maxPushConstantsSize) run with an argument buffer:
// sixteen global pointers each read and written with its own constant (a
// wrong offset mixes two up), a 160-byte struct by value, arguments changed
// between runs, several enqueues in one submission and several submissions
// in flight at once each with their own values, set_arg's checks as before,
// and the reflection checks that guard the argument buffer.
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <map>
#include <numeric>
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

Program& program() {
  test::device();  // first, so that it outlives the program
  static Program p = build_program(test::device(), kSixteenSource, "arguments.cl", {});
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

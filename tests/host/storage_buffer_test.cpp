// Pointer arguments bound as storage buffers (spirv/bind_storage_buffers.cpp,
// pushed by host/submission.cpp), run on the device: the pointer arithmetic
// the lowering turns into offsets gives the addresses the kernel meant, one
// buffer bound to two arguments behaves as one memory, views and offsets
// bind where they start, each enqueued kernel keeps its own buffers, what a
// storage buffer cannot take runs from the module with addresses that
// build_program gives the Program (and is an Error that names the limit in a
// Program without one), and build_program chooses storage buffers where they
// were measured faster.
// Every program here is compiled with storage buffers whatever the device's
// default (CompileOptions::max_storage_buffers), and the tests check the
// reflection says so.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <numeric>
#include <span>
#include <vector>

#include "test_device.h"
#include "vkcl/source_program.h"

namespace vkcl {
namespace {

CompileOptions with_storage_buffers() {
  CompileOptions options;
  options.cl_std = OpenCLStd::CL2_0;
  options.max_storage_buffers = 32;
  return options;
}

Program build(std::string_view source) { return build_program(test::device(), source, "storage_buffers.cl", with_storage_buffers()); }

// The same without the module with addresses to fall back to.
Program build_without_fallback(std::string_view source) {
  VulkanModule module = compile_module_for(test::device().features(), source, "storage_buffers.cl", with_storage_buffers());
  return Program(test::device(), module.words, std::move(module.reflection));
}

void expect_bound(const Kernel& kernel, uint32_t arg) {
  EXPECT_TRUE(kernel.reflection().args.at(arg).binding.has_value())
      << "kernel '" << kernel.name() << "' argument " << arg << " is not a storage buffer";
}

std::vector<int32_t> iota(size_t n, int32_t first = 0) {
  std::vector<int32_t> v(n);
  std::iota(v.begin(), v.end(), first);
  return v;
}

TEST(StorageBuffers, PointerArithmeticCastsAndLoops) {
  Program program = build(R"(
    typedef struct { char tag; int value; float4 v; } Record;  // value at 4, v at 16, 32 bytes
    __kernel void arithmetic(__global const int* in, __global int* out, __global const uchar* bytes,
                             __global const Record* records, __global const float* floats, int n) {
      int i = get_global_id(0);
      __global const int* end = in + n;
      int sum = end[-1 - i];                                   // a pointer past the end, indexed back
      sum += ((__global const int*)(bytes + 4 * i))[1];        // bytes as ints, one int on
      Record r = records[i];                                   // a struct copied whole
      sum += r.value + (int)r.v.z + r.tag;
      float3 f = vload3(i, floats);                            // a float3 at 12-byte steps
      sum += (int)(f.x + f.y + f.z);
      __global const int* p = in;
      for (int k = 0; k < i; ++k) p += 2;                      // a pointer carried by a loop
      sum += (i & 1) ? p[0] : p[1];                            // chosen by a select
      out[i] = sum;
    })");
  Kernel k = program.kernel("arithmetic");
  for (uint32_t arg : {0u, 1u, 2u, 3u, 4u}) expect_bound(k, arg);
  constexpr int n = 64;
  Buffer in(test::device(), (2 * n + 2) * 4), out(test::device(), n * 4), bytes(test::device(), (n + 2) * 4),
      records(test::device(), n * 32), floats(test::device(), n * 3 * 4);
  in.write(iota(2 * n + 2, 1000));
  bytes.write(iota(n + 2, 5000));
  std::vector<std::byte> record_bytes(n * 32);
  for (int i = 0; i < n; ++i) {
    record_bytes[i * 32] = std::byte(i);
    const int32_t value = 100 * i;
    const float v[4] = {0, 0, float(7 * i), 0};
    std::memcpy(&record_bytes[i * 32 + 4], &value, 4);
    std::memcpy(&record_bytes[i * 32 + 16], v, 16);
  }
  records.write(std::span<const std::byte>(record_bytes));
  std::vector<float> f(n * 3);
  for (int i = 0; i < n * 3; ++i) f[i] = float(i);
  floats.write(f);
  k.set_arg(0, in);
  k.set_arg(1, out);
  k.set_arg(2, bytes);
  k.set_arg(3, records);
  k.set_arg(4, floats);
  k.set_arg(5, int32_t(n));
  test::device().run(k, NDRange::make({n}));
  const std::vector<int32_t> got = out.read<int32_t>(n);
  for (int i = 0; i < n; ++i) {
    int want = 1000 + (n - 1 - i) + (5000 + i + 1) + 100 * i + 7 * i + i + (9 * i + 3);
    want += (i & 1) ? 1000 + 2 * i : 1000 + 2 * i + 1;
    EXPECT_EQ(got[i], want) << "work-item " << i;
  }
}

TEST(StorageBuffers, OneBufferBoundTwiceIsOneMemory) {
  // Without restrict the arguments may alias: each work-item writes through
  // one and reads back through the other, so a driver told they don't
  // alias (no Aliased decoration) could forward the first store.
  Program program = build(R"(
    __kernel void twice(__global int* a, __global int* b, __global int* seen) {
      int i = get_global_id(0);
      a[i] = i + 1;
      b[i] = b[i] * 10;
      seen[i] = a[i];
    })");
  Kernel k = program.kernel("twice");
  expect_bound(k, 0);
  expect_bound(k, 1);
  Buffer data(test::device(), 256 * 4), seen(test::device(), 256 * 4);
  k.set_arg(0, data);
  k.set_arg(1, data);
  k.set_arg(2, seen);
  test::device().run(k, NDRange::make({256}));
  const std::vector<int32_t> got = seen.read<int32_t>(256);
  for (int i = 0; i < 256; ++i) ASSERT_EQ(got[i], (i + 1) * 10) << "work-item " << i;
}

TEST(StorageBuffers, ViewsAndOffsetsBindWhereTheyStart) {
  Program program = build("__kernel void put(__global int* p) { p[get_global_id(0)] = get_global_id(0) + 1; }");
  Kernel k = program.kernel("put");
  expect_bound(k, 0);
  const size_t alignment = Buffer::view_alignment(test::device());
  Buffer whole(test::device(), 4 * alignment);
  whole.fill(int32_t(0));
  k.set_arg(0, whole.view(alignment), alignment);  // two steps in: a view, then an offset
  test::device().run(k, NDRange::make({4}));
  const std::vector<int32_t> got = whole.read<int32_t>(whole.size() / 4);
  for (size_t i = 0; i < got.size(); ++i) {
    const size_t first = 2 * alignment / 4;
    EXPECT_EQ(got[i], i >= first && i < first + 4 ? int32_t(i - first + 1) : 0) << "int " << i;
  }
}

TEST(StorageBuffers, EachEnqueuedKernelKeepsItsOwnBuffers) {
  Program program = build("__kernel void put(__global int* p, int v) { p[get_global_id(0)] = v; }");
  Kernel k = program.kernel("put");
  Buffer first(test::device(), 64 * 4), second(test::device(), 64 * 4);
  CommandList commands(test::device());
  k.set_arg(0, first);
  k.set_arg(1, int32_t(1));
  commands.enqueue(k, NDRange::make({64}));
  k.set_arg(0, second);
  k.set_arg(1, int32_t(2));
  commands.enqueue(k, NDRange::make({64}));
  test::device().submit(commands).wait();
  EXPECT_EQ(first.read<int32_t>(64), std::vector<int32_t>(64, 1));
  EXPECT_EQ(second.read<int32_t>(64), std::vector<int32_t>(64, 2));
}

TEST(StorageBuffers, WhatABindingCannotTakeIsAnErrorWithoutAModuleWithAddresses) {
  Program program = build_without_fallback("__kernel void put(__global int* p) { p[0] = 1; }");
  Kernel k = program.kernel("put");
  const VkPhysicalDeviceLimits& limits = test::device().properties().limits;
  Buffer buffer(test::device(), 4096);
  if (limits.minStorageBufferOffsetAlignment > 4) {
    test::expect_error([&] { k.set_arg(0, buffer, 4); },
                       {"argument 0 (p)", "offset 4", "minStorageBufferOffsetAlignment"});
  }
  const uint64_t too_big = uint64_t(limits.maxStorageBufferRange) + 4096;
  if (too_big <= test::device().info().max_allocation_size) {
    Buffer big(test::device(), too_big);
    test::expect_error([&] { k.set_arg(0, big); }, {"argument 0 (p)", "maxStorageBufferRange"});
  }
}

// An offset a binding cannot take: that enqueue runs from the module with
// addresses, the scalar after the pointer laid out as that module wants it;
// the next, at an offset that binds, from the storage-buffer module again.
TEST(StorageBuffers, AnOffsetABindingCannotTakeRunsByAddress) {
  Program program = build("__kernel void put(__global int* p, int v) { p[get_global_id(0)] = v + get_global_id(0); }");
  Kernel k = program.kernel("put");
  expect_bound(k, 0);
  const uint32_t alignment = uint32_t(test::device().properties().limits.minStorageBufferOffsetAlignment);
  if (alignment <= 4) GTEST_SKIP() << "every int offset binds here (minStorageBufferOffsetAlignment " << alignment << ")";
  Buffer buffer(test::device(), 2 * alignment + 64 * 4);
  buffer.fill(int32_t(0));
  k.set_arg(0, buffer, 4);
  k.set_arg(1, int32_t(100));
  test::device().run(k, NDRange::make({8}));
  k.set_arg(0, buffer, alignment);
  k.set_arg(1, int32_t(200));
  test::device().run(k, NDRange::make({8}));
  const std::vector<int32_t> got = buffer.read<int32_t>(buffer.size() / 4);
  for (size_t i = 0; i < got.size(); ++i) {
    int32_t expected = 0;
    if (i >= 1 && i < 9) expected = int32_t(100 + i - 1);
    if (i >= alignment / 4 && i < alignment / 4 + 8) expected = int32_t(200 + i - alignment / 4);
    EXPECT_EQ(got[i], expected) << "int " << i;
  }
}

// More than maxStorageBufferRange bytes: the kernel reaches the last int by address.
TEST(StorageBuffers, ABufferBeyondTheBindableRangeRunsByAddress) {
  Program program = build("__kernel void put(__global int* p, ulong at, int v) { p[at] = v; }");
  Kernel k = program.kernel("put");
  expect_bound(k, 0);
  const uint64_t size = uint64_t(test::device().properties().limits.maxStorageBufferRange) + 4096;
  if (size > test::device().info().max_allocation_size) GTEST_SKIP() << "no buffer beyond maxStorageBufferRange here";
  Buffer big(test::device(), size);
  k.set_arg(0, big);
  k.set_arg(1, uint64_t(size / 4 - 1));
  k.set_arg(2, int32_t(12345));
  test::device().run(k, NDRange::make({1}));
  const size_t alignment = Buffer::view_alignment(test::device());
  EXPECT_EQ(big.view(size - alignment).read<int32_t>(alignment / 4).back(), 12345);
}

// build_program's own choice: storage buffers on a CPU device (lavapipe),
// addresses elsewhere (docs/performance.md, "Argument passing"), unless
// VKCL_STORAGE_BUFFER_ARGUMENTS says otherwise.
TEST(StorageBuffers, BuildProgramChoosesStorageBuffersWhereTheyWereMeasuredFaster) {
  Program program = build_program(test::device(), "__kernel void put(__global int* p) { p[0] = 1; }", "choice.cl");
  const char* asked = std::getenv("VKCL_STORAGE_BUFFER_ARGUMENTS");
  const bool storage_buffers = asked && *asked ? std::strtoul(asked, nullptr, 10) > 0
                                               : test::device().properties().deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
  EXPECT_EQ(program.kernel("put").reflection().args.at(0).binding.has_value(),
            storage_buffers && test::device().features().push_descriptor);
}

}  // namespace
}  // namespace vkcl

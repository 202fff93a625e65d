// Buffers: both kinds of memory forced on one device (lavapipe offers only
// memory that is device-local and host-visible at once, so DeviceLocal there
// still takes the staging path a discrete GPU takes), views as kernel
// arguments, fill and copy on the device, and every size and offset misuse.
#include <gtest/gtest.h>

#include <numeric>

#include "test_device.h"
#include "vkcl/source_program.h"

namespace vkcl {
namespace {

using test::expect_error;

constexpr const char* kKernels = R"(
kernel void scale(global uint* data, global uint* out, uint k) {
  size_t i = get_global_id(0);
  out[i] = data[i] * k + 1u;
  data[i] = (uint)i;
}
kernel void mark(global uint* p, uint base) {
  p[get_global_id(0)] = base + (uint)get_global_id(0);
}
kernel void total(global const uint* in, global uint* out, uint n) {
  uint s = 0;
  for (uint i = 0; i < n; ++i) s += in[i];
  out[get_global_id(0)] = s;
}
)";

Program& program() {
  static Program p = build_program(test::device(), kKernels, "buffer_test.cl");
  return p;
}

std::vector<uint32_t> iota(size_t n, uint32_t first = 0) {
  std::vector<uint32_t> v(n);
  std::iota(v.begin(), v.end(), first);
  return v;
}

class BufferMemory : public testing::TestWithParam<Memory> {
 protected:
  BufferOptions options() const { return {GetParam()}; }
};

TEST(BufferAuto, HostVisibleWhereMemoryIsTheHostsElseDeviceLocal) {
  Buffer b(test::device(), 64);
  // lavapipe is a CPU device with one device-local heap: memory is the
  // host's. A discrete GPU (the H100) has a system-memory heap besides its own.
  DeviceInfo info = test::device().info();
  bool unified = info.type == VK_PHYSICAL_DEVICE_TYPE_CPU || info.type == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU;
  bool all_device_local = true;
  for (const MemoryHeapInfo& h : info.heaps) all_device_local &= h.device_local();
  if (info.driver_name == "llvmpipe") {
    EXPECT_TRUE(unified && all_device_local);
  }
  EXPECT_EQ(b.memory(), unified || all_device_local ? Memory::HostVisible : Memory::DeviceLocal);
  EXPECT_FALSE(b.is_view());
  EXPECT_EQ(b.offset(), 0u);
  EXPECT_NE(b.address(), 0u);
}

TEST_P(BufferMemory, KeepsTheKindAsked) {
  Buffer b(test::device(), 1000, options());
  EXPECT_EQ(b.memory(), GetParam());
  EXPECT_EQ(b.size(), 1000u);
  // Views at multiples of view_alignment() are as aligned as buffers.
  EXPECT_EQ(b.address() % Buffer::view_alignment(test::device()), 0u);
  EXPECT_EQ(b.view(128, 64).memory(), GetParam());
}

TEST_P(BufferMemory, WriteReadRoundTripsAtOffsets) {
  Buffer b(test::device(), 4096, options());
  b.fill(std::byte{0});
  std::vector<uint32_t> values = iota(100, 7);
  b.write(values, 12);
  EXPECT_EQ(b.read<uint32_t>(100, 12), values);
  EXPECT_EQ(b.read<uint32_t>(3, 0), (std::vector<uint32_t>{0, 0, 0}));
  EXPECT_EQ(b.read<uint32_t>(1, 412), (std::vector<uint32_t>{0}));
  // Odd offsets and sizes: read and write have no alignment rules.
  std::vector<uint8_t> odd{1, 2, 3, 4, 5};
  b.write(odd, 4091);
  EXPECT_EQ(b.read<uint8_t>(5, 4091), odd);
}

TEST_P(BufferMemory, KernelReadsAndWritesIt) {
  constexpr uint32_t n = 1000;
  Buffer data(test::device(), n * 4, options()), out(test::device(), n * 4, options());
  data.write(iota(n, 10));
  out.fill(std::byte{0xEE});
  Kernel k = program().kernel("scale");
  k.set_arg("data", data);
  k.set_arg("out", out);
  k.set_arg("k", 3u);
  test::device().run(k, NDRange::make({n}));
  std::vector<uint32_t> got = out.read<uint32_t>(n), rewritten = data.read<uint32_t>(n);
  for (uint32_t i = 0; i < n; ++i) {
    ASSERT_EQ(got[i], (i + 10) * 3 + 1) << "out[" << i << "]";
    ASSERT_EQ(rewritten[i], i) << "data[" << i << "]";
  }
}

// Staging moves at most 64 MiB at a time: this takes two chunks each way.
TEST_P(BufferMemory, LargeTransfersSpanStagingChunks) {
  constexpr size_t n = (size_t(70) << 20) / 4;
  Buffer b(test::device(), n * 4, options());
  std::vector<uint32_t> values = iota(n, 1);
  b.write(values);
  std::vector<uint32_t> got = b.read<uint32_t>(n);
  ASSERT_EQ(got.size(), n);
  EXPECT_TRUE(got == values) << "first mismatch at "
                             << (std::mismatch(got.begin(), got.end(), values.begin()).first - got.begin());
}

// Staging buffers are kept between transfers and reused by later ones of
// other sizes and directions: nothing of an earlier transfer may show
// through, and pattern fills (which stage their pattern) mix with them.
TEST_P(BufferMemory, TransfersOfEverySizeInTurnsSeeOnlyTheirOwnBytes) {
  constexpr size_t kBytes = size_t(2) << 20;
  Buffer b(test::device(), kBytes, options());
  std::vector<std::byte> expected(kBytes, std::byte{0});
  b.write(std::span<const std::byte>(expected));
  uint8_t next = 1;
  for (size_t size : {size_t(1), size_t(70000), size_t(3), size_t(1) << 20, size_t(5), size_t(65537), kBytes}) {
    const size_t offset = (kBytes - size) / 3;
    std::vector<std::byte> bytes(size);
    for (auto& byte : bytes) byte = std::byte{next++};
    b.write(std::span<const std::byte>(bytes), offset);
    std::copy(bytes.begin(), bytes.end(), expected.begin() + offset);
    std::vector<std::byte> got(size);
    b.read(std::span<std::byte>(got), offset);
    ASSERT_TRUE(got == bytes) << size << " bytes at " << offset;
    const std::array<std::byte, 3> pattern{std::byte{0xA1}, std::byte{0xB2}, std::byte{0xC3}};
    b.fill_pattern(pattern, 0, 3 * 1000);
    for (size_t i = 0; i < 3 * 1000; ++i) expected[i] = pattern[i % 3];
  }
  std::vector<std::byte> all(kBytes);
  b.read(std::span<std::byte>(all), 0);
  EXPECT_TRUE(all == expected) << "first mismatch at "
                               << (std::mismatch(all.begin(), all.end(), expected.begin()).first - all.begin());
}

TEST_P(BufferMemory, ViewsAreKernelArgumentsWithUntouchedNeighbours) {
  constexpr uint32_t n = 1024;
  Buffer b(test::device(), n * 4, options());
  b.fill(0xAAAAAAAAu);
  Buffer v = b.view(256, 256);  // uints 64..127
  EXPECT_TRUE(v.is_view());
  EXPECT_EQ(v.offset(), 256u);
  EXPECT_EQ(v.size(), 256u);
  EXPECT_EQ(v.address(), b.address() + 256);

  Kernel k = program().kernel("mark");
  k.set_arg("p", v);
  k.set_arg("base", 1000u);
  test::device().run(k, NDRange::make({64}));
  // A temporary view, and an offset into a view of a view: uints 512+4..
  k.set_arg("p", b.view(1024, 2048).view(1024), 16);
  k.set_arg("base", 5000u);
  test::device().run(k, NDRange::make({32}));

  std::vector<uint32_t> got = b.read<uint32_t>(n);
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t expected = 0xAAAAAAAAu;
    if (i >= 64 && i < 128) expected = 1000 + (i - 64);
    if (i >= 516 && i < 548) expected = 5000 + (i - 516);
    ASSERT_EQ(got[i], expected) << "uint " << i;
  }
  // A view reads and writes its own window of the allocation.
  EXPECT_EQ(v.read<uint32_t>(2, 8), (std::vector<uint32_t>{1002, 1003}));
  v.write(std::vector<uint32_t>{7, 8}, 248);
  EXPECT_EQ(b.read<uint32_t>(3, 504), (std::vector<uint32_t>{7, 8, 0xAAAAAAAAu}));
}

TEST_P(BufferMemory, ViewOutlivesItsBufferHandle) {
  std::optional<Buffer> b(std::in_place, test::device(), 1024, options());
  b->fill(std::byte{1});
  Buffer v = b->view(512);
  b.reset();  // the allocation lives on in the view
  Kernel k = program().kernel("mark");
  k.set_arg("p", v);
  k.set_arg("base", 9u);
  test::device().run(k, NDRange::make({128}));
  EXPECT_EQ(v.read<uint32_t>(128), iota(128, 9));
}

TEST_P(BufferMemory, FillPatterns) {
  Buffer b(test::device(), 256, options());
  b.fill(std::byte{0x11});
  EXPECT_EQ(b.read<uint8_t>(256), std::vector<uint8_t>(256, 0x11));

  b.fill(uint16_t{0xBEEF}, 64, 32);  // aligned: vkCmdFillBuffer
  b.fill(std::byte{0x22}, 3, 5);     // unaligned: copied from a block
  struct Rgb { float r, g, b; };
  b.fill(Rgb{1.0f, 2.0f, 3.0f}, 100, 36);  // a 12-byte pattern, 3 times
  std::vector<uint8_t> bytes = b.read<uint8_t>(256);
  for (size_t i = 0; i < 256; ++i) {
    uint8_t expected = 0x11;
    if (i >= 3 && i < 8) expected = 0x22;
    if (i >= 64 && i < 96) expected = (i % 2 == 0) ? 0xEF : 0xBE;
    if (i >= 100 && i < 136) {
      float f = float((i - 100) / 4 % 3 + 1);
      expected = reinterpret_cast<const uint8_t*>(&f)[(i - 100) % 4];
    }
    ASSERT_EQ(bytes[i], expected) << "byte " << i;
  }
}

// A 3-byte pattern over several MiB: many copy regions, a ragged last one.
TEST_P(BufferMemory, LargeOddPatternFill) {
  constexpr size_t size = 3 * ((size_t(3) << 20) + 5);
  Buffer b(test::device(), size + 10, options());
  b.fill(std::byte{0});
  const std::byte pattern[3] = {std::byte{1}, std::byte{2}, std::byte{3}};
  b.fill_pattern(pattern, 7, size);
  std::vector<uint8_t> got = b.read<uint8_t>(size + 10);
  for (size_t i = 0; i < got.size(); ++i) {
    uint8_t expected = (i >= 7 && i < 7 + size) ? uint8_t((i - 7) % 3 + 1) : 0;
    ASSERT_EQ(got[i], expected) << "byte " << i;
  }
}

TEST_P(BufferMemory, FillIsSeenByKernels) {
  Buffer in(test::device(), 64 * 4, options()), out(test::device(), 4, options());
  in.fill(5u);
  Kernel k = program().kernel("total");
  k.set_arg("in", in);
  k.set_arg("out", out);
  k.set_arg("n", 64u);
  test::device().run(k, NDRange::make({1}, {1}));
  EXPECT_EQ(out.read<uint32_t>(1)[0], 320u);
  in.fill(1u, 0, 32 * 4);  // a kernel's reads follow a later fill too
  test::device().run(k, NDRange::make({1}, {1}));
  EXPECT_EQ(out.read<uint32_t>(1)[0], 32u + 32u * 5u);
}

TEST_P(BufferMemory, CopyBetweenKindsViewsAndWithinOneBuffer) {
  Memory other = GetParam() == Memory::DeviceLocal ? Memory::HostVisible : Memory::DeviceLocal;
  Buffer a(test::device(), 1024, options()), b(test::device(), 1024, {other});
  a.write(iota(256));
  b.fill(0xFFFFFFFFu);
  Buffer::copy(a, b, 40, 400, 100);  // uints 10..34 to bytes 400..500
  std::vector<uint32_t> got = b.read<uint32_t>(256);
  for (uint32_t i = 0; i < 256; ++i)
    ASSERT_EQ(got[i], (i >= 100 && i < 125) ? i - 90 : 0xFFFFFFFFu) << "uint " << i;

  // Within one allocation, disjoint: the second half gets the first.
  Buffer::copy(a, a, 0, 512, 512);
  EXPECT_EQ(a.read<uint32_t>(128, 512), iota(128));
  // Views: offsets are theirs; a kernel's writes are copied after it ran.
  Buffer low = a.view(0, 512), high = a.view(512);
  Kernel k = program().kernel("mark");
  k.set_arg("p", low);
  k.set_arg("base", 77u);
  test::device().run(k, NDRange::make({128}));
  Buffer::copy(low, high, 8, 0, 8);
  EXPECT_EQ(a.read<uint32_t>(4, 512), (std::vector<uint32_t>{79, 80, 2, 3}));
  Buffer whole_copy(test::device(), 2048, options());
  Buffer::copy(a, whole_copy);
  EXPECT_EQ(whole_copy.read<uint32_t>(4, 512), (std::vector<uint32_t>{79, 80, 2, 3}));
}

INSTANTIATE_TEST_SUITE_P(Kinds, BufferMemory, testing::Values(Memory::DeviceLocal, Memory::HostVisible),
                         [](const testing::TestParamInfo<Memory>& info) {
                           return info.param == Memory::DeviceLocal ? "DeviceLocal" : "HostVisible";
                         });

TEST(BufferErrors, Sizes) {
  Device& d = test::device();
  expect_error([&] { Buffer(d, 0); }, {"Buffer", "size must not be 0"});
  expect_error([&] { Buffer(d, size_t(1) << 50); }, {"size 1125899906842624 bytes", "maxMemoryAllocationSize"});
}

// Only where device memory is the GPU's own: on a CPU device (lavapipe) it
// is the host's, and filling it would starve the machine instead.
TEST(BufferErrors, OutOfDeviceMemoryNamesSizeAndHeap) {
  Device& d = test::device();
  DeviceInfo info = d.info();
  if (info.type == VK_PHYSICAL_DEVICE_TYPE_CPU || info.type == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU)
    GTEST_SKIP() << info.summary() << ": device memory is host memory";
  uint64_t largest_heap = 0;
  for (const MemoryHeapInfo& h : info.heaps)
    if (h.device_local()) largest_heap = std::max(largest_heap, h.size);
  const size_t chunk = std::min<uint64_t>(info.max_allocation_size, uint64_t(1) << 32);
  std::vector<Buffer> held;
  for (uint64_t tries = 0; tries <= largest_heap / chunk + 2; ++tries) {
    try {
      held.emplace_back(d, chunk, BufferOptions{Memory::DeviceLocal});
    } catch (const Error& e) {
      std::string message = e.what();
      EXPECT_EQ(e.result(), VK_ERROR_OUT_OF_DEVICE_MEMORY) << message;
      for (std::string part : {"Buffer: cannot allocate " + std::to_string(chunk) + " bytes", std::string("device-local memory"),
                               std::string("heap 0 ("), std::string("VK_ERROR_OUT_OF_DEVICE_MEMORY")})
        EXPECT_NE(message.find(part), std::string::npos) << "expected '" << part << "' in: " << message;
      std::printf("after %zu buffers of %zu bytes: %s\n", held.size(), chunk, message.c_str());
      held.clear();
      Buffer after(d, 1024, {Memory::DeviceLocal});  // the device is usable again
      after.fill(7u);
      EXPECT_EQ(after.read<uint32_t>(1)[0], 7u);
      return;
    }
  }
  ADD_FAILURE() << held.size() << " buffers of " << chunk << " bytes fit in a " << largest_heap << "-byte heap";
}

TEST(BufferErrors, Views) {
  Buffer b(test::device(), 1024);
  size_t alignment = Buffer::view_alignment(test::device());
  EXPECT_EQ(alignment, std::max<size_t>(128, test::device().properties().limits.minStorageBufferOffsetAlignment));
  expect_error([&] { b.view(4, 16); }, {"Buffer::view", "offset 4", "multiple of " + std::to_string(alignment),
                                         "minStorageBufferOffsetAlignment"});
  expect_error([&] { b.view(1024); }, {"Buffer::view", "offset 1024", "buffer of 1024 bytes"});
  expect_error([&] { b.view(128, 0); }, {"Buffer::view", "size must not be 0"});
  expect_error([&] { b.view(896, 256); }, {"Buffer::view", "bytes [896, 1152)", "buffer of 1024 bytes"});
  Buffer v = b.view(512, 256);
  expect_error([&] { v.view(0, 512); }, {"Buffer::view", "bytes [0, 512)", "buffer of 256 bytes"});
  expect_error([&] { v.read<uint32_t>(65); }, {"Buffer::read", "bytes [0, 260)", "buffer of 256 bytes"});
  Kernel k = program().kernel("mark");
  expect_error([&] { k.set_arg("p", v, 256); }, {"argument 0 (p)", "offset 256", "buffer of 256 bytes"});
}

TEST(BufferErrors, ReadWrite) {
  Buffer b(test::device(), 100, {Memory::DeviceLocal});
  expect_error([&] { b.write(std::vector<uint32_t>(26)); }, {"Buffer::write", "bytes [0, 104)", "buffer of 100 bytes"});
  expect_error([&] { b.write(std::vector<uint8_t>(1), 100); }, {"Buffer::write", "bytes [100, 101)"});
  expect_error([&] { b.read<uint8_t>(2, 99); }, {"Buffer::read", "bytes [99, 101)", "buffer of 100 bytes"});
  expect_error([&] { b.read<uint8_t>(1, size_t(-1)); }, {"Buffer::read", "outside the buffer of 100 bytes"});
  b.write(std::vector<uint8_t>{}, 100);  // nothing, at the end: allowed
  EXPECT_TRUE(b.read<uint8_t>(0, 100).empty());
}

TEST(BufferErrors, Fill) {
  Buffer b(test::device(), 100);
  expect_error([&] { b.fill_pattern({}); }, {"Buffer::fill", "pattern has 0 bytes", "1 to 65536"});
  std::vector<std::byte> big(65537);
  expect_error([&] { b.fill_pattern(big); }, {"Buffer::fill", "pattern has 65537 bytes"});
  expect_error([&] { b.fill(uint32_t{1}, 0, 6); }, {"Buffer::fill", "size 6", "multiple of the pattern's 4 bytes"});
  expect_error([&] { b.fill(uint64_t{1}, 8); }, {"Buffer::fill", "size 92", "pattern's 8 bytes"});
  expect_error([&] { b.fill(std::byte{1}, 100); }, {"Buffer::fill", "offset 100", "buffer of 100 bytes"});
  expect_error([&] { b.fill(std::byte{1}, 0, 0); }, {"Buffer::fill", "size must not be 0"});
  expect_error([&] { b.fill(std::byte{1}, 50, 51); }, {"Buffer::fill", "bytes [50, 101)"});
}

TEST(BufferErrors, Copy) {
  Buffer a(test::device(), 100), b(test::device(), 64);
  expect_error([&] { Buffer::copy(a, b, 0, 0, 0); }, {"Buffer::copy", "size must not be 0"});
  expect_error([&] { Buffer::copy(a, b, 90, 0, 20); }, {"Buffer::copy", "source bytes [90, 110)", "source buffer of 100 bytes"});
  expect_error([&] { Buffer::copy(a, b, 0, 60, 8); },
               {"Buffer::copy", "destination bytes [60, 68)", "destination buffer of 64 bytes"});
  expect_error([&] { Buffer::copy(a, a, 0, 40, 50); }, {"Buffer::copy", "[0, 50)", "[40, 90)", "overlap"});
  Buffer v = a.view(0, 64);
  expect_error([&] { Buffer::copy(a, v, 16, 0, 32); }, {"Buffer::copy", "[16, 48)", "[0, 32)", "overlap"});
  expect_error([&] { Buffer::copy(a, b); }, {"Buffer::copy", "destination has 64 bytes", "source's 100"});
  Device other = Device::create();
  Buffer c(other, 100);
  expect_error([&] { Buffer::copy(a, c); }, {"Buffer::copy", "different Devices"});
}

}  // namespace
}  // namespace vkcl

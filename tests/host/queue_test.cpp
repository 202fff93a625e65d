// CommandList, Device::submit and Event: several kernels in one submission
// with in-order semantics, snapshots of arguments at enqueue, GPU timestamps,
// waits that time out, and misuse.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <numeric>

#include "test_device.h"
#include "vkcl/source_program.h"

namespace vkcl {
namespace {

using test::expect_error;

constexpr std::string_view kSource = R"(
// dst[i] = src[n - 1 - i] * 3 + add: every work-item reads what another
// work-group of the previous kernel wrote.
kernel void reverse_step(global const uint* src, global uint* dst, uint add, uint n) {
  uint i = get_global_id(0);
  if (i < n) dst[i] = src[n - 1 - i] * 3u + add;
}
kernel void set_value(global uint* out, uint value) { out[get_global_id(0)] = value; }
kernel void add_one(global uint* data) { data[get_global_id(0)] += 1u; }
kernel void sum_scratch(global uint* out, local uint* scratch) {
  scratch[get_local_id(0)] = 1u;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) out[get_group_id(0)] = scratch[get_local_size(0) - 1];
}
)";

Program& program() {
  static Program p = build_program(test::device(), kSource, "queue_test.cl");
  return p;
}

// 2^16 + 37 work-items in groups of 64: a non-uniform range, so every kernel
// of the chain is itself two dispatches.
constexpr uint32_t kItems = (1u << 16) + 37;

std::vector<uint32_t> host_reverse_step(const std::vector<uint32_t>& src, uint32_t add) {
  std::vector<uint32_t> dst(src.size());
  for (size_t i = 0; i < src.size(); ++i) dst[i] = src[src.size() - 1 - i] * 3u + add;
  return dst;
}

TEST(Queue, ChainOfKernelsEachReadsWhatThePreviousWrote) {
  Device& dev = test::device();
  Kernel step = program().kernel("reverse_step");
  std::vector<uint32_t> initial(kItems);
  std::iota(initial.begin(), initial.end(), 1u);
  Buffer a(dev, kItems * 4), b(dev, kItems * 4);
  a.write(initial);
  b.write(std::vector<uint32_t>(kItems, 0xdeadbeef));

  // Eight steps ping-ponging between a and b, with the same Kernel object
  // re-pointed between enqueues; without a barrier between them a step reads
  // its source before the previous step has written it.
  constexpr int kSteps = 8;
  CommandList commands(dev);
  std::vector<uint32_t> expected = initial;
  for (int s = 0; s < kSteps; ++s) {
    const bool from_a = s % 2 == 0;
    step.set_arg("src", from_a ? a : b);
    step.set_arg("dst", from_a ? b : a);
    step.set_arg("add", uint32_t(s + 1));
    step.set_arg("n", kItems);
    EXPECT_EQ(commands.enqueue(step, NDRange::make({kItems}, {64})), size_t(s));
    expected = host_reverse_step(expected, s + 1);
  }
  EXPECT_EQ(commands.kernel_count(), size_t(kSteps));
  Event event = dev.submit(commands);
  event.wait();
  EXPECT_TRUE(event.done());
  std::vector<uint32_t> result = a.read<uint32_t>(kItems);  // an even number of steps ends in a
  size_t wrong = 0;
  for (size_t i = 0; i < kItems; ++i) wrong += result[i] != expected[i];
  EXPECT_EQ(wrong, 0u) << "first: [0] = " << result[0] << ", expected " << expected[0];
}

TEST(Queue, ArgumentsChangedAfterEnqueueDoNotAffectIt) {
  Device& dev = test::device();
  Kernel set = program().kernel("set_value");
  Buffer first(dev, 256 * 4), second(dev, 256 * 4);
  first.write(std::vector<uint32_t>(256, 0));
  second.write(std::vector<uint32_t>(256, 0));
  CommandList commands(dev);
  set.set_arg("out", first);
  set.set_arg("value", 11u);
  commands.enqueue(set, NDRange::make({256}));
  set.set_arg("out", second);
  set.set_arg("value", 22u);
  commands.enqueue(set, NDRange::make({128}));
  set.set_arg("out", first);  // neither enqueued: must change nothing
  set.set_arg("value", 33u);
  {
    // A buffer dropped after enqueue lives on in the snapshot until the
    // submission ends; the validation layer would report its use otherwise.
    Buffer temporary(dev, 64 * 4);
    Kernel other = program().kernel("set_value");
    other.set_arg("out", temporary);
    other.set_arg("value", 44u);
    commands.enqueue(other, NDRange::make({64}));
  }
  dev.submit(commands).wait();
  EXPECT_EQ(first.read<uint32_t>(256), std::vector<uint32_t>(256, 11u));
  std::vector<uint32_t> expected_second(256, 0);
  std::fill(expected_second.begin(), expected_second.begin() + 128, 22u);
  EXPECT_EQ(second.read<uint32_t>(256), expected_second);
}

TEST(Queue, ListSubmittedTwiceWithoutWaitingRunsTwiceInOrder) {
  Device& dev = test::device();
  Kernel add = program().kernel("add_one");
  Buffer data(dev, 4096 * 4);
  data.write(std::vector<uint32_t>(4096, 5));
  add.set_arg(0, data);
  CommandList commands(dev);
  commands.enqueue(add, NDRange::make({4096}, {64}));
  commands.enqueue(add, NDRange::make({4096}, {64}));
  // The second submission's read-modify-writes must see the first's: the
  // Device is one in-order queue across submissions too.
  Event first = dev.submit(commands);
  Event second = dev.submit(commands);
  second.wait();
  first.wait();
  EXPECT_EQ(data.read<uint32_t>(4096), std::vector<uint32_t>(4096, 9u));
}

// Copies between kernels, as the corpus benchmark restores a kernel's
// outputs on the device between timed runs: each kernel sees the copy before
// it, each copy sees the kernel before it, and views copy their own bytes.
TEST(Queue, CopiesAreOrderedWithKernels) {
  Device& dev = test::device();
  Kernel add = program().kernel("add_one");
  Buffer data(dev, 4096 * 4), pristine(dev, 4096 * 4), snapshot(dev, 4096 * 4);
  pristine.write(std::vector<uint32_t>(4096, 10));
  data.write(std::vector<uint32_t>(4096, 0xdeadbeef));
  add.set_arg(0, data);
  CommandList commands(dev);
  for (int run = 0; run < 3; ++run) {
    commands.copy(pristine, data);  // back to 10 before every run
    commands.enqueue(add, NDRange::make({4096}, {64}));
    commands.enqueue(add, NDRange::make({4096}, {64}));
  }
  commands.copy(data, snapshot);
  commands.enqueue(add, NDRange::make({4096}, {64}));
  EXPECT_EQ(commands.kernel_count(), size_t(7));
  Event event = dev.submit(commands, {.timestamps = dev.has_timestamps()});
  event.wait();
  if (dev.has_timestamps()) {
    EXPECT_EQ(event.kernel_times().size(), size_t(7));
  }
  EXPECT_EQ(snapshot.read<uint32_t>(4096), std::vector<uint32_t>(4096, 12u));
  EXPECT_EQ(data.read<uint32_t>(4096), std::vector<uint32_t>(4096, 13u));

  // Views: the middle of one buffer into the start of another's view.
  const size_t alignment = Buffer::view_alignment(dev);
  Buffer whole(dev, 4 * alignment), other(dev, 4 * alignment);
  std::vector<std::byte> bytes(4 * alignment);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = std::byte(i * 7);
  whole.write(bytes);
  other.write(std::vector<std::byte>(4 * alignment, std::byte{0}));
  CommandList views(dev);
  views.copy(whole.view(alignment, 2 * alignment), other.view(2 * alignment, 2 * alignment));
  dev.submit(views).wait();
  std::vector<std::byte> result(4 * alignment);
  other.read(result);
  for (size_t i = 0; i < result.size(); ++i) {
    const std::byte expected = i >= 2 * alignment ? bytes[i - alignment] : std::byte{0};
    ASSERT_EQ(result[i], expected) << "byte " << i;
  }
}

TEST(QueueErrors, CopyChecksSizesOverlapAndDevice) {
  Device& dev = test::device();
  const size_t alignment = Buffer::view_alignment(dev);
  Buffer small(dev, alignment), large(dev, 4 * alignment);
  CommandList commands(dev);
  expect_error([&] { commands.copy(large, small); }, {"CommandList::copy", "cannot hold"});
  expect_error([&] { commands.copy(large.view(0, 2 * alignment), large.view(alignment, 2 * alignment)); },
               {"CommandList::copy", "overlap"});
  commands.copy(large.view(0, alignment), large.view(alignment, alignment));  // neighbours do not overlap
  Device other = Device::create();
  Buffer foreign(other, alignment);
  expect_error([&] { commands.copy(foreign, small); }, {"CommandList::copy", "another Device"});
  EXPECT_EQ(commands.kernel_count(), size_t(0));
  EXPECT_FALSE(commands.empty());
}

TEST(Queue, LocalArgumentSnapshot) {
  Device& dev = test::device();
  Kernel k = program().kernel("sum_scratch");
  Buffer out(dev, 16 * 4);
  out.write(std::vector<uint32_t>(16, 0));
  k.set_arg(0, out);
  k.set_local_arg(1, 64 * 4);
  CommandList commands(dev);
  commands.enqueue(k, NDRange::make({64 * 4}, {64}));
  k.set_local_arg(1, 4);  // too small for a group of 64 had it been used
  dev.submit(commands).wait();
  EXPECT_EQ(out.read<uint32_t>(4), std::vector<uint32_t>(4, 1u));
}

TEST(Queue, TimestampsArePositiveAndOrdered) {
  Device& dev = test::device();
  Kernel step = program().kernel("reverse_step");
  Buffer a(dev, kItems * 4), b(dev, kItems * 4);
  a.write(std::vector<uint32_t>(kItems, 1));
  CommandList commands(dev);
  for (int s = 0; s < 3; ++s) {
    step.set_arg("src", s % 2 ? b : a);
    step.set_arg("dst", s % 2 ? a : b);
    step.set_arg("add", 0u);
    step.set_arg("n", kItems);
    commands.enqueue(step, NDRange::make({kItems}, {64}));
  }
  Kernel set = program().kernel("set_value");
  set.set_arg("out", b);
  set.set_arg("value", 7u);
  commands.enqueue(set, NDRange::make({0}));  // empty range: timed, at zero cost
  if (!dev.has_timestamps()) {
    expect_error([&] { dev.submit(commands, {.timestamps = true}); }, {"timestamps were asked for", "timestampValidBits"});
    GTEST_SKIP() << dev.name() << " cannot write timestamps";
  }
  Event event = dev.submit(commands, {.timestamps = true});
  std::vector<KernelTime> times = event.kernel_times();
  ASSERT_EQ(times.size(), 4u);
  EXPECT_EQ(times[0].start.count(), 0);
  for (size_t i = 0; i < times.size(); ++i) {
    EXPECT_EQ(times[i].kernel, i < 3 ? "reverse_step" : "set_value");
    if (i < 3) {
      EXPECT_GT(times[i].duration().count(), 0) << "kernel " << i;
    }
    EXPECT_GE(times[i].duration().count(), 0) << "kernel " << i;
    if (i > 0) {
      EXPECT_GE(times[i].start, times[i - 1].end) << "kernel " << i << " started before " << i - 1 << " ended";
    }
  }
  // Read once, the same on every call.
  EXPECT_EQ(event.kernel_times()[2].end, times[2].end);
  std::printf("reverse_step over %u items: %lld ns, %lld ns, %lld ns\n", kItems,
              static_cast<long long>(times[0].duration().count()), static_cast<long long>(times[1].duration().count()),
              static_cast<long long>(times[2].duration().count()));
}

TEST(Queue, KernelTimesWithoutTimestampsIsAnError) {
  Device& dev = test::device();
  Kernel set = program().kernel("set_value");
  Buffer out(dev, 64 * 4);
  set.set_arg("out", out);
  set.set_arg("value", 1u);
  CommandList commands(dev);
  commands.enqueue(set, NDRange::make({64}));
  Event event = dev.submit(commands);
  expect_error([&] { event.kernel_times(); }, {"kernel_times", "kernel 'set_value'", "without timestamps"});
  EXPECT_TRUE(event.done());  // kernel_times waited before it refused
}

TEST(Queue, EmptyListIsAMarker) {
  Device& dev = test::device();
  CommandList commands(dev);
  EXPECT_TRUE(commands.empty());
  Event event = dev.submit(commands, {.timestamps = dev.has_timestamps()});
  event.wait();
  EXPECT_TRUE(event.done());
  if (dev.has_timestamps()) {
    EXPECT_TRUE(event.kernel_times().empty());
  }
}

TEST(Queue, WaitTimesOutOnAKernelThatDoesNotEndThenSucceeds) {
  // Its own device: the one that timed out stays busy until the kernel ends.
  Device dev = Device::create();
  Program spin_program(dev, test::shader("spin"));
  Kernel spin = spin_program.kernel("spin");
  Program source_program = build_program(dev, kSource, "queue_test.cl");
  Kernel set = source_program.kernel("set_value");
  constexpr uint32_t kSpinItems = 1 << 16;
  Buffer out(dev, kSpinItems * 4), marker(dev, 4);
  out.write(std::vector<uint32_t>(kSpinItems, 0));
  marker.write(std::vector<uint32_t>{0});
  spin.set_arg(0, out);
  // As in Errors.TimeoutIsAnErrorNotAHang: about a second on lavapipe, tens of
  // milliseconds on an H100; far beyond 1 ms anywhere.
  const bool cpu = dev.properties().deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
  spin.set_arg(1, cpu ? 8u : 4096u);
  set.set_arg("out", marker);
  set.set_arg("value", 99u);
  CommandList commands(dev);
  commands.enqueue(spin, NDRange::make({kSpinItems}, {64}));
  commands.enqueue(set, NDRange::make({1}));

  dev.set_timeout(std::chrono::milliseconds(1));
  Event event = dev.submit(commands);
  EXPECT_FALSE(event.done());
  try {
    event.wait();
    ADD_FAILURE() << "expected a timeout";
  } catch (const Error& e) {
    EXPECT_EQ(e.result(), VK_TIMEOUT);
    const std::string message = e.what();
    EXPECT_NE(message.find("kernels 'spin', 'set_value' did not finish within 1 ms"), std::string::npos) << message;
    EXPECT_NE(message.find("VK_TIMEOUT"), std::string::npos) << message;
  }
  // The submission goes on; a later wait with a generous timeout sees it end,
  // and the in-order chain did run its second kernel after the first.
  dev.set_timeout(std::chrono::seconds(60));
  event.wait();
  EXPECT_TRUE(event.done());
  EXPECT_EQ(marker.read<uint32_t>(1)[0], 99u);
  std::vector<uint32_t> spun = out.read<uint32_t>(kSpinItems);
  EXPECT_EQ(std::count(spun.begin(), spun.end(), 0u), 0) << "every spin work-item writes a nonzero value";
}

TEST(Queue, DroppingAnEventThatIsStillRunningKeepsTheDeviceUsable) {
  Device dev = Device::create();
  Program spin_program(dev, test::shader("spin"));
  Kernel spin = spin_program.kernel("spin");
  constexpr uint32_t kSpinItems = 1 << 16;
  std::optional<Buffer> out(std::in_place, dev, kSpinItems * 4);
  spin.set_arg(0, *out);
  spin.set_arg(1, dev.properties().deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU ? 4u : 2048u);
  {
    CommandList commands(dev);
    commands.enqueue(spin, NDRange::make({kSpinItems}, {64}));
    Event dropped = dev.submit(commands);
    out.reset();  // the submission keeps the buffer's memory alive
  }
  Buffer small(dev, 4);
  small.write(std::vector<uint32_t>{0});
  spin.set_arg(0, small);
  spin.set_arg(1, 1u);
  dev.run(spin, NDRange::make({1}, {1}));  // in order: after the dropped one
  uint32_t value = small.read<uint32_t>(1)[0];
  EXPECT_GE(value, 1u);
  EXPECT_LE(value, 1000u);
}

// Waits for the host: spins until *flag is nonzero, then records what it saw.
// An atomic load at device scope, so that the compiler keeps the loop and
// every load reads memory rather than a stale copy. A GPU spins until the
// host writes the flag; llvmpipe ends any loop after 65535 iterations
// (gallivm's loop limiter), so there the grid's size makes the run last
// (about a minute for 2^20 work-items on two cores).
constexpr std::string_view kWaitForHostSource = R"(
kernel void wait_for_flag(volatile global atomic_int* flag, global int* seen) {
  int value;
  while ((value = atomic_load_explicit(flag, memory_order_relaxed, memory_scope_device)) == 0) {
  }
  seen[get_global_id(0)] = value;
}
kernel void set_value(global uint* out, uint value) { out[get_global_id(0)] = value; }
)";

TEST(Queue, KernelWaitingForTheHostTimesOutThenFinishesWhenReleased) {
  // Its own device: this one has work that times out.
  Device dev = Device::create();
  CompileOptions options;
  options.cl_std = OpenCLStd::CL2_0;
  Program program = build_program(dev, kWaitForHostSource, "wait_for_host.cl", options);
  Kernel wait = program.kernel("wait_for_flag");
  Kernel set = program.kernel("set_value");
  // The flag in host-visible coherent memory: Buffer::write is then a store
  // through the mapping, which does not go through the queue (where it would
  // wait behind the kernel) and so works while the kernel runs.
  Buffer flag(dev, 4, {Memory::HostVisible});
  ASSERT_EQ(flag.memory(), Memory::HostVisible);
  flag.write(std::vector<int32_t>{0});
  constexpr uint32_t kItems = 1 << 20;
  Buffer seen(dev, kItems * 4), marker(dev, 4);
  seen.fill(int32_t{-1});
  marker.fill(0u);
  wait.set_arg(0, flag);
  wait.set_arg(1, seen);
  set.set_arg(0, marker);
  set.set_arg(1, 7u);

  dev.set_timeout(std::chrono::milliseconds(200));
  CommandList waiting(dev), after(dev);
  waiting.enqueue(wait, NDRange::make({kItems}, {64}));
  after.enqueue(set, NDRange::make({1}));
  Event event = dev.submit(waiting);
  expect_error([&] { event.wait(); }, {"kernel 'wait_for_flag' did not finish within 200 ms", "VK_TIMEOUT"});
  // The device still takes work; in order, it queues behind the kernel, so
  // its wait times out too and the error names the earlier timeout.
  Event behind = dev.submit(after);
  try {
    behind.wait();
    ADD_FAILURE() << "expected a timeout: the kernel before it is still waiting for the host";
  } catch (const Error& e) {
    EXPECT_EQ(e.result(), VK_TIMEOUT);
    const std::string message = e.what();
    EXPECT_NE(message.find("kernel 'set_value' did not finish within 200 ms"), std::string::npos) << message;
    EXPECT_NE(message.find("queued behind kernel 'wait_for_flag', whose wait timed out earlier"), std::string::npos)
        << message;
  }

  // The host releases the kernel: everything finishes, and new work runs.
  flag.write(std::vector<int32_t>{1});
  dev.set_timeout(std::chrono::seconds(60));
  event.wait();
  behind.wait();
  EXPECT_EQ(marker.read<uint32_t>(1)[0], 7u);
  set.set_arg(1, 8u);
  dev.run(set, NDRange::make({1}));
  EXPECT_EQ(marker.read<uint32_t>(1)[0], 8u);
  const std::vector<int32_t> values = seen.read<int32_t>(kItems);
  EXPECT_EQ(std::count(values.begin(), values.end(), -1), 0) << "every work-item of the kernel ran to its end";
  if (dev.properties().deviceType != VK_PHYSICAL_DEVICE_TYPE_CPU) {
    // llvmpipe's loop limiter ends some loops before the flag is set.
    EXPECT_EQ(std::count(values.begin(), values.end(), 1), kItems) << "every work-item saw the host's flag";
  }
}

TEST(Queue, DestroyingADeviceWhoseKernelOutlivesTheTimeoutDoesNotWaitForIt) {
  // A kernel far longer than the timeout (about 8 s of llvmpipe on two
  // cores; on an H100, a few timeouts): ~DeviceState waits for it at most
  // one more timeout, then leaks the device instead of waiting.
  const auto timeout = std::chrono::milliseconds(100);
  std::chrono::duration<double> destroying{};
  {
    DeviceOptions options;
    options.timeout = timeout;
    Device dev = Device::create(options);
    Program spin_program(dev, test::shader("spin"));
    Kernel spin = spin_program.kernel("spin");
    constexpr uint32_t kSpinItems = 1 << 20;
    Buffer out(dev, kSpinItems * 4);
    spin.set_arg(0, out);
    spin.set_arg(1, dev.properties().deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU ? 8u : 4096u);
    expect_error([&] { dev.run(spin, NDRange::make({kSpinItems}, {64})); }, {"kernel 'spin' did not finish within 100 ms"});
    auto start = std::chrono::steady_clock::now();
    {
      // The handles go in this order; the device is destroyed with the last.
      Kernel dropped = std::move(spin);
      Program dropped_program = std::move(spin_program);
      Buffer dropped_out = std::move(out);
      Device dropped_device = std::move(dev);
    }
    destroying = std::chrono::steady_clock::now() - start;
  }
  std::printf("destroying the device took %.3f s\n", destroying.count());
  EXPECT_LT(destroying.count(), 2.0) << "~DeviceState waited for the kernel instead of at most the timeout";
}

TEST(QueueErrors, KernelOfAnotherDevice) {
  Device other = Device::create();
  Program other_program = build_program(other, kSource, "queue_test.cl");
  Kernel foreign = other_program.kernel("add_one");
  Buffer data(other, 64 * 4);
  foreign.set_arg(0, data);
  CommandList commands(test::device());
  expect_error([&] { commands.enqueue(foreign, NDRange::make({64})); },
               {"kernel 'add_one'", "belongs to a program of another Device"});
  EXPECT_TRUE(commands.empty());

  CommandList other_commands(other);
  other_commands.enqueue(foreign, NDRange::make({64}));
  expect_error([&] { test::device().submit(other_commands); }, {"Device::submit", "another Device"});
}

TEST(QueueErrors, UnsetArgumentsAtEnqueue) {
  Kernel step = program().kernel("reverse_step");
  Buffer a(test::device(), 64);
  step.set_arg("src", a);
  step.set_arg("n", 16u);
  CommandList commands(test::device());
  expect_error([&] { commands.enqueue(step, NDRange::make({16})); },
               {"kernel 'reverse_step'", "argument(s) not set: 1 (dst), 2 (add)"});
  EXPECT_EQ(commands.kernel_count(), 0u);
}

TEST(QueueErrors, BufferDestroyedBeforeEnqueue) {
  Kernel set = program().kernel("set_value");
  set.set_arg("value", 1u);
  {
    Buffer temporary(test::device(), 64);
    set.set_arg("out", temporary);
  }
  CommandList commands(test::device());
  expect_error([&] { commands.enqueue(set, NDRange::make({16})); }, {"argument 0 (out)", "destroyed after set_arg"});
}

TEST(QueueErrors, LimitsAreCheckedAtEnqueueNotAtSubmit) {
  Device& dev = test::device();
  const auto& limits = dev.properties().limits;
  Kernel k = program().kernel("sum_scratch");
  Buffer out(dev, 64);
  k.set_arg(0, out);
  k.set_local_arg(1, limits.maxComputeSharedMemorySize + 4);
  CommandList commands(dev);
  expect_error([&] { commands.enqueue(k, NDRange::make({64}, {64})); },
               {"kernel 'sum_scratch'", "bytes of __local memory",
                "maxComputeSharedMemorySize = " + std::to_string(limits.maxComputeSharedMemorySize)});
  k.set_local_arg(1, 64 * 4);
  const uint64_t too_many = uint64_t(limits.maxComputeWorkGroupInvocations) * 2;
  expect_error([&] { commands.enqueue(k, NDRange::make({too_many}, {too_many})); },
               {"kernel 'sum_scratch'", "maxComputeWorkGroup"});
  expect_error([&] { commands.enqueue(k, NDRange::make({64}, {64}, {UINT32_MAX})); }, {"kernel 'sum_scratch'", "2^32"});
  EXPECT_TRUE(commands.empty());
  // What failed left the list as it was: the good kernel still runs alone.
  out.write(std::vector<uint32_t>(16, 0));
  commands.enqueue(k, NDRange::make({64}, {64}));
  dev.submit(commands).wait();
  EXPECT_EQ(out.read<uint32_t>(2), (std::vector<uint32_t>{1, 0}));
}

}  // namespace
}  // namespace vkcl

// Every misuse the runtime must catch, and the words its Error must contain.
#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>

#include "test_device.h"

namespace vkcl {
namespace {

using test::expect_error;

struct Probe {
  Program program{test::device(), test::shader("ndrange_probe")};
  Kernel kernel = program.kernel("ndrange_probe");
  Buffer records{test::device(), 64 * 32 * 4};
  Buffer counter{test::device(), 4};

  void set_all() {
    kernel.set_arg(0, records);
    kernel.set_arg(1, counter);
    kernel.set_arg(2, 1u);
    kernel.set_local_arg(3, 64 * 4);
  }
};

TEST(Errors, ScalarOfTheWrongSize) {
  Probe p;
  expect_error([&] { p.kernel.set_arg(2, uint64_t{1}); }, {"argument 2 (tag)", "takes 4 bytes", "has 8"});
  expect_error([&] { p.kernel.set_arg("tag", uint8_t{1}); }, {"argument 2 (tag)", "takes 4 bytes", "has 1"});
}

TEST(Errors, ArgumentOfTheWrongKind) {
  Probe p;
  expect_error([&] { p.kernel.set_arg(0, 1u); }, {"argument 0 (records)", "global_pointer", "pass a Buffer"});
  expect_error([&] { p.kernel.set_arg(2, p.records); }, {"argument 2 (tag)", "scalar", "not a global or constant pointer"});
  expect_error([&] { p.kernel.set_local_arg(1, 64); }, {"argument 1 (counter)", "not a __local pointer"});
  expect_error([&] { p.kernel.set_arg(3, 1u); }, {"argument 3 (scratch)", "set_local_arg"});
}

TEST(Errors, NoSuchArgument) {
  Probe p;
  expect_error([&] { p.kernel.set_arg(4, 1u); }, {"has 4 argument(s)", "no argument 4"});
  expect_error([&] { p.kernel.set_arg("nope", 1u); }, {"no argument named 'nope'", "records, counter, tag, scratch"});
}

TEST(Errors, LocalSizeNotAMultipleOfTheElement) {
  Probe p;
  expect_error([&] { p.kernel.set_local_arg(3, 6); }, {"argument 3 (scratch)", "6 bytes", "element size 4"});
  expect_error([&] { p.kernel.set_local_arg(3, 0); }, {"argument 3 (scratch)", "0 bytes"});
}

TEST(Errors, BufferOffsetOutsideTheBuffer) {
  Probe p;
  expect_error([&] { p.kernel.set_arg(1, p.counter, 4); }, {"argument 1 (counter)", "offset 4", "4 bytes"});
}

TEST(Errors, UnsetArguments) {
  Probe p;
  p.kernel.set_arg(0, p.records);
  p.kernel.set_arg(1, p.counter);
  expect_error([&] { test::device().run(p.kernel, NDRange::make({64}, {64})); },
               {"kernel 'ndrange_probe'", "not set: 2 (tag), 3 (scratch)"});
}

TEST(Errors, BufferDestroyedAfterSetArg) {
  Probe p;
  p.set_all();
  {
    Buffer temporary(test::device(), 64);
    p.kernel.set_arg(1, temporary);
  }
  expect_error([&] { test::device().run(p.kernel, NDRange::make({64}, {64})); },
               {"argument 1 (counter)", "destroyed"});
}

TEST(Errors, LocalSizeAboveTheDeviceLimit) {
  Probe p;
  p.set_all();
  const auto& limits = test::device().properties().limits;
  uint64_t too_many = uint64_t(limits.maxComputeWorkGroupInvocations) * 2;
  expect_error([&] { test::device().run(p.kernel, NDRange::make({too_many}, {too_many})); },
               {"kernel 'ndrange_probe'", "maxComputeWorkGroup"});
  uint64_t too_wide = uint64_t(limits.maxComputeWorkGroupSize[1]) + 1;
  expect_error([&] { test::device().run(p.kernel, NDRange::make({1, too_wide}, {1, too_wide})); },
               {"maxComputeWorkGroupSize[1]"});
}

TEST(Errors, LocalMemoryAboveTheDeviceLimit) {
  Probe p;
  p.set_all();
  uint32_t limit = test::device().properties().limits.maxComputeSharedMemorySize;
  p.kernel.set_local_arg(3, limit + 4);
  expect_error([&] { test::device().run(p.kernel, NDRange::make({64}, {64})); },
               {"bytes of __local memory", "maxComputeSharedMemorySize = " + std::to_string(limit)});
}

TEST(Errors, PushConstantsAboveTheDeviceLimit) {
  Device& dev = test::device();
  auto words = test::read_words(test::shader("ndrange_probe"));
  auto reflection = parse_reflection(test::read_text(test::shader("ndrange_probe").string() + ".reflection"));
  uint32_t limit = dev.properties().limits.maxPushConstantsSize;
  reflection.kernels[0].push_constant_size = limit + 4;
  Program program(dev, words, reflection);
  expect_error([&] { program.kernel("ndrange_probe"); },
               {"kernel 'ndrange_probe'", std::to_string(limit + 4) + " bytes of push constants",
                "maxPushConstantsSize = " + std::to_string(limit)});
}

TEST(Errors, ReflectionThatDoesNotFitTheModule) {
  Device& dev = test::device();
  auto words = test::read_words(test::shader("ndrange_probe"));
  auto good = parse_reflection(test::read_text(test::shader("ndrange_probe").string() + ".reflection"));

  auto renamed = good;
  renamed.kernels[0].name = "other";
  expect_error([&] { Program(dev, words, renamed); }, {"kernel 'other'", "no GLCompute entry point"});

  auto outside = good;
  outside.kernels[0].args[2].offset = 200;
  expect_error([&] { Program(dev, words, outside); }, {"argument 2 (tag)", "outside the push-constant block of 116 bytes"});

  auto reserved = good;
  reserved.kernels[0].args[3].spec_id = 1;
  expect_error([&] { Program(dev, words, reserved); }, {"argument 3 (scratch)", "specialization id 1"});

  Program program(dev, words, good);
  expect_error([&] { program.kernel("nope"); }, {"no kernel 'nope'", "it has: ndrange_probe"});
  expect_error([&] { Program(dev, std::vector<uint32_t>{1, 2, 3, 4, 5}, good); }, {"not a SPIR-V module"});
  expect_error([&] { Program(dev, std::filesystem::path("/nonexistent/x.spv")); }, {"cannot open /nonexistent/x.spv"});
}

TEST(Errors, MissingDeviceFeaturesAreNamed) {
  Device& dev = test::device();
  auto words = test::read_words(test::shader("ndrange_probe"));
  auto reflection = parse_reflection(test::read_text(test::shader("ndrange_probe").string() + ".reflection"));
  ModuleFeatures everything;
  everything.buffer_device_address = everything.vulkan_memory_model = everything.vulkan_memory_model_device_scope =
      everything.shader_int64 = everything.shader_int8 = everything.shader_int16 = everything.shader_float64 =
          everything.shader_float16 = everything.storage_buffer_8bit = everything.storage_buffer_16bit =
              everything.variable_pointers = everything.subgroup_basic = true;
  auto missing = missing_features(everything, dev.features());
  if (missing.empty()) GTEST_SKIP() << dev.name() << " has every feature a module can ask for";
  reflection.features = everything;
  std::string first(missing.front());
  expect_error([&] { Program(dev, words, reflection); }, {"needs features that", first});
}

TEST(Errors, BufferRangesAreChecked) {
  Buffer buffer(test::device(), 16);
  std::vector<std::byte> bytes(8);
  expect_error([&] { buffer.write(bytes, 12); }, {"Buffer::write", "[12, 20)", "16 bytes"});
  expect_error([&] { buffer.read(bytes, 9); }, {"Buffer::read", "[9, 17)"});
  expect_error([&] { Buffer(test::device(), 0); }, {"size must not be 0"});
}

// --- Misuse with no test above (issue 7): each an Error naming the problem --

// The probe kernel's module with its reflection changed by `edit`.
template <typename Edit>
Program probe_program(Device& dev, Edit&& edit) {
  auto words = test::read_words(test::shader("ndrange_probe"));
  auto reflection = parse_reflection(test::read_text(test::shader("ndrange_probe").string() + ".reflection"));
  edit(reflection);
  return Program(dev, words, reflection);
}

TEST(Errors, NDRangeOfTheWrongShape) {
  expect_error([] { NDRange::make({}); }, {"NDRange::make", "1 to 3 global sizes, not 0"});
  expect_error([] { NDRange::make({1, 2, 3, 4}); }, {"NDRange::make", "not 4"});
  expect_error([] { NDRange::make({64, 64}, {8}); }, {"local and offset need as many entries as global (2)"});
  expect_error([] { NDRange::make({64}, {}, {0, 0}); }, {"local and offset need as many entries as global (1)"});
  Probe p;
  p.set_all();
  NDRange four_dims = NDRange::make({64});
  four_dims.dims = 4;
  expect_error([&] { test::device().run(p.kernel, four_dims); }, {"dims must be 1, 2 or 3, not 4"});
}

TEST(Errors, ZeroAndTooLargeNDRangeSizes) {
  Probe p;
  p.set_all();
  Device& dev = test::device();
  expect_error([&] { dev.run(p.kernel, NDRange::make({64, 2}, {64, 0})); }, {"local size 64x0", "has a 0"});
  expect_error([&] { dev.run(p.kernel, NDRange::make({uint64_t(1) << 32}, {64})); },
               {"global size 4294967296 in dimension 0", "exceeds 2^32 - 1"});
  expect_error([&] { dev.run(p.kernel, NDRange::make({64}, {64}, {UINT32_MAX})); },
               {"global offset 4294967295 + global size 64", "exceeds 2^32"});
  // A zero global size runs nothing (OpenCL 2.1), once the arguments are checked.
  dev.run(p.kernel, NDRange::make({0}, {64}));
  Kernel unset = p.program.kernel("ndrange_probe");
  expect_error([&] { dev.run(unset, NDRange::make({0})); }, {"not set: 0 (records), 1 (counter), 2 (tag), 3 (scratch)"});
}

TEST(Errors, LocalSizeOtherThanTheRequiredOne) {
  Program program = probe_program(test::device(), [](ModuleReflection& r) {
    r.kernels[0].required_work_group_size = {32, 1, 1};
  });
  Probe p;
  Kernel kernel = program.kernel("ndrange_probe");
  kernel.set_arg(0, p.records);
  kernel.set_arg(1, p.counter);
  kernel.set_arg(2, 1u);
  kernel.set_local_arg(3, 64 * 4);
  expect_error([&] { test::device().run(kernel, NDRange::make({64}, {64})); },
               {"local size 64", "differs from the kernel's reqd_work_group_size 32x1x1"});
}

TEST(Errors, BufferOfAnotherDevice) {
  Probe p;
  Device other = Device::create();
  Buffer foreign(other, 64 * 32 * 4);
  expect_error([&] { p.kernel.set_arg(0, foreign); }, {"argument 0 (records)", "the buffer belongs to another Device"});
}

TEST(Errors, LocalArgumentOfFarTooManyBytes) {
  Probe p;
  const uint64_t bytes = (uint64_t(UINT32_MAX) + 1) * 4;
  expect_error([&] { p.kernel.set_local_arg(3, bytes); },
               {"argument 3 (scratch)", std::to_string(bytes) + " bytes of __local memory is far too many"});
}

TEST(Errors, StaticLocalMemoryAboveTheDeviceLimit) {
  // A kernel whose own __local arrays (clc counts them, reflection's
  // static_local_memory) exceed the device: refused at enqueue.
  const uint32_t limit = test::device().properties().limits.maxComputeSharedMemorySize;
  Program program = probe_program(test::device(), [&](ModuleReflection& r) {
    r.kernels[0].static_local_memory = limit;
  });
  Probe p;
  Kernel kernel = program.kernel("ndrange_probe");
  kernel.set_arg(0, p.records);
  kernel.set_arg(1, p.counter);
  kernel.set_arg(2, 1u);
  kernel.set_local_arg(3, 64 * 4);
  expect_error([&] { test::device().run(kernel, NDRange::make({64}, {64})); },
               {"kernel 'ndrange_probe' needs " + std::to_string(limit + 256) + " bytes of __local memory",
                std::to_string(limit) + " in the kernel", "maxComputeSharedMemorySize = " + std::to_string(limit)});
}

TEST(Errors, ModuleForFeaturesTheDeviceLacks) {
  // Every feature a module may ask for, withheld from a device in turn: the
  // module that needs it is refused with the feature's name, whatever the
  // hardware (the test above needs a device that lacks one).
  const ModuleFeatures available = test::device().features();
  int tried = 0;
  auto try_feature = [&](bool ModuleFeatures::*feature, const char* name) {
    if (!(available.*feature)) return;
    DeviceOptions options;
    options.withheld_features.*feature = true;
    Device lesser = Device::create(options);
    EXPECT_FALSE(lesser.features().*feature) << name;
    expect_error([&] { probe_program(lesser, [&](ModuleReflection& r) { r.features.*feature = true; }); },
                 {"the module needs features that", "lacks: " + std::string(name)});
    ++tried;
  };
  try_feature(&ModuleFeatures::shader_int64, "shader_int64");
  try_feature(&ModuleFeatures::shader_float64, "shader_float64");
  try_feature(&ModuleFeatures::subgroup_basic, "subgroup_basic");
  try_feature(&ModuleFeatures::vulkan_memory_model, "vulkan_memory_model");
  try_feature(&ModuleFeatures::shader_buffer_int64_atomics, "shader_buffer_int64_atomics");
  if (tried == 0) GTEST_SKIP() << test::device().name() << " has none of the features withheld here";
}

TEST(Errors, MalformedModules) {
  Device& dev = test::device();
  auto words = test::read_words(test::shader("ndrange_probe"));
  auto reflection = parse_reflection(test::read_text(test::shader("ndrange_probe").string() + ".reflection"));
  expect_error([&] { Program(dev, std::vector<uint32_t>{}, reflection); }, {"not a SPIR-V module"});
  auto zero_count = words;
  zero_count[5] = 0;  // the first instruction claims zero words
  expect_error([&] { Program(dev, zero_count, reflection); }, {"SPIR-V: malformed instruction at word 5"});
  auto truncated = std::vector<uint32_t>(words.begin(), words.begin() + 6);
  truncated[5] = (100u << 16) | 17u;  // an OpCapability of 100 words in a 6-word module
  expect_error([&] { Program(dev, truncated, reflection); }, {"SPIR-V: malformed instruction at word 5"});
}

TEST(Errors, HandlesOutliveWhatTheyWereMadeFrom) {
  // Use after release, the way vkcl's handles share ownership: a Kernel
  // keeps its Program (and Device) alive, so dropping the Program first is
  // safe and the kernel still runs; a kernel of another Device is refused.
  Device& dev = test::device();
  std::optional<Kernel> kernel;
  {
    Program program(dev, test::shader("ndrange_probe"));
    kernel.emplace(program.kernel("ndrange_probe"));
  }
  Buffer records(dev, 64 * 32 * 4), counter(dev, 4);
  kernel->set_arg(0, records);
  kernel->set_arg(1, counter);
  kernel->set_arg(2, 7u);
  kernel->set_local_arg(3, 64 * 4);
  counter.fill(std::byte{0});
  dev.run(*kernel, NDRange::make({64}, {64}));
  EXPECT_EQ(counter.read<uint32_t>(1)[0], 64u);

  Device other = Device::create();
  expect_error([&] { other.run(*kernel, NDRange::make({64}, {64})); }, {"kernel 'ndrange_probe'", "another Device"});
}

// VKCL_DEVICE is read at Device::create; the explicit selector wins over it.
class EnvDevice : public ::testing::Test {
 protected:
  void TearDown() override { unsetenv("VKCL_DEVICE"); }
};

TEST_F(EnvDevice, UnknownNameListsTheDevices) {
  setenv("VKCL_DEVICE", "no-such-gpu", 1);
  expect_error([] { Device::create(); }, {"VKCL_DEVICE='no-such-gpu' matches no Vulkan device", "0: "});
  auto devices = Device::available();
  ASSERT_FALSE(devices.empty());
  expect_error([] { Device::create(); }, {devices.front()});
}

TEST_F(EnvDevice, IndexOutOfRange) {
  setenv("VKCL_DEVICE", "99", 1);
  expect_error([] { Device::create(); }, {"VKCL_DEVICE='99'"});
}

TEST_F(EnvDevice, SelectsByIndexAndByName) {
  auto devices = Device::available();
  setenv("VKCL_DEVICE", "0", 1);
  EXPECT_EQ(Device::create().describe(), devices[0]);
  std::string name = test::device().name();
  std::string upper;
  for (char ch : name.substr(0, 4)) upper += static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  setenv("VKCL_DEVICE", upper.c_str(), 1);  // case-insensitive substring
  EXPECT_NE(Device::create().name().find(name.substr(0, 4)), std::string::npos);
  setenv("VKCL_DEVICE", "no-such-gpu", 1);
  EXPECT_EQ(Device::create("0").describe(), devices[0]);  // the argument overrides the variable
}

TEST(Errors, TimeoutIsAnErrorNotAHang) {
  // Its own device: the one that timed out stays busy until the kernel ends.
  Device dev = Device::create();
  Program program(dev, test::shader("spin"));
  Kernel kernel = program.kernel("spin");
  constexpr uint32_t kItems = 1 << 16;
  Buffer out(dev, kItems * 4);
  kernel.set_arg(0, out);
  // 2^16 work-items * 4096 * iterations steps: about a second on lavapipe
  // (which also cuts long loops short, hence few iterations there) and tens of
  // milliseconds on an H100, far more than 1 ms anywhere.
  const bool cpu = dev.properties().deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
  kernel.set_arg(1, cpu ? 8u : 4096u);
  dev.set_timeout(std::chrono::milliseconds(1));
  try {
    dev.run(kernel, NDRange::make({kItems}, {64}));
    ADD_FAILURE() << "expected a timeout";
  } catch (const Error& e) {
    EXPECT_EQ(e.result(), VK_TIMEOUT);
    EXPECT_NE(std::string(e.what()).find("did not finish within 1 ms"), std::string::npos) << e.what();
  }
  // The device is still usable once the long kernel is done.
  dev.set_timeout(std::chrono::seconds(60));
  kernel.set_arg(1, 1u);
  out.fill(std::byte{0});
  dev.run(kernel, NDRange::make({1}, {1}));
  // uint(fract(...) * 1000) + 1; the exact value depends on FMA contraction.
  uint32_t value = out.read<uint32_t>(1)[0];
  EXPECT_GE(value, 1u);
  EXPECT_LE(value, 1000u);
}

}  // namespace
}  // namespace vkcl

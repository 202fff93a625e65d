// The on-disk pipeline cache: the file a Device writes, a second Device that
// loads it, and files that must be ignored (corrupt, truncated, foreign).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <fstream>

#include "pipeline_cache.h"
#include "test_device.h"
#include "vkcl/source_program.h"

namespace vkcl {
namespace {

using test::expect_error;

namespace fs = std::filesystem;
using detail::PipelineCache;

bool contains(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

std::vector<std::byte> read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> bytes(chars.size());
  std::memcpy(bytes.data(), chars.data(), chars.size());
  return bytes;
}

void write_bytes(const fs::path& path, std::span<const std::byte> bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

// A fresh directory per test, removed afterwards.
class PipelineCacheTest : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("vkcl-pipeline-cache-" + std::to_string(::getpid()) + "-" +
                                        testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  Device make_device() {
    DeviceOptions options;
    options.pipeline_cache_dir = dir_;
    return Device::create(options);
  }

  // Builds and runs a kernel on `device`, checking its result: every new
  // Program makes a new pipeline, so each Device creates at least one.
  static void run_kernel(Device& device) {
    Program program = build_program(device, "kernel void twice(global uint* p) { p[get_global_id(0)] *= 2u; }",
                                    "twice.cl");
    Kernel k = program.kernel("twice");
    Buffer b(device, 64 * 4);
    std::vector<uint32_t> values(64);
    for (uint32_t i = 0; i < 64; ++i) values[i] = i + 1;
    b.write(values);
    k.set_arg(0, b);
    device.run(k, NDRange::make({64}, {16}));
    std::vector<uint32_t> got = b.read<uint32_t>(64);
    for (uint32_t i = 0; i < 64; ++i) ASSERT_EQ(got[i], 2 * (i + 1)) << "p[" << i << "]";
  }

  fs::path file() const { return dir_ / PipelineCache::file_name(test::device().properties()); }

  fs::path dir_;
};

TEST_F(PipelineCacheTest, FileNameNamesDeviceDriverAndUuid) {
  VkPhysicalDeviceProperties p{};
  p.vendorID = 0x10de;
  p.deviceID = 0x2330;
  p.driverVersion = 0x8a4a8000;
  for (uint32_t i = 0; i < VK_UUID_SIZE; ++i) p.pipelineCacheUUID[i] = uint8_t(i * 17);
  EXPECT_EQ(PipelineCache::file_name(p),
            "vkcl-10de-2330-8a4a8000-00112233445566778899aabbccddeeff.pipeline-cache");
}

TEST_F(PipelineCacheTest, WrittenThenLoadedByASecondDevice) {
  size_t saved = 0;
  {
    Device first = make_device();
    PipelineCacheStatus s = first.pipeline_cache_status();
    EXPECT_TRUE(s.enabled);
    EXPECT_EQ(s.file, file());
    EXPECT_EQ(s.loaded_bytes, 0u);
    EXPECT_EQ(s.ignored, "");
    EXPECT_FALSE(fs::exists(s.file));
    run_kernel(first);
    EXPECT_GE(first.pipeline_cache_status().pipelines_created, 1u);
  }  // saved when the Device goes
  ASSERT_TRUE(fs::exists(file()));
  {
    std::vector<std::byte> contents = read_bytes(file());
    std::span<const std::byte> data;
    EXPECT_EQ(PipelineCache::check(contents, test::device().properties(), data), "");
    // The Vulkan header inside is this device's.
    VkPipelineCacheHeaderVersionOne header;
    ASSERT_GE(data.size(), sizeof header);
    std::memcpy(&header, data.data(), sizeof header);
    EXPECT_EQ(header.headerVersion, VK_PIPELINE_CACHE_HEADER_VERSION_ONE);
    EXPECT_EQ(header.vendorID, test::device().properties().vendorID);
    EXPECT_EQ(0, std::memcmp(header.pipelineCacheUUID, test::device().properties().pipelineCacheUUID, VK_UUID_SIZE));
    saved = data.size();
  }
  // No temporary files left behind.
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);

  Device second = make_device();
  PipelineCacheStatus s = second.pipeline_cache_status();
  EXPECT_EQ(s.ignored, "");
  EXPECT_EQ(s.loaded_bytes, saved);  // the whole file's data went to the driver
  run_kernel(second);
  s = second.pipeline_cache_status();
  EXPECT_GE(s.pipelines_created, 1u);
  // A driver that stores pipelines (more than the 32-byte header) reports
  // them found; lavapipe stores none, so there it is the load that is tested.
  if (saved > sizeof(VkPipelineCacheHeaderVersionOne) && second.properties().apiVersion >= VK_API_VERSION_1_3)
    EXPECT_GE(s.cache_hits, 1u);
  else
    std::printf("the driver's cache data is %zu bytes: no pipelines in it to hit\n", saved);
  second.save_pipeline_cache();
  EXPECT_EQ(second.pipeline_cache_status().saved_bytes, read_bytes(file()).size() - 56);
}

TEST_F(PipelineCacheTest, EnvironmentVariableTurnsItOn) {
  ASSERT_EQ(::setenv("VKCL_PIPELINE_CACHE", dir_.c_str(), 1), 0);
  {
    Device device = Device::create();
    EXPECT_TRUE(device.pipeline_cache_status().enabled);
    EXPECT_EQ(device.pipeline_cache_status().file, file());
    run_kernel(device);
  }
  ::unsetenv("VKCL_PIPELINE_CACHE");
  EXPECT_TRUE(fs::exists(file()));
  Device without = Device::create();
  EXPECT_FALSE(without.pipeline_cache_status().enabled);
  expect_error([&] { without.save_pipeline_cache(); }, {"no pipeline cache was asked for", "VKCL_PIPELINE_CACHE"});
}

TEST_F(PipelineCacheTest, CorruptTruncatedAndForeignFilesAreIgnored) {
  const VkPhysicalDeviceProperties& p = test::device().properties();
  {
    Device device = make_device();
    run_kernel(device);
  }
  const std::vector<std::byte> good = read_bytes(file());
  std::span<const std::byte> data;
  ASSERT_EQ(PipelineCache::check(good, p, data), "");
  const std::vector<std::byte> vulkan(data.begin(), data.end());

  auto ignored = [&](std::vector<std::byte> contents, std::string_view reason) {
    SCOPED_TRACE(std::string(reason));
    write_bytes(file(), contents);
    {
      Device device = make_device();
      PipelineCacheStatus s = device.pipeline_cache_status();
      EXPECT_TRUE(contains(s.ignored, reason)) << "expected '" << reason << "' in: " << s.ignored;
      EXPECT_EQ(s.loaded_bytes, 0u);
      run_kernel(device);
    }
    std::span<const std::byte> replaced;
    EXPECT_EQ(PipelineCache::check(read_bytes(file()), p, replaced), "") << "the ignored file was not replaced";
  };

  ignored({}, "0 bytes, fewer than vkcl's 56-byte header");
  std::vector<std::byte> garbage(4096);
  for (size_t i = 0; i < garbage.size(); ++i) garbage[i] = std::byte(i * 7 + 3);
  ignored(garbage, "not a vkcl pipeline cache (bad magic)");
  ignored(std::vector<std::byte>(good.begin(), good.end() - 1), "truncated");
  std::vector<std::byte> flipped = good;
  flipped.back() ^= std::byte{0x40};
  ignored(flipped, "checksum does not match");

  VkPhysicalDeviceProperties other = p;
  other.vendorID ^= 1;
  ignored(PipelineCache::envelope(vulkan, other), "written for vendor");
  other = p;
  other.driverVersion += 1;
  ignored(PipelineCache::envelope(vulkan, other), "written by driver version");
  other = p;
  other.pipelineCacheUUID[3] ^= 0xff;
  ignored(PipelineCache::envelope(vulkan, other), "written for pipelineCacheUUID");

  // The envelope is right but the driver data inside names another device.
  std::vector<std::byte> foreign = vulkan;
  VkPipelineCacheHeaderVersionOne header;
  std::memcpy(&header, foreign.data(), sizeof header);
  header.pipelineCacheUUID[0] ^= 0xff;
  std::memcpy(foreign.data(), &header, sizeof header);
  ignored(PipelineCache::envelope(foreign, p), "its Vulkan header names vendor");
  header.pipelineCacheUUID[0] ^= 0xff;
  header.headerVersion = VkPipelineCacheHeaderVersion(2);
  std::memcpy(foreign.data(), &header, sizeof header);
  ignored(PipelineCache::envelope(foreign, p), "its Vulkan header has version 2");
  ignored(PipelineCache::envelope(std::span(vulkan).first(16), p), "fewer than a VkPipelineCacheHeaderVersionOne");
}

TEST_F(PipelineCacheTest, DirectoryThatCannotBeCreatedIsAnError) {
  fs::create_directories(dir_);
  write_bytes(dir_ / "a-file", std::vector<std::byte>(4));
  DeviceOptions options;
  options.pipeline_cache_dir = dir_ / "a-file" / "cache";
  expect_error([&] { Device::create(options); },
               {"DeviceOptions::pipeline_cache_dir", "a-file/cache", "cannot create the pipeline cache directory"});
}

}  // namespace
}  // namespace vkcl

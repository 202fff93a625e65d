// DeviceOptions::pipeline_statistics: the driver's statistics of each
// pipeline (VK_KHR_pipeline_executable_properties), one line per pipeline
// built, for comparing modules in benchmarks. Devices without the extension
// (lavapipe in Mesa 22.3) report none; the test is skipped there after
// checking that.
#include <gtest/gtest.h>

#include "test_device.h"
#include "vkcl/source_program.h"

namespace vkcl {
namespace {

constexpr const char* kSource = "kernel void twice(global uint* p) { p[get_global_id(0)] *= 2u; }";

// Runs `twice` with two local sizes (two pipelines) and returns the program's statistics.
std::vector<std::string> statistics_of_two_pipelines(Device& device) {
  Program program = build_program(device, kSource, "twice.cl");
  Kernel k = program.kernel("twice");
  Buffer b(device, 64 * 4);
  b.fill(uint32_t(3));
  k.set_arg(0, b);
  device.run(k, NDRange::make({64}, {64}));
  device.run(k, NDRange::make({64}, {16}));
  EXPECT_EQ(b.read<uint32_t>(64), std::vector<uint32_t>(64, 12u));
  return program.pipeline_statistics();
}

TEST(PipelineStatistics, OnlyWhenAskedFor) {
  DeviceOptions options;
  options.pipeline_statistics = false;
  Device device = Device::create(options);
  EXPECT_TRUE(statistics_of_two_pipelines(device).empty());
}

TEST(PipelineStatistics, OneLinePerPipelineWhereTheDeviceHasThem) {
  DeviceOptions options;
  options.pipeline_statistics = true;
  Device device = Device::create(options);
  const std::vector<std::string> lines = statistics_of_two_pipelines(device);
  if (lines.empty()) GTEST_SKIP() << device.describe() << " has no VK_KHR_pipeline_executable_properties";
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].rfind("kernel 'twice' 64x1x1: ", 0), 0u) << lines[0];
  EXPECT_EQ(lines[1].rfind("kernel 'twice' 16x1x1: ", 0), 0u) << lines[1];
  for (const std::string& line : lines) EXPECT_NE(line.find(" = "), std::string::npos) << line;
}

}  // namespace
}  // namespace vkcl

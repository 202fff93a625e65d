// The result files of the corpus workers (worker.h): what one writes, the
// other side reads back, timing line included. No device, no OpenCL.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "worker.h"

namespace vkcl::corpus {
namespace {

TEST(WorkerResult, WrittenThenParsed) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("vkcl_worker_result_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  write_result(dir, "algo_x", ".opencl", "opencl-error", 1.5, "clBuildProgram failed:\nline 2");
  const WorkerResult result = parse_result(read_text(dir / "algo_x.opencl"));
  EXPECT_EQ(result.status, "opencl-error");
  EXPECT_DOUBLE_EQ(result.seconds, 1.5);
  EXPECT_EQ(result.details, "clBuildProgram failed:\nline 2");
  EXPECT_FALSE(std::filesystem::exists(dir / "algo_x.opencl.tmp"));
  std::filesystem::remove_all(dir);
}

TEST(WorkerResult, TimingLineRoundTrips) {
  const KernelTiming timing{.median_ms = 0.012345, .min_ms = 0.0101, .runs = 10, .host_clock = true};
  const std::string details = timing_line(timing) + "\nbuild 0.1 s, run 0.2 s";
  const std::optional<KernelTiming> found = find_timing("ok\n" + details);
  ASSERT_TRUE(found);
  EXPECT_NEAR(found->median_ms, 0.012345, 1e-6);
  EXPECT_NEAR(found->min_ms, 0.0101, 1e-6);
  EXPECT_EQ(found->runs, 10);
  EXPECT_TRUE(found->host_clock);
  EXPECT_FALSE(find_timing("build 0.1 s, run 0.2 s"));
  EXPECT_FALSE(find_timing("kernel time (ms): median x"));
}

TEST(WorkerResult, MedianOfOddAndEvenCounts) {
  EXPECT_EQ(median({3, 1, 2}), 2);
  EXPECT_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_EQ(median({}), 0);
}

}  // namespace
}  // namespace vkcl::corpus

// What a vkcl-corpus-bench run found for each kernel, and the statistics of
// vkcl's speed against each OpenCL platform.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "worker.h"

namespace vkcl::corpus_bench {

// One OpenCL platform's result for one kernel.
struct PlatformResult {
  // "ok" (ran, outputs agree with vkcl's, timed), "mismatch", "not compared"
  // (vkcl has no outputs), or the worker's status (opencl-error, ...).
  std::string status;
  std::string detail;
  std::optional<corpus::KernelTiming> timing;
};

struct KernelResult {
  std::string id;
  std::string skipped;  // the @bench-skip reason, or why the header could not be read
  std::string vkcl_status = "not run", vkcl_detail;
  std::optional<corpus::KernelTiming> vkcl_timing;
  std::vector<PlatformResult> platforms;  // in Platform order
  bool listed = false;                    // in the expected-failures list

  // OpenCL time / vkcl time (above 1: vkcl faster); 0 when either is missing
  // or the outputs differ.
  double ratio(size_t platform) const;
};

struct Platform {
  std::string name;         // the column: "pocl", "rusticl", "nvidia", ...
  std::string description;  // its platform.txt, on one line
  std::string unavailable;  // why it ran nothing
};

struct Run {
  std::vector<std::string> header;  // date, command, devices
  std::vector<Platform> platforms;
  std::vector<KernelResult> kernels;
  double threshold_ms = 0.02;  // the summary's geomean and target count kernels whose OpenCL time exceeds it
};

// The distribution of one platform's ratios.
struct RatioSummary {
  int timed = 0, above_threshold = 0, below_target = 0;  // below_target: under 0.8x among those above the threshold
  double geomean_all = 0, geomean_above = 0;
  std::vector<size_t> worst;  // kernel indices, lowest ratio first, at most ten
  // Bins: <0.5, 0.5-0.6, ..., 1.9-2.0, >=2; all timed kernels, and those above the threshold.
  static constexpr size_t kBins = 17;
  std::array<int, kBins> histogram_all{}, histogram_above{};
  static std::string bin_label(size_t bin);
};
RatioSummary summarize(const Run& run, size_t platform);

}  // namespace vkcl::corpus_bench

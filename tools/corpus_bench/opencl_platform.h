// One OpenCL platform of the benchmark, through the differential test's
// OpenCL worker (vkcl_diff_opencl --repeat N): a process per kernel, so
// that the tool runs one implementation at a time and the OpenCL
// implementation's LLVM never shares vkcl's process.
#pragma once

#include <filesystem>
#include <string>

#include "corpus.h"
#include "results.h"
#include "side.h"

namespace vkcl::corpus_bench {

class OpenClPlatform {
 public:
  // `selector`: a substring of the platform's name; empty: the worker's default.
  OpenClPlatform(std::string worker, std::string selector, std::filesystem::path scratch, bool bench_scale, int repeat);

  // Runs `file`'s kernel (`spec`: as it runs, for reading the outputs
  // back). The result's timing and status come from the worker; `outputs`
  // gets its checked buffers.
  PlatformResult run(const corpus::KernelSpec& spec, corpus::Side& outputs);

  const Platform& platform() const { return platform_; }

 private:
  std::vector<std::string> command_;
  std::filesystem::path scratch_;
  Platform platform_;
  bool described_ = false;
};

// The outcome of `result` once vkcl's side is known: "mismatch" when the
// outputs differ, "not compared" when vkcl has none.
void judge(const corpus::KernelSpec& spec, const corpus::Side& vkcl, const corpus::Side& opencl, PlatformResult& result);

}  // namespace vkcl::corpus_bench

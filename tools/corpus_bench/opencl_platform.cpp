#include "opencl_platform.h"

#include <algorithm>

#include "worker.h"

namespace vkcl::corpus_bench {

namespace fs = std::filesystem;

namespace {

// "pocl", "rusticl", "nvidia", else the platform name's first word, lower case.
std::string column_name(const std::string& platform_line) {
  std::string name = platform_line.substr(0, platform_line.find(" ("));
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  for (const char* known : {"pocl", "rusticl", "nvidia"})
    if (name.find(known) != std::string::npos) return known;
  if (name.find("portable computing") != std::string::npos) return "pocl";
  return name.substr(0, name.find(' '));
}

}  // namespace

OpenClPlatform::OpenClPlatform(std::string worker, std::string selector, fs::path scratch, bool bench_scale, int repeat)
    : scratch_(std::move(scratch)) {
  command_ = {std::move(worker), "--out", scratch_.string(), "--repeat", std::to_string(repeat)};
  if (!selector.empty()) command_.insert(command_.end(), {"--platform", selector});
  if (bench_scale) command_.push_back("--bench-scale");
  platform_.name = selector.empty() ? "opencl" : selector;
  fs::create_directories(scratch_);
}

PlatformResult OpenClPlatform::run(const corpus::KernelSpec& spec, corpus::Side& outputs) {
  if (!platform_.unavailable.empty()) return {"unavailable", platform_.unavailable, std::nullopt};
  std::string text;
  {
    corpus::Worker worker(command_, scratch_, ".opencl", "opencl-crash");
    worker.start({spec.file});
    text = worker.result(spec.id);
    if (text.empty()) {
      platform_.unavailable = worker.fatal();
      return {"unavailable", platform_.unavailable, std::nullopt};
    }
  }
  if (!described_ && fs::exists(scratch_ / "platform.txt")) {
    std::string description = corpus::read_text(scratch_ / "platform.txt");
    while (!description.empty() && description.back() == '\n') description.pop_back();
    std::replace(description.begin(), description.end(), '\n', ';');
    platform_.description = description;
    const std::string prefix = "platform: ";
    if (description.starts_with(prefix)) platform_.name = column_name(description.substr(prefix.size()));
    described_ = true;
  }
  const corpus::WorkerResult result = corpus::parse_result(text);
  PlatformResult platform_result{result.status, result.details, corpus::find_timing(result.details)};
  outputs.status = result.status;
  if (result.status == "ok") corpus::read_worker_outputs(spec, scratch_, outputs);
  // The outputs are read: at bench scale they may be large.
  for (const corpus::Check& c : spec.checks) fs::remove(scratch_ / (spec.id + "." + c.arg + ".bin"));
  fs::remove(scratch_ / (spec.id + ".opencl"));
  return platform_result;
}

void judge(const corpus::KernelSpec& spec, const corpus::Side& vkcl, const corpus::Side& opencl, PlatformResult& result) {
  if (result.status != "ok") return;
  if (vkcl.status != "ok") {
    result.status = "not compared";
    result.detail = "vkcl did not run";
    return;
  }
  double max_ulp = 0;
  const std::string mismatch = corpus::compare_sides(spec, vkcl, opencl, max_ulp);
  if (!mismatch.empty()) {
    result.status = "mismatch";
    result.detail = mismatch;
  }
}

}  // namespace vkcl::corpus_bench

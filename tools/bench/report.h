// What a vkcl-bench run found, and its three outputs: the text table (medians
// and speed ratios), the CSV, and a gnuplot chart of the ratios.
#pragma once

#include <string>
#include <vector>

#include "compile_time.h"
#include "launch_cost.h"
#include "paths.h"
#include "workloads.h"

namespace vkcl::bench {

struct WorkloadResults {
  std::string workload, size_text;
  std::vector<RunResult> by_path;  // in Report::paths order
};

struct DispatchResult {
  std::string path, what;  // "vkcl", "Device::run"
  RunResult result;        // microseconds
};

struct Report {
  std::vector<std::string> header;  // date, command, devices and drivers
  std::vector<std::string> paths;   // paths[0] is vkcl; ratios are against it
  std::vector<WorkloadResults> kernels;
  std::vector<DispatchResult> dispatch;
  std::vector<LaunchCost> launch;  // us per dispatch
  int launch_dispatches = 0;       // per command buffer
  std::vector<CompileTiming> compiles;
  std::vector<std::string> notes;  // skipped parts and why
};

double median(std::vector<double> samples);

// Speed of vkcl relative to a peer: the peer's median time over vkcl's (above
// 1: vkcl is faster). 0 when either did not verify.
double speed_ratio(const RunResult& vkcl, const RunResult& peer);

std::string format_report(const Report& report);
// section,workload,size,path,status,median,min,max,runs,unit,detail
void write_csv(const Report& report, const std::string& path);
// Writes <stem>.dat and <stem>.gp, and runs gnuplot on them for <stem>.png
// when gnuplot is on PATH. Returns what it did, for the notes.
std::string write_chart(const Report& report, const std::string& stem);

}  // namespace vkcl::bench

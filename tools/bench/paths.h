// The ways vkcl-bench runs a workload ("paths"): each verifies a first run
// against the workload's host check, then times `repeat` more.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "workloads.h"

namespace vkcl::bench {

struct RunResult {
  // "ok", or what went wrong: "compile error", "run error", "wrong result", "n/a".
  std::string status = "ok";
  std::string detail;      // the message behind a status other than ok
  // One per timed run: kernel milliseconds, or microseconds for dispatch_overhead.
  std::vector<double> samples;
  // Anything else the report should show: the driver's pipeline statistics (--pipeline-statistics).
  std::vector<std::string> notes;
  bool ok() const { return status == "ok"; }
};

class Path {
 public:
  virtual ~Path() = default;
  // The column name: "vkcl", "glsl", "pocl", "rusticl", "nvidia", ...
  virtual std::string name() const = 0;
  // One line: device and driver, and how it is timed.
  virtual std::string describe() const = 0;
  virtual RunResult run(const Workload& workload, const Case& c, int repeat) = 0;
  // Enqueue-to-done of an empty kernel over one work-item, one sample per
  // repetition, in microseconds (host clock); nullopt where the path has none.
  virtual std::optional<RunResult> dispatch_overhead(int repeat) { (void)repeat; return std::nullopt; }
};

// The run protocol every path follows: run_once() zeroes the outputs, runs
// the kernel once and returns its time in ms; read() returns every buffer's
// contents. The first run is verified; only a verified path is timed.
RunResult measure(const Case& c, int repeat, const std::function<double()>& run_once,
                  const std::function<std::vector<std::vector<std::byte>>()>& read);

// The first line of a (possibly multi-line) message, at most 160 characters.
std::string first_line(const std::string& message);

// Reads a whole file; throws std::runtime_error naming it when it cannot.
std::string read_text(const std::string& path);

}  // namespace vkcl::bench

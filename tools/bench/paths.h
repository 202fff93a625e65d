// The ways vkcl-bench runs a workload ("paths"). Each path prepares a
// workload as a Trial whose first run is verified against the workload's
// host check; time_interleaved() then times every path's trial in rounds,
// one run of each path per round, so that a machine whose speed drifts
// (a busy host, a clock change) slows every path alike.
#pragma once

#include <cstddef>
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

// One workload built on one path with its buffers filled: it owns everything
// a run needs, and keeps it until it is destroyed.
class Trial {
 public:
  virtual ~Trial() = default;
  // Zeroes the outputs, runs the kernel once and returns its time in ms.
  virtual double run_once() = 0;
  // Every buffer's contents (empty for inputs), for the workload's check.
  virtual std::vector<std::vector<std::byte>> read_outputs() = 0;
  // What the report should show beside the times (pipeline statistics).
  virtual std::vector<std::string> notes() const { return {}; }
};

// A path's answer to prepare(): a trial whose first run was right, or in
// `result` why there is none.
struct Prepared {
  RunResult result;
  std::unique_ptr<Trial> trial;  // set exactly when result.ok()
};

class Path {
 public:
  virtual ~Path() = default;
  // The column name: "vkcl", "glsl", "pocl", "rusticl", "nvidia", ...
  virtual std::string name() const = 0;
  // One line: device and driver, and how it is timed.
  virtual std::string describe() const = 0;
  virtual Prepared prepare(const Workload& workload, const Case& c) = 0;
  // Enqueue-to-done of an empty kernel over one work-item, one sample per
  // repetition, in microseconds (host clock); nullopt where the path has none.
  virtual std::optional<RunResult> dispatch_overhead(int repeat) { (void)repeat; return std::nullopt; }
};

// Runs the trial once and checks what it computed: `trial` back when it is
// right, else "wrong result" or "run error" and no trial; either way with
// the trial's notes.
Prepared verify_first_run(const Case& c, std::unique_ptr<Trial> trial);

// `repeat` rounds; round r runs each prepared path once, starting from path
// r mod n, so no path always runs first. Returns each path's result with its
// samples; a path whose run throws is "run error" from then on.
std::vector<RunResult> time_interleaved(std::vector<Prepared>& prepared, int repeat);

// The first line of a (possibly multi-line) message, at most 160 characters.
std::string first_line(const std::string& message);

// Reads a whole file; throws std::runtime_error naming it when it cannot.
std::string read_text(const std::string& path);

}  // namespace vkcl::bench

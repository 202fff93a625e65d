// The helper processes of the corpus runs, and the result files they write.
//
// A worker works through a list of corpus kernels in order and writes
// <dir>/<id><suffix> for each when it is done with it: its status, the
// seconds it took and the details, one per line (write_result). The
// differential test and the corpus benchmark start two kinds: vkcl's
// compiler (so that a crash in clang, LLVM or the translator costs one
// kernel) and the OpenCL reference, vkcl_diff_opencl (so that the OpenCL
// implementation's LLVM never shares a process with vkcl's).
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vkcl::corpus {

// Exit status of a worker that cannot work at all (<dir>/fatal.txt says why).
inline constexpr int kWorkerFatal = 3;
// Exit status of a worker that has more to do but wants a fresh process for it.
inline constexpr int kRestartMe = 4;

// Writes <dir>/<id><suffix> as "status\nseconds\ndetails\n", through a
// temporary file renamed into place: a kernel without the file was not finished.
void write_result(const std::filesystem::path& dir, const std::string& id, const std::string& suffix,
                  const std::string& status, double seconds, const std::string& details);

struct WorkerResult {
  std::string status;  // "ok" or a status of kStatuses (corpus.h), or a worker's own
  double seconds = 0;
  std::string details;
};
WorkerResult parse_result(std::string_view text);

// The kernel's time over the timed runs of a benchmark (vkcl_diff_opencl
// --repeat N): one line of a result's details, so that a reader finds it.
struct KernelTiming {
  double median_ms = 0, min_ms = 0;
  int runs = 0;
  bool host_clock = false;  // the platform's events carry no times: host time of the batch of runs, per run
};
std::string timing_line(const KernelTiming& timing);
// The timing line in `details`, if there is one.
std::optional<KernelTiming> find_timing(std::string_view details);

double median(std::vector<double> samples);

std::string read_text(const std::filesystem::path& path);

// A worker process: `command` followed by the kernels' files. If it dies,
// the kernel it was on (the first without a result) gets `crash_status`, and
// it starts again with the kernels after that one.
class Worker {
 public:
  Worker(std::vector<std::string> command, std::filesystem::path dir, std::string suffix, std::string crash_status);
  ~Worker();
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  void start(std::vector<std::filesystem::path> files);

  // The result for `id` (waiting for it): its file's text, or a crash
  // report in the same form. Empty when the worker cannot work at all
  // (fatal() says why).
  std::string result(const std::string& id);

  const std::string& fatal() const { return fatal_; }

 private:
  void launch();
  void exited(int status);

  std::vector<std::string> command_;
  std::filesystem::path dir_;
  std::string suffix_, crash_status_;
  std::vector<std::filesystem::path> pending_;
  pid_t pid_ = -1;
  std::map<std::string, std::string> crashed_;
  std::string fatal_;
};

}  // namespace vkcl::corpus

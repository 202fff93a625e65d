// vkcl-corpus-bench: times every kernel of shaders/corpus/ on vkcl and on
// OpenCL platforms side by side (issue 15), at the size its @bench-* header
// lines give (shaders/corpus/README.md, "Benchmark scale"). Each kernel runs
// once per implementation and vkcl's outputs are compared with each
// platform's, as the differential test does; then it is timed --repeat times
// (vkcl: Vulkan timestamps around the kernel; OpenCL: event profiling).
// Reports the median times, the ratios (OpenCL time / vkcl time), and per
// platform their geomean, the worst ten and a histogram, with a chart. vkcl is
// timed in a pass of its own first (run_quiet_pass says why).
// `vkcl-corpus-bench --help`.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>

#include "corpus.h"
#include "opencl_platform.h"
#include "options.h"
#include "report.h"
#include "saved_run.h"
#include "vkcl_side.h"
#include "worker.h"

namespace vkcl::corpus_bench {
namespace {

namespace fs = std::filesystem;

const fs::path kSourceDir = VKCL_SOURCE_DIR;
// The exit status when no OpenCL platform could run (ctest counts it as skipped, as the differential test is).
constexpr int kNoOpenCL = 3;
const fs::path kCorpusDir = kSourceDir / "shaders" / "corpus";

std::string now_text() {
  char text[64];
  const std::time_t t = std::time(nullptr);
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S %Z", std::localtime(&t));
  return text;
}

std::optional<corpus::KernelTiming> timing_of(const std::vector<double>& times_ms) {
  if (times_ms.empty()) return std::nullopt;
  corpus::KernelTiming timing;
  timing.median_ms = corpus::median(times_ms);
  timing.min_ms = *std::min_element(times_ms.begin(), times_ms.end());
  timing.runs = int(times_ms.size());
  return timing;
}

// One kernel on vkcl and every platform, one at a time, starting from
// implementation `first` so that none always runs first (a machine whose
// speed drifts slows them alike); then the outputs compared. vkcl's times
// are `quiet_times_ms` where the quiet pass took them (run_quiet_pass).
KernelResult bench_kernel(Device& device, const corpus::KernelSpec& spec, std::vector<OpenClPlatform>& platforms,
                          int repeat, size_t first, const std::optional<std::vector<double>>& quiet_times_ms) {
  KernelResult result;
  result.id = spec.id;
  corpus::Side vkcl;
  std::vector<corpus::Side> opencl(platforms.size());
  result.platforms.resize(platforms.size());
  const size_t steps = platforms.size() + 1;
  for (size_t s = 0; s < steps; ++s) {
    const size_t step = (first + s) % steps;
    // Where the quiet pass timed vkcl, this run is untimed, for the outputs
    // alone: holding every kernel's outputs (up to hundreds of MB each at
    // bench scale) from the quiet pass until its checked run would cost more
    // than running it again from the module cache.
    if (step == 0) vkcl = corpus::run_vkcl(device, spec, kSourceDir, quiet_times_ms ? 0 : repeat);
    else result.platforms[step - 1] = platforms[step - 1].run(spec, opencl[step - 1]);
  }
  if (quiet_times_ms && vkcl.status == "ok") vkcl.times_ms = *quiet_times_ms;
  result.vkcl_status = vkcl.status;
  result.vkcl_detail = vkcl.status == "ok" && !vkcl.timing_error.empty() ? "timing: " + vkcl.timing_error : vkcl.detail;
  result.vkcl_timing = timing_of(vkcl.times_ms);
  for (size_t p = 0; p < platforms.size(); ++p) judge(spec, vkcl, opencl[p], result.platforms[p]);
  return result;
}

// vkcl's times of every kernel of `files`, taken before any OpenCL process
// runs. On the H100, an OpenCL worker that had just exited (NVIDIA's
// OpenCL, a CUDA context torn down with hundreds of MB freed) slowed the
// vkcl runs that followed it by 1.5x to 3.3x, at random: 31 of 159 kernels
// moved so between full runs, and none did in a run without OpenCL
// (docs/performance.md, "Run-to-run noise"). The OpenCL platforms are timed
// as before, each in a fresh process per kernel after vkcl's checked run.
std::map<std::string, std::vector<double>> run_quiet_pass(Device& device, const std::vector<fs::path>& files,
                                                          const Options& o) {
  std::map<std::string, std::vector<double>> times;
  const auto start = std::chrono::steady_clock::now();
  for (const fs::path& file : files) {
    // Half of --time-limit at most: the checked pass needs the rest.
    if (o.time_limit_s > 0 && std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > o.time_limit_s / 2)
      break;
    try {
      const corpus::KernelSpec spec = corpus::load_spec(file);
      if (o.bench_scale && !spec.bench.skip.empty()) continue;
      corpus::Side side = corpus::run_vkcl(device, o.bench_scale ? corpus::at_bench_scale(spec) : spec, kSourceDir, o.repeat);
      if (side.status == "ok" && side.timing_error.empty()) times[spec.id] = std::move(side.times_ms);
    } catch (const std::exception&) {
      // The checked pass reports it.
    }
  }
  return times;
}

// Whether `k` failed in a way the expected-failures list does not allow:
// vkcl could not run it, or its outputs disagree with a platform's.
bool unexpected_failure(const KernelResult& k) {
  if (k.listed || (!k.skipped.empty() && k.vkcl_status != "spec-error")) return false;
  if (k.vkcl_status != "ok") return true;
  return std::any_of(k.platforms.begin(), k.platforms.end(), [](const PlatformResult& p) { return p.status == "mismatch"; });
}

void print_progress(const KernelResult& k, const std::vector<OpenClPlatform>& platforms) {
  auto time_or_status = [](const std::optional<corpus::KernelTiming>& timing, const std::string& status) {
    return timing && status == "ok" ? std::to_string(timing->median_ms) + " ms" : status;
  };
  std::string line = k.id + ": vkcl " + time_or_status(k.vkcl_timing, k.vkcl_status);
  for (size_t p = 0; p < k.platforms.size(); ++p)
    line += ", " + platforms[p].platform().name + " " + time_or_status(k.platforms[p].timing, k.platforms[p].status);
  std::fprintf(stderr, "%s%s\n", line.c_str(), k.skipped.empty() ? "" : (" (" + k.skipped + ")").c_str());
}

// Runs the kernels `o` selects; each result is saved in --out as it comes.
// `left_out` gets the kernels --time-limit left out.
Run run_kernels(const Options& o, const std::string& command, std::vector<std::string>& left_out) {
  const std::map<std::string, corpus::Expectation> expectations =
      o.expectations.empty() ? std::map<std::string, corpus::Expectation>{}
                             : corpus::parse_expectations(corpus::read_file(o.expectations), o.expectations);
  Run run;
  run.threshold_ms = o.threshold_ms;
  run.header.push_back("vkcl-corpus-bench, " + now_text() + ", " + (o.bench_scale ? "bench scale" : "test scale") + ", " +
                       std::to_string(o.repeat) + " timed runs per kernel (median)");
  run.header.push_back("command: " + command);
  Device device = Device::create(o.device);
  run.header.push_back("vkcl: " + device.describe() + ", Vulkan timestamps around the kernel");

  // The OpenCL workers' outputs (up to hundreds of MB at bench scale), away
  // from --out, whose files a remote run sends back.
  const fs::path scratch = fs::temp_directory_path() / ("vkcl_corpus_bench_" + std::to_string(::getpid()));
  std::vector<OpenClPlatform> platforms;
  const std::vector<std::string> selectors = o.opencl.empty() ? std::vector<std::string>{""} : o.opencl;
  for (size_t p = 0; p < selectors.size(); ++p)
    platforms.emplace_back(VKCL_DIFF_OPENCL_WORKER, selectors[p], scratch / std::to_string(p), o.bench_scale, o.repeat);

  std::vector<fs::path> files;
  const std::vector<fs::path> corpus_files = corpus::list_corpus(o.corpus);
  for (size_t i = 0; i < corpus_files.size(); ++i) {
    const bool chosen = o.only.empty() || std::find(o.only.begin(), o.only.end(), corpus_files[i].stem().string()) != o.only.end();
    const bool in_part = int(i % size_t(o.parts)) == o.part - 1 && corpus_files[i].stem().string() >= o.from;
    if (chosen && in_part) files.push_back(corpus_files[i]);
  }

  std::error_code ignored;
  fs::remove_all(fs::path(o.out) / "kernels", ignored);  // a saved run holds this run's kernels only
  const auto start = std::chrono::steady_clock::now();
  const std::map<std::string, std::vector<double>> quiet_times = run_quiet_pass(device, files, o);
  run.header.push_back("vkcl timed in a pass of its own before any OpenCL process ran (" +
                       std::to_string(quiet_times.size()) + " kernels); then each kernel checked against each platform and the platforms timed");
  for (size_t i = 0; i < files.size(); ++i) {
    const std::string id = files[i].stem().string();
    if (o.time_limit_s > 0 && std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > o.time_limit_s) {
      left_out.push_back(id);
      continue;
    }
    KernelResult k;
    try {
      const corpus::KernelSpec spec = corpus::load_spec(files[i]);
      // At test scale every kernel runs: that run checks vkcl against OpenCL over the whole corpus.
      if (o.bench_scale && !spec.bench.skip.empty()) {
        k.id = id;
        k.skipped = "@bench-skip: " + spec.bench.skip;
      } else {
        const auto quiet = quiet_times.find(id);
        k = bench_kernel(device, o.bench_scale ? corpus::at_bench_scale(spec) : spec, platforms, o.repeat,
                         i % (platforms.size() + 1),
                         quiet == quiet_times.end() ? std::nullopt : std::optional<std::vector<double>>(quiet->second));
      }
    } catch (const corpus::SpecError& e) {
      k.id = id;
      k.vkcl_status = "spec-error";
      k.skipped = e.what();
    }
    k.listed = expectations.contains(id);
    print_progress(k, platforms);
    save_kernel(o.out, k);
    run.kernels.push_back(std::move(k));
    run.platforms.clear();
    for (const OpenClPlatform& p : platforms) run.platforms.push_back(p.platform());
    save_run(o.out, run);  // as it goes: a run cut short can still be merged
  }
  run.platforms.clear();
  for (const OpenClPlatform& p : platforms) run.platforms.push_back(p.platform());
  save_run(o.out, run);
  fs::remove_all(scratch, ignored);
  return run;
}

// The report, CSV and chart in --out; returns the exit status.
int report(const Run& run, const Options& o, const std::vector<std::string>& left_out) {
  const std::string stem = (fs::path(o.out) / "corpus-bench").string();
  write_csv(run, stem + ".csv");
  const std::string chart = write_chart(run, stem);
  std::string text = format_report(run);
  text += "\n" + chart + "\nCSV: " + stem + ".csv; this report: " + stem + ".txt\n";
  if (!left_out.empty()) {
    text += "\nIncomplete: --time-limit left out " + std::to_string(left_out.size()) + " kernels, from " +
            left_out.front() + " on: run the same command with --from " + left_out.front() +
            " and another --out, then vkcl-corpus-bench --merge " + o.out + ",THAT_OUT for one report\n";
  }
  int unexpected = 0;
  for (const KernelResult& k : run.kernels)
    if (unexpected_failure(k)) {
      text += (unexpected++ ? "" : "\nFailures the expected-failures list does not allow:\n");
      text += "  " + k.id + "\n";
    }
  const bool no_opencl = std::all_of(run.platforms.begin(), run.platforms.end(),
                                     [](const Platform& p) { return !p.unavailable.empty(); });
  if (no_opencl) text += "\nNo OpenCL platform ran: nothing was compared or timed against OpenCL.\n";
  std::ofstream(stem + ".txt") << text;
  std::cout << text;
  return unexpected ? 1 : no_opencl ? kNoOpenCL : 0;
}

int run(int argc, char** argv) {
  const Options o = parse_options(argc, argv, kCorpusDir.string());
  ::setenv("RUSTICL_ENABLE", "swrast", 0);
  fs::create_directories(o.out);
  std::string command = "vkcl-corpus-bench";
  for (int i = 1; i < argc; ++i) command += std::string(" ") + argv[i];
  std::vector<std::string> left_out;
  if (!o.merge.empty()) {
    std::vector<fs::path> dirs(o.merge.begin(), o.merge.end());
    Run merged = load_runs(dirs);
    merged.header.insert(merged.header.begin(), command);
    return report(merged, o, left_out);
  }
  return report(run_kernels(o, command, left_out), o, left_out);
}

}  // namespace
}  // namespace vkcl::corpus_bench

int main(int argc, char** argv) {
  try {
    return vkcl::corpus_bench::run(argc, argv);
  } catch (const vkcl::corpus_bench::UsageError& e) {
    if (*e.what() == '\0') {
      std::cout << vkcl::corpus_bench::kUsage;
      return 0;
    }
    std::cerr << "vkcl-corpus-bench: " << e.what() << '\n';
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "vkcl-corpus-bench: " << e.what() << '\n';
    return 1;
  }
}

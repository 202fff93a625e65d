// vkcl-compile-cost: what compiling in a child process costs against
// compiling in this one (docs/opencl.md, "Compiling in a child process").
//
//   vkcl-compile-cost [--repeat N] [--worker PATH] file.cl...
//
// Each file is compiled N times (default 20) both ways, in turns (in
// process, then in a vkcl-compile-worker, N times), after one untimed compile
// each way, and the per-compile wall times are printed: median, mean and
// minimum, and the child process's median less the in-process one; then the
// median CPU time (user and system) of each way, the worker's included,
// which another load on the machine disturbs less than the wall time. Then
// the worker's start alone: N runs on an empty request, which it refuses as
// soon as it has read it (process start, the dynamic loading of LLVM and
// clang, exit). The default worker is this build's (build/tools/clc).
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <iterator>
#include <numeric>
#include <string>
#include <vector>

#include "child_process.h"
#include "compiler.h"
#include "vkcl/compile_worker.h"

namespace {

struct Times {
  std::vector<double> ms;

  double median() const {
    std::vector<double> sorted = ms;
    std::sort(sorted.begin(), sorted.end());
    const size_t n = sorted.size();
    return n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }
  double mean() const { return std::accumulate(ms.begin(), ms.end(), 0.0) / double(ms.size()); }
  double min() const { return *std::min_element(ms.begin(), ms.end()); }
};

// CPU milliseconds, user and system, of this thread and of the children
// waited for (a worker is waited for before compile_in_worker returns).
double cpu_milliseconds() {
  auto ms = [](const rusage& usage) {
    return (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e3 +
           (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e3;
  };
  rusage self{}, children{};
  ::getrusage(RUSAGE_THREAD, &self);
  ::getrusage(RUSAGE_CHILDREN, &children);
  return ms(self) + ms(children);
}

struct Sample {
  Times& wall;
  Times& cpu;
};

template <typename Work>
void measure(Sample into, Work&& work) {
  const double cpu_start = cpu_milliseconds();
  const auto start = std::chrono::steady_clock::now();
  work();
  into.wall.ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  into.cpu.ms.push_back(cpu_milliseconds() - cpu_start);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read '" + path + "'");
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::string base_name(const std::string& path) { return path.substr(path.rfind('/') + 1); }

}  // namespace

int main(int argc, char** argv) {
  int repeat = 20;
  std::string worker = VKCL_COMPILE_COST_WORKER;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--repeat" && i + 1 < argc) repeat = std::max(1, std::atoi(argv[++i]));
    else if (arg == "--worker" && i + 1 < argc) worker = argv[++i];
    else if (!arg.empty() && arg[0] == '-') {
      std::fprintf(stderr, "usage: vkcl-compile-cost [--repeat N] [--worker PATH] file.cl...\n");
      return 2;
    } else files.push_back(arg);
  }
  if (files.empty()) {
    std::fprintf(stderr, "usage: vkcl-compile-cost [--repeat N] [--worker PATH] file.cl...\n");
    return 2;
  }
  try {
    std::printf("%d compiles each way; worker %s\n", repeat, worker.c_str());
    std::printf("%-28s %9s %9s %9s | %9s %9s %9s | %9s | %9s %9s %9s\n", "ms per compile (wall)", "in proc.",
                "mean", "min", "child", "mean", "min", "overhead", "CPU in", "CPU child", "overhead");
    for (const std::string& file : files) {
      const std::string source = read_file(file);
      const std::string name = base_name(file);
      const vkcl::CompileOptions options;
      vkcl::compile_opencl(source, name, options);
      vkcl::compile_in_worker(source, name, options, {}, worker);
      Times in_process, child, in_process_cpu, child_cpu;
      for (int i = 0; i < repeat; ++i) {
        measure({in_process, in_process_cpu}, [&] { vkcl::compile_opencl(source, name, options); });
        measure({child, child_cpu}, [&] { vkcl::compile_in_worker(source, name, options, {}, worker); });
      }
      std::printf("%-28s %9.1f %9.1f %9.1f | %9.1f %9.1f %9.1f | %9.1f | %9.1f %9.1f %9.1f\n", name.c_str(),
                  in_process.median(), in_process.mean(), in_process.min(), child.median(), child.mean(), child.min(),
                  child.median() - in_process.median(), in_process_cpu.median(), child_cpu.median(),
                  child_cpu.median() - in_process_cpu.median());
    }
    Times start, start_cpu;
    for (int i = 0; i < repeat; ++i) measure({start, start_cpu}, [&] { vkcl::detail::run_child(worker, "", 4096); });
    std::printf("%-28s %9s %9s %9s | %9.1f %9.1f %9.1f | %9s | %9s %9.1f\n", "worker start alone", "", "", "",
                start.median(), start.mean(), start.min(), "", "", start_cpu.median());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "vkcl-compile-cost: %s\n", e.what());
    return 1;
  }
  return 0;
}

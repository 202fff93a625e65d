// vkcl-bench: the benchmark suite of issue 8. Every workload of
// shaders/bench/ runs through vkcl, its GLSL twin as a Vulkan programmer
// writes it (storage buffers, plain Vulkan: twin_path.h), the twin in vkcl's
// own ABI (twin_bda) on the same Vulkan device, and every OpenCL platform
// found; each result is checked against the host before it is timed. Then
// dispatch overhead, launch cost (launch_cost.h) and compile time. Prints a
// table of medians and ratios, writes CSV and a chart. `vkcl-bench --help`.
//
// Exit status: 0 when everything vkcl, the twins and the launch-cost kernels ran was right (a kernel
// vkcl cannot compile yet is reported, not fatal); 1 when one of them gave a
// wrong result or failed to run, or the device could not be opened; 2 for a
// bad command line. The OpenCL peers' failures are reported only.
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "compile_time.h"
#include "launch_cost.h"
#include "opencl_paths.h"
#include "raw_vulkan.h"
#include "report.h"
#include "twin_path.h"
#include "vkcl/host.h"
#include "vulkan_paths.h"

namespace vkcl::bench {
namespace {

constexpr const char* kUsage = R"(usage: vkcl-bench [options]

Runs the benchmark suite (shaders/bench/) through vkcl, the GLSL twins and
every OpenCL platform, verifies each result, then times it. Columns: vkcl;
twin (GLSL with descriptor-bound storage buffers, plain Vulkan: the target);
twin_bda (GLSL in vkcl's ABI, buffer references, run by vkcl's runtime);
one per OpenCL platform.

  --size small|medium|large  problem sizes: small for CI, medium for CPU devices
                             (lavapipe, PoCL, rusticl), large (default) for a GPU
  --repeat N                 timed rounds per workload (default: 20 large, 5 medium,
                             3 small); each round runs every path once, the first
                             path rotating; compile time takes min(N, 5)
  --only NAME[,NAME...]      only these workloads
  --opencl SUB[,SUB...]      only OpenCL platforms whose name contains one of
                             these (default: $VKCL_BENCH_OPENCL, else all;
                             "none" for no OpenCL)
  --device INDEX|NAME        the Vulkan device (default: $VKCL_DEVICE, else vkcl's choice)
  --skip PART[,PART...]      leave out: kernels, twin, twin_bda, glsl (both twins),
                             opencl, dispatch, launch, compile
  --launch-cost              only the launch-cost measurement: N dispatches with 4 buffer
                             arguments changed at each, by push-constant addresses, push
                             descriptors, descriptor sets, descriptor buffers (us each)
  --out DIR                  where vkcl-bench.{txt,csv,dat,gp,png} go
                             (default: $OUT when set, else the current directory)
  --pipeline-statistics      print the Vulkan driver's statistics of every vkcl and
                             twin_bda pipeline (register count, ...), where the device has
                             VK_KHR_pipeline_executable_properties (not yet the twin's)

RUSTICL_ENABLE defaults to swrast, so Mesa's rusticl shows llvmpipe.
)";

struct Options {
  Size size = Size::Large;
  int repeat = 0;
  std::set<std::string> only, skip;
  std::vector<std::string> opencl;
  bool opencl_none = false;
  std::string device, out;
  bool pipeline_statistics = false;
};

const std::set<std::string> kParts = {"kernels", "twin", "twin_bda", "glsl", "opencl", "dispatch", "launch", "compile"};

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> items;
  std::stringstream in(list);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) items.push_back(item);
  return items;
}

Options parse(int argc, char** argv) {
  Options o;
  if (const char* env = std::getenv("VKCL_BENCH_OPENCL")) o.opencl = split(env);
  if (const char* env = std::getenv("OUT"); env && *env) o.out = env;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw UsageError(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--help" || arg == "-h") throw UsageError("");
    else if (arg == "--size") {
      const std::string s = value();
      if (s == "small") o.size = Size::Small;
      else if (s == "medium") o.size = Size::Medium;
      else if (s == "large") o.size = Size::Large;
      else throw UsageError("--size takes small, medium or large, not '" + s + "'");
    } else if (arg == "--repeat") {
      const std::string s = value();
      o.repeat = std::atoi(s.c_str());
      if (o.repeat < 1) throw UsageError("--repeat takes a positive count, not '" + s + "'");
    } else if (arg == "--only") {
      for (const std::string& w : split(value())) o.only.insert(w);
    } else if (arg == "--opencl") {
      o.opencl = split(value());
    } else if (arg == "--device") {
      o.device = value();
    } else if (arg == "--skip") {
      for (const std::string& s : split(value())) {
        if (!kParts.count(s))
          throw UsageError("--skip takes kernels, twin, twin_bda, glsl, opencl, dispatch, launch, compile; not '" + s + "'");
        if (s == "glsl") o.skip.insert({"twin", "twin_bda"});
        else o.skip.insert(s);
      }
    } else if (arg == "--launch-cost") {
      o.skip.insert({"kernels", "twin", "twin_bda", "opencl", "dispatch", "compile"});
    } else if (arg == "--out") {
      o.out = value();
    } else if (arg == "--pipeline-statistics") {
      o.pipeline_statistics = true;
    } else {
      throw UsageError("unknown option '" + arg + "' (see --help)");
    }
  }
  o.opencl_none = o.opencl.size() == 1 && o.opencl[0] == "none";
  if (o.repeat == 0) o.repeat = o.size == Size::Large ? 20 : o.size == Size::Medium ? 5 : 3;
  for (const std::string& w : o.only) {
    bool known = false;
    for (const Workload& each : workloads()) known |= each.name == w;
    if (!known) throw UsageError("no workload '" + w + "'");
  }
  if (o.out.empty()) o.out = ".";
  return o;
}

std::string now_text() {
  char text[64];
  const std::time_t t = std::time(nullptr);
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S %Z", std::localtime(&t));
  return text;
}

int run(int argc, char** argv) {
  const Options o = parse(argc, argv);
  ::setenv("RUSTICL_ENABLE", "swrast", 0);
  const std::string root = VKCL_BENCH_SOURCE_ROOT, twins = VKCL_BENCH_TWIN_DIR;
  std::filesystem::create_directories(o.out);

  Report report;
  std::string command = "vkcl-bench";
  for (int i = 1; i < argc; ++i) command += std::string(" ") + argv[i];
  report.header.push_back("vkcl-bench, " + now_text());
  report.header.push_back("command: " + command);

  DeviceOptions device_options;
  device_options.selector = o.device;
  if (o.pipeline_statistics) device_options.pipeline_statistics = true;
  auto device = std::make_shared<Device>(Device::create(device_options));
  report.header.push_back("device: " + device->describe());

  const std::string device_name = device->properties().deviceName;
  std::vector<std::unique_ptr<Path>> paths =
      make_vulkan_paths(device, root, o.skip.count("twin_bda") ? std::nullopt : std::optional<std::string>(twins + "/bda"));
  if (!o.skip.count("twin")) paths.insert(paths.begin() + 1, make_twin_path(device_name, twins));
  if (!o.skip.count("opencl") && !o.opencl_none)
    for (auto& p : make_opencl_paths(o.opencl, root, report.notes)) paths.push_back(std::move(p));
  for (const auto& p : paths) report.paths.push_back(p->name());

  std::vector<const Workload*> chosen;
  for (const Workload& w : workloads())
    if (o.only.empty() || o.only.count(w.name)) chosen.push_back(&w);

  bool failed = false;
  if (!o.skip.count("kernels")) {
    for (const Workload* w : chosen) {
      const Case c = w->make(o.size);
      WorkloadResults results{w->name, c.size_text, {}};
      std::cerr << w->name << " (" << c.size_text << "):";
      std::vector<Prepared> prepared;
      for (const auto& path : paths) prepared.push_back(path->prepare(*w, c));
      results.by_path = time_interleaved(prepared, o.repeat);
      for (size_t p = 0; p < paths.size(); ++p) {
        const RunResult& r = results.by_path[p];
        std::cerr << ' ' << paths[p]->name() << ' ' << (r.ok() ? std::to_string(median(r.samples)) + " ms" : r.status);
        const bool ours = paths[p]->name() == "vkcl" || paths[p]->name() == "twin" || paths[p]->name() == "twin_bda";
        if (ours && !r.ok() && r.status != "compile error") failed = true;
        for (const std::string& note : r.notes) report.notes.push_back(paths[p]->name() + " " + w->name + ": " + note);
      }
      std::cerr << '\n';
      report.kernels.push_back(std::move(results));
    }
  }
  // After the runs: an OpenCL path knows only then whether it was timed on the host.
  for (const auto& p : paths) report.header.push_back(p->name() + ": " + p->describe());

  if (!o.skip.count("dispatch")) {
    const int n = o.size == Size::Large ? 2000 : o.size == Size::Medium ? 1000 : 100;
    if (auto r = paths[0]->dispatch_overhead(n)) report.dispatch.push_back({"vkcl", "Device::run", *r});
    report.dispatch.push_back({"vulkan", "raw vkQueueSubmit + vkWaitForFences",
                               raw_vulkan_dispatch_overhead(device_name, twins + "/empty.spv", n)});
    for (const auto& p : paths)
      if (p->name() != "vkcl" && p->name() != "twin" && p->name() != "twin_bda")
        if (auto r = p->dispatch_overhead(n)) report.dispatch.push_back({p->name(), "clEnqueueNDRangeKernel + clFinish", *r});
  }

  if (!o.skip.count("launch")) {
    report.launch_dispatches = o.size == Size::Small ? 100 : 1000;
    report.launch = measure_launch_cost(device_name, twins + "/launch", report.launch_dispatches, o.repeat);
    report.launch.push_back(vkcl_launch_cost(*device, root, report.launch_dispatches, o.repeat));
    for (const LaunchCost& l : report.launch)
      if (!l.record.ok() && l.record.status != "n/a" && l.record.status != "compile error") failed = true;
  }

  if (!o.skip.count("compile")) {
#ifdef VKCL_BENCH_CLC
    const int n = std::min(o.repeat, 5);
    report.compiles = time_compiles({VKCL_BENCH_CLC, VKCL_BENCH_CLANG, VKCL_BENCH_LLVM_SPIRV}, chosen, root, n);
    report.notes.push_back("compile time: median of " + std::to_string(n) + " (clc " VKCL_BENCH_CLC ")");
#else
    report.notes.push_back(
        "compile time: skipped: this build has no compiler (-DVKCL_WITH_COMPILER=OFF); vkcl's modules were replayed from "
        "VKCL_MODULE_CACHE");
#endif
  }

  const std::string stem = o.out + "/vkcl-bench";
  write_csv(report, stem + ".csv");
  report.notes.push_back(write_chart(report, stem));
  report.notes.push_back("CSV: " + stem + ".csv; this table: " + stem + ".txt");
  const std::string text = format_report(report);
  std::ofstream(stem + ".txt") << text;
  std::cout << text;
  return failed ? 1 : 0;
}

}  // namespace
}  // namespace vkcl::bench

int main(int argc, char** argv) {
  try {
    return vkcl::bench::run(argc, argv);
  } catch (const vkcl::bench::UsageError& e) {
    if (*e.what() == '\0') {
      std::cout << vkcl::bench::kUsage;
      return 0;
    }
    std::cerr << "vkcl-bench: " << e.what() << '\n';
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "vkcl-bench: " << e.what() << '\n';
    return 1;
  }
}

#include "options.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>

namespace vkcl::corpus_bench {

const char* const kUsage = R"(usage: vkcl-corpus-bench [options]

Times every kernel of shaders/corpus/ on vkcl and on OpenCL platforms. vkcl
first times every kernel in a pass of its own, before any OpenCL process runs
(an OpenCL process that has just exited can slow the GPU work after it); then
each kernel runs on vkcl and on each platform, one at a time (the order
rotating from kernel to kernel), vkcl's outputs are checked against each
platform's, and each platform is timed. Writes corpus-bench.{txt,csv,dat,gp,png}
to --out.

  --scale bench|test   bench (default): with each header's @bench-* lines
                       applied (@bench-skip kernels left out); test: every
                       kernel at the differential test's sizes
  --repeat N           timed runs per kernel and implementation (default 10),
                       back to back on the device, each after a device-side
                       copy restores the checked outputs; the report gives
                       their median
  --opencl NAME        an OpenCL platform whose name contains NAME (case-
                       insensitive); repeat it (or NAME,NAME) for several.
                       Default: $VKCL_DIFF_OPENCL_PLATFORM, else PoCL, else the first
  --only ID[,ID...]    only these kernels (file names without .cl)
  --threshold-us US    the summary's geomean and target count kernels whose
                       OpenCL time exceeds this (default 20)
  --device INDEX|NAME  the Vulkan device (default: $VKCL_DEVICE, else vkcl's choice)
  --expectations FILE  the expected-failures list (default: $VKCL_DIFF_EXPECTATIONS,
                       else shaders/corpus/EXPECTED_FAILURES.txt)
  --out DIR            where the report goes (default: $OUT, else .); the
                       results are also saved there (run.txt, kernels/)
  --from ID            only the kernels from ID on, in name order (where a run
                       that --time-limit cut short stopped)
  --part K/N           only every N-th kernel, from the K-th (1 <= K <= N): a
                       part of the corpus that fits a machine's time limit
  --time-limit S       start no kernel after S seconds (in the quiet pass,
                       after S/2); the report says where to go on (--from)
                       and how to report both runs as one
  --merge DIR[,DIR...] no run: the report of the runs saved in these --out
                       directories, as one (parts, or a run and its rest)
  --corpus DIR         the kernels of DIR instead of shaders/corpus/ (e.g. the
                       math microbenchmark, tools/math_microbench/generate.py)

Exit status: 0; 1 when a kernel the list does not expect to fail failed on
vkcl or disagreed with a platform, or the run could not start; 2 for a bad
command line; 3 when no OpenCL platform could run. RUSTICL_ENABLE defaults to swrast (rusticl on llvmpipe).
)";

namespace {

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> items;
  std::istringstream in(text);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) items.push_back(item);
  return items;
}

double positive_number(const std::string& flag, const std::string& text) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !(value > 0)) throw UsageError(flag + " takes a positive number, not '" + text + "'");
  return value;
}

}  // namespace

Options parse_options(int argc, char** argv, const std::string& default_corpus) {
  Options o;
  o.corpus = default_corpus;
  if (const char* out = std::getenv("OUT"); out && *out) o.out = out;
  if (const char* list = std::getenv("VKCL_DIFF_EXPECTATIONS"); list && *list) o.expectations = list;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw UsageError(flag + " needs a value");
      return argv[++i];
    };
    if (flag == "--help" || flag == "-h") {
      throw UsageError("");
    } else if (flag == "--scale") {
      const std::string scale = value();
      if (scale != "bench" && scale != "test") throw UsageError("--scale takes bench or test, not '" + scale + "'");
      o.bench_scale = scale == "bench";
    } else if (flag == "--repeat") {
      const std::string text = value();
      const double n = positive_number(flag, text);
      if (n != double(int(n)) || n > 100000) throw UsageError("--repeat takes a count from 1 to 100000, not '" + text + "'");
      o.repeat = int(n);
    } else if (flag == "--opencl") {
      for (const std::string& name : split_list(value())) o.opencl.push_back(name);
    } else if (flag == "--only") {
      for (const std::string& id : split_list(value())) o.only.push_back(id);
    } else if (flag == "--threshold-us") {
      o.threshold_ms = positive_number(flag, value()) / 1000;
    } else if (flag == "--device") {
      o.device = value();
    } else if (flag == "--expectations") {
      o.expectations = value();
    } else if (flag == "--from") {
      o.from = value();
    } else if (flag == "--corpus") {
      o.corpus = value();
      if (!std::filesystem::is_directory(o.corpus)) throw UsageError("--corpus: no directory '" + o.corpus + "'");
    } else if (flag == "--part") {
      const std::string text = value();
      char slash = 0, rest = 0;
      if (std::sscanf(text.c_str(), "%d%c%d%c", &o.part, &slash, &o.parts, &rest) != 3 || slash != '/' || o.parts < 1 ||
          o.part < 1 || o.part > o.parts)
        throw UsageError("--part takes K/N with 1 <= K <= N, not '" + text + "'");
    } else if (flag == "--time-limit") {
      o.time_limit_s = positive_number(flag, value());
    } else if (flag == "--merge") {
      for (const std::string& dir : split_list(value())) {
        if (!std::filesystem::exists(std::filesystem::path(dir) / "run.txt"))
          throw UsageError("--merge: " + dir + " holds no saved run (run.txt)");
        o.merge.push_back(dir);
      }
    } else if (flag == "--out") {
      o.out = value();
    } else {
      throw UsageError("unknown option '" + flag + "' (see --help)");
    }
  }
  auto check_kernel = [&](const std::string& flag, const std::string& id) {
    if (!std::filesystem::exists(std::filesystem::path(o.corpus) / (id + ".cl")))
      throw UsageError(flag + ": no kernel '" + id + "' in " + o.corpus);
  };
  for (const std::string& id : o.only) check_kernel("--only", id);
  if (!o.from.empty()) check_kernel("--from", o.from);
  if (o.expectations.empty()) {
    const std::filesystem::path list = std::filesystem::path(o.corpus) / "EXPECTED_FAILURES.txt";
    if (std::filesystem::exists(list)) o.expectations = list.string();
  }
  return o;
}

}  // namespace vkcl::corpus_bench

// vkcl-corpus-twins: the corpus kernels that have a GLSL twin
// (shaders/corpus/glsl/<id>.comp, twin_side.h says what a twin is), each run
// on vkcl and as its twin on the same Vulkan device, the outputs compared and
// both timed the same way (Vulkan timestamps around the kernel, runs back to
// back after device-side restores). Prints one line per kernel and writes
// corpus-twins.csv to --out. `vkcl-corpus-twins --help`.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include "bench/raw_device.h"
#include "twin_side.h"
#include "vkcl/ndrange.h"
#include "vkcl_side.h"
#include "worker.h"

namespace vkcl::corpus_bench {
namespace {

namespace fs = std::filesystem;

const fs::path kSourceDir = VKCL_SOURCE_DIR;
const fs::path kCorpusDir = kSourceDir / "shaders" / "corpus";

constexpr const char* kUsage = R"(usage: vkcl-corpus-twins [options]

Runs each corpus kernel that has a GLSL twin (shaders/corpus/glsl/<id>.comp)
on vkcl and as its twin, on the same Vulkan device: descriptor-bound storage
buffers, scalars in push constants, the work-group size vkcl runs (the
header's, else the runtime's choice) in specialization constants. Checks the
twin's outputs against vkcl's and times both. Writes corpus-twins.csv to --out.

  --scale bench|test   bench (default): the headers' @bench-* sizes; test: the
                       differential test's
  --repeat N           timed runs of each (default 10; 0: check only)
  --only ID[,ID...]    only these kernels
  --device INDEX|NAME  the Vulkan device (default: $VKCL_DEVICE, else vkcl's choice)
  --twins DIR          the compiled twins, <id>.spv (default: this build's)
  --out DIR            where corpus-twins.csv goes (default: $OUT, else .)

Exit status: 0; 1 when a twin failed or disagreed with vkcl; 2 for a bad command line.
)";

struct Options {
  bool bench_scale = true;
  int repeat = 10;
  std::vector<std::string> only;
  std::string device, twins = VKCL_CORPUS_TWIN_DIR, out;
};

Options parse(int argc, char** argv) {
  Options o;
  o.out = std::getenv("OUT") ? std::getenv("OUT") : ".";
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h") throw std::invalid_argument("");
    if (i + 1 >= argc) throw std::invalid_argument("'" + a + "' is not an option that takes no value (see --help)");
    const std::string v = argv[++i];
    if (a == "--scale" && (v == "bench" || v == "test")) o.bench_scale = v == "bench";
    else if (a == "--repeat" && !v.empty() && v.find_first_not_of("0123456789") == std::string::npos && v.size() < 6)
      o.repeat = std::stoi(v);
    else if (a == "--only") {
      std::istringstream in(v);
      for (std::string id; std::getline(in, id, ',');) o.only.push_back(id);
    } else if (a == "--device") o.device = v;
    else if (a == "--twins") o.twins = v;
    else if (a == "--out") o.out = v;
    else throw std::invalid_argument("bad option or value: " + a + " " + v + " (see --help)");
  }
  for (const std::string& id : o.only)
    if (!fs::exists(kSourceDir / "shaders" / "corpus" / "glsl" / (id + ".comp")))
      throw std::invalid_argument("--only: no twin shaders/corpus/glsl/" + id + ".comp");
  return o;
}

std::string ms_text(const std::vector<double>& times) {
  if (times.empty()) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.4f", corpus::median(times));
  return text;
}

int run(const Options& o) {
  std::vector<std::string> ids;
  for (const auto& entry : fs::directory_iterator(kCorpusDir / "glsl"))
    if (entry.path().extension() == ".comp") ids.push_back(entry.path().stem().string());
  std::sort(ids.begin(), ids.end());
  Device device = Device::create(o.device);
  const bench::RawDevice raw(device.info().name, bench::RawFeatures{.memory_model = true, .arithmetic_types = true});
  std::cout << "vkcl-corpus-twins, " << (o.bench_scale ? "bench" : "test") << " scale, " << o.repeat
            << " timed runs each (median); " << device.describe() << "\n";
  std::ofstream csv(fs::path(o.out) / "corpus-twins.csv");
  csv << "kernel,local,vkcl_ms,twin_ms,twin_vs_vkcl,status\n";
  int failures = 0;
  for (const std::string& id : ids) {
    if (!o.only.empty() && std::find(o.only.begin(), o.only.end(), id) == o.only.end()) continue;
    std::string status = "ok", local_text;
    corpus::Side vkcl, twin;
    try {
      corpus::KernelSpec spec = corpus::load_spec(kCorpusDir / (id + ".cl"));
      if (o.bench_scale) spec = corpus::at_bench_scale(spec);
      NDRange range;
      range.dims = spec.dims;
      range.global = spec.global;
      std::array<uint32_t, 3> local{1, 1, 1};
      if (spec.has_local) {
        for (uint32_t d = 0; d < spec.dims; ++d) local[d] = uint32_t(spec.local[d]);
      } else {
        local = choose_local_size(range, device.dispatch_limits());  // what vkcl's runtime runs
      }
      local_text = std::to_string(local[0]) + "x" + std::to_string(local[1]) + "x" + std::to_string(local[2]);
      vkcl = corpus::run_vkcl(device, spec, kSourceDir, o.repeat);
      twin = run_glsl_twin(raw, spec, (fs::path(o.twins) / (id + ".spv")).string(), local, o.repeat);
      double max_ulp = 0;
      if (vkcl.status != "ok") status = "vkcl " + vkcl.status + ": " + corpus::first_line(vkcl.detail);
      else if (twin.status != "ok") status = "twin " + twin.status + ": " + corpus::first_line(twin.detail);
      else if (std::string mismatch = corpus::compare_sides(spec, vkcl, twin, max_ulp); !mismatch.empty())
        status = "mismatch: " + corpus::first_line(mismatch);
      else if (!vkcl.timing_error.empty() || !twin.timing_error.empty())
        status = "timing: " + vkcl.timing_error + twin.timing_error;
    } catch (const std::exception& e) {
      status = std::string("error: ") + e.what();
    }
    failures += status != "ok";
    const double ratio = !vkcl.times_ms.empty() && !twin.times_ms.empty()
                             ? corpus::median(twin.times_ms) / corpus::median(vkcl.times_ms)
                             : 0;
    char ratio_text[32] = "-";
    if (ratio > 0) std::snprintf(ratio_text, sizeof ratio_text, "%.2fx", ratio);
    std::cout << id << ": local " << local_text << ", vkcl " << ms_text(vkcl.times_ms) << " ms, twin "
              << ms_text(twin.times_ms) << " ms, twin/vkcl " << ratio_text << (status == "ok" ? "" : ", " + status)
              << std::endl;
    std::string quoted = status;
    std::replace(quoted.begin(), quoted.end(), '"', '\'');
    csv << id << ',' << local_text << ',' << ms_text(vkcl.times_ms) << ',' << ms_text(twin.times_ms) << ','
        << (ratio > 0 ? std::to_string(ratio) : "-") << ",\"" << quoted << "\"\n";
  }
  return failures ? 1 : 0;
}

}  // namespace
}  // namespace vkcl::corpus_bench

int main(int argc, char** argv) {
  try {
    return vkcl::corpus_bench::run(vkcl::corpus_bench::parse(argc, argv));
  } catch (const std::invalid_argument& e) {
    if (*e.what() == '\0') {
      std::cout << vkcl::corpus_bench::kUsage;
      return 0;
    }
    std::cerr << "vkcl-corpus-twins: " << e.what() << '\n';
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "vkcl-corpus-twins: " << e.what() << '\n';
    return 1;
  }
}

// The differential test (docs/design.md, "Testing", 5): every kernel of
// shaders/corpus runs through vkcl (build_program on the device
// Device::create() picks: lavapipe here) and through an OpenCL implementation
// (PoCL here, through the ICD loader, in the vkcl_diff_opencl process, at the
// same time), with the inputs, ND-range and build options its header gives;
// the outputs it names are compared exactly (integers) or within its ulp or
// absolute bound (floating point). shaders/corpus/README.md has the header
// format.
//
// vkcl's compiler runs in a worker process (this binary with
// --compile-worker), which fills VKCL_MODULE_CACHE; build_program here then
// loads each module from there. So a crash in clang, LLVM or the translator
// is reported for its kernel (vkcl-crash) instead of ending the test, and a
// build without the compiler (VKCL_WITH_COMPILER=OFF) runs the same test on
// modules recorded elsewhere. Every buffer has guard bytes around it, so a
// kernel that writes outside its buffer is caught, not a heap corruption.
//
// One test per kernel: it passes when the kernel's outcome is what
// shaders/corpus/EXPECTED_FAILURES.txt says (pass when it is not listed, the
// listed status when it is; for opencl-unsupported, see fails_as_listed), so
// a new failure fails the test, and so does a listed kernel that passes or
// fails differently: the list stays honest. At the end, a table of every
// kernel (vkcl status, OpenCL status, result) and the counts.
//
// Environment:
//   VKCL_DIFF_OPENCL_PLATFORM=<substring>  OpenCL platform (default: PoCL, else the first)
//   VKCL_DIFF_OPENCL_DEVICE=<substring>    its device (default: the first)
//   VKCL_DIFF_OPENCL_LIBRARY=<path>        the ICD loader (default: libOpenCL.so.1)
//   VKCL_DIFF_EXPECTATIONS=<file>          another expected-failures list (for another device or platform)
//   VKCL_DIFF_REPORT=<file>                also write the table as Markdown there
//   VKCL_DIFF_VERBOSE=1                    name each kernel on stderr as vkcl runs it
//   VKCL_DEVICE, VKCL_VALIDATION, VKCL_MODULE_CACHE  as everywhere in vkcl
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <regex>

#include "corpus.h"
#include "side.h"
#include "vkcl_side.h"
#include "worker.h"

namespace vkcl {
namespace {

namespace fs = std::filesystem;
using namespace corpus;

const fs::path kSourceDir = VKCL_SOURCE_DIR;
const fs::path kCorpusDir = kSourceDir / "shaders" / "corpus";

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

fs::path expectations_file() {
  std::string chosen = env("VKCL_DIFF_EXPECTATIONS");
  return chosen.empty() ? kCorpusDir / "EXPECTED_FAILURES.txt" : fs::path(chosen);
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

struct Outcome {
  std::string id;
  std::optional<KernelSpec> spec;
  std::string spec_error;
  Side vkcl, opencl;
  std::string status;  // "pass", a status of kStatuses, "no-module" or "spec-error"
  std::string detail;  // why, in one line
  double max_ulp = 0;
};

// A build without the compiler (VKCL_WITH_COMPILER=OFF) cannot compile:
// kernels that vkcl refuses are never recorded in a module cache, so such a
// build reports them as "no-module", which stands for any of the statuses
// of a failed compile.
bool compatible(std::string_view observed, std::string_view expected) {
  if (observed == expected) return true;
  return observed == "no-module" && (expected == "compile-error" || expected == "compile-error-noloc" ||
                                     expected == "internal-error" || expected == "vkcl-crash");
}

// Whether `o` fails as the list's `listed` says. Where the list says
// opencl-unsupported and the OpenCL side was unsupported, there is nothing to
// compare vkcl's result with, so vkcl's own status does not decide: a kernel
// that needs sub-group size 8 runs on lavapipe but is vkcl-unsupported on the
// H100 (size 32 only), and neither PoCL nor NVIDIA's OpenCL has
// cl_intel_required_subgroup_size. vkcl's faults still fail the kernel there:
// an internal error (an invalid module among them), a crash of its compiler,
// a failed load or run, and "no-module" (a build without the compiler cannot
// tell a refusal from those); a clean refusal (a compile error, or a device
// that cannot run the module) is accepted.
bool fails_as_listed(const Outcome& o, std::string_view listed) {
  if (compatible(o.status, listed)) return true;
  if (listed != "opencl-unsupported" || o.opencl.status != "opencl-unsupported") return false;
  const std::string& v = o.vkcl.status;
  return v == "vkcl-unsupported" || v == "compile-error" || v == "compile-error-noloc";
}

// A worker's result file into a Side.
void parse_result(const std::string& text, Side& side, double& seconds) {
  WorkerResult result = corpus::parse_result(text);
  side.status = result.status;
  side.detail = result.details;
  seconds = result.seconds;
}

// The compile worker: vkcl_differential_test --compile-worker DIR vulkan|glsl450 0|1 FILE...
// compiles each kernel as build_program would for a device with that memory
// model (compile_module_for, so through VKCL_MODULE_CACHE, which the test
// points at a directory the parent then loads from) and writes DIR/<id>.vkcl.
int compile_worker(int argc, char** argv) {
  if (argc < 5) return 2;
  const fs::path dir = argv[2];
  ModuleFeatures features;
  features.vulkan_memory_model = std::string(argv[3]) == "vulkan";
  features.vulkan_memory_model_device_scope = std::string(argv[4]) == "1";
  for (int a = 5; a < argc; ++a) {
    const fs::path file = argv[a];
    std::string status = "ok", detail;
    auto start = std::chrono::steady_clock::now();
    try {
      KernelSpec spec = load_spec(file);
      compile_module_for(features, read_file(spec.file), relative_name(spec.file, kSourceDir), compile_options(spec));
    } catch (const CompileError& e) {
      status = classify_compile_error(e.what());
      detail = e.what();
    } catch (const Error& e) {
      detail = e.what();
      status = detail.find("without the compiler") != std::string::npos ? "no-module" : "run-error";
    } catch (const SpecError& e) {
      status = "spec-error";
      detail = e.what();
    } catch (const std::exception& e) {
      status = "internal-error";
      detail = std::string("exception: ") + e.what();
    }
    const double seconds = seconds_since(start);
    write_result(dir, file.stem().string(), ".vkcl", status, seconds, detail);
    // After an internal error (perhaps a crash that LLVM's CrashRecoveryContext
    // caught) this process's state is unspecified (compiler.h): start afresh.
    if (status == "internal-error" && a + 1 < argc) return kRestartMe;
  }
  return 0;
}

// Every kernel's outcome, computed once (in the environment's SetUp) for the
// kernels the test filter selects.
struct CorpusRun {
  std::vector<Outcome> outcomes;
  std::map<std::string, Expectation> expectations;
  std::string expectations_error;
  std::string opencl_unavailable;  // non-empty: no OpenCL platform, every kernel test is skipped
  std::string opencl_description, vkcl_description;
  double vkcl_compile_seconds = 0, vkcl_run_seconds = 0, opencl_seconds = 0, total_seconds = 0;

  const Outcome* find(const std::string& id) const {
    for (const Outcome& o : outcomes)
      if (o.id == id) return &o;
    return nullptr;
  }
};
CorpusRun& the_run() {
  static CorpusRun run;
  return run;
}

void decide(Outcome& o) {
  if (!o.spec) {
    o.status = "spec-error";
    o.detail = o.spec_error;
    return;
  }
  for (const Side* side : {&o.vkcl, &o.opencl})
    if (side->status == "spec-error") {
      o.status = "spec-error";
      o.detail = first_line(side->detail);
      return;
    }
  // vkcl's own failures first: they are what this test is for.
  if (o.vkcl.status != "ok") {
    o.status = o.vkcl.status;
    o.detail = first_line(o.vkcl.detail);
    // "internal error: vkcl produced SPIR-V that is invalid ...": what is invalid is on the next line.
    if (o.status == "internal-error" && o.detail.find("is invalid") != std::string::npos) {
      std::string rest = o.vkcl.detail.substr(std::min(o.vkcl.detail.size(), o.vkcl.detail.find('\n') + 1));
      o.detail = "invalid SPIR-V: " + first_line(rest);
    }
    return;
  }
  if (o.opencl.status != "ok") {
    o.status = o.opencl.status;
    o.detail = first_line(o.opencl.detail);
    return;
  }
  o.detail = compare_sides(*o.spec, o.vkcl, o.opencl, o.max_ulp);
  o.status = o.detail.empty() ? "pass" : "mismatch";
}

std::vector<std::string> corpus_ids() {
  std::vector<std::string> ids;
  for (const fs::path& f : list_corpus(kCorpusDir)) ids.push_back(f.stem().string());
  return ids;
}

std::string truncate(std::string s, size_t width) {
  if (s.size() > width) s = s.substr(0, width - 3) + "...";
  return s;
}

std::string result_text(const Outcome& o, const CorpusRun& run) {
  if (!run.opencl_unavailable.empty()) return "skipped (no OpenCL)";
  auto listed = run.expectations.find(o.id);
  if (o.status == "pass") return listed == run.expectations.end() ? "pass" : "PASS (listed as failing)";
  if (listed == run.expectations.end()) return "FAIL (not listed)";
  return fails_as_listed(o, listed->second.status) ? "fail (listed)" : "FAIL (listed as " + listed->second.status + ")";
}

std::string vkcl_column(const Outcome& o) {
  if (!o.spec) return "-";
  return o.vkcl.status;
}

void print_summary(const CorpusRun& run) {
  if (run.outcomes.empty()) return;
  size_t id_width = 6;
  for (const Outcome& o : run.outcomes) id_width = std::max(id_width, o.id.size());
  std::printf("\nDifferential test: vkcl (%s) against OpenCL (%s)\n", run.vkcl_description.c_str(),
              run.opencl_description.empty() ? "none" : run.opencl_description.c_str());
  if (!run.opencl_unavailable.empty()) std::printf("no OpenCL reference: %s\n", run.opencl_unavailable.c_str());
  std::printf("%-*s  %-19s  %-18s  %-26s  %s\n", int(id_width), "kernel", "vkcl", "OpenCL", "result", "detail");
  std::map<std::string, int> by_status;
  int passed = 0, vkcl_ok = 0, opencl_ok = 0;
  for (const Outcome& o : run.outcomes) {
    by_status[o.status]++;
    passed += o.status == "pass";
    vkcl_ok += o.vkcl.status == "ok";
    opencl_ok += o.opencl.status == "ok";
    std::string detail = o.status == "pass" ? (o.max_ulp > 0 ? "max " + std::to_string(int(o.max_ulp)) + " ulp" : "")
                                            : o.detail;
    std::printf("%-*s  %-19s  %-18s  %-26s  %s\n", int(id_width), o.id.c_str(), vkcl_column(o).c_str(),
                o.opencl.status.c_str(), result_text(o, run).c_str(), truncate(detail, 150).c_str());
  }
  const int n = int(run.outcomes.size());
  std::printf("\n%d kernels: %d pass (%.1f%%); vkcl compiled and ran %d, OpenCL ran %d\n", n, passed,
              100.0 * passed / n, vkcl_ok, opencl_ok);
  std::printf("not passing, by status:");
  for (const auto& [status, count] : by_status)
    if (status != "pass") std::printf(" %s %d,", status.c_str(), count);
  std::printf("\ntime: vkcl compiles %.1f s (in a worker process), vkcl loads and runs %.1f s, OpenCL builds and "
              "runs %.1f s (in parallel); the whole run %.1f s\n",
              run.vkcl_compile_seconds, run.vkcl_run_seconds, run.opencl_seconds, run.total_seconds);

  const std::string report = env("VKCL_DIFF_REPORT");
  if (report.empty()) return;
  std::ofstream out(report, std::ios::trunc);
  out << "vkcl: " << run.vkcl_description << "  \nOpenCL: " << run.opencl_description << "\n\n";
  out << "| kernel | vkcl | OpenCL | result | detail |\n| --- | --- | --- | --- | --- |\n";
  for (const Outcome& o : run.outcomes) {
    std::string detail = o.status == "pass" ? "" : o.detail;
    for (char& c : detail)
      if (c == '|') c = '/';
    out << "| " << o.id << " | " << vkcl_column(o) << " | " << o.opencl.status << " | " << result_text(o, run) << " | "
        << truncate(detail, 200) << " |\n";
  }
  out << "\n" << n << " kernels, " << passed << " pass.\n";
}

class DifferentialEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    auto start = std::chrono::steady_clock::now();
    CorpusRun& run = the_run();
    try {
      run.expectations = parse_expectations(read_file(expectations_file()), expectations_file());
    } catch (const std::exception& e) {
      run.expectations_error = e.what();
    }

    // The kernels whose tests the filter selected.
    std::vector<fs::path> files;
    const ::testing::UnitTest& unit = *::testing::UnitTest::GetInstance();
    for (int s = 0; s < unit.total_test_suite_count(); ++s) {
      const ::testing::TestSuite& suite = *unit.GetTestSuite(s);
      if (std::string(suite.name()) != "Corpus/Differential") continue;
      for (int t = 0; t < suite.total_test_count(); ++t) {
        const ::testing::TestInfo& info = *suite.GetTestInfo(t);
        if (!info.should_run()) continue;
        std::string id = info.name();
        id = id.substr(id.find('/') + 1);
        files.push_back(kCorpusDir / (id + ".cl"));
      }
    }
    if (files.empty()) return;

    std::vector<fs::path> runnable;
    for (const fs::path& f : files) {
      Outcome& o = run.outcomes.emplace_back();
      o.id = f.stem().string();
      try {
        o.spec = load_spec(f);
        runnable.push_back(f);
      } catch (const std::exception& e) {
        o.spec_error = e.what();
      }
    }
    // Scratch space: the workers' results, and the module cache the compile
    // worker fills and build_program reads (the caller's VKCL_MODULE_CACHE
    // when set, so that a recording run for a GPU machine keeps them).
    const fs::path scratch = fs::temp_directory_path() / ("vkcl_differential_" + std::to_string(::getpid()));
    fs::remove_all(scratch);
    fs::create_directories(scratch / "opencl");
    fs::create_directories(scratch / "vkcl");
    if (env("VKCL_MODULE_CACHE").empty()) setenv("VKCL_MODULE_CACHE", (scratch / "modules").c_str(), 1);

    Worker opencl({VKCL_DIFF_OPENCL_WORKER, "--out", (scratch / "opencl").string()}, scratch / "opencl", ".opencl",
                  "opencl-crash");
    opencl.start(runnable);

    Device device = Device::create();
    device.set_timeout(std::chrono::seconds(30));
    run.vkcl_description = device.describe();
    const ModuleFeatures& features = device.features();
    Worker compiler({fs::read_symlink("/proc/self/exe").string(), "--compile-worker", (scratch / "vkcl").string(),
                     features.vulkan_memory_model ? "vulkan" : "glsl450",
                     features.vulkan_memory_model_device_scope ? "1" : "0"},
                    scratch / "vkcl", ".vkcl", "vkcl-crash");
    compiler.start(runnable);

    const bool verbose = !env("VKCL_DIFF_VERBOSE").empty();
    for (Outcome& o : run.outcomes) {
      if (!o.spec) continue;
      double seconds = 0;
      std::string compiled = compiler.result(o.id);
      if (verbose) std::fprintf(stderr, "vkcl: %s: %s\n", o.id.c_str(), first_line(compiled).c_str());
      if (compiled.empty()) {
        o.vkcl.status = "run-error";
        o.vkcl.detail = compiler.fatal();
      } else {
        parse_result(compiled, o.vkcl, seconds);
      }
      run.vkcl_compile_seconds += seconds;
      if (o.vkcl.status == "ok") {
        auto run_start = std::chrono::steady_clock::now();
        o.vkcl = run_vkcl(device, *o.spec, kSourceDir);
        run.vkcl_run_seconds += seconds_since(run_start);
      }
    }

    for (Outcome& o : run.outcomes) {
      if (!o.spec) continue;
      std::string text = opencl.result(o.id);
      if (text.empty()) {
        run.opencl_unavailable = opencl.fatal();
        break;
      }
      double seconds = 0;
      parse_result(text, o.opencl, seconds);
      run.opencl_seconds += seconds;
      if (o.opencl.status != "ok") continue;
      read_worker_outputs(*o.spec, scratch / "opencl", o.opencl);
    }
    run.opencl_description = read_text(scratch / "opencl" / "platform.txt");
    while (!run.opencl_description.empty() && run.opencl_description.back() == '\n') run.opencl_description.pop_back();
    for (size_t p; (p = run.opencl_description.find('\n')) != std::string::npos;) run.opencl_description.replace(p, 1, "; ");
    for (Outcome& o : run.outcomes) decide(o);
    std::error_code ignored;
    fs::remove_all(scratch, ignored);
    run.total_seconds = seconds_since(start);
  }

  void TearDown() override { print_summary(the_run()); }
};

class Differential : public ::testing::TestWithParam<std::string> {};

TEST_P(Differential, MatchesOpenCL) {
  const CorpusRun& run = the_run();
  ASSERT_EQ(run.expectations_error, "");
  if (!run.opencl_unavailable.empty()) GTEST_SKIP() << "no OpenCL reference: " << run.opencl_unavailable;
  const Outcome* o = run.find(GetParam());
  ASSERT_NE(o, nullptr);
  auto listed = run.expectations.find(o->id);
  const std::string where = expectations_file().string();
  if (o->status == "pass") {
    if (listed != run.expectations.end())
      ADD_FAILURE() << o->id << " passes, but " << where << ":" << listed->second.line << " lists it as "
                    << listed->second.status << " (" << listed->second.reason << "): remove that line";
    return;
  }
  const std::string details = "vkcl: " + o->vkcl.status + (o->vkcl.detail.empty() ? "" : "\n" + truncate(o->vkcl.detail, 3000)) +
                              "\nOpenCL: " + o->opencl.status +
                              (o->opencl.detail.empty() ? "" : "\n" + truncate(o->opencl.detail, 3000));
  if (listed == run.expectations.end()) {
    ADD_FAILURE() << o->id << ": " << o->status << ": " << o->detail << "\n" << details
                  << "\n(if this is a known limitation, list it in " << where << ")";
  } else if (!fails_as_listed(*o, listed->second.status)) {
    ADD_FAILURE() << o->id << " fails as " << o->status << ", but " << where << ":" << listed->second.line
                  << " lists it as " << listed->second.status << ": " << o->detail << "\n" << details;
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, Differential, ::testing::ValuesIn(corpus_ids()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

// The corpus itself: large enough, named so that test names and the list can
// refer to each kernel, and the expected-failures list names only kernels that exist.
TEST(Corpus, HasAtLeast100KernelsWithValidHeaders) {
  std::vector<fs::path> files = list_corpus(kCorpusDir);
  EXPECT_GE(files.size(), 100u);
  static const std::regex name("[a-z0-9_]+");
  for (const fs::path& f : files) {
    EXPECT_TRUE(std::regex_match(f.stem().string(), name)) << f << ": corpus file names are [a-z0-9_]+.cl";
    try {
      load_spec(f);
    } catch (const std::exception& e) {
      ADD_FAILURE() << e.what();
    }
  }
}

TEST(Corpus, ExpectedFailuresNameExistingKernels) {
  std::map<std::string, Expectation> expectations;
  try {
    expectations = parse_expectations(read_file(expectations_file()), expectations_file());
  } catch (const std::exception& e) {
    FAIL() << e.what();
  }
  std::vector<std::string> ids = corpus_ids();
  for (const auto& [id, expectation] : expectations)
    EXPECT_NE(std::find(ids.begin(), ids.end(), id), ids.end())
        << expectations_file().string() << ":" << expectation.line << ": " << id << " is not a kernel of " << kCorpusDir;
}

}  // namespace
}  // namespace vkcl

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "--compile-worker") return vkcl::compile_worker(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  ::testing::AddGlobalTestEnvironment(new vkcl::DifferentialEnvironment);
  return RUN_ALL_TESTS();
}

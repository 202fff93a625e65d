#include "conformance.h"

#include "spirv_sync.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <sstream>
#include <stdexcept>

namespace vkcl::conformance {
namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

const char* std_name(OpenCLStd s) { return s == OpenCLStd::CL1_2 ? "CL1.2" : s == OpenCLStd::CL2_0 ? "CL2.0" : "CL3.0"; }

std::string key_of(const std::string& file, OpenCLStd cl_std, const std::vector<std::string>& defines) {
  std::string key = file + "|" + std_name(cl_std);
  for (const std::string& d : defines) key += "|" + d;
  return key;
}

}  // namespace

Device& device() {
  // Never destroyed: programs and kernels held in static maps outlive any
  // static Device, and the validation layer has crashed destroying pipelines
  // after their device at exit.
  static Device& d = *new Device([] {
    Device created = Device::create();
    std::printf("vkcl device: %s\n", created.describe().c_str());
    return created;
  }());
  return d;
}

std::string device_name() { return device().name(); }

std::string shader_path(const std::string& file) { return (std::filesystem::path(VKCL_SHADERS_DIR) / file).string(); }

const VulkanModule& module(const std::string& file, OpenCLStd cl_std, const std::vector<std::string>& defines) {
  static auto& modules = *new std::map<std::string, std::unique_ptr<VulkanModule>>;
  const std::string key = key_of(file, cl_std, defines);
  if (auto it = modules.find(key); it != modules.end()) return *it->second;
  const std::string path = shader_path(file);
  CompileOptions compile;
  compile.cl_std = cl_std;
  compile.defines = defines;
  auto built = std::make_unique<VulkanModule>(compile_module_for(device().features(), read_text(path), path, compile));
  return *modules.emplace(key, std::move(built)).first->second;
}

Program& program(const std::string& file, OpenCLStd cl_std, const std::vector<std::string>& defines) {
  static auto& programs = *new std::map<std::string, std::unique_ptr<Program>>;
  const std::string key = key_of(file, cl_std, defines);
  if (auto it = programs.find(key); it != programs.end()) return *it->second;
  const VulkanModule& m = module(file, cl_std, defines);
  auto built = std::make_unique<Program>(device(), m.words, m.reflection);
  return *programs.emplace(key, std::move(built)).first->second;
}

size_t expect_barriers(const std::string& file, OpenCLStd cl_std, const std::vector<std::string>& defines,
                       const std::string& kernel, const std::vector<std::string>& expected) {
  std::vector<std::string> got;
  for (const SyncInstruction& s : synchronization_of(module(file, cl_std, defines).words, kernel))
    if (s.opcode == spv::OpControlBarrier || s.opcode == spv::OpMemoryBarrier) got.push_back(describe(s));
  std::string listing;
  for (const std::string& g : got) listing += "\n    " + g;
  EXPECT_FALSE(got.empty()) << kernel << " in " << file << " has no barrier";
  for (const std::string& g : got)
    EXPECT_TRUE(std::find(expected.begin(), expected.end(), g) != expected.end())
        << kernel << " in " << file << ": unexpected " << g << "; it has:" << listing;
  for (const std::string& e : expected)
    EXPECT_TRUE(std::find(got.begin(), got.end(), e) != got.end())
        << kernel << " in " << file << ": no " << e << "; it has:" << listing;
  return got.size();
}

uint32_t max_local_size(uint32_t cap) {
  const DispatchLimits limits = device().dispatch_limits();
  return std::min({cap, limits.max_local_size[0], limits.max_invocations});
}

// --- Options -------------------------------------------------------------------

Options& options() {
  static Options o;
  return o;
}

namespace {

struct Flag {
  const char* name;  // after --litmus- (or the whole name for others)
  const char* help;
  uint64_t* u64 = nullptr;
  uint32_t* u32 = nullptr;
  std::string* text = nullptr;
};

std::vector<Flag> flags() {
  Options& o = options();
  LitmusOptions& l = o.litmus;
  return {
      {"litmus-instances", "test instances per litmus test (default 100000 on a CPU device, 10000000 on a GPU)", &l.instances},
      {"litmus-iterations", "dispatches per litmus test; overrides --litmus-instances", nullptr, &l.iterations},
      {"litmus-local-size", "work-items per work-group (default 256)", nullptr, &l.local_size},
      {"litmus-testing-groups", "work-groups that test, at least (default 2 on a CPU device / 256 on a GPU)", nullptr, &l.testing_groups},
      {"litmus-max-groups", "work-groups per dispatch; the testing count is drawn up to it (default 2 / 1024)", nullptr, &l.max_groups},
      {"litmus-stress-iterations", "memory-stress loop of non-testing work-groups (default 32 / 256)", nullptr, &l.stress_iterations},
      {"litmus-pre-stress-iterations", "stress before the test in testing work-groups (default 8 / 64)", nullptr, &l.pre_stress_iterations},
      {"litmus-stress-pct", "chance (%) of memory stress in a dispatch (default 100)", nullptr, &l.stress_pct},
      {"litmus-pre-stress-pct", "chance (%) of pre-test stress (default 100)", nullptr, &l.pre_stress_pct},
      {"litmus-barrier-pct", "chance (%) of the pre-test barrier across work-groups (default 100)", nullptr, &l.barrier_pct},
      {"litmus-staggered-barrier", "1: work-items leave the pre-test barrier by local id (harness.h), 0: all together (default 1 on a CPU device, 0 on a GPU)", nullptr, &l.staggered_barrier},
      {"litmus-spin-polls", "polls of the pre-test barrier before it gives up (default 60000 / 1024)", nullptr, &l.spin_polls},
      {"litmus-shuffle-pct", "chance (%) that work-group ids are shuffled (default 100)", nullptr, &l.shuffle_pct},
      {"litmus-stride", "words between neighbouring test locations (default 4)", nullptr, &l.stride},
      {"litmus-scratch-words", "size of the stress scratchpad in words (default 2048)", nullptr, &l.scratch_words},
      {"litmus-stress-line-words", "words per stressed line (default 64)", nullptr, &l.stress_line_words},
      {"litmus-stress-lines", "lines the stress targets (default 2)", nullptr, &l.stress_lines},
      {"litmus-gap", "spins between the two reads of the broken variants (default 64 / 256)", nullptr, &l.gap},
      {"litmus-permute-first", "across work-groups, pair local id lid with (lid * N) % local size in the other work-group (default 1 on a CPU device, else 0: a random prime per dispatch)", nullptr, &l.permute_first},
      {"litmus-batch", "dispatches per submission (default 16 / 32)", nullptr, &l.batch},
      {"litmus-seconds", "per test, no new submission after this many seconds (default 5 on a CPU device, 8 on a GPU)", nullptr, &l.seconds},
      {"litmus-total-seconds", "all litmus tests together, shared out as they run (default 60 on a CPU device, 300 on a GPU)", nullptr, &l.total_seconds},
      {"litmus-seed", "random seed of the thread placement and stress (default 1)", &l.seed},
      {"conformance-repeat", "runs of each conformance dispatch (default 1)", nullptr, &o.repeat},
      {"junit", "JUnit XML output (default vkcl-conformance.xml; --gtest_output wins)", nullptr, nullptr, &o.junit},
      {"summary", "markdown summary tables (default: the JUnit path with .md)", nullptr, nullptr, &o.summary},
  };
}

std::string env_name(const char* flag) {
  std::string name = "VKCL_";
  for (const char* c = flag; *c; ++c) name += *c == '-' ? '_' : char(std::toupper(static_cast<unsigned char>(*c)));
  return name;
}

bool assign(const Flag& flag, const std::string& value) {
  try {
    if (flag.text) *flag.text = value;
    else if (flag.u64) *flag.u64 = std::stoull(value, nullptr, 0);
    else *flag.u32 = static_cast<uint32_t>(std::stoul(value, nullptr, 0));
    return true;
  } catch (const std::exception&) {
    std::fprintf(stderr, "vkcl-conformance: --%s: not a number: '%s'\n", flag.name, value.c_str());
    return false;
  }
}

}  // namespace

std::string options_help() {
  std::ostringstream s;
  s << "vkcl-conformance options (each also an environment variable, e.g. VKCL_LITMUS_INSTANCES):\n";
  for (const Flag& f : flags()) s << "  --" << f.name << "=VALUE\n      " << f.help << "\n";
  return s.str();
}

bool parse_options(int& argc, char** argv) {
  const std::vector<Flag> all = flags();
  for (const Flag& f : all)
    if (const char* value = std::getenv(env_name(f.name).c_str()); value && *value)
      if (!assign(f, value)) return false;
  int out = 1;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    const Flag* match = nullptr;
    std::string value;
    for (const Flag& f : all) {
      const std::string prefix = std::string("--") + f.name + "=";
      if (arg.rfind(prefix, 0) == 0) {
        match = &f;
        value = arg.substr(prefix.size());
      }
    }
    if (match) {
      if (!assign(*match, value)) return false;
      continue;
    }
    if (arg.rfind("--litmus-", 0) == 0 || arg.rfind("--conformance-", 0) == 0 || arg == "--junit" || arg == "--summary") {
      std::fprintf(stderr, "vkcl-conformance: unknown option '%s' (write --name=value)\n%s", arg.c_str(),
                   options_help().c_str());
      return false;
    }
    argv[out++] = argv[i];
  }
  argc = out;
  argv[argc] = nullptr;
  return true;
}

const LitmusOptions& litmus_options() {
  static const LitmusOptions resolved = [] {
    LitmusOptions l = options().litmus;
    const bool cpu = device().properties().deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
    auto fill = [&](auto& value, auto on_cpu, auto on_gpu) {
      if (value == 0) value = cpu ? on_cpu : on_gpu;
    };
    // A CPU device (lavapipe) runs each work-group on one thread, its SIMD
    // chunks one after another: two work-groups, one per thread, paired by
    // local id and released chunk by chunk by the staggered barrier, are
    // what overlaps there (harness.h). A GPU gets the published tests' sizes.
    fill(l.instances, uint64_t(100000), uint64_t(10'000'000));
    fill(l.local_size, 256u, 256u);
    fill(l.testing_groups, 2u, 256u);
    fill(l.max_groups, 2u, 1024u);
    if (cpu && l.permute_first == 0) l.permute_first = 1;
    fill(l.stress_iterations, 32u, 256u);
    fill(l.pre_stress_iterations, 8u, 64u);
    fill(l.gap, 64u, 256u);
    fill(l.batch, 16u, 32u);
    fill(l.seconds, 5u, 8u);
    fill(l.total_seconds, 60u, 300u);
    fill(l.spin_polls, 60000u, 1024u);  // lavapipe ends loops after 65535 iterations
    if (l.staggered_barrier > 1) l.staggered_barrier = cpu ? 1 : 0;
    l.local_size = std::min(l.local_size, max_local_size());
    l.local_size = std::max(l.local_size, 8u);  // classify's tally needs 5 work-items
    l.max_groups = std::max(l.max_groups, 2u);
    l.testing_groups = std::clamp(l.testing_groups, 2u, l.max_groups);
    l.stride = std::max(l.stride, 1u);
    l.stress_line_words = std::max(l.stress_line_words, 2u);
    l.scratch_words = std::max(l.scratch_words, l.stress_line_words);
    l.stress_lines = std::clamp(l.stress_lines, 1u, l.scratch_words / l.stress_line_words);
    l.batch = std::max(l.batch, 1u);
    return l;
  }();
  return resolved;
}

// --- The summary -----------------------------------------------------------------

std::vector<SummaryRow>& summary_rows() {
  static std::vector<SummaryRow> rows;
  return rows;
}

std::vector<LitmusRow>& litmus_rows() {
  static std::vector<LitmusRow> rows;
  return rows;
}

PendingRecord& pending_record() {
  static PendingRecord record;
  return record;
}

void record_iterations(uint64_t iterations, const std::string& detail) {
  pending_record().iterations += iterations;
  if (!detail.empty()) pending_record().detail = detail;
  ::testing::Test::RecordProperty("iterations", std::to_string(pending_record().iterations));
  if (!detail.empty()) ::testing::Test::RecordProperty("detail", detail);
}

void record_litmus(const LitmusRow& row) {
  litmus_rows().push_back(row);
  std::ostringstream outcomes;
  for (size_t i = 0; i < row.outcomes.size(); ++i)
    outcomes << (i ? ", " : "") << (i < row.outcome_names.size() ? row.outcome_names[i] : "invalid") << ": "
             << row.outcomes[i];
  ::testing::Test::RecordProperty("expect", row.expect);
  ::testing::Test::RecordProperty("outcomes", outcomes.str());
  ::testing::Test::RecordProperty("weak", std::to_string(row.weak_index >= 0 ? row.outcomes[row.weak_index] : 0));
  record_iterations(row.instances, std::to_string(row.dispatches) + " dispatches");
}

}  // namespace vkcl::conformance

// What the tests of vkcl-conformance share: the one Device (VKCL_DEVICE
// picks it), kernels built from shaders/ in process with vkcl::build_program
// (so VKCL_MODULE_CACHE records and replays them), the command-line and
// environment options, and the rows of the summary table main.cpp prints.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "vkcl/host.h"
#include "vkcl/source_program.h"

namespace vkcl::conformance {

Device& device();
// A short name for the summary: the device's name.
std::string device_name();

// The module of shaders/<file> (relative to the shaders directory) for the
// device, compiled once per (file, standard, defines) and kept.
const VulkanModule& module(const std::string& file, OpenCLStd cl_std, const std::vector<std::string>& defines = {});
// A Program of that module on device(), kept as long as the process.
Program& program(const std::string& file, OpenCLStd cl_std, const std::vector<std::string>& defines = {});
std::string shader_path(const std::string& file);

// Checks that every barrier (OpControlBarrier / OpMemoryBarrier) of
// `kernel` in the module of (file, std, defines) reads `expected` (as
// spirv_sync.h's describe() writes it), and that there is at least one;
// a failure names the kernel and lists what it has. Returns how many.
size_t expect_barriers(const std::string& file, OpenCLStd cl_std, const std::vector<std::string>& defines,
                       const std::string& kernel, const std::vector<std::string>& expected);

// The largest 1-D work-group the device runs (capped at `cap`).
uint32_t max_local_size(uint32_t cap = 1024);

// --- Options -------------------------------------------------------------------

// Every option has a flag (--litmus-instances=N) and an environment variable
// (VKCL_LITMUS_INSTANCES=N); the flag wins. Zero where a default depends on
// the device (a CPU device such as lavapipe gets CI-sized defaults, a GPU the
// stress-sized ones of the published tests).
struct LitmusOptions {
  uint64_t instances = 0;         // test instances per litmus test (a target: whole dispatches)
  uint32_t iterations = 0;        // dispatches per test; overrides instances when set
  uint32_t local_size = 0;        // work-items per work-group
  uint32_t testing_groups = 0;    // at least this many work-groups test in each dispatch
  uint32_t max_groups = 0;        // work-groups per dispatch; the testing count is drawn in [testing, max]
  uint32_t stress_iterations = 0; // memory stress by non-testing work-groups
  uint32_t pre_stress_iterations = 0;
  uint32_t stress_pct = 100;      // chance that a dispatch has memory stress
  uint32_t pre_stress_pct = 100;  // chance of stress before the test in testing work-groups
  uint32_t barrier_pct = 100;     // chance of the pre-test barrier (across work-groups)
  uint32_t staggered_barrier = 2; // 1: the pre-test barrier is staggered by local id (harness.h); 0: it waits for all; 2: default
  uint32_t spin_polls = 0;        // at most this many polls in the pre-test barrier
  uint32_t shuffle_pct = 100;     // chance that work-group ids are shuffled
  uint32_t stride = 4;            // words between neighbouring test locations (x, y of an instance: 2 * stride apart)
  uint32_t scratch_words = 2048;  // the stress scratchpad
  uint32_t stress_line_words = 64;
  uint32_t stress_lines = 2;      // hot lines the stress targets
  uint32_t gap = 0;               // spins between the reads of the broken variants
  uint32_t permute_first = 0;     // across work-groups: thread 1's local id is (lid * this) % local size; 0: a random prime
  uint32_t batch = 0;             // dispatches per submission
  uint32_t seconds = 0;           // per test: stop starting submissions after this long (0: default)
  uint32_t total_seconds = 0;     // all litmus tests together: each gets at most its share of what is left
  uint64_t seed = 1;
};

struct Options {
  LitmusOptions litmus;
  uint32_t repeat = 1;  // conformance dispatches run this many times each
  std::string junit;    // JUnit XML path ("" = vkcl-conformance.xml)
  std::string summary;  // markdown summary path ("" = next to the JUnit XML, .md)
};
Options& options();
// The litmus options with the device's defaults filled in.
const LitmusOptions& litmus_options();
// Parses and removes vkcl-conformance's own flags from argv (after gtest took
// its own); returns false and prints usage on an unknown --litmus-/--conformance- flag.
bool parse_options(int& argc, char** argv);
std::string options_help();

// --- The summary -----------------------------------------------------------------

// For the running test: its iterations (dispatches, or litmus instances),
// shown in the summary and recorded as the JUnit property "iterations".
void record_iterations(uint64_t iterations, const std::string& detail = "");

struct LitmusRow {
  std::string test;
  std::string expect;  // "forbidden", "allowed", "broken", "mis-mapped"
  uint64_t instances = 0;
  std::vector<std::string> outcome_names;
  std::vector<uint64_t> outcomes;  // per outcome, then invalid
  int weak_index = -1;
  uint64_t dispatches = 0;
  double gpu_seconds = 0;
  double seconds = 0;
  std::string verdict;
};
void record_litmus(const LitmusRow& row);

// Rows for the table, in test order; written by main.cpp's listener.
struct SummaryRow {
  std::string test;
  uint64_t iterations = 0;
  std::string detail;
  std::string result;
  double seconds = 0;
};
std::vector<SummaryRow>& summary_rows();
std::vector<LitmusRow>& litmus_rows();
// The test's detail and iterations, set by record_*; consumed by the listener.
struct PendingRecord {
  uint64_t iterations = 0;
  std::string detail;
};
PendingRecord& pending_record();

}  // namespace vkcl::conformance

// vkcl-corpus-bench's command line.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace vkcl::corpus_bench {

struct Options {
  std::vector<std::string> only;      // kernel ids; empty: every kernel of the corpus
  bool bench_scale = true;            // false: the header's normal (differential) size
  int repeat = 10;                    // timed runs per kernel and implementation
  std::vector<std::string> opencl;    // platform name substrings; empty: the differential test's default
  std::string out = ".";
  double threshold_ms = 0.02;
  std::string device;                 // Vulkan device selector (VKCL_DEVICE's syntax)
  std::string expectations;           // the expected-failures list
  std::string from;                   // --from ID: the kernels from ID on, in name order
  int part = 1, parts = 1;            // --part K/N: the kernels whose index is K-1 modulo N
  double time_limit_s = 0;            // 0: none; else no kernel starts after that many seconds
  std::vector<std::string> merge;     // --merge: report these saved runs instead of running
  std::string corpus;                 // the kernels' directory (shaders/corpus unless --corpus)
};

// A bad command line (its message names the argument); an empty message asks for the usage.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

extern const char* const kUsage;

// `default_corpus` unless --corpus names another directory (whose
// EXPECTED_FAILURES.txt, if any, is then the default list); --only's and
// --from's ids are checked against the kernels there. The expected-failures
// list is --expectations, else VKCL_DIFF_EXPECTATIONS, else the corpus's
// (empty: none).
Options parse_options(int argc, char** argv, const std::string& default_corpus);

}  // namespace vkcl::corpus_bench

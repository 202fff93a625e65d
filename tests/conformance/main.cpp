// vkcl-conformance: the GPU conformance suite and the memory-model litmus
// tests (docs/conformance.md). Runs on the device
// VKCL_DEVICE selects, prints a summary table (test, device, iterations,
// result) and a table of litmus outcomes, and writes JUnit XML
// (vkcl-conformance.xml, or --junit=PATH; --gtest_output=xml:PATH wins) with
// the same tables in markdown beside it. Non-uniform work-groups with
// barriers are tests/host/ndrange_conformance_test's, not repeated here.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "conformance.h"

namespace vkcl::conformance {
namespace {

std::string pad(std::string s, size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

std::string seconds_text(double s) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", s);
  return text;
}

std::string rate_text(uint64_t count, uint64_t total) {
  if (total == 0) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.2e", double(count) / double(total));
  return text;
}

// Markdown tables: readable in a terminal and pasteable into a note.
std::string tables() {
  std::ostringstream s;
  const std::string device = device_name();
  size_t width = 4;
  for (const SummaryRow& r : summary_rows()) width = std::max(width, r.test.size());
  s << "| " << pad("test", width) << " | device | iterations | result | seconds | detail |\n";
  s << "| " << std::string(width, '-') << " | --- | ---: | --- | ---: | --- |\n";
  for (const SummaryRow& r : summary_rows())
    s << "| " << pad(r.test, width) << " | " << device << " | " << r.iterations << " | " << r.result << " | "
      << seconds_text(r.seconds) << " | " << r.detail << " |\n";
  if (!litmus_rows().empty()) {
    s << "\nLitmus outcomes (" << device << "); the weak outcome is marked *:\n\n";
    s << "| litmus test | expect | instances | outcomes | weak | weak rate | invalid | GPU s | verdict |\n";
    s << "| --- | --- | ---: | --- | ---: | ---: | ---: | ---: | --- |\n";
    for (const LitmusRow& r : litmus_rows()) {
      std::string outcomes;
      for (size_t i = 0; i + 1 < r.outcomes.size(); ++i) {
        if (i < r.outcome_names.size() && r.outcome_names[i].empty()) continue;
        if (!outcomes.empty()) outcomes += ", ";
        outcomes += (int(i) == r.weak_index ? "*" : "") + r.outcome_names[i] + ": " + std::to_string(r.outcomes[i]);
      }
      const uint64_t weak = r.weak_index >= 0 ? r.outcomes[r.weak_index] : 0;
      s << "| " << r.test << " | " << r.expect << " | " << r.instances << " | " << outcomes << " | " << weak << " | "
        << rate_text(weak, r.instances) << " | " << r.outcomes.back() << " | " << seconds_text(r.gpu_seconds) << " | "
        << r.verdict << " |\n";
    }
  }
  return s.str();
}

// Creates the device before any test, and names it in the XML (<testsuites>).
class DeviceEnvironment : public ::testing::Environment {
 public:
  void SetUp() override { ::testing::Test::RecordProperty("device", device().describe()); }
};

class Summary : public ::testing::EmptyTestEventListener {
 public:
  explicit Summary(std::string path) : path_(std::move(path)) {}

  void OnTestStart(const ::testing::TestInfo&) override {
    pending_record() = {};
    start_ = std::chrono::steady_clock::now();
  }

  void OnTestEnd(const ::testing::TestInfo& info) override {
    SummaryRow row;
    // "Forms/Reduction" + "EveryWorkItemSeesTheSum/barrier_reduce_global": the
    // instantiation's prefix says nothing.
    std::string suite = info.test_suite_name();
    if (auto slash = suite.find('/'); slash != std::string::npos) suite = suite.substr(slash + 1);
    row.test = suite + "." + info.name();
    row.iterations = pending_record().iterations;
    row.detail = pending_record().detail;
    const ::testing::TestResult* result = info.result();
    row.result = result->Skipped() ? "skipped" : result->Failed() ? "FAILED" : "passed";
    row.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    summary_rows().push_back(row);
  }

  void OnTestProgramEnd(const ::testing::UnitTest&) override {
    if (summary_rows().empty()) return;
    const std::string text = tables();
    std::printf("\nvkcl-conformance summary\n\n%s\n", text.c_str());
    if (!path_.empty()) {
      std::ofstream out(path_);
      out << "# vkcl-conformance on " << device_name() << "\n\n" << text;
      std::printf("summary written to %s\n", path_.c_str());
    }
    std::fflush(stdout);
  }

 private:
  std::string path_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace
}  // namespace vkcl::conformance

int main(int argc, char** argv) {
  namespace c = vkcl::conformance;
  // JUnit XML through gtest's own writer, which reads its flag in
  // InitGoogleTest: --junit=PATH (default vkcl-conformance.xml) unless
  // --gtest_output or GTEST_OUTPUT asks for something else.
  std::string xml = "vkcl-conformance.xml";
  bool gtest_output = std::getenv("GTEST_OUTPUT") != nullptr;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--junit=", 0) == 0) xml = arg.substr(8);
    if (arg.rfind("--gtest_output=", 0) == 0) gtest_output = true;
  }
  if (!gtest_output) ::testing::GTEST_FLAG(output) = "xml:" + xml;
  ::testing::InitGoogleTest(&argc, argv);
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--help" || std::string(argv[i]) == "-h") {
      std::printf("%s\n", c::options_help().c_str());
      std::fflush(stdout);
      return RUN_ALL_TESTS();  // prints gtest's own help and runs nothing
    }
  if (!c::parse_options(argc, argv)) return 2;
  if (argc > 1) {
    std::fprintf(stderr, "vkcl-conformance: unexpected argument '%s'\n%s", argv[1], c::options_help().c_str());
    return 2;
  }
  std::string output = ::testing::GTEST_FLAG(output);
  if (output.rfind("xml:", 0) == 0) output = output.substr(4);
  else if (output == "xml") output = "test_detail.xml";
  std::string summary = c::options().summary;
  if (summary.empty() && !output.empty() && output.back() != '/')
    summary = std::filesystem::path(output).replace_extension(".md").string();
  ::testing::UnitTest::GetInstance()->listeners().Append(new c::Summary(summary));
  ::testing::AddGlobalTestEnvironment(new c::DeviceEnvironment);
  return RUN_ALL_TESTS();
}

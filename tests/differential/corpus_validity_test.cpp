// Every corpus kernel through the stand-alone tools (docs/design.md, "Testing", 2):
// clc, with the -cl-std and -D options of the kernel's header, either writes a
// module that the stand-alone spirv-val accepts for Vulkan 1.1 and for Vulkan
// 1.2, or refuses the kernel cleanly: exit status 1 (not a signal), no output
// file, a diagnostic on stderr, and the kernel listed in
// shaders/corpus/EXPECTED_FAILURES.txt with a compile status. A kernel that
// the list says clc refuses but that compiles fails the test too.
//
// (tests/spirv's shader_validity_test covers the rest of shaders/: it needs
// every kernel there to compile, which the corpus, by design, does not.)
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <future>
#include <regex>

#include "corpus.h"

namespace vkcl::corpus {
namespace {

namespace fs = std::filesystem;

const fs::path kSourceDir = VKCL_SOURCE_DIR;
const fs::path kCorpusDir = kSourceDir / "shaders" / "corpus";

struct Command {
  int status = -1;
  std::string output;
  bool exited() const { return WIFEXITED(status); }
  int code() const { return WEXITSTATUS(status); }
};

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

Command run(const std::string& command) {
  Command result;
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return result;
  char buffer[4096];
  for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) result.output.append(buffer, n);
  result.status = ::pclose(pipe);
  return result;
}

std::vector<std::string> corpus_ids() {
  std::vector<std::string> ids;
  for (const fs::path& f : list_corpus(kCorpusDir)) ids.push_back(f.stem().string());
  return ids;
}

const std::map<std::string, Expectation>& expectations() {
  static const std::map<std::string, Expectation> listed = [] {
    fs::path file = kCorpusDir / "EXPECTED_FAILURES.txt";
    return parse_expectations(read_file(file), file);
  }();
  return listed;
}

bool is_compile_status(std::string_view status) {
  return status == "compile-error" || status == "compile-error-noloc" || status == "internal-error";
}

class CorpusValidity : public ::testing::TestWithParam<std::string> {
 protected:
  static void SetUpTestSuite() {
    out_dir_ = fs::temp_directory_path() / ("vkcl_corpus_validity_" + std::to_string(::getpid()));
    fs::create_directories(out_dir_);
  }
  static void TearDownTestSuite() { fs::remove_all(out_dir_); }
  static fs::path out_dir_;
};
fs::path CorpusValidity::out_dir_;

TEST_P(CorpusValidity, ClcWritesAValidModuleOrRefusesCleanly) {
  const std::string id = GetParam();
  const fs::path file = kCorpusDir / (id + ".cl");
  KernelSpec spec = load_spec(file);
  const fs::path out = out_dir_ / (id + ".spv");
  std::string command = std::string(VKCL_CLC) + " -cl-std=" + spec.cl_std;
  for (const std::string& d : spec.defines) command += " " + quote("-D" + d);
  // Relative to the repository, as the differential test names it.
  command = "cd " + quote(kSourceDir.string()) + " && " + command + " " +
            quote(fs::relative(file, kSourceDir).generic_string()) + " -o " + quote(out.string());
  Command clc = run(command);
  auto listed = expectations().find(id);
  const bool listed_as_refused = listed != expectations().end() && is_compile_status(listed->second.status);

  if (clc.exited() && clc.code() == 0) {
    EXPECT_FALSE(listed_as_refused) << id << " compiles with clc, but EXPECTED_FAILURES.txt:" << listed->second.line
                                    << " lists it as " << listed->second.status;
    for (const char* env : {"vulkan1.1", "vulkan1.2"}) {
      Command val = run(std::string(VKCL_SPIRV_VAL) + " --target-env " + env + " " + quote(out.string()));
      EXPECT_TRUE(val.exited() && val.code() == 0) << id << ": clc's module is invalid for " << env << ":\n" << val.output;
    }
    return;
  }
  ASSERT_TRUE(clc.exited()) << id << ": clc died of signal " << WTERMSIG(clc.status) << ":\n" << clc.output;
  EXPECT_EQ(clc.code(), 1) << id << ": clc exited with " << clc.code() << " (1 is a compile error):\n" << clc.output;
  EXPECT_FALSE(fs::exists(out)) << id << ": clc failed but wrote " << out;
  // clang-style "file:line:col: error: ", or "file: error: " where vkcl knows no location yet.
  static const std::regex diagnostic(R"((^|\n)([^\s:]+(:[0-9]+:[0-9]+)?: error: |error: |internal error: ))");
  EXPECT_TRUE(std::regex_search(clc.output, diagnostic)) << id << ": clc failed without a diagnostic:\n" << clc.output;
  EXPECT_TRUE(listed_as_refused) << id << ": clc refuses it, and EXPECTED_FAILURES.txt does not list it with a "
                                 << "compile status:\n" << clc.output;
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusValidity, ::testing::ValuesIn(corpus_ids()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace vkcl::corpus

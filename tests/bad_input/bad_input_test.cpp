// The bad-input corpus: every case under cases/ run through the clc binary,
// judged by its checked-in expectation file (README.md there has the format):
// the exit status, the messages, the files left behind (none, unless the case
// compiles), and never a crash, a sanitizer report or a hang.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace fs = std::filesystem;

namespace {

const fs::path kCases = fs::path(VKCL_BAD_INPUT_DIR) / "cases";

std::string read_file(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

std::vector<std::string> split(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

// "bad\xff.cl" → the bytes it stands for.
std::string unescape(const std::string& text) {
  std::string bytes;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 3 < text.size() && text[i + 1] == 'x' && std::isxdigit(static_cast<unsigned char>(text[i + 2])) &&
        std::isxdigit(static_cast<unsigned char>(text[i + 3]))) {
      bytes += static_cast<char>(std::stoi(text.substr(i + 2, 2), nullptr, 16));
      i += 3;
    } else {
      bytes += text[i];
    }
  }
  return bytes;
}

struct Expectation {
  std::vector<std::string> args;
  std::string input;            // the file clc is given, in its working directory
  bool use_stdin = false;       // input through '-'
  std::vector<std::string> generate;  // generator and its parameters, instead of <case>.cl
  std::vector<std::string> mkdirs;
  int timeout_s = 120;
  std::optional<int> exit_status;
  bool output_written = false;
  bool stderr_empty = false;
  std::vector<std::string> stderr_lines;
};

Expectation parse_expectation(const std::string& name) {
  Expectation e;
  e.input = name + ".cl";
  std::istringstream in(read_file(kCases / (name + ".expect")));
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const size_t colon = line.find(": ");
    if (colon == std::string::npos) {
      ADD_FAILURE() << name << ".expect: not 'key: value': " << line;
      continue;
    }
    const std::string key = line.substr(0, colon), value = line.substr(colon + 2);
    if (key == "args") e.args = split(value);
    else if (key == "input") e.input = unescape(value);
    else if (key == "stdin") e.use_stdin = value == "yes";
    else if (key == "generate") e.generate = split(value);
    else if (key == "mkdir") e.mkdirs.push_back(value);
    else if (key == "timeout") e.timeout_s = std::stoi(value);
    else if (key == "exit") e.exit_status = std::stoi(value);
    else if (key == "output") e.output_written = value == "written";
    else if (key == "stderr-empty") e.stderr_empty = value == "yes";
    else if (key == "stderr") e.stderr_lines.push_back(unescape(value));
    else ADD_FAILURE() << name << ".expect: unknown key '" << key << "'";
  }
  return e;
}

// Deterministic large inputs, too big to check in.
std::string generate(const std::vector<std::string>& how) {
  const std::string& kind = how.at(0);
  const size_t bytes = how.size() > 1 ? std::stoull(how[1]) : 0;
  std::string text;
  if (kind == "empty") return text;
  if (kind == "huge-comment") {
    text = "/*\n";
    while (text.size() < bytes) text += " * All work and no play makes a kernel a dull kernel. 0123456789\n";
    return text + " */\nkernel void k(global int* p) {\n  p[get_global_id(0)] = 1;\n}\n";
  }
  if (kind == "huge-functions") {
    for (size_t i = 0; text.size() < bytes; ++i) {
      const std::string n = std::to_string(i);
      text += "int helper_" + n + "(int x) { return x * " + n + " + 1; }\n";
    }
    return text + "kernel void k(global int* p) {\n  p[0] = helper_7(p[1])\n}\n";
  }
  ADD_FAILURE() << "unknown generator '" << kind << "'";
  return text;
}

struct ClcRun {
  int status = -1;  // the exit status, or 128 + the signal
  bool timed_out = false;
  std::string err;
  std::string out;
};

// Runs clc with `args` in `dir`, stdin from `stdin_path` (or /dev/null),
// output to files in `logs`; kills it after `timeout_s`.
ClcRun run_clc(const fs::path& dir, const fs::path& logs, const std::vector<std::string>& args,
            const std::string& stdin_path, int timeout_s) {
  std::vector<std::string> argv_storage{VKCL_CLC_PATH};
  argv_storage.insert(argv_storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& arg : argv_storage) argv.push_back(arg.data());
  argv.push_back(nullptr);
  const std::string out_path = (logs / "stdout").string(), err_path = (logs / "stderr").string();
  const std::string in_path = stdin_path.empty() ? "/dev/null" : stdin_path;

  const pid_t pid = fork();
  if (pid == 0) {
    if (chdir(dir.c_str()) != 0) _exit(126);
    int in = open(in_path.c_str(), O_RDONLY), out = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644),
        err = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (in < 0 || out < 0 || err < 0) _exit(126);
    dup2(in, 0);
    dup2(out, 1);
    dup2(err, 2);
    execv(argv[0], argv.data());
    _exit(127);
  }
  ClcRun run;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
  int status = 0;
  while (true) {
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      run.timed_out = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  run.out = read_file(out_path);
  run.err = read_file(err_path);
  return run;
}

std::set<std::string> entries(const fs::path& dir) {
  std::set<std::string> names;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) names.insert(fs::relative(entry.path(), dir).string());
  return names;
}

std::vector<std::string> case_names() {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(kCases))
    if (entry.path().extension() == ".expect") names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

class BadInput : public ::testing::TestWithParam<std::string> {};

TEST_P(BadInput, ExitStatusMessagesAndNoOutput) {
  const std::string name = GetParam();
  const Expectation e = parse_expectation(name);
  ASSERT_TRUE(e.exit_status.has_value()) << name << ".expect has no 'exit:' line";

  const fs::path base = fs::temp_directory_path() / ("vkcl_bad_input_" + name + "_" + std::to_string(getpid()));
  const fs::path work = base / "work", logs = base / "logs";
  fs::remove_all(base);
  fs::create_directories(work);
  fs::create_directories(logs);
  for (const std::string& dir : e.mkdirs) fs::create_directories(work / dir);

  // The input: generated, or the case's .cl under the name the case asks for.
  std::string source;
  if (!e.generate.empty() && e.generate[0] == "directory") {
    fs::create_directories(work / e.input);
  } else {
    source = e.generate.empty() ? read_file(kCases / (name + ".cl")) : generate(e.generate);
    const fs::path input = e.use_stdin ? logs / "stdin" : work / e.input;
    std::ofstream(input, std::ios::binary) << source;
  }
  const std::set<std::string> before = entries(work);

  std::vector<std::string> args = e.args;
  args.push_back(e.use_stdin ? "-" : e.input);
  const ClcRun run = run_clc(work, logs, args, e.use_stdin ? (logs / "stdin").string() : "", e.timeout_s);

  ASSERT_FALSE(run.timed_out) << name << ": clc ran longer than " << e.timeout_s << " s";
  EXPECT_EQ(run.status, *e.exit_status) << name << ": stderr:\n" << run.err;
  EXPECT_EQ(run.out, "") << name;
  // A crash caught by LLVM's recovery, a sanitizer's report or an LLVM fatal
  // error is never an acceptable answer, whatever the exit status.
  for (const char* never : {"internal compiler error", "Stack dump", "LLVM ERROR", "AddressSanitizer",
                            "LeakSanitizer", "runtime error:", "PLEASE submit a bug report"})
    EXPECT_EQ(run.err.find(never), std::string::npos) << name << ": '" << never << "' in stderr:\n" << run.err;
  if (e.stderr_empty) {
    EXPECT_EQ(run.err, "") << name;
  }
  size_t from = 0;
  for (const std::string& expected : e.stderr_lines) {
    const size_t at = run.err.find(expected, from);
    EXPECT_NE(at, std::string::npos) << name << ": expected, in order:\n  " << expected << "\nin stderr:\n" << run.err;
    if (at != std::string::npos) from = at + expected.size();
  }

  const std::set<std::string> after = entries(work);
  if (!e.output_written) {
    EXPECT_EQ(after, before) << name << ": clc left files behind";
  } else {
    // The default output is <input stem>.spv beside the working directory.
    const std::string output = e.use_stdin ? "a.spv" : fs::path(e.input).stem().string() + ".spv";
    const std::string words = read_file(work / output);
    uint32_t magic = 0;
    if (words.size() >= 4) std::memcpy(&magic, words.data(), 4);
    EXPECT_EQ(magic, 0x07230203u) << name << ": " << output << " is not SPIR-V";
    EXPECT_TRUE(fs::exists(work / (output + ".reflection"))) << name;
  }
  if (!HasFailure()) fs::remove_all(base);
}

INSTANTIATE_TEST_SUITE_P(Corpus, BadInput, ::testing::ValuesIn(case_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

TEST(BadInputCorpus, HasAtLeastFiftyCases) { EXPECT_GE(case_names().size(), 50u); }

}  // namespace

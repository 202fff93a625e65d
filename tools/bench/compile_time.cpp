#include "compile_time.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <stdexcept>

extern char** environ;

namespace vkcl::bench {
namespace {

// Runs `argv` with its output in `log`; throws with that output when it fails.
void run_process(const std::vector<std::string>& argv, const std::string& log) {
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid = 0;
  const int error = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) throw std::runtime_error("cannot run " + argv[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) throw std::runtime_error(argv[0] + " failed: " + read_text(log));
}

// Wall milliseconds of the commands, one after another.
double run_all(const std::vector<std::vector<std::string>>& commands, const std::string& log) {
  auto start = std::chrono::steady_clock::now();
  for (const auto& command : commands) run_process(command, log);
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

RunResult sample(const std::vector<std::vector<std::string>>& commands, const std::string& log, int repeat) {
  RunResult result;
  try {
    for (int i = 0; i < repeat; ++i) result.samples.push_back(run_all(commands, log));
  } catch (const std::exception& e) {
    return {"compile error", e.what(), {}};
  }
  return result;
}

}  // namespace

std::vector<CompileTiming> time_compiles(const CompileTools& tools, const std::vector<const Workload*>& workloads,
                                         const std::string& source_root, int repeat) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("vkcl-bench-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::vector<CompileTiming> timings;
  for (const Workload* w : workloads) {
    const std::string source = source_root + "/shaders/bench/" + w->name + ".cl";
    const std::string std = w->needs_sub_groups ? "-cl-std=CL2.0" : "-cl-std=CL1.2";
    const std::string out = (dir / w->name).string(), log = out + ".log";
    CompileTiming t{w->name, {}, {}};
    t.clc = sample({{tools.clc, std, "-O2", source, "-o", out + ".clc.spv"}}, log, repeat);
    t.bare = sample({{tools.clang, std, "-target", "spir64", "-O2", "-emit-llvm", "-c", source, "-o", out + ".bc"},
                     {tools.llvm_spirv, out + ".bc", "-o", out + ".spv"}},
                    log, repeat);
    timings.push_back(std::move(t));
  }
  std::filesystem::remove_all(dir);
  return timings;
}

}  // namespace vkcl::bench

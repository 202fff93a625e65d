#include "worker.h"

#include <spawn.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <thread>

extern char** environ;

namespace vkcl::corpus {

namespace fs = std::filesystem;

void write_result(const fs::path& dir, const std::string& id, const std::string& suffix, const std::string& status,
                  double seconds, const std::string& details) {
  const fs::path result = dir / (id + suffix);
  fs::path temporary = result;
  temporary += ".tmp";
  std::ofstream(temporary, std::ios::trunc) << status << "\n" << seconds << "\n" << details << "\n";
  fs::rename(temporary, result);
}

WorkerResult parse_result(std::string_view text) {
  WorkerResult result;
  std::istringstream in{std::string(text)};
  std::string seconds_line;
  std::getline(in, result.status);
  std::getline(in, seconds_line);
  result.seconds = std::atof(seconds_line.c_str());
  result.details.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  while (!result.details.empty() && result.details.back() == '\n') result.details.pop_back();
  return result;
}

namespace {
constexpr std::string_view kTimingPrefix = "kernel time (ms): ";
}

std::string timing_line(const KernelTiming& timing) {
  char text[160];
  std::snprintf(text, sizeof text, "%smedian %.6f min %.6f runs %d clock %s", kTimingPrefix.data(), timing.median_ms,
                timing.min_ms, timing.runs, timing.host_clock ? "host" : "event");
  return text;
}

std::optional<KernelTiming> find_timing(std::string_view details) {
  const size_t at = details.find(kTimingPrefix);
  if (at == std::string_view::npos) return std::nullopt;
  const std::string line(details.substr(at + kTimingPrefix.size(), details.find('\n', at) - at - kTimingPrefix.size()));
  KernelTiming timing;
  char clock[16] = {};
  if (std::sscanf(line.c_str(), "median %lf min %lf runs %d clock %15s", &timing.median_ms, &timing.min_ms, &timing.runs,
                  clock) != 4)
    return std::nullopt;
  timing.host_clock = std::string_view(clock) == "host";
  return timing;
}

double median(std::vector<double> samples) {
  if (samples.empty()) return 0;
  const size_t middle = samples.size() / 2;
  std::nth_element(samples.begin(), samples.begin() + long(middle), samples.end());
  if (samples.size() % 2) return samples[middle];
  return (samples[middle] + *std::max_element(samples.begin(), samples.begin() + long(middle))) / 2;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

Worker::Worker(std::vector<std::string> command, fs::path dir, std::string suffix, std::string crash_status)
    : command_(std::move(command)), dir_(std::move(dir)), suffix_(std::move(suffix)), crash_status_(std::move(crash_status)) {}

Worker::~Worker() {
  if (pid_ > 0) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
}

void Worker::start(std::vector<fs::path> files) {
  pending_ = std::move(files);
  launch();
}

std::string Worker::result(const std::string& id) {
  for (;;) {
    if (auto it = crashed_.find(id); it != crashed_.end()) return it->second;
    const fs::path file = dir_ / (id + suffix_);
    if (fs::exists(file)) return read_text(file);
    if (!fatal_.empty()) return "";
    if (pid_ <= 0) return crash_status_ + "\n0\nthe worker did not get to this kernel";
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      exited(status);
      continue;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

void Worker::launch() {
  std::vector<std::string> args = command_;
  for (const fs::path& f : pending_) args.push_back(f.string());
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  if (posix_spawn(&pid_, argv[0], nullptr, nullptr, argv.data(), environ) != 0) {
    pid_ = -1;
    fatal_ = "cannot start " + command_[0];
  }
}

void Worker::exited(int status) {
  if (WIFEXITED(status) && WEXITSTATUS(status) == kRestartMe) {
    std::erase_if(pending_, [&](const fs::path& f) { return fs::exists(dir_ / (f.stem().string() + suffix_)); });
    if (!pending_.empty()) launch();
    return;
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == kWorkerFatal) {
    fatal_ = read_text(dir_ / "fatal.txt");
    while (!fatal_.empty() && fatal_.back() == '\n') fatal_.pop_back();
    if (fatal_.empty()) fatal_ = command_[0] + " could not start its work";
    return;
  }
  auto first = std::find_if(pending_.begin(), pending_.end(),
                            [&](const fs::path& f) { return !fs::exists(dir_ / (f.stem().string() + suffix_)); });
  if (first == pending_.end()) return;  // finished
  crashed_[first->stem().string()] =
      crash_status_ + "\n0\n" + fs::path(command_[0]).filename().string() +
      (WIFSIGNALED(status) ? " died of signal " + std::to_string(WTERMSIG(status)) + " (" + strsignal(WTERMSIG(status)) + ")"
                           : " exited with status " + std::to_string(WEXITSTATUS(status))) +
      " on this kernel";
  pending_.erase(pending_.begin(), first + 1);
  if (!pending_.empty()) launch();
}

}  // namespace vkcl::corpus

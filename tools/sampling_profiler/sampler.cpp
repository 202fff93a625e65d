// A CPU-time sampling profiler to preload into a program on a machine
// without perf (the device tool's GPU machine): where do an OpenCL client's
// seconds go inside vkcl, the Vulkan driver and the compile worker's caller?
//
//   VKCL_SAMPLES=/tmp/s LD_PRELOAD=libvkcl-sampler.so ./client
//   tools/sampling_profiler/report.py /tmp/s.<pid> [library dirs with symbols]
//
// Every 1 ms of CPU time the process uses (ITIMER_PROF: the kernel sends
// SIGPROF to whichever thread is running), the handler stores that thread's
// return addresses; at exit the samples and /proc/self/maps go to
// $VKCL_SAMPLES.<pid> (also when SIGTERM ends it). A diagnostic tool only: it installs a signal handler
// and a timer for the whole process, which vkcl's own libraries never do.
#include <execinfo.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <csignal>
#include <cstdlib>
#include <cstring>

namespace {

constexpr int kDepth = 48;
constexpr size_t kMaxSamples = 1 << 20;

struct Sample {
  int depth;
  void* frames[kDepth];
};

Sample* samples = nullptr;
std::atomic<size_t> taken{0};

void on_sample(int) {
  const int saved = errno;
  const size_t i = taken.fetch_add(1, std::memory_order_relaxed);
  if (i < kMaxSamples) samples[i].depth = backtrace(samples[i].frames, kDepth);
  errno = saved;
}

void write_all(int fd, const void* data, size_t bytes) {
  const char* p = static_cast<const char*>(data);
  while (bytes > 0) {
    ssize_t n = write(fd, p, bytes);
    if (n <= 0) return;
    p += n;
    bytes -= static_cast<size_t>(n);
  }
}

void dump() {
  itimerval off{};
  setitimer(ITIMER_PROF, &off, nullptr);
  const char* base = std::getenv("VKCL_SAMPLES");
  char path[4096];
  std::snprintf(path, sizeof path, "%s.%d", base, static_cast<int>(getpid()));
  FILE* out = std::fopen(path, "w");
  if (!out) return;
  FILE* maps = std::fopen("/proc/self/maps", "r");
  char line[8192];
  while (maps && std::fgets(line, sizeof line, maps)) std::fprintf(out, "map %s", line);
  if (maps) std::fclose(maps);
  const size_t n = std::min(taken.load(), kMaxSamples);
  for (size_t i = 0; i < n; ++i) {
    std::fprintf(out, "sample");
    for (int f = 0; f < samples[i].depth; ++f) std::fprintf(out, " %p", samples[i].frames[f]);
    std::fprintf(out, "\n");
  }
  std::fclose(out);
}

// A process stopped by `timeout` still leaves its samples.
void on_terminate(int signal) {
  dump();
  std::signal(signal, SIG_DFL);
  raise(signal);
}

__attribute__((constructor)) void start() {
  if (!std::getenv("VKCL_SAMPLES")) return;
  samples = static_cast<Sample*>(std::calloc(kMaxSamples, sizeof(Sample)));
  if (!samples) return;
  void* warm[2];
  backtrace(warm, 2);  // loads libgcc's unwinder now, not inside the handler
  struct sigaction action{};
  action.sa_handler = on_sample;
  action.sa_flags = SA_RESTART;
  sigaction(SIGPROF, &action, nullptr);
  itimerval every{{0, 1000}, {0, 1000}};
  setitimer(ITIMER_PROF, &every, nullptr);
  std::atexit(dump);
  std::signal(SIGTERM, on_terminate);
}

}  // namespace

// Where vkcl-compile-worker is (vkcl/compile_worker.h says the order).
#include <dlfcn.h>
#include <link.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>

#include "vkcl/compile_worker.h"

// Relative paths from an installed library's and program's directory to the
// worker's, for the install layout this build was configured with (api/CMakeLists.txt).
#ifndef VKCL_WORKER_FROM_LIBDIR
#error "VKCL_WORKER_FROM_LIBDIR must be the worker's directory relative to the installed lib directory"
#endif
#ifndef VKCL_WORKER_FROM_BINDIR
#error "VKCL_WORKER_FROM_BINDIR must be the worker's directory relative to the installed bin directory"
#endif

namespace vkcl {
namespace {

namespace fs = std::filesystem;

constexpr const char* kWorkerName = "vkcl-compile-worker";

// The file that holds this code as the dynamic loader found it: the shared
// library (libvkcl-opencl.so) or, where vkcl::from_source is linked into a
// program, the program.
std::optional<fs::path> file_holding_this_code() {
  Dl_info info;
  link_map* map = nullptr;
  if (::dladdr1(reinterpret_cast<void*>(&compile_worker_candidates), &info, reinterpret_cast<void**>(&map),
                RTLD_DL_LINKMAP) == 0)
    return std::nullopt;
  // The main program's link map has no name, and dladdr then gives argv[0],
  // which need not be a path at all: the kernel knows it.
  if (map != nullptr && map->l_name != nullptr && map->l_name[0] != '\0') return fs::path(map->l_name);
  std::error_code error;
  fs::path program = fs::read_symlink("/proc/self/exe", error);
  if (error) return std::nullopt;
  return program;
}

bool is_executable_file(const fs::path& path) {
  std::error_code error;
  return fs::is_regular_file(path, error) && ::access(path.c_str(), X_OK) == 0;
}

}  // namespace

std::vector<fs::path> compile_worker_candidates() {
  std::vector<fs::path> candidates;
  const std::optional<fs::path> file = file_holding_this_code();
  if (!file) return candidates;
  // The directory as loaded, then with symbolic links resolved: a library
  // reached through a link in the loader's path has its worker beside the
  // real file.
  std::vector<fs::path> directories = {file->parent_path()};
  std::error_code error;
  if (fs::path real = fs::canonical(*file, error); !error && real.parent_path() != directories[0])
    directories.push_back(real.parent_path());
  for (const fs::path& dir : directories) {
    for (const char* relative : {".", VKCL_WORKER_FROM_LIBDIR, VKCL_WORKER_FROM_BINDIR}) {
      fs::path candidate = (dir / relative / kWorkerName).lexically_normal();
      if (std::find(candidates.begin(), candidates.end(), candidate) == candidates.end())
        candidates.push_back(std::move(candidate));
    }
  }
  return candidates;
}

fs::path find_compile_worker() {
  if (const char* chosen = std::getenv("VKCL_COMPILE_WORKER"); chosen != nullptr && *chosen != '\0') {
    if (!is_executable_file(chosen))
      throw CompileError("error: VKCL_COMPILE_WORKER names '" + std::string(chosen) +
                         "', which is not an executable file\n");
    return chosen;
  }
  const std::vector<fs::path> candidates = compile_worker_candidates();
  for (const fs::path& candidate : candidates)
    if (is_executable_file(candidate)) return candidate;
  std::string text = std::string("error: cannot find ") + kWorkerName +
                     ", which compiles OpenCL C in a child process; set VKCL_COMPILE_WORKER to its path. Tried:\n";
  for (const fs::path& candidate : candidates) text += "  " + candidate.string() + "\n";
  if (candidates.empty()) text += "  nothing: the file that holds vkcl's code could not be found (dladdr)\n";
  throw CompileError(text);
}

}  // namespace vkcl

// Compiling in a child process (library vkcl::from_source): the compiler,
// clang, LLVM and the SPIR-V translator run in vkcl-compile-worker processes
// (tools/clc/compile_worker.cpp), never in the caller's. This is how a
// library that loads into other people's programs compiles (the OpenCL ICD):
//   - any number of threads may compile at once: each request has a worker
//     and pipes of its own, and nothing process-wide is touched (no signal
//     handler, no exit() or std::cerr interposition, no environment);
//   - a crash inside the compiler is a CompileError saying so ("the compiler
//     crashed (signal 11: SIGSEGV)", with the end of its standard error),
//     not the end of the caller's process.
// A worker started for one compile costs a process start (tens of
// milliseconds, more than a small kernel's compile: docs/opencl.md,
// "Compiling in a child process"); CompileWorkers keeps workers running
// between compiles. build_program and compile_module_for compile this way
// with CompileIn::ChildProcess (vkcl/source_program.h).
//
// The worker is found (find_compile_worker) at VKCL_COMPILE_WORKER when that
// is set; else as vkcl-compile-worker beside the shared library or program
// that contains this code (found with dladdr), or where `cmake --install`
// puts it relative to that: libexec/vkcl/ beside lib/ and bin/. In the build
// tree, links named vkcl-compile-worker beside libvkcl-opencl.so and the
// tests that use it point at build/tools/clc/vkcl-compile-worker. A program
// of your own that links vkcl::from_source statically, outside the install
// prefix, sets VKCL_COMPILE_WORKER (the CMake package's vkcl_COMPILE_WORKER
// names the installed worker) or passes the path.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "compile_error.h"
#include "compile_options.h"
#include "vulkan_module.h"

namespace vkcl {

struct WorkerCompileResult {
  VulkanModule module;
  // The compiler's warnings, then anything else the worker wrote on its
  // standard error; empty when there were none.
  std::string warnings;
};

// The worker to run, as the comment above says. Throws CompileError naming
// every path it tried when there is none there (or, with VKCL_COMPILE_WORKER
// set, naming that path).
std::filesystem::path find_compile_worker();

// The places find_compile_worker looks beside this code, in order (without
// VKCL_COMPILE_WORKER).
std::vector<std::filesystem::path> compile_worker_candidates();

// Compiles `source` (called `file_name` in diagnostics) with `options` as
// they are (compile_options_for is the caller's business) in a new process
// of `worker`, or of find_compile_worker() when `worker` is empty. `headers`
// are #include-able by name (compiler.h). Throws CompileError: the
// compiler's own (file:line:col, warnings first); or, starting with
// "<file_name>: error: ", that the worker cannot be found or started, that
// the compiler crashed (with the signal) or exited without an answer, or that
// its answer is malformed, each with the end of its standard error.
WorkerCompileResult compile_in_worker(std::string_view source, std::string_view file_name,
                                      const CompileOptions& options, std::span<const InputHeader> headers = {},
                                      const std::filesystem::path& worker = {});

// OpenCL's separate compilation and SPIR-V programs, the same way: each
// runs the compiler entry point of tools/clc/compiler.h named beside it in
// a new worker, and throws as compile_in_worker does (`file_name` names the
// program in what it throws). CompileWorkers has each of them as a member.

// A compiled object or a library: LLVM bitcode that only this build's
// compiler reads (link_in_worker, link_library_in_worker).
struct WorkerObjectResult {
  std::string bitcode;
  std::string warnings;  // as WorkerCompileResult's
};

// clCompileProgram of OpenCL C: compile_to_library.
WorkerObjectResult compile_object_in_worker(std::string_view source, std::string_view file_name,
                                            const CompileOptions& options, std::span<const InputHeader> headers = {},
                                            const std::filesystem::path& worker = {});

// clLinkProgram: link_libraries (objects and libraries to a module).
WorkerCompileResult link_in_worker(std::span<const std::string> objects, std::string_view file_name,
                                   const CompileOptions& options, const std::filesystem::path& worker = {});

// clLinkProgram -create-library: link_to_library.
WorkerObjectResult link_library_in_worker(std::span<const std::string> objects, std::string_view file_name,
                                          const std::filesystem::path& worker = {});

// A program from SPIR-V (clCreateProgramWithIL), built: compile_spirv.
WorkerCompileResult compile_il_in_worker(std::span<const uint32_t> words, std::string_view file_name,
                                         const CompileOptions& options,
                                         std::span<const SpecConstant> spec_constants = {},
                                         const std::filesystem::path& worker = {});

// ... and compiled (clCompileProgram): compile_spirv_to_library.
WorkerObjectResult compile_il_object_in_worker(std::span<const uint32_t> words, std::string_view file_name,
                                               std::span<const SpecConstant> spec_constants = {},
                                               const std::filesystem::path& worker = {});

namespace worker_protocol {
struct Request;
struct Response;
}  // namespace worker_protocol

// Workers kept running between compiles, for a caller that compiles often
// (the OpenCL ICD keeps one set per context). A request goes to an idle
// worker where there is one, else to a new one; after a request that
// succeeded the worker goes back idle while fewer than `kept_idle` are, and
// after one that failed it ends (a crash the compiler recovered from may
// have left it broken). Any number of threads may ask at once: each request
// has a worker to itself. When this goes, idle workers are killed; one
// whose client process ends sees its input end and exits. Each member
// compiles and throws as the free function of the same kind does.
class CompileWorkers {
 public:
  // `worker`: the program to run; find_compile_worker() when empty, looked
  // up at the first request. `kept_idle` = 0: a worker per request, which
  // ends with it (the free functions above).
  explicit CompileWorkers(std::filesystem::path worker = {}, size_t kept_idle = 2);
  CompileWorkers(const CompileWorkers&) = delete;
  CompileWorkers& operator=(const CompileWorkers&) = delete;
  ~CompileWorkers();

  WorkerCompileResult compile(std::string_view source, std::string_view file_name, const CompileOptions& options,
                              std::span<const InputHeader> headers = {});
  WorkerObjectResult compile_object(std::string_view source, std::string_view file_name,
                                    const CompileOptions& options, std::span<const InputHeader> headers = {});
  WorkerCompileResult link(std::span<const std::string> objects, std::string_view file_name,
                           const CompileOptions& options);
  WorkerObjectResult link_library(std::span<const std::string> objects, std::string_view file_name);
  WorkerCompileResult compile_il(std::span<const uint32_t> words, std::string_view file_name,
                                 const CompileOptions& options, std::span<const SpecConstant> spec_constants = {});
  WorkerObjectResult compile_il_object(std::span<const uint32_t> words, std::string_view file_name,
                                       std::span<const SpecConstant> spec_constants = {});

 private:
  struct Warm;
  std::filesystem::path worker_path(std::string_view file_name);
  worker_protocol::Response ask(const worker_protocol::Request& request);

  std::mutex lock_;
  std::filesystem::path worker_;
  const size_t kept_idle_;
  std::vector<std::unique_ptr<Warm>> idle_;
};

}  // namespace vkcl

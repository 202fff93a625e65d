// A consumer of the installed compiler: vkcl::compile_opencl alone (a module
// and its reflection from source; a bad source is a CompileError naming
// file:line:col), the same through the installed compile worker
// (vkcl::compile_in_worker, the package's vkcl_COMPILE_WORKER), then
// vkcl::build_program, which compiles for the device and runs. Prints one
// line per step; exits non-zero on failure.
//
//   vkcl_consumer_from_source add_one.cl [--find-worker]
//
// --find-worker: only the worker's steps, with the worker that vkcl finds by
// itself (from the prefix's bin/, libexec/vkcl/), not the package's.
#include <cstdio>
#include <exception>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "vkcl/compile_worker.h"
#include "vkcl/compiler.h"
#include "vkcl/host.h"
#include "vkcl/source_program.h"

// compile_in_worker gives what compile_opencl gave, and a bad source's location.
bool compiles_in_worker(const std::string& source, const vkcl::VulkanModule& expected, const char* worker) {
  const vkcl::WorkerCompileResult contained = vkcl::compile_in_worker(source, "add_one.cl", {}, {}, worker);
  if (contained.module.words != expected.words) {
    std::fprintf(stderr, "vkcl_consumer_from_source: the worker's module differs from compile_opencl's\n");
    return false;
  }
  std::printf("worker (%s): %zu words, as in process\n", *worker ? worker : vkcl::find_compile_worker().c_str(),
              contained.module.words.size());
  try {
    vkcl::compile_in_worker("kernel void k(global int* p) { p[0] = undeclared; }", "bad.cl", {}, {}, worker);
    std::fprintf(stderr, "vkcl_consumer_from_source: a bad source compiled in the worker\n");
    return false;
  } catch (const vkcl::CompileError& e) {
    if (std::string(e.what()).find("bad.cl:1:") == std::string::npos) {
      std::fprintf(stderr, "vkcl_consumer_from_source: the worker's error names no location: %s\n", e.what());
      return false;
    }
  }
  std::printf("worker: a bad source is an error at its location\n");
  return true;
}

int main(int argc, char** argv) {
  const bool find_worker = argc == 3 && std::string(argv[2]) == "--find-worker";
  if (argc != 2 && !find_worker) {
    std::fprintf(stderr, "usage: vkcl_consumer_from_source add_one.cl [--find-worker]\n");
    return 2;
  }
  try {
    std::ifstream file(argv[1]);
    const std::string source((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());

    const vkcl::CompileResult compiled = vkcl::compile_opencl(source, "add_one.cl", {});
    if (compiled.module.words.empty() || compiled.module.reflection.kernels.size() != 1) {
      std::fprintf(stderr, "vkcl_consumer_from_source: compile_opencl gave no module with one kernel\n");
      return 1;
    }
    std::printf("compiler: %zu words, kernel %s\n", compiled.module.words.size(),
                compiled.module.reflection.kernels[0].name.c_str());
    try {
      vkcl::compile_opencl("kernel void k(global int* p) { p[0] = undeclared; }", "bad.cl", {});
      std::fprintf(stderr, "vkcl_consumer_from_source: a bad source compiled\n");
      return 1;
    } catch (const vkcl::CompileError& e) {
      if (std::string(e.what()).find("bad.cl:1:") == std::string::npos) {
        std::fprintf(stderr, "vkcl_consumer_from_source: the error names no location: %s\n", e.what());
        return 1;
      }
      std::printf("compiler: a bad source is an error at its location\n");
    }
    if (!compiles_in_worker(source, compiled.module, find_worker ? "" : VKCL_CONSUMER_WORKER)) return 1;
    if (find_worker) return 0;

    vkcl::Device device = vkcl::Device::create();
    vkcl::Program program = vkcl::build_program(device, source, "add_one.cl");
    constexpr size_t n = 300;
    std::vector<uint32_t> values(n, 41);
    vkcl::Buffer buffer(device, n * sizeof(uint32_t));
    buffer.write(values);
    vkcl::Kernel kernel = program.kernel("add_one");
    kernel.set_arg("data", buffer);
    device.run(kernel, vkcl::NDRange::make({n}, {64}));
    const std::vector<uint32_t> back = buffer.read<uint32_t>(n);
    for (size_t i = 0; i < n; ++i)
      if (back[i] != 42) {
        std::fprintf(stderr, "vkcl_consumer_from_source: word %zu is %u, not 42\n", i, back[i]);
        return 1;
      }
    std::printf("build_program: add_one ran over %zu work-items\n", n);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "vkcl_consumer_from_source: %s\n", e.what());
    return 1;
  }
  return 0;
}

// libFuzzer target for the whole compiler: OpenCL C source in, a Vulkan
// module or a CompileError out (compile_opencl, tools/clc/compiler.h).
//
// The first byte of an input picks the options (bits 0-1: CL1.2, CL2.0,
// CL3.0, CL2.0; bit 2: -O0; bit 3: the GLSL450 memory model; bit 4: queue-
// family device scope); the rest is the source, named "fuzz.cl". A finding
// is anything but a module or a CompileError: a crash or sanitizer report, an
// exception of another type, a hang (libFuzzer's -timeout), and a crash
// inside clang, LLVM or the translator that compile_opencl caught and
// reported as an "internal compiler error" (which this target turns back
// into an abort). README.md beside this file says how to run it.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "compiler.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  vkcl::CompileOptions options;
  const uint8_t choice = data[0];
  constexpr vkcl::OpenCLStd kStds[] = {vkcl::OpenCLStd::CL1_2, vkcl::OpenCLStd::CL2_0, vkcl::OpenCLStd::CL3_0,
                                       vkcl::OpenCLStd::CL2_0};
  options.cl_std = kStds[choice & 3];
  options.optimize = (choice & 4) == 0;
  options.memory_model = (choice & 8) ? vkcl::MemoryModel::GLSL450 : vkcl::MemoryModel::Vulkan;
  options.vulkan_device_scope = (choice & 16) == 0;
  const std::string_view source(reinterpret_cast<const char*>(data + 1), size - 1);
  try {
    vkcl::compile_opencl(source, "fuzz.cl", options);
  } catch (const vkcl::CompileError& error) {
    // compile_opencl's own texts, at the start: clang echoes source lines
    // (which the fuzzer soon fills with these words) in its diagnostics.
    const std::string_view text = error.what();
    if (text.starts_with("fuzz.cl: error: internal compiler error")) {
      // A crash inside clang, LLVM or the translator, which compile_opencl
      // turned into an error: vkcl behaved, but the input is worth keeping.
      // Fatal (so that libFuzzer saves it) unless VKCL_FUZZ_CONTINUE_ON_CAUGHT_CRASH
      // is set, for long runs past a known third-party crash (clang 15 has
      // some on malformed programs; tests/clc: ClangCrashIsAnError).
      std::fprintf(stderr, "vkcl fuzz: a crash caught by compile_opencl:\n%s\n", error.what());
      if (std::getenv("VKCL_FUZZ_CONTINUE_ON_CAUGHT_CRASH") == nullptr) std::abort();
    }
    if (std::getenv("VKCL_FUZZ_ABORT_ON_INTERNAL_ERROR") != nullptr && text.starts_with("internal error")) {
      std::fprintf(stderr, "vkcl fuzz: an internal error:\n%.2000s\n", error.what());
      std::abort();
    }
  }
  return 0;
}

// Compile time, whole process: clc against bare clang -O2 + llvm-spirv on
// each benchmark kernel (the same -cl-std), each run as a child process.
#pragma once

#include <string>
#include <vector>

#include "paths.h"
#include "workloads.h"

namespace vkcl::bench {

struct CompileTools {
  std::string clc, clang, llvm_spirv;  // executables (clang and llvm-spirv may be names on PATH)
};

struct CompileTiming {
  std::string workload;
  RunResult clc, bare;  // samples in milliseconds; bare = clang + llvm-spirv together
};

std::vector<CompileTiming> time_compiles(const CompileTools& tools, const std::vector<const Workload*>& workloads,
                                         const std::string& source_root, int repeat);

}  // namespace vkcl::bench

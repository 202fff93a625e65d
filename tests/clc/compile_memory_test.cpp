// Compiling the same kernel 1000 times in one process (as a long-running
// host that builds programs from source does) must not grow its memory:
// every compilation's LLVM context, clang instance, translator and SPIR-V
// module are freed. Measured as resident set size after malloc_trim, with a
// tolerance for the allocator's own bookkeeping.
#include <malloc.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "compiler.h"

namespace {

// Resident set size in bytes (/proc/self/statm, second field, in pages).
size_t resident_bytes() {
  malloc_trim(0);
  std::ifstream statm("/proc/self/statm");
  size_t total_pages = 0, resident_pages = 0;
  statm >> total_pages >> resident_pages;
  return resident_pages * static_cast<size_t>(sysconf(_SC_PAGESIZE));
}

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;  // its quarantine holds freed memory on purpose
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif

// Barriers, __local memory, atomics and a helper: most stages have work to do.
constexpr const char* kKernel = R"(
int twice(int x) { return 2 * x; }
kernel void k(global int* data, global int* sum, local int* scratch) {
  size_t lid = get_local_id(0);
  scratch[lid] = twice(data[get_global_id(0)]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) {
    if (lid < s) scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) atomic_add(sum, scratch[0]);
}
)";

TEST(CompileMemory, ThousandCompilationsDoNotGrowMemory) {
  if (kAddressSanitizer) GTEST_SKIP() << "ASan's quarantine keeps freed memory; LeakSanitizer checks leaks there";
  const vkcl::CompileOptions options;
  // Warm up: lazily built tables, the allocator's arenas, clang's builtin table.
  for (int i = 0; i < 50; ++i) vkcl::compile_opencl(kKernel, "k.cl", options);
  const size_t before = resident_bytes();
  size_t words = 0;
  for (int i = 0; i < 1000; ++i) words += vkcl::compile_opencl(kKernel, "k.cl", options).module.words.size();
  const size_t after = resident_bytes();
  EXPECT_GT(words, 0u);
  const double growth_mib = (double(after) - double(before)) / (1 << 20);
  std::printf("resident: %.1f MiB before, %.1f MiB after 1000 compilations (%+.2f MiB)\n", before / 1048576.0,
              after / 1048576.0, growth_mib);
  // A leak of 4 KiB per compilation would show as 4 MiB.
  EXPECT_LT(growth_mib, 4.0) << "memory grew by " << growth_mib << " MiB over 1000 compilations";
}

}  // namespace

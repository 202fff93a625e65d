// How much __local memory each kernel declares at kernel scope, and the
// compile-time limit on it.
//
// Run on the linked, optimized module (variables no kernel uses are gone),
// before debug info is stripped. The size of a kernel is the sum of the
// `__local` (address space 3) variables it uses, each aligned as the data
// layout says. __local pointer arguments are not counted: their sizes are
// only known at dispatch, where the host checks the total against the
// device's maxComputeSharedMemorySize.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace llvm {
class Module;
}

namespace vkcl {

// No Vulkan device vkcl knows of offers more shared memory to a compute
// shader (maxComputeSharedMemorySize: 64 KiB on AMD and Intel, 48 KiB on
// NVIDIA, 32 KiB on lavapipe and Apple; Vulkan requires at least 16 KiB). A
// kernel that declares more can run nowhere, so it is a compile error rather
// than a failure at the first dispatch.
inline constexpr uint64_t kMaxStaticLocalMemory = 64 * 1024;

// Bytes of kernel-scope __local memory by kernel name (kernels with none are
// absent). Throws CompileError naming the kernel, the limit and each variable
// when a kernel declares more than kMaxStaticLocalMemory.
std::map<std::string, uint64_t> check_static_local_memory(const llvm::Module& module, std::string_view file_name);

}  // namespace vkcl

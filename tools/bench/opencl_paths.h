// The OpenCL paths: the same OpenCL C source through every OpenCL platform
// the ICD loader finds (PoCL, Mesa's rusticl, NVIDIA's OpenCL, ...), each
// a path named after its platform. The loader is opened at run time
// (VKCL_BENCH_LIBOPENCL, else libOpenCL.so.1, else the copy the build puts
// beside vkcl-bench), so the benchmark runs where there is none.
//
// Kernel time comes from event profiling (CL_QUEUE_PROFILING_ENABLE); a
// platform whose events carry no times (rusticl in Mesa 22.3) is timed on
// the host around the enqueue and a blocking clFinish, and says so.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "paths.h"

namespace vkcl::bench {

// One path per platform whose name contains one of `filters` (any case; all
// platforms when empty), on its first device. `notes` gets a line for each
// platform skipped and for a missing loader. `source_root` as for make_vulkan_paths.
std::vector<std::unique_ptr<Path>> make_opencl_paths(const std::vector<std::string>& filters, std::string source_root,
                                                     std::vector<std::string>& notes);

}  // namespace vkcl::bench

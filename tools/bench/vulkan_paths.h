// The paths on vkcl's runtime, on one vkcl::Device: the OpenCL C kernel
// built by vkcl (build_program: in process, or replayed from
// VKCL_MODULE_CACHE), and its GLSL twin in vkcl's own ABI ("twin_bda":
// buffer references and group_offset in push constants, a .spv.reflection
// beside it), both run by vkcl's host runtime and timed with Vulkan
// timestamps around the kernel. The twin as a Vulkan programmer writes it
// is twin_path.h.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "paths.h"
#include "vkcl/device.h"

namespace vkcl::bench {

// The vkcl path, then the twin_bda path when there is a `bda_twin_dir` (it
// holds those twins' .spv and .spv.reflection). `source_root` is the repository root
// (the kernels are shaders/bench/*.cl, named so in the module cache key,
// wherever the checkout is). The two run each workload on the same buffers.
std::vector<std::unique_ptr<Path>> make_vulkan_paths(std::shared_ptr<Device> device, std::string source_root,
                                                     std::optional<std::string> bda_twin_dir);

}  // namespace vkcl::bench

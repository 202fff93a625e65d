// The Vulkan paths, on one vkcl::Device: the OpenCL C kernel built by vkcl
// (build_program: in process, or replayed from VKCL_MODULE_CACHE), and its
// hand-written GLSL twin compiled by glslang, both run by vkcl's host
// runtime and timed with Vulkan timestamps around the kernel.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "paths.h"
#include "vkcl/device.h"

namespace vkcl::bench {

// The vkcl path, then the GLSL path when there is a `twin_dir` (it holds
// the twins' .spv and .spv.reflection). `source_root` is the repository root
// (the kernels are shaders/bench/*.cl, named so in the module cache key,
// wherever the checkout is). The two run each workload on the same buffers.
std::vector<std::unique_ptr<Path>> make_vulkan_paths(std::shared_ptr<Device> device, std::string source_root,
                                                     std::optional<std::string> twin_dir);

}  // namespace vkcl::bench

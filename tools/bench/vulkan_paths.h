// The Vulkan paths, on one vkcl::Device: the OpenCL C kernel built by vkcl
// (build_program: in process, or replayed from VKCL_MODULE_CACHE), and its
// hand-written GLSL twin compiled by glslang, both run by vkcl's host
// runtime and timed with Vulkan timestamps around the kernel.
#pragma once

#include <memory>
#include <string>

#include "paths.h"
#include "vkcl/device.h"

namespace vkcl::bench {

// `source_root` is the repository root (the kernels are shaders/bench/*.cl,
// named so in the module cache key, wherever the checkout is);
// `twin_dir` holds the twins' .spv and .spv.reflection.
std::unique_ptr<Path> make_vkcl_path(std::shared_ptr<Device> device, std::string source_root);
std::unique_ptr<Path> make_glsl_path(std::shared_ptr<Device> device, std::string twin_dir);

}  // namespace vkcl::bench

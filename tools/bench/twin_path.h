// The "twin" path: each workload's GLSL twin as a Vulkan programmer writes
// and runs it (shaders/bench/glsl/<name>.comp): storage buffers bound through
// a descriptor set, scalars in push constants, the work-group size fixed in
// the shader, dispatched and timed by plain Vulkan calls on a device of its
// own (raw_device.h). The report's "vs twin" ratio, and issue 8's target of
// 0.97x, are against this path; "twin_bda" (vulkan_paths.h) keeps the older
// buffer-reference twins, run by vkcl's runtime, to help find causes.
#pragma once

#include <memory>
#include <string>

#include "paths.h"

namespace vkcl::bench {

// `device_name`: the physical device vkcl chose; `twin_dir`: the compiled
// twins (<name>.spv, entry point <name>).
std::unique_ptr<Path> make_twin_path(std::string device_name, std::string twin_dir);

}  // namespace vkcl::bench

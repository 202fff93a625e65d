// The floor for dispatch overhead: a minimal Vulkan path written against the
// API directly (raw_device.h: its own instance and device, so vkcl's
// are untouched): one pre-recorded command buffer that binds a compute
// pipeline of shaders/bench/glsl/empty.comp and dispatches one work-group,
// submitted with a fence and waited for.
#pragma once

#include <string>

#include "paths.h"

namespace vkcl::bench {

// Samples in microseconds (host clock, vkQueueSubmit to vkWaitForFences
// returning) on the physical device named `device_name`; `spv` is the
// compiled empty.comp. Any failure is a RunResult with status "run error".
RunResult raw_vulkan_dispatch_overhead(const std::string& device_name, const std::string& spv, int repeat);

}  // namespace vkcl::bench

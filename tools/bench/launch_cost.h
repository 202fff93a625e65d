// Launch cost (issue 15, point 3): an OpenCL program calls clSetKernelArg and
// clEnqueueNDRangeKernel millions of times, so what does it cost a Vulkan
// runtime to give every dispatch new buffer arguments? One command buffer
// of N dispatches of a one-invocation kernel with four buffer arguments
// (shaders/bench/glsl/launch/), every argument changed at every dispatch,
// through each way Vulkan has to pass buffers:
//   a) device addresses in push constants (vkCmdPushConstants; vkcl's way)
//   b) VK_KHR_push_descriptor (vkCmdPushDescriptorSetKHR)
//   c) descriptor sets from a pool, allocated and written per dispatch
//      (vkAllocateDescriptorSets + vkUpdateDescriptorSets + vkCmdBindDescriptorSets)
//   d) VK_EXT_descriptor_buffer (vkGetDescriptorEXT into a mapped buffer +
//      vkCmdSetDescriptorBufferOffsetsEXT)
// Plain Vulkan on a device of its own (raw_device.h). The dispatches are
// independent (each writes its own word), so there is no barrier between
// them: the device's time is the cost of a dispatch and its arguments.
#pragma once

#include <string>
#include <vector>

#include "paths.h"

namespace vkcl::bench {

// Microseconds per dispatch, one sample per repetition; status "n/a" (and
// why, in detail) where the device lacks the method's extension.
struct LaunchCost {
  std::string method;  // "a) addresses in push constants", ...
  RunResult record;    // host: recording the command buffer, arguments included
  RunResult submit;    // host: vkQueueSubmit to vkWaitForFences returning
  RunResult gpu;       // device: timestamps before the first dispatch and after the last
};

// `dispatches` per command buffer, `repeat` timed command buffers per
// method after one whose every result is checked; `launch_dir` holds the
// compiled addresses.spv and descriptors.spv.
std::vector<LaunchCost> measure_launch_cost(const std::string& device_name, const std::string& launch_dir, int dispatches,
                                            int repeat);

}  // namespace vkcl::bench

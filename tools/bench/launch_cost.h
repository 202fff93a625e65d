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

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "paths.h"

namespace vkcl {
class Device;
}

namespace vkcl::bench {

// Microseconds per dispatch, one sample per repetition; status "n/a" (and
// why, in detail) where the device lacks the method's extension.
struct LaunchCost {
  std::string method;  // "a) addresses in push constants", ...
  RunResult record;    // host: recording the command buffer, arguments included
  RunResult submit;    // host: vkQueueSubmit to vkWaitForFences returning
  RunResult gpu;       // device: timestamps before the first dispatch and after the last
};

// What every launch-cost path dispatches: pools of kLaunchPool input buffers
// (input j holds the uint 1 << j) and kLaunchPool output buffers of
// launch_words() uints; dispatch i reads inputs i, i + 1 and i + 2 (mod the
// pool) and writes word i / kLaunchPool of output i mod kLaunchPool, so every
// argument changes at every dispatch and no two dispatches touch one word.
constexpr uint32_t kLaunchPool = 8;
struct LaunchArguments {
  uint32_t a, b, c, d;  // pool indices: inputs a, b, c; output d
  uint32_t slot;        // the word of d
};
LaunchArguments launch_arguments(uint32_t dispatch);
uint32_t launch_words(int dispatches);
// Given the output buffers' contents: empty when every dispatch wrote its
// word, else the first that did not, in words.
std::string check_launch_outputs(const std::vector<std::vector<std::byte>>& outputs, int dispatches);

// `dispatches` per command buffer, `repeat` timed command buffers per
// method after one whose every result is checked; `launch_dir` holds the
// compiled addresses.spv and descriptors.spv.
std::vector<LaunchCost> measure_launch_cost(const std::string& device_name, const std::string& launch_dir, int dispatches,
                                            int repeat);

// The same dispatches through vkcl's runtime (shaders/bench/launch.cl, built
// as vkcl-bench builds every kernel): per dispatch Kernel::set_arg for the
// five arguments and CommandList::enqueue ("record": what clSetKernelArg and
// clEnqueueNDRangeKernel would cost), then Device::submit, which records the
// Vulkan command buffer, and Event::wait ("submit"). No GPU time: vkcl puts a
// barrier between consecutive kernels (OpenCL's in-order queue), and its
// timestamps would add two per dispatch.
LaunchCost vkcl_launch_cost(Device& device, const std::string& source_root, int dispatches, int repeat);

}  // namespace vkcl::bench

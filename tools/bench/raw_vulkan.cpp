#include "raw_vulkan.h"

#include <chrono>

#include "raw_objects.h"

namespace vkcl::bench {

RunResult raw_vulkan_dispatch_overhead(const std::string& device_name, const std::string& spv, int repeat) {
  RunResult result;
  try {
    RawDevice device(device_name, {});
    const UniquePipelineLayout layout = make_pipeline_layout(device, VK_NULL_HANDLE, 0);
    const UniquePipeline pipeline = make_compute_pipeline(device, spv, "empty", layout.get());  // glslang -e empty
    RawCommands commands(device);
    VkCommandBuffer cb = commands.begin();
    device.vk.vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.get());
    device.vk.vkCmdDispatch(cb, 1, 1, 1);
    commands.end();
    for (int i = 0; i < 10; ++i) commands.submit_and_wait();
    for (int i = 0; i < repeat; ++i) {
      auto start = std::chrono::steady_clock::now();
      commands.submit_and_wait();
      result.samples.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
    }
  } catch (const std::exception& e) {
    return {"run error", e.what(), {}};
  }
  return result;
}

}  // namespace vkcl::bench

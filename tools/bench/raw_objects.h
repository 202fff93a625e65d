// The few building blocks the raw Vulkan paths share (tools/bench/raw_device.h):
// buffers with their memory, compute pipelines, descriptor-set layouts, a
// command buffer that is submitted and waited for, and timestamps.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "raw_device.h"

namespace vkcl::bench {

// A buffer with a memory allocation of its own. Host-visible memory stays
// mapped for the buffer's life (`mapped`); `address` is set when the usage
// has VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT.
struct RawBuffer {
  UniqueMemory memory;  // declared first: freed after the buffer
  UniqueBuffer buffer;
  VkDeviceSize size = 0;
  std::byte* mapped = nullptr;
  VkDeviceAddress address = 0;
};

// `bytes` of a memory type with all of `required`, and `preferred` too
// where one has it.
RawBuffer make_buffer(const RawDevice& device, VkDeviceSize bytes, VkBufferUsageFlags usage, VkMemoryPropertyFlags required,
                      VkMemoryPropertyFlags preferred = 0);

// A compute pipeline of the entry point `entry` of the SPIR-V file `spv`,
// with `specialization`'s constants where it is given.
UniquePipeline make_compute_pipeline(const RawDevice& device, const std::string& spv, const char* entry, VkPipelineLayout layout,
                                     VkPipelineCreateFlags flags = 0, const VkSpecializationInfo* specialization = nullptr);
// Bindings 0 .. count - 1, each one storage buffer seen by the compute stage.
UniqueSetLayout make_storage_set_layout(const RawDevice& device, uint32_t count, VkDescriptorSetLayoutCreateFlags flags = 0);
// One set layout (or none) and `push_bytes` of push constants (or none) for the compute stage.
UniquePipelineLayout make_pipeline_layout(const RawDevice& device, VkDescriptorSetLayout set, uint32_t push_bytes);

// A global memory barrier.
void memory_barrier(const RawDevice& device, VkCommandBuffer cb, VkPipelineStageFlags src_stages, VkAccessFlags src_access,
                    VkPipelineStageFlags dst_stages, VkAccessFlags dst_access);

// One command buffer from a pool of its own, and a fence: recorded, then
// submitted and waited for (60 s at most), as often as needed.
class RawCommands {
 public:
  explicit RawCommands(const RawDevice& device);
  // Resets the pool and begins the command buffer (reusable, not one-time).
  VkCommandBuffer begin();
  void end();
  void submit_and_wait();
  VkCommandBuffer get() const { return cb_; }

 private:
  const RawDevice& device_;
  UniqueCommandPool pool_;
  UniqueFence fence_;
  VkCommandBuffer cb_ = VK_NULL_HANDLE;
};

// Writes `bytes` at the start of `to` through a staging buffer, and reads
// them back: what a Vulkan programmer does for device-local memory.
void upload(const RawDevice& device, RawCommands& commands, const RawBuffer& to, std::span<const std::byte> bytes);
std::vector<std::byte> download(const RawDevice& device, RawCommands& commands, const RawBuffer& from, size_t bytes);

// A pair of timestamps, and the time between them.
class RawTimer {
 public:
  explicit RawTimer(const RawDevice& device);  // throws when the queue has no timestamps
  void reset(VkCommandBuffer cb);
  void stamp(VkCommandBuffer cb, uint32_t which, VkPipelineStageFlagBits stage);  // which: 0 (start) or 1 (end)
  double elapsed_ms() const;  // after the submission ended

 private:
  const RawDevice& device_;
  UniqueQueryPool pool_;
};

}  // namespace vkcl::bench

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
// A pool with one descriptor set of `layout`, whose bindings 0, 1, ... are
// the storage buffers `buffers`, in order; `set` is freed with the pool.
struct StorageDescriptorSet {
  UniqueDescriptorPool pool;
  VkDescriptorSet set = VK_NULL_HANDLE;
};
StorageDescriptorSet make_storage_descriptor_set(const RawDevice& device, VkDescriptorSetLayout layout,
                                                 std::span<const VkDescriptorBufferInfo> buffers);
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

// `pairs` pairs of timestamps, and the time between the two of each pair.
class RawTimer {
 public:
  // Throws when the queue has no timestamps.
  explicit RawTimer(const RawDevice& device, uint32_t pairs = 1);
  void reset(VkCommandBuffer cb);
  // which: 2k (the start of pair k) or 2k + 1 (its end).
  void stamp(VkCommandBuffer cb, uint32_t which, VkPipelineStageFlagBits stage);
  // After the submission ended: each pair's time, in order; the first pair's.
  std::vector<double> all_elapsed_ms() const;
  double elapsed_ms() const { return all_elapsed_ms().front(); }

 private:
  const RawDevice& device_;
  uint32_t pairs_;
  UniqueQueryPool pool_;
};

}  // namespace vkcl::bench

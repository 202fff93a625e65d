#include "raw_objects.h"

#include <cstring>
#include <stdexcept>

#include "paths.h"

namespace vkcl::bench {
namespace {

uint32_t memory_type(const RawDevice& device, uint32_t allowed, VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred) {
  const VkPhysicalDeviceMemoryProperties& m = device.memory();
  for (VkMemoryPropertyFlags want : {required | preferred, required})
    for (uint32_t t = 0; t < m.memoryTypeCount; ++t)
      if ((allowed & (1u << t)) && (m.memoryTypes[t].propertyFlags & want) == want) return t;
  throw std::runtime_error("no memory type with property flags " + std::to_string(required));
}

}  // namespace

RawBuffer make_buffer(const RawDevice& device, VkDeviceSize bytes, VkBufferUsageFlags usage, VkMemoryPropertyFlags required,
                      VkMemoryPropertyFlags preferred) {
  const VolkDeviceTable& vk = device.vk;
  RawBuffer b;
  b.size = bytes;
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = bytes;
  info.usage = usage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VkBuffer buffer;
  check_vk(vk.vkCreateBuffer(device.device(), &info, nullptr, &buffer), "vkCreateBuffer");
  b.buffer = UniqueBuffer(device, buffer);
  VkMemoryRequirements needs;
  vk.vkGetBufferMemoryRequirements(device.device(), buffer, &needs);
  VkMemoryAllocateFlagsInfo flags{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
  flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
  const bool addressed = usage & VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
  VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, addressed ? &flags : nullptr};
  alloc.allocationSize = needs.size;
  alloc.memoryTypeIndex = memory_type(device, needs.memoryTypeBits, required, preferred);
  VkDeviceMemory memory;
  check_vk(vk.vkAllocateMemory(device.device(), &alloc, nullptr, &memory), "vkAllocateMemory");
  b.memory = UniqueMemory(device, memory);
  check_vk(vk.vkBindBufferMemory(device.device(), buffer, memory, 0), "vkBindBufferMemory");
  if (device.memory().memoryTypes[alloc.memoryTypeIndex].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) {
    void* mapped = nullptr;
    check_vk(vk.vkMapMemory(device.device(), memory, 0, VK_WHOLE_SIZE, 0, &mapped), "vkMapMemory");
    b.mapped = static_cast<std::byte*>(mapped);  // unmapped by vkFreeMemory
  }
  if (addressed) {
    VkBufferDeviceAddressInfo where{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
    where.buffer = buffer;
    b.address = vk.vkGetBufferDeviceAddress(device.device(), &where);
  }
  return b;
}

UniquePipeline make_compute_pipeline(const RawDevice& device, const std::string& spv, const char* entry, VkPipelineLayout layout,
                                     VkPipelineCreateFlags flags, const VkSpecializationInfo* specialization) {
  const std::string code = read_text(spv);
  std::vector<uint32_t> words(code.size() / 4);
  std::memcpy(words.data(), code.data(), words.size() * 4);
  VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  module_info.codeSize = words.size() * 4;
  module_info.pCode = words.data();
  VkShaderModule module;
  check_vk(device.vk.vkCreateShaderModule(device.device(), &module_info, nullptr, &module), "vkCreateShaderModule");
  const UniqueShaderModule owned(device, module);
  VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  info.flags = flags;
  info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = module;
  info.stage.pName = entry;
  info.stage.pSpecializationInfo = specialization;
  info.layout = layout;
  VkPipeline pipeline;
  check_vk(device.vk.vkCreateComputePipelines(device.device(), VK_NULL_HANDLE, 1, &info, nullptr, &pipeline),
           "vkCreateComputePipelines");
  return UniquePipeline(device, pipeline);
}

UniqueSetLayout make_storage_set_layout(const RawDevice& device, uint32_t count, VkDescriptorSetLayoutCreateFlags flags) {
  std::vector<VkDescriptorSetLayoutBinding> bindings(count);
  for (uint32_t b = 0; b < count; ++b)
    bindings[b] = {b, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
  VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  info.flags = flags;
  info.bindingCount = count;
  info.pBindings = bindings.data();
  VkDescriptorSetLayout layout;
  check_vk(device.vk.vkCreateDescriptorSetLayout(device.device(), &info, nullptr, &layout), "vkCreateDescriptorSetLayout");
  return UniqueSetLayout(device, layout);
}

StorageDescriptorSet make_storage_descriptor_set(const RawDevice& device, VkDescriptorSetLayout layout,
                                                 std::span<const VkDescriptorBufferInfo> buffers) {
  StorageDescriptorSet result;
  const VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, uint32_t(buffers.size())};
  VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pool_info.maxSets = 1;
  pool_info.poolSizeCount = 1;
  pool_info.pPoolSizes = &size;
  VkDescriptorPool pool;
  check_vk(device.vk.vkCreateDescriptorPool(device.device(), &pool_info, nullptr, &pool), "vkCreateDescriptorPool");
  result.pool = UniqueDescriptorPool(device, pool);
  VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  alloc.descriptorPool = pool;
  alloc.descriptorSetCount = 1;
  alloc.pSetLayouts = &layout;
  check_vk(device.vk.vkAllocateDescriptorSets(device.device(), &alloc, &result.set), "vkAllocateDescriptorSets");
  VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  write.dstSet = result.set;
  write.dstBinding = 0;
  write.descriptorCount = uint32_t(buffers.size());  // consecutive bindings of one type: one write fills them all
  write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  write.pBufferInfo = buffers.data();
  device.vk.vkUpdateDescriptorSets(device.device(), 1, &write, 0, nullptr);
  return result;
}

UniquePipelineLayout make_pipeline_layout(const RawDevice& device, VkDescriptorSetLayout set, uint32_t push_bytes) {
  const VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes};
  VkPipelineLayoutCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  info.setLayoutCount = set ? 1 : 0;
  info.pSetLayouts = &set;
  info.pushConstantRangeCount = push_bytes ? 1 : 0;
  info.pPushConstantRanges = &range;
  VkPipelineLayout layout;
  check_vk(device.vk.vkCreatePipelineLayout(device.device(), &info, nullptr, &layout), "vkCreatePipelineLayout");
  return UniquePipelineLayout(device, layout);
}

void memory_barrier(const RawDevice& device, VkCommandBuffer cb, VkPipelineStageFlags src_stages, VkAccessFlags src_access,
                    VkPipelineStageFlags dst_stages, VkAccessFlags dst_access) {
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = src_access;
  barrier.dstAccessMask = dst_access;
  device.vk.vkCmdPipelineBarrier(cb, src_stages, dst_stages, 0, 1, &barrier, 0, nullptr, 0, nullptr);
}

RawCommands::RawCommands(const RawDevice& device) : device_(device) {
  const VolkDeviceTable& vk = device.vk;
  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.queueFamilyIndex = device.family();
  VkCommandPool pool;
  check_vk(vk.vkCreateCommandPool(device.device(), &pool_info, nullptr, &pool), "vkCreateCommandPool");
  pool_ = UniqueCommandPool(device, pool);
  VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  alloc.commandPool = pool;
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = 1;
  check_vk(vk.vkAllocateCommandBuffers(device.device(), &alloc, &cb_), "vkAllocateCommandBuffers");
  VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence fence;
  check_vk(vk.vkCreateFence(device.device(), &fence_info, nullptr, &fence), "vkCreateFence");
  fence_ = UniqueFence(device, fence);
}

VkCommandBuffer RawCommands::begin() {
  check_vk(device_.vk.vkResetCommandPool(device_.device(), pool_.get(), 0), "vkResetCommandPool");
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  check_vk(device_.vk.vkBeginCommandBuffer(cb_, &begin), "vkBeginCommandBuffer");
  return cb_;
}

void RawCommands::end() { check_vk(device_.vk.vkEndCommandBuffer(cb_), "vkEndCommandBuffer"); }

void RawCommands::submit_and_wait() {
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cb_;
  VkFence fence = fence_.get();
  check_vk(device_.vk.vkQueueSubmit(device_.queue(), 1, &submit, fence), "vkQueueSubmit");
  check_vk(device_.vk.vkWaitForFences(device_.device(), 1, &fence, VK_TRUE, 60'000'000'000ull), "vkWaitForFences");
  check_vk(device_.vk.vkResetFences(device_.device(), 1, &fence), "vkResetFences");
}

namespace {

RawBuffer staging(const RawDevice& device, size_t bytes) {
  return make_buffer(device, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                     VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
}

}  // namespace

void upload(const RawDevice& device, RawCommands& commands, const RawBuffer& to, std::span<const std::byte> bytes) {
  if (bytes.empty()) return;
  RawBuffer from = staging(device, bytes.size());
  std::memcpy(from.mapped, bytes.data(), bytes.size());
  VkCommandBuffer cb = commands.begin();
  const VkBufferCopy region{0, 0, bytes.size()};
  device.vk.vkCmdCopyBuffer(cb, from.buffer.get(), to.buffer.get(), 1, &region);
  commands.end();
  commands.submit_and_wait();  // the next submission's first barrier makes the copy visible to shaders
}

std::vector<std::byte> download(const RawDevice& device, RawCommands& commands, const RawBuffer& from, size_t bytes) {
  std::vector<std::byte> contents(bytes);
  if (bytes == 0) return contents;
  RawBuffer to = staging(device, bytes);
  VkCommandBuffer cb = commands.begin();
  memory_barrier(device, cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                 VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
  const VkBufferCopy region{0, 0, bytes};
  device.vk.vkCmdCopyBuffer(cb, from.buffer.get(), to.buffer.get(), 1, &region);
  memory_barrier(device, cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                 VK_ACCESS_HOST_READ_BIT);
  commands.end();
  commands.submit_and_wait();
  std::memcpy(contents.data(), to.mapped, bytes);
  return contents;
}

RawTimer::RawTimer(const RawDevice& device, uint32_t pairs) : device_(device), pairs_(pairs) {
  if (device.timestamp_bits() == 0 || !(device.properties().limits.timestampPeriod > 0))
    throw std::runtime_error(std::string(device.properties().deviceName) + " cannot write timestamps on its compute queue");
  VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  info.queryType = VK_QUERY_TYPE_TIMESTAMP;
  info.queryCount = 2 * pairs;
  VkQueryPool pool;
  check_vk(device.vk.vkCreateQueryPool(device.device(), &info, nullptr, &pool), "vkCreateQueryPool");
  pool_ = UniqueQueryPool(device, pool);
}

void RawTimer::reset(VkCommandBuffer cb) { device_.vk.vkCmdResetQueryPool(cb, pool_.get(), 0, 2 * pairs_); }

void RawTimer::stamp(VkCommandBuffer cb, uint32_t which, VkPipelineStageFlagBits stage) {
  device_.vk.vkCmdWriteTimestamp(cb, stage, pool_.get(), which);
}

std::vector<double> RawTimer::all_elapsed_ms() const {
  std::vector<uint64_t> ticks(2 * pairs_);
  check_vk(device_.vk.vkGetQueryPoolResults(device_.device(), pool_.get(), 0, 2 * pairs_, ticks.size() * sizeof ticks[0],
                                            ticks.data(), sizeof ticks[0], VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
           "vkGetQueryPoolResults");
  const uint32_t bits = device_.timestamp_bits();
  const uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
  std::vector<double> ms;
  for (uint32_t p = 0; p < pairs_; ++p)
    ms.push_back(double((ticks[2 * p + 1] - ticks[2 * p]) & mask) * device_.properties().limits.timestampPeriod / 1e6);
  return ms;
}

}  // namespace vkcl::bench

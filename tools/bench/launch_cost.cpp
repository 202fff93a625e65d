#include "launch_cost.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <stdexcept>

#include "raw_objects.h"

namespace vkcl::bench {
namespace {

using Clock = std::chrono::steady_clock;

struct Arguments {
  std::array<const RawBuffer*, 4> buffers;  // a, b, c (read), d (written)
  uint32_t slot;
};

// One way of passing the arguments: its pipeline, and what it records.
class Method {
 public:
  virtual ~Method() = default;
  // Once per command buffer, before the first dispatch.
  virtual void begin(VkCommandBuffer cb) = 0;
  // Dispatch `index` (from 0) of the command buffer, with its arguments.
  virtual void dispatch(VkCommandBuffer cb, uint32_t index, const Arguments& args) = 0;
};

// a) The four addresses and the slot in one push-constant block.
class PushAddresses : public Method {
 public:
  PushAddresses(const RawDevice& d, const std::string& dir)
      : d_(d), layout_(make_pipeline_layout(d, VK_NULL_HANDLE, kBytes)),
        pipeline_(make_compute_pipeline(d, dir + "/addresses.spv", "main", layout_.get())) {}
  void begin(VkCommandBuffer cb) override { d_.vk.vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_.get()); }
  void dispatch(VkCommandBuffer cb, uint32_t, const Arguments& args) override {
    Block block{};
    for (size_t k = 0; k < 4; ++k) block.addresses[k] = args.buffers[k]->address;
    block.slot = args.slot;
    d_.vk.vkCmdPushConstants(cb, layout_.get(), VK_SHADER_STAGE_COMPUTE_BIT, 0, kBytes, &block);
    d_.vk.vkCmdDispatch(cb, 1, 1, 1);
  }

 private:
  struct Block {
    VkDeviceAddress addresses[4];
    uint32_t slot;
  };
  static constexpr uint32_t kBytes = offsetof(Block, slot) + sizeof(uint32_t);  // 36: the shader's block, no padding
  const RawDevice& d_;
  UniquePipelineLayout layout_;
  UniquePipeline pipeline_;
};

// What b), c) and d) share: descriptors.spv, a set layout of four storage
// buffers (with the method's flags), and the slot as a push constant.
class DescriptorMethod : public Method {
 protected:
  DescriptorMethod(const RawDevice& d, const std::string& dir, VkDescriptorSetLayoutCreateFlags set_flags,
                   VkPipelineCreateFlags pipeline_flags = 0)
      : d_(d), set_layout_(make_storage_set_layout(d, 4, set_flags)), layout_(make_pipeline_layout(d, set_layout_.get(), 4)),
        pipeline_(make_compute_pipeline(d, dir + "/descriptors.spv", "main", layout_.get(), pipeline_flags)) {}
  void bind_pipeline(VkCommandBuffer cb) { d_.vk.vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_.get()); }
  void push_slot_and_dispatch(VkCommandBuffer cb, uint32_t slot) {
    d_.vk.vkCmdPushConstants(cb, layout_.get(), VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &slot);
    d_.vk.vkCmdDispatch(cb, 1, 1, 1);
  }
  // The four bindings in one write (consecutive bindings of one type).
  static VkWriteDescriptorSet write_of(VkDescriptorSet set, const Arguments& args, std::array<VkDescriptorBufferInfo, 4>& infos) {
    for (size_t k = 0; k < 4; ++k) infos[k] = {args.buffers[k]->buffer.get(), 0, VK_WHOLE_SIZE};
    VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    write.dstSet = set;
    write.descriptorCount = 4;
    write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    write.pBufferInfo = infos.data();
    return write;
  }
  const RawDevice& d_;
  UniqueSetLayout set_layout_;
  UniquePipelineLayout layout_;
  UniquePipeline pipeline_;
};

// b) vkCmdPushDescriptorSetKHR per dispatch.
class PushDescriptors : public DescriptorMethod {
 public:
  PushDescriptors(const RawDevice& d, const std::string& dir)
      : DescriptorMethod(d, dir, VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR) {}
  void begin(VkCommandBuffer cb) override { bind_pipeline(cb); }
  void dispatch(VkCommandBuffer cb, uint32_t, const Arguments& args) override {
    std::array<VkDescriptorBufferInfo, 4> infos;
    const VkWriteDescriptorSet write = write_of(VK_NULL_HANDLE, args, infos);
    d_.vk.vkCmdPushDescriptorSetKHR(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout_.get(), 0, 1, &write);
    push_slot_and_dispatch(cb, args.slot);
  }
};

// c) A set allocated from a pool (reset per command buffer), written and bound per dispatch.
class DescriptorSets : public DescriptorMethod {
 public:
  DescriptorSets(const RawDevice& d, const std::string& dir, uint32_t dispatches) : DescriptorMethod(d, dir, 0) {
    const VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4 * dispatches};
    VkDescriptorPoolCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    info.maxSets = dispatches;
    info.poolSizeCount = 1;
    info.pPoolSizes = &size;
    VkDescriptorPool pool;
    check_vk(d.vk.vkCreateDescriptorPool(d.device(), &info, nullptr, &pool), "vkCreateDescriptorPool");
    pool_ = UniqueDescriptorPool(d, pool);
  }
  void begin(VkCommandBuffer cb) override {
    check_vk(d_.vk.vkResetDescriptorPool(d_.device(), pool_.get(), 0), "vkResetDescriptorPool");
    bind_pipeline(cb);
  }
  void dispatch(VkCommandBuffer cb, uint32_t, const Arguments& args) override {
    VkDescriptorSetLayout set_layout = set_layout_.get();
    VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    alloc.descriptorPool = pool_.get();
    alloc.descriptorSetCount = 1;
    alloc.pSetLayouts = &set_layout;
    VkDescriptorSet set;
    check_vk(d_.vk.vkAllocateDescriptorSets(d_.device(), &alloc, &set), "vkAllocateDescriptorSets");
    std::array<VkDescriptorBufferInfo, 4> infos;
    const VkWriteDescriptorSet write = write_of(set, args, infos);
    d_.vk.vkUpdateDescriptorSets(d_.device(), 1, &write, 0, nullptr);
    d_.vk.vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout_.get(), 0, 1, &set, 0, nullptr);
    push_slot_and_dispatch(cb, args.slot);
  }

 private:
  UniqueDescriptorPool pool_;
};

// d) One set's descriptors per dispatch, written by vkGetDescriptorEXT into
// a host-visible descriptor buffer bound once; each dispatch points set 0
// at its own part of it.
class DescriptorBuffer : public DescriptorMethod {
 public:
  DescriptorBuffer(const RawDevice& d, const std::string& dir, uint32_t dispatches)
      : DescriptorMethod(d, dir, VK_DESCRIPTOR_SET_LAYOUT_CREATE_DESCRIPTOR_BUFFER_BIT_EXT,
                         VK_PIPELINE_CREATE_DESCRIPTOR_BUFFER_BIT_EXT) {
    properties_.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_PROPERTIES_EXT;
    VkPhysicalDeviceProperties2 all{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &properties_};
    d.get_properties2(d.physical(), &all);
    VkDeviceSize set_size = 0;
    d.vk.vkGetDescriptorSetLayoutSizeEXT(d.device(), set_layout_.get(), &set_size);
    for (uint32_t b = 0; b < 4; ++b) d.vk.vkGetDescriptorSetLayoutBindingOffsetEXT(d.device(), set_layout_.get(), b, &offsets_[b]);
    const VkDeviceSize align = std::max<VkDeviceSize>(properties_.descriptorBufferOffsetAlignment, 1);
    stride_ = (set_size + align - 1) / align * align;
    descriptors_ = make_buffer(d, stride_ * dispatches, kDescriptorUsage,
                               VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                               VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  }
  void begin(VkCommandBuffer cb) override {
    bind_pipeline(cb);
    VkDescriptorBufferBindingInfoEXT binding{VK_STRUCTURE_TYPE_DESCRIPTOR_BUFFER_BINDING_INFO_EXT};
    binding.address = descriptors_.address;
    binding.usage = kDescriptorUsage;  // the buffer's usage, all of it
    d_.vk.vkCmdBindDescriptorBuffersEXT(cb, 1, &binding);
  }
  void dispatch(VkCommandBuffer cb, uint32_t index, const Arguments& args) override {
    const VkDeviceSize offset = VkDeviceSize(index) * stride_;
    for (size_t k = 0; k < 4; ++k) {
      VkDescriptorAddressInfoEXT address{VK_STRUCTURE_TYPE_DESCRIPTOR_ADDRESS_INFO_EXT};
      address.address = args.buffers[k]->address;
      address.range = args.buffers[k]->size;
      VkDescriptorGetInfoEXT info{VK_STRUCTURE_TYPE_DESCRIPTOR_GET_INFO_EXT};
      info.type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      info.data.pStorageBuffer = &address;
      d_.vk.vkGetDescriptorEXT(d_.device(), &info, properties_.storageBufferDescriptorSize,
                               descriptors_.mapped + offset + offsets_[k]);
    }
    const uint32_t buffer_index = 0;
    d_.vk.vkCmdSetDescriptorBufferOffsetsEXT(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout_.get(), 0, 1, &buffer_index, &offset);
    push_slot_and_dispatch(cb, args.slot);
  }

 private:
  static constexpr VkBufferUsageFlags kDescriptorUsage =
      VK_BUFFER_USAGE_RESOURCE_DESCRIPTOR_BUFFER_BIT_EXT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
  VkPhysicalDeviceDescriptorBufferPropertiesEXT properties_{};
  std::array<VkDeviceSize, 4> offsets_{};
  VkDeviceSize stride_ = 0;
  RawBuffer descriptors_;
};

// A device with one method's features, the argument pools, and the timing.
LaunchCost measure(LaunchCost row, const std::string& device_name, RawFeatures features,
                   const std::function<bool(const RawFeatures&)>& supported, const char* missing,
                   const std::function<std::unique_ptr<Method>(const RawDevice&)>& make, int dispatches, int repeat) {
  const auto fail = [&](const std::string& status, const std::string& why) {
    row.record = row.submit = row.gpu = RunResult{status, why, {}};
    return row;
  };
  try {
    RawDevice d(device_name, features);
    if (!supported(d.enabled())) return fail("n/a", device_name + " has no " + missing);
    std::unique_ptr<Method> method = make(d);
    constexpr VkBufferUsageFlags kUsage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                          VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    const VkBufferUsageFlags usage = kUsage | (d.enabled().buffer_device_address ? VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT : 0);
    const uint32_t words = launch_words(dispatches);
    RawCommands commands(d);
    RawTimer timer(d);
    std::vector<RawBuffer> inputs, outputs;
    for (uint32_t j = 0; j < kLaunchPool; ++j) {
      inputs.push_back(make_buffer(d, 4, usage, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT));
      const uint32_t value = 1u << j;
      upload(d, commands, inputs.back(), std::as_bytes(std::span(&value, 1)));
      outputs.push_back(make_buffer(d, words * 4, usage, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT));
    }
    const auto arguments = [&](uint32_t i) {
      const LaunchArguments a = launch_arguments(i);
      return Arguments{{&inputs[a.a], &inputs[a.b], &inputs[a.c], &outputs[a.d]}, a.slot};
    };
    // Round 0 is checked, not timed.
    for (int round = 0; round <= repeat; ++round) {
      if (round == 0) {
        VkCommandBuffer cb = commands.begin();
        for (const RawBuffer& out : outputs) d.vk.vkCmdFillBuffer(cb, out.buffer.get(), 0, VK_WHOLE_SIZE, 0);
        commands.end();
        commands.submit_and_wait();
      }
      const auto start = Clock::now();
      VkCommandBuffer cb = commands.begin();
      timer.reset(cb);
      memory_barrier(d, cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                     VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
      timer.stamp(cb, 0, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT);
      method->begin(cb);
      for (uint32_t i = 0; i < uint32_t(dispatches); ++i) method->dispatch(cb, i, arguments(i));
      timer.stamp(cb, 1, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT);
      memory_barrier(d, cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                     VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
      commands.end();
      const auto recorded = Clock::now();
      commands.submit_and_wait();
      const auto done = Clock::now();
      if (round == 0) {
        std::vector<std::vector<std::byte>> written;
        for (const RawBuffer& out : outputs) written.push_back(download(d, commands, out, words * 4));
        if (std::string wrong = check_launch_outputs(written, dispatches); !wrong.empty()) return fail("wrong result", wrong);
        continue;
      }
      const double n = dispatches;
      row.record.samples.push_back(std::chrono::duration<double, std::micro>(recorded - start).count() / n);
      row.submit.samples.push_back(std::chrono::duration<double, std::micro>(done - recorded).count() / n);
      row.gpu.samples.push_back(timer.elapsed_ms() * 1000 / n);
    }
  } catch (const std::exception& e) {
    return fail("run error", e.what());
  }
  return row;
}

}  // namespace

std::vector<LaunchCost> measure_launch_cost(const std::string& device_name, const std::string& launch_dir, int dispatches,
                                            int repeat) {
  const uint32_t n = uint32_t(dispatches);
  std::vector<LaunchCost> rows;
  rows.push_back(measure(
      {"a) addresses in push constants"}, device_name, {.buffer_device_address = true},
      [](const RawFeatures& f) { return f.buffer_device_address; }, "bufferDeviceAddress",
      [&](const RawDevice& d) { return std::make_unique<PushAddresses>(d, launch_dir); }, dispatches, repeat));
  rows.push_back(measure(
      {"b) VK_KHR_push_descriptor"}, device_name, {.push_descriptor = true},
      [](const RawFeatures& f) { return f.push_descriptor; }, "VK_KHR_push_descriptor",
      [&](const RawDevice& d) { return std::make_unique<PushDescriptors>(d, launch_dir); }, dispatches, repeat));
  rows.push_back(measure(
      {"c) descriptor sets, written per dispatch"}, device_name, {}, [](const RawFeatures&) { return true; }, "",
      [&](const RawDevice& d) { return std::make_unique<DescriptorSets>(d, launch_dir, n); }, dispatches, repeat));
  rows.push_back(measure(
      {"d) VK_EXT_descriptor_buffer"}, device_name, {.descriptor_buffer = true},
      [](const RawFeatures& f) { return f.descriptor_buffer; }, "VK_EXT_descriptor_buffer",
      [&](const RawDevice& d) { return std::make_unique<DescriptorBuffer>(d, launch_dir, n); }, dispatches, repeat));
  return rows;
}

}  // namespace vkcl::bench

// Plain Vulkan for vkcl-bench's raw paths (the idiomatic GLSL twins, the
// dispatch-overhead floor, the launch-cost microbenchmark): an instance and
// a device of their own, opened through volk's loader but with their own
// function tables, so nothing of vkcl's runtime (its device, its features,
// its allocations) takes part, and RAII owners for the objects made on it.
// What a Vulkan programmer writes, no more.
#pragma once

#include <volk.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>

namespace vkcl::bench {

// Throws std::runtime_error naming `call` and the VkResult unless it is VK_SUCCESS.
void check_vk(VkResult result, const char* call);

// What the device is created with, where the device has it (RawDevice::enabled
// says what it got). Each path asks only for what its shaders and calls need:
// a feature enabled is a feature the driver may have to honour everywhere.
struct RawFeatures {
  bool memory_model = false;           // vulkanMemoryModel (+ device scope): GL_KHR_memory_scope_semantics
  bool buffer_device_address = false;  // bufferDeviceAddress
  bool push_descriptor = false;        // VK_KHR_push_descriptor
  bool descriptor_buffer = false;      // VK_EXT_descriptor_buffer (implies buffer_device_address)
  // Every 8-, 16- and 64-bit type the device has, in arithmetic (shaderInt8/16/64,
  // shaderFloat16/64) and in storage buffers (storageBuffer8/16BitAccess): what
  // the corpus's twins (tools/corpus_bench/twin_side.h) may use as OpenCL C does.
  bool arithmetic_types = false;
};

class RawDevice {
 public:
  // The physical device named `device_name` (vkcl's, so every path runs on
  // the same one), its first compute queue. Vulkan 1.2 at least.
  RawDevice(const std::string& device_name, RawFeatures wanted);
  RawDevice(const RawDevice&) = delete;
  RawDevice& operator=(const RawDevice&) = delete;

  VkDevice device() const { return owner_.device; }
  VkPhysicalDevice physical() const { return physical_; }
  VkQueue queue() const { return queue_; }
  uint32_t family() const { return family_; }
  const VkPhysicalDeviceProperties& properties() const { return properties_; }
  const VkPhysicalDeviceMemoryProperties& memory() const { return memory_; }
  // The compute queue family's timestampValidBits: 0 when it cannot write timestamps.
  uint32_t timestamp_bits() const { return timestamp_bits_; }
  const RawFeatures& enabled() const { return enabled_; }
  // This device's entry points (volk's globals belong to vkcl's instance).
  VolkDeviceTable vk{};
  // Instance-level calls the paths need, through this instance.
  PFN_vkGetPhysicalDeviceProperties2 get_properties2 = nullptr;

 private:
  // The instance and the device, destroyed in that order's reverse even
  // when the constructor throws half-way.
  struct Owner {
    VkInstance instance = VK_NULL_HANDLE;
    PFN_vkDestroyInstance destroy_instance = nullptr;
    VkDevice device = VK_NULL_HANDLE;
    PFN_vkDeviceWaitIdle wait_idle = nullptr;
    PFN_vkDestroyDevice destroy_device = nullptr;
    Owner() = default;
    Owner(const Owner&) = delete;
    Owner& operator=(const Owner&) = delete;
    ~Owner();
  } owner_;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  uint32_t family_ = 0, timestamp_bits_ = 0;
  VkPhysicalDeviceProperties properties_{};
  VkPhysicalDeviceMemoryProperties memory_{};
  RawFeatures enabled_;
};

// Owns one Vulkan object of a RawDevice, destroyed (or freed) with the
// table's `Destroy` entry; it must not outlive the device.
template <typename T, auto Destroy>
class Unique {
 public:
  Unique() = default;
  Unique(const RawDevice& device, T handle) : device_(&device), handle_(handle) {}
  Unique(Unique&& other) noexcept : device_(other.device_), handle_(std::exchange(other.handle_, T(VK_NULL_HANDLE))) {}
  Unique& operator=(Unique&& other) noexcept {
    if (this != &other) {
      reset();
      device_ = other.device_;
      handle_ = std::exchange(other.handle_, T(VK_NULL_HANDLE));
    }
    return *this;
  }
  ~Unique() { reset(); }
  void reset() {
    if (handle_ != VK_NULL_HANDLE) (device_->vk.*Destroy)(device_->device(), handle_, nullptr);
    handle_ = VK_NULL_HANDLE;
  }
  T get() const { return handle_; }

 private:
  const RawDevice* device_ = nullptr;
  T handle_ = VK_NULL_HANDLE;
};

using UniqueBuffer = Unique<VkBuffer, &VolkDeviceTable::vkDestroyBuffer>;
using UniqueMemory = Unique<VkDeviceMemory, &VolkDeviceTable::vkFreeMemory>;
using UniqueShaderModule = Unique<VkShaderModule, &VolkDeviceTable::vkDestroyShaderModule>;
using UniqueSetLayout = Unique<VkDescriptorSetLayout, &VolkDeviceTable::vkDestroyDescriptorSetLayout>;
using UniquePipelineLayout = Unique<VkPipelineLayout, &VolkDeviceTable::vkDestroyPipelineLayout>;
using UniquePipeline = Unique<VkPipeline, &VolkDeviceTable::vkDestroyPipeline>;
using UniqueDescriptorPool = Unique<VkDescriptorPool, &VolkDeviceTable::vkDestroyDescriptorPool>;
using UniqueCommandPool = Unique<VkCommandPool, &VolkDeviceTable::vkDestroyCommandPool>;
using UniqueFence = Unique<VkFence, &VolkDeviceTable::vkDestroyFence>;
using UniqueQueryPool = Unique<VkQueryPool, &VolkDeviceTable::vkDestroyQueryPool>;

}  // namespace vkcl::bench

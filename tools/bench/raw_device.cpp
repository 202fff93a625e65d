#include "raw_device.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "vkcl/error.h"

namespace vkcl::bench {
namespace {

template <typename F>
F load(PFN_vkVoidFunction f, const char* name) {
  if (!f) throw std::runtime_error(std::string("the Vulkan loader has no ") + name);
  return reinterpret_cast<F>(f);
}

// Every device-level call of the raw paths: X(name) for core calls, which
// must be there, O(name) for calls of optional extensions, null without them.
#define VKCL_BENCH_DEVICE_CALLS(X, O)                                                                                    \
  X(vkDestroyDevice) X(vkDeviceWaitIdle) X(vkGetDeviceQueue) X(vkCreateShaderModule) X(vkDestroyShaderModule)          \
  X(vkCreatePipelineLayout) X(vkDestroyPipelineLayout) X(vkCreateComputePipelines) X(vkDestroyPipeline)                \
  X(vkCreateCommandPool) X(vkDestroyCommandPool) X(vkResetCommandPool) X(vkAllocateCommandBuffers)                     \
  X(vkBeginCommandBuffer) X(vkEndCommandBuffer) X(vkCmdBindPipeline) X(vkCmdDispatch) X(vkCmdPushConstants)            \
  X(vkCmdPipelineBarrier) X(vkCmdCopyBuffer) X(vkCmdFillBuffer) X(vkCreateFence) X(vkDestroyFence) X(vkResetFences)    \
  X(vkWaitForFences) X(vkQueueSubmit) X(vkCreateBuffer) X(vkDestroyBuffer) X(vkGetBufferMemoryRequirements)            \
  X(vkAllocateMemory) X(vkFreeMemory) X(vkBindBufferMemory) X(vkMapMemory) X(vkUnmapMemory)                            \
  X(vkCreateDescriptorSetLayout) X(vkDestroyDescriptorSetLayout) X(vkCreateDescriptorPool) X(vkDestroyDescriptorPool)  \
  X(vkResetDescriptorPool) X(vkAllocateDescriptorSets) X(vkUpdateDescriptorSets) X(vkCmdBindDescriptorSets)            \
  X(vkCreateQueryPool) X(vkDestroyQueryPool) X(vkCmdResetQueryPool) X(vkCmdWriteTimestamp) X(vkGetQueryPoolResults)    \
  O(vkGetBufferDeviceAddress) O(vkCmdPushDescriptorSetKHR) O(vkGetDescriptorSetLayoutSizeEXT)                          \
  O(vkGetDescriptorSetLayoutBindingOffsetEXT) O(vkGetDescriptorEXT) O(vkCmdBindDescriptorBuffersEXT)                   \
  O(vkCmdSetDescriptorBufferOffsetsEXT)

bool has_extension(const std::vector<VkExtensionProperties>& all, const char* name) {
  return std::any_of(all.begin(), all.end(), [&](const VkExtensionProperties& e) { return std::strcmp(e.extensionName, name) == 0; });
}

}  // namespace

void check_vk(VkResult result, const char* call) {
  if (result != VK_SUCCESS) throw std::runtime_error(std::string(call) + " failed: " + vkcl::to_string(result));
}

RawDevice::RawDevice(const std::string& device_name, RawFeatures wanted) {
  check_vk(volkInitialize(), "volkInitialize");  // vkcl did it already; this only reloads the loader's entry points
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "vkcl-bench raw Vulkan";
  app.apiVersion = VK_API_VERSION_1_2;
  VkInstanceCreateInfo instance_info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  instance_info.pApplicationInfo = &app;
  check_vk(vkCreateInstance(&instance_info, nullptr, &owner_.instance), "vkCreateInstance");
  // Instance functions through this instance's own pointers: volk's
  // globals belong to vkcl's instance.
  auto get = [&](const char* name) { return vkGetInstanceProcAddr(owner_.instance, name); };
  owner_.destroy_instance = load<PFN_vkDestroyInstance>(get("vkDestroyInstance"), "vkDestroyInstance");
  auto enumerate = load<PFN_vkEnumeratePhysicalDevices>(get("vkEnumeratePhysicalDevices"), "vkEnumeratePhysicalDevices");
  auto properties = load<PFN_vkGetPhysicalDeviceProperties>(get("vkGetPhysicalDeviceProperties"), "vkGetPhysicalDeviceProperties");
  auto memory = load<PFN_vkGetPhysicalDeviceMemoryProperties>(get("vkGetPhysicalDeviceMemoryProperties"),
                                                              "vkGetPhysicalDeviceMemoryProperties");
  auto features2 = load<PFN_vkGetPhysicalDeviceFeatures2>(get("vkGetPhysicalDeviceFeatures2"), "vkGetPhysicalDeviceFeatures2");
  get_properties2 = load<PFN_vkGetPhysicalDeviceProperties2>(get("vkGetPhysicalDeviceProperties2"), "vkGetPhysicalDeviceProperties2");
  auto families = load<PFN_vkGetPhysicalDeviceQueueFamilyProperties>(get("vkGetPhysicalDeviceQueueFamilyProperties"),
                                                                      "vkGetPhysicalDeviceQueueFamilyProperties");
  auto extensions = load<PFN_vkEnumerateDeviceExtensionProperties>(get("vkEnumerateDeviceExtensionProperties"),
                                                                    "vkEnumerateDeviceExtensionProperties");
  auto create_device = load<PFN_vkCreateDevice>(get("vkCreateDevice"), "vkCreateDevice");
  auto device_proc = load<PFN_vkGetDeviceProcAddr>(get("vkGetDeviceProcAddr"), "vkGetDeviceProcAddr");

  uint32_t count = 0;
  check_vk(enumerate(owner_.instance, &count, nullptr), "vkEnumeratePhysicalDevices");
  std::vector<VkPhysicalDevice> physical(count);
  check_vk(enumerate(owner_.instance, &count, physical.data()), "vkEnumeratePhysicalDevices");
  for (VkPhysicalDevice p : physical) {
    VkPhysicalDeviceProperties props;
    properties(p, &props);
    if (device_name == props.deviceName) physical_ = p, properties_ = props;
  }
  if (!physical_) throw std::runtime_error("no physical device named '" + device_name + "'");
  if (properties_.apiVersion < VK_API_VERSION_1_2) throw std::runtime_error(device_name + " has no Vulkan 1.2");
  memory(physical_, &memory_);

  uint32_t family_count = 0;
  families(physical_, &family_count, nullptr);
  std::vector<VkQueueFamilyProperties> family_props(family_count);
  families(physical_, &family_count, family_props.data());
  family_ = family_count;
  for (uint32_t f = 0; f < family_count && family_ == family_count; ++f)
    if (family_props[f].queueFlags & VK_QUEUE_COMPUTE_BIT) family_ = f;
  if (family_ == family_count) throw std::runtime_error(device_name + " has no compute queue");
  timestamp_bits_ = family_props[family_].timestampValidBits;

  uint32_t extension_count = 0;
  check_vk(extensions(physical_, nullptr, &extension_count, nullptr), "vkEnumerateDeviceExtensionProperties");
  std::vector<VkExtensionProperties> available(extension_count);
  check_vk(extensions(physical_, nullptr, &extension_count, available.data()), "vkEnumerateDeviceExtensionProperties");

  VkPhysicalDeviceDescriptorBufferFeaturesEXT descriptor_buffer{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_FEATURES_EXT};
  VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &v12};
  VkPhysicalDeviceFeatures2 supported{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v11};
  // VK_EXT_descriptor_buffer needs VK_KHR_synchronization2, which a Vulkan 1.2
  // instance (this one) must enable as an extension.
  const bool has_descriptor_buffer = has_extension(available, VK_EXT_DESCRIPTOR_BUFFER_EXTENSION_NAME) &&
                                     has_extension(available, VK_KHR_SYNCHRONIZATION_2_EXTENSION_NAME);
  if (has_descriptor_buffer) v12.pNext = &descriptor_buffer;
  features2(physical_, &supported);

  enabled_.memory_model = wanted.memory_model && v12.vulkanMemoryModel && v12.vulkanMemoryModelDeviceScope;
  enabled_.descriptor_buffer = wanted.descriptor_buffer && has_descriptor_buffer && descriptor_buffer.descriptorBuffer &&
                               v12.bufferDeviceAddress;
  enabled_.buffer_device_address = (wanted.buffer_device_address || enabled_.descriptor_buffer) && v12.bufferDeviceAddress;
  enabled_.push_descriptor = wanted.push_descriptor && has_extension(available, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
  enabled_.arithmetic_types = wanted.arithmetic_types;

  VkPhysicalDeviceDescriptorBufferFeaturesEXT enable_descriptor_buffer{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_FEATURES_EXT};
  enable_descriptor_buffer.descriptorBuffer = VK_TRUE;
  VkPhysicalDeviceVulkan12Features enable12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  enable12.vulkanMemoryModel = enable12.vulkanMemoryModelDeviceScope = enabled_.memory_model;
  enable12.bufferDeviceAddress = enabled_.buffer_device_address;
  VkPhysicalDeviceVulkan11Features enable11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &enable12};
  VkPhysicalDeviceFeatures2 enable{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &enable11};
  if (enabled_.arithmetic_types) {
    // Each where the device has it: a twin that needs a missing one fails to build its pipeline, by name.
    enable.features.shaderInt64 = supported.features.shaderInt64;
    enable.features.shaderInt16 = supported.features.shaderInt16;
    enable.features.shaderFloat64 = supported.features.shaderFloat64;
    enable11.storageBuffer16BitAccess = v11.storageBuffer16BitAccess;
    enable12.storageBuffer8BitAccess = v12.storageBuffer8BitAccess;
    enable12.shaderInt8 = v12.shaderInt8;
    enable12.shaderFloat16 = v12.shaderFloat16;
  }
  if (enabled_.descriptor_buffer) enable12.pNext = &enable_descriptor_buffer;
  std::vector<const char*> names;
  if (enabled_.push_descriptor) names.push_back(VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
  if (enabled_.descriptor_buffer) {
    names.push_back(VK_EXT_DESCRIPTOR_BUFFER_EXTENSION_NAME);
    names.push_back(VK_KHR_SYNCHRONIZATION_2_EXTENSION_NAME);
  }

  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue_info.queueFamilyIndex = family_;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  VkDeviceCreateInfo device_info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &enable};
  device_info.queueCreateInfoCount = 1;
  device_info.pQueueCreateInfos = &queue_info;
  device_info.enabledExtensionCount = uint32_t(names.size());
  device_info.ppEnabledExtensionNames = names.data();
  check_vk(create_device(physical_, &device_info, nullptr, &owner_.device), "vkCreateDevice");
  owner_.wait_idle = load<PFN_vkDeviceWaitIdle>(device_proc(owner_.device, "vkDeviceWaitIdle"), "vkDeviceWaitIdle");
  owner_.destroy_device = load<PFN_vkDestroyDevice>(device_proc(owner_.device, "vkDestroyDevice"), "vkDestroyDevice");
  // The table by hand, through this instance's vkGetDeviceProcAddr.
#define VKCL_BENCH_REQUIRED(f) vk.f = load<PFN_##f>(device_proc(owner_.device, #f), #f);
#define VKCL_BENCH_OPTIONAL(f) vk.f = reinterpret_cast<PFN_##f>(device_proc(owner_.device, #f));
  VKCL_BENCH_DEVICE_CALLS(VKCL_BENCH_REQUIRED, VKCL_BENCH_OPTIONAL)
#undef VKCL_BENCH_REQUIRED
#undef VKCL_BENCH_OPTIONAL
  vk.vkGetDeviceQueue(owner_.device, family_, 0, &queue_);
}

RawDevice::Owner::~Owner() {
  if (device && destroy_device) {
    wait_idle(device);
    destroy_device(device, nullptr);
  }
  if (instance && destroy_instance) destroy_instance(instance, nullptr);
}

}  // namespace vkcl::bench

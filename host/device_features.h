// Which ModuleFeatures a physical device has, and the structures that enable
// them at device creation: Vulkan 1.1/1.2 core structures where the device
// and instance are 1.2 or newer, else the KHR extension structures; and the
// sub-group size control of Vulkan 1.3 or VK_EXT_subgroup_size_control; and
// which float widths' subnormals the device can preserve (float controls,
// Vulkan 1.2 or VK_KHR_shader_float_controls, enabled wherever offered); and
// float atomics on local memory (VK_EXT_shader_atomic_float, likewise).
#pragma once

#include <volk.h>

#include <string>
#include <vector>

#include "reflection.h"
#include "vkcl/device.h"

namespace vkcl::detail {

class FeatureSet {
 public:
  // Queries everything; api_version is min(device, instance).
  // With want_pipeline_statistics, VK_KHR_pipeline_executable_properties is
  // enabled where the device has it.
  FeatureSet(VkPhysicalDevice physical, uint32_t api_version, bool want_pipeline_statistics = false);
  FeatureSet(const FeatureSet&) = delete;  // the structures point at each other
  FeatureSet& operator=(const FeatureSet&) = delete;

  const ModuleFeatures& supported() const { return supported_; }
  const SubgroupSizeControl& subgroup_size_control() const { return size_control_; }
  bool pipeline_statistics() const { return pipeline_executable_.pipelineExecutableInfo == VK_TRUE; }
  // VkPhysicalDevicePushDescriptorPropertiesKHR::maxPushDescriptors; 0 without the extension.
  uint32_t max_push_descriptors() const { return max_push_descriptors_; }
  // Multiprocessors where an extension tells them (VK_NV_shader_sm_builtins'
  // shaderSMCount, VK_AMD_shader_core_properties' compute units), else 0.
  uint32_t compute_units() const { return compute_units_; }
  // Device extensions to enable (only below 1.2, plus portability_subset).
  const std::vector<const char*>& extensions() const { return extensions_; }
  // A pNext chain that enables every supported feature of interest, and
  // nothing else; valid while this object lives.
  const VkPhysicalDeviceFeatures2* enable_chain();

 private:
  bool has_extension(const char* name) const;

  uint32_t api_version_;
  std::vector<std::string> available_extensions_;
  std::vector<const char*> extensions_;
  ModuleFeatures supported_;
  SubgroupSizeControl size_control_;
  uint32_t max_push_descriptors_ = 0;
  uint32_t compute_units_ = 0;

  VkPhysicalDeviceFeatures2 features2_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  VkPhysicalDeviceVulkan11Features v11_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
  VkPhysicalDeviceVulkan12Features v12_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  VkPhysicalDevice16BitStorageFeatures storage16_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES};
  VkPhysicalDeviceVariablePointersFeatures variable_pointers_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VARIABLE_POINTERS_FEATURES};
  VkPhysicalDeviceBufferDeviceAddressFeatures bda_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES};
  VkPhysicalDeviceVulkanMemoryModelFeatures memory_model_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_MEMORY_MODEL_FEATURES};
  VkPhysicalDeviceShaderFloat16Int8Features float16_int8_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES};
  VkPhysicalDevice8BitStorageFeatures storage8_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES};
  VkPhysicalDeviceShaderAtomicInt64Features atomic_int64_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES};
  VkPhysicalDeviceShaderSubgroupExtendedTypesFeatures subgroup_extended_types_{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_EXTENDED_TYPES_FEATURES};
  // Core 1.3 or VK_EXT_subgroup_size_control; chained only where one of them is there.
  VkPhysicalDeviceSubgroupSizeControlFeatures subgroup_size_control_{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES};
  // VK_EXT_shader_atomic_float (never core): chained where offered.
  VkPhysicalDeviceShaderAtomicFloatFeaturesEXT atomic_float_{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT};
  // Chained only when asked for and offered.
  VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR pipeline_executable_{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
};

}  // namespace vkcl::detail

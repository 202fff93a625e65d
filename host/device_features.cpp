#include "device_features.h"

#include <algorithm>
#include <cstring>

namespace vkcl::detail {
namespace {

// Keeps `flag` only where the device has it.
void keep(VkBool32& flag, VkBool32 supported) { flag = flag && supported; }

}  // namespace

FeatureSet::FeatureSet(VkPhysicalDevice physical, uint32_t api_version, bool want_pipeline_statistics)
    : api_version_(api_version) {
  uint32_t count = 0;
  vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> props(count);
  vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, props.data());
  for (const auto& p : props) available_extensions_.emplace_back(p.extensionName);

  // The spec requires enabling portability_subset wherever it is offered.
  if (has_extension("VK_KHR_portability_subset")) extensions_.push_back("VK_KHR_portability_subset");

  const bool core12 = api_version >= VK_API_VERSION_1_2;
  void** tail = &features2_.pNext;
  auto link = [&](auto& s) {
    *tail = &s;
    tail = &s.pNext;
  };
  if (core12) {
    link(v11_);
    link(v12_);
  } else {
    link(storage16_);
    link(variable_pointers_);
    const std::pair<const char*, void*> optional[] = {
        {VK_KHR_BUFFER_DEVICE_ADDRESS_EXTENSION_NAME, &bda_},
        {VK_KHR_VULKAN_MEMORY_MODEL_EXTENSION_NAME, &memory_model_},
        {VK_KHR_SHADER_FLOAT16_INT8_EXTENSION_NAME, &float16_int8_},
        {VK_KHR_8BIT_STORAGE_EXTENSION_NAME, &storage8_},
        {VK_KHR_SHADER_ATOMIC_INT64_EXTENSION_NAME, &atomic_int64_},
        {VK_KHR_SHADER_SUBGROUP_EXTENDED_TYPES_EXTENSION_NAME, &subgroup_extended_types_},
    };
    for (auto [name, s] : optional) {
      if (!has_extension(name)) continue;
      extensions_.push_back(name);
      // Every Vk*Features struct starts with sType, pNext.
      *tail = s;
      tail = reinterpret_cast<void**>(&static_cast<VkBaseOutStructure*>(s)->pNext);
      *tail = nullptr;
    }
    for (const char* name : {VK_KHR_DRIVER_PROPERTIES_EXTENSION_NAME, VK_KHR_SHADER_FLOAT_CONTROLS_EXTENSION_NAME,
                             VK_KHR_SPIRV_1_4_EXTENSION_NAME})
      if (has_extension(name)) extensions_.push_back(name);
  }
  // Required sub-group sizes (intel_reqd_sub_group_size): core in 1.3, else
  // the extension, enabled wherever it is offered as the ones above are.
  size_control_.supported =
      api_version >= VK_API_VERSION_1_3 || has_extension(VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME);
  if (size_control_.supported) {
    if (api_version < VK_API_VERSION_1_3) extensions_.push_back(VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME);
    link(subgroup_size_control_);
  }
  // Loads, stores and exchanges of float and double on local memory.
  const bool atomic_float = has_extension(VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME);
  if (atomic_float) {
    extensions_.push_back(VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME);
    link(atomic_float_);
  }
  // Kernels whose pointer arguments are storage buffers push them per
  // dispatch (spirv/bind_storage_buffers.cpp); never core before 1.4.
  const bool push_descriptor = has_extension(VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
  if (push_descriptor) extensions_.push_back(VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
  if (want_pipeline_statistics && has_extension(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME)) {
    extensions_.push_back(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
    link(pipeline_executable_);
  }
  vkGetPhysicalDeviceFeatures2(physical, &features2_);

  VkPhysicalDeviceSubgroupSizeControlProperties size_control{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES};
  VkPhysicalDevicePushDescriptorPropertiesKHR push_descriptor_properties{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PUSH_DESCRIPTOR_PROPERTIES_KHR, size_control_.supported ? &size_control : nullptr};
  VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES,
                                              push_descriptor ? static_cast<void*>(&push_descriptor_properties)
                                              : size_control_.supported ? static_cast<void*>(&size_control) : nullptr};
  // Float controls: core in 1.2, else VK_KHR_shader_float_controls, which
  // the list above enables wherever it is offered (a DenormPreserve mode is
  // only legal on a device created with it).
  const bool float_controls = core12 || has_extension(VK_KHR_SHADER_FLOAT_CONTROLS_EXTENSION_NAME);
  VkPhysicalDeviceFloatControlsProperties float_controls_properties{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES, &subgroup};
  VkPhysicalDeviceProperties2 properties2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                          float_controls ? static_cast<void*>(&float_controls_properties)
                                                         : static_cast<void*>(&subgroup)};
  vkGetPhysicalDeviceProperties2(physical, &properties2);
  if (size_control_.supported) {
    size_control_.feature = subgroup_size_control_.subgroupSizeControl;
    size_control_.min_size = size_control.minSubgroupSize;
    size_control_.max_size = size_control.maxSubgroupSize;
    size_control_.max_compute_workgroup_subgroups = size_control.maxComputeWorkgroupSubgroups;
    size_control_.required_size_stages = size_control.requiredSubgroupSizeStages;
  }

  // Only read, so the extensions need not be enabled.
  VkPhysicalDeviceShaderSMBuiltinsPropertiesNV sm_builtins{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SM_BUILTINS_PROPERTIES_NV};
  VkPhysicalDeviceShaderCorePropertiesAMD amd_cores{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CORE_PROPERTIES_AMD};
  if (has_extension(VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME)) {
    VkPhysicalDeviceProperties2 cores{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &sm_builtins};
    vkGetPhysicalDeviceProperties2(physical, &cores);
    compute_units_ = sm_builtins.shaderSMCount;
  } else if (has_extension(VK_AMD_SHADER_CORE_PROPERTIES_EXTENSION_NAME)) {
    VkPhysicalDeviceProperties2 cores{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &amd_cores};
    vkGetPhysicalDeviceProperties2(physical, &cores);
    compute_units_ = amd_cores.shaderEngineCount * amd_cores.shaderArraysPerEngineCount * amd_cores.computeUnitsPerShaderArray;
  }

  const VkPhysicalDeviceFeatures& f = features2_.features;
  ModuleFeatures& s = supported_;
  s.push_descriptor = push_descriptor;
  max_push_descriptors_ = push_descriptor ? push_descriptor_properties.maxPushDescriptors : 0;
  s.shader_int64 = f.shaderInt64;
  s.shader_int16 = f.shaderInt16;
  s.shader_float64 = f.shaderFloat64;
  s.subgroup_basic = (subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) &&
                     (subgroup.supportedOperations & VK_SUBGROUP_FEATURE_BASIC_BIT);
  // The operations builtins/subgroups.cl uses, each only with the basic ones.
  auto subgroup_operation = [&](VkSubgroupFeatureFlags bit) {
    return s.subgroup_basic && (subgroup.supportedOperations & bit) != 0;
  };
  s.subgroup_vote = subgroup_operation(VK_SUBGROUP_FEATURE_VOTE_BIT);
  s.subgroup_arithmetic = subgroup_operation(VK_SUBGROUP_FEATURE_ARITHMETIC_BIT);
  s.subgroup_ballot = subgroup_operation(VK_SUBGROUP_FEATURE_BALLOT_BIT);
  s.subgroup_shuffle = subgroup_operation(VK_SUBGROUP_FEATURE_SHUFFLE_BIT);
  s.subgroup_shuffle_relative = subgroup_operation(VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT);
  s.subgroup_clustered = subgroup_operation(VK_SUBGROUP_FEATURE_CLUSTERED_BIT);
  if (core12) {
    s.buffer_device_address = v12_.bufferDeviceAddress;
    s.vulkan_memory_model = v12_.vulkanMemoryModel;
    s.vulkan_memory_model_device_scope = v12_.vulkanMemoryModelDeviceScope;
    s.shader_int8 = v12_.shaderInt8;
    s.shader_float16 = v12_.shaderFloat16;
    s.storage_buffer_8bit = v12_.storageBuffer8BitAccess;
    s.storage_buffer_16bit = v11_.storageBuffer16BitAccess;
    s.variable_pointers = v11_.variablePointers && v11_.variablePointersStorageBuffer;
    s.shader_buffer_int64_atomics = v12_.shaderBufferInt64Atomics;
    s.shader_shared_int64_atomics = v12_.shaderSharedInt64Atomics;
    s.subgroup_extended_types = s.subgroup_basic && v12_.shaderSubgroupExtendedTypes;
  } else {
    s.buffer_device_address = bda_.bufferDeviceAddress;
    s.vulkan_memory_model = memory_model_.vulkanMemoryModel;
    s.vulkan_memory_model_device_scope = memory_model_.vulkanMemoryModelDeviceScope;
    s.shader_int8 = float16_int8_.shaderInt8;
    s.shader_float16 = float16_int8_.shaderFloat16;
    s.storage_buffer_8bit = storage8_.storageBuffer8BitAccess;
    s.storage_buffer_16bit = storage16_.storageBuffer16BitAccess;
    s.variable_pointers = variable_pointers_.variablePointers && variable_pointers_.variablePointersStorageBuffer;
    s.shader_buffer_int64_atomics = atomic_int64_.shaderBufferInt64Atomics;
    s.shader_shared_int64_atomics = atomic_int64_.shaderSharedInt64Atomics;
    s.subgroup_extended_types = s.subgroup_basic && subgroup_extended_types_.shaderSubgroupExtendedTypes;
  }
  s.shader_shared_float32_atomics = atomic_float_.shaderSharedFloat32Atomics;
  s.shader_shared_float64_atomics = s.shader_float64 && atomic_float_.shaderSharedFloat64Atomics;
  if (float_controls) {
    // The widths whose subnormals the device can preserve. Where it cannot
    // set denormal behaviour for each width on its own
    // (denormBehaviorIndependence), an entry point must give the widths tied
    // together one mode (VUID-RuntimeSpirv-denormBehaviorIndependence-06289,
    // -06290), so each tied width a module could use (its type is enabled)
    // is offered only where all of them are.
    const VkPhysicalDeviceFloatControlsProperties& fc = float_controls_properties;
    bool f16 = s.shader_float16 && fc.shaderDenormPreserveFloat16;
    bool f32 = fc.shaderDenormPreserveFloat32;
    bool f64 = s.shader_float64 && fc.shaderDenormPreserveFloat64;
    if (fc.denormBehaviorIndependence == VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_32_BIT_ONLY) {
      const bool tied = (f16 || !s.shader_float16) && (f64 || !s.shader_float64);
      f16 = f16 && tied;
      f64 = f64 && tied;
    } else if (fc.denormBehaviorIndependence == VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_NONE) {
      const bool tied = f32 && (f16 || !s.shader_float16) && (f64 || !s.shader_float64);
      f16 = f16 && tied;
      f32 = f32 && tied;
      f64 = f64 && tied;
    }
    s.denorm_preserve_float16 = f16;
    s.denorm_preserve_float32 = f32;
    s.denorm_preserve_float64 = f64;
    // Signed zeros, infinities and NaNs have no independence rule.
    s.signed_zero_inf_nan_preserve_float16 = s.shader_float16 && fc.shaderSignedZeroInfNanPreserveFloat16;
    s.signed_zero_inf_nan_preserve_float32 = fc.shaderSignedZeroInfNanPreserveFloat32;
    s.signed_zero_inf_nan_preserve_float64 = s.shader_float64 && fc.shaderSignedZeroInfNanPreserveFloat64;
  }
}

bool FeatureSet::has_extension(const char* name) const {
  for (const auto& e : available_extensions_)
    if (e == name) return true;
  return false;
}

const VkPhysicalDeviceFeatures2* FeatureSet::enable_chain() {
  // Only what a module can ask for: robustBufferAccess and friends cost speed.
  VkPhysicalDeviceFeatures wanted{};
  wanted.shaderInt64 = features2_.features.shaderInt64;
  wanted.shaderInt16 = features2_.features.shaderInt16;
  wanted.shaderFloat64 = features2_.features.shaderFloat64;
  features2_.features = wanted;
  if (api_version_ >= VK_API_VERSION_1_2) {
    VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, v11_.pNext};
    v11.storageBuffer16BitAccess = v11.uniformAndStorageBuffer16BitAccess = v11.storagePushConstant16 = VK_TRUE;
    v11.variablePointers = v11.variablePointersStorageBuffer = VK_TRUE;
    keep(v11.storageBuffer16BitAccess, v11_.storageBuffer16BitAccess);
    keep(v11.uniformAndStorageBuffer16BitAccess, v11_.uniformAndStorageBuffer16BitAccess);
    keep(v11.storagePushConstant16, v11_.storagePushConstant16);
    keep(v11.variablePointersStorageBuffer, v11_.variablePointersStorageBuffer);
    keep(v11.variablePointers, v11_.variablePointers);
    v11_ = v11;
    VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, v12_.pNext};
    v12.bufferDeviceAddress = v12_.bufferDeviceAddress;
    v12.vulkanMemoryModel = v12_.vulkanMemoryModel;
    v12.vulkanMemoryModelDeviceScope = v12_.vulkanMemoryModelDeviceScope;
    v12.vulkanMemoryModelAvailabilityVisibilityChains = v12_.vulkanMemoryModelAvailabilityVisibilityChains;
    v12.shaderInt8 = v12_.shaderInt8;
    v12.shaderFloat16 = v12_.shaderFloat16;
    v12.storageBuffer8BitAccess = v12_.storageBuffer8BitAccess;
    v12.uniformAndStorageBuffer8BitAccess = v12_.uniformAndStorageBuffer8BitAccess;
    v12.storagePushConstant8 = v12_.storagePushConstant8;
    v12.shaderBufferInt64Atomics = v12_.shaderBufferInt64Atomics;
    v12.shaderSharedInt64Atomics = v12_.shaderSharedInt64Atomics;
    v12.shaderSubgroupExtendedTypes = v12_.shaderSubgroupExtendedTypes;
    v12_ = v12;
  }
  // Of the float atomics, what a module can ask for: none on buffers (their
  // bits are atomics on int and long) or images, and no additions.
  const VkPhysicalDeviceShaderAtomicFloatFeaturesEXT atomic_float = atomic_float_;
  atomic_float_ = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT, atomic_float.pNext};
  atomic_float_.shaderSharedFloat32Atomics = atomic_float.shaderSharedFloat32Atomics;
  atomic_float_.shaderSharedFloat64Atomics = atomic_float.shaderSharedFloat64Atomics;
  // vkcl never asks for full sub-groups (VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT).
  subgroup_size_control_.computeFullSubgroups = VK_FALSE;
  if (api_version_ < VK_API_VERSION_1_2) {
    // The extension structures already hold exactly the supported values;
    // only capture-replay and multi-device, which vkcl never uses, go.
    bda_.bufferDeviceAddressCaptureReplay = bda_.bufferDeviceAddressMultiDevice = VK_FALSE;
  }
  return &features2_;
}

}  // namespace vkcl::detail

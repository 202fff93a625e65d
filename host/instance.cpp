#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "internal.h"

namespace vkcl::detail {
namespace {

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

VKAPI_ATTR VkBool32 VKAPI_CALL on_validation_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                     VkDebugUtilsMessageTypeFlagsEXT,
                                                     const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
  // Collected, not thrown: throwing through the driver's C frames is undefined.
  // Warnings too: any message of the layer is a failure (the messenger asks
  // for nothing below warnings).
  if (severity & (VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT)) {
    auto* state = static_cast<InstanceState*>(user);
    std::lock_guard lock(state->messages_mutex);
    state->validation_errors.emplace_back(data->pMessage ? data->pMessage : "(no message)");
  }
  return VK_FALSE;
}

bool has_layer(const char* name) {
  uint32_t count = 0;
  vkEnumerateInstanceLayerProperties(&count, nullptr);
  std::vector<VkLayerProperties> layers(count);
  vkEnumerateInstanceLayerProperties(&count, layers.data());
  for (const auto& layer : layers)
    if (std::strcmp(layer.layerName, name) == 0) return true;
  return false;
}

// `layer`: an extension that layer provides; null: the loader's and drivers'.
bool has_instance_extension(const char* name, const char* layer = nullptr) {
  uint32_t count = 0;
  vkEnumerateInstanceExtensionProperties(layer, &count, nullptr);
  std::vector<VkExtensionProperties> extensions(count);
  vkEnumerateInstanceExtensionProperties(layer, &count, extensions.data());
  for (const auto& extension : extensions)
    if (std::strcmp(extension.extensionName, name) == 0) return true;
  return false;
}

std::shared_ptr<InstanceState> create_instance(bool validation) {
  static const VkResult loaded = volkInitialize();
  check(loaded, "volkInitialize (is libvulkan.so.1 installed?)");

  uint32_t loader_version = volkGetInstanceVersion();
  if (loader_version < VK_API_VERSION_1_1)
    throw Error("the Vulkan loader supports only Vulkan " + std::to_string(VK_API_VERSION_MAJOR(loader_version)) + "." +
                std::to_string(VK_API_VERSION_MINOR(loader_version)) + "; vkcl needs 1.1");

  auto state = std::make_shared<InstanceState>();
  state->api_version = loader_version < VK_API_VERSION_1_3 ? loader_version : VK_API_VERSION_1_3;

  std::vector<const char*> layers, extensions;
  // Synchronization validation as well as the core checks: hazards between
  // commands, between submissions, and with host access.
  const VkValidationFeatureEnableEXT validation_enables[] = {VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
  VkValidationFeaturesEXT validation_features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
  validation_features.enabledValidationFeatureCount = 1;
  validation_features.pEnabledValidationFeatures = validation_enables;
  bool validation_features_enabled = false;
  if (validation) {
    if (has_layer(kValidationLayer) && has_instance_extension(VK_EXT_DEBUG_UTILS_EXTENSION_NAME)) {
      layers.push_back(kValidationLayer);
      extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
      state->validation = true;
      if (has_instance_extension(VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME, kValidationLayer)) {
        extensions.push_back(VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);
        validation_features_enabled = true;
      } else {
        std::fprintf(stderr, "vkcl: %s lacks %s; running without synchronization validation\n", kValidationLayer,
                     VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);
      }
    } else {
      std::fprintf(stderr, "vkcl: validation requested but %s is not installed; running without it\n",
                   kValidationLayer);
    }
  }
  VkInstanceCreateFlags flags = 0;
  // Without it the loader hides portability drivers such as MoltenVK.
  if (has_instance_extension(VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME)) {
    extensions.push_back(VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME);
    flags |= VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR;
  }

  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "vkcl";
  app.pEngineName = "vkcl";
  app.apiVersion = state->api_version;
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  if (validation_features_enabled) info.pNext = &validation_features;
  info.flags = flags;
  info.pApplicationInfo = &app;
  info.enabledLayerCount = static_cast<uint32_t>(layers.size());
  info.ppEnabledLayerNames = layers.data();
  info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  check(vkCreateInstance(&info, nullptr, &state->instance), "vkCreateInstance");
  // Device functions come from each Device's own table (see DeviceState::vk).
  volkLoadInstanceOnly(state->instance);

  if (state->validation) {
    VkDebugUtilsMessengerCreateInfoEXT messenger{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    messenger.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT;
    messenger.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT;
    messenger.pfnUserCallback = on_validation_message;
    messenger.pUserData = state.get();
    check(vkCreateDebugUtilsMessengerEXT(state->instance, &messenger, nullptr, &state->messenger),
          "vkCreateDebugUtilsMessengerEXT");
    state->destroy_messenger = vkDestroyDebugUtilsMessengerEXT;
  }
  return state;
}

}  // namespace

std::shared_ptr<InstanceState> InstanceState::get(bool validation) {
  static std::mutex mutex;
  static std::weak_ptr<InstanceState> cached[2];
  std::lock_guard lock(mutex);
  if (auto existing = cached[validation].lock()) return existing;
  auto created = create_instance(validation);
  cached[validation] = created;
  return created;
}

InstanceState::~InstanceState() {
  // Messages no later call could report (the last Device's destruction
  // caused them): a run with validation must not pass with them, so they end
  // the process once printed.
  if (!validation_errors.empty()) {
    std::fprintf(stderr, "vkcl: Vulkan validation reported %zu message(s) that no call could report as an Error:\n",
                 validation_errors.size());
    for (const std::string& message : validation_errors) std::fprintf(stderr, "  %s\n", message.c_str());
    std::abort();
  }
  // Not volk's global: a Device::list() instance (without validation) may
  // have been loaded since, leaving it null.
  if (messenger) destroy_messenger(instance, messenger, nullptr);
  if (instance) vkDestroyInstance(instance, nullptr);
}

}  // namespace vkcl::detail

#include "vkcl/device.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>

#include "device_features.h"
#include "internal.h"

namespace vkcl {
namespace detail {
namespace {

std::string version_string(uint32_t v) {
  return std::to_string(VK_API_VERSION_MAJOR(v)) + "." + std::to_string(VK_API_VERSION_MINOR(v)) + "." +
         std::to_string(VK_API_VERSION_PATCH(v));
}

std::string_view type_name(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete GPU";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated GPU";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual GPU";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "CPU";
    default: return "other";
  }
}

// Lower is preferred: discrete, integrated, virtual, other GPU, CPU.
int type_rank(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return 4;
    default: return 3;
  }
}

struct Candidate {
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties properties{};
  std::string driver;
  std::optional<uint32_t> compute_family;
  std::string unusable;  // why vkcl cannot run on it; empty if it can

  std::string describe() const {
    std::string line = std::string(properties.deviceName) + " (" + std::string(type_name(properties.deviceType)) +
                       ", driver " + (driver.empty() ? version_string(properties.driverVersion) : driver) +
                       ", Vulkan " + version_string(properties.apiVersion) + ")";
    return line;
  }
};

Candidate inspect(VkPhysicalDevice physical, uint32_t instance_version) {
  Candidate c;
  c.physical = physical;
  vkGetPhysicalDeviceProperties(physical, &c.properties);
  uint32_t api = std::min(c.properties.apiVersion, instance_version);
  // Driver name and info are core in 1.2; below that only with the extension.
  bool has_driver_props = api >= VK_API_VERSION_1_2;
  if (!has_driver_props) {
    uint32_t count = 0;
    vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, nullptr);
    std::vector<VkExtensionProperties> extensions(count);
    vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, extensions.data());
    for (const auto& e : extensions)
      if (std::strcmp(e.extensionName, VK_KHR_DRIVER_PROPERTIES_EXTENSION_NAME) == 0) has_driver_props = true;
  }
  if (has_driver_props) {
    VkPhysicalDeviceDriverProperties driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
    VkPhysicalDeviceProperties2 props2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &driver};
    vkGetPhysicalDeviceProperties2(physical, &props2);
    c.driver = driver.driverName;
    if (driver.driverInfo[0]) c.driver += std::string(" ") + driver.driverInfo;
  }
  uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, families.data());
  for (uint32_t i = 0; i < count && !c.compute_family; ++i)
    if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) c.compute_family = i;
  if (api < VK_API_VERSION_1_1)
    c.unusable = "it supports only Vulkan " + version_string(api) + " and vkcl needs 1.1";
  else if (!c.compute_family)
    c.unusable = "it has no compute queue";
  return c;
}

std::vector<Candidate> enumerate(const InstanceState& instance) {
  uint32_t count = 0;
  check(vkEnumeratePhysicalDevices(instance.instance, &count, nullptr), "vkEnumeratePhysicalDevices");
  std::vector<VkPhysicalDevice> physicals(count);
  check(vkEnumeratePhysicalDevices(instance.instance, &count, physicals.data()), "vkEnumeratePhysicalDevices");
  std::vector<Candidate> candidates;
  for (VkPhysicalDevice p : physicals) candidates.push_back(inspect(p, instance.api_version));
  return candidates;
}

std::string device_list(const std::vector<Candidate>& candidates) {
  if (candidates.empty()) return "  (no Vulkan devices)";
  std::string list;
  for (size_t i = 0; i < candidates.size(); ++i) {
    if (i) list += '\n';
    list += "  " + std::to_string(i) + ": " + candidates[i].describe();
    if (!candidates[i].unusable.empty()) list += " [unusable: " + candidates[i].unusable + "]";
  }
  return list;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& ch : out) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return out;
}

const Candidate& select(const std::vector<Candidate>& candidates, const std::string& selector, const char* source) {
  if (!selector.empty()) {
    const Candidate* chosen = nullptr;
    if (std::all_of(selector.begin(), selector.end(), [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); })) {
      size_t index = std::strtoull(selector.c_str(), nullptr, 10);
      if (index < candidates.size()) chosen = &candidates[index];
    } else {
      for (const Candidate& c : candidates)
        if (lower(c.properties.deviceName).find(lower(selector)) != std::string::npos) {
          chosen = &c;
          break;
        }
    }
    if (!chosen)
      throw Error(std::string(source) + "='" + selector + "' matches no Vulkan device (an index or part of a name); devices:\n" +
                  device_list(candidates));
    if (!chosen->unusable.empty())
      throw Error(std::string(source) + "='" + selector + "' selects " + chosen->properties.deviceName +
                  ", which vkcl cannot use: " + chosen->unusable);
    return *chosen;
  }
  const Candidate* best = nullptr;
  for (const Candidate& c : candidates)
    if (c.unusable.empty() && (!best || type_rank(c.properties.deviceType) < type_rank(best->properties.deviceType)))
      best = &c;
  if (!best) throw Error("no Vulkan device vkcl can use; devices:\n" + device_list(candidates));
  return *best;
}

std::shared_ptr<DeviceState> create_device(const DeviceOptions& options) {
  bool validation = options.validation.value_or([] {
    const char* env = std::getenv("VKCL_VALIDATION");
    return env && std::strcmp(env, "1") == 0;
  }());
  auto state = std::make_shared<DeviceState>();
  state->instance = InstanceState::get(validation);
  state->timeout = options.timeout;
  auto candidates = enumerate(*state->instance);

  std::string selector = options.selector;
  const char* source = "selector";
  if (selector.empty()) {
    const char* env = std::getenv("VKCL_DEVICE");
    if (env) selector = env;
    source = "VKCL_DEVICE";
  }
  const Candidate& chosen = select(candidates, selector, source);

  state->physical = chosen.physical;
  state->properties = chosen.properties;
  state->api_version = std::min(chosen.properties.apiVersion, state->instance->api_version);
  state->driver = chosen.driver;
  state->queue_family = *chosen.compute_family;
  vkGetPhysicalDeviceMemoryProperties(state->physical, &state->memory);
  VkPhysicalDeviceMaintenance3Properties maintenance3{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES};
  VkPhysicalDeviceProperties2 props2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &maintenance3};
  vkGetPhysicalDeviceProperties2(state->physical, &props2);
  state->max_allocation_size = maintenance3.maxMemoryAllocationSize;

  FeatureSet features(state->physical, state->api_version);
  state->features = without(features.supported(), options.withheld_features);
  for (const char* e : features.extensions())
    if (std::strcmp(e, VK_KHR_SPIRV_1_4_EXTENSION_NAME) == 0) state->spirv_1_4 = true;

  float priority = 1.0f;
  VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue.queueFamilyIndex = state->queue_family;
  queue.queueCount = 1;
  queue.pQueuePriorities = &priority;
  VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  info.pNext = features.enable_chain();
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queue;
  info.enabledExtensionCount = static_cast<uint32_t>(features.extensions().size());
  info.ppEnabledExtensionNames = features.extensions().data();
  check(vkCreateDevice(state->physical, &info, nullptr, &state->device), "vkCreateDevice");
  volkLoadDeviceTable(&state->vk, state->device);
  state->vk.vkGetDeviceQueue(state->device, state->queue_family, 0, &state->queue);

  VkCommandPoolCreateInfo pool{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
  pool.queueFamilyIndex = state->queue_family;
  check(state->vk.vkCreateCommandPool(state->device, &pool, nullptr, &state->command_pool), "vkCreateCommandPool");
  state->check_validation("device creation");
  return state;
}

}  // namespace

DispatchLimits DeviceState::dispatch_limits() const {
  const VkPhysicalDeviceLimits& l = properties.limits;
  return {{l.maxComputeWorkGroupSize[0], l.maxComputeWorkGroupSize[1], l.maxComputeWorkGroupSize[2]},
          l.maxComputeWorkGroupInvocations,
          {l.maxComputeWorkGroupCount[0], l.maxComputeWorkGroupCount[1], l.maxComputeWorkGroupCount[2]}};
}

void DeviceState::check_validation(std::string_view during) {
  if (!instance->validation) return;
  std::vector<std::string> errors;
  {
    std::lock_guard lock(instance->messages_mutex);
    errors.swap(instance->validation_errors);
  }
  if (errors.empty()) return;
  std::string message = "Vulkan validation reported " + std::to_string(errors.size()) + " error(s) during " +
                        std::string(during) + ":";
  for (const std::string& e : errors) message += "\n  " + e;
  throw Error(message);
}

void DeviceState::check_usable() const {
  if (lost) throw Error(std::string("device ") + properties.deviceName + " was lost by an earlier call (VK_ERROR_DEVICE_LOST)",
                        VK_ERROR_DEVICE_LOST);
}

DeviceState::~DeviceState() {
  if (!device) return;
  // Waits for submissions that timed out: freeing what they use is undefined.
  vk.vkDeviceWaitIdle(device);
  for (const PendingSubmission& p : pending) {
    vk.vkFreeCommandBuffers(device, command_pool, 1, &p.command_buffer);
    vk.vkDestroyFence(device, p.fence, nullptr);
  }
  if (command_pool) vk.vkDestroyCommandPool(device, command_pool, nullptr);
  vk.vkDestroyDevice(device, nullptr);
}

}  // namespace detail

Device Device::create() { return create(DeviceOptions{}); }

Device Device::create(std::string_view selector) {
  DeviceOptions options;
  options.selector = selector;
  return create(options);
}

Device Device::create(const DeviceOptions& options) { return Device(detail::create_device(options)); }

std::vector<std::string> Device::available() {
  auto instance = detail::InstanceState::get(false);
  std::vector<std::string> lines;
  for (const auto& c : detail::enumerate(*instance)) lines.push_back(c.describe());
  return lines;
}

Device::Device(std::shared_ptr<detail::DeviceState> state) : state_(std::move(state)) {}
Device::Device(Device&&) noexcept = default;
Device& Device::operator=(Device&&) noexcept = default;
Device::~Device() = default;

std::string Device::name() const { return state_->properties.deviceName; }
const VkPhysicalDeviceProperties& Device::properties() const { return state_->properties; }

std::string Device::describe() const {
  detail::Candidate c;
  c.properties = state_->properties;
  c.driver = state_->driver;
  return c.describe();
}

const ModuleFeatures& Device::features() const { return state_->features; }
DispatchLimits Device::dispatch_limits() const { return state_->dispatch_limits(); }
std::chrono::milliseconds Device::timeout() const { return state_->timeout; }
void Device::set_timeout(std::chrono::milliseconds timeout) { state_->timeout = timeout; }

}  // namespace vkcl

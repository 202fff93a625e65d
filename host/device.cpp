#include "vkcl/device.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "device_features.h"
#include "internal.h"
#include "pipeline_cache.h"
#include "submission.h"

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
  std::string driver;  // "<driverName> <driverInfo>", or empty
  std::optional<uint32_t> compute_family;
  DeviceInfo info;     // info.unusable: why vkcl cannot run on it; empty if it can

  const std::string& unusable() const { return info.unusable; }
  std::string describe() const { return info.summary(); }
};

Candidate inspect(VkPhysicalDevice physical, uint32_t instance_version) {
  Candidate c;
  c.physical = physical;
  vkGetPhysicalDeviceProperties(physical, &c.properties);
  const VkPhysicalDeviceProperties& p = c.properties;
  DeviceInfo& info = c.info;
  info.name = p.deviceName;
  info.type = p.deviceType;
  info.vendor_id = p.vendorID;
  info.device_id = p.deviceID;
  info.driver_version = p.driverVersion;
  info.api_version = p.apiVersion;
  const VkPhysicalDeviceLimits& l = p.limits;
  info.max_work_group_size = {l.maxComputeWorkGroupSize[0], l.maxComputeWorkGroupSize[1], l.maxComputeWorkGroupSize[2]};
  info.max_work_group_invocations = l.maxComputeWorkGroupInvocations;
  info.max_work_group_count = {l.maxComputeWorkGroupCount[0], l.maxComputeWorkGroupCount[1], l.maxComputeWorkGroupCount[2]};
  info.max_shared_memory = l.maxComputeSharedMemorySize;
  info.max_push_constants = l.maxPushConstantsSize;
  info.max_storage_buffer_range = l.maxStorageBufferRange;
  info.min_storage_buffer_offset_alignment = static_cast<uint32_t>(l.minStorageBufferOffsetAlignment);
  info.timestamp_period = l.timestampPeriod;
  info.timestamp_compute_and_graphics = l.timestampComputeAndGraphics;

  uint32_t api = std::min(p.apiVersion, instance_version);
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
  // Subgroup and maintenance3 properties are core 1.1; chaining them on a
  // 1.0 device would be invalid, and vkcl cannot use such a device anyway.
  if (api >= VK_API_VERSION_1_1) {
    VkPhysicalDeviceDriverProperties driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
    VkPhysicalDeviceMaintenance3Properties maintenance3{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES,
                                                        has_driver_props ? &driver : nullptr};
    VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES, &maintenance3};
    VkPhysicalDeviceProperties2 props2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &subgroup};
    vkGetPhysicalDeviceProperties2(physical, &props2);
    info.subgroup_size = subgroup.subgroupSize;
    info.subgroup_stages = subgroup.supportedStages;
    info.subgroup_operations = subgroup.supportedOperations;
    info.max_allocation_size = maintenance3.maxMemoryAllocationSize;
    if (has_driver_props) {
      info.driver_name = driver.driverName;
      info.driver_info = driver.driverInfo;
      c.driver = info.driver_name;
      if (!info.driver_info.empty()) c.driver += " " + info.driver_info;
    }
    FeatureSet features(physical, api);
    info.features = features.supported();
    info.subgroup_size_control = features.subgroup_size_control();
    info.compute_units = features.compute_units();
  }

  VkPhysicalDeviceMemoryProperties memory;
  vkGetPhysicalDeviceMemoryProperties(physical, &memory);
  for (uint32_t h = 0; h < memory.memoryHeapCount; ++h) {
    MemoryHeapInfo heap{memory.memoryHeaps[h].size, memory.memoryHeaps[h].flags, {}};
    for (uint32_t t = 0; t < memory.memoryTypeCount; ++t)
      if (memory.memoryTypes[t].heapIndex == h) heap.types.push_back(memory.memoryTypes[t].propertyFlags);
    info.heaps.push_back(std::move(heap));
  }

  uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, families.data());
  for (uint32_t i = 0; i < count && !c.compute_family; ++i)
    if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) c.compute_family = i;
  if (c.compute_family) info.timestamp_valid_bits = families[*c.compute_family].timestampValidBits;
  if (api < VK_API_VERSION_1_1)
    info.unusable = "it supports only Vulkan " + version_string(api) + " and vkcl needs 1.1";
  else if (!c.compute_family)
    info.unusable = "it has no compute queue";
  return c;
}

// The candidate Device::create() picks when nothing is selected, if any.
const Candidate* preferred(const std::vector<Candidate>& candidates) {
  const Candidate* best = nullptr;
  for (const Candidate& c : candidates)
    if (c.unusable().empty() && (!best || type_rank(c.properties.deviceType) < type_rank(best->properties.deviceType)))
      best = &c;
  return best;
}

std::vector<Candidate> enumerate(const InstanceState& instance) {
  uint32_t count = 0;
  check(vkEnumeratePhysicalDevices(instance.instance, &count, nullptr), "vkEnumeratePhysicalDevices");
  std::vector<VkPhysicalDevice> physicals(count);
  check(vkEnumeratePhysicalDevices(instance.instance, &count, physicals.data()), "vkEnumeratePhysicalDevices");
  std::vector<Candidate> candidates;
  for (VkPhysicalDevice p : physicals) candidates.push_back(inspect(p, instance.api_version));
  for (size_t i = 0; i < candidates.size(); ++i) candidates[i].info.index = static_cast<uint32_t>(i);
  if (const Candidate* best = preferred(candidates)) candidates[best->info.index].info.preferred = true;
  return candidates;
}

std::string device_list(const std::vector<Candidate>& candidates) {
  if (candidates.empty()) return "  (no Vulkan devices)";
  std::string list;
  for (size_t i = 0; i < candidates.size(); ++i) {
    if (i) list += '\n';
    list += "  " + std::to_string(i) + ": " + candidates[i].describe();
    if (!candidates[i].unusable().empty()) list += " [unusable: " + candidates[i].unusable() + "]";
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
    if (!chosen->unusable().empty())
      throw Error(std::string(source) + "='" + selector + "' selects " + chosen->properties.deviceName +
                  ", which vkcl cannot use: " + chosen->unusable());
    return *chosen;
  }
  const Candidate* best = preferred(candidates);
  if (!best) throw Error("no Vulkan device vkcl can use; devices:\n" + device_list(candidates));
  return *best;
}

bool validation_from_environment() {
  const char* env = std::getenv("VKCL_VALIDATION");
  return env && std::strcmp(env, "1") == 0;
}

std::shared_ptr<DeviceState> create_device(const DeviceOptions& options) {
  bool validation = options.validation.value_or(validation_from_environment());
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

  const bool want_statistics = options.pipeline_statistics.value_or([] {
    const char* env = std::getenv("VKCL_PIPELINE_STATISTICS");
    return env && std::strcmp(env, "1") == 0;
  }());
  FeatureSet features(state->physical, state->api_version, want_statistics);
  state->pipeline_statistics = features.pipeline_statistics();
  state->features = without(features.supported(), options.withheld_features);
  state->subgroup_size_control = features.subgroup_size_control();
  state->compute_units = features.compute_units();
  state->subgroup_size = chosen.info.subgroup_size;
  state->max_bound_buffers =
      std::min(features.max_push_descriptors(), state->properties.limits.maxPerStageDescriptorStorageBuffers);
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
  // RESET_COMMAND_BUFFER: finished command buffers are reset and reused.
  pool.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT | VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool.queueFamilyIndex = state->queue_family;
  check(state->vk.vkCreateCommandPool(state->device, &pool, nullptr, &state->command_pool), "vkCreateCommandPool");

  std::filesystem::path cache_dir = options.pipeline_cache_dir;
  std::string cache_setting = "DeviceOptions::pipeline_cache_dir";
  if (cache_dir.empty()) {
    const char* env = std::getenv("VKCL_PIPELINE_CACHE");
    if (env) cache_dir = env;
    cache_setting = "VKCL_PIPELINE_CACHE";
  }
  if (!cache_dir.empty()) state->pipeline_cache = std::make_unique<PipelineCache>(*state, cache_dir, cache_setting);
  state->check_validation("device creation");
  return state;
}

}  // namespace

DispatchLimits DeviceState::dispatch_limits() const {
  const VkPhysicalDeviceLimits& l = properties.limits;
  return {{l.maxComputeWorkGroupSize[0], l.maxComputeWorkGroupSize[1], l.maxComputeWorkGroupSize[2]},
          l.maxComputeWorkGroupInvocations,
          {l.maxComputeWorkGroupCount[0], l.maxComputeWorkGroupCount[1], l.maxComputeWorkGroupCount[2]},
          compute_units,
          subgroup_size};
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

void DeviceState::retire(std::function<void()> destroy) {
  reap_pending(*this);
  if (pending.empty())
    destroy();
  else
    retired.push_back(std::move(destroy));
}

void DeviceState::note_timeout(VkFence fence, std::string what) {
  forget_timeout(fence);
  timed_out.push_back({fence, std::move(what)});
}

void DeviceState::forget_timeout(VkFence fence) {
  std::erase_if(timed_out, [&](const TimedOutSubmission& t) { return t.fence == fence; });
}

std::vector<std::string> DeviceState::still_running_after_timeout(VkFence except) {
  std::erase_if(timed_out, [&](const TimedOutSubmission& t) {
    return t.fence != except && vk.vkGetFenceStatus(device, t.fence) != VK_NOT_READY;
  });
  std::vector<std::string> names;
  for (const TimedOutSubmission& t : timed_out)
    if (t.fence != except) names.push_back(t.what);
  return names;
}

void DeviceState::take_submission_objects(VkCommandBuffer& command_buffer, VkFence& fence) {
  if (!spare_command_buffers.empty()) {
    command_buffer = spare_command_buffers.back();
    spare_command_buffers.pop_back();
  } else {
    VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    allocate.commandPool = command_pool;
    allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    allocate.commandBufferCount = 1;
    check(vk.vkAllocateCommandBuffers(device, &allocate, &command_buffer), "vkAllocateCommandBuffers");
  }
  if (!spare_fences.empty()) {
    fence = spare_fences.back();
    spare_fences.pop_back();
    return;
  }
  VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  check(vk.vkCreateFence(device, &fence_info, nullptr, &fence), "vkCreateFence");
}

ArgumentBuffer DeviceState::take_argument_buffer(VkDeviceSize bytes) {
  if (std::optional<ArgumentBuffer> spare = take_smallest_fitting(spare_argument_buffers, bytes)) return *spare;
  // A power of two from 4 KiB: a few sizes serve every later submission.
  VkDeviceSize size = 4096;
  while (size < bytes) size *= 2;
  ArgumentBuffer created;
  created.size = size;
  struct Guard {  // destroys what was made so far when a later step throws
    DeviceState& dev;
    ArgumentBuffer& made;
    bool keep = false;
    ~Guard() {
      if (!keep) dev.destroy(made);
    }
  } guard{*this, created};
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = size + kArgumentBufferAlignment;  // room to align the start (allocations usually are already)
  info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  check(vk.vkCreateBuffer(device, &info, nullptr, &created.buffer), "vkCreateBuffer (kernel argument buffer)");
  VkMemoryRequirements requirements;
  vk.vkGetBufferMemoryRequirements(device, created.buffer, &requirements);
  // Host-visible and coherent (written by memcpy before the submit), device-local too where offered.
  constexpr VkMemoryPropertyFlags kHostCoherent = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  std::vector<uint32_t> types;
  for (VkMemoryPropertyFlags wanted : {kHostCoherent | VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, kHostCoherent})
    for (uint32_t t = 0; t < memory.memoryTypeCount; ++t)
      if ((requirements.memoryTypeBits & (1u << t)) && (memory.memoryTypes[t].propertyFlags & wanted) == wanted &&
          std::find(types.begin(), types.end(), t) == types.end())
        types.push_back(t);
  if (types.empty())
    throw Error(std::string(properties.deviceName) + " has no host-visible coherent memory type for kernel argument buffers");
  VkMemoryAllocateFlagsInfo flags{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
  flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
  VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, &flags};
  allocate.allocationSize = requirements.size;
  VkResult result = VK_ERROR_OUT_OF_DEVICE_MEMORY;
  for (uint32_t type : types) {
    allocate.memoryTypeIndex = type;
    result = vk.vkAllocateMemory(device, &allocate, nullptr, &created.memory);
    if (result != VK_ERROR_OUT_OF_DEVICE_MEMORY && result != VK_ERROR_OUT_OF_HOST_MEMORY) break;
  }
  check(result, "vkAllocateMemory (" + std::to_string(requirements.size) + " bytes for a kernel argument buffer)");
  check(vk.vkBindBufferMemory(device, created.buffer, created.memory, 0), "vkBindBufferMemory (kernel argument buffer)");
  void* mapped = nullptr;
  check(vk.vkMapMemory(device, created.memory, 0, VK_WHOLE_SIZE, 0, &mapped), "vkMapMemory (kernel argument buffer)");
  created.mapped = static_cast<std::byte*>(mapped);
  VkBufferDeviceAddressInfo address{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
  address.buffer = created.buffer;
  auto get_address = vk.vkGetBufferDeviceAddress ? vk.vkGetBufferDeviceAddress : vk.vkGetBufferDeviceAddressKHR;
  created.address = get_address(device, &address);
  // The kernels' loads are Aligned up to kArgumentBufferAlignment (spirv/emit_push_constant_blocks.cpp).
  const VkDeviceSize skip = (kArgumentBufferAlignment - created.address % kArgumentBufferAlignment) % kArgumentBufferAlignment;
  created.address += skip;
  created.mapped += skip;
  guard.keep = true;
  return created;
}

void DeviceState::destroy(const ArgumentBuffer& arguments) {
  if (arguments.buffer) vk.vkDestroyBuffer(device, arguments.buffer, nullptr);
  if (arguments.memory) vk.vkFreeMemory(device, arguments.memory, nullptr);  // unmaps it
}

void DeviceState::destroy(const StagingBuffer& staging) {
  if (staging.buffer) vk.vkDestroyBuffer(device, staging.buffer, nullptr);
  if (staging.memory) vk.vkFreeMemory(device, staging.memory, nullptr);
}

void DeviceState::recycle_submission_objects(VkCommandBuffer command_buffer, VkFence fence, ArgumentBuffer arguments) {
  // A few of each cover any in-order use; more would only hold memory.
  constexpr size_t kSpares = 8;
  if (arguments.buffer) {
    if (spare_argument_buffers.size() < kSpares)
      spare_argument_buffers.push_back(arguments);
    else
      destroy(arguments);
  }
  if (fence) {
    forget_timeout(fence);
    if (spare_fences.size() < kSpares && vk.vkResetFences(device, 1, &fence) == VK_SUCCESS)
      spare_fences.push_back(fence);
    else
      vk.vkDestroyFence(device, fence, nullptr);
  }
  if (command_buffer) {
    // Reset here rather than by the next vkBeginCommandBuffer: one whose
    // recording an error cut short is still in the recording state.
    if (spare_command_buffers.size() < kSpares && vk.vkResetCommandBuffer(command_buffer, 0) == VK_SUCCESS)
      spare_command_buffers.push_back(command_buffer);
    else
      vk.vkFreeCommandBuffers(device, command_pool, 1, &command_buffer);
  }
}

DeviceState::~DeviceState() {
  if (!device) return;
  // Only pending submissions can still run: every other one was waited for,
  // and a SubmissionState (an Event) holds this state alive. So they are all
  // there is to wait for, and the wait is bounded: vkDeviceWaitIdle has no
  // timeout, and a kernel that never ends would hang the caller here.
  reap_pending(*this);
  if (!pending.empty() && !lost) {
    std::vector<VkFence> fences;
    for (const PendingSubmission& p : pending) fences.push_back(p.fence);
    const auto timeout_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(timeout).count();
    VkResult result = vk.vkWaitForFences(device, static_cast<uint32_t>(fences.size()), fences.data(), VK_TRUE,
                                         static_cast<uint64_t>(timeout_ns));
    if (result == VK_TIMEOUT) {
      // Still running after another full timeout: most likely it never ends.
      // Destroying the command buffers, pipelines, buffers and memory it
      // uses, or the VkDevice itself, while it runs is undefined behaviour
      // (drivers may fault, corrupt memory or block), so none of it is
      // destroyed: the VkDevice, the command pool, the pending command
      // buffers and fences, the retired objects and the instance are leaked
      // on purpose, until the process ends and the OS and the kernel driver
      // reclaim them. The pipeline cache is leaked too, unsaved: nothing
      // more is asked of a driver that is busy with runaway work.
      std::fprintf(stderr,
                   "vkcl: %s: %zu submission(s) still running %lld ms after the device was released; leaking "
                   "the device and what they use rather than waiting forever\n",
                   properties.deviceName, pending.size(), static_cast<long long>(timeout.count()));
      (void)pipeline_cache.release();
      // vkDestroyInstance must not run while this VkDevice exists.
      new std::shared_ptr<InstanceState>(std::move(instance));
      return;
    }
    if (result == VK_ERROR_DEVICE_LOST) lost = true;
    // VK_SUCCESS: everything has finished. A lost device runs nothing more,
    // and its objects may be destroyed.
  }
  for (const PendingSubmission& p : pending) {
    vk.vkFreeCommandBuffers(device, command_pool, 1, &p.command_buffer);
    vk.vkDestroyFence(device, p.fence, nullptr);
    destroy(p.arguments);
  }
  pending.clear();
  for (auto& destroy : retired) destroy();
  retired.clear();
  for (VkFence fence : spare_fences) vk.vkDestroyFence(device, fence, nullptr);
  spare_fences.clear();
  spare_command_buffers.clear();  // freed with the pool
  for (const ArgumentBuffer& arguments : spare_argument_buffers) destroy(arguments);
  spare_argument_buffers.clear();
  for (const StagingBuffer& staging : spare_staging_buffers) destroy(staging);
  spare_staging_buffers.clear();
  if (command_pool) vk.vkDestroyCommandPool(device, command_pool, nullptr);
  pipeline_cache.reset();  // saves through the device, so before it goes
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
  std::vector<std::string> lines;
  for (const DeviceInfo& info : list()) lines.push_back(info.summary());
  return lines;
}

std::shared_ptr<const void> Device::keep_instance() {
  return detail::InstanceState::get(detail::validation_from_environment());
}

std::vector<DeviceInfo> Device::list() {
  auto instance = detail::InstanceState::get(false);
  std::vector<DeviceInfo> infos;
  for (auto& c : detail::enumerate(*instance)) infos.push_back(std::move(c.info));
  return infos;
}

DeviceInfo Device::info() const {
  // Through the device's own instance: physical-device handles are per instance.
  for (auto& c : detail::enumerate(*state_->instance))
    if (c.physical == state_->physical) return std::move(c.info);
  throw Error(std::string("Device::info: ") + state_->properties.deviceName + " is no longer enumerated");
}

std::string_view DeviceInfo::type_name() const { return detail::type_name(type); }

std::string DeviceInfo::driver_version_text() const {
  const uint32_t v = driver_version;
  // Vendors that do not use VK_MAKE_API_VERSION for driverVersion.
  if (vendor_id == 0x10DE)  // NVIDIA: 10.8.8.6 bits
    return std::to_string(v >> 22) + "." + std::to_string((v >> 14) & 0xff) + "." + std::to_string((v >> 6) & 0xff) +
           "." + std::to_string(v & 0x3f);
#ifdef _WIN32
  if (vendor_id == 0x8086)  // Intel on Windows: 18.14 bits
    return std::to_string(v >> 14) + "." + std::to_string(v & 0x3fff);
#endif
  return detail::version_string(v);
}

std::string DeviceInfo::summary() const {
  std::string driver = driver_name.empty() ? driver_version_text()
                                           : driver_name + (driver_info.empty() ? "" : " " + driver_info);
  return name + " (" + std::string(type_name()) + ", driver " + driver + ", Vulkan " + detail::version_string(api_version) +
         ")";
}

namespace {

template <typename Flag>
std::string flag_names(uint32_t flags, std::initializer_list<std::pair<Flag, const char*>> names) {
  std::string text;
  for (const auto& [bit, name] : names)
    if (flags & uint32_t(bit)) {
      text += (text.empty() ? "" : " ") + std::string(name);
      flags &= ~uint32_t(bit);
    }
  if (flags) {
    char rest[32];
    std::snprintf(rest, sizeof rest, "0x%x", flags);
    text += (text.empty() ? "" : " ") + std::string(rest);
  }
  return text.empty() ? "none" : text;
}

std::string bytes_text(uint64_t bytes) {
  char text[64];
  if (bytes >= (uint64_t(1) << 30))
    std::snprintf(text, sizeof text, "%llu bytes (%.2f GiB)", (unsigned long long)bytes, double(bytes) / double(1 << 30));
  else if (bytes >= (uint64_t(1) << 20))
    std::snprintf(text, sizeof text, "%llu bytes (%.1f MiB)", (unsigned long long)bytes, double(bytes) / double(1 << 20));
  else
    std::snprintf(text, sizeof text, "%llu bytes", (unsigned long long)bytes);
  return text;
}

std::string hex(uint32_t v) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%04x", v);
  return text;
}

}  // namespace

std::string DeviceInfo::describe() const {
  auto triple = [](const std::array<uint32_t, 3>& v) {
    return std::to_string(v[0]) + " x " + std::to_string(v[1]) + " x " + std::to_string(v[2]);
  };
  std::string text = std::to_string(index) + ": " + summary() + (preferred ? " [default]" : "") + "\n";
  if (!unusable.empty()) text += "  unusable: " + unusable + "\n";
  text += "  vendor " + hex(vendor_id) + ", device " + hex(device_id) + ", driver version " + driver_version_text() +
          ", Vulkan " + detail::version_string(api_version) + "\n";
  if (compute_units != 0) text += "  compute units: " + std::to_string(compute_units) + "\n";
  text += "  subgroups: size " + std::to_string(subgroup_size) + "; stages " +
          flag_names<VkShaderStageFlagBits>(subgroup_stages, {{VK_SHADER_STAGE_COMPUTE_BIT, "compute"},
                                                              {VK_SHADER_STAGE_VERTEX_BIT, "vertex"},
                                                              {VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT, "tessellation_control"},
                                                              {VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT, "tessellation_evaluation"},
                                                              {VK_SHADER_STAGE_GEOMETRY_BIT, "geometry"},
                                                              {VK_SHADER_STAGE_FRAGMENT_BIT, "fragment"},
                                                              {VK_SHADER_STAGE_TASK_BIT_EXT, "task"},
                                                              {VK_SHADER_STAGE_MESH_BIT_EXT, "mesh"},
                                                              {VK_SHADER_STAGE_RAYGEN_BIT_KHR, "raygen"},
                                                              {VK_SHADER_STAGE_ANY_HIT_BIT_KHR, "any_hit"},
                                                              {VK_SHADER_STAGE_CLOSEST_HIT_BIT_KHR, "closest_hit"},
                                                              {VK_SHADER_STAGE_MISS_BIT_KHR, "miss"},
                                                              {VK_SHADER_STAGE_INTERSECTION_BIT_KHR, "intersection"},
                                                              {VK_SHADER_STAGE_CALLABLE_BIT_KHR, "callable"}}) +
          "; operations " +
          flag_names<VkSubgroupFeatureFlagBits>(subgroup_operations, {{VK_SUBGROUP_FEATURE_BASIC_BIT, "basic"},
                                                                      {VK_SUBGROUP_FEATURE_VOTE_BIT, "vote"},
                                                                      {VK_SUBGROUP_FEATURE_ARITHMETIC_BIT, "arithmetic"},
                                                                      {VK_SUBGROUP_FEATURE_BALLOT_BIT, "ballot"},
                                                                      {VK_SUBGROUP_FEATURE_SHUFFLE_BIT, "shuffle"},
                                                                      {VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT, "shuffle_relative"},
                                                                      {VK_SUBGROUP_FEATURE_CLUSTERED_BIT, "clustered"},
                                                                      {VK_SUBGROUP_FEATURE_QUAD_BIT, "quad"},
                                                                      {VK_SUBGROUP_FEATURE_PARTITIONED_BIT_NV, "partitioned_nv"},
                                                                      // Vulkan 1.4's rotate bits, by value: Debian 12's headers predate them.
                                                                      {VkSubgroupFeatureFlagBits(0x200), "rotate"},
                                                                      {VkSubgroupFeatureFlagBits(0x400), "rotate_clustered"}}) +
          "\n";
  const SubgroupSizeControl& control = subgroup_size_control;
  text += "  sub-group size control: ";
  if (!control.supported)
    text += "none (neither Vulkan 1.3 nor VK_EXT_subgroup_size_control)\n";
  else
    text += std::string(control.feature ? "" : "no subgroupSizeControl feature; ") + "sizes " +
            std::to_string(control.min_size) + ".." + std::to_string(control.max_size) + " required in stages " +
            flag_names<VkShaderStageFlagBits>(control.required_size_stages, {{VK_SHADER_STAGE_COMPUTE_BIT, "compute"},
                                                                             {VK_SHADER_STAGE_FRAGMENT_BIT, "fragment"},
                                                                             {VK_SHADER_STAGE_VERTEX_BIT, "vertex"}}) +
            "; up to " + std::to_string(control.max_compute_workgroup_subgroups) + " sub-groups per work-group\n";
  text += "  work-groups: size up to " + triple(max_work_group_size) + ", " + std::to_string(max_work_group_invocations) +
          " invocations; count up to " + triple(max_work_group_count) + "\n";
  text += "  shared memory: " + bytes_text(max_shared_memory) + "; push constants: " + bytes_text(max_push_constants) + "\n";
  text += "  buffers: max allocation " + bytes_text(max_allocation_size) + "; max storage buffer range " +
          bytes_text(max_storage_buffer_range) + "; min storage buffer offset alignment " +
          std::to_string(min_storage_buffer_offset_alignment) + "\n";
  char period[32];
  std::snprintf(period, sizeof period, "%g", double(timestamp_period));
  text += "  timestamps: " +
          (timestamp_valid_bits ? std::to_string(timestamp_valid_bits) + " valid bits on the compute queue"
                                : std::string("none on the compute queue")) +
          ", period " + period + " ns" + (timestamp_compute_and_graphics ? ", timestampComputeAndGraphics" : "") + "\n";
  for (size_t h = 0; h < heaps.size(); ++h) {
    text += "  memory heap " + std::to_string(h) + ": " + bytes_text(heaps[h].size) +
            (heaps[h].device_local() ? ", device-local" : ", system") + "; types:";
    for (VkMemoryPropertyFlags t : heaps[h].types)
      text += " [" + flag_names<VkMemoryPropertyFlagBits>(t, {{VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, "device-local"},
                                                              {VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT, "host-visible"},
                                                              {VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, "host-coherent"},
                                                              {VK_MEMORY_PROPERTY_HOST_CACHED_BIT, "host-cached"},
                                                              {VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT, "lazily-allocated"},
                                                              {VK_MEMORY_PROPERTY_PROTECTED_BIT, "protected"}}) +
              "]";
    if (heaps[h].types.empty()) text += " none";
    text += "\n";
  }
  std::string names;
  for (auto name : missing_features(features, ModuleFeatures{})) names += (names.empty() ? "" : " ") + std::string(name);
  text += "  vkcl features: " + (names.empty() ? std::string("none") : names) + "\n";
  return text;
}

std::string SubgroupSizeControl::refusal(uint32_t size) const {
  if (!supported) return "the device cannot require a sub-group size (it has neither Vulkan 1.3 nor VK_EXT_subgroup_size_control)";
  if (!feature) return "the device lacks the subgroupSizeControl feature";
  if (!(required_size_stages & VK_SHADER_STAGE_COMPUTE_BIT))
    return "the device cannot require a sub-group size in compute shaders (requiredSubgroupSizeStages lacks compute)";
  const bool power_of_two = size && (size & (size - 1)) == 0;
  if (!power_of_two || size < min_size || size > max_size)
    return "the device's sub-group sizes are " + std::to_string(min_size) + ".." + std::to_string(max_size) +
           (power_of_two ? "" : ", and Vulkan requires a power of two");
  return {};
}

Device::Device(std::shared_ptr<detail::DeviceState> state) : state_(std::move(state)) {}
Device::Device(Device&&) noexcept = default;
Device& Device::operator=(Device&&) noexcept = default;
Device::~Device() = default;

std::string Device::name() const { return state_->properties.deviceName; }
const VkPhysicalDeviceProperties& Device::properties() const { return state_->properties; }

std::string Device::describe() const { return info().summary(); }

PipelineCacheStatus Device::pipeline_cache_status() const {
  return state_->pipeline_cache ? state_->pipeline_cache->status() : PipelineCacheStatus{};
}

void Device::save_pipeline_cache() {
  if (!state_->pipeline_cache)
    throw Error("Device::save_pipeline_cache: no pipeline cache was asked for (DeviceOptions::pipeline_cache_dir or "
                "VKCL_PIPELINE_CACHE)");
  state_->pipeline_cache->save();
}

const ModuleFeatures& Device::features() const { return state_->features; }
uint32_t Device::max_storage_buffer_arguments() const { return state_->max_bound_buffers; }
DispatchLimits Device::dispatch_limits() const { return state_->dispatch_limits(); }
std::chrono::milliseconds Device::timeout() const { return state_->timeout; }
void Device::set_timeout(std::chrono::milliseconds timeout) { state_->timeout = timeout; }

}  // namespace vkcl

// A Vulkan device chosen the way an OpenCL user expects, ready for compute.
#pragma once

#include <volk.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "reflection.h"
#include "vkcl/ndrange.h"
#include "vkcl/queue.h"

namespace vkcl {

class Kernel;
namespace detail {
struct DeviceState;
}

struct MemoryHeapInfo {
  uint64_t size = 0;
  VkMemoryHeapFlags flags = 0;
  // The property flags of each memory type on this heap, in type order.
  std::vector<VkMemoryPropertyFlags> types;
  bool device_local() const { return flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT; }
};

// What a physical device is and offers, for listing (a runner's
// --list-devices) and for choosing. Limits are the device's own; features
// are what vkcl could enable there, before DeviceOptions::withheld_features.
struct DeviceInfo {
  uint32_t index = 0;     // what VKCL_DEVICE and DeviceOptions::selector take
  bool preferred = false;  // the one Device::create() picks when nothing is selected
  std::string name;
  VkPhysicalDeviceType type = VK_PHYSICAL_DEVICE_TYPE_OTHER;
  uint32_t vendor_id = 0, device_id = 0;
  std::string driver_name, driver_info;  // empty where the device does not say (below 1.2 without VK_KHR_driver_properties)
  uint32_t driver_version = 0;           // as the driver encodes it; driver_version_text() decodes the known schemes
  uint32_t api_version = 0;              // the device's, before vkcl caps it at the instance's
  std::string unusable;                  // why vkcl cannot run on it; empty when it can

  uint32_t subgroup_size = 0;
  VkShaderStageFlags subgroup_stages = 0;
  VkSubgroupFeatureFlags subgroup_operations = 0;

  std::array<uint32_t, 3> max_work_group_size{};
  uint32_t max_work_group_invocations = 0;
  std::array<uint32_t, 3> max_work_group_count{};
  uint32_t max_shared_memory = 0;       // maxComputeSharedMemorySize, bytes
  uint32_t max_push_constants = 0;      // maxPushConstantsSize, bytes
  uint64_t max_allocation_size = 0;     // maxMemoryAllocationSize, bytes: the largest Buffer
  uint32_t max_storage_buffer_range = 0;
  uint32_t min_storage_buffer_offset_alignment = 0;
  float timestamp_period = 0;           // nanoseconds per timestamp tick
  bool timestamp_compute_and_graphics = false;
  uint32_t timestamp_valid_bits = 0;    // of the compute queue family vkcl uses; 0: no timestamps
  std::vector<MemoryHeapInfo> heaps;
  ModuleFeatures features;

  // "discrete GPU", "integrated GPU", "virtual GPU", "CPU", "other".
  std::string_view type_name() const;
  std::string driver_version_text() const;
  // One line: name, type, driver, Vulkan version (what Device::describe() says).
  std::string summary() const;
  // Several lines, starting with "<index>: <summary>", every field above in words.
  std::string describe() const;
};

struct DeviceOptions {
  // An index into the physical-device list, or a case-insensitive substring
  // of a device name. Empty: the VKCL_DEVICE environment variable, and when
  // that is empty too, the first discrete GPU, then integrated, virtual, any
  // other GPU, then a CPU device (lavapipe).
  std::string selector;
  // Unset: on when VKCL_VALIDATION=1. Validation errors reported by the
  // Khronos layer become an Error at the next call that checks (module load,
  // pipeline build, run).
  std::optional<bool> validation;
  // Features the runtime treats as absent even where the device has them:
  // modules that need them are refused, and build_program compiles without
  // them (e.g. withholding vulkan_memory_model selects GLSL450). For testing
  // the paths of lesser devices, and for working around a driver's bug.
  ModuleFeatures withheld_features;
  // How long run() waits for a submission before giving up with an Error.
  std::chrono::milliseconds timeout{60'000};
};

class Device {
 public:
  static Device create();
  static Device create(std::string_view selector);
  static Device create(const DeviceOptions& options);
  // describe() of every physical device, in the order VKCL_DEVICE indexes them.
  static std::vector<std::string> available();
  // Every physical device, in that order, with what it offers; usable or not.
  static std::vector<DeviceInfo> list();

  Device(Device&&) noexcept;
  Device& operator=(Device&&) noexcept;
  ~Device();

  std::string name() const;
  const VkPhysicalDeviceProperties& properties() const;
  // One line: name, type, driver, Vulkan version.
  std::string describe() const;
  // This device's entry of list().
  DeviceInfo info() const;
  // The module features this device has and the runtime enabled.
  const ModuleFeatures& features() const;
  // The compute limits plan_dispatch() checks NDRanges against.
  DispatchLimits dispatch_limits() const;

  std::chrono::milliseconds timeout() const;
  void set_timeout(std::chrono::milliseconds timeout);

  // Runs `kernel` over `range` and waits for it: a CommandList of one kernel,
  // submitted and waited for. Throws Error for unset or stale arguments,
  // ranges and sizes the device cannot run, a timeout, or a lost device. Not
  // thread-safe: one thread per Device.
  void run(const Kernel& kernel, const NDRange& range);

  // Submits every command of `commands` in one command buffer, after
  // everything submitted before (the Device is one in-order queue), and
  // returns at once. Throws Error for a list of another Device, a lost device,
  // or timestamps asked of a device that cannot write them.
  Event submit(const CommandList& commands, const SubmitOptions& options = {});
  // Whether the compute queue can write timestamps (its queue family's
  // timestampValidBits is nonzero).
  bool has_timestamps() const;

 private:
  explicit Device(std::shared_ptr<detail::DeviceState> state);
  std::shared_ptr<detail::DeviceState> state_;
  friend class Buffer;
  friend class CommandList;
  friend class Program;
};

}  // namespace vkcl

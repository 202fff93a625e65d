// A Vulkan device chosen the way an OpenCL user expects, ready for compute.
#pragma once

#include <volk.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <filesystem>
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

// VK_EXT_subgroup_size_control (core in Vulkan 1.3): the sub-group sizes a
// kernel's intel_reqd_sub_group_size may ask for, which the runtime requires
// at pipeline creation (VkPipelineShaderStageRequiredSubgroupSizeCreateInfo).
struct SubgroupSizeControl {
  bool supported = false;  // Vulkan 1.3, or the extension
  bool feature = false;    // subgroupSizeControl (enabled when supported)
  uint32_t min_size = 0, max_size = 0;          // minSubgroupSize, maxSubgroupSize
  uint32_t max_compute_workgroup_subgroups = 0;  // maxComputeWorkgroupSubgroups
  VkShaderStageFlags required_size_stages = 0;   // requiredSubgroupSizeStages

  // Why a compute kernel cannot require sub-group size `size` here ("the
  // device's sub-group sizes are 32..32", ...); empty when it can.
  std::string refusal(uint32_t size) const;
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
  uint32_t compute_units = 0;  // multiprocessors where an extension tells them, else 0
  VkShaderStageFlags subgroup_stages = 0;
  VkSubgroupFeatureFlags subgroup_operations = 0;
  SubgroupSizeControl subgroup_size_control;

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
  // After such a timeout the work goes on running and the Device stays
  // usable: new work is accepted and queues behind it (one in-order queue),
  // so it finishes once the earlier work does, and a wait on it that times
  // out says it is queued behind the earlier work that timed out. When the
  // last handle of a Device goes, it waits for work still running at most
  // this long again; work still running then is left to run and the
  // VkDevice, with everything that work uses, is leaked (destroying objects
  // in use is undefined behaviour) rather than the caller hanging.
  std::chrono::milliseconds timeout{60'000};
  // Unset: on when VKCL_PIPELINE_STATISTICS=1. Where the device has
  // VK_KHR_pipeline_executable_properties, every pipeline is built with its
  // driver's statistics captured (register count, shared memory, ...), which
  // Program::pipeline_statistics returns: for finding why one module runs
  // slower than another. Elsewhere the option does nothing.
  std::optional<bool> pipeline_statistics;
  // A directory for the on-disk pipeline cache, created if missing. Empty:
  // the VKCL_PIPELINE_CACHE environment variable, and when that is empty
  // too, no cache on disk. Pipelines compiled by one run are then loaded by
  // the next instead of compiled again, on the same device and driver only
  // (see Device::pipeline_cache_status).
  std::filesystem::path pipeline_cache_dir;
};

// What the on-disk pipeline cache did for a Device.
struct PipelineCacheStatus {
  bool enabled = false;
  // <dir>/vkcl-<vendorID>-<deviceID>-<driverVersion>-<pipelineCacheUUID>.pipeline-cache
  std::filesystem::path file;
  // Bytes of Vulkan cache data read from the file and given to the driver
  // when the Device was created; 0 when there was none to give.
  size_t loaded_bytes = 0;
  // Why an existing file was not loaded (unreadable, corrupt, written for
  // another device or driver); empty when it was loaded or did not exist.
  std::string ignored;
  uint32_t pipelines_created = 0;  // vkCreateComputePipelines calls through the cache
  // Of those, how many the driver reported as found in the cache (pipeline
  // creation feedback, Vulkan 1.3 devices only). lavapipe never reports one:
  // its cache data is a header only.
  uint32_t cache_hits = 0;
  size_t saved_bytes = 0;  // Vulkan cache data in the file at the last save
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
  // Keeps the Vulkan instance that Devices created with default options
  // share, and so the drivers the loader opened for it, alive while the
  // returned value lives. Without a holder the last Device's destruction
  // unloads them. A library that stays loaded until exit (the OpenCL ICD)
  // holds it forever: Mesa's drivers register exit handlers (the shader
  // cache's thread queue) that point into the driver, and crash once the
  // loader has unloaded it; NVIDIA's does not give everything back when an
  // instance goes, and runs out after a few dozen. It also spares a reload
  // per context.
  static std::shared_ptr<const void> keep_instance();

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
  // How many storage buffers one kernel may bind: the least of
  // maxPushDescriptors and maxPerStageDescriptorStorageBuffers; 0 without
  // VK_KHR_push_descriptor.
  uint32_t max_storage_buffer_arguments() const;
  // The compute limits plan_dispatch() checks NDRanges against.
  DispatchLimits dispatch_limits() const;

  std::chrono::milliseconds timeout() const;
  void set_timeout(std::chrono::milliseconds timeout);

  // The on-disk pipeline cache (DeviceOptions::pipeline_cache_dir): what it
  // loaded, ignored and saved. enabled is false when none was asked for.
  PipelineCacheStatus pipeline_cache_status() const;
  // Writes the cache file now (the Device also writes it when destroyed, if
  // new pipelines were made). Throws Error when no cache was asked for or the
  // file cannot be written.
  void save_pipeline_cache();

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

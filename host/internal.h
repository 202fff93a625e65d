// State behind the public handles. Handles share it through shared_ptr so that
// Vulkan objects die in dependency order whatever order the user drops them in.
#pragma once

#include <volk.h>

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "reflection.h"
#include "vkcl/buffer.h"
#include "vkcl/device.h"
#include "vkcl/error.h"
#include "vkcl/ndrange.h"
#include "vkcl/program.h"

namespace vkcl::detail {

// Throws Error("<call> failed: <result>") unless result is VK_SUCCESS.
void check(VkResult result, std::string_view call);

// One VkInstance per process (per validation setting), shared by every
// Device: volk keeps instance functions in globals, so several live instances
// would fight over them.
struct InstanceState {
  VkInstance instance = VK_NULL_HANDLE;
  uint32_t api_version = 0;
  bool validation = false;
  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
  // This instance's own: volk's global holds the last-loaded instance's, and
  // the loader gives an instance without VK_EXT_debug_utils a null one.
  PFN_vkDestroyDebugUtilsMessengerEXT destroy_messenger = nullptr;
  std::mutex messages_mutex;
  std::vector<std::string> validation_errors;

  static std::shared_ptr<InstanceState> get(bool validation);
  ~InstanceState();
};

// Host-visible memory with a device address that holds the arguments of the
// kernels of one submission whose arguments did not fit in push constants
// (reflection's argument_buffer). Kept with the submission's command buffer
// and fence, which is to say until its fence signals, then spare for the next.
struct ArgumentBuffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  std::byte* mapped = nullptr;  // host-coherent, mapped for its life
  VkDeviceAddress address = 0;
  VkDeviceSize size = 0;
};

// A host-visible buffer through which Buffer::read and write reach
// device-local memory (buffer.cpp, staged_transfer). Kept spare between
// transfers: on NVIDIA's driver allocating and freeing pinned host memory for
// every transfer took most of the CPU time of small reads and writes.
struct StagingBuffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  std::byte* mapped = nullptr;  // mapped for its life
  VkDeviceSize size = 0;
};

// Takes out of `spares` the smallest one of at least `bytes` (argument and
// staging buffers: a few sizes, each reused by every later need it fits).
template <typename Spare>
std::optional<Spare> take_smallest_fitting(std::vector<Spare>& spares, VkDeviceSize bytes) {
  auto best = spares.end();
  for (auto it = spares.begin(); it != spares.end(); ++it)
    if (it->size >= bytes && (best == spares.end() || it->size < best->size)) best = it;
  if (best == spares.end()) return std::nullopt;
  Spare taken = *best;
  spares.erase(best);
  return taken;
}

// A submission nobody waits for any more (its wait timed out, or its Event
// was dropped) that had not finished then. Only its command buffer and fence
// are kept: the programs, buffers and query pools it uses are released by
// their owners, and DeviceState::retire holds back their Vulkan objects until
// every pending submission has finished. Nothing here holds the DeviceState,
// so dropping the last handle always reaches ~DeviceState.
struct PendingSubmission {
  VkCommandBuffer command_buffer = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
  ArgumentBuffer arguments;  // none (null handles) unless a kernel had an argument buffer
};

// A submission whose wait gave up (VK_TIMEOUT) and that had not finished when
// last looked at: named in the errors of later waits, which queue behind it.
struct TimedOutSubmission {
  VkFence fence = VK_NULL_HANDLE;
  std::string what;  // "kernel 'spin'", "Buffer::fill"
};

class PipelineCache;

struct DeviceState {
  std::shared_ptr<InstanceState> instance;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties properties{};
  VkPhysicalDeviceMemoryProperties memory{};
  VkDeviceSize max_allocation_size = 0;
  uint32_t api_version = 0;  // min(device, instance): what may be used
  bool spirv_1_4 = false;    // VK_KHR_spirv_1_4 enabled (only matters below 1.2)
  std::string driver;        // "llvmpipe Mesa 22.3.6 ..." where the device says
  ModuleFeatures features;
  SubgroupSizeControl subgroup_size_control;  // subgroupSizeControl enabled where `feature`
  uint32_t subgroup_size = 0;
  uint32_t compute_units = 0;  // FeatureSet::compute_units
  bool pipeline_statistics = false;  // VK_KHR_pipeline_executable_properties enabled and asked for
  // The most storage buffers one kernel can bind: maxPushDescriptors and
  // maxPerStageDescriptorStorageBuffers (0 without VK_KHR_push_descriptor).
  uint32_t max_bound_buffers = 0;

  VkDevice device = VK_NULL_HANDLE;
  // Per-device table rather than volk's globals: two Devices on different
  // drivers would otherwise call each other's functions.
  VolkDeviceTable vk{};
  uint32_t queue_family = 0;
  VkQueue queue = VK_NULL_HANDLE;
  VkCommandPool command_pool = VK_NULL_HANDLE;
  std::chrono::milliseconds timeout{60'000};
  bool lost = false;
  std::vector<PendingSubmission> pending;
  // Destruction of Vulkan objects that pending submissions may still use,
  // done once none is pending (reap_pending) or by ~DeviceState.
  std::vector<std::function<void()>> retired;
  std::vector<TimedOutSubmission> timed_out;
  // Command buffers and fences of finished submissions, reset, for the next
  // ones: allocating them anew for every submission costs some drivers
  // (NVIDIA's) hundreds of microseconds per Device::run.
  std::vector<VkCommandBuffer> spare_command_buffers;
  std::vector<VkFence> spare_fences;
  std::vector<ArgumentBuffer> spare_argument_buffers;
  std::vector<StagingBuffer> spare_staging_buffers;  // buffer.cpp: StagingLease
  // The on-disk pipeline cache, when asked for; destroyed (and saved) before the VkDevice.
  std::unique_ptr<PipelineCache> pipeline_cache;

  DispatchLimits dispatch_limits() const;
  // Throws an Error that lists what the validation layer reported, if anything.
  void check_validation(std::string_view during);
  // Throws when a previous call lost the device.
  void check_usable() const;
  // Runs `destroy` (which destroys Vulkan objects of this device) now when no
  // submission is pending, else once none is: destroying an object that
  // running work uses is undefined behaviour.
  void retire(std::function<void()> destroy);
  // A command buffer (in the initial state) and an unsignalled fence for one
  // submission, reused where a finished submission left some.
  void take_submission_objects(VkCommandBuffer& command_buffer, VkFence& fence);
  // An argument buffer of at least `bytes` for one submission, reused where a
  // finished submission left one big enough.
  ArgumentBuffer take_argument_buffer(VkDeviceSize bytes);
  // Takes back the command buffer, fence and argument buffer of a submission
  // that has finished or was never submitted (any may be VK_NULL_HANDLE).
  void recycle_submission_objects(VkCommandBuffer command_buffer, VkFence fence, ArgumentBuffer arguments = {});
  void destroy(const ArgumentBuffer& arguments);
  void destroy(const StagingBuffer& staging);
  // Records that a wait for the submission with `fence` timed out.
  void note_timeout(VkFence fence, std::string what);
  // Forgets `fence`, which is about to be destroyed or has signalled.
  void forget_timeout(VkFence fence);
  // The submissions other than `except` whose waits timed out and that still
  // have not finished ("kernel 'spin'"), forgetting those that have.
  std::vector<std::string> still_running_after_timeout(VkFence except);
  // Waits for pending submissions at most `timeout`, then destroys
  // everything; when some still run, destroys nothing and leaks the VkDevice,
  // what the pending work uses and the instance (see the definition).
  ~DeviceState();
};

// An allocation (root == nullptr: it owns buffer and memory) or a view of
// one (root holds the allocation alive; buffer is the root's, not owned).
struct BufferState {
  std::shared_ptr<DeviceState> device;
  std::shared_ptr<BufferState> root;
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  std::byte* mapped = nullptr;  // at `offset`; null unless host-visible
  size_t offset = 0;            // into `buffer`
  size_t size = 0;
  VkDeviceAddress address = 0;  // of byte `offset`
  Memory kind = Memory::HostVisible;
  uint32_t heap = 0;

  // The allocation itself: what a kernel argument or a submission keeps alive.
  std::shared_ptr<BufferState> allocation(const std::shared_ptr<BufferState>& self) const { return root ? root : self; }
  ~BufferState();
};

struct ProgramState {
  std::shared_ptr<DeviceState> device;
  ModuleReflection reflection;
  std::vector<VkShaderModule> modules;  // by kernel index, each with that kernel alone (one_kernel_module.h)
  std::map<uint32_t, VkPipelineLayout> layouts;                // by kernel index
  std::vector<VkDescriptorSetLayout> set_layouts;               // those the layouts use
  std::map<std::vector<uint32_t>, VkPipeline> pipelines;        // by pipeline_key()
  std::vector<std::string> statistics;  // one line per pipeline, where the device captures them
  // The same program with every pointer passed by address, for arguments a
  // storage buffer cannot bind (Program's constructor with `by_address`):
  // empty where there is none; built on first need.
  std::function<Program::Module()> by_address_module;
  std::shared_ptr<ProgramState> by_address;
  ProgramState& by_address_state();
  std::optional<uint32_t> find_kernel(std::string_view name) const;

  // Rounded up to 4: VkPushConstantRange sizes must be multiples of 4.
  static uint32_t push_range_size(const KernelReflection& kernel) { return (kernel.push_constant_size + 3) & ~3u; }
  VkPipelineLayout layout(uint32_t kernel_index);
  VkDescriptorSetLayout storage_buffer_set_layout(uint32_t kernel_index);  // null without bound arguments
  // Throws an Error when the kernel has intel_reqd_sub_group_size and the
  // device cannot require that size in compute shaders.
  void check_required_sub_group_size(uint32_t kernel_index) const;
  // spec_ids_and_lengths: each __local argument's specialization id and
  // element count; offsets_in_kernel: DispatchPlan's (without it, the
  // pipeline allows vkCmdDispatchBase).
  VkPipeline pipeline(uint32_t kernel_index, const std::array<uint32_t, 3>& local_size,
                      const std::vector<std::pair<uint32_t, uint32_t>>& spec_ids_and_lengths, bool offsets_in_kernel);
  ~ProgramState();
};

std::shared_ptr<ProgramState> create_program_state(const std::shared_ptr<DeviceState>& device,
                                                   std::span<const uint32_t> words, ModuleReflection reflection);

}  // namespace vkcl::detail

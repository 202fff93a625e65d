// The one place where vkcl records Vulkan commands: enqueued kernels become
// one command buffer with the barriers of an in-order queue between them, one
// vkQueueSubmit and one fence; a SubmissionState owns all of it until the GPU
// is done. Device::submit and Device::run (host/queue.cpp) both come here.
#pragma once

#include <volk.h>

#include <array>
#include <chrono>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "internal.h"
#include "vkcl/ndrange.h"
#include "vkcl/queue.h"

namespace vkcl::detail {

// A kernel as CommandList::enqueue fixed it: every value the recording needs,
// already checked against the device's limits, so recording cannot fail on
// the caller's account.
struct EnqueuedKernel {
  std::shared_ptr<ProgramState> program;  // owns the layout and the pipelines
  std::string name;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  std::vector<Dispatch> dispatches;  // empty for a global size of 0
  std::vector<VkPipeline> pipelines;  // one per dispatch
  // Argument values and ND-range fields; each dispatch writes its own
  // group_offset and global_id_base there, where the kernel reads them.
  std::vector<std::byte> push_constants;
  std::optional<uint32_t> group_offset_at, global_id_base_at;
  // A kernel with an argument buffer: its argument values, which the
  // submission copies into its ArgumentBuffer, and where in the push
  // constants that copy's device address goes. Otherwise empty and nullopt
  // (the arguments are in push_constants).
  std::vector<std::byte> arguments;
  std::optional<uint32_t> argument_buffer_at;
  std::vector<std::shared_ptr<BufferState>> buffers;  // kept alive until the submission ends
  // The storage-buffer arguments, pushed before the first dispatch.
  std::vector<VkDescriptorBufferInfo> storage_buffers;
  std::vector<uint32_t> storage_buffer_bindings;  // one per storage_buffers entry
};

// A copy between buffers (CommandList::copy); the allocations stay alive
// until the submission ends.
struct EnqueuedCopy {
  std::shared_ptr<BufferState> from, to;
  VkBufferCopy region{};
};

// Writes an ND-range field (x, y, z, 0) into a kernel's push-constant bytes
// at `at`, when the kernel reads it.
inline void put_ndrange_field(std::vector<std::byte>& push, std::optional<uint32_t> at,
                              const std::array<uint32_t, 3>& value) {
  const uint32_t v[4] = {value[0], value[1], value[2], 0};
  if (at) std::memcpy(push.data() + *at, v, sizeof v);
}

// Its query pool goes with the last owner (the submission), retired
// (DeviceState::retire) while the submission may still write it.
struct TimestampPool {
  std::shared_ptr<DeviceState> device;
  VkQueryPool pool = VK_NULL_HANDLE;
  uint32_t count = 0;
  ~TimestampPool();
};

struct SubmissionState {
  std::shared_ptr<DeviceState> device;
  VkCommandBuffer command_buffer = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
  // The arguments of its kernels that have an argument buffer, each at a
  // multiple of kArgumentBufferAlignment; goes with the command buffer and
  // fence (to DeviceState::pending while running, then spare).
  ArgumentBuffer arguments;
  std::shared_ptr<TimestampPool> timestamps;  // null unless asked for
  std::vector<std::string> kernel_names;      // in enqueue order
  std::vector<std::shared_ptr<void>> keep_alive;  // programs and buffers the commands use
  bool submitted = false;
  bool finished = false;  // the fence signalled and wait() checked validation
  std::optional<std::vector<KernelTime>> times;  // read once

  // "kernel 'a'", "kernels 'a', 'b'", "a submission with no kernels".
  std::string describe() const;
  bool poll();
  void wait();
  const std::vector<KernelTime>& kernel_times();
  // Frees the command buffer and fence once the fence has signalled; a
  // submission still running is handed to DeviceState::pending, and what it
  // uses is retired (DeviceState::retire) rather than destroyed, since
  // destroying those now would be undefined behaviour.
  ~SubmissionState();
};

// Empty when the device's compute queue can write timestamps, else why not.
std::optional<std::string> timestamps_unavailable(const DeviceState& device);

// Records `commands` in order into one command buffer and submits it.
// Throws Error before anything is submitted when a Vulkan call fails or
// timestamps are asked of a device that cannot write them.
std::shared_ptr<SubmissionState> submit(const std::shared_ptr<DeviceState>& device,
                                        std::span<const EnqueuedCommand> commands, bool timestamps);

// Frees submissions left running (timed out, or their Event dropped) that
// have finished since, and once none is left, the objects retired meanwhile.
void reap_pending(DeviceState& device);

// For the message of a wait that timed out on the submission with `self`:
// "; it is queued behind kernel 'spin', whose wait timed out earlier and which
// has not finished yet (...)", or empty when no such earlier work still runs.
std::string behind_earlier_timeouts(DeviceState& device, VkFence self);

}  // namespace vkcl::detail

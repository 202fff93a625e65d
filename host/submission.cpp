#include "submission.h"

#include <chrono>
#include <cstring>
#include <thread>

namespace vkcl::detail {
namespace {

// How long Event::wait polls the fence before it blocks on it.
constexpr auto kPollBeforeBlocking = std::chrono::microseconds(200);

// Every memory barrier vkcl records is global (VkMemoryBarrier): OpenCL
// kernels reach buffers through device addresses, so no command knows which
// buffer ranges another one touched.
void memory_barrier(const VolkDeviceTable& vk, VkCommandBuffer cb, VkPipelineStageFlags src_stage, VkAccessFlags src,
                    VkPipelineStageFlags dst_stage, VkAccessFlags dst) {
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, src, dst};
  vk.vkCmdPipelineBarrier(cb, src_stage, dst_stage, 0, 1, &barrier, 0, nullptr, 0, nullptr);
}

// The split dispatches of one ND-range. Its work-groups are unordered in
// OpenCL, so no barriers go between them.
// `arguments`: the device address of the kernel's copy of its arguments,
// when it has an argument buffer.
void record_dispatches(const VolkDeviceTable& vk, VkCommandBuffer cb, const EnqueuedKernel& kernel,
                       VkDeviceAddress arguments) {
  std::vector<std::byte> push = kernel.push_constants;
  if (kernel.argument_buffer_at) std::memcpy(push.data() + *kernel.argument_buffer_at, &arguments, sizeof arguments);
  if (!kernel.storage_buffers.empty() && !kernel.dispatches.empty()) {
    std::vector<VkWriteDescriptorSet> writes;
    for (size_t b = 0; b < kernel.storage_buffers.size(); ++b) {
      VkWriteDescriptorSet& w = writes.emplace_back(VkWriteDescriptorSet{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET});
      w.dstBinding = kernel.storage_buffer_bindings[b];
      w.descriptorCount = 1;
      w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      w.pBufferInfo = &kernel.storage_buffers[b];
    }
    vk.vkCmdPushDescriptorSetKHR(cb, VK_PIPELINE_BIND_POINT_COMPUTE, kernel.layout, 0,
                                 static_cast<uint32_t>(writes.size()), writes.data());
  }
  VkPipeline bound = VK_NULL_HANDLE;
  for (size_t i = 0; i < kernel.dispatches.size(); ++i) {
    const Dispatch& d = kernel.dispatches[i];
    if (kernel.pipelines[i] != bound) vk.vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, bound = kernel.pipelines[i]);
    put_ndrange_field(push, kernel.group_offset_at, d.group_offset);
    put_ndrange_field(push, kernel.global_id_base_at, d.global_id_base);
    if (!push.empty())
      vk.vkCmdPushConstants(cb, kernel.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, static_cast<uint32_t>(push.size()),
                            push.data());
    if (d.base_group == std::array<uint32_t, 3>{0, 0, 0})
      vk.vkCmdDispatch(cb, d.group_count[0], d.group_count[1], d.group_count[2]);
    else
      vk.vkCmdDispatchBase(cb, d.base_group[0], d.base_group[1], d.base_group[2], d.group_count[0], d.group_count[1],
                           d.group_count[2]);
  }
}

uint32_t timestamp_valid_bits(const DeviceState& dev) {
  uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(dev.physical, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(dev.physical, &count, families.data());
  return dev.queue_family < count ? families[dev.queue_family].timestampValidBits : 0;
}

std::string quoted_list(const std::vector<std::string>& names) {
  // A long chain would make an unreadable message; the first few say enough.
  constexpr size_t kShown = 4;
  std::string list;
  for (size_t i = 0; i < names.size() && i < kShown; ++i) list += (i ? ", '" : "'") + names[i] + "'";
  if (names.size() > kShown) list += " and " + std::to_string(names.size() - kShown) + " more";
  return list;
}

}  // namespace

TimestampPool::~TimestampPool() {
  if (!pool) return;
  DeviceState& dev = *device;
  dev.retire([&dev, pool = pool] { dev.vk.vkDestroyQueryPool(dev.device, pool, nullptr); });
}

std::string behind_earlier_timeouts(DeviceState& dev, VkFence self) {
  const std::vector<std::string> earlier = dev.still_running_after_timeout(self);
  if (earlier.empty()) return {};
  std::string names;
  for (size_t i = 0; i < earlier.size(); ++i) names += (i ? ", " : "") + earlier[i];
  return "; it is queued behind " + names + ", whose wait timed out earlier and which " +
         (earlier.size() == 1 ? "has" : "have") +
         " not finished yet (the queue runs in order: nothing submitted after work that never ends can finish)";
}

std::string SubmissionState::describe() const {
  if (kernel_names.empty()) return "a submission with no kernels";
  return (kernel_names.size() == 1 ? "kernel " : "kernels ") + quoted_list(kernel_names);
}

bool SubmissionState::poll() {
  if (finished) return true;
  DeviceState& dev = *device;
  VkResult result = dev.vk.vkGetFenceStatus(dev.device, fence);
  if (result == VK_NOT_READY) return false;
  dev.forget_timeout(fence);
  if (result == VK_ERROR_DEVICE_LOST) {
    dev.lost = true;
    throw Error("the device was lost while " + describe() + " ran (vkGetFenceStatus returned VK_ERROR_DEVICE_LOST)",
                VK_ERROR_DEVICE_LOST);
  }
  check(result, "vkGetFenceStatus (" + describe() + ")");
  return true;
}

void SubmissionState::wait() {
  if (finished) return;
  DeviceState& dev = *device;
  dev.check_usable();
  const auto timeout_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(dev.timeout).count();
  // Poll before blocking: a short dispatch is done long before a blocking
  // wait's sleep and wake-up return (vkWaitForFences took about 40 us more
  // than the work on NVIDIA's driver 580, whose OpenCL clFinish spins and
  // takes 9 us in all). Yielding keeps a CPU device's own threads running.
  const auto spin_until = std::chrono::steady_clock::now() + kPollBeforeBlocking;
  VkResult result = dev.vk.vkGetFenceStatus(dev.device, fence);
  while (result == VK_NOT_READY && std::chrono::steady_clock::now() < spin_until) {
    std::this_thread::yield();
    result = dev.vk.vkGetFenceStatus(dev.device, fence);
  }
  if (result == VK_NOT_READY)
    result = dev.vk.vkWaitForFences(dev.device, 1, &fence, VK_TRUE, static_cast<uint64_t>(timeout_ns));
  if (result == VK_TIMEOUT) {
    dev.note_timeout(fence, describe());
    throw Error(describe() + " did not finish within " + std::to_string(dev.timeout.count()) +
                    " ms (vkWaitForFences returned VK_TIMEOUT); it may never end" + behind_earlier_timeouts(dev, fence),
                VK_TIMEOUT);
  }
  dev.forget_timeout(fence);
  if (result == VK_ERROR_DEVICE_LOST) {
    dev.lost = true;
    throw Error("the device was lost while " + describe() + " ran (vkWaitForFences returned VK_ERROR_DEVICE_LOST)",
                VK_ERROR_DEVICE_LOST);
  }
  check(result, "vkWaitForFences (" + describe() + ")");
  finished = true;
  // Free submissions left running earlier, and the objects retired while
  // they ran, now that they may be done, rather than at the next submit.
  reap_pending(dev);
  dev.check_validation("the run of " + describe());
}

const std::vector<KernelTime>& SubmissionState::kernel_times() {
  wait();
  if (times) return *times;
  if (!timestamps)
    throw Error("Event::kernel_times: " + describe() + " was submitted without timestamps (SubmitOptions::timestamps)");
  DeviceState& dev = *device;
  std::vector<uint64_t> ticks(timestamps->count);
  check(dev.vk.vkGetQueryPoolResults(dev.device, timestamps->pool, 0, timestamps->count, ticks.size() * sizeof(uint64_t),
                                     ticks.data(), sizeof(uint64_t), VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
        "vkGetQueryPoolResults");
  // Counters narrower than 64 bits wrap; differences modulo their width are right.
  const uint32_t bits = timestamp_valid_bits(dev);
  const uint64_t mask = bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  const double period = dev.properties.limits.timestampPeriod;  // nanoseconds per tick
  auto since_first = [&](uint64_t tick) {
    return std::chrono::nanoseconds(static_cast<int64_t>(static_cast<double>((tick - ticks[0]) & mask) * period));
  };
  std::vector<KernelTime> result;
  for (size_t i = 0; i < kernel_names.size(); ++i)
    result.push_back({kernel_names[i], since_first(ticks[2 * i]), since_first(ticks[2 * i + 1])});
  times = std::move(result);
  return *times;
}

SubmissionState::~SubmissionState() {
  if (!device) return;
  DeviceState& dev = *device;
  if (submitted && !finished && dev.vk.vkGetFenceStatus(dev.device, fence) == VK_NOT_READY) {
    // Pending before the members go: the programs, buffers and query pool in
    // keep_alive and timestamps are then retired until the fence signals.
    dev.pending.push_back({command_buffer, fence, arguments});
    return;
  }
  dev.recycle_submission_objects(command_buffer, fence, arguments);
}

std::optional<std::string> timestamps_unavailable(const DeviceState& dev) {
  if (timestamp_valid_bits(dev) == 0)
    return std::string(dev.properties.deviceName) + " cannot write timestamps on its compute queue (queue family " +
           std::to_string(dev.queue_family) + " has timestampValidBits = 0; timestampComputeAndGraphics = " +
           (dev.properties.limits.timestampComputeAndGraphics ? "VK_TRUE" : "VK_FALSE") + ")";
  if (!(dev.properties.limits.timestampPeriod > 0))
    return std::string(dev.properties.deviceName) + " reports timestampPeriod = " +
           std::to_string(dev.properties.limits.timestampPeriod) + ", so its timestamps cannot be turned into time";
  return std::nullopt;
}

void reap_pending(DeviceState& dev) {
  std::erase_if(dev.pending, [&](const PendingSubmission& p) {
    // Finished, or the device is lost and runs nothing more.
    const VkResult status = dev.vk.vkGetFenceStatus(dev.device, p.fence);
    if (status == VK_NOT_READY) return false;
    if (status == VK_ERROR_DEVICE_LOST) dev.lost = true;
    dev.recycle_submission_objects(p.command_buffer, p.fence, p.arguments);
    return true;
  });
  if (!dev.pending.empty()) return;
  // Moved out first: a destruction may retire more (it does not today).
  auto retired = std::move(dev.retired);
  dev.retired.clear();
  for (auto& destroy : retired) destroy();
}

std::shared_ptr<SubmissionState> submit(const std::shared_ptr<DeviceState>& device,
                                        std::span<const EnqueuedCommand> commands, bool timestamps) {
  std::vector<std::shared_ptr<const EnqueuedKernel>> kernels;
  for (const EnqueuedCommand& command : commands)
    if (command.kernel) kernels.push_back(command.kernel);
  DeviceState& dev = *device;
  dev.check_usable();
  if (timestamps)
    if (auto why = timestamps_unavailable(dev)) throw Error("timestamps were asked for, but " + *why);
  reap_pending(dev);

  auto state = std::make_shared<SubmissionState>();
  state->device = device;
  for (const auto& kernel : kernels) {
    state->kernel_names.push_back(kernel->name);
    state->keep_alive.push_back(kernel->program);
    state->keep_alive.insert(state->keep_alive.end(), kernel->buffers.begin(), kernel->buffers.end());
  }
  for (const EnqueuedCommand& command : commands)
    if (command.copy) state->keep_alive.insert(state->keep_alive.end(), {command.copy->from, command.copy->to});

  const VolkDeviceTable& vk = dev.vk;
  dev.take_submission_objects(state->command_buffer, state->fence);
  // Arguments that did not fit in push constants: each kernel's copy in this
  // submission's argument buffer, which lives until the fence signals, so a
  // later set_arg or submit never changes what this one reads.
  auto padded = [](VkDeviceSize size) {
    return (size + kArgumentBufferAlignment - 1) / kArgumentBufferAlignment * kArgumentBufferAlignment;
  };
  std::vector<VkDeviceSize> argument_offsets(kernels.size(), 0);
  VkDeviceSize argument_bytes = 0;
  for (size_t i = 0; i < kernels.size(); ++i)
    if (kernels[i]->argument_buffer_at) {
      argument_offsets[i] = argument_bytes;
      argument_bytes += padded(kernels[i]->arguments.size());
    }
  std::vector<VkDeviceAddress> argument_addresses(kernels.size(), 0);
  if (argument_bytes) {
    state->arguments = dev.take_argument_buffer(argument_bytes);
    for (size_t i = 0; i < kernels.size(); ++i) {
      if (!kernels[i]->argument_buffer_at) continue;
      const std::vector<std::byte>& bytes = kernels[i]->arguments;
      std::memcpy(state->arguments.mapped + argument_offsets[i], bytes.data(), bytes.size());
      argument_addresses[i] = state->arguments.address + argument_offsets[i];
    }
  }
  if (timestamps && !kernels.empty()) {
    auto pool = std::make_shared<TimestampPool>();
    pool->device = device;
    pool->count = static_cast<uint32_t>(2 * kernels.size());
    VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    info.queryType = VK_QUERY_TYPE_TIMESTAMP;
    info.queryCount = pool->count;
    check(vk.vkCreateQueryPool(dev.device, &info, nullptr, &pool->pool), "vkCreateQueryPool");
    state->timestamps = std::move(pool);
  } else if (timestamps) {
    state->times.emplace();  // nothing to time: kernel_times() is empty
    state->timestamps = std::make_shared<TimestampPool>();
    state->timestamps->device = device;
  }

  VkCommandBuffer cb = state->command_buffer;
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  check(vk.vkBeginCommandBuffer(cb, &begin), "vkBeginCommandBuffer");
  VkQueryPool pool = state->timestamps ? state->timestamps->pool : VK_NULL_HANDLE;
  if (pool) vk.vkCmdResetQueryPool(cb, pool, 0, state->timestamps->count);

  constexpr VkPipelineStageFlags kCompute = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
  constexpr VkAccessFlags kShaderAccess = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  // Earlier submissions' writes (kernels, and transfers such as staging
  // copies) must be visible here: waiting on their fence orders execution
  // but does not make device writes available. A barrier's first scope
  // reaches back across submissions on the same queue.
  memory_barrier(vk, cb, kCompute | VK_PIPELINE_STAGE_TRANSFER_BIT,
                 VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT, kCompute, kShaderAccess);
  constexpr VkPipelineStageFlags kTransfer = VK_PIPELINE_STAGE_TRANSFER_BIT;
  constexpr VkAccessFlags kTransferAccess = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  size_t i = 0;  // kernels recorded so far
  for (size_t c = 0; c < commands.size(); ++c) {
    // In-order queue: each command sees all writes of the one before, and
    // does not start writing before that one has finished reading.
    const bool copy = commands[c].copy != nullptr;
    if (c > 0) {
      const bool after_copy = commands[c - 1].copy != nullptr;
      memory_barrier(vk, cb, after_copy ? kTransfer : kCompute,
                     after_copy ? VK_ACCESS_TRANSFER_WRITE_BIT : VK_ACCESS_SHADER_WRITE_BIT, copy ? kTransfer : kCompute,
                     copy ? kTransferAccess : kShaderAccess);
    } else if (copy) {  // earlier submissions' writes, as for a kernel above
      memory_barrier(vk, cb, kCompute | kTransfer, VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT, kTransfer,
                     kTransferAccess);
    }
    if (copy) {
      const EnqueuedCopy& e = *commands[c].copy;
      vk.vkCmdCopyBuffer(cb, e.from->buffer, e.to->buffer, 1, &e.region);
      continue;
    }
    // BOTTOM_OF_PIPE: the stamp waits for every earlier command to end, so a
    // kernel's time never includes the tail of the one before it.
    if (pool) vk.vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, static_cast<uint32_t>(2 * i));
    record_dispatches(vk, cb, *kernels[i], argument_addresses[i]);
    if (pool) vk.vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, static_cast<uint32_t>(2 * i + 1));
    ++i;
  }
  // The host reads buffers through their mapping once the fence signals;
  // transfers submitted later (staging reads) read them on the device.
  memory_barrier(vk, cb, kCompute | kTransfer, VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
                 VK_PIPELINE_STAGE_HOST_BIT | kTransfer, VK_ACCESS_HOST_READ_BIT | kTransferAccess);
  check(vk.vkEndCommandBuffer(cb), "vkEndCommandBuffer");

  VkSubmitInfo submit_info{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit_info.commandBufferCount = 1;
  submit_info.pCommandBuffers = &cb;
  VkResult result = vk.vkQueueSubmit(dev.queue, 1, &submit_info, state->fence);
  if (result == VK_ERROR_DEVICE_LOST) dev.lost = true;
  check(result, "vkQueueSubmit (" + state->describe() + ")");
  state->submitted = true;
  return state;
}

}  // namespace vkcl::detail

// Device::run: from a Kernel with its arguments and an NDRange to one
// submission of split dispatches, each with its own push constants.
#include <cstring>

#include "internal.h"
#include "vkcl/device.h"
#include "vkcl/kernel.h"
#include "vkcl/ndrange.h"

namespace vkcl {
namespace {

void put(std::vector<std::byte>& block, uint32_t offset, const void* data, size_t size) {
  std::memcpy(block.data() + offset, data, size);
}

void put_ndrange(std::vector<std::byte>& block, const KernelReflection& k, NDRangeField field,
                 const std::array<uint32_t, 3>& value) {
  if (auto offset = k.ndrange_offset(field)) {
    const uint32_t v[4] = {value[0], value[1], value[2], 0};
    put(block, *offset, v, sizeof v);
  }
}

// Frees a command buffer and fence unless a timed-out submission still owns them.
struct Submission {
  detail::DeviceState& dev;
  VkCommandBuffer command_buffer = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
  ~Submission() {
    if (command_buffer) dev.vk.vkFreeCommandBuffers(dev.device, dev.command_pool, 1, &command_buffer);
    if (fence) dev.vk.vkDestroyFence(dev.device, fence, nullptr);
  }
};

// Submissions that timed out earlier and have since finished can go.
void reap_pending(detail::DeviceState& dev) {
  std::erase_if(dev.pending, [&](const detail::PendingSubmission& p) {
    if (dev.vk.vkGetFenceStatus(dev.device, p.fence) != VK_SUCCESS) return false;
    dev.vk.vkFreeCommandBuffers(dev.device, dev.command_pool, 1, &p.command_buffer);
    dev.vk.vkDestroyFence(dev.device, p.fence, nullptr);
    return true;
  });
}

void global_barrier(const VolkDeviceTable& vk, VkCommandBuffer cb, VkPipelineStageFlags src_stage, VkAccessFlags src,
                    VkPipelineStageFlags dst_stage, VkAccessFlags dst) {
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, src, dst};
  vk.vkCmdPipelineBarrier(cb, src_stage, dst_stage, 0, 1, &barrier, 0, nullptr, 0, nullptr);
}

}  // namespace

void Device::run(const Kernel& kernel, const NDRange& range) {
  detail::DeviceState& dev = *state_;
  dev.check_usable();
  detail::ProgramState& program = *kernel.program_;
  const KernelReflection& k = kernel.reflection();
  if (program.device != state_) throw Error("kernel '" + k.name + "' belongs to a program of another Device");
  reap_pending(dev);

  // Arguments: all set, buffers alive (and kept alive until the run ends).
  std::vector<std::shared_ptr<detail::BufferState>> buffers;
  std::vector<std::pair<uint32_t, uint32_t>> local_lengths;
  uint64_t shared_bytes = k.static_local_memory;
  std::string unset;
  for (const KernelArg& a : k.args) {
    const auto& value = kernel.args_[a.index];
    if (!value.set) {
      unset += (unset.empty() ? "" : ", ") + std::to_string(a.index) + (a.name.empty() ? "" : " (" + a.name + ")");
    } else if (a.kind == ArgKind::LocalPointer) {
      local_lengths.emplace_back(a.spec_id, value.local_length);
      shared_bytes += uint64_t(value.local_length) * a.element_size;
    } else if (a.kind != ArgKind::Scalar) {
      auto buffer = value.buffer.lock();
      if (!buffer) throw Error(kernel.describe_arg(a.index) + ": its buffer was destroyed after set_arg");
      buffers.push_back(std::move(buffer));
    }
  }
  if (!unset.empty()) throw Error("kernel '" + k.name + "': argument(s) not set: " + unset);

  const VkPhysicalDeviceLimits& limits = dev.properties.limits;
  if (shared_bytes > limits.maxComputeSharedMemorySize)
    throw Error("kernel '" + k.name + "' needs " + std::to_string(shared_bytes) + " bytes of __local memory (" +
                std::to_string(k.static_local_memory) + " in the kernel, the rest in __local arguments); " +
                dev.properties.deviceName + " allows maxComputeSharedMemorySize = " +
                std::to_string(limits.maxComputeSharedMemorySize));
  VkPipelineLayout layout = program.layout(kernel.kernel_index_);

  DispatchPlan plan;
  try {
    plan = plan_dispatch(range, dev.dispatch_limits(), k.required_work_group_size);
  } catch (const Error& e) {
    throw Error("kernel '" + k.name + "': " + e.what());
  }
  if (plan.dispatches.empty()) return;
  std::vector<VkPipeline> pipelines;
  for (const Dispatch& d : plan.dispatches)
    pipelines.push_back(program.pipeline(kernel.kernel_index_, d.local_size, local_lengths));

  std::vector<std::byte> push = kernel.push_constants_;
  put_ndrange(push, k, NDRangeField::GlobalOffset, plan.offset);
  put_ndrange(push, k, NDRangeField::GlobalSize, plan.global);
  put_ndrange(push, k, NDRangeField::EnqueuedLocalSize, plan.enqueued_local);
  put_ndrange(push, k, NDRangeField::NumGroups, plan.num_groups);
  if (auto offset = k.ndrange_offset(NDRangeField::WorkDim)) put(push, *offset, &plan.dims, sizeof plan.dims);
  const auto group_offset = k.ndrange_offset(NDRangeField::GroupOffset);

  const VolkDeviceTable& vk = dev.vk;
  Submission submission{dev};
  VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  allocate.commandPool = dev.command_pool;
  allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  allocate.commandBufferCount = 1;
  detail::check(vk.vkAllocateCommandBuffers(dev.device, &allocate, &submission.command_buffer), "vkAllocateCommandBuffers");
  VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  detail::check(vk.vkCreateFence(dev.device, &fence_info, nullptr, &submission.fence), "vkCreateFence");

  VkCommandBuffer cb = submission.command_buffer;
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  detail::check(vk.vkBeginCommandBuffer(cb, &begin), "vkBeginCommandBuffer");
  // Earlier runs' writes must be visible to this one: waiting on their fence
  // orders execution but does not make device writes available.
  global_barrier(vk, cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                 VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
  // The dispatches are parts of one ND-range, whose work-groups OpenCL leaves
  // unordered, so no barriers go between them.
  VkPipeline bound = VK_NULL_HANDLE;
  for (size_t i = 0; i < plan.dispatches.size(); ++i) {
    const Dispatch& d = plan.dispatches[i];
    if (pipelines[i] != bound) vk.vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, bound = pipelines[i]);
    if (group_offset) {
      const uint32_t v[4] = {d.group_offset[0], d.group_offset[1], d.group_offset[2], 0};
      put(push, *group_offset, v, sizeof v);
    }
    if (!push.empty())
      vk.vkCmdPushConstants(cb, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, static_cast<uint32_t>(push.size()), push.data());
    vk.vkCmdDispatch(cb, d.group_count[0], d.group_count[1], d.group_count[2]);
  }
  // Buffers are read through their mapping once the fence signals.
  global_barrier(vk, cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                 VK_ACCESS_HOST_READ_BIT);
  detail::check(vk.vkEndCommandBuffer(cb), "vkEndCommandBuffer");

  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cb;
  VkResult result = vk.vkQueueSubmit(dev.queue, 1, &submit, submission.fence);
  if (result == VK_ERROR_DEVICE_LOST) dev.lost = true;
  detail::check(result, "vkQueueSubmit (kernel '" + k.name + "')");

  const auto timeout_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(dev.timeout).count();
  result = vk.vkWaitForFences(dev.device, 1, &submission.fence, VK_TRUE, static_cast<uint64_t>(timeout_ns));
  if (result == VK_TIMEOUT) {
    detail::PendingSubmission pending{submission.command_buffer, submission.fence, {kernel.program_}};
    pending.keep_alive.insert(pending.keep_alive.end(), buffers.begin(), buffers.end());
    dev.pending.push_back(std::move(pending));
    submission.command_buffer = VK_NULL_HANDLE;
    submission.fence = VK_NULL_HANDLE;
    throw Error("kernel '" + k.name + "' did not finish within " + std::to_string(dev.timeout.count()) +
                " ms (vkWaitForFences returned VK_TIMEOUT); it may never end", VK_TIMEOUT);
  }
  if (result == VK_ERROR_DEVICE_LOST) {
    dev.lost = true;
    throw Error("the device was lost while kernel '" + k.name + "' ran (vkWaitForFences returned VK_ERROR_DEVICE_LOST)",
                VK_ERROR_DEVICE_LOST);
  }
  detail::check(result, "vkWaitForFences (kernel '" + k.name + "')");
  dev.check_validation("the run of kernel '" + k.name + "'");
}

}  // namespace vkcl

// CommandList (what an enqueue checks and fixes), Event, and the Device
// entry points that submit: Device::submit, and Device::run on top of it.
#include "vkcl/queue.h"

#include <algorithm>
#include <cstring>

#include "internal.h"
#include "submission.h"
#include "vkcl/buffer.h"
#include "vkcl/device.h"
#include "vkcl/kernel.h"

namespace vkcl {
namespace {

void put(std::vector<std::byte>& block, uint32_t offset, const void* data, size_t size) {
  std::memcpy(block.data() + offset, data, size);
}

void put_ndrange(std::vector<std::byte>& block, const KernelReflection& k, NDRangeField field,
                 const std::array<uint32_t, 3>& value) {
  detail::put_ndrange_field(block, k.ndrange_offset(field), value);
}

}  // namespace

CommandList::CommandList(Device& device) : device_(device.state_) {}
CommandList::CommandList(const CommandList&) = default;
CommandList& CommandList::operator=(const CommandList&) = default;
CommandList::CommandList(CommandList&&) noexcept = default;
CommandList& CommandList::operator=(CommandList&&) noexcept = default;
CommandList::~CommandList() = default;

size_t CommandList::enqueue(const Kernel& kernel, const NDRange& range) {
  detail::DeviceState& dev = *device_;
  dev.check_usable();
  if (kernel.program_->device != device_)
    throw Error("kernel '" + kernel.name() + "' belongs to a program of another Device than this CommandList's (" +
                dev.properties.deviceName + ")");
  // A storage buffer the device cannot bind: the kernel runs from the
  // program's module that passes pointers by address (Program's constructor).
  const bool by_address = std::ranges::any_of(kernel.args_, [](const Kernel::ArgValue& v) { return v.needs_address; });
  detail::ProgramState& program = by_address ? kernel.program_->by_address_state() : *kernel.program_;
  const std::optional<uint32_t> found = by_address ? program.find_kernel(kernel.name()) : kernel.kernel_index_;
  if (!found) throw Error("kernel '" + kernel.name() + "': the program's module with addresses has no such kernel");
  const uint32_t kernel_index = *found;
  const KernelReflection& k = program.reflection.kernels[kernel_index];
  const std::vector<std::byte> by_address_arguments = by_address ? kernel.arguments_for(k) : std::vector<std::byte>();
  const std::vector<std::byte>& arguments = by_address ? by_address_arguments : kernel.arguments_;

  auto enqueued = std::make_shared<detail::EnqueuedKernel>();
  enqueued->program = by_address ? kernel.program_->by_address : kernel.program_;
  enqueued->name = k.name;

  // Arguments: all set, buffers alive (and now kept alive by the snapshot).
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
    } else if (a.kind != ArgKind::Scalar && !value.null) {
      auto buffer = value.buffer.lock();
      if (!buffer) throw Error(kernel.describe_arg(a.index) + ": its buffer was destroyed after set_arg");
      if (a.binding) {
        enqueued->storage_buffers.push_back({buffer->buffer, value.offset, value.range});
        enqueued->storage_buffer_bindings.push_back(*a.binding);
      }
      enqueued->buffers.push_back(std::move(buffer));
    }
  }
  if (!unset.empty()) throw Error("kernel '" + k.name + "': argument(s) not set: " + unset);

  const VkPhysicalDeviceLimits& limits = dev.properties.limits;
  if (shared_bytes > limits.maxComputeSharedMemorySize)
    throw Error("kernel '" + k.name + "' needs " + std::to_string(shared_bytes) + " bytes of __local memory (" +
                std::to_string(k.static_local_memory) + " in the kernel, the rest in __local arguments); " +
                dev.properties.deviceName + " allows maxComputeSharedMemorySize = " +
                std::to_string(limits.maxComputeSharedMemorySize));
  enqueued->layout = program.layout(kernel_index);

  DispatchPlan plan;
  try {
    plan = plan_dispatch(range, dev.dispatch_limits(), k.required_work_group_size);
  } catch (const Error& e) {
    throw Error("kernel '" + k.name + "': " + e.what());
  }
  // Pipelines are built now, so that a driver's refusal is an error of this
  // enqueue rather than of a later submit.
  for (const Dispatch& d : plan.dispatches)
    enqueued->pipelines.push_back(program.pipeline(kernel_index, d.local_size, local_lengths, plan.offsets_in_kernel));
  enqueued->dispatches = std::move(plan.dispatches);

  std::vector<std::byte>& push = enqueued->push_constants;
  if (k.argument_buffer) {
    // The submission copies the arguments into its argument buffer and puts
    // that copy's address at argument_buffer_at.
    push.assign(detail::ProgramState::push_range_size(k), std::byte{0});
    enqueued->arguments = arguments;
    enqueued->argument_buffer_at = k.argument_buffer->offset;
  } else {
    push = arguments;
  }
  put_ndrange(push, k, NDRangeField::GlobalOffset, plan.offset);
  put_ndrange(push, k, NDRangeField::GlobalSize, plan.global);
  put_ndrange(push, k, NDRangeField::EnqueuedLocalSize, plan.enqueued_local);
  put_ndrange(push, k, NDRangeField::NumGroups, plan.num_groups);
  if (auto offset = k.ndrange_offset(NDRangeField::WorkDim)) put(push, *offset, &plan.dims, sizeof plan.dims);
  enqueued->group_offset_at = k.ndrange_offset(NDRangeField::GroupOffset);
  enqueued->global_id_base_at = k.ndrange_offset(NDRangeField::GlobalIdBase);

  commands_.push_back({std::move(enqueued), nullptr});
  return kernel_count_++;
}

void CommandList::copy(const Buffer& from, const Buffer& to) {
  const detail::BufferState &source = *from.state_, &target = *to.state_;
  if (source.device != device_ || target.device != device_)
    throw Error("CommandList::copy: a buffer of another Device than the list's (" +
                std::string(device_->properties.deviceName) + ")");
  if (target.size < source.size)
    throw Error("CommandList::copy: the target's " + std::to_string(target.size) + " bytes cannot hold the source's " +
                std::to_string(source.size));
  if (source.buffer == target.buffer && source.offset < target.offset + source.size &&
      target.offset < source.offset + source.size)
    throw Error("CommandList::copy: the source (offset " + std::to_string(source.offset) + ") and the target (offset " +
                std::to_string(target.offset) + ") overlap in one allocation (" + std::to_string(source.size) +
                " bytes)");
  auto copy = std::make_shared<detail::EnqueuedCopy>();
  copy->from = source.allocation(from.state_);
  copy->to = target.allocation(to.state_);
  copy->region = {source.offset, target.offset, source.size};
  commands_.push_back({nullptr, std::move(copy)});
}

Event::Event(std::shared_ptr<detail::SubmissionState> state) : state_(std::move(state)) {}
Event::Event(Event&&) noexcept = default;
Event& Event::operator=(Event&&) noexcept = default;
Event::~Event() = default;

bool Event::done() const { return state_->poll(); }
void Event::wait() const { state_->wait(); }
std::vector<KernelTime> Event::kernel_times() const { return state_->kernel_times(); }

Event Device::submit(const CommandList& commands, const SubmitOptions& options) {
  if (commands.device_ != state_)
    throw Error("Device::submit: the CommandList was made for " + std::string(commands.device_->properties.deviceName) +
                ", another Device than this one (" + state_->properties.deviceName + ")");
  return Event(detail::submit(state_, commands.commands_, options.timestamps));
}

void Device::run(const Kernel& kernel, const NDRange& range) {
  CommandList commands(*this);
  commands.enqueue(kernel, range);
  submit(commands).wait();
}

bool Device::has_timestamps() const { return !detail::timestamps_unavailable(*state_); }

}  // namespace vkcl

// OpenCL's in-order command queue on Vulkan: commands recorded into a
// CommandList, submitted together as one command buffer, waited on through an
// Event, and timed on the GPU.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "vkcl/ndrange.h"

namespace vkcl {

class Buffer;
class Device;
class Kernel;
namespace detail {
struct DeviceState;
struct EnqueuedKernel;
struct EnqueuedCopy;
struct SubmissionState;
// A kernel or a copy: one command of a CommandList.
struct EnqueuedCommand {
  std::shared_ptr<const EnqueuedKernel> kernel;  // or
  std::shared_ptr<const EnqueuedCopy> copy;
};
}

// Commands for one Device, run in the order they were enqueued, each one
// seeing every memory write of the ones before it (OpenCL's in-order queue:
// the runtime puts a pipeline barrier between consecutive commands, and the
// work-groups of one kernel stay unordered among themselves).
//
// enqueue() takes a snapshot: the kernel's argument values, the buffers they
// name (kept alive until the submission ends) and the pipelines for the range
// are fixed then, and every check that can fail before the GPU runs (unset or
// stale arguments, work-group size and count, __local memory, push-constant
// space) fails there. Changing the Kernel's arguments afterwards does not
// affect what was enqueued. A list can be submitted any number of times.
class CommandList {
 public:
  explicit CommandList(Device& device);
  CommandList(const CommandList&);
  CommandList& operator=(const CommandList&);
  CommandList(CommandList&&) noexcept;
  CommandList& operator=(CommandList&&) noexcept;
  ~CommandList();

  // Returns the kernel's position among the list's kernels, which is its
  // index in Event::kernel_times(). Throws Error for a kernel of another
  // Device, unset arguments, a destroyed buffer, or a range or __local size
  // beyond the device's limits.
  size_t enqueue(const Kernel& kernel, const NDRange& range);

  // Copies all of `from` to the start of `to` (OpenCL's clEnqueueCopyBuffer)
  // after the commands before it and before those after it. Throws Error
  // for a buffer of another Device, a `to` smaller than `from`, or two views
  // of one allocation that overlap.
  void copy(const Buffer& from, const Buffer& to);

  size_t kernel_count() const { return kernel_count_; }
  bool empty() const { return commands_.empty(); }
  void clear() { commands_.clear(), kernel_count_ = 0; }

 private:
  std::shared_ptr<detail::DeviceState> device_;
  std::vector<detail::EnqueuedCommand> commands_;
  size_t kernel_count_ = 0;
  friend class Device;
};

struct SubmitOptions {
  // Write a GPU timestamp before and after each kernel, for
  // Event::kernel_times(). Device::submit throws when the device's compute
  // queue cannot write timestamps (see Device::has_timestamps()).
  bool timestamps = false;
};

// GPU time of one enqueued kernel, all of its split dispatches together.
// start and end count from the submission's first timestamp; the start is
// taken once every earlier command has finished, so kernels of one submission
// never overlap in these numbers.
struct KernelTime {
  std::string kernel;
  std::chrono::nanoseconds start{0};
  std::chrono::nanoseconds end{0};
  std::chrono::nanoseconds duration() const { return end - start; }
};

// One submission. Dropping an Event does not wait: a submission still running
// then keeps what it uses alive until it ends.
class Event {
 public:
  Event(Event&&) noexcept;
  Event& operator=(Event&&) noexcept;
  ~Event();

  // Whether the GPU has finished, without waiting. Throws Error when the
  // device was lost.
  bool done() const;
  // Waits up to the device's timeout() (read when wait() is called). Throws
  // Error (result() VK_TIMEOUT) when the submission has not finished by then,
  // which names its kernels, and any earlier submission whose wait timed out
  // and that still runs (this one is queued behind it); the submission goes
  // on, and wait() may be called again. Throws for a lost device and for what the validation layer
  // reported. Returns at once when already waited for.
  void wait() const;
  // Waits, then returns one KernelTime per enqueued kernel, in enqueue order.
  // Throws Error when the submission was made without
  // SubmitOptions::timestamps.
  std::vector<KernelTime> kernel_times() const;

 private:
  explicit Event(std::shared_ptr<detail::SubmissionState> state);
  std::shared_ptr<detail::SubmissionState> state_;
  friend class Device;
};

}  // namespace vkcl

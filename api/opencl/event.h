// Events: what a command's progress is (CL_QUEUED, CL_SUBMITTED, CL_RUNNING,
// CL_COMPLETE, or a negative error), when it reached each stage (profiling),
// and who waits for it: threads in clWaitForEvents, queues whose commands
// depend on it, and the application's callbacks. User events are events
// with no command, whose status the application sets.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <vector>

#include "context.h"
#include "object.h"

namespace vkcl::opencl {

// Nanoseconds of the host's monotonic clock: the profiling clock, on which
// GPU timestamps are placed (Queue).
cl_ulong now_ns();

class Event final : public Object {
 public:
  using Callback = void(CL_CALLBACK*)(cl_event event, cl_int status, void* user_data);

  // A command's event: `queue` is its queue's handle (not a reference: an
  // event outliving its queue only reports it), `profiling` whether the
  // queue records times. A user event: queue null, status CL_SUBMITTED.
  Event(Ref<Context> context, cl_command_queue queue, cl_command_type type, bool profiling);

  _cl_event handle = make_handle(this);
  Context& context() const { return *context_; }
  cl_command_queue queue() const { return queue_; }
  cl_command_type type() const { return type_; }
  bool is_user_event() const { return queue_ == nullptr; }
  bool profiling() const { return profiling_; }

  cl_int status() const;
  // Moves the status forward (to a smaller value), recording the time of
  // each stage, and runs the callbacks it reaches. A negative status (an
  // error) or CL_COMPLETE is final; later calls are ignored.
  void set_status(cl_int status);
  // Places the command's start and end on the profiling clock (GPU
  // timestamps); otherwise they are the times RUNNING and COMPLETE were set.
  void set_device_times(cl_ulong start, cl_ulong end);
  // Blocks (without spinning) until the status is final; returns it.
  cl_int wait() const;
  bool done() const { return status() <= CL_COMPLETE; }

  // clSetEventCallback: runs `callback` once the status reaches `trigger`
  // (CL_SUBMITTED, CL_RUNNING or CL_COMPLETE) or an error; at once, on this
  // thread, when it already has.
  void add_callback(cl_int trigger, Callback callback, void* user_data);
  // For vkcl: runs `wake` once the status is final (at once if it is).
  void when_done(std::function<void()> wake);

  // CL_PROFILING_COMMAND_*: nullopt until the command is complete, and for
  // user events and queues without profiling.
  std::optional<cl_ulong> profiling_time(cl_profiling_info which) const;

 private:
  ~Event() override = default;
  void run_reached(std::unique_lock<std::mutex>& lock);

  Ref<Context> context_;
  cl_command_queue queue_;
  cl_command_type type_;
  bool profiling_;

  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  cl_int status_;
  cl_ulong queued_ = 0, submitted_ = 0, started_ = 0, ended_ = 0, completed_ = 0;
  bool device_times_ = false;
  struct Pending {
    cl_int trigger;
    Callback callback;
    void* user_data;
  };
  std::vector<Pending> callbacks_;
  std::vector<std::function<void()>> wakes_;
};

}  // namespace vkcl::opencl

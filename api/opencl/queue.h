// Command queues. Each has a worker thread that runs its commands one at a
// time, each once every event it waits for is complete:
// - in an in-order queue every command waits for the one before it;
// - in an out-of-order queue a command waits only for its wait list, so one
//   blocked on a user event does not hold back the commands after it, and
//   a barrier (or a marker with no wait list) waits for every command before
//   it, and a barrier holds back every command after it.
// Commands are handed to the worker as they are enqueued: clFlush has
// nothing left to do. Waiting is on condition variables, never a spin.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

#include "context.h"
#include "event.h"
#include "object.h"

namespace vkcl::opencl {

// What a command's work gets to run with: the device (whose lock it takes
// around calls into the runtime) and its own event, for GPU times.
struct Execution {
  ContextDevice& device;
  Event& event;
  bool profiling;
};

// A command's work: returns normally when done, throws (ClError,
// vkcl::Error) when it failed, which makes its event's status an error.
using Work = std::function<void(Execution&)>;

class Queue final : public Object {
 public:
  // `properties`: as given to clCreateCommandQueueWithProperties (with
  // their 0), or empty.
  Queue(Ref<Context> context, ContextDevice& device, cl_command_queue_properties flags,
        std::vector<cl_queue_properties> properties);

  _cl_command_queue handle = make_handle(this);
  Context& context() const { return *context_; }
  ContextDevice& device() const { return device_; }
  cl_command_queue_properties flags() const { return flags_; }
  const std::vector<cl_queue_properties>& properties() const { return properties_; }
  bool in_order() const { return !(flags_ & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE); }

  // Checks a wait list as every clEnqueue* does (CL_INVALID_EVENT_WAIT_LIST,
  // CL_INVALID_CONTEXT) and returns its events.
  std::vector<Ref<Event>> wait_list(cl_uint count, const cl_event* events) const;
  // Enqueues a command of `type` that runs `work` after `waits` (and what
  // the queue's order adds). Returns its event.
  Ref<Event> enqueue(cl_command_type type, std::vector<Ref<Event>> waits, Work work, bool barrier = false);
  // A marker or barrier: with no wait list, it waits for every command
  // enqueued before it.
  Ref<Event> enqueue_marker(cl_command_type type, std::vector<Ref<Event>> waits, bool barrier);
  // Blocks until every command enqueued so far is complete.
  void finish();

 private:
  struct Command {
    Ref<Event> event;
    std::vector<Ref<Event>> waits;
    Work work;
  };
  // Shared with the events the worker waits for, which wake it through a
  // weak reference: an event may outlive the queue.
  struct State {
    std::mutex mutex;
    std::condition_variable wake;
    std::deque<Command> pending;
    std::vector<Ref<Event>> running;  // the command the worker is running (0 or 1)
    Ref<Event> last;                  // the last command enqueued (in-order queues wait for it)
    Ref<Event> last_barrier;          // the last barrier enqueued (out-of-order queues)
    bool released = false;            // the application released the queue
    bool finished = false;            // the worker has left its loop
  };

  ~Queue() override = default;
  void on_api_release() override;
  static void work(Ref<Queue> self);
  // The next command whose waits are complete, taken out of `pending`.
  static std::optional<Command> take_ready(State& state);

  Ref<Context> context_;
  ContextDevice& device_;
  cl_command_queue_properties flags_;
  std::vector<cl_queue_properties> properties_;
  std::shared_ptr<State> state_ = std::make_shared<State>();
  // Joined when the application's release finds the queue drained within
  // kReleaseWait, detached otherwise (queue.cpp says why).
  std::thread worker_;
  static constexpr std::chrono::seconds kReleaseWait{5};
};

// The end of every clEnqueue*: gives the application the event (the API's
// share of its references) where it asked for one, and drops that share
// where it did not.
cl_int hand_out(Ref<Event> event, cl_event* event_out);
// For blocking commands: waits for the event; an error status is
// CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST.
cl_int wait_if_blocking(const Ref<Event>& event, cl_bool blocking);

}  // namespace vkcl::opencl

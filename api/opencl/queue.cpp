// Command queues: the worker that runs commands in dependency order, and the
// entry points for queues, markers, barriers, clFlush and clFinish.
#include "queue.h"

#include <algorithm>
#include <thread>

#include "entry_points.h"
#include "errors.h"
#include "info.h"

namespace vkcl::opencl {

Queue::Queue(Ref<Context> context, ContextDevice& device, cl_command_queue_properties flags,
             std::vector<cl_queue_properties> properties)
    : context_(std::move(context)), device_(device), flags_(flags), properties_(std::move(properties)) {
  // The worker owns a reference to the queue, so that the queue lives until
  // it has run what was enqueued, however early the application releases
  // it; it leaves once the queue is released and empty.
  worker_ = std::thread(work, Ref<Queue>(this));
}

// The queue's last reference takes the context's, and the context's last
// destroys its VkDevices and perhaps the VkInstance. That must happen on the
// application's thread, in its clRelease* calls: on the worker it could
// run while the process exits, and NVIDIA's driver (580) then deadlocked
// between its exit teardown and the worker's vkDestroyInstance. So the
// release waits for the worker to run what is left (kReleaseWait at most)
// and joins it; the application's share, dropped after this, is then the
// last. A queue that does not drain in time (a command waiting for a user
// event not yet set) is left to its worker, as OpenCL allows, and the
// platform's exit handler waits for it (Platform::begin_retiring).
void Queue::on_api_release() {
  Platform::get().begin_retiring();  // the worker ends it (work)
  std::unique_lock lock(state_->mutex);
  state_->released = true;
  state_->wake.notify_all();
  // Released from the worker itself (an event callback it runs): it cannot
  // drain while it waits here.
  const bool on_worker = std::this_thread::get_id() == worker_.get_id();
  const bool drained =
      !on_worker && state_->wake.wait_for(lock, kReleaseWait, [&] { return state_->finished; });
  lock.unlock();
  if (drained)
    worker_.join();
  else
    worker_.detach();
}

std::vector<Ref<Event>> Queue::wait_list(cl_uint count, const cl_event* events) const {
  require((count == 0) == (events == nullptr), CL_INVALID_EVENT_WAIT_LIST,
          "num_events_in_wait_list and event_wait_list disagree");
  std::vector<Ref<Event>> list;
  for (cl_uint i = 0; i < count; ++i) {
    Event* e = lookup<Event>(events[i]);
    require(e, CL_INVALID_EVENT_WAIT_LIST, "not a valid event");
    require(&e->context() == context_.get(), CL_INVALID_CONTEXT, "an event of another context");
    list.emplace_back(e);
  }
  return list;
}

Ref<Event> Queue::enqueue(cl_command_type type, std::vector<Ref<Event>> waits, Work work, bool barrier) {
  // Two references: the API's share (hand_out gives it to the application
  // or drops it) and `event`'s.
  Ref<Event> event(new Event(context_, &handle, type, (flags_ & CL_QUEUE_PROFILING_ENABLE) != 0));
  {
    std::lock_guard lock(state_->mutex);
    State& s = *state_;
    if (in_order() && s.last) waits.push_back(s.last);
    if (!in_order() && s.last_barrier) waits.push_back(s.last_barrier);
    s.last = event;
    if (barrier) s.last_barrier = event;
    s.pending.push_back(Command{event, waits, std::move(work)});
    s.wake.notify_all();
  }
  // Outside the lock: a wake runs at once when its event is already done.
  std::weak_ptr<State> weak = state_;
  for (const Ref<Event>& wait : waits)
    wait->when_done([weak] {
      if (auto s = weak.lock()) {
        std::lock_guard lock(s->mutex);
        s->wake.notify_all();
      }
    });
  return event;
}

Ref<Event> Queue::enqueue_marker(cl_command_type type, std::vector<Ref<Event>> waits, bool barrier) {
  if (waits.empty() && !in_order()) {
    std::lock_guard lock(state_->mutex);
    for (const Command& c : state_->pending) waits.push_back(c.event);
    for (const Ref<Event>& e : state_->running) waits.push_back(e);
  }
  return enqueue(type, std::move(waits), [](Execution&) {}, barrier);
}

void Queue::finish() {
  std::vector<Ref<Event>> events;
  {
    std::lock_guard lock(state_->mutex);
    for (const Command& c : state_->pending) events.push_back(c.event);
    for (const Ref<Event>& e : state_->running) events.push_back(e);
  }
  for (const Ref<Event>& e : events) e->wait();
}

std::optional<Queue::Command> Queue::take_ready(State& s) {
  for (auto it = s.pending.begin(); it != s.pending.end(); ++it) {
    const bool ready = std::all_of(it->waits.begin(), it->waits.end(), [](const Ref<Event>& e) { return e->done(); });
    if (ready) {
      Command command = std::move(*it);
      s.pending.erase(it);
      return command;
    }
  }
  return std::nullopt;
}

void Queue::work(Ref<Queue> self) {
  State& s = *self->state_;
  std::unique_lock lock(s.mutex);
  for (;;) {
    std::optional<Command> command = take_ready(s);
    if (!command) {
      if (s.released && s.pending.empty()) break;
      s.wake.wait(lock);
      continue;
    }
    s.running = {command->event};
    lock.unlock();

    Event& event = *command->event;
    const bool failed_wait = std::any_of(command->waits.begin(), command->waits.end(),
                                         [](const Ref<Event>& e) { return e->status() < 0; });
    command->waits.clear();
    cl_int status = CL_COMPLETE;
    if (failed_wait) {
      status = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    } else {
      event.set_status(CL_SUBMITTED);
      event.set_status(CL_RUNNING);
      try {
        Execution execution{self->device_, event, event.profiling()};
        command->work(execution);
      } catch (...) {
        status = current_error_code();
        if (status >= 0) status = CL_OUT_OF_RESOURCES;
        // The event's status is only a code; the context's pfn_notify
        // gets what failed, as the specification means it to.
        self->context().notify(current_error_message().c_str());
      }
    }
    // What the work held (buffers, kernels) goes before the event completes,
    // so that a release the application made meanwhile has taken effect
    // (destructor callbacks) by the time a wait returns.
    command->work = nullptr;
    Ref<Event> done = std::move(command->event);
    command.reset();
    done->set_status(status);
    done = nullptr;

    lock.lock();
    s.running.clear();
  }
  s.finished = true;
  s.wake.notify_all();
  lock.unlock();
  // The queue, and with it perhaps the context, its VkDevice and the
  // VkInstance, go here, before the exit handler may let the process end.
  self = nullptr;
  Platform::get().end_retiring();
}

// Entry points.

namespace {

constexpr cl_command_queue_properties kKnownQueueFlags =
    CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT;

cl_command_queue make_queue(cl_context context, cl_device_id device, cl_command_queue_properties flags,
                            std::vector<cl_queue_properties> properties) {
  Context& c = get<Context>(context, CL_INVALID_CONTEXT);
  require(Platform::get().find(device), CL_INVALID_DEVICE, "not a vkcl device");
  ContextDevice* d = c.find(device);
  require(d, CL_INVALID_DEVICE, "not a device of the context");
  require(!(flags & ~kKnownQueueFlags), CL_INVALID_VALUE, "unknown queue properties");
  // Device-side queues (OpenCL 2.0 device enqueue) are not supported.
  require(!(flags & (CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT)), CL_INVALID_QUEUE_PROPERTIES,
          "device-side queues are not supported");
  if (flags & CL_QUEUE_PROFILING_ENABLE)
    require(d->device->vulkan.timestamp_valid_bits != 0, CL_INVALID_QUEUE_PROPERTIES, "the device has no timestamps");
  auto* queue = new Queue(Ref<Context>(&c), *d, flags, std::move(properties));
  return &queue->handle;
}

}  // namespace

cl_command_queue CL_API_CALL create_command_queue(cl_context context, cl_device_id device,
                                                  cl_command_queue_properties properties, cl_int* errcode_ret) {
  return guard_object(errcode_ret, [&] { return make_queue(context, device, properties, {}); });
}

cl_command_queue CL_API_CALL create_command_queue_with_properties(cl_context context, cl_device_id device,
                                                                  const cl_queue_properties* properties,
                                                                  cl_int* errcode_ret) {
  return guard_object(errcode_ret, [&] {
    cl_command_queue_properties flags = 0;
    std::vector<cl_queue_properties> list;
    bool flags_seen = false;
    for (const cl_queue_properties* p = properties; p && *p; p += 2) {
      switch (p[0]) {
        case CL_QUEUE_PROPERTIES:
          require(!flags_seen, CL_INVALID_VALUE, "CL_QUEUE_PROPERTIES given twice");
          flags_seen = true;
          flags = static_cast<cl_command_queue_properties>(p[1]);
          break;
        // Only for device-side queues, which need CL_QUEUE_ON_DEVICE.
        case CL_QUEUE_SIZE: throw ClError{CL_INVALID_QUEUE_PROPERTIES, "CL_QUEUE_SIZE without a device-side queue"};
        default: throw ClError{CL_INVALID_VALUE, "unknown queue property"};
      }
      list.insert(list.end(), {p[0], p[1]});
    }
    if (properties) list.push_back(0);
    return make_queue(context, device, flags, std::move(list));
  });
}

cl_int CL_API_CALL retain_command_queue(cl_command_queue queue) {
  return retain_handle<Queue>(queue, CL_INVALID_COMMAND_QUEUE);
}
cl_int CL_API_CALL release_command_queue(cl_command_queue queue) {
  return release_handle<Queue>(queue, CL_INVALID_COMMAND_QUEUE);
}

cl_int CL_API_CALL get_command_queue_info(cl_command_queue queue, cl_command_queue_info param_name,
                                          size_t param_value_size, void* param_value, size_t* param_value_size_ret) {
  return guard([&] {
    const Queue& q = get<Queue>(queue, CL_INVALID_COMMAND_QUEUE);
    std::optional<InfoValue> value;
    switch (param_name) {
      case CL_QUEUE_CONTEXT: value = of<cl_context>(&q.context().handle); break;
      case CL_QUEUE_DEVICE: value = of<cl_device_id>(const_cast<cl_device_id>(&q.device().device->handle)); break;
      case CL_QUEUE_REFERENCE_COUNT: value = of<cl_uint>(q.api_reference_count()); break;
      case CL_QUEUE_PROPERTIES: value = of<cl_command_queue_properties>(q.flags()); break;
      case CL_QUEUE_PROPERTIES_ARRAY: value = array_of(q.properties()); break;
      case CL_QUEUE_DEVICE_DEFAULT: value = of<cl_command_queue>(nullptr); break;
      // Only device-side queues have a size.
      case CL_QUEUE_SIZE: throw ClError{CL_INVALID_COMMAND_QUEUE, "not a device-side queue"};
    }
    return copy_out(value, param_value_size, param_value, param_value_size_ret);
  });
}

cl_int CL_API_CALL flush(cl_command_queue queue) {
  // The worker has every command already.
  return lookup<Queue>(queue) ? CL_SUCCESS : CL_INVALID_COMMAND_QUEUE;
}

cl_int CL_API_CALL finish(cl_command_queue queue) {
  return guard([&] {
    get<Queue>(queue, CL_INVALID_COMMAND_QUEUE).finish();
    return CL_SUCCESS;
  });
}

cl_int hand_out(Ref<Event> event, cl_event* event_out) {
  if (event_out) {
    *event_out = &event->handle;
  } else {
    event->release_api();
  }
  return CL_SUCCESS;
}

cl_int wait_if_blocking(const Ref<Event>& event, cl_bool blocking) {
  if (blocking && event->wait() < 0) return CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  return CL_SUCCESS;
}

cl_int CL_API_CALL enqueue_marker_with_wait_list(cl_command_queue queue, cl_uint num_events_in_wait_list,
                                                 const cl_event* event_wait_list, cl_event* event) {
  return guard([&] {
    Queue& q = get<Queue>(queue, CL_INVALID_COMMAND_QUEUE);
    return hand_out(q.enqueue_marker(CL_COMMAND_MARKER, q.wait_list(num_events_in_wait_list, event_wait_list), false),
                    event);
  });
}

cl_int CL_API_CALL enqueue_barrier_with_wait_list(cl_command_queue queue, cl_uint num_events_in_wait_list,
                                                  const cl_event* event_wait_list, cl_event* event) {
  return guard([&] {
    Queue& q = get<Queue>(queue, CL_INVALID_COMMAND_QUEUE);
    return hand_out(q.enqueue_marker(CL_COMMAND_BARRIER, q.wait_list(num_events_in_wait_list, event_wait_list), true),
                    event);
  });
}

cl_int CL_API_CALL enqueue_marker(cl_command_queue queue, cl_event* event) {
  return guard([&] {
    Queue& q = get<Queue>(queue, CL_INVALID_COMMAND_QUEUE);
    require(event, CL_INVALID_VALUE, "event is NULL");
    return hand_out(q.enqueue_marker(CL_COMMAND_MARKER, {}, false), event);
  });
}

cl_int CL_API_CALL enqueue_barrier(cl_command_queue queue) {
  return guard([&] {
    Queue& q = get<Queue>(queue, CL_INVALID_COMMAND_QUEUE);
    return hand_out(q.enqueue_marker(CL_COMMAND_BARRIER, {}, true), nullptr);
  });
}

cl_int CL_API_CALL enqueue_wait_for_events(cl_command_queue queue, cl_uint num_events, const cl_event* event_list) {
  return guard([&] {
    Queue& q = get<Queue>(queue, CL_INVALID_COMMAND_QUEUE);
    require(num_events && event_list, CL_INVALID_VALUE, "no events");
    // Like a barrier on those events: later commands wait for them.
    return hand_out(q.enqueue_marker(CL_COMMAND_BARRIER, q.wait_list(num_events, event_list), true), nullptr);
  });
}

}  // namespace vkcl::opencl

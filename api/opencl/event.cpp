// Events and user events: status, callbacks, waiting, profiling times, and
// their entry points (clWaitForEvents, clGetEventInfo, clSetEventCallback,
// clCreateUserEvent, clSetUserEventStatus, clGetEventProfilingInfo).
#include "event.h"

#include <chrono>

#include "entry_points.h"
#include "errors.h"
#include "info.h"

namespace vkcl::opencl {

cl_ulong now_ns() {
  return static_cast<cl_ulong>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count());
}

Event::Event(Ref<Context> context, cl_command_queue queue, cl_command_type type, bool profiling)
    : context_(std::move(context)), queue_(queue), type_(type), profiling_(profiling && queue) {
  status_ = queue ? CL_QUEUED : CL_SUBMITTED;
  queued_ = now_ns();
}

cl_int Event::status() const {
  std::lock_guard lock(mutex_);
  return status_;
}

void Event::set_status(cl_int status) {
  std::unique_lock lock(mutex_);
  if (status_ <= CL_COMPLETE || status >= status_) return;
  const cl_ulong t = now_ns();
  // Every stage passed on the way gets the time (a command may go from
  // queued to complete at once, as markers do).
  if (status_ > CL_SUBMITTED && status <= CL_SUBMITTED) submitted_ = t;
  if (status_ > CL_RUNNING && status <= CL_RUNNING) started_ = t;
  if (status <= CL_COMPLETE) {
    if (!device_times_) ended_ = t;
    completed_ = std::max(t, ended_);
  }
  status_ = status;
  run_reached(lock);
}

void Event::set_device_times(cl_ulong start, cl_ulong end) {
  std::lock_guard lock(mutex_);
  started_ = start;
  ended_ = end;
  device_times_ = true;
}

// With the lock held: takes out the callbacks (and, once final, the wakes)
// the status has reached, and runs them without the lock, since a callback
// may call back into this event.
void Event::run_reached(std::unique_lock<std::mutex>& lock) {
  const cl_int status = status_;
  std::vector<Pending> reached;
  std::erase_if(callbacks_, [&](const Pending& p) {
    if (status > p.trigger) return false;
    reached.push_back(p);
    return true;
  });
  std::vector<std::function<void()>> wakes;
  if (status <= CL_COMPLETE) {
    wakes.swap(wakes_);
    changed_.notify_all();
  }
  // The callbacks and wakes may release the last reference to this event.
  Ref<Event> keep(this);
  lock.unlock();
  // CL_COMPLETE's callbacks get the error when the command failed; the
  // others the stage they asked for.
  for (const Pending& p : reached) p.callback(&handle, status < 0 ? status : p.trigger, p.user_data);
  for (auto& wake : wakes) wake();
}

cl_int Event::wait() const {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return status_ <= CL_COMPLETE; });
  return status_;
}

void Event::add_callback(cl_int trigger, Callback callback, void* user_data) {
  std::unique_lock lock(mutex_);
  callbacks_.push_back({trigger, callback, user_data});
  if (status_ <= trigger) run_reached(lock);
}

void Event::when_done(std::function<void()> wake) {
  std::unique_lock lock(mutex_);
  if (status_ > CL_COMPLETE) {
    wakes_.push_back(std::move(wake));
    return;
  }
  lock.unlock();
  wake();
}

std::optional<cl_ulong> Event::profiling_time(cl_profiling_info which) const {
  std::lock_guard lock(mutex_);
  if (!profiling_ || status_ != CL_COMPLETE) return std::nullopt;
  switch (which) {
    case CL_PROFILING_COMMAND_QUEUED: return queued_;
    case CL_PROFILING_COMMAND_SUBMIT: return submitted_;
    case CL_PROFILING_COMMAND_START: return started_;
    case CL_PROFILING_COMMAND_END: return ended_;
    case CL_PROFILING_COMMAND_COMPLETE: return completed_;
  }
  return std::nullopt;
}

// Entry points.

cl_int CL_API_CALL wait_for_events(cl_uint num_events, const cl_event* event_list) {
  return guard([&] {
    require(num_events && event_list, CL_INVALID_VALUE, "no events");
    std::vector<Event*> events;
    for (cl_uint i = 0; i < num_events; ++i) {
      events.push_back(&get<Event>(event_list[i], CL_INVALID_EVENT));
      require(&events[i]->context() == &events[0]->context(), CL_INVALID_CONTEXT, "events of different contexts");
    }
    bool failed = false;
    for (Event* e : events) failed |= e->wait() < 0;
    return failed ? CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST : CL_SUCCESS;
  });
}

cl_int CL_API_CALL get_event_info(cl_event event, cl_event_info param_name, size_t param_value_size, void* param_value,
                                  size_t* param_value_size_ret) {
  return guard([&] {
    const Event& e = get<Event>(event, CL_INVALID_EVENT);
    std::optional<InfoValue> value;
    switch (param_name) {
      case CL_EVENT_COMMAND_QUEUE: value = of<cl_command_queue>(e.queue()); break;
      case CL_EVENT_CONTEXT: value = of<cl_context>(&e.context().handle); break;
      case CL_EVENT_COMMAND_TYPE: value = of<cl_command_type>(e.type()); break;
      case CL_EVENT_COMMAND_EXECUTION_STATUS: value = of<cl_int>(e.status()); break;
      case CL_EVENT_REFERENCE_COUNT: value = of<cl_uint>(e.api_reference_count()); break;
    }
    return copy_out(value, param_value_size, param_value, param_value_size_ret);
  });
}

cl_int CL_API_CALL set_event_callback(cl_event event, cl_int command_exec_callback_type, Event::Callback pfn_notify,
                                      void* user_data) {
  return guard([&] {
    Event& e = get<Event>(event, CL_INVALID_EVENT);
    require(pfn_notify, CL_INVALID_VALUE, "pfn_notify is NULL");
    require(command_exec_callback_type == CL_SUBMITTED || command_exec_callback_type == CL_RUNNING ||
                command_exec_callback_type == CL_COMPLETE,
            CL_INVALID_VALUE, "not CL_SUBMITTED, CL_RUNNING or CL_COMPLETE");
    e.add_callback(command_exec_callback_type, pfn_notify, user_data);
    return CL_SUCCESS;
  });
}

cl_event CL_API_CALL create_user_event(cl_context context, cl_int* errcode_ret) {
  return guard_object(errcode_ret, [&] {
    Context& c = get<Context>(context, CL_INVALID_CONTEXT);
    auto* event = new Event(Ref<Context>(&c), nullptr, CL_COMMAND_USER, false);
    return &event->handle;
  });
}

cl_int CL_API_CALL set_user_event_status(cl_event event, cl_int execution_status) {
  return guard([&] {
    Event& e = get<Event>(event, CL_INVALID_EVENT);
    require(e.is_user_event(), CL_INVALID_EVENT, "not a user event");
    require(execution_status == CL_COMPLETE || execution_status < 0, CL_INVALID_VALUE,
            "a user event's status is CL_COMPLETE or an error");
    require(!e.done(), CL_INVALID_OPERATION, "its status was set already");
    e.set_status(execution_status);
    return CL_SUCCESS;
  });
}

cl_int CL_API_CALL get_event_profiling_info(cl_event event, cl_profiling_info param_name, size_t param_value_size,
                                            void* param_value, size_t* param_value_size_ret) {
  return guard([&] {
    const Event& e = get<Event>(event, CL_INVALID_EVENT);
    require(param_name >= CL_PROFILING_COMMAND_QUEUED && param_name <= CL_PROFILING_COMMAND_COMPLETE, CL_INVALID_VALUE,
            "not a profiling query");
    auto time = e.profiling_time(param_name);
    require(time.has_value(), CL_PROFILING_INFO_NOT_AVAILABLE,
            "a user event, a queue without profiling, or a command not complete");
    return copy_out(of<cl_ulong>(*time), param_value_size, param_value, param_value_size_ret);
  });
}

cl_int CL_API_CALL retain_event(cl_event event) { return retain_handle<Event>(event, CL_INVALID_EVENT); }
cl_int CL_API_CALL release_event(cl_event event) { return release_handle<Event>(event, CL_INVALID_EVENT); }

}  // namespace vkcl::opencl

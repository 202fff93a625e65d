// clEnqueueNDRangeKernel and clEnqueueTask: the ND-range checked with the
// specification's error codes, the kernel and its arguments fixed at
// enqueue (a later clSetKernelArg does not change what was enqueued), and
// the run on the queue's worker, timed with GPU timestamps when profiling.
#include <algorithm>
#include <numeric>

#include "entry_points.h"
#include "errors.h"
#include "kernel.h"
#include "queue.h"
#include "vkcl/queue.h"

namespace vkcl::opencl {

namespace {

// A local size for a range whose work-groups must all be whole: per
// dimension the largest divisor of the global size that fits what is left
// of the budget (a power of two up to 256 invocations in all, as the
// runtime's own choice).
std::array<uint64_t, 3> uniform_local_size(const NDRange& range, size_t max_invocations,
                                           const std::array<uint32_t, 3>& max_size) {
  std::array<uint64_t, 3> local{1, 1, 1};
  uint64_t budget = std::min<uint64_t>(256, max_invocations);
  for (uint32_t i = 0; i < range.dims; ++i) {
    uint64_t best = 1;
    for (uint64_t l = std::min<uint64_t>(budget, max_size[i]); l > 1; --l)
      if (range.global[i] % l == 0) {
        best = l;
        break;
      }
    local[i] = best;
    budget /= best;
  }
  return local;
}

cl_int enqueue_kernel(Queue& q, Kernel& k, cl_uint work_dim, const size_t* global_offset, const size_t* global_size,
                      const size_t* local_size, cl_uint num_events, const cl_event* wait_list, cl_event* event,
                      cl_command_type type) {
  require(&k.context() == &q.context(), CL_INVALID_CONTEXT, "the kernel and the queue have different contexts");
  ContextDevice& d = q.device();
  require(std::find(k.program().devices().begin(), k.program().devices().end(), &d) != k.program().devices().end() &&
              k.program().runtime_of(d),
          CL_INVALID_PROGRAM_EXECUTABLE, "the program is not built for the queue's device");
  require(work_dim >= 1 && work_dim <= 3, CL_INVALID_WORK_DIMENSION, "work_dim is not 1, 2 or 3");
  auto waits = q.wait_list(num_events, wait_list);

  const auto args = k.args();
  for (const KernelArgValue& a : args) require(a.set, CL_INVALID_KERNEL_ARGS, "an argument is not set");

  const DeviceInfo& info = d.device->vulkan;
  const KernelReflection& r = k.reflection();
  const BuildOptions options = k.build_options(d);
  NDRange range;
  range.dims = work_dim;
  // A NULL global size, or a 0 in it, runs nothing and succeeds once the
  // wait list is complete (OpenCL 2.1 and later).
  bool empty = global_size == nullptr;
  for (cl_uint i = 0; i < work_dim && !empty; ++i) {
    range.global[i] = global_size[i];
    range.offset[i] = global_offset ? global_offset[i] : 0;
    empty |= global_size[i] == 0;
    // Ids are 32 bits on the device (get_global_id is a size_t of 32 bits there).
    require(global_size[i] <= UINT32_MAX, CL_INVALID_GLOBAL_WORK_SIZE, "a global size beyond 32 bits");
    require(range.offset[i] <= UINT32_MAX - global_size[i], CL_INVALID_GLOBAL_OFFSET,
            "global offset plus size beyond 32 bits");
  }
  const bool required = r.required_work_group_size[0] != 0;
  if (local_size) {
    uint64_t invocations = 1;
    for (cl_uint i = 0; i < work_dim; ++i) {
      require(local_size[i] != 0, CL_INVALID_WORK_GROUP_SIZE, "a local size is 0");
      require(local_size[i] <= info.max_work_group_size[i], CL_INVALID_WORK_ITEM_SIZE,
              "a local size is above CL_DEVICE_MAX_WORK_ITEM_SIZES");
      range.local[i] = local_size[i];
      invocations *= local_size[i];
      if (required)
        require(local_size[i] == r.required_work_group_size[i], CL_INVALID_WORK_GROUP_SIZE,
                "the local size is not the kernel's reqd_work_group_size");
      if (options.uniform_work_groups && !empty)
        require(global_size[i] % local_size[i] == 0, CL_INVALID_WORK_GROUP_SIZE,
                "the global size is not a multiple of the local size, and the program needs uniform work-groups");
    }
    if (required)
      for (cl_uint i = work_dim; i < 3; ++i)
        require(r.required_work_group_size[i] == 1, CL_INVALID_WORK_GROUP_SIZE,
                "reqd_work_group_size has more dimensions than the range");
    require(invocations <= max_work_group_size(k, d), CL_INVALID_WORK_GROUP_SIZE,
            "the work-group is larger than CL_KERNEL_WORK_GROUP_SIZE");
  } else if (required) {
    for (cl_uint i = 0; i < work_dim; ++i) range.local[i] = r.required_work_group_size[i];
    if (options.uniform_work_groups && !empty)
      for (cl_uint i = 0; i < work_dim; ++i)
        require(global_size[i] % range.local[i] == 0, CL_INVALID_WORK_GROUP_SIZE,
                "the global size is not a multiple of reqd_work_group_size");
  } else if (options.uniform_work_groups && !empty) {
    range.local = uniform_local_size(range, max_work_group_size(k, d), info.max_work_group_size);
  }

  uint64_t local_bytes = r.static_local_memory;
  for (const KernelArgValue& a : args) local_bytes += a.local_bytes;
  require(local_bytes <= info.max_shared_memory, CL_OUT_OF_RESOURCES, "more __local memory than the device has");

  std::vector<Ref<Memory>> buffers;
  std::vector<bool> may_write;
  for (size_t i = 0; i < args.size(); ++i)
    if (args[i].memory) {
      buffers.emplace_back(args[i].memory);
      may_write.push_back(r.args[i].kind == ArgKind::GlobalPointer);
    }

  Work work;
  if (empty) {
    work = [](Execution&) {};  // a global size of 0: nothing to run (OpenCL 2.1 and later)
  } else {
    // Fixed now: the arguments and the pipelines for this range.
    std::shared_ptr<vkcl::CommandList> list;
    {
      std::lock_guard lock(d.lock);
      std::optional<vkcl::Kernel> runtime = k.runtime_kernel(d);
      list = std::make_shared<vkcl::CommandList>(d.runtime);
      try {
        list->enqueue(*runtime, range);
      } catch (const vkcl::Error& e) {
        throw ClError{CL_OUT_OF_RESOURCES, e.what()};
      }
    }
    work = [list, buffers, may_write](Execution& e) {
      for (const auto& b : buffers) b->make_current(e.device);
      {
        std::lock_guard lock(e.device.lock);
        const bool timestamps = e.profiling && e.device.runtime.has_timestamps();
        const cl_ulong submitted = now_ns();
        vkcl::Event done = e.device.runtime.submit(*list, vkcl::SubmitOptions{timestamps});
        done.wait();
        if (timestamps) {
          auto times = done.kernel_times();
          if (!times.empty())
            e.event.set_device_times(submitted + times.front().start.count(), submitted + times.front().end.count());
        }
      }
      for (size_t i = 0; i < buffers.size(); ++i)
        if (may_write[i]) buffers[i]->written_on(e.device);
    };
  }
  Ref<Event> e = q.enqueue(type, std::move(waits), std::move(work));
  return hand_out(std::move(e), event);
}

}  // namespace

cl_int CL_API_CALL enqueue_nd_range_kernel(cl_command_queue command_queue, cl_kernel kernel, cl_uint work_dim,
                                           const size_t* global_work_offset, const size_t* global_work_size,
                                           const size_t* local_work_size, cl_uint num_events_in_wait_list,
                                           const cl_event* event_wait_list, cl_event* event) {
  return guard([&] {
    Queue& q = get<Queue>(command_queue, CL_INVALID_COMMAND_QUEUE);
    Kernel& k = get<Kernel>(kernel, CL_INVALID_KERNEL);
    return enqueue_kernel(q, k, work_dim, global_work_offset, global_work_size, local_work_size,
                          num_events_in_wait_list, event_wait_list, event, CL_COMMAND_NDRANGE_KERNEL);
  });
}

cl_int CL_API_CALL enqueue_task(cl_command_queue command_queue, cl_kernel kernel, cl_uint num_events_in_wait_list,
                                const cl_event* event_wait_list, cl_event* event) {
  return guard([&] {
    Queue& q = get<Queue>(command_queue, CL_INVALID_COMMAND_QUEUE);
    Kernel& k = get<Kernel>(kernel, CL_INVALID_KERNEL);
    const size_t one = 1;
    return enqueue_kernel(q, k, 1, nullptr, &one, &one, num_events_in_wait_list, event_wait_list, event,
                          CL_COMMAND_TASK);
  });
}

}  // namespace vkcl::opencl

// Events through the ICD: statuses, callbacks, user events, errors that
// spread to the commands waiting, and profiling times.
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include "cl_test.h"

using vkcl_test::ClTest;
using vkcl_test::status_of;

namespace {

struct Seen {
  std::mutex mutex;
  std::vector<cl_int> statuses;
};

void CL_CALLBACK record(cl_event, cl_int status, void* data) {
  auto* seen = static_cast<Seen*>(data);
  std::lock_guard lock(seen->mutex);
  seen->statuses.push_back(status);
}

TEST_F(ClTest, CallbacksSeeEachStage) {
  cl_int error = CL_SUCCESS;
  cl_event gate = clCreateUserEvent(context, &error);
  cl_mem b = buffer(64);
  const char value = 3;
  cl_event e = nullptr;
  ASSERT_EQ(clEnqueueFillBuffer(queue, b, &value, 1, 0, 64, 1, &gate, &e), CL_SUCCESS);
  Seen seen;
  for (cl_int stage : {CL_COMPLETE, CL_RUNNING, CL_SUBMITTED}) EXPECT_EQ(clSetEventCallback(e, stage, record, &seen), CL_SUCCESS);
  EXPECT_EQ(clSetEventCallback(e, CL_QUEUED, record, &seen), CL_INVALID_VALUE);
  EXPECT_EQ(clSetEventCallback(e, CL_COMPLETE, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  EXPECT_EQ(clWaitForEvents(1, &e), CL_SUCCESS);
  // The complete callback may run on the worker just after the wait returns.
  for (int i = 0; i < 500; ++i) {
    {
      std::lock_guard lock(seen.mutex);
      if (seen.statuses.size() == 3) break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  std::lock_guard lock(seen.mutex);
  EXPECT_EQ(seen.statuses, (std::vector<cl_int>{CL_SUBMITTED, CL_RUNNING, CL_COMPLETE}));
  // Registered after the fact: called at once.
  Seen late;
  EXPECT_EQ(clSetEventCallback(e, CL_COMPLETE, record, &late), CL_SUCCESS);
  EXPECT_EQ(late.statuses, std::vector<cl_int>{CL_COMPLETE});
  clReleaseEvent(gate);
  clReleaseEvent(e);
  clReleaseMemObject(b);
}

// A callback that releases the queue its command ran on (the last
// reference) returns at once: the release does not wait for the worker
// that runs the callback (api/opencl/queue.cpp).
TEST_F(ClTest, ACallbackMayReleaseItsQueue) {
  struct Release {
    cl_command_queue queue;
    std::atomic<bool> done{false};
    std::chrono::steady_clock::duration took{};
  } release{clCreateCommandQueueWithProperties(context, device, nullptr, nullptr)};
  ASSERT_NE(release.queue, nullptr);
  cl_mem b = buffer(64);
  const int value = 3;
  cl_event e = nullptr;
  ASSERT_EQ(clEnqueueFillBuffer(release.queue, b, &value, sizeof value, 0, 64, 0, nullptr, &e), CL_SUCCESS);
  auto callback = [](cl_event, cl_int, void* data) {
    auto* r = static_cast<Release*>(data);
    const auto start = std::chrono::steady_clock::now();
    clReleaseCommandQueue(r->queue);
    r->took = std::chrono::steady_clock::now() - start;
    r->done = true;
  };
  ASSERT_EQ(clSetEventCallback(e, CL_COMPLETE, callback, &release), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &e), CL_SUCCESS);
  for (int i = 0; i < 600 && !release.done; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ASSERT_TRUE(release.done);
  EXPECT_LT(release.took, std::chrono::seconds(2));
  clReleaseEvent(e);
  clReleaseMemObject(b);
}

TEST_F(ClTest, AFailedUserEventFailsTheCommandsThatWaitForIt) {
  cl_int error = CL_SUCCESS;
  cl_event gate = clCreateUserEvent(context, &error);
  cl_mem b = buffer(64);
  std::vector<char> host(64);
  cl_event e = nullptr;
  ASSERT_EQ(clEnqueueReadBuffer(queue, b, CL_FALSE, 0, 64, host.data(), 1, &gate, &e), CL_SUCCESS);
  Seen seen;
  EXPECT_EQ(clSetEventCallback(e, CL_COMPLETE, record, &seen), CL_SUCCESS);
  EXPECT_EQ(clSetUserEventStatus(gate, -77), CL_SUCCESS);
  EXPECT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_INVALID_OPERATION);
  EXPECT_EQ(clWaitForEvents(1, &e), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  EXPECT_EQ(status_of(e), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  // A blocking call behind it reports the failure too.
  EXPECT_EQ(clEnqueueReadBuffer(queue, b, CL_TRUE, 0, 64, host.data(), 1, &e, nullptr),
            CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  for (int i = 0; i < 500 && seen.statuses.empty(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  std::lock_guard lock(seen.mutex);
  EXPECT_EQ(seen.statuses, std::vector<cl_int>{CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST});
  clReleaseEvent(gate);
  clReleaseEvent(e);
  clReleaseMemObject(b);
}

TEST_F(ClTest, UserEventAndWaitListErrors) {
  cl_int error = CL_SUCCESS;
  cl_event gate = clCreateUserEvent(context, &error);
  EXPECT_EQ(clSetUserEventStatus(gate, CL_RUNNING), CL_INVALID_VALUE);
  cl_command_queue q = nullptr;
  EXPECT_EQ(clGetEventInfo(gate, CL_EVENT_COMMAND_QUEUE, sizeof q, &q, nullptr), CL_SUCCESS);
  EXPECT_EQ(q, nullptr);
  cl_command_type type = 0;
  EXPECT_EQ(clGetEventInfo(gate, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr), CL_SUCCESS);
  EXPECT_EQ(type, cl_command_type(CL_COMMAND_USER));
  cl_ulong t = 0;
  EXPECT_EQ(clGetEventProfilingInfo(gate, CL_PROFILING_COMMAND_START, sizeof t, &t, nullptr),
            CL_PROFILING_INFO_NOT_AVAILABLE);
  EXPECT_EQ(clWaitForEvents(0, &gate), CL_INVALID_VALUE);
  EXPECT_EQ(clWaitForEvents(1, nullptr), CL_INVALID_VALUE);
  cl_event bogus = reinterpret_cast<cl_event>(context);
  EXPECT_EQ(clWaitForEvents(1, &bogus), CL_INVALID_EVENT);
  EXPECT_EQ(clEnqueueMarkerWithWaitList(queue, 1, nullptr, nullptr), CL_INVALID_EVENT_WAIT_LIST);
  EXPECT_EQ(clEnqueueMarkerWithWaitList(queue, 0, &gate, nullptr), CL_INVALID_EVENT_WAIT_LIST);
  EXPECT_EQ(clEnqueueMarkerWithWaitList(queue, 1, &bogus, nullptr), CL_INVALID_EVENT_WAIT_LIST);
  // An event of another context.
  cl_context other = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &error);
  cl_event foreign = clCreateUserEvent(other, &error);
  EXPECT_EQ(clEnqueueMarkerWithWaitList(queue, 1, &foreign, nullptr), CL_INVALID_CONTEXT);
  cl_event both[] = {gate, foreign};
  EXPECT_EQ(clWaitForEvents(2, both), CL_INVALID_CONTEXT);
  EXPECT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  EXPECT_EQ(clSetUserEventStatus(foreign, CL_COMPLETE), CL_SUCCESS);
  clReleaseEvent(foreign);
  clReleaseContext(other);
  cl_uint count = 0;
  EXPECT_EQ(clRetainEvent(gate), CL_SUCCESS);
  EXPECT_EQ(clGetEventInfo(gate, CL_EVENT_REFERENCE_COUNT, sizeof count, &count, nullptr), CL_SUCCESS);
  EXPECT_EQ(count, 2u);
  EXPECT_EQ(clReleaseEvent(gate), CL_SUCCESS);
  EXPECT_EQ(clReleaseEvent(gate), CL_SUCCESS);
  EXPECT_EQ(clReleaseEvent(nullptr), CL_INVALID_EVENT);
}

TEST_F(ClTest, ProfilingTimesAreOrdered) {
  cl_int error = CL_SUCCESS;
  const cl_queue_properties properties[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  cl_command_queue q = clCreateCommandQueueWithProperties(context, device, properties, &error);
  ASSERT_EQ(error, CL_SUCCESS);
  cl_program p = program("__kernel void busy(__global float* x) { size_t i = get_global_id(0);"
                         " float v = x[i]; for (int k = 0; k < 200; ++k) v = v * 0.999f + 1.0f; x[i] = v; }");
  cl_kernel k = kernel(p, "busy");
  cl_mem b = buffer(4096 * sizeof(float));
  const float zero = 0;
  ASSERT_EQ(clEnqueueFillBuffer(q, b, &zero, sizeof zero, 0, 4096 * sizeof(float), 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(k, 0, sizeof b, &b), CL_SUCCESS);
  const size_t global = 4096;
  cl_event e = nullptr;
  ASSERT_EQ(clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, nullptr, 0, nullptr, &e), CL_SUCCESS);
  cl_ulong t = 0;
  // Not before it is complete.
  EXPECT_EQ(clWaitForEvents(1, &e), CL_SUCCESS);
  cl_ulong times[5] = {};
  const cl_profiling_info which[] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                     CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END,
                                     CL_PROFILING_COMMAND_COMPLETE};
  for (int i = 0; i < 5; ++i)
    ASSERT_EQ(clGetEventProfilingInfo(e, which[i], sizeof times[i], &times[i], nullptr), CL_SUCCESS);
  for (int i = 1; i < 5; ++i) EXPECT_LE(times[i - 1], times[i]) << i;
  EXPECT_GT(times[3], times[2]);  // the kernel took some time
  EXPECT_EQ(clGetEventProfilingInfo(e, 0x7777, sizeof t, &t, nullptr), CL_INVALID_VALUE);
  // A queue without profiling has no times.
  cl_event plain = nullptr;
  ASSERT_EQ(clEnqueueMarkerWithWaitList(queue, 0, nullptr, &plain), CL_SUCCESS);
  clWaitForEvents(1, &plain);
  EXPECT_EQ(clGetEventProfilingInfo(plain, CL_PROFILING_COMMAND_END, sizeof t, &t, nullptr),
            CL_PROFILING_INFO_NOT_AVAILABLE);
  std::vector<float> result(4096);
  ASSERT_EQ(clEnqueueReadBuffer(q, b, CL_TRUE, 0, 4096 * sizeof(float), result.data(), 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_GT(result[0], 100.0f);
  clReleaseEvent(e);
  clReleaseEvent(plain);
  clReleaseMemObject(b);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
}

}  // namespace

// Contexts and command queues through the ICD: creation, info, reference
// counts, bad arguments, and the order commands run in.
#include <atomic>
#include <chrono>
#include <thread>

#include "cl_test.h"

using vkcl_test::ClTest;
using vkcl_test::status_of;

namespace {

TEST_F(ClTest, ContextInfoAndReferenceCount) {
  cl_uint n = 0;
  ASSERT_EQ(clGetContextInfo(context, CL_CONTEXT_NUM_DEVICES, sizeof n, &n, nullptr), CL_SUCCESS);
  EXPECT_EQ(n, 1u);
  cl_device_id d = nullptr;
  ASSERT_EQ(clGetContextInfo(context, CL_CONTEXT_DEVICES, sizeof d, &d, nullptr), CL_SUCCESS);
  EXPECT_EQ(d, device);
  size_t size = 1;
  ASSERT_EQ(clGetContextInfo(context, CL_CONTEXT_PROPERTIES, 0, nullptr, &size), CL_SUCCESS);
  EXPECT_EQ(size, 0u);  // none were given
  EXPECT_EQ(clRetainContext(context), CL_SUCCESS);
  ASSERT_EQ(clGetContextInfo(context, CL_CONTEXT_REFERENCE_COUNT, sizeof n, &n, nullptr), CL_SUCCESS);
  EXPECT_EQ(n, 2u);
  EXPECT_EQ(clReleaseContext(context), CL_SUCCESS);
  EXPECT_EQ(clGetContextInfo(context, 0x7777, sizeof n, &n, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetContextInfo(context, CL_CONTEXT_NUM_DEVICES, 1, &n, nullptr), CL_INVALID_VALUE);
}

TEST_F(ClTest, ContextProperties) {
  cl_context_properties properties[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platform), 0};
  cl_int error = CL_SUCCESS;
  cl_context c = clCreateContext(properties, 1, &device, nullptr, nullptr, &error);
  ASSERT_EQ(error, CL_SUCCESS);
  cl_context_properties got[3] = {};
  size_t size = 0;
  ASSERT_EQ(clGetContextInfo(c, CL_CONTEXT_PROPERTIES, sizeof got, got, &size), CL_SUCCESS);
  EXPECT_EQ(size, sizeof got);
  EXPECT_EQ(got[1], properties[1]);
  EXPECT_EQ(clReleaseContext(c), CL_SUCCESS);

  cl_context_properties bad_platform[] = {CL_CONTEXT_PLATFORM, 1234, 0};
  EXPECT_EQ(clCreateContext(bad_platform, 1, &device, nullptr, nullptr, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_PLATFORM);
  cl_context_properties unknown[] = {0x7777, 0, 0};
  EXPECT_EQ(clCreateContext(unknown, 1, &device, nullptr, nullptr, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_PROPERTY);
}

TEST_F(ClTest, ContextBadArguments) {
  cl_int error = CL_SUCCESS;
  EXPECT_EQ(clCreateContext(nullptr, 0, &device, nullptr, nullptr, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateContext(nullptr, 1, nullptr, nullptr, nullptr, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_VALUE);
  cl_device_id bogus = reinterpret_cast<cl_device_id>(queue);  // a handle of another kind
  EXPECT_EQ(clCreateContext(nullptr, 1, &bogus, nullptr, nullptr, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_DEVICE);
  int user_data = 0;
  EXPECT_EQ(clCreateContext(nullptr, 1, &device, nullptr, &user_data, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_VALUE);
  EXPECT_EQ(clReleaseContext(nullptr), CL_INVALID_CONTEXT);
  EXPECT_EQ(clRetainContext(reinterpret_cast<cl_context>(queue)), CL_INVALID_CONTEXT);
  EXPECT_EQ(clCreateContextFromType(nullptr, 0x100000, nullptr, nullptr, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_DEVICE_TYPE);
}

TEST_F(ClTest, ContextFromTypeAndDestructorCallbacks) {
  cl_int error = CL_SUCCESS;
  cl_context c = clCreateContextFromType(nullptr, CL_DEVICE_TYPE_ALL, nullptr, nullptr, &error);
  ASSERT_EQ(error, CL_SUCCESS);
  static std::vector<int> order;
  order.clear();
  auto callback = [](cl_context, void* data) { order.push_back(*static_cast<int*>(data)); };
  int first = 1, second = 2;
  EXPECT_EQ(clSetContextDestructorCallback(c, callback, &first), CL_SUCCESS);
  EXPECT_EQ(clSetContextDestructorCallback(c, callback, &second), CL_SUCCESS);
  EXPECT_EQ(clSetContextDestructorCallback(c, nullptr, nullptr), CL_INVALID_VALUE);
  // A queue holds the context: the callbacks wait for it.
  cl_command_queue q = clCreateCommandQueueWithProperties(c, device, nullptr, &error);
  EXPECT_EQ(clReleaseContext(c), CL_SUCCESS);
  EXPECT_TRUE(order.empty());
  EXPECT_EQ(clReleaseCommandQueue(q), CL_SUCCESS);
  for (int i = 0; i < 500 && order.size() < 2; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(order, (std::vector<int>{2, 1}));  // in reverse order of registration
}

TEST_F(ClTest, QueueInfoAndProperties) {
  cl_int error = CL_SUCCESS;
  const cl_queue_properties properties[] = {CL_QUEUE_PROPERTIES,
                                            CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE, 0};
  cl_command_queue q = clCreateCommandQueueWithProperties(context, device, properties, &error);
  ASSERT_EQ(error, CL_SUCCESS);
  cl_command_queue_properties flags = 0;
  EXPECT_EQ(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof flags, &flags, nullptr), CL_SUCCESS);
  EXPECT_EQ(flags, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
  cl_queue_properties array[3] = {};
  size_t size = 0;
  EXPECT_EQ(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, sizeof array, array, &size), CL_SUCCESS);
  EXPECT_EQ(size, sizeof array);
  cl_context c = nullptr;
  EXPECT_EQ(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof c, &c, nullptr), CL_SUCCESS);
  EXPECT_EQ(c, context);
  cl_device_id d = nullptr;
  EXPECT_EQ(clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof d, &d, nullptr), CL_SUCCESS);
  EXPECT_EQ(d, device);
  cl_uint size_value = 0;
  EXPECT_EQ(clGetCommandQueueInfo(q, CL_QUEUE_SIZE, sizeof size_value, &size_value, nullptr), CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(clReleaseCommandQueue(q), CL_SUCCESS);

  const cl_queue_properties on_device[] = {CL_QUEUE_PROPERTIES,
                                           CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
  EXPECT_EQ(clCreateCommandQueueWithProperties(context, device, on_device, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_QUEUE_PROPERTIES);
  const cl_queue_properties unknown[] = {0x7777, 0, 0};
  EXPECT_EQ(clCreateCommandQueueWithProperties(context, device, unknown, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateCommandQueueWithProperties(nullptr, device, nullptr, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_CONTEXT);
  EXPECT_EQ(clCreateCommandQueueWithProperties(context, nullptr, nullptr, &error), nullptr);
  EXPECT_EQ(error, CL_INVALID_DEVICE);
  EXPECT_EQ(clFlush(nullptr), CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(clFinish(reinterpret_cast<cl_command_queue>(context)), CL_INVALID_COMMAND_QUEUE);
}

// A user event holds back an in-order queue, and everything after it.
TEST_F(ClTest, InOrderQueueWaitsForUserEvent) {
  cl_int error = CL_SUCCESS;
  cl_event gate = clCreateUserEvent(context, &error);
  ASSERT_EQ(error, CL_SUCCESS);
  EXPECT_EQ(status_of(gate), CL_SUBMITTED);
  cl_mem b = buffer(16);
  const int value = 42;
  cl_event written = nullptr, marked = nullptr;
  ASSERT_EQ(clEnqueueFillBuffer(queue, b, &value, sizeof value, 0, 16, 1, &gate, &written), CL_SUCCESS);
  ASSERT_EQ(clEnqueueMarkerWithWaitList(queue, 0, nullptr, &marked), CL_SUCCESS);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_GT(status_of(written), CL_COMPLETE);
  EXPECT_GT(status_of(marked), CL_COMPLETE);
  EXPECT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  EXPECT_EQ(clWaitForEvents(1, &marked), CL_SUCCESS);
  EXPECT_EQ(status_of(written), CL_COMPLETE);
  EXPECT_EQ(read<int>(b, 4), std::vector<int>(4, 42));
  for (cl_event e : {gate, written, marked}) EXPECT_EQ(clReleaseEvent(e), CL_SUCCESS);
  EXPECT_EQ(clReleaseMemObject(b), CL_SUCCESS);
}

// In an out-of-order queue, a command blocked on a user event does not hold
// back one that does not wait for it; a barrier holds back what follows.
TEST_F(ClTest, OutOfOrderQueueRunsWhatIsReady) {
  cl_int error = CL_SUCCESS;
  const cl_queue_properties properties[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
  cl_command_queue q = clCreateCommandQueueWithProperties(context, device, properties, &error);
  ASSERT_EQ(error, CL_SUCCESS);
  cl_event gate = clCreateUserEvent(context, &error);
  cl_mem a = buffer(16), b = buffer(16);
  const int one = 1, two = 2;
  cl_event blocked = nullptr, free_running = nullptr, barrier = nullptr, after = nullptr;
  ASSERT_EQ(clEnqueueFillBuffer(q, a, &one, sizeof one, 0, 16, 1, &gate, &blocked), CL_SUCCESS);
  ASSERT_EQ(clEnqueueFillBuffer(q, b, &two, sizeof two, 0, 16, 0, nullptr, &free_running), CL_SUCCESS);
  EXPECT_EQ(clWaitForEvents(1, &free_running), CL_SUCCESS);  // would hang if it waited for `blocked`
  EXPECT_GT(status_of(blocked), CL_COMPLETE);
  ASSERT_EQ(clEnqueueBarrierWithWaitList(q, 0, nullptr, &barrier), CL_SUCCESS);
  ASSERT_EQ(clEnqueueFillBuffer(q, b, &one, sizeof one, 0, 16, 0, nullptr, &after), CL_SUCCESS);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_GT(status_of(barrier), CL_COMPLETE);
  EXPECT_GT(status_of(after), CL_COMPLETE);
  EXPECT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  EXPECT_EQ(clFinish(q), CL_SUCCESS);
  for (cl_event e : {blocked, barrier, after}) EXPECT_EQ(status_of(e), CL_COMPLETE);
  EXPECT_EQ(read<int>(a, 4), std::vector<int>(4, 1));
  EXPECT_EQ(read<int>(b, 4), std::vector<int>(4, 1));
  for (cl_event e : {gate, blocked, free_running, barrier, after}) clReleaseEvent(e);
  clReleaseMemObject(a);
  clReleaseMemObject(b);
  clReleaseCommandQueue(q);
}

// Commands run after the application released their queue.
// The last clReleaseCommandQueue runs what is ready before it returns (and
// so tears the queue down on the application's thread, not on its worker
// while the process may be exiting: api/opencl/queue.cpp).
TEST_F(ClTest, ReleasingAQueueRunsWhatIsReadyFirst) {
  cl_int error = CL_SUCCESS;
  cl_command_queue q = clCreateCommandQueueWithProperties(context, device, nullptr, &error);
  cl_mem b = buffer(1 << 20);
  const int value = 9;
  cl_event done = nullptr;
  ASSERT_EQ(clEnqueueFillBuffer(q, b, &value, sizeof value, 0, 1 << 20, 0, nullptr, &done), CL_SUCCESS);
  EXPECT_EQ(clReleaseCommandQueue(q), CL_SUCCESS);
  EXPECT_EQ(status_of(done), CL_COMPLETE);
  EXPECT_EQ(read<int>(b, 4), std::vector<int>(4, 9));
  clReleaseEvent(done);
  clReleaseMemObject(b);
}

// A command waiting for a user event does not hold the release for ever: it
// returns (after at most a few seconds) and the command runs once the event
// is set.
TEST_F(ClTest, ReleasingAQueueStillRunsItsCommands) {
  cl_int error = CL_SUCCESS;
  cl_command_queue q = clCreateCommandQueueWithProperties(context, device, nullptr, &error);
  cl_event gate = clCreateUserEvent(context, &error);
  cl_mem b = buffer(16);
  const int value = 7;
  cl_event done = nullptr;
  ASSERT_EQ(clEnqueueFillBuffer(q, b, &value, sizeof value, 0, 16, 1, &gate, &done), CL_SUCCESS);
  EXPECT_EQ(clReleaseCommandQueue(q), CL_SUCCESS);
  EXPECT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  EXPECT_EQ(clWaitForEvents(1, &done), CL_SUCCESS);
  EXPECT_EQ(read<int>(b, 4), std::vector<int>(4, 7));
  clReleaseEvent(gate);
  clReleaseEvent(done);
  clReleaseMemObject(b);
}

// Contexts made and released one after another, none alive in between, as a
// test process or a library's client makes them. On the H100 every context
// creation failed with CL_OUT_OF_RESOURCES after about 25 while the platform
// let the last context take the VkInstance with it (NVIDIA's driver does not
// give everything back; platform.cpp). Each round allocates, runs a kernel
// and reads back. The program comes from the first build's binary, so that
// the rounds cost no compilation.
TEST_F(ClTest, ContextsMadeOneAfterAnotherGiveEverythingBack) {
  cl_program first = program("kernel void add(global uint* x, uint v) { x[get_global_id(0)] += v; }");
  size_t size = 0;
  ASSERT_EQ(clGetProgramInfo(first, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr), CL_SUCCESS);
  std::vector<unsigned char> binary(size);
  unsigned char* binaries[] = {binary.data()};
  ASSERT_EQ(clGetProgramInfo(first, CL_PROGRAM_BINARIES, sizeof binaries, binaries, nullptr), CL_SUCCESS);
  clReleaseProgram(first);
  // The fixture's context goes first: no context outlives a round.
  ASSERT_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
  ASSERT_EQ(clReleaseContext(context), CL_SUCCESS);
  queue = nullptr;
  context = nullptr;

  constexpr size_t kItems = size_t(4) << 20;  // 16 MiB a round
  std::string why;
  auto notify = [](const char* message, const void*, size_t, void* user_data) {
    *static_cast<std::string*>(user_data) = message;
  };
  for (int round = 0; round < 100; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    cl_int error = CL_SUCCESS;
    cl_context c = clCreateContext(nullptr, 1, &device, notify, &why, &error);
    ASSERT_EQ(error, CL_SUCCESS) << why;
    cl_command_queue q = clCreateCommandQueueWithProperties(c, device, nullptr, &error);
    ASSERT_EQ(error, CL_SUCCESS);
    cl_mem b = clCreateBuffer(c, CL_MEM_READ_WRITE, kItems * sizeof(cl_uint), nullptr, &error);
    ASSERT_EQ(error, CL_SUCCESS);
    const unsigned char* code = binary.data();
    cl_program p = clCreateProgramWithBinary(c, 1, &device, &size, &code, nullptr, &error);
    ASSERT_EQ(error, CL_SUCCESS);
    ASSERT_EQ(clBuildProgram(p, 1, &device, "", nullptr, nullptr), CL_SUCCESS);
    cl_kernel k = clCreateKernel(p, "add", &error);
    ASSERT_EQ(error, CL_SUCCESS);
    const cl_uint zero = 0, value = cl_uint(round);
    ASSERT_EQ(clEnqueueFillBuffer(q, b, &zero, sizeof zero, 0, kItems * sizeof(cl_uint), 0, nullptr, nullptr),
              CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(k, 0, sizeof b, &b), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(k, 1, sizeof value, &value), CL_SUCCESS);
    ASSERT_EQ(clEnqueueNDRangeKernel(q, k, 1, nullptr, &kItems, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
    cl_uint last = 0;
    ASSERT_EQ(clEnqueueReadBuffer(q, b, CL_TRUE, (kItems - 1) * sizeof last, sizeof last, &last, 0, nullptr, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(last, value);
    EXPECT_EQ(clReleaseKernel(k), CL_SUCCESS);
    EXPECT_EQ(clReleaseProgram(p), CL_SUCCESS);
    EXPECT_EQ(clReleaseMemObject(b), CL_SUCCESS);
    EXPECT_EQ(clReleaseCommandQueue(q), CL_SUCCESS);
    EXPECT_EQ(clReleaseContext(c), CL_SUCCESS);
  }
}

}  // namespace

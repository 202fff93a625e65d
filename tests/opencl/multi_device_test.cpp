// A context of several devices: a buffer that one device writes and the
// other reads, ordered by events across their queues, and a program built
// for both. ctest gives it two devices on a machine with one GPU or none:
// lavapipe twice, through a copy of its driver under another name
// (tests/opencl/CMakeLists.txt). Skipped where the platform has one device.
#include "cl_test.h"

namespace {

class MultiDevice : public ::testing::Test {
 protected:
  void SetUp() override {
    cl_uint count = 0;
    ASSERT_EQ(clGetPlatformIDs(0, nullptr, &count), CL_SUCCESS);
    std::vector<cl_platform_id> platforms(count);
    clGetPlatformIDs(count, platforms.data(), nullptr);
    for (cl_platform_id p : platforms) {
      char name[64] = {};
      clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name, name, nullptr);
      if (std::string(name) == "vkcl") platform = p;
    }
    ASSERT_NE(platform, nullptr);
    cl_uint n = 0;
    clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &n);
    if (n < 2) GTEST_SKIP() << "the platform has " << n << " device(s)";
    devices.resize(2);
    clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 2, devices.data(), nullptr);
  }
  cl_platform_id platform = nullptr;
  std::vector<cl_device_id> devices;
};

TEST_F(MultiDevice, ABufferMovesBetweenDevicesInEventOrder) {
  cl_int error = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 2, devices.data(), nullptr, nullptr, &error);
  ASSERT_EQ(error, CL_SUCCESS);
  cl_uint n = 0;
  EXPECT_EQ(clGetContextInfo(context, CL_CONTEXT_NUM_DEVICES, sizeof n, &n, nullptr), CL_SUCCESS);
  EXPECT_EQ(n, 2u);
  cl_command_queue q0 = clCreateCommandQueueWithProperties(context, devices[0], nullptr, &error);
  cl_command_queue q1 = clCreateCommandQueueWithProperties(context, devices[1], nullptr, &error);
  const char* source =
      "__kernel void add_one(__global int* x) { x[get_global_id(0)] += 1; }\n"
      "__kernel void twice(__global int* x) { x[get_global_id(0)] *= 2; }\n";
  cl_program program = clCreateProgramWithSource(context, 1, &source, nullptr, &error);
  ASSERT_EQ(clBuildProgram(program, 0, nullptr, "", nullptr, nullptr), CL_SUCCESS);
  size_t sizes[2] = {};
  EXPECT_EQ(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof sizes, sizes, nullptr), CL_SUCCESS);
  EXPECT_GT(sizes[0], 0u);
  EXPECT_GT(sizes[1], 0u);
  cl_kernel add_one = clCreateKernel(program, "add_one", &error);
  cl_kernel twice = clCreateKernel(program, "twice", &error);

  const size_t count = 1000;
  std::vector<int> values(count);
  for (size_t i = 0; i < count; ++i) values[i] = int(i);
  cl_mem b = clCreateBuffer(context, CL_MEM_COPY_HOST_PTR, count * sizeof(int), values.data(), &error);
  ASSERT_EQ(error, CL_SUCCESS);
  clSetKernelArg(add_one, 0, sizeof b, &b);
  clSetKernelArg(twice, 0, sizeof b, &b);
  cl_event first = nullptr, second = nullptr, third = nullptr;
  ASSERT_EQ(clEnqueueNDRangeKernel(q0, add_one, 1, nullptr, &count, nullptr, 0, nullptr, &first), CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(q1, twice, 1, nullptr, &count, nullptr, 1, &first, &second), CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(q0, add_one, 1, nullptr, &count, nullptr, 1, &second, &third), CL_SUCCESS);
  std::vector<int> from1(count), from0(count);
  ASSERT_EQ(clEnqueueReadBuffer(q1, b, CL_TRUE, 0, count * sizeof(int), from1.data(), 1, &third, nullptr), CL_SUCCESS);
  ASSERT_EQ(clEnqueueReadBuffer(q0, b, CL_TRUE, 0, count * sizeof(int), from0.data(), 0, nullptr, nullptr), CL_SUCCESS);
  for (size_t i = 0; i < count; ++i) {
    ASSERT_EQ(from1[i], (int(i) + 1) * 2 + 1) << i;
    ASSERT_EQ(from0[i], (int(i) + 1) * 2 + 1) << i;
  }
  for (cl_event e : {first, second, third}) clReleaseEvent(e);
  clReleaseMemObject(b);
  clReleaseKernel(add_one);
  clReleaseKernel(twice);
  clReleaseProgram(program);
  clReleaseCommandQueue(q0);
  clReleaseCommandQueue(q1);
  clReleaseContext(context);
}

}  // namespace

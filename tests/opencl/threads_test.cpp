// Threads through the ICD: OpenCL requires every entry point to be
// thread-safe. N threads each build a program, make buffers, enqueue on a
// shared queue and on their own, and release everything, at once.
#include <atomic>
#include <thread>

#include "cl_test.h"

using vkcl_test::ClTest;

namespace {

TEST_F(ClTest, ThreadsBuildEnqueueAndReleaseAtOnce) {
  constexpr int kThreads = 8, kRounds = 3;
  std::atomic<int> failures{0};
  auto work = [&](int t) {
    for (int round = 0; round < kRounds; ++round) {
      cl_int error = CL_SUCCESS;
      const std::string source = "__kernel void add(__global int* x, int v) { x[get_global_id(0)] += v + " +
                                 std::to_string(t) + "; }";
      const char* text = source.c_str();
      cl_program p = clCreateProgramWithSource(context, 1, &text, nullptr, &error);
      if (clBuildProgram(p, 1, &device, "", nullptr, nullptr) != CL_SUCCESS) ++failures;
      cl_kernel k = clCreateKernel(p, "add", &error);
      cl_command_queue own = clCreateCommandQueueWithProperties(context, device, nullptr, &error);
      cl_mem b = clCreateBuffer(context, CL_MEM_READ_WRITE, 256 * sizeof(int), nullptr, &error);
      const int zero = 0, v = round;
      clEnqueueFillBuffer(own, b, &zero, sizeof zero, 0, 256 * sizeof(int), 0, nullptr, nullptr);
      clSetKernelArg(k, 0, sizeof b, &b);
      clSetKernelArg(k, 1, sizeof v, &v);
      const size_t global = 256;
      // Half on the shared queue, half on the thread's own.
      cl_command_queue q = (t % 2) ? queue : own;
      if (q == queue) clFinish(own);
      if (clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr) != CL_SUCCESS) ++failures;
      std::vector<int> got(256);
      clEnqueueReadBuffer(q, b, CL_TRUE, 0, 256 * sizeof(int), got.data(), 0, nullptr, nullptr);
      for (int x : got)
        if (x != v + t) {
          ++failures;
          break;
        }
      clReleaseMemObject(b);
      clReleaseKernel(k);
      clReleaseProgram(p);
      clReleaseCommandQueue(own);
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) threads.emplace_back(work, t);
  for (auto& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
}

}  // namespace

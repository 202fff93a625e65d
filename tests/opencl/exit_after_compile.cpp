// Compiles and runs one kernel through the ICD, releases everything and
// returns from main: exit_after_compile.cmake runs it with a fresh Mesa
// shader cache, which makes lavapipe write an entry and start the cache's
// thread queue, whose exit handler points into the driver library. If the
// Vulkan driver were unloaded before exit (the last VkInstance destroyed),
// that handler would crash the process after main (docs/opencl.md).
//
// It also leaves a context and a program to a static object made before
// main, which releases them from its destructor, after the drivers' exit
// handlers have run, as CLBlast's program cache does: on the H100 that
// crashed in NVIDIA's torn-down driver until releases during exit stopped
// destroying anything (Platform::exiting).
#include <CL/cl.h>

#include <cstdio>
#include <cstdlib>

namespace {

// Made before main (so destroyed after every exit handler registered later,
// the ICD's and the drivers'); releases what main left it.
struct ReleasedAtExit {
  cl_context context = nullptr;
  cl_program program = nullptr;
  ~ReleasedAtExit() {
    if (!context) return;
    const cl_int program_error = clReleaseProgram(program), context_error = clReleaseContext(context);
    if (program_error != CL_SUCCESS || context_error != CL_SUCCESS) {
      std::fprintf(stderr, "releases during exit failed: %d %d\n", program_error, context_error);
      std::_Exit(4);
    }
  }
} released_at_exit;

const char* kSource = "kernel void twice(global int* x) { x[get_global_id(0)] *= 2; }";

int fail(const char* what, cl_int error) {
  std::fprintf(stderr, "%s failed: %d\n", what, error);
  return 1;
}

}  // namespace

int main() {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  cl_int error = clGetPlatformIDs(1, &platform, nullptr);
  if (error) return fail("clGetPlatformIDs", error);
  if ((error = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr))) return fail("clGetDeviceIDs", error);
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &error);
  if (error) return fail("clCreateContext", error);
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, nullptr, &error);
  if (error) return fail("clCreateCommandQueueWithProperties", error);
  cl_program program = clCreateProgramWithSource(context, 1, &kSource, nullptr, &error);
  if (error) return fail("clCreateProgramWithSource", error);
  if ((error = clBuildProgram(program, 1, &device, "", nullptr, nullptr))) return fail("clBuildProgram", error);
  cl_kernel kernel = clCreateKernel(program, "twice", &error);
  if (error) return fail("clCreateKernel", error);
  int values[64];
  for (int i = 0; i < 64; ++i) values[i] = i;
  cl_mem buffer = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof values, values, &error);
  if (error) return fail("clCreateBuffer", error);
  if ((error = clSetKernelArg(kernel, 0, sizeof buffer, &buffer))) return fail("clSetKernelArg", error);
  const size_t global = 64;
  if ((error = clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global, nullptr, 0, nullptr, nullptr)))
    return fail("clEnqueueNDRangeKernel", error);
  if ((error = clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, sizeof values, values, 0, nullptr, nullptr)))
    return fail("clEnqueueReadBuffer", error);
  for (int i = 0; i < 64; ++i)
    if (values[i] != 2 * i) return fail("the kernel's result", values[i]);
  clReleaseMemObject(buffer);
  clReleaseKernel(kernel);
  clReleaseCommandQueue(queue);
  released_at_exit.context = context;
  released_at_exit.program = program;
  return 0;
}

// What the OpenCL API tests share: the vkcl platform's first device through
// Debian's ICD loader (ctest points OCL_ICD_VENDORS at the built library),
// a context and queue on it, and helpers that check every call.
#pragma once

#define CL_TARGET_OPENCL_VERSION 300
// clEnqueueTask and the other 1.x calls are tested too.
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace vkcl_test {

// Before anything loads lavapipe: the tests write nothing to the user's Mesa
// shader cache. (A new entry there once crashed a process after main, when
// the driver had been unloaded before exit; the ICD now keeps it loaded, and
// vkcl_opencl_exit_after_compile tests exactly that with a fresh cache.)
inline const int kNoMesaShaderCache = setenv("MESA_SHADER_CACHE_DISABLE", "true", 0);

// A fixture with the vkcl platform, its first device, a context and an
// in-order queue.
class ClTest : public ::testing::Test {
 protected:
  void SetUp() override {
    cl_uint count = 0;
    ASSERT_EQ(clGetPlatformIDs(0, nullptr, &count), CL_SUCCESS);
    std::vector<cl_platform_id> platforms(count);
    ASSERT_EQ(clGetPlatformIDs(count, platforms.data(), nullptr), CL_SUCCESS);
    for (cl_platform_id p : platforms) {
      char name[64] = {};
      clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name, name, nullptr);
      if (std::string(name) == "vkcl") platform = p;
    }
    ASSERT_NE(platform, nullptr) << "no vkcl platform: is OCL_ICD_VENDORS set?";
    ASSERT_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr), CL_SUCCESS);
    cl_int error = CL_SUCCESS;
    context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &error);
    ASSERT_EQ(error, CL_SUCCESS);
    queue = clCreateCommandQueueWithProperties(context, device, nullptr, &error);
    ASSERT_EQ(error, CL_SUCCESS);
  }
  void TearDown() override {
    if (queue) {
      EXPECT_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
    }
    if (context) {
      EXPECT_EQ(clReleaseContext(context), CL_SUCCESS);
    }
  }

  cl_mem buffer(size_t bytes, cl_mem_flags flags = CL_MEM_READ_WRITE, void* host = nullptr) {
    cl_int error = CL_SUCCESS;
    cl_mem b = clCreateBuffer(context, flags, bytes, host, &error);
    EXPECT_EQ(error, CL_SUCCESS);
    return b;
  }

  // Builds `source`; an empty result with the log in the failure message
  // when it does not build.
  cl_program program(const std::string& source, const char* options = "") {
    const char* text = source.c_str();
    cl_int error = CL_SUCCESS;
    cl_program p = clCreateProgramWithSource(context, 1, &text, nullptr, &error);
    EXPECT_EQ(error, CL_SUCCESS);
    error = clBuildProgram(p, 1, &device, options, nullptr, nullptr);
    EXPECT_EQ(error, CL_SUCCESS) << build_log(p);
    return p;
  }

  std::string build_log(cl_program p) {
    size_t size = 0;
    clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
    std::string log(size, '\0');
    clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
    return log.c_str();
  }

  cl_kernel kernel(cl_program p, const char* name) {
    cl_int error = CL_SUCCESS;
    cl_kernel k = clCreateKernel(p, name, &error);
    EXPECT_EQ(error, CL_SUCCESS);
    return k;
  }

  template <typename T>
  std::vector<T> read(cl_mem b, size_t count, size_t offset = 0) {
    std::vector<T> values(count);
    EXPECT_EQ(clEnqueueReadBuffer(queue, b, CL_TRUE, offset, count * sizeof(T), values.data(), 0, nullptr, nullptr),
              CL_SUCCESS);
    return values;
  }

  template <typename T>
  void write(cl_mem b, const std::vector<T>& values, size_t offset = 0) {
    EXPECT_EQ(clEnqueueWriteBuffer(queue, b, CL_TRUE, offset, values.size() * sizeof(T), values.data(), 0, nullptr,
                                   nullptr),
              CL_SUCCESS);
  }

  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
};

inline cl_int status_of(cl_event e) {
  cl_int status = 0;
  EXPECT_EQ(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr), CL_SUCCESS);
  return status;
}

}  // namespace vkcl_test

// The OpenCL ICD (api/opencl/) through Debian's ICD loader: ctest points
// ocl-icd at the built library (OCL_ICD_VENDORS), and every call here goes
// through libOpenCL.so.1 and the dispatch table as an application's would.
// Device answers are checked against what the runtime reads from Vulkan
// (vkcl::Device::list()).
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <regex>
#include <string>
#include <vector>

#include "reflection.h"
#include "vkcl/device.h"

namespace {

std::string platform_string(cl_platform_id p, cl_platform_info param) {
  size_t size = 0;
  EXPECT_EQ(clGetPlatformInfo(p, param, 0, nullptr, &size), CL_SUCCESS);
  std::string s(size, '\0');
  EXPECT_EQ(clGetPlatformInfo(p, param, size, s.data(), nullptr), CL_SUCCESS);
  EXPECT_TRUE(!s.empty() && s.back() == '\0');
  return s.c_str();
}

std::string device_string(cl_device_id d, cl_device_info param) {
  size_t size = 0;
  EXPECT_EQ(clGetDeviceInfo(d, param, 0, nullptr, &size), CL_SUCCESS);
  std::string s(size, '\0');
  EXPECT_EQ(clGetDeviceInfo(d, param, size, s.data(), nullptr), CL_SUCCESS);
  EXPECT_TRUE(!s.empty() && s.back() == '\0');
  return s.c_str();
}

template <typename T>
T device_value(cl_device_id d, cl_device_info param) {
  T value{};
  size_t size = 0;
  EXPECT_EQ(clGetDeviceInfo(d, param, sizeof(T), &value, &size), CL_SUCCESS) << std::hex << param;
  EXPECT_EQ(size, sizeof(T)) << std::hex << param;
  return value;
}

template <typename T>
std::vector<T> device_array(cl_device_id d, cl_device_info param) {
  size_t size = 0;
  EXPECT_EQ(clGetDeviceInfo(d, param, 0, nullptr, &size), CL_SUCCESS);
  EXPECT_EQ(size % sizeof(T), 0u);
  std::vector<T> values(size / sizeof(T));
  EXPECT_EQ(clGetDeviceInfo(d, param, size, values.data(), nullptr), CL_SUCCESS);
  return values;
}

bool has_word(const std::string& list, const std::string& word) {
  return (" " + list + " ").find(" " + word + " ") != std::string::npos;
}

class OpenCLIcd : public testing::Test {
 protected:
  void SetUp() override {
    cl_uint count = 0;
    ASSERT_EQ(clGetPlatformIDs(0, nullptr, &count), CL_SUCCESS) << "no platform: is OCL_ICD_VENDORS set?";
    std::vector<cl_platform_id> platforms(count);
    ASSERT_EQ(clGetPlatformIDs(count, platforms.data(), nullptr), CL_SUCCESS);
    for (cl_platform_id p : platforms)
      if (platform_string(p, CL_PLATFORM_NAME) == "vkcl") platform = p;
    ASSERT_NE(platform, nullptr) << "the vkcl platform is not among the loader's " << count;
    cl_uint n = 0;
    ASSERT_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &n), CL_SUCCESS);
    devices.resize(n);
    ASSERT_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, n, devices.data(), nullptr), CL_SUCCESS);
    vulkan = vkcl::Device::list();
  }

  cl_platform_id platform = nullptr;
  std::vector<cl_device_id> devices;
  std::vector<vkcl::DeviceInfo> vulkan;
};

TEST_F(OpenCLIcd, PlatformVersionIsWhatApplicationsParse) {
  // "OpenCL<space><major.minor><space><platform-specific information>", as PyOpenCL parses it.
  const std::string version = platform_string(platform, CL_PLATFORM_VERSION);
  std::smatch m;
  ASSERT_TRUE(std::regex_match(version, m, std::regex(R"(OpenCL (\d+)\.(\d+) (.+))"))) << version;
  EXPECT_EQ(m[1], "3");
  EXPECT_EQ(m[2], "0");
  cl_version numeric = 0;
  ASSERT_EQ(clGetPlatformInfo(platform, CL_PLATFORM_NUMERIC_VERSION, sizeof numeric, &numeric, nullptr), CL_SUCCESS);
  EXPECT_EQ(numeric, CL_MAKE_VERSION(3, 0, 0));
}

TEST_F(OpenCLIcd, PlatformQueries) {
  EXPECT_EQ(platform_string(platform, CL_PLATFORM_PROFILE), "FULL_PROFILE");
  EXPECT_FALSE(platform_string(platform, CL_PLATFORM_VENDOR).empty());
  EXPECT_EQ(platform_string(platform, CL_PLATFORM_ICD_SUFFIX_KHR), "vkcl");
  const std::string extensions = platform_string(platform, CL_PLATFORM_EXTENSIONS);
  EXPECT_TRUE(has_word(extensions, "cl_khr_icd")) << extensions;
  // The same list with versions.
  size_t size = 0;
  ASSERT_EQ(clGetPlatformInfo(platform, CL_PLATFORM_EXTENSIONS_WITH_VERSION, 0, nullptr, &size), CL_SUCCESS);
  ASSERT_EQ(size % sizeof(cl_name_version), 0u);
  std::vector<cl_name_version> with_version(size / sizeof(cl_name_version));
  ASSERT_EQ(clGetPlatformInfo(platform, CL_PLATFORM_EXTENSIONS_WITH_VERSION, size, with_version.data(), nullptr),
            CL_SUCCESS);
  std::string names;
  for (const cl_name_version& nv : with_version) names += (names.empty() ? "" : " ") + std::string(nv.name);
  EXPECT_EQ(names, extensions);
  cl_ulong resolution = 1;
  ASSERT_EQ(clGetPlatformInfo(platform, CL_PLATFORM_HOST_TIMER_RESOLUTION, sizeof resolution, &resolution, &size),
            CL_SUCCESS);
  EXPECT_EQ(size, sizeof(cl_ulong));
  EXPECT_EQ(resolution, 0u);  // no host timer yet
}

TEST_F(OpenCLIcd, PlatformBadArguments) {
  size_t size = 0;
  EXPECT_EQ(clGetPlatformInfo(platform, 0x7fff, 0, nullptr, &size), CL_INVALID_VALUE);
  char small[4];
  size = 0;
  EXPECT_EQ(clGetPlatformInfo(platform, CL_PLATFORM_VERSION, sizeof small, small, &size), CL_INVALID_VALUE);
  EXPECT_EQ(size, platform_string(platform, CL_PLATFORM_VERSION).size() + 1);  // still right
  // A device is not a platform: the loader dispatches it to vkcl, which refuses it.
  ASSERT_FALSE(devices.empty());
  EXPECT_EQ(clGetPlatformInfo(reinterpret_cast<cl_platform_id>(devices[0]), CL_PLATFORM_NAME, 0, nullptr, &size),
            CL_INVALID_PLATFORM);
  cl_uint n = 0;
  EXPECT_EQ(clGetDeviceIDs(reinterpret_cast<cl_platform_id>(devices[0]), CL_DEVICE_TYPE_ALL, 0, nullptr, &n),
            CL_INVALID_PLATFORM);
}

TEST_F(OpenCLIcd, ADevicePerVulkanPhysicalDeviceWithItsType) {
  ASSERT_EQ(devices.size(), vulkan.size());
  size_t cpus = 0, gpus = 0, others = 0;
  for (size_t i = 0; i < devices.size(); ++i) {
    const cl_device_type type = device_value<cl_device_type>(devices[i], CL_DEVICE_TYPE);
    switch (vulkan[i].type) {
      case VK_PHYSICAL_DEVICE_TYPE_CPU: EXPECT_EQ(type, cl_device_type(CL_DEVICE_TYPE_CPU)); ++cpus; break;
      case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
      case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
      case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: EXPECT_EQ(type, cl_device_type(CL_DEVICE_TYPE_GPU)); ++gpus; break;
      default: EXPECT_EQ(type, cl_device_type(CL_DEVICE_TYPE_ACCELERATOR)); ++others;
    }
    EXPECT_EQ(device_string(devices[i], CL_DEVICE_NAME), vulkan[i].name);
  }
  // Each type filter: its devices, or CL_DEVICE_NOT_FOUND.
  for (auto [filter, expected] : {std::pair{CL_DEVICE_TYPE_CPU, cpus}, std::pair{CL_DEVICE_TYPE_GPU, gpus},
                                  std::pair{CL_DEVICE_TYPE_ACCELERATOR, others},
                                  std::pair{CL_DEVICE_TYPE_CUSTOM, size_t(0)}}) {
    cl_uint n = 99;
    EXPECT_EQ(clGetDeviceIDs(platform, filter, 0, nullptr, &n), expected ? CL_SUCCESS : CL_DEVICE_NOT_FOUND) << filter;
    EXPECT_EQ(n, expected) << filter;
  }
  // The default device is the first.
  cl_device_id first = nullptr;
  cl_uint n = 0;
  ASSERT_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_DEFAULT, 1, &first, &n), CL_SUCCESS);
  EXPECT_EQ(n, 1u);
  EXPECT_EQ(first, devices[0]);
}

TEST_F(OpenCLIcd, DeviceAnswersAreVulkans) {
  for (size_t i = 0; i < devices.size(); ++i) {
    const cl_device_id d = devices[i];
    const vkcl::DeviceInfo& v = vulkan[i];
    SCOPED_TRACE(v.name);
    EXPECT_EQ(device_value<size_t>(d, CL_DEVICE_MAX_WORK_GROUP_SIZE), v.max_work_group_invocations);
    const auto sizes = device_array<size_t>(d, CL_DEVICE_MAX_WORK_ITEM_SIZES);
    ASSERT_EQ(sizes.size(), 3u);
    for (int k = 0; k < 3; ++k) EXPECT_EQ(sizes[k], v.max_work_group_size[k]);
    EXPECT_EQ(device_value<cl_uint>(d, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS), 3u);
    EXPECT_EQ(device_value<cl_ulong>(d, CL_DEVICE_LOCAL_MEM_SIZE), v.max_shared_memory);
    EXPECT_EQ(device_value<size_t>(d, CL_DEVICE_MAX_PARAMETER_SIZE), vkcl::kMaxArgumentBufferSize);
    EXPECT_EQ(device_value<cl_uint>(d, CL_DEVICE_VENDOR_ID), v.vendor_id);
    EXPECT_EQ(device_value<cl_uint>(d, CL_DEVICE_ADDRESS_BITS), 64u);
    EXPECT_EQ(device_value<cl_bool>(d, CL_DEVICE_ENDIAN_LITTLE), cl_bool(CL_TRUE));
    EXPECT_EQ(device_value<cl_bool>(d, CL_DEVICE_AVAILABLE), cl_bool(v.unusable.empty()));
    EXPECT_EQ(device_value<cl_bool>(d, CL_DEVICE_COMPILER_AVAILABLE), cl_bool(CL_TRUE));
    EXPECT_EQ(device_value<cl_bool>(d, CL_DEVICE_IMAGE_SUPPORT), cl_bool(CL_FALSE));
    EXPECT_EQ(device_value<cl_platform_id>(d, CL_DEVICE_PLATFORM), platform);
    EXPECT_EQ(device_value<cl_uint>(d, CL_DEVICE_REFERENCE_COUNT), 1u);
    const cl_ulong global = device_value<cl_ulong>(d, CL_DEVICE_GLOBAL_MEM_SIZE);
    cl_ulong heaps = 0;
    for (const auto& heap : v.heaps) heaps += heap.size;
    EXPECT_GT(global, 0u);
    EXPECT_LE(global, heaps);
    EXPECT_EQ(device_value<cl_ulong>(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE), std::min<cl_ulong>(v.max_allocation_size, global));
    EXPECT_EQ(device_value<size_t>(d, CL_DEVICE_PROFILING_TIMER_RESOLUTION),
              std::max<size_t>(1, size_t(v.timestamp_period + 0.5f)));
    EXPECT_EQ(device_value<size_t>(d, CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE), std::max(v.subgroup_size, 1u));

    std::smatch m;
    const std::string version = device_string(d, CL_DEVICE_VERSION);
    EXPECT_TRUE(std::regex_match(version, m, std::regex(R"(OpenCL 3\.0 .+)"))) << version;
    EXPECT_EQ(device_value<cl_version>(d, CL_DEVICE_NUMERIC_VERSION), CL_MAKE_VERSION(3, 0, 0));
    EXPECT_EQ(device_string(d, CL_DEVICE_PROFILE), "FULL_PROFILE");
    EXPECT_TRUE(std::regex_match(device_string(d, CL_DEVICE_OPENCL_C_VERSION), std::regex(R"(OpenCL C 1\.2 .*)")));
    // Never a claim of conformance.
    EXPECT_EQ(device_string(d, CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED), "v0000-01-01-00");

    // Doubles and halves exactly where Vulkan has them.
    const std::string extensions = device_string(d, CL_DEVICE_EXTENSIONS);
    // Doubles where the device has them and keeps their subnormals
    // (api/opencl/device.cpp: the preserve mode, llvmpipe or NVIDIA).
    const bool fp64 = v.features.shader_float64 && (v.features.denorm_preserve_float64 ||
                                                    v.driver_name == "llvmpipe" || v.vendor_id == 0x10de);
    EXPECT_EQ(has_word(extensions, "cl_khr_fp64"), fp64) << extensions;
    EXPECT_EQ(device_value<cl_device_fp_config>(d, CL_DEVICE_DOUBLE_FP_CONFIG) != 0, fp64);
    if (fp64) {  // what a device with doubles must offer (OpenCL 1.2 and math_brute_force)
      const cl_device_fp_config required = CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO |
                                           CL_FP_ROUND_TO_INF | CL_FP_INF_NAN | CL_FP_DENORM;
      EXPECT_EQ(device_value<cl_device_fp_config>(d, CL_DEVICE_DOUBLE_FP_CONFIG) & required, required);
    }
    EXPECT_EQ(device_value<cl_uint>(d, CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE) != 0, fp64);
    // Halves where the device computes in half and keeps 16-bit values and
    // their bits in buffers (api/opencl/device.cpp).
    const bool fp16 = v.features.shader_float16 && v.features.shader_int16 && v.features.storage_buffer_16bit;
    EXPECT_EQ(has_word(extensions, "cl_khr_fp16"), fp16) << extensions;
    const cl_device_fp_config half_config = device_value<cl_device_fp_config>(d, CL_DEVICE_HALF_FP_CONFIG);
    EXPECT_EQ(half_config != 0, fp16);
    if (fp16) {
      // Rounding to nearest always; subnormals exactly where the device keeps them.
      EXPECT_TRUE(half_config & CL_FP_ROUND_TO_NEAREST);
      EXPECT_TRUE(half_config & CL_FP_FMA);
      EXPECT_EQ((half_config & CL_FP_DENORM) != 0, v.features.denorm_preserve_float16);
      EXPECT_EQ((half_config & CL_FP_INF_NAN) != 0, v.features.signed_zero_inf_nan_preserve_float16);
      EXPECT_EQ(half_config & (CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF), 0u);
    }
    EXPECT_EQ(device_value<cl_uint>(d, CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF) != 0, fp16);
    EXPECT_EQ(device_value<cl_uint>(d, CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF) != 0, fp16);
    EXPECT_TRUE(device_value<cl_device_fp_config>(d, CL_DEVICE_SINGLE_FP_CONFIG) & CL_FP_ROUND_TO_NEAREST);
    // The string and the versioned list agree, and the features agree with them.
    std::string names;
    for (const cl_name_version& nv : device_array<cl_name_version>(d, CL_DEVICE_EXTENSIONS_WITH_VERSION))
      names += (names.empty() ? "" : " ") + std::string(nv.name);
    EXPECT_EQ(names, extensions);
    bool fp64_feature = false, subgroups_feature = false;
    for (const cl_name_version& nv : device_array<cl_name_version>(d, CL_DEVICE_OPENCL_C_FEATURES)) {
      fp64_feature |= std::strcmp(nv.name, "__opencl_c_fp64") == 0;
      subgroups_feature |= std::strcmp(nv.name, "__opencl_c_subgroups") == 0;
    }
    EXPECT_EQ(fp64_feature, v.features.shader_float64);
    // The extension needs independent forward progress too (NVIDIA only,
    // api/opencl/device.cpp), and claims it; the feature does not.
    const cl_bool forward_progress = device_value<cl_bool>(d, CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS);
    EXPECT_EQ(has_word(extensions, "cl_khr_subgroups"), subgroups_feature && forward_progress);
    EXPECT_EQ(forward_progress == CL_TRUE, subgroups_feature && v.vendor_id == 0x10de);
    EXPECT_EQ(device_value<cl_uint>(d, CL_DEVICE_MAX_NUM_SUB_GROUPS) != 0, subgroups_feature);
  }
}

// Every CL_DEVICE_* query of cl.h (and CL_DEVICE_HALF_FP_CONFIG of cl_ext.h)
// answers CL_SUCCESS with a value of its type's size.
TEST_F(OpenCLIcd, EveryDeviceQueryAnswers) {
  enum Kind { Scalar, String, Array };
  struct Query {
    cl_device_info param;
    Kind kind;
    size_t size;  // of the scalar, or of an array's element
  };
  const size_t u = sizeof(cl_uint), z = sizeof(size_t), l = sizeof(cl_ulong), b = sizeof(cl_bool),
               nv = sizeof(cl_name_version), p = sizeof(void*), pp = sizeof(cl_device_partition_property);
  const Query queries[] = {
      {CL_DEVICE_TYPE, Scalar, l}, {CL_DEVICE_VENDOR_ID, Scalar, u}, {CL_DEVICE_MAX_COMPUTE_UNITS, Scalar, u},
      {CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, Scalar, u}, {CL_DEVICE_MAX_WORK_GROUP_SIZE, Scalar, z},
      {CL_DEVICE_MAX_WORK_ITEM_SIZES, Array, z}, {CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, Scalar, u},
      {CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT, Scalar, u}, {CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, Scalar, u},
      {CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG, Scalar, u}, {CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, Scalar, u},
      {CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, Scalar, u}, {CL_DEVICE_MAX_CLOCK_FREQUENCY, Scalar, u},
      {CL_DEVICE_ADDRESS_BITS, Scalar, u}, {CL_DEVICE_MAX_READ_IMAGE_ARGS, Scalar, u},
      {CL_DEVICE_MAX_WRITE_IMAGE_ARGS, Scalar, u}, {CL_DEVICE_MAX_MEM_ALLOC_SIZE, Scalar, l},
      {CL_DEVICE_IMAGE2D_MAX_WIDTH, Scalar, z}, {CL_DEVICE_IMAGE2D_MAX_HEIGHT, Scalar, z},
      {CL_DEVICE_IMAGE3D_MAX_WIDTH, Scalar, z}, {CL_DEVICE_IMAGE3D_MAX_HEIGHT, Scalar, z},
      {CL_DEVICE_IMAGE3D_MAX_DEPTH, Scalar, z}, {CL_DEVICE_IMAGE_SUPPORT, Scalar, b},
      {CL_DEVICE_MAX_PARAMETER_SIZE, Scalar, z}, {CL_DEVICE_MAX_SAMPLERS, Scalar, u},
      {CL_DEVICE_MEM_BASE_ADDR_ALIGN, Scalar, u}, {CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE, Scalar, u},
      {CL_DEVICE_SINGLE_FP_CONFIG, Scalar, l}, {CL_DEVICE_GLOBAL_MEM_CACHE_TYPE, Scalar, u},
      {CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, Scalar, u}, {CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, Scalar, l},
      {CL_DEVICE_GLOBAL_MEM_SIZE, Scalar, l}, {CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, Scalar, l},
      {CL_DEVICE_MAX_CONSTANT_ARGS, Scalar, u}, {CL_DEVICE_LOCAL_MEM_TYPE, Scalar, u},
      {CL_DEVICE_LOCAL_MEM_SIZE, Scalar, l}, {CL_DEVICE_ERROR_CORRECTION_SUPPORT, Scalar, b},
      {CL_DEVICE_PROFILING_TIMER_RESOLUTION, Scalar, z}, {CL_DEVICE_ENDIAN_LITTLE, Scalar, b},
      {CL_DEVICE_AVAILABLE, Scalar, b}, {CL_DEVICE_COMPILER_AVAILABLE, Scalar, b},
      {CL_DEVICE_EXECUTION_CAPABILITIES, Scalar, l}, {CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, Scalar, l},
      {CL_DEVICE_NAME, String, 1}, {CL_DEVICE_VENDOR, String, 1}, {CL_DRIVER_VERSION, String, 1},
      {CL_DEVICE_PROFILE, String, 1}, {CL_DEVICE_VERSION, String, 1}, {CL_DEVICE_EXTENSIONS, String, 1},
      {CL_DEVICE_PLATFORM, Scalar, p}, {CL_DEVICE_DOUBLE_FP_CONFIG, Scalar, l}, {CL_DEVICE_HALF_FP_CONFIG, Scalar, l},
      {CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF, Scalar, u}, {CL_DEVICE_HOST_UNIFIED_MEMORY, Scalar, b},
      {CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR, Scalar, u}, {CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT, Scalar, u},
      {CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, Scalar, u}, {CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG, Scalar, u},
      {CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, Scalar, u}, {CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE, Scalar, u},
      {CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF, Scalar, u}, {CL_DEVICE_OPENCL_C_VERSION, String, 1},
      {CL_DEVICE_LINKER_AVAILABLE, Scalar, b}, {CL_DEVICE_BUILT_IN_KERNELS, String, 1},
      {CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, Scalar, z}, {CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, Scalar, z},
      {CL_DEVICE_PARENT_DEVICE, Scalar, p}, {CL_DEVICE_PARTITION_MAX_SUB_DEVICES, Scalar, u},
      {CL_DEVICE_PARTITION_PROPERTIES, Array, pp}, {CL_DEVICE_PARTITION_AFFINITY_DOMAIN, Scalar, l},
      {CL_DEVICE_PARTITION_TYPE, Array, pp}, {CL_DEVICE_REFERENCE_COUNT, Scalar, u},
      {CL_DEVICE_PREFERRED_INTEROP_USER_SYNC, Scalar, b}, {CL_DEVICE_PRINTF_BUFFER_SIZE, Scalar, z},
      {CL_DEVICE_IMAGE_PITCH_ALIGNMENT, Scalar, u}, {CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT, Scalar, u},
      {CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS, Scalar, u}, {CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, Scalar, z},
      {CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES, Scalar, l}, {CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE, Scalar, u},
      {CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, Scalar, u}, {CL_DEVICE_MAX_ON_DEVICE_QUEUES, Scalar, u},
      {CL_DEVICE_MAX_ON_DEVICE_EVENTS, Scalar, u}, {CL_DEVICE_SVM_CAPABILITIES, Scalar, l},
      {CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE, Scalar, z}, {CL_DEVICE_MAX_PIPE_ARGS, Scalar, u},
      {CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS, Scalar, u}, {CL_DEVICE_PIPE_MAX_PACKET_SIZE, Scalar, u},
      {CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT, Scalar, u},
      {CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT, Scalar, u},
      {CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT, Scalar, u}, {CL_DEVICE_IL_VERSION, String, 1},
      {CL_DEVICE_MAX_NUM_SUB_GROUPS, Scalar, u}, {CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, Scalar, b},
      {CL_DEVICE_NUMERIC_VERSION, Scalar, u}, {CL_DEVICE_EXTENSIONS_WITH_VERSION, Array, nv},
      {CL_DEVICE_ILS_WITH_VERSION, Array, nv}, {CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION, Array, nv},
      {CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, Scalar, l}, {CL_DEVICE_ATOMIC_FENCE_CAPABILITIES, Scalar, l},
      {CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, Scalar, b}, {CL_DEVICE_OPENCL_C_ALL_VERSIONS, Array, nv},
      {CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, Scalar, z},
      {CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT, Scalar, b},
      {CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, Scalar, b}, {CL_DEVICE_OPENCL_C_FEATURES, Array, nv},
      {CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, Scalar, l}, {CL_DEVICE_PIPE_SUPPORT, Scalar, b},
      {CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED, String, 1},
      {CL_DEVICE_OPENCL_C_NUMERIC_VERSION_KHR, Scalar, u},
  };
  for (cl_device_id d : devices)
    for (const Query& q : queries) {
      SCOPED_TRACE(testing::Message() << "param 0x" << std::hex << q.param);
      size_t size = 12345;
      ASSERT_EQ(clGetDeviceInfo(d, q.param, 0, nullptr, &size), CL_SUCCESS);
      std::vector<char> value(size + 1, '\x7f');
      size_t again = 0;
      ASSERT_EQ(clGetDeviceInfo(d, q.param, size, value.data(), &again), CL_SUCCESS);
      EXPECT_EQ(again, size);
      EXPECT_EQ(value[size], '\x7f');  // nothing written past the size it gave
      switch (q.kind) {
        case Scalar: EXPECT_EQ(size, q.size); break;
        case String:
          ASSERT_GE(size, 1u);
          EXPECT_EQ(value[size - 1], '\0');
          EXPECT_EQ(std::strlen(value.data()) + 1, size);
          break;
        case Array: EXPECT_EQ(size % q.size, 0u); break;
      }
    }
}

TEST_F(OpenCLIcd, DeviceBadArguments) {
  ASSERT_FALSE(devices.empty());
  const cl_device_id d = devices[0];
  size_t size = 0;
  EXPECT_EQ(clGetDeviceInfo(d, 0x7fff, 0, nullptr, &size), CL_INVALID_VALUE);
  char small[2];
  EXPECT_EQ(clGetDeviceInfo(d, CL_DEVICE_NAME, sizeof small, small, &size), CL_INVALID_VALUE);
  EXPECT_EQ(size, device_string(d, CL_DEVICE_NAME).size() + 1);
  cl_uint count = 0;
  EXPECT_EQ(clGetDeviceInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof count - 1, &count, nullptr), CL_INVALID_VALUE);
  // A platform is not a device: the loader dispatches it to vkcl, which refuses it.
  EXPECT_EQ(clGetDeviceInfo(reinterpret_cast<cl_device_id>(platform), CL_DEVICE_NAME, 0, nullptr, &size),
            CL_INVALID_DEVICE);
  EXPECT_EQ(clGetDeviceIDs(platform, cl_device_type(1) << 40, 0, nullptr, &count), CL_INVALID_DEVICE_TYPE);
  cl_device_id out = nullptr;
  EXPECT_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, &out, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, nullptr, nullptr), CL_INVALID_VALUE);
  // Root devices: retain and release do nothing, and none can be partitioned.
  EXPECT_EQ(clRetainDevice(d), CL_SUCCESS);
  EXPECT_EQ(clReleaseDevice(d), CL_SUCCESS);
  EXPECT_EQ(clReleaseDevice(d), CL_SUCCESS);
  EXPECT_EQ(device_value<cl_uint>(d, CL_DEVICE_REFERENCE_COUNT), 1u);
  const cl_device_partition_property equally[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  EXPECT_EQ(clCreateSubDevices(d, equally, 0, nullptr, &count), CL_INVALID_VALUE);
  EXPECT_EQ(device_array<cl_device_partition_property>(d, CL_DEVICE_PARTITION_PROPERTIES),
            std::vector<cl_device_partition_property>{0});
}

TEST_F(OpenCLIcd, WhatIsNotImplementedYetSaysSo) {
  ASSERT_FALSE(devices.empty());
  cl_ulong host = 0;
  EXPECT_EQ(clGetHostTimer(devices[0], &host), CL_INVALID_OPERATION);
}

TEST_F(OpenCLIcd, ExtensionFunctions) {
  EXPECT_NE(clGetExtensionFunctionAddressForPlatform(platform, "clIcdGetPlatformIDsKHR"), nullptr);
  EXPECT_EQ(clGetExtensionFunctionAddressForPlatform(platform, "clNoSuchFunctionVKCL"), nullptr);
}

}  // namespace

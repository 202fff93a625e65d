// vkcl's OpenCL ICD: the objects behind cl_platform_id and cl_device_id.
//
// Why in api/: the ICD sits on both halves of vkcl. Its devices, queues and
// memory are the runtime's (host/: vkcl::Device, Buffer, CommandList); its
// programs are built by the compiler, in a child process
// (vkcl_from_source_contained, vkcl/compile_worker.h: no compiler in the
// application's process). api/ is the one place that may depend on both
// (docs/design.md, "Layout").
//
// The ICD model (cl_khr_icd): an ICD loader (Debian's ocl-icd) finds
// libvkcl-opencl.so through an .icd file, asks clGetExtensionFunctionAddress
// for clIcdGetPlatformIDsKHR, and from then on calls every API function
// through the dispatch table that is the first member of every CL object.
// So every handle this library gives out points at a struct whose first
// member is that table (the _cl_* structs below), and nothing else is
// exported (exports.map).
//
// The other objects (contexts, queues, events, memory, programs, kernels)
// are in object.h and the files named for them. What is not implemented
// (images, samplers, SVM, pipes, sharing with GL and others) answers as the
// specification says for devices without it (unsupported.cpp) or returns
// CL_INVALID_OPERATION (not_yet.h).
#pragma once

#define CL_TARGET_OPENCL_VERSION 300
// The dispatch table has an entry for every deprecated function too.
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_2_0_APIS
#define CL_USE_DEPRECATED_OPENCL_2_1_APIS
#define CL_USE_DEPRECATED_OPENCL_2_2_APIS
#include <CL/cl_icd.h>

#include <atomic>
#include <cstddef>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

#include "compile_options.h"
#include "vkcl/device.h"

namespace vkcl::opencl {
class Platform;
struct Device;
}  // namespace vkcl::opencl

// The handles. Standard layout, dispatch first: the loader reads the table
// through the handle before vkcl sees the call.
struct _cl_platform_id {
  const cl_icd_dispatch* dispatch;
  const vkcl::opencl::Platform* platform;
};
struct _cl_device_id {
  const cl_icd_dispatch* dispatch;
  const vkcl::opencl::Device* device;
};
static_assert(std::is_standard_layout_v<_cl_platform_id> && offsetof(_cl_platform_id, dispatch) == 0);
static_assert(std::is_standard_layout_v<_cl_device_id> && offsetof(_cl_device_id, dispatch) == 0);

namespace vkcl::opencl {

// The one table every vkcl object points at (dispatch.cpp).
extern const cl_icd_dispatch kDispatch;

// "0.1.0": vkcl's version (the CMake project's).
inline constexpr const char* kVersion = VKCL_VERSION;

// One Vulkan physical device as an OpenCL device: what clGetDeviceInfo
// answers from (device_info.cpp), fixed when the platform is made.
struct Device {
  _cl_device_id handle;
  DeviceInfo vulkan;               // Device::list()'s entry: limits, features, heaps
  cl_device_type type = 0;         // CL_DEVICE_TYPE_CPU, _GPU or _ACCELERATOR
  bool available = false;          // vkcl can run on it (vulkan.unusable is empty)
  std::vector<cl_name_version> extensions;   // CL_DEVICE_EXTENSIONS_WITH_VERSION
  std::string extension_names;               // CL_DEVICE_EXTENSIONS: the same, space-separated
  std::vector<cl_name_version> c_features;   // CL_DEVICE_OPENCL_C_FEATURES
  bool subgroups = false;          // __opencl_c_subgroups
  bool subgroup_forward_progress = false;  // and cl_khr_subgroups (device.cpp says where)
  // cl_khr_fp64: shaderFloat64, and double subnormals kept (OpenCL requires
  // CL_FP_DENORM of every device with doubles; device.cpp says where).
  bool fp64 = false;
  bool double_subnormals = false;
  // cl_khr_fp16: never yet (device.cpp says why).
  bool fp16 = false;
  // The clang option that makes a compile for this device define exactly
  // its extensions' and OpenCL C features' macros ("-cl-ext=-all,+...").
  std::string opencl_c_macros;
  // `options` with what every compile for this device adds:
  // opencl_c_macros, and __OPENCL_VERSION__, which clang leaves to the
  // implementation (the device's OpenCL version, 300).
  CompileOptions for_compiling(CompileOptions options) const;

  Device(const DeviceInfo& info, cl_platform_id platform);
  cl_platform_id platform;
};

// The platform: "vkcl", with a device per Vulkan physical device in the
// Vulkan loader's order (the order VKCL_DEVICE indexes them).
class Platform {
 public:
  // The one platform, made on first use. A function-local static because
  // the ICD model forces one: the loader compares cl_platform_id values
  // across calls, so the platform (and its devices) must keep one address
  // for the life of the process. It is initialized once, thread-safely, and
  // never changes afterwards: no other global state is mutable.
  static const Platform& get();

  _cl_platform_id handle;
  std::vector<std::unique_ptr<Device>> devices;
  // Why Vulkan could not be asked (no libvulkan.so.1, no instance): the
  // platform is then there with no devices.
  std::string vulkan_error;
  std::vector<cl_name_version> extensions;  // CL_PLATFORM_EXTENSIONS_WITH_VERSION
  std::string extension_names;
  // The Vulkan instance every context's devices share, held for the life
  // of the process (platform.cpp says why).
  std::shared_ptr<const void> vulkan_instance;

  // Queues the application has released whose workers have not finished
  // (queue.cpp): a worker that drops the last reference to its context
  // destroys the VkDevice and perhaps the VkInstance on its own thread. If
  // that ran while the process exits, it raced the driver's own teardown:
  // NVIDIA's (580) then spun and deadlocked in exit. An exit handler waits
  // for them, at most kRetireWait (a command still waiting for a user event
  // nobody will set would wait forever).
  void begin_retiring() const;
  void end_retiring() const;
  static constexpr std::chrono::seconds kRetireWait{20};

  // Whether the process has begun to exit (the platform's exit handler has
  // run). Releases after that destroy nothing (release_handle): a library's
  // static objects may release CL objects from their destructors, which run
  // after the drivers' own exit handlers where the library was loaded first.
  // CLBlast's program cache did, and the NVIDIA driver, already torn down,
  // crashed the process on vkDestroyPipeline. The process is ending anyway.
  bool exiting() const { return exiting_.load(std::memory_order_acquire); }

  // The vkcl object behind a handle, or null where the handle is not one of
  // this platform's (an invalid argument).
  const Device* find(cl_device_id device) const;
  bool owns(cl_platform_id platform) const { return platform == &handle; }

  Platform(const Platform&) = delete;
  Platform& operator=(const Platform&) = delete;

 private:
  Platform();
  void wait_for_retiring() const;

  mutable std::mutex retire_mutex_;
  mutable std::condition_variable retired_;
  mutable int retiring_ = 0;
  mutable std::atomic<bool> exiting_{false};
};

// "OpenCL 3.0 vkcl 0.1.0": CL_PLATFORM_VERSION, which must read
// "OpenCL<space><major.minor><space><platform-specific information>".
std::string platform_version();

// The name and version pairs as CL_*_EXTENSIONS wants them.
std::string names_of(const std::vector<cl_name_version>& list);
cl_name_version name_version(const char* name, cl_version version);

}  // namespace vkcl::opencl

// The platform: clGetPlatformIDs (clIcdGetPlatformIDsKHR) and clGetPlatformInfo.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>

#include "entry_points.h"
#include "info.h"

namespace vkcl::opencl {

cl_name_version name_version(const char* name, cl_version version) {
  cl_name_version nv{};
  nv.version = version;
  std::strncpy(nv.name, name, CL_NAME_VERSION_MAX_NAME_SIZE - 1);
  return nv;
}

std::string names_of(const std::vector<cl_name_version>& list) {
  std::string names;
  for (const cl_name_version& nv : list) names += (names.empty() ? "" : " ") + std::string(nv.name);
  return names;
}

std::string platform_version() { return std::string("OpenCL 3.0 vkcl ") + kVersion; }

Platform::Platform() : handle{&kDispatch, this} {
  // cl_khr_icd is the platform's own; cl_khr_extended_versioning is every
  // device's too (the *_WITH_VERSION and *_NUMERIC_VERSION queries).
  extensions = {name_version("cl_khr_icd", CL_MAKE_VERSION(1, 0, 0)),
                name_version("cl_khr_extended_versioning", CL_MAKE_VERSION(1, 0, 0))};
  extension_names = names_of(extensions);
  try {
    // The VkInstance (and with it the loaded drivers) is held for the life
    // of the process, not made and destroyed with the contexts:
    //  - Mesa's drivers (lavapipe, radv, anv, ...) register an exit handler
    //    for their shader cache's thread queue that points into the driver:
    //    when the last context's release destroyed the instance, the loader
    //    unloaded the driver, and exit crashed (Device::keep_instance).
    //  - NVIDIA's (580.159.04) does not give everything back when an
    //    instance goes: after about 25 instances made and destroyed in one
    //    process (a context each, in the OpenCL API tests), every
    //    clCreateContext failed with CL_OUT_OF_RESOURCES; with the instance
    //    held, all pass.
    // Exit is clean with the instance alive on both, now that a queue's last
    // release waits for its worker (queue.cpp): what hung NVIDIA's exit was
    // a VkDevice destroyed on a worker thread while main returned.
    vulkan_instance = vkcl::Device::keep_instance();
    const std::vector<DeviceInfo> infos = vkcl::Device::list();
    for (const DeviceInfo& info : infos) devices.push_back(std::make_unique<Device>(info, &handle));
    // Registered after the drivers' load-time exit handlers, so it runs
    // before them: queues still retiring finish first, and releases from
    // then on destroy nothing (exiting()).
    std::atexit([] {
      const Platform& platform = Platform::get();
      platform.wait_for_retiring();
      platform.exiting_.store(true, std::memory_order_release);
    });
  } catch (const std::exception& e) {
    vulkan_error = e.what();
    devices.clear();
    std::fprintf(stderr, "vkcl OpenCL: no devices: %s\n", e.what());
  }
}

const Platform& Platform::get() {
  // Never destroyed: queue workers (queue.h) may still run while the
  // process exits, and they read the devices.
  static const Platform* platform = new Platform;
  return *platform;
}

bool process_is_exiting() { return Platform::get().exiting(); }

void Platform::begin_retiring() const {
  std::lock_guard lock(retire_mutex_);
  ++retiring_;
}

void Platform::end_retiring() const {
  std::lock_guard lock(retire_mutex_);
  if (--retiring_ == 0) retired_.notify_all();
}

void Platform::wait_for_retiring() const {
  std::unique_lock lock(retire_mutex_);
  retired_.wait_for(lock, kRetireWait, [this] { return retiring_ == 0; });
}

const Device* Platform::find(cl_device_id device) const {
  for (const auto& d : devices)
    if (&d->handle == device) return d.get();
  return nullptr;
}

cl_int CL_API_CALL get_platform_ids(cl_uint num_entries, cl_platform_id* platforms, cl_uint* num_platforms) {
  if ((num_entries == 0 && platforms) || (!platforms && !num_platforms)) return CL_INVALID_VALUE;
  const Platform& platform = Platform::get();
  if (platforms) platforms[0] = const_cast<cl_platform_id>(&platform.handle);
  if (num_platforms) *num_platforms = 1;
  return CL_SUCCESS;
}

namespace {

std::optional<InfoValue> platform_info(const Platform& p, cl_platform_info param) {
  switch (param) {
    case CL_PLATFORM_PROFILE: return text("FULL_PROFILE");
    case CL_PLATFORM_VERSION: return text(platform_version());
    case CL_PLATFORM_NUMERIC_VERSION: return of<cl_version>(CL_MAKE_VERSION(3, 0, 0));
    case CL_PLATFORM_NAME: return text("vkcl");
    case CL_PLATFORM_VENDOR: return text("vkcl project");
    case CL_PLATFORM_EXTENSIONS: return text(p.extension_names);
    case CL_PLATFORM_EXTENSIONS_WITH_VERSION: return array_of(p.extensions);
    case CL_PLATFORM_ICD_SUFFIX_KHR: return text("vkcl");
    // 0: no clGetHostTimer / clGetDeviceAndHostTimer yet (they return
    // CL_INVALID_OPERATION), which is what 0 tells the application.
    case CL_PLATFORM_HOST_TIMER_RESOLUTION: return of<cl_ulong>(0);
  }
  return std::nullopt;
}

}  // namespace

cl_int CL_API_CALL get_platform_info(cl_platform_id platform, cl_platform_info param_name, size_t param_value_size,
                                     void* param_value, size_t* param_value_size_ret) {
  const Platform& p = Platform::get();
  // NULL is implementation-defined: here it is the one platform.
  if (platform && !p.owns(platform)) return CL_INVALID_PLATFORM;
  return copy_out(platform_info(p, param_name), param_value_size, param_value, param_value_size_ret);
}

// Hints that the compiler's resources may go; there is no compiler here yet.
cl_int CL_API_CALL unload_platform_compiler(cl_platform_id platform) {
  return Platform::get().owns(platform) ? CL_SUCCESS : CL_INVALID_PLATFORM;
}
cl_int CL_API_CALL unload_compiler() { return CL_SUCCESS; }

}  // namespace vkcl::opencl

// The dispatch table, and the only functions libvkcl-opencl.so exports
// (exports.map): what an ICD loader looks up by name.
#include <cstring>

#include "entry_points.h"
#include "not_yet.h"

#define VKCL_EXPORT extern "C" __attribute__((visibility("default")))

namespace vkcl::opencl {
namespace {

// Every entry first returns CL_INVALID_OPERATION (not_yet.h); then the
// platform and device layer replaces its own.
constexpr cl_icd_dispatch make_dispatch() {
  cl_icd_dispatch d{};
#define X(name) d.name = NotYet<decltype(d.name)>::call;
#include "dispatch_members.inc"
#undef X
  d.clGetPlatformIDs = get_platform_ids;
  d.clGetPlatformInfo = get_platform_info;
  d.clGetDeviceIDs = get_device_ids;
  d.clGetDeviceInfo = get_device_info;
  d.clCreateSubDevices = create_sub_devices;
  d.clRetainDevice = retain_device;
  d.clReleaseDevice = release_device;
  d.clCreateSubDevicesEXT = create_sub_devices_ext;  // cl_ext_device_fission, the same answers
  d.clRetainDeviceEXT = retain_device;
  d.clReleaseDeviceEXT = release_device;
  d.clUnloadCompiler = unload_compiler;
  d.clUnloadPlatformCompiler = unload_platform_compiler;
  d.clGetExtensionFunctionAddress = [](const char* name) -> void* { return extension_function(name); };
  d.clGetExtensionFunctionAddressForPlatform = [](cl_platform_id platform, const char* name) -> void* {
    return Platform::get().owns(platform) ? extension_function(name) : nullptr;
  };
  return d;
}

// A header with members dispatch_members.inc does not list fails here.
constexpr size_t listed_members() {
  size_t n = 0;
#define X(name) ++n;
#include "dispatch_members.inc"
#undef X
  return n;
}
static_assert(listed_members() * sizeof(void*) == sizeof(cl_icd_dispatch),
              "cl_icd.h's _cl_icd_dispatch has members that dispatch_members.inc does not list");

}  // namespace

constinit const cl_icd_dispatch kDispatch = make_dispatch();

void* extension_function(const char* name) {
  if (name && std::strcmp(name, "clIcdGetPlatformIDsKHR") == 0)
    return reinterpret_cast<void*>(&get_platform_ids);
  return nullptr;
}

}  // namespace vkcl::opencl

// cl_khr_icd: the loader's way in.
VKCL_EXPORT cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id* platforms,
                                                      cl_uint* num_platforms) {
  return vkcl::opencl::get_platform_ids(num_entries, platforms, num_platforms);
}

VKCL_EXPORT void* CL_API_CALL clGetExtensionFunctionAddress(const char* func_name) {
  return vkcl::opencl::extension_function(func_name);
}

VKCL_EXPORT void* CL_API_CALL clGetExtensionFunctionAddressForPlatform(cl_platform_id platform,
                                                                      const char* func_name) {
  return vkcl::opencl::kDispatch.clGetExtensionFunctionAddressForPlatform(platform, func_name);
}

// Some loaders ask for the suffix (CL_PLATFORM_ICD_SUFFIX_KHR) through the
// library's own clGetPlatformInfo before they use the table.
VKCL_EXPORT cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id platform, cl_platform_info param_name,
                                                 size_t param_value_size, void* param_value,
                                                 size_t* param_value_size_ret) {
  return vkcl::opencl::get_platform_info(platform, param_name, param_value_size, param_value, param_value_size_ret);
}

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
  d.clCreateContext = create_context;
  d.clCreateContextFromType = create_context_from_type;
  d.clRetainContext = retain_context;
  d.clReleaseContext = release_context;
  d.clGetContextInfo = get_context_info;
  d.clSetContextDestructorCallback = set_context_destructor_callback;
  d.clCreateCommandQueue = create_command_queue;
  d.clCreateCommandQueueWithProperties = create_command_queue_with_properties;
  d.clRetainCommandQueue = retain_command_queue;
  d.clReleaseCommandQueue = release_command_queue;
  d.clGetCommandQueueInfo = get_command_queue_info;
  d.clFlush = flush;
  d.clFinish = finish;
  d.clEnqueueMarkerWithWaitList = enqueue_marker_with_wait_list;
  d.clEnqueueBarrierWithWaitList = enqueue_barrier_with_wait_list;
  d.clEnqueueMarker = enqueue_marker;
  d.clEnqueueBarrier = enqueue_barrier;
  d.clEnqueueWaitForEvents = enqueue_wait_for_events;
  d.clWaitForEvents = wait_for_events;
  d.clGetEventInfo = get_event_info;
  d.clSetEventCallback = set_event_callback;
  d.clCreateUserEvent = create_user_event;
  d.clSetUserEventStatus = set_user_event_status;
  d.clGetEventProfilingInfo = get_event_profiling_info;
  d.clRetainEvent = retain_event;
  d.clReleaseEvent = release_event;
  d.clCreateBuffer = create_buffer;
  d.clCreateBufferWithProperties = create_buffer_with_properties;
  d.clCreateSubBuffer = create_sub_buffer;
  d.clRetainMemObject = retain_mem_object;
  d.clReleaseMemObject = release_mem_object;
  d.clSetMemObjectDestructorCallback = set_mem_object_destructor_callback;
  d.clGetMemObjectInfo = get_mem_object_info;
  d.clEnqueueReadBuffer = enqueue_read_buffer;
  d.clEnqueueWriteBuffer = enqueue_write_buffer;
  d.clEnqueueCopyBuffer = enqueue_copy_buffer;
  d.clEnqueueFillBuffer = enqueue_fill_buffer;
  d.clEnqueueReadBufferRect = enqueue_read_buffer_rect;
  d.clEnqueueWriteBufferRect = enqueue_write_buffer_rect;
  d.clEnqueueCopyBufferRect = enqueue_copy_buffer_rect;
  d.clEnqueueMapBuffer = enqueue_map_buffer;
  d.clEnqueueUnmapMemObject = enqueue_unmap_mem_object;
  d.clEnqueueMigrateMemObjects = enqueue_migrate_mem_objects;
  d.clCreateProgramWithSource = create_program_with_source;
  d.clCreateProgramWithBinary = create_program_with_binary;
  d.clRetainProgram = retain_program;
  d.clReleaseProgram = release_program;
  d.clBuildProgram = build_program;
  d.clGetProgramInfo = get_program_info;
  d.clGetProgramBuildInfo = get_program_build_info;
  d.clCompileProgram = compile_program;
  d.clLinkProgram = link_program;
  d.clCreateProgramWithIL = create_program_with_il;
  d.clCreateKernel = create_kernel;
  d.clCreateKernelsInProgram = create_kernels_in_program;
  d.clCloneKernel = clone_kernel;
  d.clRetainKernel = retain_kernel;
  d.clReleaseKernel = release_kernel;
  d.clSetKernelArg = set_kernel_arg;
  d.clGetKernelInfo = get_kernel_info;
  d.clGetKernelArgInfo = get_kernel_arg_info;
  d.clGetKernelWorkGroupInfo = get_kernel_work_group_info;
  d.clEnqueueNDRangeKernel = enqueue_nd_range_kernel;
  d.clEnqueueTask = enqueue_task;
  d.clGetKernelSubGroupInfo = get_kernel_sub_group_info;
  d.clGetKernelSubGroupInfoKHR = get_kernel_sub_group_info;
  d.clGetSupportedImageFormats = get_supported_image_formats;
  d.clGetImageInfo = get_image_info;
  d.clGetPipeInfo = get_pipe_info;
  d.clEnqueueReadImage = enqueue_read_image;
  d.clEnqueueWriteImage = enqueue_write_image;
  d.clEnqueueFillImage = enqueue_fill_image;
  d.clEnqueueCopyImage = enqueue_copy_image;
  d.clEnqueueCopyImageToBuffer = enqueue_copy_image_to_buffer;
  d.clEnqueueCopyBufferToImage = enqueue_copy_buffer_to_image;
  d.clEnqueueMapImage = enqueue_map_image;
  d.clRetainSampler = retain_sampler;
  d.clReleaseSampler = release_sampler;
  d.clGetSamplerInfo = get_sampler_info;
  d.clSVMAlloc = svm_alloc;
  d.clSVMFree = svm_free;
  d.clSetKernelExecInfo = set_kernel_exec_info;
  d.clSetProgramSpecializationConstant = set_program_specialization_constant;
  d.clSetProgramReleaseCallback = set_program_release_callback;
  d.clCreateProgramWithBuiltInKernels = create_program_with_built_in_kernels;
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
  // cl_khr_il_program's name for clCreateProgramWithIL.
  if (name && std::strcmp(name, "clCreateProgramWithILKHR") == 0)
    return reinterpret_cast<void*>(&create_program_with_il);
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

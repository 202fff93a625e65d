// The API functions the ICD implements, reached through the dispatch table
// (dispatch.cpp); the loader's exported entry points are in dispatch.cpp too.
// None throws: each catches what the runtime throws and returns an error code.
#pragma once

#include "icd.h"

namespace vkcl::opencl {

// platform.cpp
cl_int CL_API_CALL get_platform_ids(cl_uint num_entries, cl_platform_id* platforms, cl_uint* num_platforms);
cl_int CL_API_CALL get_platform_info(cl_platform_id platform, cl_platform_info param_name, size_t param_value_size,
                                     void* param_value, size_t* param_value_size_ret);
cl_int CL_API_CALL unload_platform_compiler(cl_platform_id platform);
cl_int CL_API_CALL unload_compiler();

// device.cpp
cl_int CL_API_CALL get_device_ids(cl_platform_id platform, cl_device_type device_type, cl_uint num_entries,
                                  cl_device_id* devices, cl_uint* num_devices);
cl_int CL_API_CALL retain_device(cl_device_id device);
cl_int CL_API_CALL release_device(cl_device_id device);
cl_int CL_API_CALL create_sub_devices(cl_device_id in_device, const cl_device_partition_property* properties,
                                      cl_uint num_devices, cl_device_id* out_devices, cl_uint* num_devices_ret);
cl_int CL_API_CALL create_sub_devices_ext(cl_device_id in_device, const cl_device_partition_property_ext* properties,
                                          cl_uint num_entries, cl_device_id* out_devices, cl_uint* num_devices);

// device_info.cpp
cl_int CL_API_CALL get_device_info(cl_device_id device, cl_device_info param_name, size_t param_value_size,
                                   void* param_value, size_t* param_value_size_ret);

// dispatch.cpp: the extension functions by name (clIcdGetPlatformIDsKHR); null for any other.
void* extension_function(const char* name);

}  // namespace vkcl::opencl

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

// context.cpp
cl_context CL_API_CALL create_context(const cl_context_properties* properties, cl_uint num_devices,
                                      const cl_device_id* devices,
                                      void(CL_CALLBACK* pfn_notify)(const char*, const void*, size_t, void*),
                                      void* user_data, cl_int* errcode_ret);
cl_context CL_API_CALL create_context_from_type(const cl_context_properties* properties, cl_device_type device_type,
                                                void(CL_CALLBACK* pfn_notify)(const char*, const void*, size_t, void*),
                                                void* user_data, cl_int* errcode_ret);
cl_int CL_API_CALL retain_context(cl_context context);
cl_int CL_API_CALL release_context(cl_context context);
cl_int CL_API_CALL get_context_info(cl_context context, cl_context_info param_name, size_t param_value_size,
                                    void* param_value, size_t* param_value_size_ret);
cl_int CL_API_CALL set_context_destructor_callback(cl_context context,
                                                   void(CL_CALLBACK* pfn_notify)(cl_context, void*), void* user_data);

// queue.cpp
cl_command_queue CL_API_CALL create_command_queue(cl_context context, cl_device_id device,
                                                  cl_command_queue_properties properties, cl_int* errcode_ret);
cl_command_queue CL_API_CALL create_command_queue_with_properties(cl_context context, cl_device_id device,
                                                                  const cl_queue_properties* properties,
                                                                  cl_int* errcode_ret);
cl_int CL_API_CALL retain_command_queue(cl_command_queue queue);
cl_int CL_API_CALL release_command_queue(cl_command_queue queue);
cl_int CL_API_CALL get_command_queue_info(cl_command_queue queue, cl_command_queue_info param_name,
                                          size_t param_value_size, void* param_value, size_t* param_value_size_ret);
cl_int CL_API_CALL flush(cl_command_queue queue);
cl_int CL_API_CALL finish(cl_command_queue queue);
cl_int CL_API_CALL enqueue_marker_with_wait_list(cl_command_queue queue, cl_uint num_events_in_wait_list,
                                                 const cl_event* event_wait_list, cl_event* event);
cl_int CL_API_CALL enqueue_barrier_with_wait_list(cl_command_queue queue, cl_uint num_events_in_wait_list,
                                                  const cl_event* event_wait_list, cl_event* event);
cl_int CL_API_CALL enqueue_marker(cl_command_queue queue, cl_event* event);
cl_int CL_API_CALL enqueue_barrier(cl_command_queue queue);
cl_int CL_API_CALL enqueue_wait_for_events(cl_command_queue queue, cl_uint num_events, const cl_event* event_list);

// event.cpp
cl_int CL_API_CALL wait_for_events(cl_uint num_events, const cl_event* event_list);
cl_int CL_API_CALL get_event_info(cl_event event, cl_event_info param_name, size_t param_value_size, void* param_value,
                                  size_t* param_value_size_ret);
cl_int CL_API_CALL set_event_callback(cl_event event, cl_int command_exec_callback_type,
                                      void(CL_CALLBACK* pfn_notify)(cl_event, cl_int, void*), void* user_data);
cl_event CL_API_CALL create_user_event(cl_context context, cl_int* errcode_ret);
cl_int CL_API_CALL set_user_event_status(cl_event event, cl_int execution_status);
cl_int CL_API_CALL get_event_profiling_info(cl_event event, cl_profiling_info param_name, size_t param_value_size,
                                            void* param_value, size_t* param_value_size_ret);
cl_int CL_API_CALL retain_event(cl_event event);
cl_int CL_API_CALL release_event(cl_event event);

// memory.cpp
cl_mem CL_API_CALL create_buffer(cl_context context, cl_mem_flags flags, size_t size, void* host_ptr,
                                 cl_int* errcode_ret);
cl_mem CL_API_CALL create_buffer_with_properties(cl_context context, const cl_mem_properties* properties,
                                                 cl_mem_flags flags, size_t size, void* host_ptr, cl_int* errcode_ret);
cl_mem CL_API_CALL create_sub_buffer(cl_mem buffer, cl_mem_flags flags, cl_buffer_create_type buffer_create_type,
                                     const void* buffer_create_info, cl_int* errcode_ret);
cl_int CL_API_CALL retain_mem_object(cl_mem memobj);
cl_int CL_API_CALL release_mem_object(cl_mem memobj);
cl_int CL_API_CALL set_mem_object_destructor_callback(cl_mem memobj, void(CL_CALLBACK* pfn_notify)(cl_mem, void*),
                                                      void* user_data);
cl_int CL_API_CALL get_mem_object_info(cl_mem memobj, cl_mem_info param_name, size_t param_value_size,
                                       void* param_value, size_t* param_value_size_ret);

// memory_commands.cpp
cl_int CL_API_CALL enqueue_read_buffer(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_read,
                                       size_t offset, size_t size, void* ptr, cl_uint num_events_in_wait_list,
                                       const cl_event* event_wait_list, cl_event* event);
cl_int CL_API_CALL enqueue_write_buffer(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_write,
                                        size_t offset, size_t size, const void* ptr, cl_uint num_events_in_wait_list,
                                        const cl_event* event_wait_list, cl_event* event);
cl_int CL_API_CALL enqueue_copy_buffer(cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_buffer,
                                       size_t src_offset, size_t dst_offset, size_t size,
                                       cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                       cl_event* event);
cl_int CL_API_CALL enqueue_fill_buffer(cl_command_queue command_queue, cl_mem buffer, const void* pattern,
                                       size_t pattern_size, size_t offset, size_t size,
                                       cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                       cl_event* event);
cl_int CL_API_CALL enqueue_read_buffer_rect(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_read,
                                            const size_t* buffer_origin, const size_t* host_origin,
                                            const size_t* region, size_t buffer_row_pitch, size_t buffer_slice_pitch,
                                            size_t host_row_pitch, size_t host_slice_pitch, void* ptr,
                                            cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                            cl_event* event);
cl_int CL_API_CALL enqueue_write_buffer_rect(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_write,
                                             const size_t* buffer_origin, const size_t* host_origin,
                                             const size_t* region, size_t buffer_row_pitch, size_t buffer_slice_pitch,
                                             size_t host_row_pitch, size_t host_slice_pitch, const void* ptr,
                                             cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                             cl_event* event);
cl_int CL_API_CALL enqueue_copy_buffer_rect(cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_buffer,
                                            const size_t* src_origin, const size_t* dst_origin, const size_t* region,
                                            size_t src_row_pitch, size_t src_slice_pitch, size_t dst_row_pitch,
                                            size_t dst_slice_pitch, cl_uint num_events_in_wait_list,
                                            const cl_event* event_wait_list, cl_event* event);
void* CL_API_CALL enqueue_map_buffer(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_map,
                                     cl_map_flags map_flags, size_t offset, size_t size,
                                     cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                     cl_event* event, cl_int* errcode_ret);
cl_int CL_API_CALL enqueue_unmap_mem_object(cl_command_queue command_queue, cl_mem memobj, void* mapped_ptr,
                                            cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                            cl_event* event);
cl_int CL_API_CALL enqueue_migrate_mem_objects(cl_command_queue command_queue, cl_uint num_mem_objects,
                                               const cl_mem* mem_objects, cl_mem_migration_flags flags,
                                               cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                               cl_event* event);

// program.cpp
cl_program CL_API_CALL create_program_with_source(cl_context context, cl_uint count, const char** strings,
                                                  const size_t* lengths, cl_int* errcode_ret);
cl_program CL_API_CALL create_program_with_binary(cl_context context, cl_uint num_devices,
                                                  const cl_device_id* device_list, const size_t* lengths,
                                                  const unsigned char** binaries, cl_int* binary_status,
                                                  cl_int* errcode_ret);
cl_int CL_API_CALL retain_program(cl_program program);
cl_int CL_API_CALL release_program(cl_program program);
cl_int CL_API_CALL build_program(cl_program program, cl_uint num_devices, const cl_device_id* device_list,
                                 const char* options, void(CL_CALLBACK* pfn_notify)(cl_program, void*),
                                 void* user_data);
cl_int CL_API_CALL get_program_info(cl_program program, cl_program_info param_name, size_t param_value_size,
                                    void* param_value, size_t* param_value_size_ret);
cl_int CL_API_CALL get_program_build_info(cl_program program, cl_device_id device, cl_program_build_info param_name,
                                          size_t param_value_size, void* param_value, size_t* param_value_size_ret);

// program_link.cpp
cl_int CL_API_CALL compile_program(cl_program program, cl_uint num_devices, const cl_device_id* device_list,
                                   const char* options, cl_uint num_input_headers, const cl_program* input_headers,
                                   const char** header_include_names,
                                   void(CL_CALLBACK* pfn_notify)(cl_program, void*), void* user_data);
cl_program CL_API_CALL link_program(cl_context context, cl_uint num_devices, const cl_device_id* device_list,
                                    const char* options, cl_uint num_input_programs,
                                    const cl_program* input_programs,
                                    void(CL_CALLBACK* pfn_notify)(cl_program, void*), void* user_data,
                                    cl_int* errcode_ret);

// program_il.cpp
cl_program CL_API_CALL create_program_with_il(cl_context context, const void* il, size_t length, cl_int* errcode_ret);
cl_int CL_API_CALL set_program_specialization_constant(cl_program program, cl_uint spec_id, size_t spec_size,
                                                       const void* spec_value);

// kernel.cpp
cl_kernel CL_API_CALL create_kernel(cl_program program, const char* kernel_name, cl_int* errcode_ret);
cl_int CL_API_CALL create_kernels_in_program(cl_program program, cl_uint num_kernels, cl_kernel* kernels,
                                             cl_uint* num_kernels_ret);
cl_kernel CL_API_CALL clone_kernel(cl_kernel source_kernel, cl_int* errcode_ret);
cl_int CL_API_CALL retain_kernel(cl_kernel kernel);
cl_int CL_API_CALL release_kernel(cl_kernel kernel);
cl_int CL_API_CALL set_kernel_arg(cl_kernel kernel, cl_uint arg_index, size_t arg_size, const void* arg_value);
cl_int CL_API_CALL get_kernel_info(cl_kernel kernel, cl_kernel_info param_name, size_t param_value_size,
                                   void* param_value, size_t* param_value_size_ret);
cl_int CL_API_CALL get_kernel_arg_info(cl_kernel kernel, cl_uint arg_index, cl_kernel_arg_info param_name,
                                       size_t param_value_size, void* param_value, size_t* param_value_size_ret);
cl_int CL_API_CALL get_kernel_work_group_info(cl_kernel kernel, cl_device_id device,
                                              cl_kernel_work_group_info param_name, size_t param_value_size,
                                              void* param_value, size_t* param_value_size_ret);

cl_int CL_API_CALL get_kernel_sub_group_info(cl_kernel kernel, cl_device_id device, cl_kernel_sub_group_info param_name,
                                             size_t input_value_size, const void* input_value,
                                             size_t param_value_size, void* param_value,
                                             size_t* param_value_size_ret);

// kernel_commands.cpp
cl_int CL_API_CALL enqueue_nd_range_kernel(cl_command_queue command_queue, cl_kernel kernel, cl_uint work_dim,
                                           const size_t* global_work_offset, const size_t* global_work_size,
                                           const size_t* local_work_size, cl_uint num_events_in_wait_list,
                                           const cl_event* event_wait_list, cl_event* event);
cl_int CL_API_CALL enqueue_task(cl_command_queue command_queue, cl_kernel kernel, cl_uint num_events_in_wait_list,
                                const cl_event* event_wait_list, cl_event* event);

// unsupported.cpp
cl_int CL_API_CALL get_supported_image_formats(cl_context context, cl_mem_flags flags, cl_mem_object_type image_type,
                                               cl_uint num_entries, cl_image_format* image_formats,
                                               cl_uint* num_image_formats);
cl_int CL_API_CALL get_image_info(cl_mem image, cl_image_info, size_t, void*, size_t*);
cl_int CL_API_CALL get_pipe_info(cl_mem pipe, cl_pipe_info, size_t, void*, size_t*);
cl_int CL_API_CALL enqueue_read_image(cl_command_queue, cl_mem, cl_bool, const size_t*, const size_t*, size_t, size_t,
                                      void*, cl_uint, const cl_event*, cl_event*);
cl_int CL_API_CALL enqueue_write_image(cl_command_queue, cl_mem, cl_bool, const size_t*, const size_t*, size_t,
                                       size_t, const void*, cl_uint, const cl_event*, cl_event*);
cl_int CL_API_CALL enqueue_fill_image(cl_command_queue, cl_mem, const void*, const size_t*, const size_t*, cl_uint,
                                      const cl_event*, cl_event*);
cl_int CL_API_CALL enqueue_copy_image(cl_command_queue, cl_mem, cl_mem, const size_t*, const size_t*, const size_t*,
                                      cl_uint, const cl_event*, cl_event*);
cl_int CL_API_CALL enqueue_copy_image_to_buffer(cl_command_queue, cl_mem, cl_mem, const size_t*, const size_t*,
                                                size_t, cl_uint, const cl_event*, cl_event*);
cl_int CL_API_CALL enqueue_copy_buffer_to_image(cl_command_queue, cl_mem, cl_mem, size_t, const size_t*,
                                                const size_t*, cl_uint, const cl_event*, cl_event*);
void* CL_API_CALL enqueue_map_image(cl_command_queue, cl_mem, cl_bool, cl_map_flags, const size_t*, const size_t*,
                                    size_t*, size_t*, cl_uint, const cl_event*, cl_event*, cl_int*);
cl_int CL_API_CALL retain_sampler(cl_sampler);
cl_int CL_API_CALL release_sampler(cl_sampler);
cl_int CL_API_CALL get_sampler_info(cl_sampler, cl_sampler_info, size_t, void*, size_t*);
void* CL_API_CALL svm_alloc(cl_context, cl_svm_mem_flags, size_t, cl_uint);
void CL_API_CALL svm_free(cl_context, void*);
cl_int CL_API_CALL set_kernel_exec_info(cl_kernel, cl_kernel_exec_info, size_t, const void*);
cl_int CL_API_CALL set_program_release_callback(cl_program, void(CL_CALLBACK*)(cl_program, void*), void*);
cl_program CL_API_CALL create_program_with_built_in_kernels(cl_context, cl_uint, const cl_device_id*, const char*,
                                                            cl_int*);

// dispatch.cpp: the extension functions by name (clIcdGetPlatformIDsKHR,
// clCreateProgramWithILKHR); null for any other.
void* extension_function(const char* name);

}  // namespace vkcl::opencl

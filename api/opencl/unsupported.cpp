// The entry points of what no vkcl device supports (CL_DEVICE_IMAGE_SUPPORT,
// pipes, SVM, built-in and native kernels, device-side queues), with the answers the specification gives for such a
// device: CL_INVALID_OPERATION where it says "if no device supports ...",
// and the invalid-object code where the call names an object that cannot
// exist (no cl_mem is an image or a pipe, no sampler exists). The rest of
// the table that has no implementation says CL_INVALID_OPERATION (not_yet.h).
#include "entry_points.h"
#include "errors.h"
#include "kernel.h"
#include "memory.h"
#include "program.h"
#include "queue.h"

namespace vkcl::opencl {
namespace {

// A queue and then a memory object that must be an image: there are none.
cl_int no_image(cl_command_queue queue, cl_mem image) {
  return guard([&] {
    get<Queue>(queue, CL_INVALID_COMMAND_QUEUE);
    get<Memory>(image, CL_INVALID_MEM_OBJECT);
    return CL_INVALID_MEM_OBJECT;  // a buffer, not an image
  });
}

}  // namespace

cl_int CL_API_CALL get_supported_image_formats(cl_context context, cl_mem_flags flags, cl_mem_object_type image_type,
                                               cl_uint num_entries, cl_image_format* image_formats,
                                               cl_uint* num_image_formats) {
  return guard([&] {
    get<Context>(context, CL_INVALID_CONTEXT);
    require(!(flags & ~cl_mem_flags(0x3ff | CL_MEM_KERNEL_READ_AND_WRITE)), CL_INVALID_VALUE, "unknown flags");
    require(image_type == CL_MEM_OBJECT_IMAGE1D || image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER ||
                image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY || image_type == CL_MEM_OBJECT_IMAGE2D ||
                image_type == CL_MEM_OBJECT_IMAGE2D_ARRAY || image_type == CL_MEM_OBJECT_IMAGE3D,
            CL_INVALID_VALUE, "not an image type");
    require(num_entries || !image_formats, CL_INVALID_VALUE, "num_entries is 0 and image_formats is not NULL");
    // No device of the context supports images: no formats.
    if (num_image_formats) *num_image_formats = 0;
    return CL_SUCCESS;
  });
}

cl_int CL_API_CALL get_image_info(cl_mem image, cl_image_info, size_t, void*, size_t*) {
  return guard([&] {
    get<Memory>(image, CL_INVALID_MEM_OBJECT);
    return CL_INVALID_MEM_OBJECT;
  });
}

cl_int CL_API_CALL get_pipe_info(cl_mem pipe, cl_pipe_info, size_t, void*, size_t*) {
  return guard([&] {
    get<Memory>(pipe, CL_INVALID_MEM_OBJECT);
    return CL_INVALID_MEM_OBJECT;
  });
}

cl_int CL_API_CALL enqueue_read_image(cl_command_queue queue, cl_mem image, cl_bool, const size_t*, const size_t*,
                                      size_t, size_t, void*, cl_uint, const cl_event*, cl_event*) {
  return no_image(queue, image);
}
cl_int CL_API_CALL enqueue_write_image(cl_command_queue queue, cl_mem image, cl_bool, const size_t*, const size_t*,
                                       size_t, size_t, const void*, cl_uint, const cl_event*, cl_event*) {
  return no_image(queue, image);
}
cl_int CL_API_CALL enqueue_fill_image(cl_command_queue queue, cl_mem image, const void*, const size_t*, const size_t*,
                                      cl_uint, const cl_event*, cl_event*) {
  return no_image(queue, image);
}
cl_int CL_API_CALL enqueue_copy_image(cl_command_queue queue, cl_mem src_image, cl_mem, const size_t*, const size_t*,
                                      const size_t*, cl_uint, const cl_event*, cl_event*) {
  return no_image(queue, src_image);
}
cl_int CL_API_CALL enqueue_copy_image_to_buffer(cl_command_queue queue, cl_mem src_image, cl_mem, const size_t*,
                                                const size_t*, size_t, cl_uint, const cl_event*, cl_event*) {
  return no_image(queue, src_image);
}
cl_int CL_API_CALL enqueue_copy_buffer_to_image(cl_command_queue queue, cl_mem, cl_mem dst_image, size_t,
                                                const size_t*, const size_t*, cl_uint, const cl_event*, cl_event*) {
  return no_image(queue, dst_image);
}
void* CL_API_CALL enqueue_map_image(cl_command_queue queue, cl_mem image, cl_bool, cl_map_flags, const size_t*,
                                    const size_t*, size_t*, size_t*, cl_uint, const cl_event*, cl_event*,
                                    cl_int* errcode_ret) {
  cl_int code = no_image(queue, image);
  if (errcode_ret) *errcode_ret = code;
  return nullptr;
}

// Samplers: no sampler can have been made.
cl_int CL_API_CALL retain_sampler(cl_sampler) { return CL_INVALID_SAMPLER; }
cl_int CL_API_CALL release_sampler(cl_sampler) { return CL_INVALID_SAMPLER; }
cl_int CL_API_CALL get_sampler_info(cl_sampler, cl_sampler_info, size_t, void*, size_t*) { return CL_INVALID_SAMPLER; }

// SVM: clSVMAlloc gives NULL where no device supports SVM; clSVMFree of
// anything clSVMAlloc gave (NULL) does nothing.
void* CL_API_CALL svm_alloc(cl_context, cl_svm_mem_flags, size_t, cl_uint) { return nullptr; }
void CL_API_CALL svm_free(cl_context, void*) {}

cl_int CL_API_CALL set_kernel_exec_info(cl_kernel kernel, cl_kernel_exec_info param_name, size_t, const void*) {
  return guard([&] {
    get<Kernel>(kernel, CL_INVALID_KERNEL);
    if (param_name == CL_KERNEL_EXEC_INFO_SVM_PTRS || param_name == CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM)
      return CL_INVALID_OPERATION;  // no device supports SVM
    return CL_INVALID_VALUE;
  });
}

cl_int CL_API_CALL set_program_release_callback(cl_program program, void(CL_CALLBACK*)(cl_program, void*), void*) {
  return guard([&] {
    get<Program>(program, CL_INVALID_PROGRAM);
    return CL_INVALID_OPERATION;  // no program-scope global destructors
  });
}

cl_program CL_API_CALL create_program_with_built_in_kernels(cl_context context, cl_uint, const cl_device_id*,
                                                            const char*, cl_int* errcode_ret) {
  return guard_object(errcode_ret, [&]() -> cl_program {
    get<Context>(context, CL_INVALID_CONTEXT);
    // CL_DEVICE_BUILT_IN_KERNELS is empty: no name is one.
    throw ClError{CL_INVALID_VALUE, "no built-in kernels"};
  });
}

}  // namespace vkcl::opencl

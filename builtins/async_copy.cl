// OpenCL C async copies and prefetch (OpenCL C 6.15.11), as work-group
// cooperative copies.
//
// Vulkan has no asynchronous copy, and the translator's OpGroupAsyncCopy and
// OpGroupWaitEvents need the Kernel capability, so every function is defined
// here and the translator never sees one:
//   - async_work_group_copy / async_work_group_strided_copy: the work-items of
//     the work-group copy the elements between them (work-item l takes
//     elements l, l + L, l + 2L, ... where L is the number of work-items in
//     the work-group, l its linear local id), synchronously. The
//     specification lets the copy happen at any time between the call and
//     wait_group_events, so a copy that is done at the call is one of the
//     allowed executions; the returned event is the one passed in (0 when the
//     kernel passed 0), and no event is ever looked at.
//   - wait_group_events: a work-group barrier over local and global memory
//     (CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE), which makes every
//     work-item's part of the copy visible to the whole work-group. Like the
//     copy functions, it must be reached by all work-items of the work-group
//     (OpenCL's rule for these functions, and the barrier's).
//   - prefetch: a hint without effect.
// Types: every scalar and vector (2, 3, 4, 8, 16) of char, uchar, short,
// ushort, int, uint, long, ulong, float, double and half.

#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define OVERLOADABLE __attribute__((overloadable))

static inline size_t work_group_items(void) { return get_local_size(0) * get_local_size(1) * get_local_size(2); }

#define ASYNC_COPY(T)                                                                                   \
  event_t OVERLOADABLE async_work_group_copy(__local T* dst, const __global T* src, size_t n,            \
                                             event_t event) {                                           \
    const size_t step = work_group_items();                                                             \
    for (size_t i = get_local_linear_id(); i < n; i += step) dst[i] = src[i];                           \
    return event;                                                                                       \
  }                                                                                                     \
  event_t OVERLOADABLE async_work_group_copy(__global T* dst, const __local T* src, size_t n,            \
                                             event_t event) {                                           \
    const size_t step = work_group_items();                                                             \
    for (size_t i = get_local_linear_id(); i < n; i += step) dst[i] = src[i];                           \
    return event;                                                                                       \
  }                                                                                                     \
  event_t OVERLOADABLE async_work_group_strided_copy(__local T* dst, const __global T* src, size_t n,   \
                                                     size_t src_stride, event_t event) {               \
    const size_t step = work_group_items();                                                             \
    for (size_t i = get_local_linear_id(); i < n; i += step) dst[i] = src[i * src_stride];              \
    return event;                                                                                       \
  }                                                                                                     \
  event_t OVERLOADABLE async_work_group_strided_copy(__global T* dst, const __local T* src, size_t n,   \
                                                     size_t dst_stride, event_t event) {               \
    const size_t step = work_group_items();                                                             \
    for (size_t i = get_local_linear_id(); i < n; i += step) dst[i * dst_stride] = src[i];              \
    return event;                                                                                       \
  }                                                                                                     \
  void OVERLOADABLE prefetch(const __global T* p, size_t n) {}

#define ASYNC_COPY_VECTORS(T) \
  ASYNC_COPY(T)               \
  ASYNC_COPY(T##2)            \
  ASYNC_COPY(T##3)            \
  ASYNC_COPY(T##4)            \
  ASYNC_COPY(T##8)            \
  ASYNC_COPY(T##16)

ASYNC_COPY_VECTORS(char)
ASYNC_COPY_VECTORS(uchar)
ASYNC_COPY_VECTORS(short)
ASYNC_COPY_VECTORS(ushort)
ASYNC_COPY_VECTORS(int)
ASYNC_COPY_VECTORS(uint)
ASYNC_COPY_VECTORS(long)
ASYNC_COPY_VECTORS(ulong)
ASYNC_COPY_VECTORS(float)
ASYNC_COPY_VECTORS(double)
ASYNC_COPY_VECTORS(half)

void OVERLOADABLE wait_group_events(int num_events, event_t* event_list) {
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}

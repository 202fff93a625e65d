// Histogram with OpenCL C 3.0 atomics: a kernel-scope __local atomic_uint
// array with work-group scope, merged with device scope.
// @kernel histogram_c11
// @std CL3.0
// @global 1024
// @local 64
// @arg values global uint[1024] random(35, 0, 255)
// @arg hist global uint[32] zero
// @check hist exact
// @bench-global 16777216
// @bench-arg values global uint[16777216] random(35, 0, 255)
__kernel void histogram_c11(__global const uint* values, __global atomic_uint* hist) {
  __local atomic_uint bins[32];
  const uint lid = get_local_id(0);
  if (lid < 32) atomic_store_explicit(&bins[lid], 0u, memory_order_relaxed, memory_scope_work_group);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  atomic_fetch_add_explicit(&bins[values[get_global_id(0)] / 8], 1u, memory_order_relaxed, memory_scope_work_group);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < 32) {
    uint count = atomic_load_explicit(&bins[lid], memory_order_relaxed, memory_scope_work_group);
    atomic_fetch_add_explicit(&hist[lid], count, memory_order_relaxed, memory_scope_device);
  }
}

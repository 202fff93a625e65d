// C11 atomics on a kernel-scope __local atomic_int with work-group scope,
// atomic_work_item_fence, and acquire/release loads and stores.
// @kernel local_c11
// @std CL3.0
// @global 256
// @local 64
// @arg values global int[256] random(236, 0, 100)
// @arg out global int[8] zero
// @check out exact
// @bench-global 16777216
// @bench-arg values global int[16777216] random(236, 0, 100)
// @bench-arg out global int[524288] zero
__kernel void local_c11(__global const int* values, __global int* out) {
  __local atomic_int total;
  __local atomic_int maximum;
  if (get_local_id(0) == 0) {
    atomic_init(&total, 0);
    atomic_init(&maximum, 0);
  }
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  const int v = values[get_global_id(0)];
  atomic_fetch_add_explicit(&total, v, memory_order_relaxed, memory_scope_work_group);
  atomic_fetch_max_explicit(&maximum, v, memory_order_release, memory_scope_work_group);
  atomic_work_item_fence(CLK_LOCAL_MEM_FENCE, memory_order_acq_rel, memory_scope_work_group);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) {
    out[2 * get_group_id(0)] = atomic_load_explicit(&total, memory_order_acquire, memory_scope_work_group);
    out[2 * get_group_id(0) + 1] = atomic_load_explicit(&maximum, memory_order_relaxed, memory_scope_work_group);
  }
}

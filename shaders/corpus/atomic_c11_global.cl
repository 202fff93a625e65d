// OpenCL C 3.0 atomics on global memory: atomic_fetch_add_explicit,
// fetch_min/max, fetch_or with relaxed order and device scope, and
// atomic_exchange into a slot per work-group.
// @kernel c11_global
// @std CL3.0
// @global 1024
// @local 128
// @arg values global int[1024] random(234, -5000, 5000)
// @arg sums global int[4] fill(0)
// @check sums exact
// @bench-global 1048576
// @bench-arg values global int[1048576] random(234, -5000, 5000)
__kernel void c11_global(__global const int* values, __global atomic_int* sums) {
  const int v = values[get_global_id(0)];
  atomic_fetch_add_explicit(&sums[0], v, memory_order_relaxed, memory_scope_device);
  atomic_fetch_min_explicit(&sums[1], v, memory_order_relaxed, memory_scope_device);
  atomic_fetch_max_explicit(&sums[2], v, memory_order_relaxed, memory_scope_device);
  atomic_fetch_or_explicit(&sums[3], 1 << (get_group_id(0) & 31), memory_order_relaxed, memory_scope_device);
}

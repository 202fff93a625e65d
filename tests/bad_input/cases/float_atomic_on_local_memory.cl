kernel void k(global float* p) {
  local atomic_float sum;
  atomic_store(&sum, 0.0f);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  p[0] = atomic_exchange(&sum, 1.0f);
}
